// The poller's metrics through the real app (HTTP mode, the payment simulator and the Slack stand-in over HTTP):
// polls, the last successful poll, the lease, alerts posted and failed, and the alert latency histogram, scraped
// from GET /metrics.
import { afterEach, expect, it } from 'vitest';
import { ROUTE_KINDS } from '../../src/features/alerts/routing.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';

function sample(text: string, name: string, labels: Record<string, string> = {}): number {
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

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

it('a failed withdrawal Slack first refuses, posted 90 s after the poll saw it: latency in the 120 s bucket', async () => {
  stack = await startLocalStack({ env: { METRICS_TOKEN, ALERT_CHANNEL: 'C0ALERTS', POLL_SCHEDULE: '0 0 1 1 *' } });
  const alerts = stack.treasury.alerts!;
  const start = await scrape(stack);
  expect(sample(start, 'treasury_polls_total', { outcome: 'ok' })).toBe(0);
  // The seeded failures go out at the first poll.
  expect(await alerts.runNow()).toBe(true);
  const before = await scrape(stack);
  expect(sample(before, 'treasury_polls_total', { outcome: 'ok' })).toBe(1);
  expect(sample(before, 'treasury_poll_duration_seconds_count')).toBe(1);
  expect(sample(before, 'treasury_poller_lease_held')).toBe(1);
  expect(sample(before, 'treasury_last_successful_poll_timestamp_seconds')).toBeCloseTo(
    stack.simulator.now() / 1000,
    -1,
  );
  const posted = (text: string) =>
    ROUTE_KINDS.reduce((sum, kind) => sum + sample(text, 'treasury_alerts_posted_total', { kind }), 0);
  expect(posted(before)).toBeGreaterThan(0);
  expect(sample(before, 'treasury_slack_calls_total', { method: 'chat.postMessage', outcome: 'ok' })).toBeGreaterThan(
    0,
  );

  const latency = (text: string, le: string) =>
    sample(text, 'treasury_alert_latency_seconds_bucket', { kind: 'withdrawal_failed', le });
  stack.simulator.addWithdrawal({ status: 'failed', createdAt: stack.simulator.now() - 5_000 });
  stack.slack.failNext('chat.postMessage', { status: 429, retryAfter: 30 }, 1);
  await alerts.runNow();
  const refused = await scrape(stack);
  expect(sample(refused, 'treasury_alerts_failed_total', { kind: 'withdrawal_failed', reason: 'not_accepted' })).toBe(
    1,
  );
  expect(sample(refused, 'treasury_slack_rate_limits_total', { method: 'chat.postMessage' })).toBe(1);
  expect(latency(refused, '+Inf')).toBe(latency(before, '+Inf'));

  // 90 s later (the bot's clock is the simulator's) the next poll posts it.
  stack.simulator.advanceTime(90_000);
  await alerts.runNow();
  const after = await scrape(stack);
  expect(sample(after, 'treasury_alerts_posted_total', { kind: 'withdrawal_failed' })).toBe(
    sample(before, 'treasury_alerts_posted_total', { kind: 'withdrawal_failed' }) + 1,
  );
  expect(latency(after, '60') - latency(before, '60')).toBe(0);
  expect(latency(after, '120') - latency(before, '120')).toBe(1);
  expect(latency(after, '+Inf') - latency(before, '+Inf')).toBe(1);
  expect(sample(after, 'treasury_polls_total', { outcome: 'ok' })).toBe(3);
  // Read from the store at scrape time: the alerts posted are open (owned by nobody yet); nothing frozen or waiting.
  expect(sample(after, 'treasury_alerts_open', { state: 'open' })).toBeGreaterThan(0);
  expect(sample(after, 'treasury_alerts_open', { state: 'acknowledged' })).toBe(0);
  expect(sample(after, 'treasury_quotes_waiting')).toBe(0);
  expect(sample(after, 'treasury_frozen')).toBe(0);
  expect(sample(after, 'treasury_store_up')).toBe(1);

  // Nobody took the alerts: 31 minutes on (ALERT_REMIND_AFTER 30m), the poll's follow-up posts reminders.
  const reminders = (text: string) =>
    ROUTE_KINDS.reduce((sum, kind) => sum + sample(text, 'treasury_alert_reminders_total', { kind }), 0);
  expect(reminders(after)).toBe(0);
  stack.simulator.advanceTime(31 * 60_000);
  await alerts.runNow();
  expect(reminders(await scrape(stack))).toBeGreaterThan(0);
}, 60_000);
