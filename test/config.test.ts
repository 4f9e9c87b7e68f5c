import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasNoConfiguration } from '../dev/unconfigured.js';
import { ConfigError, loadConfig, readDotEnv } from '../src/config.js';
import { describeConfig, logSecrets, redactDatabaseUrl } from '../src/config-display.js';
import { formatDuration, parseDuration } from '../src/kernel/durations.js';

const validHttpEnv = {
  PAYMENTS_API_URL: 'https://payments.example.com/',
  PAYMENTS_API_KEY: 'pk_live_supersecret',
  SLACK_BOT_TOKEN: 'xoxb-1234-secret',
  SLACK_SIGNING_SECRET: 'signing-secret-value',
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected loadConfig to fail');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(validHttpEnv);
    expect(config).toMatchObject({
      paymentsApiUrl: 'https://payments.example.com',
      port: 3000,
      slackAppToken: undefined,
      alertChannel: undefined,
      pollSchedule: '* * * * *',
      alertLookbackMs: 24 * 3_600_000,
      swapApprovers: [],
      allowSelfApproval: false,
      // Unset outside production: everyone in the workspace, and describeConfig says it was not set.
      treasuryUsers: ['*'],
      treasuryUsersDefaulted: true,
      dataFile: './data/state.json',
      logLevel: 'info',
    });
  });

  it('applies the documented defaults of the alert lifecycle', () => {
    const config = loadConfig(validHttpEnv);
    expect(config).toMatchObject({
      alertRoutes: {},
      alertOnCall: [],
      alertTimeZone: 'UTC',
      alertResolveNoteRequired: true,
      alertRemindAfterMs: 30 * 60_000,
      alertStaleAfterMs: 24 * 3_600_000,
      stuckAfterMs: { withdrawal: 2 * 3_600_000, task: 6 * 3_600_000, gas: 3_600_000 },
    });
  });

  it('parses the alert lifecycle variables', () => {
    const config = loadConfig({
      ...validHttpEnv,
      ALERT_CHANNEL: 'C0ALERTS',
      ALERT_ROUTES: 'gas_donor_balance=C0GAS@S0ONCALL, withdrawal_failed=C0OPS',
      ALERT_ONCALL: 'U0ALICE S0TREASURY,W0BOB',
      ALERT_TIME_ZONE: 'europe/berlin',
      ALERT_RESOLVE_NOTE: 'Optional',
      ALERT_REMIND_AFTER: '15m',
      ALERT_STALE_AFTER: '2d',
      STUCK_WITHDRAWAL_AFTER: '90m',
      STUCK_TASK_AFTER: '12h',
      STUCK_GAS_AFTER: '45m',
    });
    expect(config).toMatchObject({
      alertRoutes: {
        gas_donor_balance: { channel: 'C0GAS', mention: { type: 'group', id: 'S0ONCALL' } },
        withdrawal_failed: { channel: 'C0OPS' },
      },
      alertOnCall: [
        { type: 'user', id: 'U0ALICE' },
        { type: 'group', id: 'S0TREASURY' },
        { type: 'user', id: 'W0BOB' },
      ],
      // The canonical name, whatever the case it was written in.
      alertTimeZone: 'Europe/Berlin',
      alertResolveNoteRequired: false,
      alertRemindAfterMs: 15 * 60_000,
      alertStaleAfterMs: 2 * 86_400_000,
      stuckAfterMs: { withdrawal: 90 * 60_000, task: 12 * 3_600_000, gas: 45 * 60_000 },
    });
    expect(config.alertRoutes.withdrawal_failed).not.toHaveProperty('mention');
  });

  it('parses every optional variable', () => {
    const config = loadConfig({
      ...validHttpEnv,
      SLACK_APP_TOKEN: 'xapp-1-abc',
      SLACK_API_URL: 'http://127.0.0.1:9999/api',
      PORT: '8080',
      ALERT_CHANNEL: 'C012ABCDEF',
      POLL_SCHEDULE: '*/30 * * * * *',
      ALERT_LOOKBACK: '7d',
      SWAP_APPROVERS: 'U0APPROVER1, U0APPROVER2',
      ALLOW_SELF_APPROVAL: 'true',
      TREASURY_USERS: 'U0OPS1',
      DATA_FILE: '/var/lib/bot/state.json',
      LOG_LEVEL: 'DEBUG',
    });
    expect(config).toMatchObject({
      slackAppToken: 'xapp-1-abc',
      slackApiUrl: 'http://127.0.0.1:9999/api/',
      port: 8080,
      alertChannel: 'C012ABCDEF',
      pollSchedule: '*/30 * * * * *',
      alertLookbackMs: 7 * 86_400_000,
      swapApprovers: ['U0APPROVER1', 'U0APPROVER2'],
      allowSelfApproval: true,
      treasuryUsers: ['U0OPS1'],
      dataFile: '/var/lib/bot/state.json',
      logLevel: 'debug',
    });
  });

  it('reads METRICS_PORT and METRICS_TOKEN; the token is never printed', () => {
    const config = loadConfig({ ...validHttpEnv, METRICS_PORT: '9464', METRICS_TOKEN: 'scrape-secret-1' });
    expect(config).toMatchObject({ metricsPort: 9464, metricsToken: 'scrape-secret-1' });
    const described = describeConfig(config);
    expect(described.METRICS_PORT).toBe('9464');
    expect(described.METRICS_TOKEN).toBe('[set]');
    expect(JSON.stringify(described)).not.toContain('scrape-secret-1');
    const unset = loadConfig({ ...validHttpEnv, METRICS_PORT: '', METRICS_TOKEN: '' });
    expect(unset.metricsPort).toBeUndefined();
    expect(unset.metricsToken).toBeUndefined();
    expect(() => loadConfig({ ...validHttpEnv, METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
  });

  it('does not need a signing secret in Socket Mode', () => {
    const { SLACK_SIGNING_SECRET: _unused, ...socketEnv } = validHttpEnv;
    expect(loadConfig({ ...socketEnv, SLACK_APP_TOKEN: 'xapp-1-abc' }).slackSigningSecret).toBeUndefined();
  });

  it('names every missing required variable, one line each', () => {
    const problems = problemsOf({});
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/^PAYMENTS_API_URL: /m);
    expect(problems.join('\n')).toMatch(/^PAYMENTS_API_KEY: /m);
    expect(problems.join('\n')).toMatch(/^SLACK_BOT_TOKEN: /m);
    expect(problems.join('\n')).toMatch(/^SLACK_SIGNING_SECRET: required in HTTP mode/m);
  });

  it.each([
    ['PAYMENTS_API_URL', 'not a url', /http\(s\) URL/],
    ['PAYMENTS_API_URL', 'ftp://example.com', /http\(s\) URL/],
    ['SLACK_BOT_TOKEN', 'xoxp-user-token', /xoxb-/],
    ['SLACK_APP_TOKEN', 'xoxb-wrong-kind', /xapp-/],
    ['SLACK_API_URL', 'slack', /URL/],
    ['PORT', '99999', /1 to 65535/],
    ['PORT', 'eighty', /1 to 65535/],
    ['ALERT_CHANNEL', 'alerts channel', /channel id/],
    ['POLL_SCHEDULE', 'every minute', /cron expression/],
    ['POLL_SCHEDULE', '* * * * * * *', /cron expression/],
    ['ALERT_LOOKBACK', '24 hours', /duration/],
    ['ALERT_LOOKBACK', '0h', /duration/],
    [
      'SWAP_APPROVERS',
      '@alice,U0BOB',
      /"@alice" is not a Slack user id \(U012ABCDEF\) or user group id \(S012ABCDEF\)/,
    ],
    ['SWAP_APPROVERS', 'U0AVERY,C0CHANNEL', /"C0CHANNEL" is not a Slack user id/],
    ['SWAP_POLICY', '10000:2', /start it at 0/],
    ['SWAP_POLICY', '0:1,10000:0', /asks for 0 approvers/],
    ['SWAP_POLICY', '0:2,10000:1', /fewer than the 2 of \$0 below it/],
    ['SWAP_DAILY_LIMIT_USD', 'a lot', /"a lot" is not a USD amount/],
    ['SWAP_DAILY_LIMIT_USD', '0', /more than \$0/],
    ['ALLOW_SELF_APPROVAL', 'maybe', /true or false/],
    ['SWAP_MAX_USD', 'lots', /"lots" is not a USD amount/],
    ['SWAP_MAX_USD', '$0', /more than \$0/],
    [
      'TREASURY_USERS',
      'alice',
      /"alice" is not a Slack user id \(U012ABCDEF\) or user group id \(S012ABCDEF\), nor `\*`/,
    ],
    [
      'TREASURY_USERS',
      '*,U0OPS1',
      /`\*` \(everyone in the installing organisation \(on Enterprise Grid, every workspace of it\)\) stands alone/,
    ],
    ['TREASURY_ADMINS', 'U0AVERY,#treasury', /"#treasury" is not a Slack user id/],
    ['LOG_LEVEL', 'verbose', /debug, info, warn, error/],
    ['ALERT_ONCALL', '@alice', /"@alice" is not a Slack user id \(U…\) or user group id \(S…\)/],
    ['ALERT_ONCALL', 'C0CHANNEL', /"C0CHANNEL" is not a Slack user id/],
    ['ALERT_TIME_ZONE', 'Mars/Olympus', /IANA time zone such as Europe\/Berlin/],
    ['ALERT_TIME_ZONE', '+01:00', /IANA time zone/],
    ['ALERT_RESOLVE_NOTE', 'yes', /required or optional/],
    ['ALERT_REMIND_AFTER', '30 minutes', /duration such as 30m/],
    ['ALERT_REMIND_AFTER', '0m', /duration/],
    ['ALERT_STALE_AFTER', '1w', /duration/],
    ['STUCK_WITHDRAWAL_AFTER', '2', /duration/],
    ['STUCK_TASK_AFTER', '-6h', /duration/],
    ['STUCK_GAS_AFTER', '1.5h', /duration/],
  ])('rejects %s=%j with a line naming it', (variable, value, expected) => {
    const problems = problemsOf({ ...validHttpEnv, [variable]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${variable}: `));
    expect(problems[0]).toMatch(expected);
  });

  it.each([
    ['withdrawal_failed', /"withdrawal_failed" should look like kind=CHANNEL_ID or kind=CHANNEL_ID@ONCALL_ID/],
    ['swap_failed=C0OPS', /"swap_failed" is not a kind of alert \(one of withdrawal_failed, task_failed/],
    ['stuck=C0OPS,stuck=C0OTHER', /stuck is routed twice/],
    ['stuck=#ops', /stuck goes to "#ops", which is not a channel id/],
    ['watcher=C0OPS@alice', /watcher mentions "alice", which is not a user id/],
  ])('rejects ALERT_ROUTES=%j with one plain line naming it', (value, expected) => {
    const problems = problemsOf({ ...validHttpEnv, ALERT_CHANNEL: 'C0ALERTS', ALERT_ROUTES: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^ALERT_ROUTES: /);
    // The variable is named once, at the front.
    expect(problems[0]).not.toMatch(/^ALERT_ROUTES: ALERT_ROUTES/);
    expect(problems[0]).toMatch(expected);
  });

  it('refuses routes without ALERT_CHANNEL: the poller would be off and nothing sent', () => {
    const problems = problemsOf({ ...validHttpEnv, ALERT_ROUTES: 'stuck=C0OPS' });
    expect(problems).toEqual([expect.stringMatching(/^ALERT_ROUTES: set, but ALERT_CHANNEL is not/)]);
  });

  it('reports every problem of the alert variables at once, one line each', () => {
    const problems = problemsOf({
      ...validHttpEnv,
      ALERT_CHANNEL: 'C0ALERTS',
      ALERT_ROUTES: 'nonsense=C0OPS,stuck=ops',
      ALERT_ONCALL: 'alice,U0OK,bob',
      ALERT_TIME_ZONE: 'Berlin',
      ALERT_RESOLVE_NOTE: 'maybe',
      ALERT_REMIND_AFTER: 'soon',
      ALERT_STALE_AFTER: 'later',
      STUCK_WITHDRAWAL_AFTER: 'x',
      STUCK_TASK_AFTER: 'y',
      STUCK_GAS_AFTER: 'z',
    });
    expect(problems).toHaveLength(11);
    for (const variable of [
      'ALERT_TIME_ZONE',
      'ALERT_RESOLVE_NOTE',
      'ALERT_REMIND_AFTER',
      'ALERT_STALE_AFTER',
      'STUCK_WITHDRAWAL_AFTER',
      'STUCK_TASK_AFTER',
      'STUCK_GAS_AFTER',
    ]) {
      expect(problems.filter((line) => line.startsWith(`${variable}: `))).toHaveLength(1);
    }
    expect(problems.filter((line) => line.startsWith('ALERT_ROUTES: '))).toHaveLength(2);
    expect(problems.filter((line) => line.startsWith('ALERT_ONCALL: '))).toEqual([
      'ALERT_ONCALL: "alice" is not a Slack user id (U…) or user group id (S…)',
      'ALERT_ONCALL: "bob" is not a Slack user id (U…) or user group id (S…)',
    ]);
    // One line each: nothing a person reads spans lines.
    for (const line of problems) expect(line).not.toContain('\n');
  });

  it('never puts a secret value into its error', () => {
    try {
      loadConfig({ ...validHttpEnv, PORT: 'bad', SLACK_BOT_TOKEN: 'xoxp-very-secret-user-token' });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('very-secret');
      return;
    }
    throw new Error('expected failure');
  });
});

describe('TREASURY_USERS: who may use the bot', () => {
  const production = { ...validHttpEnv, NODE_ENV: 'production' };

  it.each([
    ['unset', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('in production, %s refuses to start with one line saying what to set', (_, value) => {
    const problems = problemsOf({ ...production, ...(value === undefined ? {} : { TREASURY_USERS: value }) });
    expect(problems).toEqual([
      "TREASURY_USERS: required in production (NODE_ENV=production): list who may use the bot (user ids U…, user group ids S…; a group of one workspace's people admits that workspace only), or set it to * for everyone in the installing organisation (on Enterprise Grid, every workspace of it)",
    ]);
  });

  it('in production, * (everyone, said explicitly), people or user groups start', () => {
    expect(loadConfig({ ...production, TREASURY_USERS: '*' })).toMatchObject({
      treasuryUsers: ['*'],
      treasuryUsersDefaulted: false,
    });
    expect(loadConfig({ ...production, TREASURY_USERS: ' U0OPS1 , S0TREASURY ,W0GRID1' })).toMatchObject({
      treasuryUsers: ['U0OPS1', 'S0TREASURY', 'W0GRID1'],
      treasuryUsersDefaulted: false,
    });
  });

  it('outside production, unset still means everyone, and the printed configuration says it was not set', () => {
    const config = loadConfig(validHttpEnv);
    expect(config.treasuryUsers).toEqual(['*']);
    expect(describeConfig(config).TREASURY_USERS).toBe(
      '(unset: everyone in the installing organisation (on Enterprise Grid, every workspace of it); production requires it to be set)',
    );
    expect(describeConfig(loadConfig({ ...validHttpEnv, TREASURY_USERS: '*' })).TREASURY_USERS).toBe(
      '* (everyone in the installing organisation (on Enterprise Grid, every workspace of it))',
    );
    expect(describeConfig(loadConfig({ ...validHttpEnv, TREASURY_USERS: 'U0OPS1,S0TREASURY' })).TREASURY_USERS).toBe(
      'U0OPS1,S0TREASURY',
    );
  });
});

describe('describeConfig', () => {
  it('redacts every secret but keeps the token kind visible', () => {
    const config = loadConfig({ ...validHttpEnv, SLACK_APP_TOKEN: 'xapp-1-topsecret' });
    const printed = JSON.stringify(describeConfig(config));
    for (const secret of ['pk_live_supersecret', '1234-secret', 'signing-secret-value', 'topsecret']) {
      expect(printed).not.toContain(secret);
    }
    expect(describeConfig(config)).toMatchObject({
      SLACK_BOT_TOKEN: 'xoxb-[redacted]',
      SLACK_APP_TOKEN: 'xapp-[redacted]',
      PAYMENTS_API_KEY: '[redacted]',
      SWAP_APPROVERS: '(none: nobody can approve swaps)',
    });
  });

  it('reads SWAP_STEP_UP_USD as exact cents, and refuses to start with it but no TOTP_ENCRYPTION_KEY', () => {
    const key = Buffer.alloc(32, 7);
    expect(loadConfig(validHttpEnv).swapStepUpUsdCents).toBeUndefined();
    expect(loadConfig(validHttpEnv).totpEncryptionKey).toBeUndefined();
    const on = loadConfig({
      ...validHttpEnv,
      SWAP_STEP_UP_USD: '$10,000',
      TOTP_ENCRYPTION_KEY: key.toString('base64'),
    });
    expect(on.swapStepUpUsdCents).toBe(1_000_000n);
    expect(on.totpEncryptionKey).toEqual(key);
    expect(() => loadConfig({ ...validHttpEnv, SWAP_STEP_UP_USD: '10000' })).toThrow(
      /TOTP_ENCRYPTION_KEY: required when SWAP_STEP_UP_USD is set/,
    );
    // The key is never printed, only whether it is set.
    expect(describeConfig(on)).toMatchObject({
      SWAP_STEP_UP_USD: '$10,000 and above, or of unknown value',
      TOTP_ENCRYPTION_KEY: '[set]',
    });
    expect(JSON.stringify(describeConfig(on))).not.toContain(key.toString('base64'));
  });

  it.each([
    ['64 hex digits', '07'.repeat(32), true],
    ['base64 of 32 bytes', Buffer.alloc(32, 9).toString('base64'), true],
    ['URL-safe base64 of 32 bytes', Buffer.alloc(32, 251).toString('base64url'), true],
    ['a passphrase', 'correct horse battery staple', false],
    ['16 bytes of base64', Buffer.alloc(16, 1).toString('base64'), false],
    ['63 hex digits', '0'.repeat(63), false],
  ])('TOTP_ENCRYPTION_KEY as %s: accepted %s', (_name, value, accepted) => {
    const load = () => loadConfig({ ...validHttpEnv, TOTP_ENCRYPTION_KEY: value });
    if (accepted) expect(load().totpEncryptionKey?.length).toBe(32);
    else expect(load).toThrow(/TOTP_ENCRYPTION_KEY: expected 32 random bytes/);
  });

  it('reads SWAP_MAX_USD as exact cents, written with or without $ and thousands separators', () => {
    expect(loadConfig(validHttpEnv).swapMaxUsdCents).toBeUndefined();
    expect(loadConfig({ ...validHttpEnv, SWAP_MAX_USD: '$250,000' }).swapMaxUsdCents).toBe(25_000_000n);
    expect(loadConfig({ ...validHttpEnv, SWAP_MAX_USD: '250000.50' }).swapMaxUsdCents).toBe(25_000_050n);
    expect(describeConfig(loadConfig({ ...validHttpEnv, SWAP_MAX_USD: '250000.5' }))).toMatchObject({
      SWAP_MAX_USD: '$250,000.50',
    });
  });

  it('reads SWAP_POLICY tiers, SWAP_DAILY_LIMIT_USD and approver groups; unset, one approval and no limit as before', () => {
    const plain = loadConfig(validHttpEnv);
    expect(plain.swapPolicyTiers).toEqual([{ minCents: 0n, approvals: 1 }]);
    expect(plain.swapDailyLimitUsdCents).toBeUndefined();
    const tiered = loadConfig({
      ...validHttpEnv,
      SWAP_POLICY: '0:1, 10000:2, 250000.50:3',
      SWAP_DAILY_LIMIT_USD: '$1,000,000',
      SWAP_APPROVERS: 'U0AVERY, S0TREASURYLEADS',
    });
    expect(tiered.swapPolicyTiers).toEqual([
      { minCents: 0n, approvals: 1 },
      { minCents: 1_000_000n, approvals: 2 },
      { minCents: 25_000_050n, approvals: 3 },
    ]);
    expect(tiered.swapDailyLimitUsdCents).toBe(100_000_000n);
    expect(tiered.swapApprovers).toEqual(['U0AVERY', 'S0TREASURYLEADS']);
    expect(describeConfig(tiered)).toMatchObject({
      SWAP_POLICY: '0:1,10000:2,250000.50:3',
      SWAP_DAILY_LIMIT_USD: '$1,000,000',
      SWAP_APPROVERS: 'U0AVERY,S0TREASURYLEADS',
    });
    expect(describeConfig(plain)).toMatchObject({ SWAP_POLICY: '0:1', SWAP_DAILY_LIMIT_USD: '(no daily limit)' });
  });

  it('TREASURY_ADMINS: people and groups; unset, the swap approvers (and start-up says so)', () => {
    const defaulted = loadConfig({ ...validHttpEnv, SWAP_APPROVERS: 'U0AVERY,S0LEADS' });
    expect(defaulted.treasuryAdmins).toEqual(['U0AVERY', 'S0LEADS']);
    expect(describeConfig(defaulted).TREASURY_ADMINS).toBe('(unset: the swap approvers, U0AVERY,S0LEADS)');
    expect(describeConfig(loadConfig(validHttpEnv)).TREASURY_ADMINS).toBe('(unset: the swap approvers: nobody)');
    const set = loadConfig({ ...validHttpEnv, SWAP_APPROVERS: 'U0AVERY', TREASURY_ADMINS: 'U0BLAKE, S0ADMINS' });
    expect(set.treasuryAdmins).toEqual(['U0BLAKE', 'S0ADMINS']);
    expect(describeConfig(set).TREASURY_ADMINS).toBe('U0BLAKE,S0ADMINS');
  });

  it('DIGEST_AT: a time of day in an IANA zone; DIGEST_CHANNEL defaults to ALERT_CHANNEL; unset, no digest', () => {
    const off = loadConfig({ ...validHttpEnv, ALERT_CHANNEL: 'C0ALERTS' });
    expect(off).toMatchObject({ digestAt: undefined, digestChannel: undefined });
    expect(describeConfig(off)).toMatchObject({ DIGEST_AT: '(unset: no daily digest)' });
    const defaulted = loadConfig({ ...validHttpEnv, ALERT_CHANNEL: 'C0ALERTS', DIGEST_AT: '9:05 europe/berlin' });
    expect(defaulted).toMatchObject({
      digestAt: { hour: 9, minute: 5, timeZone: 'Europe/Berlin' },
      digestChannel: 'C0ALERTS',
    });
    expect(describeConfig(defaulted)).toMatchObject({ DIGEST_AT: '09:05 Europe/Berlin', DIGEST_CHANNEL: 'C0ALERTS' });
    const own = loadConfig({ ...validHttpEnv, DIGEST_AT: '23:59 UTC', DIGEST_CHANNEL: '#C0DIGEST' });
    expect(own).toMatchObject({ digestAt: { hour: 23, minute: 59, timeZone: 'UTC' }, digestChannel: 'C0DIGEST' });
  });

  it('reports every problem of the digest variables at once, in plain words', () => {
    expect(problemsOf({ ...validHttpEnv, DIGEST_AT: '09:00 Europe/Berlin' })).toEqual([
      'DIGEST_AT: set, but neither DIGEST_CHANNEL nor ALERT_CHANNEL is, so the digest has nowhere to go; set DIGEST_CHANNEL to a channel id',
    ]);
    expect(problemsOf({ ...validHttpEnv, DIGEST_CHANNEL: 'C0DIGEST' })).toEqual([
      'DIGEST_CHANNEL: set, but DIGEST_AT is not, so no digest would be posted; set DIGEST_AT too (e.g. "09:00 Europe/Berlin")',
    ]);
    for (const wrong of ['9am Europe/Berlin', '24:00 UTC', '09:60 UTC', '09:00', 'Europe/Berlin 09:00'])
      expect(problemsOf({ ...validHttpEnv, ALERT_CHANNEL: 'C0A', DIGEST_AT: wrong })).toEqual([
        'DIGEST_AT: expected a time of day (24-hour HH:MM) and an IANA time zone, such as "09:00 Europe/Berlin"',
      ]);
    expect(
      problemsOf({
        ...validHttpEnv,
        ALERT_CHANNEL: 'C0A',
        DIGEST_AT: '09:00 Mars/Olympus',
        DIGEST_CHANNEL: 'not a channel',
      }),
    ).toEqual([
      'DIGEST_AT: "Mars/Olympus" is not a time zone this system knows; expected an IANA name such as Europe/Berlin, America/New_York or UTC',
      'DIGEST_CHANNEL: expected a channel id such as C012ABCDEF',
    ]);
  });

  it('INVOICE_FOLLOW_MAX: how many open invoices are followed, 100 by default, at least 1', () => {
    expect(loadConfig(validHttpEnv).invoiceFollowMax).toBe(100);
    expect(loadConfig({ ...validHttpEnv, INVOICE_FOLLOW_MAX: ' 250 ' }).invoiceFollowMax).toBe(250);
    for (const wrong of ['0', '-1', '1.5', 'many', '10000000'])
      expect(problemsOf({ ...validHttpEnv, INVOICE_FOLLOW_MAX: wrong })).toEqual([
        'INVOICE_FOLLOW_MAX: expected a whole number of invoices, at least 1 (e.g. 100)',
      ]);
    expect(describeConfig(loadConfig({ ...validHttpEnv, ALERT_CHANNEL: 'C0A' })).INVOICE_FOLLOW_MAX).toBe('100');
    expect(describeConfig(loadConfig(validHttpEnv)).INVOICE_FOLLOW_MAX).toBe(
      '100 (unused: ALERT_CHANNEL is unset, so invoices are not followed)',
    );
  });

  it('prints the alert lifecycle settings as they are written', () => {
    expect(describeConfig(loadConfig(validHttpEnv))).toMatchObject({
      ALERT_ROUTES: '(none: every kind goes to ALERT_CHANNEL)',
      ALERT_ONCALL: '(nobody: reminders mention no one)',
      ALERT_TIME_ZONE: 'UTC',
      ALERT_RESOLVE_NOTE: 'required',
      ALERT_REMIND_AFTER: '30m',
      ALERT_STALE_AFTER: '1d',
      STUCK_WITHDRAWAL_AFTER: '2h',
      STUCK_TASK_AFTER: '6h',
      STUCK_GAS_AFTER: '1h',
    });
    const config = loadConfig({
      ...validHttpEnv,
      ALERT_CHANNEL: 'C0ALERTS',
      ALERT_ROUTES: 'gas_donor_balance=C0GAS@S0ONCALL,withdrawal_failed=C0OPS',
      ALERT_ONCALL: 'U0ALICE,S0TREASURY',
      ALERT_TIME_ZONE: 'Pacific/Auckland',
      ALERT_RESOLVE_NOTE: 'optional',
      ALERT_REMIND_AFTER: '90s',
    });
    expect(describeConfig(config)).toMatchObject({
      ALERT_ROUTES: 'gas_donor_balance=C0GAS@S0ONCALL,withdrawal_failed=C0OPS',
      ALERT_ONCALL: 'U0ALICE,S0TREASURY',
      ALERT_TIME_ZONE: 'Pacific/Auckland',
      ALERT_RESOLVE_NOTE: 'optional',
      ALERT_REMIND_AFTER: '90s',
    });
  });
});

describe('.env file', () => {
  it('is read when present, and the real environment wins over it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'env-'));
    const file = join(dir, '.env');
    writeFileSync(file, 'PORT=4000\nLOG_LEVEL=warn\n# comment\nALERT_CHANNEL="C0FROMFILE"\n');
    const config = loadConfig({ ...readDotEnv(file), ...validHttpEnv, LOG_LEVEL: 'error' });
    expect(config.port).toBe(4000);
    expect(config.alertChannel).toBe('C0FROMFILE');
    expect(config.logLevel).toBe('error');
  });

  it('is optional', () => {
    expect(readDotEnv(join(tmpdir(), 'does-not-exist', '.env'))).toEqual({});
  });
});

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['24h', 86_400_000],
    ['7D', 604_800_000],
  ])('%s → %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));
  it.each(['', 'h', '1.5h', '-1h', '1w'])('rejects %j', (text) => expect(parseDuration(text)).toBeUndefined());
});

describe('formatDuration', () => {
  it.each([
    [90_000, '90s'],
    [1_800_000, '30m'],
    [5_400_000, '90m'],
    [7_200_000, '2h'],
    [86_400_000, '1d'],
    [36 * 3_600_000, '36h'],
    [1_500, '1500ms'],
  ])('%d ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
  it.each(['20s', '15m', '2h', '1d', '36h'])('%s reads back as it was written', (text) => {
    expect(formatDuration(parseDuration(text)!)).toBe(text);
  });
});

describe('.env.example and README', () => {
  const variables = [
    'PAYMENTS_API_URL',
    'PAYMENTS_API_KEY',
    'SLACK_BOT_TOKEN',
    'SLACK_APP_TOKEN',
    'SLACK_SIGNING_SECRET',
    'SLACK_API_URL',
    'PORT',
    'HOST',
    'ALERT_CHANNEL',
    'POLL_SCHEDULE',
    'ALERT_LOOKBACK',
    'ALERT_ROUTES',
    'ALERT_ONCALL',
    'ALERT_TIME_ZONE',
    'ALERT_RESOLVE_NOTE',
    'ALERT_REMIND_AFTER',
    'ALERT_STALE_AFTER',
    'STUCK_WITHDRAWAL_AFTER',
    'STUCK_TASK_AFTER',
    'STUCK_GAS_AFTER',
    'DIGEST_AT',
    'DIGEST_CHANNEL',
    'INVOICE_FOLLOW_MAX',
    'FREEZE_UNFREEZE_QUORUM',
    'SWAP_APPROVERS',
    'ALLOW_SELF_APPROVAL',
    'SWAP_POLICY',
    'SWAP_MAX_USD',
    'SWAP_DAILY_LIMIT_USD',
    'SWAP_STEP_UP_USD',
    'TOTP_ENCRYPTION_KEY',
    'TREASURY_USERS',
    'TREASURY_ADMINS',
    'DATA_FILE',
    'LOG_LEVEL',
    'HEARTBEAT_URL',
    'METRICS_PORT',
    'METRICS_TOKEN',
    'RUNWAY_ALERT_DAYS',
  ];
  const example = readDotEnv(new URL('../.env.example', import.meta.url).pathname);
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

  it('list every variable the configuration reads', () => {
    expect(Object.keys(example).sort()).toEqual([...variables].sort());
    for (const variable of variables) expect(readme).toContain(`| \`${variable}\` |`);
  });

  it('.env.example parses once the secrets are filled in, with the documented defaults', () => {
    const config = loadConfig({
      ...example,
      PAYMENTS_API_KEY: 'key',
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 'secret',
    });
    expect(config).toMatchObject({
      port: 3000,
      pollSchedule: '* * * * *',
      alertLookbackMs: 86_400_000,
      allowSelfApproval: false,
      slackAppToken: undefined,
      alertRoutes: {},
      alertOnCall: [],
      alertTimeZone: 'UTC',
      alertResolveNoteRequired: true,
      alertRemindAfterMs: 30 * 60_000,
      alertStaleAfterMs: 86_400_000,
      stuckAfterMs: { withdrawal: 2 * 3_600_000, task: 6 * 3_600_000, gas: 3_600_000 },
      invoiceFollowMax: 100,
    });
  });
});

describe('secrets in URLs', () => {
  const base = { PAYMENTS_API_KEY: 'k', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
  it('HEARTBEAT_URL: optional, an http(s) URL, printed as its host only (its path is the secret token)', () => {
    expect(
      loadConfig({ ...base, PAYMENTS_API_URL: 'https://pay.example.com', HEARTBEAT_URL: '' }).heartbeatUrl,
    ).toBeUndefined();
    const url = 'https://hc-ping.com/5b1f0c9e-secret-uuid?token=q';
    const config = loadConfig({ ...base, PAYMENTS_API_URL: 'https://pay.example.com', HEARTBEAT_URL: url });
    expect(config.heartbeatUrl).toBe(url);
    const printed = JSON.stringify(describeConfig(config));
    expect(printed).toContain('https://hc-ping.com/[redacted]');
    expect(printed).not.toContain('secret-uuid');
    expect(() =>
      loadConfig({ ...base, PAYMENTS_API_URL: 'https://pay.example.com', HEARTBEAT_URL: 'hc-ping.com/abc' }),
    ).toThrow(/HEARTBEAT_URL: expected an http\(s\) URL/);
  });
  it('a user name and password in PAYMENTS_API_URL never reach the printed configuration', () => {
    const config = loadConfig({
      ...base,
      PAYMENTS_API_URL: 'https://treasury:s3cr3t-pw@pay.example.com/api?token=abc',
    });
    const printed = JSON.stringify(describeConfig(config));
    expect(printed).not.toContain('s3cr3t-pw');
    expect(printed).not.toContain('treasury:');
    expect(printed).not.toContain('abc');
    expect(describeConfig(config).PAYMENTS_API_URL).toBe('https://[redacted]@pay.example.com/api?token=[redacted]');
  });
  it('HOST chooses the interface; every interface by default', () => {
    expect(loadConfig({ ...base, PAYMENTS_API_URL: 'https://pay.example.com' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ...base, PAYMENTS_API_URL: 'https://pay.example.com', HOST: '127.0.0.1' }).host).toBe(
      '127.0.0.1',
    );
    expect(() => loadConfig({ ...base, PAYMENTS_API_URL: 'https://pay.example.com', HOST: 'not a host!' })).toThrow(
      /HOST/,
    );
  });
});

describe('hasNoConfiguration: when npm start opens the local workspace', () => {
  const noDotEnv = '/nonexistent/.env';
  it('an empty environment (PORT, HOST, LOG_LEVEL aside) is no configuration', () => {
    expect(hasNoConfiguration({}, noDotEnv)).toBe(true);
    expect(
      hasNoConfiguration({ PORT: '4000', HOST: '127.0.0.1', LOG_LEVEL: 'debug', PATH: '/usr/bin' }, noDotEnv),
    ).toBe(true);
  });
  it.each([
    ['a blank secret', { SLACK_BOT_TOKEN: '  ' }],
    ['an empty payment key', { PAYMENTS_API_KEY: '' }],
    ['DATABASE_URL alone', { DATABASE_URL: 'postgres://db/treasury' }],
    ['a non-connection deployment variable', { ALERT_CHANNEL: 'C012' }],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['NODE_ENV=Production (any case)', { NODE_ENV: ' Production ' }],
  ])('%s is a deployment: never the demo', (_what, env) => {
    expect(hasNoConfiguration(env, noDotEnv)).toBe(false);
  });
  it('a .env file is a deployment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
    writeFileSync(join(dir, '.env'), '');
    expect(hasNoConfiguration({}, join(dir, '.env'))).toBe(false);
  });
});

describe('redactDatabaseUrl', () => {
  it.each([
    ['postgres://bot:s3cret@db.internal:5432/treasury', 'postgres://[redacted]@db.internal:5432/treasury'],
    [
      'postgres://bot:pa/ss@word@db:5432/treasury?sslmode=require&password=x',
      'postgres://[redacted]@db:5432/treasury?sslmode=[redacted]&password=[redacted]',
    ],
    ['postgresql://db.internal/treasury', 'postgresql://db.internal/treasury'],
  ])('%s → %s', (url, printed) => {
    expect(redactDatabaseUrl(url)).toBe(printed);
    expect(redactDatabaseUrl(url)).not.toMatch(/s3cret|pa\/ss|word@/);
  });
});

describe('LOG_FORMAT', () => {
  it('text by default, json in production, either when set; anything else is a configuration problem', () => {
    expect(loadConfig(validHttpEnv).logFormat).toBe('text');
    expect(loadConfig({ ...validHttpEnv, NODE_ENV: 'production', TREASURY_USERS: '*' }).logFormat).toBe('json');
    expect(loadConfig({ ...validHttpEnv, LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
    expect(
      loadConfig({ ...validHttpEnv, NODE_ENV: 'production', TREASURY_USERS: '*', LOG_FORMAT: 'text' }),
    ).toMatchObject({ logFormat: 'text' });
    expect(() => loadConfig({ ...validHttpEnv, LOG_FORMAT: 'pretty' })).toThrow(
      /LOG_FORMAT: expected one of text, json/,
    );
    expect(describeConfig(loadConfig(validHttpEnv)).LOG_FORMAT).toBe('text');
  });

  it('is documented in .env.example and the README, and is not a deployment variable (the local workspace honours it)', () => {
    expect(readFileSync(new URL('../.env.example', import.meta.url), 'utf8')).toMatch(/^# LOG_FORMAT=json$/m);
    expect(readFileSync(new URL('../README.md', import.meta.url), 'utf8')).toContain('| `LOG_FORMAT` |');
    expect(hasNoConfiguration({ LOG_FORMAT: 'json' }, '/nonexistent/.env')).toBe(true);
  });

  it("logSecrets lists the configuration's secret values, DATABASE_URL's password among them", () => {
    const config = loadConfig({
      ...validHttpEnv,
      DATABASE_URL: 'postgres://treasury:pa%24%24word-1234@db:5432/treasury',
      SLACK_APP_TOKEN: 'xapp-1-secret-app-token',
      METRICS_TOKEN: 'scrape-secret-77',
      HEARTBEAT_URL: 'https://hc-ping.com/0f4e5d6c-secret-uuid',
    });
    const secrets = logSecrets(config);
    for (const value of [
      config.slackBotToken,
      config.paymentsApiKey,
      'xapp-1-secret-app-token',
      'pa$$word-1234',
      'scrape-secret-77',
      'https://hc-ping.com/0f4e5d6c-secret-uuid',
    ])
      expect(secrets).toContain(value);
  });
});

describe('RUNWAY_ALERT_DAYS', () => {
  const withPoller = { ...validHttpEnv, ALERT_CHANNEL: 'C0ALERTS', DIGEST_AT: '09:00 Europe/Berlin' };

  it('unset: no runway alert', () => {
    expect(loadConfig(withPoller).runwayAlertDays).toBeUndefined();
  });

  it('reads a positive number of days exactly', () => {
    expect(loadConfig({ ...withPoller, RUNWAY_ALERT_DAYS: '2.5' }).runwayAlertDays).toEqual({
      text: '2.5',
      days: { num: 25n, den: 10n },
    });
  });

  it.each(['0', '-3', 'three', '3 days', '1.234', '1e2'])('refuses %j with a line naming it', (value) => {
    const problems = problemsOf({ ...withPoller, RUNWAY_ALERT_DAYS: value });
    expect(problems).toEqual(['RUNWAY_ALERT_DAYS: expected a positive number of days, at most two decimals (e.g. 3)']);
  });

  it('refuses to start when the alert could never come: no poller to raise it', () => {
    expect(
      problemsOf({ ...validHttpEnv, DIGEST_CHANNEL: 'C0D', DIGEST_AT: '09:00 UTC', RUNWAY_ALERT_DAYS: '3' }),
    ).toEqual(['RUNWAY_ALERT_DAYS: set, but ALERT_CHANNEL is not, so the alert poller that raises it is off']);
  });

  it('starts without DIGEST_AT: the daily snapshots the runway measures on are a job of their own', () => {
    const config = loadConfig({ ...validHttpEnv, ALERT_CHANNEL: 'C0ALERTS', RUNWAY_ALERT_DAYS: '3' });
    expect(config.runwayAlertDays?.text).toBe('3');
    expect(config.digestAt).toBeUndefined();
  });
});
