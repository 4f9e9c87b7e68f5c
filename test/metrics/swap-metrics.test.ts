// The swaps' metrics through the real app (HTTP mode, signed commands and clicks, the payment simulator): a quote
// asked for, waiting, approved and created, scraped from GET /metrics.
import { afterEach, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { ask } from '../support/slack.js';

const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const CHANNEL = 'C0TREASURY';

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

it('a quote asked for waits, is approved and its swap created, then a freeze: each figure moves once', async () => {
  stack = await startLocalStack({ env: { METRICS_TOKEN, SWAP_APPROVERS: APPROVER } });
  const s = stack;
  const start = await scrape(s);
  expect(sample(start, 'treasury_quotes_total', { outcome: 'requested' })).toBe(0);
  expect(sample(start, 'treasury_quotes_waiting')).toBe(0);

  const answer = await ask(s, 'swap 1,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL });
  expect(answer.text).toContain('Quote posted');
  const quote = await s.slack.waitFor(() => s.slack.messages(CHANNEL)[0]);
  const waiting = await scrape(s);
  expect(sample(waiting, 'treasury_quotes_total', { outcome: 'requested' })).toBe(1);
  expect(sample(waiting, 'treasury_quotes_waiting')).toBe(1);

  const click = await s.driver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
    userId: APPROVER,
    channelId: CHANNEL,
  });
  expect(click.status).toBe(200);
  // The create happens after the click's ack: wait for its outcome before counting.
  let after = await scrape(s);
  for (let tries = 0; sample(after, 'treasury_swaps_created_total') === 0 && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    after = await scrape(s);
  }
  expect(sample(after, 'treasury_swaps_created_total')).toBe(1);
  expect(sample(after, 'treasury_approvals_total')).toBe(1);
  expect(sample(after, 'treasury_quotes_waiting')).toBe(0);
  expect(sample(after, 'treasury_quotes_total', { outcome: 'failed' })).toBe(0);
  expect(sample(after, 'treasury_payments_requests_total', { operation: 'createSwap', status_class: '2xx' })).toBe(1);

  // A freeze pulled by an approver: the gauge, read from the store at scrape time, says so.
  expect(sample(after, 'treasury_frozen')).toBe(0);
  const pulled = await ask(s, 'freeze checking the metrics', { userId: APPROVER, channelId: CHANNEL });
  expect(pulled.text).toMatch(/frozen/i);
  expect(sample(await scrape(s), 'treasury_frozen')).toBe(1);
}, 30_000);
