import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../dev/simulator/index.js';
import { createTreasuryApp, StartupError } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { createPaymentsClient } from '../src/payments/index.js';
import { openBotStore } from '../src/store/lowdb/index.js';
import { swapQuoteRecord } from './support/fixtures.js';
import { type SlackStandIn, startSlackStandIn } from './support/rig/slack-stand-in.js';
import { runBot } from './support/run-bot.js';

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
const TOKEN = 'xoxb-the-right-token';
beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
  slack = await startSlackStandIn({ botToken: TOKEN });
});
afterAll(async () => {
  await slack.close();
  await simulator.close();
});

const dataDir = () => mkdtempSync(join(tmpdir(), 'startup-'));

function validEnv(): Record<string, string> {
  return {
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: 'secret-for-startup-test',
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
  };
}

describe('start-up', () => {
  it('exits 1 before doing anything when configuration is missing, one line per variable (a production start: never the local workspace)', async () => {
    const result = await runBot({ NODE_ENV: 'production' });
    expect(result.code).toBe(1);
    // In production TREASURY_USERS is required too (unset, the bot would be open to every member and guest).
    expect(result.stderr).toContain('Cannot start: the configuration has 5 problem(s):');
    for (const variable of [
      'PAYMENTS_API_URL',
      'PAYMENTS_API_KEY',
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'TREASURY_USERS',
    ]) {
      expect(result.stderr).toMatch(new RegExp(`^  ${variable}: `, 'm'));
    }
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('in production, refuses to start without TREASURY_USERS, in one line saying what to set; with * it starts', async () => {
    const refused = await runBot({ ...validEnv(), NODE_ENV: 'production' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Cannot start: the configuration has 1 problem(s):');
    expect(refused.stderr).toContain(
      "  TREASURY_USERS: required in production (NODE_ENV=production): list who may use the bot (user ids U…, user group ids S…; a group of one workspace's people admits that workspace only), or set it to * for everyone in the installing organisation (on Enterprise Grid, every workspace of it)",
    );
    expect(refused.stderr).not.toMatch(/listening for Slack/);
    const started = await runBot(
      { ...validEnv(), NODE_ENV: 'production', TREASURY_USERS: '*', DATA_FILE: join(dataDir(), 'state.json') },
      { untilStderr: /listening for Slack on port \d+/, thenSignal: 'SIGTERM' },
    );
    expect(started.stderr).toContain(
      '"TREASURY_USERS":"* (everyone in the installing organisation (on Enterprise Grid, every workspace of it))"',
    );
    expect(started.code).toBe(0);
  });

  it('exits 1 with one readable line when Slack rejects the bot token, and never prints a secret', async () => {
    const result = await runBot({ ...validEnv(), SLACK_BOT_TOKEN: 'xoxb-wrong-secret-token' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Cannot start: Slack rejected SLACK_BOT_TOKEN (invalid_auth). Check the bot token of the installed app.',
    );
    expect(result.stderr).not.toMatch(/UnhandledPromiseRejection|\n\s+at /);
    for (const secret of ['wrong-secret-token', simulator.apiKey, 'secret-for-startup-test']) {
      expect(result.stdout + result.stderr).not.toContain(secret);
    }
  });

  it('starts in HTTP mode, logs where it listens with secrets redacted, and stops cleanly on SIGTERM', async () => {
    const result = await runBot(validEnv(), { untilStderr: /listening for Slack on port \d+/, thenSignal: 'SIGTERM' });
    expect(result.stderr).toMatch(/listening for Slack on port \d+ \(POST \/slack\/events, GET \/healthz\)/);
    expect(result.stderr).toContain('received SIGTERM, shutting down');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('"SLACK_BOT_TOKEN":"xoxb-[redacted]"');
    expect(result.stdout + result.stderr).not.toContain(TOKEN.slice(5));
    expect(result.stdout + result.stderr).not.toContain(simulator.apiKey);
  });

  it('refuses to start on a truncated state file: exit 1, one line naming the file and what to do, the file untouched', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bot-state-')), 'state.json');
    const torn = '{"version":1,"swapQuotes":{"q1":{"id":"q1","status":"pend';
    writeFileSync(file, torn);
    const result = await runBot({ ...validEnv(), DATA_FILE: file });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('Cannot start'));
    expect(lines).toEqual([
      `Cannot start: the state file ${file} (DATA_FILE) cannot be read as a whole: not valid JSON (truncated, or edited by hand); it was left as it is. Restore it from a backup, or start once with --accept-empty-state to keep it aside as ${file}.corrupt-<time> and start with empty state (failures in ALERT_LOOKBACK are alerted again; pending approvals and the last 24 hours of the daily limit are forgotten).`,
    ]);
    expect(result.stderr).not.toContain('listening for Slack');
    expect(readFileSync(file, 'utf8')).toBe(torn);
    expect(readdirSync(join(file, '..'))).toEqual(['state.json']);
  });

  it('with --accept-empty-state it keeps the corrupt file aside, says so, and starts with empty state', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bot-state-')), 'state.json');
    writeFileSync(file, '');
    const result = await runBot(
      { ...validEnv(), DATA_FILE: file },
      { args: ['--accept-empty-state'], untilStderr: /listening for Slack on port \d+/, thenSignal: 'SIGTERM' },
    );
    expect(result.code).toBe(0);
    const aside = readdirSync(join(file, '..')).filter((name) => name.startsWith('state.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(file, '..', aside[0]!), 'utf8')).toBe('');
    expect(result.stderr).toContain(
      `WARNING: ${file} was corrupt. As --accept-empty-state accepted, it was kept as ${join(file, '..', aside[0]!)} and the bot starts from empty state.`,
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1, swapQuotes: {} });
  });

  it('refuses to start on a damaged approving quote: exit 1, one line naming the record and the flag; with --set-aside-damaged-records it starts and warns', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bot-state-')), 'state.json');
    const id = '7a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
    const damaged = JSON.stringify({
      version: 1,
      swapQuotes: { [id]: swapQuoteRecord(id, { status: 'approving', amountFrom: 1000000 }) },
    });
    writeFileSync(file, damaged);
    const refused = await runBot({ ...validEnv(), DATA_FILE: file });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.split('\n').filter((line) => line.startsWith('Cannot start'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^Cannot start: the state file ${file} \\(DATA_FILE\\) has a damaged money record, swapQuotes\\.${id} \\(amountFrom.*start once with --set-aside-damaged-records`,
      ),
    );
    expect(refused.stderr).not.toContain('listening for Slack');
    expect(readFileSync(file, 'utf8')).toBe(damaged);
    expect(readdirSync(join(file, '..'))).toEqual(['state.json']);

    const started = await runBot(
      { ...validEnv(), DATA_FILE: file },
      { args: ['--set-aside-damaged-records'], untilStderr: /listening for Slack on port \d+/, thenSignal: 'SIGTERM' },
    );
    expect(started.code).toBe(0);
    expect(started.stderr).toContain(
      'WARNING: as --set-aside-damaged-records accepted, 1 damaged money record(s) were set aside',
    );
    expect(readdirSync(join(file, '..')).filter((name) => name.startsWith('state.json.rejected-'))).toHaveLength(1);
  });

  it('createTreasuryApp().start() rejects with a StartupError instead of an unhandled rejection', async () => {
    const config = loadConfig({ ...validEnv(), SLACK_BOT_TOKEN: 'xoxb-nope' });
    const payments = createPaymentsClient({ baseUrl: config.paymentsApiUrl, apiKey: config.paymentsApiKey });
    const store = await openBotStore(join(mkdtempSync(join(tmpdir(), 'bot-')), 'state.json'));
    const treasury = createTreasuryApp({
      config,
      payments,
      store,
      logger: silentLogger,
      host: '127.0.0.1',
      slackRetries: 0,
    });
    try {
      await expect(treasury.start()).rejects.toThrow(StartupError);
      await expect(treasury.start()).rejects.toThrow('Slack rejected SLACK_BOT_TOKEN (invalid_auth)');
    } finally {
      await store.close();
    }
  });

  it('an auth.test that names no workspace stops start-up: the bot could not tell its own people from others', async () => {
    const nameless = await startSlackStandIn({ botToken: TOKEN, teamId: '' });
    const config = loadConfig({ ...validEnv(), SLACK_API_URL: nameless.apiUrl });
    const payments = createPaymentsClient({ baseUrl: config.paymentsApiUrl, apiKey: config.paymentsApiKey });
    const store = await openBotStore(join(mkdtempSync(join(tmpdir(), 'bot-')), 'state.json'));
    const treasury = createTreasuryApp({ config, payments, store, logger: silentLogger, host: '127.0.0.1' });
    try {
      await expect(treasury.start()).rejects.toThrow(
        "Slack's auth.test named no workspace (team_id) for SLACK_BOT_TOKEN, so the bot cannot tell its own people from others'; check the token.",
      );
    } finally {
      await store.close();
      await nameless.close();
    }
  });
});
