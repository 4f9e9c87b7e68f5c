// `/treasury 2fa` end to end: the real app over signed HTTP with the Slack stand-in and the payment simulator. A
// person enrols (a DM with the QR code as a PNG and the otpauth:// URI), confirms with a code computed from that URI,
// and is then enrolled; the secret is never shown again; wrong codes count toward the lock; an admin resets, the
// person is told by DM; without TOTP_ENCRYPTION_KEY enrolment is refused in plain words. The parser's refusals too.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTreasuryCommand } from '../../src/commands/parse.js';
import { UsageError } from '../../src/kernel/usage-error.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { ask } from '../support/slack.js';
import { codeFor, enrolmentDm } from './enrolment.js';

const ADMIN = 'U0ADMIN';
const AVERY = 'U0AVERY';
const RILEY = 'U0RILEY';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('/treasury 2fa with a key', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({
      env: {
        TREASURY_ADMINS: ADMIN,
        TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        SWAP_STEP_UP_USD: '50000',
        ALERT_CHANNEL: 'C0ALERTS',
        POLL_SCHEDULE: '0 0 1 1 *',
      },
    });
  }, 60_000);
  afterAll(() => stack?.close());

  it('enrol: a DM with the QR PNG and the URI; confirm with a code; then enrolled, the secret never shown again', async () => {
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('You are *not enrolled*');
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('*$50,000 or more*');
    const before = stack.slack.messages().length;
    const started = await ask(stack, '2fa enroll', { userId: AVERY });
    expect(started.text).toContain('I sent you a direct message with a QR code');
    const dm = await enrolmentDm(stack, AVERY, before);
    expect(dm.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(dm.file.name).toBe('treasury-bot-second-factor.png');
    expect(dm.uri).toMatch(/^otpauth:\/\/totp\/Treasury%20bot:U0AVERY\?secret=[A-Z2-7]+&issuer=Treasury%20bot/);
    expect(dm.shared.text).toContain('/treasury 2fa confirm 123456');
    expect(stack.slack.isMember(dm.shared.channel, AVERY)).toBe(true);
    // Not yet enrolled: waiting for the first code; the reply does not show the secret.
    const waiting = await ask(stack, '2fa', { userId: AVERY });
    expect(waiting.text).toContain('*waiting for your first code*');
    expect(waiting.text).not.toContain(dm.secret);
    // A wrong code counts; then the right one enrols.
    const wrong = await ask(stack, '2fa confirm 000 000', { userId: AVERY });
    expect(wrong.text).toContain('That code is not right: 4 more wrong codes lock your approvals for 15 minutes.');
    const code = codeFor(stack, dm.secret);
    const confirmed = await ask(stack, `2fa confirm ${code.slice(0, 3)} ${code.slice(3)}`, { userId: AVERY });
    expect(confirmed.text).toContain('*You are enrolled.*');
    const shown = await ask(stack, '2fa', { userId: AVERY });
    expect(shown.text).toContain('You are *enrolled* since');
    expect(shown.text).not.toContain(dm.secret);
    expect(shown.text).not.toContain('otpauth');
    // Enrolled: a second enrol is refused, and an admin can reset.
    expect((await ask(stack, '2fa enroll', { userId: AVERY })).text).toContain('ask a treasury admin to reset it');
    // Nothing secret reached the store's trail or the state file in clear.
    const trail = await stack.store.secondFactor.listSecondFactorTrail(new Date(0));
    expect(trail.map((e) => e.event)).toEqual(['enrolment_started', 'wrong_code', 'enrolled']);
    expect(JSON.stringify(stack.store.read())).not.toContain(dm.secret);
  });

  it('an admin resets a person (recorded, told by DM); anyone else is refused', async () => {
    const before = stack.slack.messages().length;
    await ask(stack, '2fa enroll', { userId: RILEY });
    const dm = await enrolmentDm(stack, RILEY, before);
    await ask(stack, `2fa confirm ${codeFor(stack, dm.secret)}`, { userId: RILEY });
    expect((await ask(stack, '2fa', { userId: RILEY })).text).toContain('You are *enrolled*');
    expect((await ask(stack, `2fa reset ${RILEY}`, { userId: AVERY })).text).toContain(
      'Only treasury admins (`TREASURY_ADMINS`) can reset a second factor.',
    );
    const reset = await ask(stack, `2fa reset <@${RILEY}|riley>`, { userId: ADMIN });
    expect(reset.text).toContain("<@U0RILEY>'s second factor is reset (it was enrolled)");
    const told = await stack.slack.waitFor(
      () =>
        stack.slack
          .messages()
          .find((m) => m.channel.startsWith('D') && (m.text ?? '').includes('reset your second factor')),
      10_000,
      'the reset notice',
    );
    expect(stack.slack.isMember(told.channel, RILEY)).toBe(true);
    expect((await ask(stack, '2fa', { userId: RILEY })).text).toContain('You are *not enrolled*');
    expect((await ask(stack, `2fa reset ${RILEY}`, { userId: ADMIN })).text).toContain('nothing to reset');
    const trail = await stack.store.secondFactor.listSecondFactorTrail(new Date(0));
    expect(trail.at(-1)).toMatchObject({ event: 'reset', userId: RILEY, by: ADMIN });
  });

  it('five wrong confirm codes lock, posted once in ALERT_CHANNEL; a locked person cannot enrol again', async () => {
    const SAM = 'U0SAM';
    await ask(stack, '2fa enroll', { userId: SAM });
    const answers = [];
    for (let n = 0; n < 5; n++) answers.push((await ask(stack, '2fa confirm 000000', { userId: SAM })).text);
    expect(answers[3]).toContain('1 more wrong code locks your approvals');
    expect(answers[4]).toMatch(/Your approvals are locked until \d\d:\d\d UTC after 5 wrong codes\./);
    const line = await stack.slack.waitFor(
      () => stack.slack.messages('C0ALERTS').find((m) => (m.text ?? '').includes('U0SAM')),
      10_000,
      'the lock line',
    );
    expect(line.text).toBe("<@U0SAM>'s approvals are locked for 15 minutes after 5 wrong codes.");
    expect((await ask(stack, '2fa enroll', { userId: SAM })).text).toContain('Your approvals are locked until');
    expect((await ask(stack, '2fa', { userId: SAM })).text).toContain('*locked until');
  });
});

describe('/treasury 2fa when Slack does not confirm the DM', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({ env: { TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex') } });
  }, 60_000);
  afterAll(() => stack?.close());

  it('says it may have arrived, and a second enrol makes the newest QR code the one that works', async () => {
    stack.slack.failNext('files.completeUploadExternal', { dropAnswer: true });
    expect((await ask(stack, '2fa enroll', { userId: AVERY })).text).toContain(
      'Slack did not confirm the direct message with your QR code. If it arrived',
    );
    const first = await enrolmentDm(stack, AVERY);
    const before = stack.slack.messages().length;
    expect((await ask(stack, '2fa enroll', { userId: AVERY })).text).toContain('I sent you a direct message');
    const second = await enrolmentDm(stack, AVERY, before);
    expect(second.secret).not.toBe(first.secret);
    expect((await ask(stack, `2fa confirm ${codeFor(stack, first.secret)}`, { userId: AVERY })).text).toContain(
      'That code is not right',
    );
    expect((await ask(stack, `2fa confirm ${codeFor(stack, second.secret)}`, { userId: AVERY })).text).toContain(
      '*You are enrolled.*',
    );
  });
});

describe('/treasury 2fa without a key', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({ env: { TREASURY_ADMINS: ADMIN } });
  }, 60_000);
  afterAll(() => stack?.close());

  it('enrolment is refused in plain words, and nothing is sent', async () => {
    expect((await ask(stack, '2fa enroll', { userId: AVERY })).text).toContain(
      'Second factors are not set up on this bot: an engineer sets TOTP_ENCRYPTION_KEY.',
    );
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('an engineer sets `TOTP_ENCRYPTION_KEY`');
    expect(stack.slack.uploads()).toEqual([]);
  });
});

describe('/treasury 2fa: what the parser reads and refuses', () => {
  function refusal(text: string): string {
    try {
      parseTreasuryCommand(text);
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
    throw new Error(`"${text}" was accepted`);
  }

  it.each([
    ['2fa', { kind: '2fa-show' }],
    ['2FA ENROLL', { kind: '2fa-enroll' }],
    ['2fa confirm 123456', { kind: '2fa-confirm', code: '123456' }],
    ['2fa confirm 123 456', { kind: '2fa-confirm', code: '123 456' }],
    ['2fa reset U0RILEY', { kind: '2fa-reset', userId: 'U0RILEY' }],
    ['2fa reset <@U0RILEY|riley>', { kind: '2fa-reset', userId: 'U0RILEY' }],
    ['2fa reset <@W0RILEY>', { kind: '2fa-reset', userId: 'W0RILEY' }],
    ['2fa reset', { kind: '2fa-reset-pick' }],
    ['2fa reset @riley', { kind: '2fa-reset-pick', typed: '@riley' }],
    ['2fa reset riley chen', { kind: '2fa-reset-pick', typed: 'riley chen' }],
  ])('%s', (text, command) => {
    expect(parseTreasuryCommand(text)).toEqual(command);
  });

  it.each([
    ['2fa enroll now', '`2fa enroll` takes nothing after it.'],
    ['2fa confirm', 'Give the 6-digit code your app shows'],
    ['2fa reset U0A U0B', 'Reset one person at a time'],
    ['2fa reset @sam U0RILEY', 'Reset one person at a time'],
    ['2fa disable', '"disable" is not something `2fa` does'],
  ])('%s', (text, words) => {
    expect(refusal(text)).toContain(words);
  });
});

describe('/treasury 2fa: no secret, URI or code in the log', () => {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({
      env: { TREASURY_ADMINS: ADMIN, TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'debug' },
      logger: { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') },
    });
  }, 60_000);
  afterAll(() => stack?.close());

  it('even at LOG_LEVEL=debug, through enrol, wrong and right codes, and a failed DM', async () => {
    await ask(stack, '2fa enroll', { userId: AVERY });
    const dm = await enrolmentDm(stack, AVERY);
    await ask(stack, '2fa confirm 000000', { userId: AVERY });
    const code = codeFor(stack, dm.secret);
    await ask(stack, `2fa confirm ${code}`, { userId: AVERY });
    stack.slack.failNext('files.completeUploadExternal', { error: 'not_in_channel' });
    expect((await ask(stack, '2fa enroll', { userId: RILEY })).text).toContain('could not send you the direct message');
    const log = lines.join('\n');
    expect(log).toContain('second factor code accepted');
    expect(log).toContain('the second factor enrolment DM could not be sent');
    for (const secret of [dm.secret, dm.uri, 'otpauth://totp', code, '000000', 'v1:'])
      expect(log).not.toContain(secret);
  });
});
