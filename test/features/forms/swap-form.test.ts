/**
 * The swap form's preview, pure: what it says for a quote whose USD value is unknown (the strictest tier, fail
 * closed, as the typed path fixes it), for one the policy refuses, and that its view passes Slack's modal rules both
 * with the command's channel and without one (the Home tab's: a channel menu).
 */
import { describe, expect, it } from 'vitest';
import { buildSwapForm, readSwapDraft, swapPreview } from '../../../src/features/forms/swap-form.js';
import { snapshotPolicy } from '../../../src/features/swaps/policy.js';
import type { Asset } from '../../../src/payments/index.js';
import { validateModalView } from '../../support/rig/block-kit-validation.js';

const asset = (symbol: string, balance: string, balanceInUsd: string | null, id = `${symbol}-ETH`): Asset =>
  ({
    id,
    balance,
    balanceInUsd,
    crypto: { id: `c-${symbol}`, title: symbol, symbol, contractAddress: null, decimals: 6, logoURI: null },
    network: { id: 'n-ETH', title: 'Ethereum', symbol: 'ETH' },
  }) as unknown as Asset;

const USDT = asset('USDT', '5000000000', null);
const USDC = asset('USDC', '9000000000', '9000.00');
const POLICY = {
  tiers: [
    { minCents: 0n, approvals: 1 },
    { minCents: 1_000_000n, approvals: 2 },
    { minCents: 10_000_000n, approvals: 3 },
  ],
  approvers: ['U0AVERY'],
  allowSelfApproval: false,
};
const values = (amount: string) => ({
  form_swap_from: { form_swap_from: { selected_option: { value: USDT.id } } },
  form_swap_to: { form_swap_to: { selected_option: { value: USDC.id } } },
  form_swap_amount: { form_swap_amount: { value: amount } },
});
const NOW = new Date('2026-11-28T12:00:00Z');

describe('the swap form’s preview', () => {
  it('an unknown USD value takes the strictest tier and asks for a code, saying why', () => {
    const draft = readSwapDraft({ values: values('10'), origin: { channelId: 'C0OPS' } }, [USDT, USDC]);
    const unknown = { unknown: 'no_usd' as const, reason: 'the asset list gives no USD value for this asset' };
    const preview = swapPreview(
      draft,
      { valueUsd: unknown, policy: snapshotPolicy(POLICY, unknown, NOW), secondFactor: true },
      { answerHere: true, stepUpCents: 500_000n },
    );
    const text = 'lines' in preview ? preview.lines.join('\n') : '';
    expect(text).toContain('USD value unknown: the asset list gives no USD value for this asset');
    expect(text).toContain('Needs *3 distinct approvals* (tier 3 of 3, from $100,000, the strictest)');
    expect(text).toContain('Approving it needs a code from an authenticator app');
    expect(text).toContain('Balance left of USDT on Ethereum (ETH): 4,990 USDT');
  });

  it('a refusal by the policy is shown in its words, and more than the balance is warned of', () => {
    const draft = readSwapDraft({ values: values('6,000'), origin: {} }, [USDT, USDC]);
    const preview = swapPreview(
      draft,
      { refused: 'No quote was made: this swap is worth about $6,000, above the $5,000 allowed', frozen: false },
      { answerHere: false },
    );
    const text = 'lines' in preview ? preview.lines.join('\n') : '';
    expect(text).toContain(':no_entry: No quote was made: this swap is worth about $6,000');
    expect(text).toContain('That is more than the balance of 5,000 USDT');
    expect(text).toContain('The quote is posted in the channel you choose');
    expect(text).toContain('You get a note in your direct message with the bot');
  });

  it('passes Slack’s modal rules with the command’s channel and with the Home tab’s channel menu', async () => {
    const deps = { swaps: { previewQuote: async () => ({ refused: 'frozen', frozen: true }), stepUpCents: undefined } };
    for (const origin of [{ channelId: 'C0OPS', responseUrl: 'https://hooks.example.test/1' }, {}]) {
      const view = await buildSwapForm(
        { values: values('10'), origin, assets: [USDT, USDC] },
        deps as never,
        'U0RILEY',
      );
      expect(validateModalView(view)).toEqual([]);
      expect(JSON.stringify(view).includes('conversations_select')).toBe(!('channelId' in origin));
    }
  });
});
