// The bot's JSON log through the real Bolt app (signed HTTP, the Slack stand-in, the payment simulator): every line
// of a command, a click and a job says what it is about and which replica wrote it, and nothing a realistic run
// logs at debug level (commands, clicks, a failed Slack call, a failed API call) holds a secret. The logger here has
// no list of secret values to scrub: the hand-picked fields and the redact paths alone must keep them out.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/blocks/ids.js';
import { describeConfig } from '../../src/config-display.js';
import { createLogger } from '../../src/logger.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { waitUntil } from '../support/waiting.js';

const REPLICA = 'json-logs-replica-1';
const TOTP_KEY = 'a1'.repeat(32);
const DB_PASSWORD = 'pg-canary-password-7731';

let stack: LocalStack;
const lines: string[] = [];
const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  const logger = createLogger('debug', (line) => lines.push(line), { format: 'json', replica: REPLICA });
  stack = await startLocalStack({
    logger,
    env: {
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      REPLICA_NAME: REPLICA,
      TOTP_ENCRYPTION_KEY: TOTP_KEY,
      SWAP_STEP_UP_USD: '1000',
      // Held by the configuration (and its start-up line) only: the rig's store is the state file.
      DATABASE_URL: `postgres://treasury:${DB_PASSWORD}@127.0.0.1:1/treasury`,
      // A channel the stand-in does not know: every alert post is a failed Slack call.
      ALERT_CHANNEL: 'C0NOSUCHCHANNEL',
    },
    slack: { chatWritePublic: false },
  });
  // What main.ts logs first.
  logger.info('starting treasury bot', describeConfig(stack.config));
}, 60_000);
afterAll(() => stack?.close());

describe('JSON log lines carry what they are about', () => {
  it('a /treasury command: every line of it names the command and its subcommand', async () => {
    const before = lines.length;
    stack.simulator.injectFault('listAssets', { status: 500 }, 10);
    const result = await stack.driver.command('balances');
    await result.waitForResponses(1);
    stack.simulator.clearFaults();
    const mine = records()
      .slice(before)
      .filter((line) => line.subcommand === 'balances');
    expect(mine.length).toBeGreaterThan(0);
    for (const line of mine) expect(line).toMatchObject({ command: '/treasury', replica: REPLICA });
    // The failure's own line is among them.
    expect(mine.some((line) => (line.level as number) >= 40)).toBe(true);
  });

  it('a button click: its lines carry the action id and the quote it names', async () => {
    const quoteId = randomUUID();
    const before = lines.length;
    const result = await stack.driver.clickButton({ actionId: ACTION_IDS.swapReject, value: quoteId });
    expect(result.status).toBe(200);
    await waitUntil(
      () =>
        records()
          .slice(before)
          .some((line) => line.actionId === ACTION_IDS.swapReject) || undefined,
      'a line of the click',
    );
    const mine = records()
      .slice(before)
      .filter((line) => line.actionId === ACTION_IDS.swapReject);
    for (const line of mine) expect(line).toMatchObject({ quoteId, replica: REPLICA });
  });

  it("a job: a poll's lines carry the job's name, its failed Slack call among them", async () => {
    // The bot leaves the alert channel (and may not post where it is not a member): the alert posts fail.
    stack.slack.setMembers('C0NOSUCHCHANNEL', []);
    const before = lines.length;
    await stack.treasury.alerts!.runNow();
    const mine = records()
      .slice(before)
      .filter((line) => line.job === 'alert poll');
    expect(mine.length).toBeGreaterThan(0);
    for (const line of mine) expect(line.replica).toBe(REPLICA);
  });

  it('every line is one JSON object with level, time, msg and the replica', () => {
    expect(lines.length).toBeGreaterThan(5);
    for (const line of records()) {
      expect(typeof line.level).toBe('number');
      expect(typeof line.time).toBe('number');
      expect(typeof line.msg).toBe('string');
      expect(line.replica).toBe(REPLICA);
    }
  });
});

describe('no secret in anything the run logged', () => {
  it('neither the tokens, the signing secret, the API key, the database password nor the TOTP key', () => {
    const everything = lines.join('\n');
    const secrets = [
      stack.config.slackBotToken,
      stack.config.slackSigningSecret!,
      stack.config.paymentsApiKey,
      DB_PASSWORD,
      TOTP_KEY,
      Buffer.from(TOTP_KEY, 'hex').toString('base64'),
    ];
    for (const secret of secrets) expect(everything).not.toContain(secret);
    // The run logged the failures it was meant to: a refused API call and a failed Slack call.
    expect(everything).toMatch(/"status":500/);
    expect(records().some((line) => line.job === 'alert poll' && (line.level as number) >= 40)).toBe(true);
  });
});
