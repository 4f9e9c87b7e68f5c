// The payout request's rules as plain functions: the name, the claim before create-payout, a stuck send, and the
// confirm dialog's text within Slack's 300 characters.
import { describe, expect, it } from 'vitest';
import { buildPayoutOutcome, buildPayoutProposal, payoutConfirmText } from '../../../src/features/payouts/blocks.js';
import {
  applyPayoutOutcome,
  checkPayoutName,
  claimPayoutSend,
  effectivePayoutStatus,
  isSendingStuck,
  newPayoutRequest,
  PAYOUT_PROPOSAL_VALIDITY_MS,
  PAYOUT_REQUEST_STATUSES,
  PAYOUT_SENDING_STUCK_MS,
  type PayoutRequest,
} from '../../../src/features/payouts/rules.js';
import { validateBlocks } from '../../support/rig/block-kit-validation.js';

const T0 = new Date('2026-11-24T09:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const proposal = (name = 'November affiliates', networkTitle = 'BNB Smart Chain'): PayoutRequest =>
  newPayoutRequest({
    id: '3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f',
    requestedBy: 'U0RILEY',
    requestedAt: T0,
    channelId: 'C0TREASURY',
    asset: { assetId: 'a', symbol: 'USDT', networkSymbol: 'BSC', networkTitle, decimals: 18 },
    name,
  });

describe('checkPayoutName', () => {
  it.each([
    ['  November affiliates  ', { ok: true, name: 'November affiliates' }],
    ['', { ok: false, problem: 'The payout needs a name, e.g. "November affiliates".' }],
    [' \t ', { ok: false, problem: 'The payout needs a name, e.g. "November affiliates".' }],
    ['x'.repeat(255), { ok: true, name: 'x'.repeat(255) }],
    ['x'.repeat(256), { ok: false, problem: 'The name is 256 characters long; give at most 255.' }],
    // An emoji is two UTF-16 units, as the service counts: 128 of them are 256.
    ['🎉'.repeat(128), { ok: false, problem: 'The name is 256 characters long; give at most 255.' }],
  ])('%j', (typed, expected) => {
    expect(checkPayoutName(typed)).toEqual(expected);
  });
});

describe('the claim and the outcome', () => {
  it('a proposal within its validity is claimed once; a lapsed one expires; others are left alone', () => {
    const fresh = proposal();
    expect(claimPayoutSend(fresh, 'U0RILEY', at(15), PAYOUT_PROPOSAL_VALIDITY_MS)).toBe(true);
    expect(fresh).toMatchObject({ status: 'sending', confirmedBy: 'U0RILEY', confirmedAt: at(15).toISOString() });
    expect(claimPayoutSend(fresh, 'U0RILEY', at(15), PAYOUT_PROPOSAL_VALIDITY_MS)).toBe(false);
    const late = proposal();
    expect(claimPayoutSend(late, 'U0RILEY', at(15.01), PAYOUT_PROPOSAL_VALIDITY_MS)).toBe(false);
    expect(late.status).toBe('expired');
    expect(late.history.map((e) => e.event)).toEqual(['requested', 'expired']);
  });

  it('only a sending request takes an outcome', () => {
    const request = proposal();
    expect(applyPayoutOutcome(request, { status: 'refused', failure: 'no' }, at(1))).toBe(false);
    claimPayoutSend(request, 'U0RILEY', at(1), PAYOUT_PROPOSAL_VALIDITY_MS);
    expect(applyPayoutOutcome(request, { status: 'created', shown: [] }, at(1))).toBe(true);
    expect(request.history.at(-1)).toEqual({
      at: at(1).toISOString(),
      event: 'created',
      detail: 'no id in the answer',
    });
    expect(applyPayoutOutcome(request, { status: 'refused', failure: 'no' }, at(2))).toBe(false);
  });

  it('a send is stuck only when it was confirmed more than two minutes ago', () => {
    const request = proposal();
    claimPayoutSend(request, 'U0RILEY', at(1), PAYOUT_PROPOSAL_VALIDITY_MS);
    expect(isSendingStuck(request, at(3))).toBe(false);
    expect(isSendingStuck(request, at(3.01))).toBe(true);
    expect(isSendingStuck({ status: 'sending' }, at(0))).toBe(true);
    expect(isSendingStuck({ status: 'created', confirmedAt: at(0).toISOString() }, at(9))).toBe(false);
  });
});

describe('the views', () => {
  it('the dialog text stays within 300 characters whatever the name and network, the name clipped, never the asset', () => {
    for (const name of ['N', 'x'.repeat(255), '🎉'.repeat(127), 'a&b <c>'.repeat(30)]) {
      for (const network of ['BNB Smart Chain', 'N'.repeat(150)]) {
        const text = payoutConfirmText(proposal(name, network));
        expect(text.length).toBeLessThanOrEqual(300);
        expect(text).toContain(network.length < 100 ? 'USDT@BSC' : 'Create an empty payout container');
        expect(text).not.toMatch(/[\uD800-\uDBFF]…/);
      }
    }
    expect(payoutConfirmText(proposal('a&b <c>'))).toContain('“a&b <c>”');
  });

  it('every state of a request draws valid Block Kit', () => {
    for (const status of PAYOUT_REQUEST_STATUSES) {
      const request: PayoutRequest = {
        ...proposal('x'.repeat(255)),
        status,
        confirmedBy: 'U0RILEY',
        confirmedAt: at(1).toISOString(),
        payoutId: status === 'created' ? '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' : undefined,
        shown: [['Name', 'y'.repeat(200)]],
        failure: 'The payment service refused it: <!here>.',
      };
      for (const message of [buildPayoutOutcome(request), buildPayoutProposal(request)])
        expect(validateBlocks(message.blocks), status).toEqual([]);
      expect(JSON.stringify(buildPayoutOutcome(request))).not.toContain('<!here>');
    }
  });
});

describe('a payout request read later (the audit export)', () => {
  const requested = new Date('2026-11-24T09:00:00.000Z');
  const request = () =>
    newPayoutRequest({
      id: 'req-1',
      requestedBy: 'U0RILEY',
      requestedAt: requested,
      channelId: 'C0TREASURY',
      asset: { assetId: 'a1', symbol: 'USDT', networkSymbol: 'BSC', networkTitle: 'BNB Smart Chain', decimals: 18 },
      name: 'November affiliates',
    });
  const later = (ms: number) => new Date(requested.getTime() + ms);

  it('a proposal nobody confirmed reads as expired once its 15 minutes are over, before anyone records it so', () => {
    expect(effectivePayoutStatus(request(), later(PAYOUT_PROPOSAL_VALIDITY_MS))).toBe('proposed');
    expect(effectivePayoutStatus(request(), later(PAYOUT_PROPOSAL_VALIDITY_MS + 1))).toBe('expired (never confirmed)');
  });

  it('a send with no answer recorded reads as unknown after its 2 minutes; a recorded outcome as it is', () => {
    const sending = request();
    expect(claimPayoutSend(sending, 'U0RILEY', later(60_000), PAYOUT_PROPOSAL_VALIDITY_MS)).toBe(true);
    expect(effectivePayoutStatus(sending, later(60_000 + PAYOUT_SENDING_STUCK_MS))).toBe('sending');
    expect(effectivePayoutStatus(sending, later(60_000 + PAYOUT_SENDING_STUCK_MS + 1))).toBe(
      'outcome_unknown (no answer recorded)',
    );
    applyPayoutOutcome(sending, { status: 'created', payoutId: 'p1', shown: [] }, later(70_000));
    expect(effectivePayoutStatus(sending, later(10 * 60 * 60_000))).toBe('created');
  });
});
