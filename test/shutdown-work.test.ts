// Shutdown finishes what it started: an Approve whose swap/create is on its way when SIGTERM arrives is recorded
// `created` (not `outcome_unknown`), its message edited, then the bot exits 0; what arrives meanwhile is answered
// in plain words and starts nothing; work longer than the budget is named in the log and cut off at the bound.
// Real dist/src/main.js process (and the app in-process for the bound), the simulator and the Slack stand-in over HTTP.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../dev/simulator/index.js';
import { RESTARTING } from '../src/listeners/shutdown-gate.js';
import type { Logger } from '../src/logger.js';
import { startBotProcess } from './support/bot-process.js';
import { blocksToText } from './support/rig/blocks-text.js';
import { startLocalStack } from './support/rig/local-stack.js';
import { createSlackDriver } from './support/rig/slack-driver.js';
import { startSlackStandIn } from './support/rig/slack-stand-in.js';
import { waitUntil } from './support/waiting.js';

const SIGNING_SECRET = 'shutdown-work-signing-secret';
const BOT_TOKEN = 'xoxb-shutdown-work';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const CHANNEL = 'C0TREASURY';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type QuoteRecord = Record<string, unknown> & { id: string; status: string; swapId?: string; messageTs?: string };
const quoteRecords = (file: string): QuoteRecord[] =>
  Object.values(JSON.parse(readFileSync(file, 'utf8')).swapQuotes) as QuoteRecord[];

/**
 * The bot as `node dist/src/main.js` with `quotes` swap quotes posted in CHANNEL; then an Approve on the first, whose
 * swap/create the payment service answers after 3 s, sent and written `approving`; then SIGTERM.
 */
async function approveThenSigterm(quotes: number) {
  const simulator = await startSimulator({ quiet: true });
  cleanups.push(() => simulator.close());
  const slack = await startSlackStandIn({ botToken: BOT_TOKEN });
  cleanups.push(() => slack.close());
  const file = join(mkdtempSync(join(tmpdir(), 'shutdown-work-')), 'state.json');
  const bot = await startBotProcess({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    DATA_FILE: file,
    SWAP_APPROVERS: APPROVER,
  });
  cleanups.push(() => bot.stop('SIGKILL'));
  const driver = createSlackDriver({ eventsUrl: bot.eventsUrl, signingSecret: SIGNING_SECRET, standIn: slack });
  for (let n = 1; n <= quotes; n += 1) {
    const asked = await driver.command(`swap ${n * 100} USDT@ETH to USDC@ETH`, {
      userId: REQUESTER,
      channelId: CHANNEL,
    });
    const [note] = await asked.waitForResponses(1);
    expect(`${note!.text ?? ''} ${blocksToText(note!.blocks ?? [])}`).toContain('Quote posted');
  }
  const posted = await waitUntil(() => {
    const messages = slack.messages(CHANNEL);
    return messages.length >= quotes ? messages : undefined;
  }, 'the quotes to be posted');
  const idOf = (ts: string) => quoteRecords(file).find((quote) => quote.messageTs === ts)!.id;
  const approved = posted[0]!;
  const approvedId = idOf(approved.ts);

  simulator.injectFault('createSwap', { delayMs: 3_000 });
  const click = await driver.clickButtonIn({ ...approved, channel: CHANNEL }, 'swap_approve', {
    userId: APPROVER,
    channelId: CHANNEL,
  });
  expect(click.status).toBe(200);
  await waitUntil(
    () => quoteRecords(file).find((quote) => quote.id === approvedId)?.status === 'approving',
    'the approval to be written before the create',
    8_000,
  );
  const signalledAt = Date.now();
  void bot.stop('SIGTERM');
  await waitUntil(() => /received SIGTERM, shutting down/.test(bot.stderr()), 'the bot to begin its shutdown');
  return { simulator, slack, file, bot, driver, posted, idOf, approved, approvedId, signalledAt };
}

describe('SIGTERM while an approval is under way (dist/src/main.js)', () => {
  it('waits for the held swap/create: the quote is recorded created (not outcome_unknown), its message says so, then exit 0', async () => {
    const { simulator, slack, file, bot, approved, approvedId, signalledAt } = await approveThenSigterm(1);
    expect(await bot.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(20_000);
    const done = quoteRecords(file).find((quote) => quote.id === approvedId)!;
    expect(done.status).toBe('created');
    expect(done.swapId).toEqual(expect.any(String));
    expect(simulator.requestCount('createSwap')).toBe(1);
    // The approver's message says the swap was created.
    const text = blocksToText(slack.messages(CHANNEL).find((message) => message.ts === approved.ts)?.blocks ?? []);
    expect(text).toContain(done.swapId!);
    expect(text).not.toMatch(/may or may not/);
    expect(bot.stderr()).not.toMatch(/still running/);
  }, 45_000);

  it('a command and a click sent during the shutdown get the plain answer and start nothing', async () => {
    const { simulator, file, bot, driver, posted, idOf } = await approveThenSigterm(2);
    const listAssetsBefore = simulator.requestCount('listAssets');
    // A command is answered in plain words at its ack and starts no work…
    const late = await driver.command('balances', { userId: REQUESTER, channelId: CHANNEL });
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ response_type: 'ephemeral', text: RESTARTING });
    // …and a click on the other quote (answered on its response_url): the quote stays waiting for a decision.
    const other = posted[1]!;
    const lateClick = await driver.clickButtonIn({ ...other, channel: CHANNEL }, 'swap_reject', {
      userId: APPROVER,
      channelId: CHANNEL,
    });
    expect((await lateClick.waitForResponses(1))[0]).toMatchObject({
      text: RESTARTING,
      responseType: 'ephemeral',
      replaceOriginal: false,
    });
    // A load balancer is told to send nothing more (not ready), though the process is still alive.
    const ready = await fetch(`${bot.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, stopping: true });
    expect((await fetch(`${bot.baseUrl}/healthz`)).status).toBe(200);
    expect(await bot.exited).toBe(0);
    expect(quoteRecords(file).find((quote) => quote.id === idOf(other.ts))!.status).toBe('pending');
    expect(simulator.requestCount('listAssets')).toBe(listAssetsBefore);
    expect(late.responses()).toEqual([]);
  }, 45_000);
});

describe('work longer than the shutdown budget (in-process)', () => {
  it('is named in the log and cut off: stop() returns within the budget', async () => {
    const lines: string[] = [];
    const record =
      (level: string) =>
      (message: string, fields?: Record<string, unknown>): void => {
        lines.push(`${level} ${message} ${fields ? JSON.stringify(fields) : ''}`);
      };
    const logger: Logger = {
      debug: () => undefined,
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
    };
    const s = await startLocalStack({
      env: { SWAP_APPROVERS: APPROVER },
      logger,
      shutdownBudgetMs: 1_000,
      paymentsTimeoutMs: 10_000,
    });
    cleanups.push(() => s.close());
    const asked = await s.driver.command('swap 1,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL });
    await asked.waitForResponses(1);
    const quote = await s.slack.waitFor(() => s.slack.messages(CHANNEL)[0]);
    s.simulator.injectFault('createSwap', { delayMs: 5_000 });
    await s.driver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
      userId: APPROVER,
      channelId: CHANNEL,
    });
    await waitUntil(
      () => Object.values(s.store.read().swapQuotes).some((q) => q.status === 'approving'),
      'the approval to be written before the create',
    );

    const started = Date.now();
    await s.treasury.stop();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(2_500);
    const warning = lines.find((line) => line.includes('with work still running'));
    expect(warning).toContain('click swap_approve');
    expect(warning).toContain('"budgetMs":1000');
  }, 30_000);
});
