// End to end on the state file (signed commands and clicks on the real Bolt app, the Slack stand-in, the payment
// API simulator over HTTP): a swap's USD value fails closed when its price cannot be trusted (a dust balance the
// asset list values at $0.00), and a person's swaps of the last 24 hours are added up to judge the tier, so
// splitting a large swap never lowers the approvals it needs. The rules' edges: test/features/swaps/policy.test.ts
// and test/features/swaps/decision.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { blocksToText } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import type { DriverResult } from '../support/rig/slack-driver.js';
import type { StoredMessage } from '../support/rig/slack-stand-in.js';
import { ask } from '../support/slack.js';
import { expectStaysAt } from '../support/waiting.js';

const REQUESTER = 'U0REQUESTER';
const OTHER_REQUESTER = 'U0RILEY';
const AVERY = 'U0AVERY';
const BLAKE = 'U0BLAKE';
const CASEY = 'U0CASEY';
const CHANNEL = 'C0TREASURY';
const HOUR = 3_600_000;

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(env: Record<string, string> = {}): Promise<LocalStack> {
  stack = await startLocalStack({ env: { SWAP_APPROVERS: `${AVERY},${BLAKE},${CASEY}`, ...env } });
  return stack;
}

async function requestQuote(s: LocalStack, text: string, userId = REQUESTER) {
  const before = s.slack.messages(CHANNEL).length;
  const answer = await ask(s, text, { userId, channelId: CHANNEL });
  expect(answer.text).toContain('Quote posted');
  const message = await s.slack.waitFor(() => s.slack.messages(CHANNEL)[before], 8_000, 'the quote message');
  return { note: answer.text, message };
}

const current = (s: LocalStack, quote: StoredMessage) => s.slack.messages(CHANNEL).find((m) => m.ts === quote.ts)!;
const textOf = (s: LocalStack, quote: StoredMessage) => blocksToText(current(s, quote).blocks ?? []);
const creates = (s: LocalStack) => s.simulator.requests.filter((r) => r.operation === 'createSwap').length;
const estimates = (s: LocalStack) => s.simulator.requests.filter((r) => r.operation === 'estimateSwap').length;

async function click(s: LocalStack, quote: StoredMessage, userId: string): Promise<DriverResult> {
  const result = await s.driver.clickButtonIn({ ...current(s, quote), channel: CHANNEL }, 'swap_approve', {
    userId,
    channelId: CHANNEL,
  });
  expect(result.status).toBe(200);
  return result;
}

async function noticeOf(result: DriverResult): Promise<string> {
  const [notice] = await result.waitForResponses(1);
  return notice?.text ?? '';
}

const waitForText = (s: LocalStack, quote: StoredMessage, pattern: RegExp) =>
  s.slack.waitFor(
    () => (pattern.test(textOf(s, quote)) ? textOf(s, quote) : undefined),
    8_000,
    `the quote message matching ${pattern}`,
  );

/** USDT on Ethereum swept down to 1 base unit (0.000001 USDT): the asset list values that balance at $0.00. */
function sweepUsdtToDust(s: LocalStack): void {
  s.simulator.setAssetBalance(s.simulator.ids.assets.usdtEth, 1n);
}

describe('a swap whose USD value cannot be trusted fails closed', () => {
  it('20,000 USDT out of a dust balance valued at $0.00 needs the top tier, and the quote says why in plain words', async () => {
    const s = await start({ SWAP_POLICY: '0:1,10000:2,250000:3' });
    sweepUsdtToDust(s);
    const { note, message } = await requestQuote(s, 'swap 20,000 USDT@ETH to USDC@ETH');
    expect(note).toContain(
      'it needs 3 approvals (for USDT on Ethereum (the asset swapped from), the asset list values',
    );
    const text = textOf(s, message);
    expect(text).not.toContain('≈ $0');
    expect(text).toContain(
      'USD value unknown: for USDT on Ethereum (the asset swapped from), the asset list values the balance of this asset at $0, so its price is unknown',
    );
    expect(text).toContain('Waiting for *3 approvals*');
    expect(text).toContain('without a price the swap needs as many approvals as the largest swaps');
    const [record] = await s.store.swapQuotes.listRecentQuotes(1);
    expect(record?.policy).toMatchObject({ needed: 3, value: { unknown: 'zero_usd' } });

    // One approval of three creates nothing.
    expect(await noticeOf(await click(s, message, AVERY))).toContain('Your approval is recorded (1 of 3)');
    await expectStaysAt(0, () => creates(s));

    // Topped up again, a $100 swap of the same person cannot be added to that one (its value is unknown): the top
    // tier too, saying why.
    s.simulator.setAssetBalance(s.simulator.ids.assets.usdtEth, 152_340_250_000n);
    const small = await requestQuote(s, 'swap 100 USDT@ETH to USDC@ETH');
    expect(small.note).toContain('it needs 3 approvals (the USD value of your swap of ');
    expect(textOf(s, small.message)).toContain('≈ $100.00');
    expect(textOf(s, small.message)).toContain('so your swaps of the last 24 hours cannot be added up');
  });

  it('with SWAP_MAX_USD set it is refused before anything is estimated, saying why', async () => {
    const s = await start({ SWAP_POLICY: '0:1,10000:2', SWAP_MAX_USD: '250,000' });
    sweepUsdtToDust(s);
    const answer = await ask(s, 'swap 20,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL });
    expect(answer.text).toBe(
      ':warning: No quote was made: swaps are limited to $250,000 each and for USDT on Ethereum (the asset swapped from), the asset list values the balance of this asset at $0, so its price is unknown (a zero price would make any amount look free) (`SWAP_MAX_USD`). Ask for a smaller amount.',
    );
    expect(estimates(s)).toBe(0);
    expect(s.slack.messages(CHANNEL)).toEqual([]);
  });

  it('the asset swapped into counts too: a target valued at $0.00 makes the value unknown, and SWAP_MAX_USD refuses it after the estimate', async () => {
    const s = await start({ SWAP_POLICY: '0:1,10000:2', SWAP_MAX_USD: '250,000' });
    s.simulator.setAssetBalance(s.simulator.ids.assets.usdcEth, 1n); // 0.000001 USDC: $0.00
    const answer = await ask(s, 'swap 6,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL });
    expect(answer.text).toContain(
      'No quote was made: swaps are limited to $250,000 each and for USDC on Ethereum (the asset swapped into), the asset list values the balance of this asset at $0',
    );
    expect(estimates(s)).toBe(1);
    expect(s.slack.messages(CHANNEL)).toEqual([]);
  });
});

describe("a person's swaps of the last 24 hours are added up: splitting never lowers the tier", () => {
  it('two $6,000 swaps an hour apart under 0:1,10000:2: the second needs two approvals and says why; another person is not counted', async () => {
    const s = await start({ SWAP_POLICY: '0:1,10000:2' });
    const first = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    expect(textOf(s, first.message)).toContain('Waiting for approval by');
    await click(s, first.message, AVERY);
    await waitForText(s, first.message, /Swap `[0-9a-f-]+`/);

    s.simulator.advanceTime(HOUR);
    const second = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    expect(second.note).toContain('it needs 2 approvals (with your $6,000 swap today this makes $12,000: 2 approvals)');
    const text = textOf(s, second.message);
    expect(text).toContain('Waiting for *2 approvals*');
    expect(text).toContain('(with your $6,000 swap today this makes $12,000: 2 approvals; swaps from $10,000 need 2)');
    expect(await noticeOf(await click(s, second.message, AVERY))).toContain('Your approval is recorded (1 of 2)');
    await expectStaysAt(1, () => creates(s));
    await click(s, second.message, BLAKE);
    await waitForText(s, second.message, /Approved by <@U0AVERY> and <@U0BLAKE>/);
    await s.slack.waitFor(() => creates(s) === 2, 8_000, 'the second create');

    // Someone else's $6,000 swap is theirs alone: one approval.
    const other = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH', OTHER_REQUESTER);
    expect(other.note).toContain('it needs one approval.');
    expect(textOf(s, other.message)).toContain('Waiting for approval by');

    // A day after the first, only the second is in the window: $6,000 + $6,000 again, so two.
    s.simulator.advanceTime(23 * HOUR + 1_000);
    const third = await requestQuote(s, 'swap 3,000 USDT@ETH to USDC@ETH');
    expect(third.note).toContain('(with your $6,000 swap today this makes $9,000: one approval)');

    const policy = await ask(s, 'policy', { userId: REQUESTER, channelId: CHANNEL });
    expect(policy.text).toContain(
      "*Splitting does not lower the tier:* a swap's tier is judged on it plus the requester's own swaps of the last 24 hours",
    );
  });

  it('two quotes asked for at once cannot see each other; the approval that would create the second finds the first created and asks for a second approver', async () => {
    const s = await start({ SWAP_POLICY: '0:1,10000:2' });
    s.simulator.injectFault('estimateSwap', { delayMs: 400 }, 2);
    const [a, b] = await Promise.all([
      ask(s, 'swap 6,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL }),
      ask(s, 'swap 6,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL }),
    ]);
    expect([a.text, b.text]).toEqual([
      expect.stringContaining('it needs one approval.'),
      expect.stringContaining('it needs one approval.'),
    ]);
    const [one, two] = await s.slack.waitFor(
      () => (s.slack.messages(CHANNEL).length >= 2 ? s.slack.messages(CHANNEL).slice(0, 2) : undefined),
      8_000,
      'both quotes',
    );
    await click(s, one!, AVERY);
    await s.slack.waitFor(() => creates(s) === 1, 8_000, 'the first create');
    expect(await noticeOf(await click(s, two!, AVERY))).toBe(
      "Your approval is recorded (1 of 2), but the swap is not created yet: since this quote was made, other swaps of its requester were approved, and with the requester's $6,000 swap today this makes $12,000: 2 approvals. The swap is created once it has one more approval.",
    );
    const raised = await waitForText(s, two!, /Approved 1 of 2/);
    expect(raised).toContain(
      '(with your $6,000 swap today this makes $12,000: 2 approvals; swaps from $10,000 need 2)',
    );
    await expectStaysAt(1, () => creates(s));
    await click(s, two!, BLAKE);
    await s.slack.waitFor(() => creates(s) === 2, 8_000, 'the second create');
    const quote = (await s.store.swapQuotes.listRecentQuotes(2)).find((q) => q.approvals?.length === 2);
    expect(quote?.history.map((entry) => entry.detail ?? '')).toContain(
      "approval 1 of 2; the requester's swaps of the last 24 hours raised the tier from 1; waiting for one more approval",
    );
  });
});
