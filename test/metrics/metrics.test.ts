// GET /metrics through the real app (HTTP mode, the Slack stand-in and the payment simulator over HTTP): every
// series at zero from the start, counters that move with what they count, one registry per app, METRICS_TOKEN
// and METRICS_PORT.
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTE_KINDS } from '../../src/features/alerts/routing.js';
import { createLogger } from '../../src/logger.js';
import { bearerMatches } from '../../src/metrics/http.js';
import { ALERT_LATENCY_BUCKETS, createAppMetrics } from '../../src/metrics/index.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';

/** The value of one series in a Prometheus text exposition; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

async function scrape(url: string, token?: string): Promise<{ status: number; text: string; type: string }> {
  const response = await fetch(`${url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') ?? '' };
}

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('the registry', () => {
  it('has every known series at zero from the start, under treasury_, with Node default metrics', async () => {
    const { body } = await createAppMetrics({ alertKinds: ROUTE_KINDS }).scrape();
    for (const kind of ROUTE_KINDS) {
      expect(sample(body, 'treasury_alerts_posted_total', { kind })).toBe(0);
      expect(sample(body, 'treasury_alerts_failed_total', { kind })).toBe(0);
      expect(sample(body, 'treasury_alert_reminders_total', { kind })).toBe(0);
      expect(sample(body, 'treasury_alert_latency_seconds_count', { kind })).toBe(0);
      expect(sample(body, 'treasury_alert_latency_seconds_bucket', { kind, le: '1800' })).toBe(0);
    }
    for (const outcome of ['ok', 'error', 'rate_limited'])
      expect(sample(body, 'treasury_slack_calls_total', { method: 'chat.postMessage', outcome })).toBe(0);
    expect(sample(body, 'treasury_alerts_posted_total', { kind: 'runway_low' })).toBe(0);
    expect(sample(body, 'treasury_polls_total', { outcome: 'ok' })).toBe(0);
    expect(sample(body, 'treasury_poller_lease_held')).toBe(0);
    expect(sample(body, 'treasury_last_successful_poll_timestamp_seconds')).toBe(0);
    for (const reason of ['wrong', 'replayed', 'locked'])
      expect(sample(body, 'treasury_step_up_failures_total', { reason })).toBe(0);
    expect(sample(body, 'treasury_approvals_total')).toBe(0);
    expect(sample(body, 'treasury_swaps_created_total')).toBe(0);
    expect(sample(body, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(sample(body, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    const ours = body.split('\n').filter((line) => /^[a-z]/.test(line) && !/^(process_|nodejs_)/.test(line));
    for (const line of ours) expect(line).toMatch(/^treasury_/);
  });

  it('keeps each app apart (no global registry) and puts a latency in the right bucket', async () => {
    const first = createAppMetrics({ alertKinds: ROUTE_KINDS });
    const second = createAppMetrics({ alertKinds: ROUTE_KINDS });
    first.metrics.alertLatency('withdrawal_failed', 90);
    const a = (await first.scrape()).body;
    const b = (await second.scrape()).body;
    expect(sample(a, 'treasury_alert_latency_seconds_bucket', { kind: 'withdrawal_failed', le: '60' })).toBe(0);
    expect(sample(a, 'treasury_alert_latency_seconds_bucket', { kind: 'withdrawal_failed', le: '120' })).toBe(1);
    expect(sample(b, 'treasury_alert_latency_seconds_count', { kind: 'withdrawal_failed' })).toBe(0);
    expect(ALERT_LATENCY_BUCKETS.at(-1)).toBe(1800);
  });

  it('compares a bearer token whole', () => {
    expect(bearerMatches('Bearer s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('Bearer s3cre', 's3cret')).toBe(false);
    expect(bearerMatches('s3cret', 's3cret')).toBe(false);
    expect(bearerMatches(undefined, 's3cret')).toBe(false);
  });
});

describe('GET /metrics on the running bot', () => {
  it('HTTP mode with neither METRICS_TOKEN nor METRICS_PORT: off on the public Slack port (404), and one warning says how to turn it on', async () => {
    const lines: string[] = [];
    stack = await startLocalStack({ logger: createLogger('debug', (line) => lines.push(line)) });
    expect((await scrape(stack.botUrl)).status).toBe(404);
    expect((await scrape(stack.botUrl, 'anything')).status).toBe(404);
    expect((await fetch(`${stack.botUrl}/healthz`)).status).toBe(200);
    expect(stack.treasury.metricsPort()).toBeUndefined();
    const warnings = lines.filter((line) => line.includes('GET /metrics is off'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ WARN .*Set METRICS_PORT .* or METRICS_TOKEN /);
  }, 30_000);

  it('beside /healthz (METRICS_TOKEN): Slack calls and payment API requests move with the work', async () => {
    stack = await startLocalStack({ env: { METRICS_TOKEN: 'scrape-token-123' } });
    const before = await scrape(stack.botUrl, 'scrape-token-123');
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain/);
    // auth.test at start went through the gateway.
    expect(sample(before.text, 'treasury_slack_calls_total', { method: 'auth.test', outcome: 'ok' })).toBeGreaterThan(
      0,
    );
    const assetsBefore =
      sample(before.text, 'treasury_payments_requests_total', { operation: 'listAssets', status_class: '2xx' }) ?? 0;
    const answered = await stack.driver.command('balances');
    await answered.waitForResponses(1, 10_000);
    const after = (await scrape(stack.botUrl, 'scrape-token-123')).text;
    expect(
      sample(after, 'treasury_payments_requests_total', { operation: 'listAssets', status_class: '2xx' }),
    ).toBeGreaterThan(assetsBefore);

    stack.simulator.injectFault('listAssets', { status: 500 }, 10);
    const failed = await stack.driver.command('balances');
    await failed.waitForResponses(1, 10_000);
    const afterFault = (await scrape(stack.botUrl, 'scrape-token-123')).text;
    expect(
      sample(afterFault, 'treasury_payments_requests_total', { operation: 'listAssets', status_class: '5xx' }),
    ).toBeGreaterThan(0);
  }, 30_000);

  it('METRICS_TOKEN: on the Slack port, refused without the bearer token or with a wrong one, served with it; never printed by describeConfig', async () => {
    stack = await startLocalStack({ env: { METRICS_TOKEN: 'scrape-token-123' } });
    expect((await scrape(stack.botUrl)).status).toBe(401);
    expect((await scrape(stack.botUrl, 'wrong')).status).toBe(401);
    const served = await scrape(stack.botUrl, 'scrape-token-123');
    expect(served.status).toBe(200);
    expect(served.text).toContain('treasury_slack_calls_total');
    const { describeConfig } = await import('../../src/config-display.js');
    expect(JSON.stringify(describeConfig(stack.config))).not.toContain('scrape-token-123');
  }, 30_000);

  it('METRICS_PORT: /metrics on a server of its own, closed on stop', async () => {
    stack = await startLocalStack({ env: { METRICS_PORT: '0' } });
    const port = stack.treasury.metricsPort();
    expect(port).toBeDefined();
    const own = `http://127.0.0.1:${port}`;
    expect(own).not.toBe(stack.botUrl);
    expect((await scrape(own)).status).toBe(200);
    expect((await fetch(`${stack.botUrl}/metrics`)).status).toBe(404);
    await stack.close();
    stack = undefined;
    await expect(fetch(`${own}/metrics`)).rejects.toThrow();
  }, 30_000);
});
