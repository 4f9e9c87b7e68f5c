// The real entry point (`node dist/src/main.js`) with LOG_FORMAT=json at debug level and known fake secrets: every
// line it writes to stderr is one JSON object naming the replica, a command's lines name the command, and none of
// the secrets appears anywhere in what it wrote, through start-up, a command, a refused API call and shutdown.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { type BotProcess, startBotProcess } from '../support/bot-process.js';
import { createSlackDriver } from '../support/rig/slack-driver.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';

const BOT_TOKEN = 'xoxb-process-canary-token-5521';
const SIGNING_SECRET = 'process-canary-signing-secret-8812';
const TOTP_KEY = 'b7'.repeat(32);
const REPLICA = 'json-process-replica';

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
let bot: BotProcess | undefined;
beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
  slack = await startSlackStandIn({ botToken: BOT_TOKEN });
});
afterAll(async () => {
  if (bot?.alive()) await bot.stop();
  await slack.close();
  await simulator.close();
});

it('writes only JSON lines with the replica and the command context, and never a secret', async () => {
  bot = await startBotProcess({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    TOTP_ENCRYPTION_KEY: TOTP_KEY,
    SWAP_STEP_UP_USD: '1000',
    REPLICA_NAME: REPLICA,
    LOG_LEVEL: 'debug',
    LOG_FORMAT: 'json',
  });
  const driver = createSlackDriver({ eventsUrl: bot.eventsUrl, signingSecret: SIGNING_SECRET, standIn: slack });
  simulator.injectFault('listAssets', { status: 500 }, 10);
  await (await driver.command('balances')).waitForResponses(1, 15_000);
  simulator.clearFaults();
  await (await driver.command('help')).waitForResponses(1, 15_000);
  await bot.stop();

  const written = bot.stderr();
  const lines = written.split('\n').filter((line) => line.trim() !== '');
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const record of records) expect(record).toMatchObject({ replica: REPLICA, msg: expect.any(String) });
  expect(records.some((r) => r.subcommand === 'balances' && r.command === '/treasury' && r.level === 40)).toBe(true);
  expect(records.some((r) => r.subcommand === 'help')).toBe(true);
  for (const secret of [
    BOT_TOKEN,
    SIGNING_SECRET,
    simulator.apiKey,
    TOTP_KEY,
    Buffer.from(TOTP_KEY, 'hex').toString('base64'),
  ])
    expect(written).not.toContain(secret);
}, 60_000);
