import { describe, expect, it } from 'vitest';
import {
  alreadyDecidedNotice,
  type CreateError,
  checkClick,
  describeCreateFailure,
  EXPIRY_SAFETY_MS,
  mayRequote,
} from '../../../src/features/swaps/approval.js';
import { type ApprovalPolicy, type Decision, decideOnQuote, policyOf } from '../../../src/features/swaps/decision.js';
import {
  canMove,
  newSwapQuote,
  QUOTE_STATUSES,
  type QuoteStatus,
  type SwapQuote,
} from '../../../src/features/swaps/quote.js';

const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const OUTSIDER = 'U0OUTSIDER';
const ESTIMATED_AT = new Date('2025-03-01T10:00:00.000Z');
const DECIDED_AT = '2025-03-01T10:05:00.000Z';
const SOON = new Date('2025-03-01T10:10:00.000Z');

const asset = (symbol: string) => ({
  assetId: `${symbol}-id`,
  symbol,
  networkSymbol: 'ETH',
  networkTitle: 'Ethereum',
  decimals: 6,
});

function quote(status: QuoteStatus, fields: Partial<SwapQuote> = {}): SwapQuote {
  const fresh = newSwapQuote({
    id: '6f1c2a34-8b7d-4e21-9c3f-0a1b2c3d4e5f',
    estimateId: 'est-1',
    estimatedAt: ESTIMATED_AT,
    requestedBy: REQUESTER,
    channelId: 'C1',
    from: asset('USDT'),
    to: asset('USDC'),
    amountFrom: 1_000_000_000n,
    estimatedAmount: '999000000',
    routeType: 'exchange',
    serviceId: 'svc',
  });
  const decided =
    status === 'pending' ? {} : { decidedBy: status === 'rejected' ? REQUESTER : APPROVER, decidedAt: DECIDED_AT };
  return { ...fresh, status, ...decided, ...fields };
}

const policy: ApprovalPolicy = { approvers: [APPROVER, 'U0APPROVER2'], allowSelfApproval: false };

/**
 * A click on a quote recorded before approval policies were (no snapshot on it): the rule it was made under, one
 * approval from the approvers configured now, as decideOnQuote applies it. Tiers and quorums:
 * test/features/swaps/decision.test.ts.
 */
function judgeDecision(current: ApprovalPolicy, stored: SwapQuote, userId: string, decision: Decision, at: Date) {
  const judged = decideOnQuote(
    stored,
    policyOf(stored, current),
    { userId, decision, at, isApprover: current.approvers.includes(userId) },
    [],
  );
  return judged.ok
    ? { allowed: true, outcome: judged.change.status, ...(judged.notice ? { notice: judged.notice } : {}) }
    : { allowed: false, reason: judged.reason, notice: judged.notice };
}
const APPROVED_BY =
  'Already decided: approved by <@U0APPROVER> at 2025-03-01 10:05 UTC. Nothing was done; the swap is created at most once.';
const REJECTED_BY = 'Already decided: rejected by <@U0REQUESTER> at 2025-03-01 10:05 UTC. Nothing was done.';
const EXPIRED = 'This quote has expired; no swap was made. Use "New quote" for a fresh one.';
const NOT_APPROVER =
  'Only the swap approvers (<@U0APPROVER>, <@U0APPROVER2>) can approve this quote. Nothing was done.';
const NOT_REJECTER = 'Only the requester or a swap approver can reject this quote. Nothing was done.';
const OWN_SWAP = 'You requested this swap, so someone else must approve it (separation of duties). Nothing was done.';

type Expected = { outcome: 'approving' | 'rejected' | 'expired' } | { reason: string; notice: string };

describe('who may approve or reject, and what a click on a decided quote means', () => {
  // [clicker, decision, quote status, expected]
  const table: [string, Decision, QuoteStatus, Expected][] = [
    // pending
    [REQUESTER, 'approve', 'pending', { reason: 'not_an_approver', notice: NOT_APPROVER }],
    [REQUESTER, 'reject', 'pending', { outcome: 'rejected' }],
    [APPROVER, 'approve', 'pending', { outcome: 'approving' }],
    [APPROVER, 'reject', 'pending', { outcome: 'rejected' }],
    [OUTSIDER, 'approve', 'pending', { reason: 'not_an_approver', notice: NOT_APPROVER }],
    [OUTSIDER, 'reject', 'pending', { reason: 'not_requester_or_approver', notice: NOT_REJECTER }],
    // approved: the create is on its way, or done
    ...(['approving', 'created', 'create_failed'] as const).flatMap(
      (status): [string, Decision, QuoteStatus, Expected][] => [
        [REQUESTER, 'approve', status, { reason: 'not_an_approver', notice: NOT_APPROVER }],
        [REQUESTER, 'reject', status, { reason: 'already_decided', notice: APPROVED_BY }],
        [APPROVER, 'approve', status, { reason: 'already_decided', notice: APPROVED_BY }],
        [APPROVER, 'reject', status, { reason: 'already_decided', notice: APPROVED_BY }],
        [OUTSIDER, 'approve', status, { reason: 'not_an_approver', notice: NOT_APPROVER }],
        [OUTSIDER, 'reject', status, { reason: 'not_requester_or_approver', notice: NOT_REJECTER }],
      ],
    ),
    // rejected
    [REQUESTER, 'reject', 'rejected', { reason: 'already_decided', notice: REJECTED_BY }],
    [APPROVER, 'approve', 'rejected', { reason: 'already_decided', notice: REJECTED_BY }],
    [APPROVER, 'reject', 'rejected', { reason: 'already_decided', notice: REJECTED_BY }],
    [OUTSIDER, 'reject', 'rejected', { reason: 'not_requester_or_approver', notice: NOT_REJECTER }],
    // expired
    [REQUESTER, 'reject', 'expired', { reason: 'already_decided', notice: EXPIRED }],
    [APPROVER, 'approve', 'expired', { reason: 'already_decided', notice: EXPIRED }],
    [OUTSIDER, 'approve', 'expired', { reason: 'not_an_approver', notice: NOT_APPROVER }],
    // outcome unknown: the create may have gone out, so it counts as approved
    [REQUESTER, 'reject', 'outcome_unknown', { reason: 'already_decided', notice: APPROVED_BY }],
    [APPROVER, 'approve', 'outcome_unknown', { reason: 'already_decided', notice: APPROVED_BY }],
    [OUTSIDER, 'reject', 'outcome_unknown', { reason: 'not_requester_or_approver', notice: NOT_REJECTER }],
  ];

  it.each(table)('%s clicks %s on a %s quote', (user, decision, status, expected) => {
    const verdict = judgeDecision(policy, quote(status), user, decision, SOON);
    if ('outcome' in expected) expect(verdict).toEqual({ allowed: true, outcome: expected.outcome });
    else expect(verdict).toEqual({ allowed: false, ...expected });
  });

  describe('a requester who is also an approver', () => {
    const both: ApprovalPolicy = { approvers: [REQUESTER, APPROVER], allowSelfApproval: false };
    it('may not approve their own swap without ALLOW_SELF_APPROVAL (separation of duties)', () => {
      expect(judgeDecision(both, quote('pending'), REQUESTER, 'approve', SOON)).toEqual({
        allowed: false,
        reason: 'self_approval',
        notice: OWN_SWAP,
      });
    });
    it('may approve it with ALLOW_SELF_APPROVAL=true', () => {
      expect(judgeDecision({ ...both, allowSelfApproval: true }, quote('pending'), REQUESTER, 'approve', SOON)).toEqual(
        { allowed: true, outcome: 'approving' },
      );
    });
    it('may always reject it', () => {
      expect(judgeDecision(both, quote('pending'), REQUESTER, 'reject', SOON)).toEqual({
        allowed: true,
        outcome: 'rejected',
      });
    });
  });

  it('with no approvers configured nobody can approve, and the requester can still reject', () => {
    const none: ApprovalPolicy = { approvers: [], allowSelfApproval: true };
    for (const user of [REQUESTER, APPROVER, OUTSIDER]) {
      expect(judgeDecision(none, quote('pending'), user, 'approve', SOON)).toMatchObject({
        allowed: false,
        reason: 'not_an_approver',
        notice: expect.stringContaining('nobody can approve swaps'),
      });
    }
    expect(judgeDecision(none, quote('pending'), REQUESTER, 'reject', SOON)).toEqual({
      allowed: true,
      outcome: 'rejected',
    });
  });

  it('a decided quote with no decider on record names "someone"', () => {
    expect(alreadyDecidedNotice({ status: 'approving' })).toBe(
      'Already decided: approved by someone. Nothing was done; the swap is created at most once.',
    );
  });
});

describe('expiry: 30 minutes from the estimate, approvals refused in the last 30 seconds', () => {
  const expiresAt = ESTIMATED_AT.getTime() + 30 * 60_000;
  it('the quote expires 30 minutes after the estimate was asked for', () => {
    expect(quote('pending').expiresAt).toBe(new Date(expiresAt).toISOString());
  });
  it.each([
    ['just after the estimate', ESTIMATED_AT.getTime(), 'approving'],
    ['1 ms before the last 30 s', expiresAt - EXPIRY_SAFETY_MS - 1, 'approving'],
    ['at the start of the last 30 s', expiresAt - EXPIRY_SAFETY_MS, 'expired'],
    ['in the last second', expiresAt - 1_000, 'expired'],
    ['at expiry', expiresAt, 'expired'],
    ['an hour later', expiresAt + 3_600_000, 'expired'],
  ])('approve %s → %s', (_name, at, outcome) => {
    const verdict = judgeDecision(policy, quote('pending'), APPROVER, 'approve', new Date(at));
    expect(verdict).toMatchObject({ allowed: true, outcome });
    if (outcome === 'expired')
      expect(verdict).toMatchObject({ notice: expect.stringContaining('expired before it was approved') });
  });
  it('a rejection is never too late', () => {
    expect(judgeDecision(policy, quote('pending'), APPROVER, 'reject', new Date(expiresAt + 1))).toEqual({
      allowed: true,
      outcome: 'rejected',
    });
  });
  it('each outcome writes its own audit entry', () => {
    const at = new Date(DECIDED_AT);
    const entryOf = (userId: string, decision: Decision, when: Date) => {
      const judged = decideOnQuote(
        quote('pending'),
        policyOf(quote('pending'), policy),
        { userId, decision, at: when, isApprover: policy.approvers.includes(userId) },
        [],
      );
      return judged.ok ? judged.change.entry : undefined;
    };
    expect(entryOf(APPROVER, 'approve', at)).toEqual({
      at: DECIDED_AT,
      event: 'approved',
      by: APPROVER,
      detail: 'approval 1 of 1; swap/create of estimate est-1 about to be sent',
    });
    const late = new Date(expiresAt + 1);
    expect(entryOf(APPROVER, 'approve', late)).toEqual({
      at: late.toISOString(),
      event: 'approve_after_expiry',
      by: APPROVER,
      detail: 'no create call made',
    });
    expect(entryOf(REQUESTER, 'reject', at)).toEqual({ at: DECIDED_AT, event: 'rejected', by: REQUESTER });
  });
});

describe('which clicks may act on a quote', () => {
  const id = '6f1c2a34-8b7d-4e21-9c3f-0a1b2c3d4e5f';
  const record = { channelId: 'C1', messageTs: '1.1' };
  it.each([
    ['its own message', id, record, { channelId: 'C1', messageTs: '1.1' }, undefined],
    ['a value that is not a quote id', '__proto__', record, { channelId: 'C1', messageTs: '1.1' }, 'not_a_quote'],
    ['a quote the bot has no record of', id, undefined, { channelId: 'C1', messageTs: '1.1' }, 'unknown_quote'],
    ['another message', id, record, { channelId: 'C1', messageTs: '1.2' }, 'wrong_message'],
    ['a click without a message', id, record, {}, 'wrong_message'],
    [
      'a quote whose message was never recorded',
      id,
      { channelId: 'C1' },
      { channelId: 'C1', messageTs: '1.1' },
      'no_recorded_message',
    ],
  ])('%s', (_name, value, stored, origin, reason) => {
    const checked = checkClick(value, stored, origin);
    if (reason === undefined) expect(checked).toEqual({ allowed: true, quote: stored });
    else expect(checked).toMatchObject({ allowed: false, reason, notice: expect.stringMatching(/nothing was done/i) });
  });

  it('"New quote" is for the requester or an approver', () => {
    expect(mayRequote(quote('expired'), REQUESTER, false)).toEqual({ allowed: true });
    expect(mayRequote(quote('expired'), APPROVER, true)).toEqual({ allowed: true });
    expect(mayRequote(quote('expired'), OUTSIDER, { unknown: 'Slack could not say' })).toMatchObject({
      allowed: false,
      reason: 'not_requester_or_approver',
    });
    expect(mayRequote(quote('expired'), OUTSIDER, false)).toMatchObject({
      allowed: false,
      reason: 'not_requester_or_approver',
    });
  });
});

describe('what a failed swap/create means', () => {
  it.each<[string, CreateError, 'create_failed' | 'outcome_unknown', string]>([
    [
      'Estimate not found (400)',
      { kind: 'refused', apiMessage: 'Estimate not found' },
      'create_failed',
      'Estimate not found — the service no longer holds this quote (expired or already used).',
    ],
    [
      'Balance not enough (400)',
      { kind: 'refused', apiMessage: 'Balance not enough' },
      'create_failed',
      'Balance not enough — the available USDT balance is below the swap amount.',
    ],
    ['another 400', { kind: 'refused', apiMessage: 'Amount too small' }, 'create_failed', 'Amount too small'],
    ['401', { kind: 'api', code: 'unauthorized' }, 'create_failed', 'the API key was rejected'],
    ['403', { kind: 'api', code: 'forbidden' }, 'create_failed', 'the API key lacks the permission to create swaps'],
    ['a timeout', { kind: 'api', code: 'network' }, 'outcome_unknown', 'no answer in time'],
    ['a 5xx', { kind: 'api', code: 'server' }, 'outcome_unknown', 'it reported a problem on its side'],
    ['a 429', { kind: 'api', code: 'rate_limited' }, 'outcome_unknown', 'it was rate-limiting us'],
    [
      'an unreadable answer',
      { kind: 'api', code: 'unexpected_response' },
      'outcome_unknown',
      'its answer could not be read',
    ],
    ['a bug in the bot', { kind: 'unexpected' }, 'outcome_unknown', 'the bot hit an unexpected error'],
  ])('%s → %s', (_name, error, status, text) => {
    expect(describeCreateFailure(error, 'USDT')).toEqual({ status, text });
  });
});

describe('the quote lifecycle', () => {
  it.each([
    ['pending', ['approving', 'rejected', 'expired']],
    ['approving', ['created', 'create_failed', 'outcome_unknown']],
    ['created', []],
    ['create_failed', []],
    ['outcome_unknown', []],
    ['rejected', []],
    ['expired', []],
  ] as [QuoteStatus, QuoteStatus[]][])('%s may become %j', (from, allowed) => {
    expect(QUOTE_STATUSES.filter((to) => canMove(from, to))).toEqual(allowed);
  });
});
