// A freeze where ALERT_CHANNEL is not set: there is no announcement to press Unfreeze on, so `/treasury freeze`
// carries the button itself (each admin presses it in their own private answer, which Slack sends without the
// message) and the quorum still lifts the freeze. The real app on the state file, over signed HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { type Replica, startReplica } from '../support/replica.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { type Answer, toAnswer } from '../support/slack.js';

const TOKEN = 'xoxb-freeze-no-alerts';
const SECRET = 'freeze-no-alerts-signing-secret';
const CHANNEL = 'C0TREASURY';
const [APPROVER, ADMIN, ADMIN2] = ['U0APPROVER', 'U0ADMIN', 'U0ADMIN2'];

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
let replica: Replica;

beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
  slack = await startSlackStandIn({ botToken: TOKEN });
  const config = loadConfig({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    DATA_FILE: join(mkdtempSync(join(tmpdir(), 'freeze-no-alerts-')), 'state.json'),
    SWAP_APPROVERS: APPROVER,
    TREASURY_ADMINS: `${ADMIN},${ADMIN2}`,
  });
  const payments = createPaymentsClient({
    baseUrl: config.paymentsApiUrl,
    apiKey: config.paymentsApiKey,
    logger: silentLogger,
    timeoutMs: 2_000,
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 },
  });
  replica = await startReplica({
    name: 'a',
    store: { kind: 'file' },
    config,
    payments,
    logger: silentLogger,
    now: () => new Date(simulator.now()),
    slack,
    signingSecret: SECRET,
    leaseKey: 0n,
  });
}, 30_000);
afterAll(async () => {
  await replica?.close();
  await slack?.close();
  await simulator?.close();
});

async function ask(text: string, userId: string): Promise<Answer> {
  const result = await replica.driver.command(text, { userId, channelId: CHANNEL });
  expect(result.status).toBe(200);
  const [reply] = await result.waitForResponses(1, 10_000);
  return toAnswer(result, reply!);
}

/** Presses Unfreeze in the person's own private `/treasury freeze` answer; resolves with what they are told. */
async function pressInOwnAnswer(userId: string): Promise<string> {
  const state = await ask('freeze', userId);
  const button = state.buttons.find((b) => b.actionId === 'freeze_unfreeze');
  expect(button).toBeDefined();
  // A click in an ephemeral message: Slack sends no `message`, only the response_url.
  const result = await replica.driver.clickButton({
    actionId: 'freeze_unfreeze',
    ...(button!.value !== undefined ? { value: button!.value } : {}),
    userId,
    channelId: CHANNEL,
  });
  expect(result.status).toBe(200);
  const [reply] = await result.waitForResponses(1, 10_000);
  return reply?.text ?? blocksToText(reply?.blocks ?? []);
}

describe('the freeze without ALERT_CHANNEL', () => {
  it('the state carries Unfreeze, and two admins pressing it in their own answers lift the freeze', async () => {
    const pulled = await ask('freeze leaked token', APPROVER);
    expect(pulled.text).toContain('Money is frozen by <@U0APPROVER>');
    expect(blocksToText(pulled.reply.blocks ?? [])).toContain('`ALERT_CHANNEL` is not set');
    expect(findButtons(pulled.reply.blocks ?? []).map((b) => b.text)).toEqual(['Unfreeze']);
    expect(await pressInOwnAnswer(ADMIN)).toContain('Your vote is recorded (1 of 2)');
    expect(await pressInOwnAnswer(ADMIN2)).toContain('Your vote lifted the freeze (2 of 2)');
    expect((await ask('freeze', APPROVER)).text).toContain('Nothing is frozen');
  });
});
