// Merchant A's records: invoices, withdrawals, swaps, payouts with their tasks, and deposits.
import { parseUnits } from '../money.js';
import { compareTasksNewestFirst } from '../operations/payouts.js';
import { quoteAmount } from '../operations/swaps.js';
import { type Random, seedId } from '../random.js';
import type { TaskStatus, WithdrawalStatus } from '../types.js';
import type { SimState } from '../world.js';
import { DAY, HOUR, MINUTE, type SeedIds } from './ids.js';

/** Merchant A's invoices in every status. */
export function seedInvoices(state: SimState, ids: SeedIds, now: number): void {
  const a = ids.assets;
  ids.invoices.usdOnly = state.addInvoice({
    id: seedId('invoice:usd-only'),
    usdCents: '4999',
    productTitle: 'Pro plan (monthly)',
    createdAt: now - 10 * MINUTE,
    expiredAt: now + 50 * MINUTE,
  }).id;
  ids.invoices.withAsset = state.addInvoice({
    id: seedId('invoice:with-asset'),
    usdCents: '12000',
    assetId: a.usdtEth,
    productTitle: 'Hardware wallet',
    extraData: '{"orderId":"A-1042"}',
    createdAt: now - 25 * MINUTE,
    expiredAt: now + 35 * MINUTE,
  }).id;
  ids.invoices.byCrypto = state.addInvoice({
    id: seedId('invoice:by-crypto'),
    usdCents: '15062',
    assetId: a.eth,
    cryptoAmount: parseUnits('0.05', 18).toString(),
    productTitle: 'Consulting hour',
    createdAt: now - 5 * MINUTE,
    expiredAt: now + 24 * HOUR - 5 * MINUTE,
  }).id;
  ids.invoices.expired = state.addInvoice({
    id: seedId('invoice:expired'),
    usdCents: '1500',
    assetId: a.usdcPolygon,
    productTitle: 'Sticker pack <limited> & more',
    createdAt: now - 3 * DAY,
    expiredAt: now - 3 * DAY + HOUR,
  }).id;
}

/** Merchant A's withdrawals, with failures among them. */
export function seedWithdrawals(state: SimState, ids: SeedIds, rng: Random, now: number): void {
  const a = ids.assets;
  const rotation = [a.usdtEth, a.usdtEth, a.usdcEth, a.eth, a.usdtBsc, a.bnb, a.usdcPolygon, a.usdtEth, a.daiEth];
  const pending = new Set([0, 1, 2, 3, 9, 17]);
  const failed = new Set([5, 12, 20, 27, 33, 40, 44]);
  for (let index = 0; index < 45; index += 1) {
    const assetId = rotation[index % rotation.length] ?? a.usdtEth;
    const cryptoId = state.asset(assetId).cryptoId;
    const native = state.crypto(cryptoId).contractAddress === null;
    const status: WithdrawalStatus = pending.has(index) ? 'pending' : failed.has(index) ? 'failed' : 'success';
    const record = state.addWithdrawal({
      id: seedId(`withdrawal:${index}`),
      assetId,
      status,
      amount: native ? tokens(rng, state, cryptoId, 10, 300) : tokens(rng, state, cryptoId, 5_000, 2_000_000),
      isPrivate: index % 7 === 6,
      // Spread over the last 30 days, newest first by index.
      createdAt: now - Math.round(((index + 0.3) * 30 * DAY) / 46) - rng.int(0, 50) * MINUTE,
    });
    ids.withdrawals.all.push(record.id);
    ids.withdrawals[status].push(record.id);
  }
}

/** Merchant A's swaps in every status. */
export function seedSwaps(state: SimState, ids: SeedIds, now: number): void {
  const a = ids.assets;
  const swap = (
    label: string,
    from: string,
    to: string,
    amount: string,
    status: 'finished' | 'rejected' | 'in_progress',
    ago: number,
  ): string => {
    const fromAsset = state.asset(from);
    const amountFrom = parseUnits(amount, state.crypto(fromAsset.cryptoId).decimals);
    const estimatedAmount = quoteAmount(state, fromAsset, state.asset(to), amountFrom).toString();
    const finished = status === 'finished';
    const record = state.addSwap({
      id: seedId(`swap:${label}`),
      assetIdFrom: from,
      assetIdTo: to,
      amountFrom: amountFrom.toString(),
      estimatedAmount,
      status,
      amountTo: finished ? estimatedAmount : null,
      amountFromInUsd: finished ? state.usd(fromAsset.cryptoId, amountFrom) : null,
      amountToInUsd: finished ? state.usd(state.asset(to).cryptoId, estimatedAmount) : null,
      hashFrom: finished ? state.random.txHash() : null,
      hashTo: finished ? state.random.txHash() : null,
      createdAt: now - ago,
    });
    return record.id;
  };
  ids.swaps.finished.push(swap('usdt-to-usdc', a.usdtEth, a.usdcEth, '1000', 'finished', 3 * DAY));
  ids.swaps.finished.push(swap('eth-to-usdt', a.eth, a.usdtEth, '0.5', 'finished', 10 * DAY));
  ids.swaps.rejected = swap('usdt-bsc-to-eth', a.usdtBsc, a.usdtEth, '500', 'rejected', 5 * DAY);
  ids.swaps.inProgress = swap('bnb-to-usdt', a.bnb, a.usdtBsc, '2', 'in_progress', 20 * MINUTE);
}

/** Merchant A's payouts and their tasks (about 120). */
export function seedPayoutsAndTasks(state: SimState, ids: SeedIds, rng: Random, now: number): void {
  const a = ids.assets;
  const plans: Array<{
    key: keyof SeedIds['payouts'];
    name: string;
    assetId: string;
    ago: number;
    count: number;
    failedEvery: number;
    pendingShare: number;
  }> = [
    {
      key: 'octoberSalaries',
      name: 'October salaries',
      assetId: a.usdtEth,
      ago: 29 * DAY,
      count: 40,
      failedEvery: 13,
      pendingShare: 0,
    },
    {
      key: 'affiliateRewards',
      name: 'Affiliate rewards W46',
      assetId: a.usdtBsc,
      ago: 20 * DAY,
      count: 30,
      failedEvery: 9,
      pendingShare: 0,
    },
    {
      key: 'supplierSettlements',
      name: 'Supplier settlements',
      assetId: a.usdcEth,
      ago: 12 * DAY,
      count: 25,
      failedEvery: 11,
      pendingShare: 0.12,
    },
    {
      key: 'refunds',
      name: 'Refunds batch 17',
      assetId: a.usdcPolygon,
      ago: 5 * DAY,
      count: 15,
      failedEvery: 6,
      pendingShare: 0.2,
    },
    {
      key: 'novemberSalaries',
      name: 'November salaries',
      assetId: a.usdtEth,
      ago: 1 * DAY,
      count: 10,
      failedEvery: 4,
      pendingShare: 0.6,
    },
  ];
  const pendingSub = ['transfer_sent', 'waiting_for_gas', 'payout_pending'];
  const failedSub = ['payout_reverted', 'transfer_failed', 'insufficient_gas'];
  let taskIndex = 0;
  for (const plan of plans) {
    const payoutCreated = now - plan.ago;
    const payout = state.addPayout({
      id: seedId(`payout:${plan.key}`),
      assetId: plan.assetId,
      name: plan.name,
      status: 'finished',
      createdAt: payoutCreated - 10 * MINUTE,
    });
    ids.payouts[plan.key] = payout.id;
    const cryptoId = state.asset(plan.assetId).cryptoId;
    let at = payoutCreated;
    for (let k = 0; k < plan.count; k += 1) {
      const status: TaskStatus =
        (k + 1) % plan.failedEvery === 0 ? 'failed' : k >= plan.count * (1 - plan.pendingShare) ? 'pending' : 'success';
      const single = k % 5 === 4;
      const targetsCount = single ? 1 : rng.int(2, 40);
      // Two tasks share a timestamp now and then: the list must order ties by id.
      if (k % 17 !== 16) at += rng.int(20, 240) * 1000 + rng.int(0, 999);
      const task = state.addPayoutTask({
        id: seedId(`task:${taskIndex}`),
        payoutId: payout.id,
        assetId: plan.assetId,
        type: single ? 'single_tx' : 'multi_tx',
        status,
        subStatus: status === 'success' ? 'payout_sent' : rng.pick(status === 'pending' ? pendingSub : failedSub),
        amount: tokens(rng, state, cryptoId, 10_000, 2_500_000),
        targetsCount,
        gasAmount: state.gasWorth(state.crypto(cryptoId).networkId, rng.int(90, 210) * (2 + targetsCount)).toString(),
        createdAt: Math.min(at, now - 1000),
      });
      ids.tasks[status].push(task.id);
      taskIndex += 1;
    }
  }
  const newestFirst = [...state.tasks.values()]
    .filter((task) => task.merchantId === ids.merchants.main)
    .sort(compareTasksNewestFirst);
  ids.tasks.all = newestFirst.map((task) => task.id);
  for (const key of ['pending', 'failed', 'success'] as const) {
    ids.tasks[key].sort((x, y) => ids.tasks.all.indexOf(x) - ids.tasks.all.indexOf(y));
  }
}

/** Merchant A's deposits. */
export function seedDeposits(state: SimState, ids: SeedIds, now: number): void {
  const a = ids.assets;
  const deposit = (
    label: string,
    assetId: string,
    amount: string,
    status: 'success' | 'frozen' | 'refunded',
    ago: number,
    legacyNoUsd = false,
  ): string =>
    state.addDeposit({
      id: seedId(`deposit:${label}`),
      assetId,
      status,
      amount: parseUnits(amount, state.crypto(state.asset(assetId).cryptoId).decimals).toString(),
      legacyNoUsd,
      createdAt: now - ago,
    }).id;
  ids.deposits.success.push(deposit('usdt-1500', a.usdtEth, '1500', 'success', 2 * DAY));
  ids.deposits.success.push(deposit('eth-0.75', a.eth, '0.75', 'success', 6 * DAY));
  ids.deposits.success.push(deposit('usdt-bsc-320', a.usdtBsc, '320.5', 'success', 9 * DAY));
  ids.deposits.frozen = deposit('usdc-frozen', a.usdcEth, '9800', 'frozen', 1 * DAY);
  ids.deposits.refunded = deposit('usdt-refunded', a.usdtEth, '45.9', 'refunded', 14 * DAY);
  // Created before USD pricing existed: USD fields null forever.
  ids.deposits.legacyNoUsd = deposit('legacy', a.usdtEth, '780', 'success', 400 * DAY, true);
}

/** Base units of a random token amount between min and max hundredths of a token (two decimals at most). */
function tokens(rng: Random, state: SimState, cryptoId: string, minHundredths: number, maxHundredths: number): string {
  const crypto = state.crypto(cryptoId);
  const hundredths = BigInt(rng.int(minHundredths, maxHundredths));
  return ((hundredths * 10n ** BigInt(crypto.decimals)) / 100n).toString();
}
