// A command acknowledged before SIGTERM is still answered: the bot stops taking requests, finishes the answers
// under way, then exits. Real dist/src/main.js process, the simulator and the Slack stand-in over HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../dev/simulator/index.js';
import { startBotProcess } from './support/bot-process.js';
import { blocksToText } from './support/rig/blocks-text.js';
import { createSlackDriver } from './support/rig/slack-driver.js';
import { type SlackStandIn, startSlackStandIn } from './support/rig/slack-stand-in.js';

const SIGNING_SECRET = 'shutdown-signing-secret';
const BOT_TOKEN = 'xoxb-shutdown';

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
  slack = await startSlackStandIn({ botToken: BOT_TOKEN });
});
afterAll(async () => {
  await slack?.close();
  await simulator?.close();
});

it('SIGTERM while three balances answers wait on a slow payment API: all three are delivered, then the bot exits 0', async () => {
  const bot = await startBotProcess({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    DATA_FILE: join(mkdtempSync(join(tmpdir(), 'shutdown-')), 'state.json'),
  });
  try {
    const driver = createSlackDriver({ eventsUrl: bot.eventsUrl, signingSecret: SIGNING_SECRET, standIn: slack });
    simulator.injectFault('listAssets', { delayMs: 1_500 }, 3);
    const acked = await Promise.all([
      driver.command('balances'),
      driver.command('balances'),
      driver.command('balances'),
    ]);
    for (const result of acked) expect(result.status).toBe(200);
    expect(acked.flatMap((result) => result.responses())).toEqual([]); // nothing answered yet: the API is slow
    void bot.stop('SIGTERM');
    const answers = await Promise.all(acked.map((result) => result.waitForResponses(1, 10_000)));
    for (const [answer] of answers) expect(blocksToText(answer!.blocks)).toMatch(/USDT|ETH|BTC/);
    expect(await bot.exited).toBe(0);
  } finally {
    await bot.stop('SIGKILL');
  }
}, 30_000);
