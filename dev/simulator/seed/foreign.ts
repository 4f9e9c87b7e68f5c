// Merchant B's small dataset: records the bot must never see with merchant A's key.
import { parseUnits } from '../money.js';
import { quoteAmount } from '../operations/swaps.js';
import { seedId } from '../random.js';
import type { SimState } from '../world.js';
import { DAY, HOUR, MINUTE, type SeedIds } from './ids.js';

/** Merchant B's withdrawal, swap, payout and task, deposit, gas row and invoice. */
export function seedForeign(state: SimState, ids: SeedIds, now: number): void {
  const { assetUsdt, assetEth } = ids.foreign;
  const merchantId = ids.merchants.other;
  ids.foreign.withdrawal = state.addWithdrawal({
    id: seedId('foreign:withdrawal'),
    assetId: assetUsdt,
    status: 'failed',
    createdAt: now - 2 * DAY,
  }).id;
  const amountFrom = parseUnits('0.1', 18);
  ids.foreign.swap = state.addSwap({
    id: seedId('foreign:swap'),
    assetIdFrom: assetEth,
    assetIdTo: assetUsdt,
    amountFrom: amountFrom.toString(),
    estimatedAmount: quoteAmount(state, state.asset(assetEth), state.asset(assetUsdt), amountFrom).toString(),
    status: 'rejected',
    createdAt: now - 4 * DAY,
  }).id;
  const payout = state.addPayout({
    id: seedId('foreign:payout'),
    merchantId,
    assetId: assetUsdt,
    name: 'B vendors',
    status: 'finished',
    createdAt: now - 3 * DAY,
  });
  ids.foreign.payout = payout.id;
  ids.foreign.task = state.addPayoutTask({
    id: seedId('foreign:task'),
    payoutId: payout.id,
    status: 'failed',
    subStatus: 'payout_reverted',
    createdAt: now - 3 * DAY + MINUTE,
  }).id;
  ids.foreign.deposit = state.addDeposit({
    id: seedId('foreign:deposit'),
    assetId: assetUsdt,
    createdAt: now - DAY,
  }).id;
  ids.foreign.invoice = state.addInvoice({
    id: seedId('foreign:invoice'),
    merchantId,
    usdCents: '2500',
    assetId: assetUsdt,
    createdAt: now - HOUR,
    expiredAt: now + HOUR,
  }).id;
  const pipeline = state.addGasPipeline({ id: seedId('foreign:gas-pipeline'), merchantId, createdAt: now - 2 * DAY });
  ids.foreign.gas = state.addGasDistribution({
    id: seedId('foreign:gas'),
    pipelineId: pipeline.id,
    networkId: ids.networks.ethereum,
    status: 'failed',
    subStatus: 'not_enough_donor_balance',
    createdAt: now - 2 * DAY + 4000,
  }).id;
}
