// Two bot processes (dist/src/main.js) on one PostgreSQL database: only the replica holding the poller lease
// reports polls and holds the lease gauge; both serve GET /metrics and read the same shared figures.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { type BotProcess, startBotProcess } from '../support/bot-process.js';
import { postgresAvailable, postgresSkipReason, startTestCluster, type TestCluster } from '../support/postgres.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';

const available = postgresAvailable();
if (!available) console.warn(postgresSkipReason);

const TOKEN = 'xoxb-replica-metrics';

function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  throw new Error(`no series ${name} ${JSON.stringify(labels)}`);
}

let cluster: TestCluster;
let simulator: PaymentsSimulator;
let slack: SlackStandIn;
const bots: BotProcess[] = [];

beforeAll(async () => {
  if (!available) return;
  cluster = await startTestCluster();
  simulator = await startSimulator({ quiet: true });
  slack = await startSlackStandIn({ botToken: TOKEN });
}, 60_000);
afterAll(async () => {
  for (const bot of bots) await bot.stop('SIGKILL');
  await slack?.close();
  await simulator?.close();
  await cluster?.stop();
});

it.skipIf(!available)(
  'only the lease holder reports polls; the other says it holds no lease',
  async () => {
    const databaseUrl = await cluster.createDatabase('replica_metrics');
    for (const name of ['a', 'b'])
      bots.push(
        await startBotProcess({
          PAYMENTS_API_URL: simulator.url,
          PAYMENTS_API_KEY: simulator.apiKey,
          SLACK_BOT_TOKEN: TOKEN,
          SLACK_SIGNING_SECRET: 'replica-metrics-secret',
          SLACK_API_URL: slack.apiUrl,
          DATABASE_URL: databaseUrl,
          REPLICA_NAME: name,
          ALERT_CHANNEL: 'C0ALERTS',
          POLL_SCHEDULE: '* * * * * *',
          ALERT_LOOKBACK: '1m',
          METRICS_TOKEN: 'replica-metrics-scrape',
        }),
      );
    const scrapeAll = () =>
      Promise.all(
        bots.map(async (bot) =>
          (
            await fetch(`${bot.baseUrl}/metrics`, { headers: { authorization: 'Bearer replica-metrics-scrape' } })
          ).text(),
        ),
      );
    // Wait until some replica has polled three times.
    let texts = await scrapeAll();
    for (let tries = 0; tries < 100; tries++) {
      if (texts.some((text) => sample(text, 'treasury_polls_total', { outcome: 'ok' }) >= 3)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
      texts = await scrapeAll();
    }
    const polls = texts.map((text) => sample(text, 'treasury_polls_total', { outcome: 'ok' }));
    const held = texts.map((text) => sample(text, 'treasury_poller_lease_held'));
    const leader = polls.findIndex((count) => count >= 3);
    expect(leader).toBeGreaterThanOrEqual(0);
    const other = 1 - leader;
    expect(held[leader]).toBe(1);
    expect(held[other]).toBe(0);
    expect(polls[other]).toBe(0);
    expect(sample(texts[other]!, 'treasury_last_successful_poll_timestamp_seconds')).toBe(0);
    expect(sample(texts[leader]!, 'treasury_last_successful_poll_timestamp_seconds')).toBeGreaterThan(0);
    // The shared figures are read from the database: both replicas agree.
    for (const text of texts) expect(sample(text, 'treasury_store_up')).toBe(1);
    expect(sample(texts[0]!, 'treasury_alerts_open', { state: 'open' })).toBe(
      sample(texts[1]!, 'treasury_alerts_open', { state: 'open' }),
    );
  },
  60_000,
);
