// Clicks on a quote under the policy fixed on it: distinct approvers up to the tier's quorum, one Reject ends it,
// a policy changed mid-flight never reaches a quote, a group Slack cannot list fails closed, and the rolling daily
// limit at its edges. The store runs the same function inside its atomic change (test/store, test/slack).
import { describe, expect, it } from 'vitest';
import {
  approversYetToAct,
  checkNewQuoteLimit,
  type DecisionClick,
  decideOnQuote,
  hasLapsed,
  isReminderDue,
  limitUse,
  policyOf,
  REMIND_BEFORE_EXPIRY_MS,
  requesterWindow,
} from '../../../src/features/swaps/decision.js';
import { parseSwapPolicy, type SwapPolicy, snapshotPolicy, type UsdValue } from '../../../src/features/swaps/policy.js';
import { SwapQuote } from '../../../src/features/swaps/quote.js';
import { swapQuoteRecord } from '../../support/fixtures.js';

const REQUESTER = 'U0RILEY';
const AVERY = 'U0AVERY';
const BLAKE = 'U0BLAKE';
const JORDAN = 'U0JORDAN';
const LEADS = 'S0LEADS';
const ESTIMATED_AT = new Date('2026-11-24T10:00:00.000Z');
const AT = new Date('2026-11-24T10:05:00.000Z');
const HOUR = 3_600_000;

const POLICY: SwapPolicy = {
  tiers: parseSwapPolicy('0:1,10000:2,250000:3').tiers,
  approvers: [AVERY, BLAKE, LEADS],
  allowSelfApproval: false,
  dailyLimitUsdCents: 1_000_000n, // $10,000
};

function quoteWorth(value: UsdValue, fields: Partial<SwapQuote> = {}, policy: SwapPolicy = POLICY): SwapQuote {
  const quote = SwapQuote.parse(
    swapQuoteRecord('q1', {
      requestedBy: REQUESTER,
      estimatedAt: ESTIMATED_AT.toISOString(),
      expiresAt: new Date(ESTIMATED_AT.getTime() + 30 * 60_000).toISOString(),
      messageTs: '1.1',
      valueUsd: 'cents' in value ? { cents: value.cents.toString() } : value,
      policy: snapshotPolicy(policy, value, ESTIMATED_AT),
      approvals: [],
    }),
  );
  return { ...quote, ...fields };
}

const click = (userId: string, decision: 'approve' | 'reject', at = AT): DecisionClick => ({
  userId,
  decision,
  at,
  isApprover: [AVERY, BLAKE, JORDAN].includes(userId),
});

/** Applies a decision the way the store does, so a test can click several times. */
function clickOn(quote: SwapQuote, c: DecisionClick, sameAsset: SwapQuote[] = []) {
  const decision = decideOnQuote(quote, policyOf(quote, POLICY), c, sameAsset);
  if (!decision.ok) return { decision, quote };
  const { change } = decision;
  return {
    decision,
    quote: {
      ...quote,
      status: change.status,
      approvals: change.approvals,
      ...(change.decided ? { decidedBy: change.decided.by, decidedAt: change.decided.at } : {}),
      ...(change.policy ? { policy: change.policy } : {}),
      history: [...quote.history, change.entry],
    },
  };
}

describe('tiers: how many distinct approvers a quote needs', () => {
  it.each([
    ['$0.01', 1n, 1],
    ['$9,999.99', 999_999n, 1],
    ['exactly $10,000', 1_000_000n, 2],
    ['$249,999.99', 24_999_999n, 2],
    ['exactly $250,000', 25_000_000n, 3],
    ['$5,000,000', 500_000_000n, 3],
  ])('%s needs %i', (_name, cents, needed) => {
    expect(quoteWorth({ cents }).policy?.needed).toBe(needed);
  });

  it('a quote with no price needs the most approvals, and says why (fail closed)', () => {
    const policy = quoteWorth({ unknown: 'no_balance', reason: 'the balance of this asset is zero' }).policy!;
    expect(policy.needed).toBe(3);
    expect(policy.failClosed).toContain('the balance of this asset is zero');
  });
});

describe('a quorum of two', () => {
  const large = () => quoteWorth({ cents: 2_000_000n }, {}, { ...POLICY, dailyLimitUsdCents: undefined });

  it('the first approval is counted and the quote keeps waiting; the second distinct one reaches the quorum', () => {
    const first = clickOn(large(), click(AVERY, 'approve'));
    expect(first.decision).toMatchObject({
      ok: true,
      change: {
        status: 'pending',
        entry: { event: 'approved', by: AVERY, detail: expect.stringMatching(/^approval 1 of 2/) },
      },
      notice: expect.stringContaining('1 of 2'),
    });
    expect(first.quote.decidedBy).toBeUndefined();
    const second = clickOn(first.quote, click(BLAKE, 'approve', new Date(AT.getTime() + 60_000)));
    expect(second.decision).toMatchObject({
      ok: true,
      change: {
        status: 'approving',
        decided: { by: BLAKE },
        entry: { detail: expect.stringContaining('2 of 2; swap/create') },
      },
    });
    expect(second.quote.approvals?.map((a) => a.userId)).toEqual([AVERY, BLAKE]);
  });

  it('the same person twice counts once and is told when they approved', () => {
    const first = clickOn(large(), click(AVERY, 'approve'));
    const again = clickOn(first.quote, click(AVERY, 'approve', new Date(AT.getTime() + 1_000)));
    expect(again.decision).toMatchObject({
      ok: false,
      reason: 'already_approved',
      notice: expect.stringContaining('You already approved this quote at 2026-11-24 10:05 UTC'),
    });
  });

  it('the requester never counts without ALLOW_SELF_APPROVAL, even when named as an approver', () => {
    const quote = quoteWorth({ cents: 2_000_000n }, {}, { ...POLICY, approvers: [REQUESTER, AVERY] });
    const own = decideOnQuote(quote, policyOf(quote, POLICY), { ...click(REQUESTER, 'approve'), isApprover: true }, []);
    expect(own).toMatchObject({ ok: false, reason: 'self_approval' });
  });

  it('with ALLOW_SELF_APPROVAL the requester counts as one of the two', () => {
    const policy = { ...POLICY, approvers: [REQUESTER, AVERY], allowSelfApproval: true };
    const quote = quoteWorth({ cents: 2_000_000n }, {}, policy);
    const own = decideOnQuote(quote, policyOf(quote, policy), { ...click(REQUESTER, 'approve'), isApprover: true }, []);
    expect(own).toMatchObject({ ok: true, change: { status: 'pending' } });
  });

  it("one approver's Reject ends the quote for everyone, whatever approvals it had", () => {
    const first = clickOn(large(), click(AVERY, 'approve'));
    const rejected = clickOn(first.quote, click(BLAKE, 'reject'));
    expect(rejected.decision).toMatchObject({
      ok: true,
      change: { status: 'rejected', entry: { event: 'rejected', by: BLAKE, detail: 'after 1 of 2 approvals' } },
    });
    const late = clickOn(rejected.quote, click(JORDAN, 'approve'));
    expect(late.decision).toMatchObject({
      ok: false,
      reason: 'already_decided',
      notice: expect.stringContaining('rejected by <@U0BLAKE>'),
    });
  });

  it('a click after the quorum names everyone who approved', () => {
    const done = clickOn(clickOn(large(), click(AVERY, 'approve')).quote, click(BLAKE, 'approve')).quote;
    expect(clickOn(done, click(JORDAN, 'approve')).decision).toMatchObject({
      ok: false,
      reason: 'already_decided',
      notice: expect.stringContaining('approved by <@U0AVERY> and <@U0BLAKE>'),
    });
  });

  it('an approval in the last 30 seconds expires the quote instead of counting', () => {
    const expiresAt = ESTIMATED_AT.getTime() + 30 * 60_000;
    const late = clickOn(large(), click(AVERY, 'approve', new Date(expiresAt - 30_000)));
    expect(late.decision).toMatchObject({ ok: true, change: { status: 'expired', approvals: [] } });
  });
});

describe('the policy fixed on the quote decides, never the configuration of now', () => {
  it('a quote made when $20,000 needed two still needs two after the tiers drop to one', () => {
    const quote = quoteWorth({ cents: 2_000_000n });
    const relaxed: SwapPolicy = { ...POLICY, tiers: parseSwapPolicy('0:1').tiers };
    const first = decideOnQuote(quote, policyOf(quote, relaxed), click(AVERY, 'approve'), []);
    expect(first).toMatchObject({ ok: true, change: { status: 'pending' } });
  });

  it('an approver removed from the configuration still counts on a quote that named them', () => {
    const quote = quoteWorth({ cents: 100n });
    const snapshot = policyOf(quote, { ...POLICY, approvers: [BLAKE] });
    expect(snapshot.approvers.userIds).toContain(AVERY);
  });

  it('a quote recorded before policies were needs one approval from the approvers configured now', () => {
    const legacy = SwapQuote.parse(swapQuoteRecord('old', { requestedBy: REQUESTER }));
    const snapshot = policyOf(legacy, { approvers: [AVERY], allowSelfApproval: false });
    expect(snapshot).toMatchObject({ needed: 1, approvers: { userIds: [AVERY], groupIds: [] } });
  });
});

describe('approver groups', () => {
  it('a member of a group Slack could not list is refused, with why (fail closed)', () => {
    const quote = quoteWorth({ cents: 100n });
    const refused = decideOnQuote(
      quote,
      policyOf(quote, POLICY),
      { ...click(JORDAN, 'approve'), isApprover: { unknown: 'Slack could not say who is in <!subteam^S0LEADS>' } },
      [],
    );
    expect(refused).toMatchObject({
      ok: false,
      reason: 'approvers_unknown',
      notice: expect.stringContaining('<!subteam^S0LEADS>'),
    });
    const reject = decideOnQuote(
      quote,
      policyOf(quote, POLICY),
      { ...click(JORDAN, 'reject'), isApprover: { unknown: 'Slack could not say' } },
      [],
    );
    expect(reject).toMatchObject({ ok: false, reason: 'approvers_unknown' });
  });
});

describe('the rolling daily limit ($10,000) at the quorum', () => {
  /**
   * A swap out of the same asset by someone else (the limit is the asset's, whoever asked; the requester's own
   * swaps would also raise the tier: see the 24-hour window below), approved (and so counted) at `decidedAt`.
   */
  const created = (id: string, cents: bigint, decidedAt: Date, status: SwapQuote['status'] = 'created') =>
    quoteWorth(
      { cents },
      { id, status, decidedAt: decidedAt.toISOString(), decidedBy: AVERY, requestedBy: 'U0SOMEONEELSE' },
    );
  const small = () => quoteWorth({ cents: 300_000n }); // $3,000, one approval

  it.each([
    ['$7,000 created 23 h 59 min ago', true, [created('a', 700_000n, new Date(AT.getTime() - 24 * HOUR + 60_000))]],
    ['$7,000.01 created 1 h ago', false, [created('a', 700_001n, new Date(AT.getTime() - HOUR))]],
    [
      '$8,000 created exactly 24 h ago (out of the window)',
      true,
      [created('a', 800_000n, new Date(AT.getTime() - 24 * HOUR))],
    ],
    ['$8,000 created 24 h minus 1 ms ago', false, [created('a', 800_000n, new Date(AT.getTime() - 24 * HOUR + 1))]],
    [
      '$8,000 whose outcome is unknown',
      false,
      [created('a', 800_000n, new Date(AT.getTime() - HOUR), 'outcome_unknown')],
    ],
    [
      '$8,000 refused by the service (no swap)',
      true,
      [created('a', 800_000n, new Date(AT.getTime() - HOUR), 'create_failed')],
    ],
    [
      '$8,000 waiting for approval (waiting quotes hold no room against each other)',
      true,
      [quoteWorth({ cents: 800_000n }, { id: 'w', requestedBy: 'U0SOMEONEELSE' })],
    ],
  ])('%s → fits: %s', (_name, fits, others) => {
    const decision = decideOnQuote(small(), policyOf(small(), POLICY), click(AVERY, 'approve'), others);
    if (fits) expect(decision).toMatchObject({ ok: true, change: { status: 'approving' } });
    else
      expect(decision).toMatchObject({
        ok: false,
        reason: 'daily_limit',
        notice: expect.stringMatching(/daily limit .*USDT on Ethereum.*is left.*quote stays open/s),
      });
  });

  it('a refused approval is not recorded: the quote stays pending with the approvals it had', () => {
    const others = [created('a', 900_000n, new Date(AT.getTime() - HOUR))];
    const { quote } = clickOn(small(), click(AVERY, 'approve'), others);
    expect(quote).toMatchObject({ status: 'pending', approvals: [] });
  });

  it('a partial approval is never refused for the limit: only the one that would create the swap', () => {
    const others = [created('a', 1_000_001n, new Date(AT.getTime() - HOUR))];
    const large = quoteWorth({ cents: 1_000_000n }, {}, { ...POLICY, dailyLimitUsdCents: 2_000_000n });
    const first = clickOn(large, click(AVERY, 'approve'), others);
    expect(first.decision).toMatchObject({ ok: true, change: { status: 'pending' } });
    expect(clickOn(first.quote, click(BLAKE, 'approve'), others).decision).toMatchObject({
      ok: false,
      reason: 'daily_limit',
    });
  });

  it('the limit fixed on the quote applies, not the one configured now', () => {
    const quote = quoteWorth({ cents: 300_000n }, {}, { ...POLICY, dailyLimitUsdCents: undefined });
    const others = [created('a', 900_000n, new Date(AT.getTime() - HOUR))];
    expect(decideOnQuote(quote, policyOf(quote, POLICY), click(AVERY, 'approve'), others)).toMatchObject({ ok: true });
  });
});

describe("the requester's own swaps of the last 24 hours, which the tier is judged on", () => {
  const SOMEONE = 'U0SOMEONEELSE';
  /** A quote of the requester (or `requestedBy`) worth `cents`, in `status`, dated `at` (decided, or estimated when waiting). */
  const own = (
    id: string,
    cents: bigint | undefined,
    status: SwapQuote['status'],
    at: Date,
    requestedBy = REQUESTER,
  ): SwapQuote => {
    const value: UsdValue = cents === undefined ? { unknown: 'zero_usd', reason: 'priced at $0' } : { cents };
    const dates =
      status === 'pending'
        ? {
            estimatedAt: at.toISOString(),
            expiresAt: new Date(at.getTime() + 30 * 60_000).toISOString(),
          }
        : { decidedAt: at.toISOString(), decidedBy: AVERY };
    return quoteWorth(value, { id, status, requestedBy, ...dates });
  };
  const ago = (ms: number) => new Date(AT.getTime() - ms);

  // [what, the quotes, counted, cents]
  it.each([
    ['nothing', [], 0, 0n],
    ['created 1 h ago', [own('a', 600_000n, 'created', ago(HOUR))], 1, 600_000n],
    ['created exactly 24 h ago: out', [own('a', 600_000n, 'created', ago(24 * HOUR))], 0, 0n],
    ['created 24 h minus 1 ms ago: in', [own('a', 600_000n, 'created', ago(24 * HOUR - 1))], 1, 600_000n],
    ['dated 1 min after now (a clock slightly ahead): in', [own('a', 600_000n, 'created', ago(-60_000))], 1, 600_000n],
    ['on its way (approving)', [own('a', 600_000n, 'approving', ago(HOUR))], 1, 600_000n],
    ['outcome unknown', [own('a', 600_000n, 'outcome_unknown', ago(HOUR))], 1, 600_000n],
    ['waiting for approval', [own('a', 600_000n, 'pending', ago(10 * 60_000))], 1, 600_000n],
    ['waiting but expired at now: out', [own('a', 600_000n, 'pending', ago(30 * 60_000))], 0, 0n],
    ['rejected: out', [own('a', 600_000n, 'rejected', ago(HOUR))], 0, 0n],
    ['expired: out', [own('a', 600_000n, 'expired', ago(HOUR))], 0, 0n],
    ['refused by the service (no swap): out', [own('a', 600_000n, 'create_failed', ago(HOUR))], 0, 0n],
    ["another requester's: out", [own('a', 600_000n, 'created', ago(HOUR), SOMEONE)], 0, 0n],
    [
      'several, across assets and states',
      [
        own('a', 600_000n, 'created', ago(HOUR)),
        own('b', 250_000n, 'outcome_unknown', ago(2 * HOUR)),
        own('c', 100_000n, 'pending', ago(60_000)),
        own('d', 900_000n, 'rejected', ago(HOUR)),
        own('e', 900_000n, 'created', ago(HOUR), SOMEONE),
      ],
      3,
      950_000n,
    ],
  ] as const)('%s', (_what, quotes, count, cents) => {
    expect(requesterWindow(quotes, REQUESTER, AT, { waiting: true })).toEqual({ count, cents });
  });

  it('at approval, waiting quotes are not counted (as for the daily limit) and the quote itself never is', () => {
    const quotes = [own('q1', 600_000n, 'pending', ago(60_000)), own('w', 600_000n, 'pending', ago(60_000))];
    expect(requesterWindow(quotes, REQUESTER, AT, { waiting: false, excludeId: 'q1' })).toEqual({
      count: 0,
      cents: 0n,
    });
    expect(requesterWindow(quotes, REQUESTER, AT, { waiting: true, excludeId: 'q1' })).toEqual({
      count: 1,
      cents: 600_000n,
    });
  });

  it('an unknown value among them makes the window unknown, saying which swap (fail closed)', () => {
    const window = requesterWindow(
      [own('a', 600_000n, 'created', ago(HOUR)), own('b', undefined, 'created', ago(2 * HOUR))],
      REQUESTER,
      AT,
      { waiting: true },
    );
    expect(window).toEqual({
      count: 2,
      unknown: 'the USD value of your swap of 2026-11-24 10:00 UTC is unknown (priced at $0)',
    });
    // An unknown swap outside the window, or someone else's, changes nothing.
    expect(
      requesterWindow(
        [own('b', undefined, 'created', ago(25 * HOUR)), own('c', undefined, 'created', ago(HOUR), SOMEONE)],
        REQUESTER,
        AT,
        {
          waiting: true,
        },
      ),
    ).toEqual({ count: 0, cents: 0n });
  });

  it('the approval that would reach the quorum raises it when swaps of the requester were created since the quote was made', () => {
    // $6,000 needed one approval when quoted; a $6,000 swap of the same requester was created since (the two were
    // asked for at once and could not see each other): $12,000 needs two.
    const quote = quoteWorth({ cents: 600_000n }, {}, { ...POLICY, dailyLimitUsdCents: undefined });
    expect(quote.policy?.needed).toBe(1);
    const others = [own('a', 600_000n, 'created', ago(60_000))];
    const first = clickOn(quote, click(AVERY, 'approve'), others);
    expect(first.decision).toMatchObject({
      ok: true,
      change: {
        status: 'pending',
        policy: {
          needed: 2,
          tier: { minCents: '1000000', approvals: 2 },
          window: { count: 1, priorCents: '600000', totalCents: '1200000' },
        },
      },
      notice: expect.stringContaining(
        "Your approval is recorded (1 of 2), but the swap is not created yet: since this quote was made, other swaps of its requester were approved, and with the requester's $6,000 swap today this makes $12,000: 2 approvals.",
      ),
    });
    const second = clickOn(first.quote, click(BLAKE, 'approve'), others);
    expect(second.decision).toMatchObject({ ok: true, change: { status: 'approving' } });
  });

  it('swaps of other requesters, or rejected ones, never raise it', () => {
    const quote = quoteWorth({ cents: 600_000n }, {}, { ...POLICY, dailyLimitUsdCents: undefined });
    const others = [own('a', 600_000n, 'created', ago(60_000), SOMEONE), own('b', 600_000n, 'rejected', ago(60_000))];
    expect(clickOn(quote, click(AVERY, 'approve'), others).decision).toMatchObject({
      ok: true,
      change: { status: 'approving' },
    });
  });
});

describe('the daily limit when a quote is asked for', () => {
  const asset = { assetKey: 'a', assetLabel: 'USDT on Ethereum', requester: REQUESTER };
  it("counts swaps created and the requester's own quotes still waiting, and says what is left today", () => {
    const quotes = [
      quoteWorth(
        { cents: 400_000n },
        { id: 'c', status: 'created', decidedAt: new Date(AT.getTime() - HOUR).toISOString() },
      ),
      quoteWorth({ cents: 300_000n }, { id: 'w' }),
    ];
    expect(limitUse(quotes, 'a', AT)).toEqual({ createdCents: 400_000n, waitingCents: 300_000n });
    expect(
      checkNewQuoteLimit({ ...asset, limitCents: 1_000_000n, value: { cents: 300_000n }, quotes, now: AT }),
    ).toEqual({ ok: true });
    const refused = checkNewQuoteLimit({
      ...asset,
      limitCents: 1_000_000n,
      value: { cents: 300_001n },
      quotes,
      now: AT,
    });
    expect(refused).toEqual({
      ok: false,
      reason:
        'swaps out of USDT on Ethereum are limited to $10,000 in any 24 hours; $7,000 is used ($3,000 of it in your own quotes waiting for approval), so $3,000 is left today and this swap is worth about $3,000.01',
    });
  });

  it("other people's waiting quotes never refuse a quote: they only warn when, approved first, they could take its room", () => {
    const quotes = [
      quoteWorth(
        { cents: 400_000n },
        { id: 'c', status: 'created', decidedAt: new Date(AT.getTime() - HOUR).toISOString(), requestedBy: 'U0OTHER' },
      ),
      quoteWorth({ cents: 600_000n }, { id: 'w', requestedBy: 'U0OTHER' }),
    ];
    // Created swaps count whoever asked for them: $4,000 + $6,000.01 passes $10,000.
    expect(
      checkNewQuoteLimit({ ...asset, limitCents: 1_000_000n, value: { cents: 600_001n }, quotes, now: AT }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('$4,000 is used, so $6,000 is left today') });
    // The other person's $6,000 waiting: this $6,000 fits, with the warning (both together would pass it).
    expect(
      checkNewQuoteLimit({ ...asset, limitCents: 1_000_000n, value: { cents: 600_000n }, quotes, now: AT }),
    ).toEqual({ ok: true, othersWaitingCents: 600_000n });
    // Room for both: no warning.
    expect(
      checkNewQuoteLimit({ ...asset, limitCents: 1_600_000n, value: { cents: 600_000n }, quotes, now: AT }),
    ).toEqual({ ok: true });
    // The other person's own new quote counts their waiting one.
    expect(
      checkNewQuoteLimit({
        ...asset,
        requester: 'U0OTHER',
        limitCents: 1_000_000n,
        value: { cents: 1n },
        quotes,
        now: AT,
      }),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('($6,000 of it in your own quotes waiting for approval)'),
    });
  });

  it('an expired waiting quote no longer holds room', () => {
    const waiting = quoteWorth({ cents: 900_000n }, { id: 'w' });
    const afterExpiry = new Date(new Date(waiting.expiresAt).getTime());
    expect(limitUse([waiting], 'a', afterExpiry)).toEqual({ createdCents: 0n, waitingCents: 0n });
  });

  it('a quote whose value is unknown is refused while a limit is set (fail closed)', () => {
    expect(
      checkNewQuoteLimit({
        ...asset,
        limitCents: 1_000_000n,
        value: { unknown: 'no_usd', reason: 'the asset list gives no USD value' },
        quotes: [],
        now: AT,
      }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('cannot be counted') });
    expect(
      checkNewQuoteLimit({
        ...asset,
        limitCents: undefined,
        value: { unknown: 'no_usd', reason: 'x' },
        quotes: [],
        now: AT,
      }),
    ).toEqual({
      ok: true,
    });
  });
});

describe('the reminder ten minutes before expiry, and expiry', () => {
  const expiresAt = ESTIMATED_AT.getTime() + 30 * 60_000;
  it.each([
    ['1 ms before the last ten minutes', expiresAt - REMIND_BEFORE_EXPIRY_MS - 1, false, false],
    ['at the start of the last ten minutes', expiresAt - REMIND_BEFORE_EXPIRY_MS, true, false],
    ['1 ms before expiry', expiresAt - 1, true, false],
    ['at expiry', expiresAt, false, true],
  ])('%s: reminder %s, lapsed %s', (_name, at, due, lapsed) => {
    const quote = quoteWorth({ cents: 100n });
    expect(isReminderDue(quote, new Date(at))).toBe(due);
    expect(hasLapsed(quote, new Date(at))).toBe(lapsed);
  });

  it('once only, and only for a waiting quote with a message', () => {
    const at = new Date(expiresAt - 60_000);
    expect(isReminderDue(quoteWorth({ cents: 100n }, { remindedAt: AT.toISOString() }), at)).toBe(false);
    expect(isReminderDue(quoteWorth({ cents: 100n }, { status: 'rejected' }), at)).toBe(false);
    expect(isReminderDue(quoteWorth({ cents: 100n }, { messageTs: undefined }), at)).toBe(false);
  });

  it('names the approvers who have not acted: not those who have, not the requester, group members by name', () => {
    const quote = quoteWorth(
      { cents: 2_000_000n },
      { approvals: [{ userId: AVERY, at: AT.toISOString() }] },
      {
        ...POLICY,
        approvers: [REQUESTER, AVERY, BLAKE, LEADS, 'S0BROKEN'],
      },
    );
    const groups = new Map<string, readonly string[] | { error: string }>([
      [LEADS, [JORDAN, AVERY, REQUESTER]],
      ['S0BROKEN', { error: 'Slack did not answer' }],
    ]);
    expect(approversYetToAct(quote, quote.policy!, groups)).toEqual({
      userIds: [BLAKE, JORDAN],
      groupIds: ['S0BROKEN'],
    });
  });
});
