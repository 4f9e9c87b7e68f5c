// Where an alert's latency starts, through the real app (HTTP mode, the payment simulator and the Slack stand-in
// over HTTP), scraped from GET /metrics: from the payment API's time of the change where it gives a believable one
// (a gas top-up's updatedAt in RFC 3339, a new failed withdrawal's createdAt in `YYYY-MM-DD HH:MM:SS`), else from
// the poll's first sight (a withdrawal followed while pending that turned failed; a gas updatedAt in the future).
import { afterEach, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';

function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  throw new Error(`no series ${name} ${JSON.stringify(labels)}`);
}

// In HTTP mode the Slack port serves /metrics only to a scraper with METRICS_TOKEN.
const METRICS_TOKEN = 'metrics-scrape-token';
const scrape = async (stack: LocalStack) =>
  (await fetch(`${stack.botUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

/** How many observations of `kind` each bucket (`le`) gained between two scrapes. */
function gained(before: string, after: string, kind: string): Record<string, number> {
  const gain: Record<string, number> = {};
  for (const le of ['1', '120', '300', '600', '+Inf'])
    gain[le] =
      sample(after, 'treasury_alert_latency_seconds_bucket', { kind, le }) -
      sample(before, 'treasury_alert_latency_seconds_bucket', { kind, le });
  return gain;
}

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

it("starts an alert's latency at the API's time of the change where it gives one, else at the poll's first sight", async () => {
  stack = await startLocalStack({ env: { METRICS_TOKEN, ALERT_CHANNEL: 'C0ALERTS', POLL_SCHEDULE: '0 0 1 1 *' } });
  const sim = stack.simulator;
  const alerts = stack.treasury.alerts!;
  // The first poll: the poller watches the sources from now on (the seeded failures go out).
  expect(await alerts.runNow()).toBe(true);
  sim.advanceTime(10 * 60_000);
  const start = await scrape(stack);

  // A gas top-up short of donor balance that changed 200 s ago (updatedAt, RFC 3339), created before that; a
  // withdrawal that failed 200 s ago, first seen failed (its createdAt, `YYYY-MM-DD HH:MM:SS`); a pending withdrawal.
  const now = sim.now();
  sim.addGasDistribution({
    status: 'failed',
    subStatus: 'not_enough_donor_balance',
    createdAt: now - 400_000,
    updatedAt: now - 200_000,
  });
  sim.addWithdrawal({ status: 'failed', createdAt: now - 200_000 });
  const followed = sim.addWithdrawal({ status: 'pending', createdAt: now - 300_000 });
  await alerts.runNow();
  const first = await scrape(stack);
  expect(gained(start, first, 'gas_donor_balance')).toEqual({ '1': 0, '120': 0, '300': 1, '600': 1, '+Inf': 1 });
  expect(gained(start, first, 'withdrawal_failed')).toEqual({ '1': 0, '120': 0, '300': 1, '600': 1, '+Inf': 1 });

  // The followed withdrawal fails: the API gives only its createdAt (over 5 minutes before the change), so the
  // latency starts at the poll that saw the failure and it is posted in that poll. A gas top-up whose updatedAt
  // lies in the future is not believed either.
  sim.advanceTime(30_000);
  sim.updateWithdrawal(followed.id, { status: 'failed' });
  sim.addGasDistribution({
    status: 'failed',
    subStatus: 'not_enough_donor_balance',
    createdAt: sim.now() - 400_000,
    updatedAt: sim.now() + 5 * 60_000,
  });
  await alerts.runNow();
  const second = await scrape(stack);
  expect(gained(first, second, 'withdrawal_failed')).toEqual({ '1': 1, '120': 1, '300': 1, '600': 1, '+Inf': 1 });
  expect(gained(first, second, 'gas_donor_balance')).toEqual({ '1': 1, '120': 1, '300': 1, '600': 1, '+Inf': 1 });
}, 60_000);
