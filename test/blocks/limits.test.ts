/**
 * The pure builders stay within Slack's Block Kit limits (LIMITS in src/blocks/common.ts) even with extreme data, so a message
 * is never refused by Slack: long lists become several sections or pages, long texts are clipped.
 */
import { describe, expect, it } from 'vitest';
import { buildHelp } from '../../src/commands/help-blocks.js';
import { SUBCOMMANDS } from '../../src/commands/index.js';
import { buildInvoice } from '../../src/features/invoices/blocks.js';
import { buildBalances } from '../../src/features/lookups/balance-blocks.js';
import { buildGasList } from '../../src/features/lookups/gas-blocks.js';
import { buildWithdrawalPage } from '../../src/features/lookups/withdrawal-blocks.js';
import { buildPayoutTaskList } from '../../src/features/payouts/blocks.js';
import { buildSwapHistory } from '../../src/features/swaps/blocks.js';
import type { SwapQuote } from '../../src/features/swaps/quote.js';
import type { Asset, GasDistribution, Invoice, PayoutTask, Withdrawal } from '../../src/payments/index.js';
import { expectWithinSlackLimits } from '../support/block-limits.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const LONG = 'x'.repeat(5_000);

const crypto = {
  id: 'c1',
  title: 'Tether',
  symbol: 'USDT',
  contractAddress: `0x${'a'.repeat(40)}`,
  decimals: 6,
  logoURI: null,
};
const network = { id: 'n1', title: 'Ethereum', symbol: 'ETH', chainId: '1', networkType: 'evm' };
const leg = {
  amount: '1000000',
  amountFormatted: '1',
  currency: 'USDT',
  cryptoId: 'c1',
  networkId: 'n1',
  amountInUsd: '1.00',
  isChargedToMerchant: true,
};
const fee = { network: [leg], service: leg, exchange: null, totalInUsd: '1.00' };

function asset(i: number): Asset {
  return {
    id: `asset-${i}`,
    wallet: `0x${'b'.repeat(40)}`,
    feePercent: '0.5',
    feeUsd: '0.10',
    balance: '123456789123456',
    balanceInUsd: `${i}.5`,
    balanceForWithdrawal: null,
    balanceUnits: 'base_units',
    crypto: { ...crypto, symbol: `TOKEN${i}` },
    network: { ...network, title: 'A very long network name for testing purposes' },
    createdAt: NOW,
  };
}

describe('builders stay within Slack limits', () => {
  it('help', () => expectWithinSlackLimits(buildHelp()));

  it.each(SUBCOMMANDS.map(({ name }) => name))('help %s', (name) =>
    expectWithinSlackLimits(buildHelp({ topic: name })),
  );

  it('balances with 300 assets', () => {
    const message = buildBalances(
      Array.from({ length: 300 }, (_, i) => asset(i)),
      NOW,
    );
    expectWithinSlackLimits(message);
    expect(JSON.stringify(message)).toContain('and 240 more');
  });

  it('an invoice with a 5000-character title and extra data', () => {
    const invoice: Invoice = {
      id: 'i1',
      usdAmount: '49.99',
      status: 'pending',
      paymentPageLink: `https://pay.example/${'p'.repeat(200)}`,
      productTitle: LONG,
      extraData: LONG,
      cryptoAmount: null,
      crypto: null,
      network: null,
      fee,
      address: null,
      expiredAt: NOW,
    };
    expectWithinSlackLimits(buildInvoice(invoice, { now: NOW, mode: 'created', shareable: true }));
  });

  it('a page of 100 withdrawals with long addresses', () => {
    const withdrawal = (i: number): Withdrawal => ({
      id: `w-${i}`,
      status: 'failed',
      address: 'z'.repeat(300),
      amount: '1'.repeat(40),
      amountInUsd: '1.00',
      payer: 'sender',
      isPrivate: false,
      asset: { id: 'a', balance: '1', balanceInUsd: '1', wallet: null },
      crypto,
      network,
      fee,
      txHash: 'h'.repeat(300),
      createdAt: NOW,
    });
    // The command asks for 10 per page; even a page of 10 with extreme fields must fit.
    expectWithinSlackLimits(
      buildWithdrawalPage(
        { items: Array.from({ length: 10 }, (_, i) => withdrawal(i)), totalCount: 1000, page: 3, perPage: 10 },
        NOW,
      ),
    );
  });

  it('a full API page of 50 payout tasks and of 50 gas rows (shown in slices)', () => {
    const task = (i: number): PayoutTask => ({
      id: `t-${i}-${'0'.repeat(30)}`,
      type: 'multi_tx',
      status: 'failed',
      subStatus: 'some_long_sub_status_value',
      payoutId: 'p',
      amount: '123456789012',
      amountInUsd: '123456.78',
      assetId: 'a',
      crypto,
      network,
      transferTxHash: null,
      payoutTxHash: null,
      targetsCount: 300,
      fee,
      createdAt: NOW,
    });
    const tasks = buildPayoutTaskList(
      { items: Array.from({ length: 50 }, (_, i) => task(i)), cursorNext: 'c'.repeat(500), cursorPrevious: null },
      { cursor: 'c'.repeat(500), offset: 0 },
      'failed',
    );
    expectWithinSlackLimits(tasks);

    const row = (i: number): GasDistribution => ({
      id: `g-${i}-${'0'.repeat(30)}`,
      status: 'failed',
      subStatus: 'not_enough_donor_balance',
      network: { id: 'n', title: 'Ethereum', symbol: 'ETH', chainId: null, networkType: null },
      targetAddress: `0x${'c'.repeat(40)}`,
      txHash: null,
      topUp: leg,
      charged: leg,
      fee,
      pipeline: { id: 'p', status: 'finished', totalAmountInUsd: '1', createdAt: NOW },
      createdAt: NOW,
      updatedAt: NOW,
    });
    expectWithinSlackLimits(
      buildGasList(
        { items: Array.from({ length: 50 }, (_, i) => row(i)), cursorNext: 'c'.repeat(500), cursorPrevious: null },
        { cursor: null, offset: 20 },
      ),
    );
  });

  it('the swap history of 15 quotes', () => {
    const quote = (i: number): SwapQuote => ({
      id: `q-${i}`,
      estimateId: 'e',
      estimatedAt: NOW.toISOString(),
      expiresAt: NOW.toISOString(),
      requestedBy: 'U0REQUESTER',
      channelId: 'C1',
      from: { assetId: 'a', symbol: 'USDT', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
      to: { assetId: 'b', symbol: 'USDC', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
      amountFrom: '1'.repeat(30),
      estimatedAmount: '1'.repeat(30),
      routeType: 'dex',
      serviceId: 's',
      status: 'created',
      decidedBy: 'U0APPROVER',
      decidedAt: NOW.toISOString(),
      swapId: 'f'.repeat(36),
      swapStatus: 'finished',
      amountTo: '1'.repeat(30),
      history: [],
    });
    expectWithinSlackLimits(buildSwapHistory(Array.from({ length: 15 }, (_, i) => quote(i))));
  });
});
