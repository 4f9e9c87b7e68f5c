/**
 * Confirm dialogs are plain_text. Slack's reference calls the dialog's `text` "a text object" and accepts mrkdwn
 * there, but its clients show it as typed (asterisks, `&amp;` and all: raycharius/slack-block-builder#26), so
 * the stand-in's validator keeps accepting it and this test pins what the builders send.
 */
import { describe, expect, it } from 'vitest';
import { buildQuoteMessage } from '../../src/features/swaps/blocks.js';
import type { AssetSnapshot, SwapQuote } from '../../src/features/swaps/quote.js';
import { validateBlocks } from '../support/rig/block-kit-validation.js';

const from: AssetSnapshot = {
  assetId: 'a',
  symbol: 'R&D',
  networkSymbol: 'ETH',
  networkTitle: 'Ethereum',
  decimals: 6,
};
const to: AssetSnapshot = { assetId: 'b', symbol: 'USDC', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 };
const quote: SwapQuote = {
  id: '3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f',
  estimateId: 'e-1',
  estimatedAt: '2026-11-22T12:00:00.000Z',
  expiresAt: '2026-11-22T12:30:00.000Z',
  requestedBy: 'U0RILEY',
  channelId: 'C0TREASURY',
  from,
  to,
  amountFrom: '1000000000',
  estimatedAmount: '999500000',
  routeType: 'dex',
  serviceId: 's',
  status: 'pending',
  audit: [],
} as unknown as SwapQuote;

/** Every confirm object in the blocks. */
function confirmsOf(blocks: readonly unknown[]): Array<Record<string, { type: string; text: string }>> {
  const found: Array<Record<string, { type: string; text: string }>> = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (typeof record.confirm === 'object' && record.confirm !== null && 'title' in record.confirm) {
      found.push(record.confirm as Record<string, { type: string; text: string }>);
    }
    Object.values(record).forEach(walk);
  };
  walk(blocks);
  return found;
}

describe('confirm dialogs', () => {
  it('the Approve dialog is plain_text throughout, restating the amounts literally (never escaped)', () => {
    const [confirm, ...others] = confirmsOf(
      buildQuoteMessage(quote, { approvers: ['U0AVERY'], allowSelfApproval: false }, new Date('2026-11-22T12:01:00Z'))
        .blocks,
    );
    expect(others).toEqual([]);
    for (const field of ['title', 'text', 'confirm', 'deny']) expect(confirm?.[field]?.type).toBe('plain_text');
    expect(confirm?.text?.text).toBe(
      'Swap 1,000 R&D → about 999.5 USDC. The final amount is fixed when the swap runs.',
    );
  });

  it('the validator accepts a mrkdwn confirm text, as Slack does (it only shows it as typed)', () => {
    const button = {
      type: 'button',
      text: { type: 'plain_text', text: 'Go' },
      action_id: 'go',
      confirm: {
        title: { type: 'plain_text', text: 'Sure?' },
        text: { type: 'mrkdwn', text: '*really*' },
        confirm: { type: 'plain_text', text: 'Yes' },
        deny: { type: 'plain_text', text: 'No' },
      },
    };
    expect(validateBlocks([{ type: 'actions', elements: [button] }])).toEqual([]);
  });
});
