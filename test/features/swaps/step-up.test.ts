// The second factor's rules: which quotes need a code (SWAP_STEP_UP_USD against the value fixed on the quote;
// unknown counts as above), the gate inside the decision (an approval that needs a code never counts without one;
// the freeze is judged first), what an approval with a code records, and the dialog's metadata read back strictly.
import { describe, expect, it } from 'vitest';
import { type DecisionClick, decideOnQuote, policyOf } from '../../../src/features/swaps/decision.js';
import { parseSwapPolicy, type SwapPolicy, snapshotPolicy, type UsdValue } from '../../../src/features/swaps/policy.js';
import { SwapQuote } from '../../../src/features/swaps/quote.js';
import {
  judgeStepUp,
  needsSecondFactor,
  parseStepUpMetadata,
  quoteStepUp,
  STEP_UP_WORDS,
  stepUpMetadata,
  stepUpWindowText,
  stricterThreshold,
} from '../../../src/features/swaps/step-up.js';
import { buildStepUpModal } from '../../../src/features/swaps/step-up-blocks.js';
import { swapQuoteRecord } from '../../support/fixtures.js';

const REQUESTER = 'U0RILEY';
const AVERY = 'U0AVERY';
const BLAKE = 'U0BLAKE';
const ESTIMATED_AT = new Date('2026-11-24T10:00:00.000Z');
const AT = new Date('2026-11-24T10:05:00.000Z');
const THRESHOLD = 5_000_000n; // $50,000
const QUOTE_ID = '0f8b2c1e-3a4d-4e5f-9a6b-7c8d9e0f1a2b';

const POLICY: SwapPolicy = {
  tiers: parseSwapPolicy('0:1,10000000:2').tiers,
  approvers: [AVERY, BLAKE],
  allowSelfApproval: false,
};

function quoteWorth(value: UsdValue, stepUpCents?: bigint): SwapQuote {
  return SwapQuote.parse(
    swapQuoteRecord(QUOTE_ID, {
      requestedBy: REQUESTER,
      estimatedAt: ESTIMATED_AT.toISOString(),
      expiresAt: new Date(ESTIMATED_AT.getTime() + 30 * 60_000).toISOString(),
      messageTs: '1700000000.000100',
      valueUsd: 'cents' in value ? { cents: value.cents.toString() } : value,
      policy: snapshotPolicy(POLICY, value, ESTIMATED_AT, undefined, stepUpCents),
      approvals: [],
    }),
  );
}

const approve = (userId: string, secondFactor?: boolean): DecisionClick => ({
  userId,
  decision: 'approve',
  at: AT,
  isApprover: true,
  ...(secondFactor ? { secondFactor } : {}),
});

const UNKNOWN: UsdValue = { unknown: 'no_usd', reason: 'the API gave no USD price' };

describe('which quotes need a code', () => {
  it.each([
    ['no threshold: never, however large', { cents: 10_000_000_000n }, undefined, false],
    ['no threshold: never, even unknown', UNKNOWN, undefined, false],
    ['one cent under the threshold', { cents: THRESHOLD - 1n }, THRESHOLD, false],
    ['exactly at the threshold', { cents: THRESHOLD }, THRESHOLD, true],
    ['above it', { cents: THRESHOLD + 1n }, THRESHOLD, true],
    ['an unknown value (fail closed)', UNKNOWN, THRESHOLD, true],
    ['a zero threshold: every known value', { cents: 0n }, 0n, true],
  ] as const)('%s', (_name, value, threshold, expected) => {
    expect(needsSecondFactor(value as UsdValue, threshold)).toBe(expected);
  });
});

describe("the requester's swaps of the last 24 hours count toward the code", () => {
  const FORTY = 4_000_000n; // $40,000

  it.each([
    ['alone under the threshold', { count: 0, cents: 0n }, false],
    ['with $9,999.99 of others: one cent short', { count: 1, cents: THRESHOLD - FORTY - 1n }, false],
    ['with a $40,000 swap: $80,000', { count: 1, cents: FORTY }, true],
    ['with one of unknown value: unknown (fail closed)', { count: 2, unknown: 'a swap of unknown value' }, true],
  ] as const)('%s', (_name, window, needed) => {
    expect(judgeStepUp({ cents: FORTY }, THRESHOLD, window).needed).toBe(needed);
    // Without a threshold nothing needs a code, whatever the window.
    expect(judgeStepUp({ cents: FORTY }, undefined, window).needed).toBe(false);
  });

  it('says the total in the words of the note', () => {
    const judged = judgeStepUp({ cents: FORTY }, THRESHOLD, { count: 1, cents: FORTY });
    expect(stepUpWindowText(judged)).toBe('with your $40,000 swap today this makes $80,000: a code is needed');
    expect(stepUpWindowText(judgeStepUp({ cents: FORTY }, THRESHOLD))).toBeUndefined();
  });

  it('fixed on the quote when it is made, as the tier counts it (waiting quotes too)', () => {
    const snapshot = snapshotPolicy(POLICY, { cents: FORTY }, ESTIMATED_AT, { count: 1, cents: FORTY }, THRESHOLD);
    expect(snapshot).toMatchObject({
      stepUpCents: '5000000',
      stepUpWindow: { count: 1, priorCents: '4000000', totalCents: '8000000' },
    });
    expect(quoteStepUp(snapshot, undefined).needed).toBe(true);
  });
});

describe('the threshold: the stricter of the one fixed on the quote and the one configured', () => {
  it.each([
    ['both unset', undefined, undefined, undefined],
    ['set on the quote only', THRESHOLD, undefined, THRESHOLD],
    ['configured only', undefined, THRESHOLD, THRESHOLD],
    ['the lower wins (quote)', THRESHOLD, THRESHOLD * 2n, THRESHOLD],
    ['the lower wins (configuration)', THRESHOLD * 2n, THRESHOLD, THRESHOLD],
  ] as const)('%s', (_name, fixed, configured, expected) => {
    expect(stricterThreshold(fixed, configured)).toBe(expected);
  });

  it('a quote made under $50,000 needs a code where none is configured, and where $100,000 is', () => {
    const quote = quoteWorth({ cents: THRESHOLD }, THRESHOLD);
    for (const configured of [undefined, THRESHOLD * 2n]) {
      const decision = decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY), [], undefined, configured);
      expect(decision.ok ? undefined : decision.reason).toBe('second_factor_required');
    }
  });

  it('a quote made without one (or before it was recorded) needs a code where one is configured', () => {
    const quote = quoteWorth({ cents: THRESHOLD });
    expect(quote.policy?.stepUpCents).toBeUndefined();
    const decision = decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY), [], undefined, THRESHOLD);
    expect(decision.ok ? undefined : decision.reason).toBe('second_factor_required');
    expect(decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY), [], undefined, undefined).ok).toBe(true);
  });

  it("inside the decision the requester's swaps created since the quote count: $40,000 after a $40,000 swap", () => {
    const quote = quoteWorth({ cents: 4_000_000n }, THRESHOLD);
    const alone = decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY), [], undefined, undefined);
    expect(alone.ok).toBe(true);
    const created = SwapQuote.parse(
      swapQuoteRecord('1f8b2c1e-3a4d-4e5f-9a6b-7c8d9e0f1a2b', {
        requestedBy: REQUESTER,
        status: 'created',
        estimatedAt: ESTIMATED_AT.toISOString(),
        decidedAt: ESTIMATED_AT.toISOString(),
        valueUsd: { cents: '4000000' },
      }),
    );
    const decision = decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY), [created], undefined, undefined);
    expect(decision).toMatchObject({ ok: false, reason: 'second_factor_required' });
    expect(decision.ok ? '' : decision.notice).toContain(
      "with the requester's $40,000 swap today this makes $80,000: a code is needed",
    );
  });
});

describe('the gate inside the decision', () => {
  it('an approval of a large quote without a code is refused and counts nothing', () => {
    const quote = quoteWorth({ cents: THRESHOLD });
    const decision = decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY), [], undefined, THRESHOLD);
    expect(decision).toEqual({ ok: false, reason: 'second_factor_required', notice: STEP_UP_WORDS.required });
  });

  it('an unknown-value quote needs a code too', () => {
    const quote = quoteWorth(UNKNOWN);
    const decision = decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY), [], undefined, THRESHOLD);
    expect(decision.ok ? undefined : decision.reason).toBe('second_factor_required');
  });

  it('with a code: counted, the approval and its audit entry marked, the detail says so', () => {
    const quote = quoteWorth({ cents: THRESHOLD });
    const decision = decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY, true), [], undefined, THRESHOLD);
    expect(decision.ok).toBe(true);
    if (!decision.ok) return;
    expect(decision.change.status).toBe('approving');
    expect(decision.change.approvals).toEqual([{ userId: AVERY, at: AT.toISOString(), secondFactor: true }]);
    expect(decision.change.entry).toMatchObject({ event: 'approved', by: AVERY, secondFactor: true });
    expect(decision.change.entry.detail).toMatch(/approval 1 of 1; .*; approved with a second factor$/);
  });

  it('a small quote approves as before, without a code and without a mark', () => {
    const quote = quoteWorth({ cents: THRESHOLD - 1n });
    const decision = decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY), [], undefined, THRESHOLD);
    expect(decision.ok && decision.change.approvals).toEqual([{ userId: AVERY, at: AT.toISOString() }]);
    expect(decision.ok && decision.change.entry.secondFactor).toBeUndefined();
  });

  it('frozen: refused even with a valid code (the freeze first)', () => {
    const quote = quoteWorth({ cents: THRESHOLD });
    const freeze = { frozenBy: BLAKE, frozenAt: AT.toISOString(), reason: 'leak', unfreezeVotes: [] };
    const decision = decideOnQuote(quote, policyOf(quote, POLICY), approve(AVERY, true), [], freeze, THRESHOLD);
    expect(decision.ok ? undefined : decision.reason).toBe('frozen');
  });

  it('a non-approver with a code is refused as a non-approver; the requester as the requester', () => {
    const quote = quoteWorth({ cents: THRESHOLD });
    const stranger = { ...approve('U0STRANGER', true), isApprover: false };
    const refused = decideOnQuote(quote, policyOf(quote, POLICY), stranger, [], undefined, THRESHOLD);
    expect(refused.ok ? undefined : refused.reason).toBe('not_an_approver');
    const own = decideOnQuote(quote, policyOf(quote, POLICY), approve(REQUESTER, true), [], undefined, THRESHOLD);
    expect(own.ok ? undefined : own.reason).toBe('self_approval');
  });

  it('Reject needs no code', () => {
    const quote = quoteWorth({ cents: THRESHOLD });
    const decision = decideOnQuote(
      quote,
      policyOf(quote, POLICY),
      { ...approve(AVERY), decision: 'reject' },
      [],
      undefined,
      THRESHOLD,
    );
    expect(decision.ok && decision.change.status).toBe('rejected');
  });
});

describe("the code dialog's metadata", () => {
  const state = { quoteId: QUOTE_ID, channelId: 'C0TREASURY', messageTs: '1700000000.000100' };

  it('reads back what it wrote', () => {
    expect(parseStepUpMetadata(stepUpMetadata(state))).toEqual(state);
  });

  it.each([
    ['not JSON', 'nope'],
    ['an array', '[]'],
    ['another quote id shape', JSON.stringify({ q: 'abc', c: 'C0TREASURY', m: '1700000000.000100' })],
    ['a channel that is not one', JSON.stringify({ q: QUOTE_ID, c: '<!channel>', m: '1700000000.000100' })],
    ['a ts that is not one', JSON.stringify({ q: QUOTE_ID, c: 'C0TREASURY', m: '1e9' })],
    ['an extra field', JSON.stringify({ q: QUOTE_ID, c: 'C0TREASURY', m: '1700000000.000100', secondFactor: true })],
    ['too long', 'x'.repeat(301)],
    ['not a string', undefined],
  ])('refuses %s', (_name, text) => {
    expect(parseStepUpMetadata(text)).toBeUndefined();
  });

  it('the dialog shows the amounts and value, asks one 6-digit input, carries the metadata', () => {
    const quote = quoteWorth({ cents: THRESHOLD });
    const modal = buildStepUpModal(quote, policyOf(quote, POLICY), { needed: true, thresholdCents: THRESHOLD }, state);
    expect(modal.title.text).toBe('Approve with a code');
    expect(modal.private_metadata.length).toBeLessThan(3_000);
    expect(parseStepUpMetadata(modal.private_metadata)).toEqual(state);
    const text = JSON.stringify(modal.blocks);
    expect(text).toContain('about $50,000');
    expect(text).toContain('approvals from $50,000 need a code');
    expect(modal.blocks.filter((block) => block.type === 'input')).toHaveLength(1);
  });
});
