// Slack refuses a block in which two elements share an action_id: the withdrawals pager gives each button its own.
import { describe, expect, it } from 'vitest';
import { actions, button } from '../../src/blocks/common.js';
import { WITHDRAWALS_PAGE_ACTIONS } from '../../src/blocks/ids.js';
import { buildWithdrawalPage } from '../../src/features/lookups/withdrawal-blocks.js';
import type { Withdrawal } from '../../src/payments/index.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const network = { id: 'n1', title: 'Ethereum', symbol: 'ETH', chainId: '1', networkType: 'evm' };
const withdrawal: Withdrawal = {
  id: 'w1',
  status: 'success',
  address: `0x${'a'.repeat(40)}`,
  amount: '1000000',
  amountInUsd: '1.00',
  payer: 'sender',
  isPrivate: false,
  asset: { id: 'a1', balance: '1', balanceInUsd: '1.00', wallet: null },
  crypto: { id: 'c1', title: 'Tether', symbol: 'USDT', contractAddress: null, decimals: 6, logoURI: null },
  network,
  fee: { network: [], service: null, exchange: null, totalInUsd: null },
  txHash: null,
  createdAt: NOW,
} as Withdrawal;

function pagerButtons(page: number, totalCount = 50) {
  const message = buildWithdrawalPage({ items: page <= 5 ? [withdrawal] : [], totalCount, page, perPage: 10 }, NOW);
  const block = message.blocks.find((b) => b.type === 'actions') as
    | { elements: Array<{ action_id: string; value: string; text: { text: string } }> }
    | undefined;
  return block?.elements.map((e) => ({ text: e.text.text, actionId: e.action_id, value: e.value })) ?? [];
}

describe('withdrawals pager', () => {
  it('page 2 carries Previous and Next with different action_ids, both served by the pager listener', () => {
    const buttons = pagerButtons(2);
    expect(buttons).toEqual([
      { text: '◀ Previous', actionId: 'withdrawals_page_previous', value: '1' },
      { text: 'Next ▶', actionId: 'withdrawals_page_next', value: '3' },
    ]);
    for (const { actionId } of buttons) expect(actionId).toMatch(WITHDRAWALS_PAGE_ACTIONS);
  });

  it('page 1 has only Next, the last page only Previous, past the end only First page', () => {
    expect(pagerButtons(1).map((b) => b.actionId)).toEqual(['withdrawals_page_next']);
    expect(pagerButtons(5).map((b) => b.actionId)).toEqual(['withdrawals_page_previous']);
    expect(pagerButtons(9)).toEqual([{ text: 'First page', actionId: 'withdrawals_page_first', value: '1' }]);
  });

  it('messages posted by earlier versions (action_id withdrawals_page) still page', () => {
    expect('withdrawals_page').toMatch(WITHDRAWALS_PAGE_ACTIONS);
    expect('withdrawals_page_other').not.toMatch(WITHDRAWALS_PAGE_ACTIONS);
  });

  it('an actions block with two buttons sharing an action_id is refused when it is built', () => {
    expect(() => actions([button('A', 'same', '1'), button('B', 'same', '2')])).toThrow(/share the action_id same/);
  });
});
