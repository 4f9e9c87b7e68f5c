// A quote shows what its source amount was worth in USD at quote time, or why that is unknown, and an old quote
// (recorded before the value was) shows neither; every form within Slack's limits.
import { describe, expect, it } from 'vitest';
import { buildQuoteMessage } from '../../src/features/swaps/blocks.js';
import { DEFAULT_TIERS } from '../../src/features/swaps/policy.js';
import { buildPolicy } from '../../src/features/swaps/policy-blocks.js';
import { SwapQuote } from '../../src/features/swaps/quote.js';
import { expectWithinSlackLimits } from '../support/block-limits.js';
import { swapQuoteRecord } from '../support/fixtures.js';
import { blocksToText } from '../support/rig/blocks-text.js';

const NOW = new Date('2026-11-22T00:05:00.000Z');
const POLICY = { approvers: ['U2'], allowSelfApproval: false };
const quoteWith = (overrides: Record<string, unknown>) =>
  SwapQuote.parse(swapQuoteRecord('q1', { amountFrom: '1000000000', ...overrides }));

describe('the USD value on a quote', () => {
  it.each([
    [{ valueUsd: { cents: '100000' } }, '1,000 USDT on Ethereum ≈ $1,000.00'],
    [{ valueUsd: { cents: '5' } }, '≈ $0.05'],
    [{ valueUsd: { cents: '123456789012345678901234' } }, '≈ $1,234,567,890,123,456,789,012.34'],
    [
      { valueUsd: { unknown: 'no_balance', reason: 'the asset has no balance <now> & no price' } },
      '_USD value unknown: the asset has no balance &lt;now&gt; &amp; no price_',
    ],
  ])('%j → %s', (overrides, shown) => {
    const message = buildQuoteMessage(quoteWith(overrides), POLICY, NOW);
    expectWithinSlackLimits(message);
    expect(blocksToText(message.blocks)).toContain(shown);
  });

  it('a quote recorded before values were kept shows none', () => {
    const text = blocksToText(buildQuoteMessage(quoteWith({}), POLICY, NOW).blocks);
    expect(text).toContain('1,000 USDT on Ethereum\n');
    expect(text).not.toContain('≈');
    expect(text).not.toContain('USD value unknown');
  });
});

describe('a waiting quote that needs a code says so before anyone clicks', () => {
  const STEP_UP = 5_000_000n; // $50,000
  const CODE_LINE = 'Approve asks for a code from your authenticator app (approvals from $50,000, or of unknown value)';
  it.each([
    ['worth the threshold exactly', { valueUsd: { cents: '5000000' } }, STEP_UP, true],
    ['worth more', { valueUsd: { cents: '9000000' } }, STEP_UP, true],
    ['worth a cent less', { valueUsd: { cents: '4999999' } }, STEP_UP, false],
    ['of unknown value', { valueUsd: { unknown: 'no_usd', reason: 'no price' } }, STEP_UP, true],
    ['recorded before values were kept (unknown)', {}, STEP_UP, true],
    ['large, but no step-up configured', { valueUsd: { cents: '9000000' } }, undefined, false],
    ['large, but decided already', { valueUsd: { cents: '9000000' }, status: 'rejected' }, STEP_UP, false],
  ])('%s: line shown %s', (_name, overrides, stepUp, shown) => {
    const message = buildQuoteMessage(quoteWith(overrides), POLICY, NOW, undefined, stepUp);
    expectWithinSlackLimits(message);
    expect(blocksToText(message.blocks).includes(CODE_LINE)).toBe(shown);
  });
});

describe('/treasury policy', () => {
  it('stays within Slack limits with long lists of people, and says how many are not named', () => {
    const many = Array.from({ length: 500 }, (_, i) => `U${String(i).padStart(9, '0')}`);
    const message = buildPolicy(
      { tiers: DEFAULT_TIERS, approvers: many, allowSelfApproval: true, treasuryUsers: many, maxUsdCents: 25_000_000n },
      30_000_000n,
    );
    expectWithinSlackLimits(message);
    const text = blocksToText(message.blocks);
    expect(text).toContain('and 480 more');
    expect(text).toContain('*Self-approval:* allowed');
    expect(text).toContain('A swap worth $300,000 would be *refused*');
  });

  it('with nobody to approve, says no swap can be approved', () => {
    const text = blocksToText(
      buildPolicy({ tiers: DEFAULT_TIERS, approvers: [], allowSelfApproval: false, treasuryUsers: ['*'] }, 100n).blocks,
    );
    expect(text).toContain('A swap worth $1 could not be approved: nobody is an approver.');
    expect(text).toContain(
      '*Who may ask for a swap:* everyone in the installing organisation (on Enterprise Grid, every workspace of it) (`TREASURY_USERS=*`; never people of other organisations).',
    );
    expect(text).toContain('*Maximum per swap:* none.');
  });
});
