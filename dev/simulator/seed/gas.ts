// Merchant A's gas rows, with a donor-balance failure kept on the list's second page.
import { parseUnits } from '../money.js';
import { selectGasRows } from '../operations/gas.js';
import { type Random, seedId } from '../random.js';
import type { GasStatus } from '../types.js';
import type { SimState } from '../world.js';
import { DAY, MINUTE, type SeedIds } from './ids.js';

interface GasPlan {
  status: GasStatus;
  subStatus: string | null;
}

/** Merchant A's gas rows (successes and failures of every kind), newest first by id. */
export function seedGas(state: SimState, ids: SeedIds, rng: Random, now: number): void {
  const { ethereum, bsc, polygon } = ids.networks;
  const networkCycle = [ethereum, bsc, ethereum, polygon, bsc];
  const success: GasPlan = { status: 'success', subStatus: 'sent' };
  // 72 older rows, shuffled: 9 cancelled, 4 failed for lack of donor balance, 2 failed otherwise, the rest sent.
  const older: GasPlan[] = [
    ...Array.from({ length: 6 }, (): GasPlan => ({ status: 'cancelled', subStatus: 'enough_balance' })),
    ...Array.from({ length: 3 }, (): GasPlan => ({ status: 'cancelled', subStatus: 'undefined_balance' })),
    ...Array.from({ length: 4 }, (): GasPlan => ({ status: 'failed', subStatus: 'not_enough_donor_balance' })),
    { status: 'failed', subStatus: 'tx_reverted' },
    { status: 'failed', subStatus: null },
  ];
  while (older.length < 72) older.push(success);
  for (let index = older.length - 1; index > 0; index -= 1) {
    const other = rng.int(0, index);
    [older[index], older[other]] = [older[other] ?? success, older[index] ?? success];
  }
  // The two newest pipelines hold the rows still in flight.
  const newest: GasPlan[] = [
    { status: 'pending', subStatus: 'sent' },
    { status: 'pending', subStatus: 'not_enough_donor_balance' },
    success,
    success,
    { status: 'pending', subStatus: null },
    { status: 'pending', subStatus: 'awaiting_confirmations' },
    { status: 'pending', subStatus: 'not_enough_donor_balance' },
    { status: 'cancelled', subStatus: 'enough_balance' },
  ];
  const plans = [...older, ...newest];
  for (let p = 0; p < plans.length / 4; p += 1) {
    const rows = plans.slice(p * 4, p * 4 + 4);
    const networkId = networkCycle[p % networkCycle.length] ?? ethereum;
    const createdAt = now - Math.round(((19 - p) * 29 * DAY) / 20) - rng.int(10, 90) * MINUTE;
    const pipelineStatus = rows.some((row) => row.status === 'pending')
      ? 'in_progress'
      : rows.some((row) => row.subStatus === 'not_enough_donor_balance')
        ? 'failed'
        : 'finished';
    const pipeline = state.addGasPipeline({ id: seedId(`gas-pipeline:${p}`), status: pipelineStatus, createdAt });
    ids.gas.pipelines.push(pipeline.id);
    rows.forEach((plan, k) => {
      const rowCreated = createdAt + (k + 1) * 3000 + rng.int(0, 999);
      const cancelled = plan.status === 'cancelled';
      const donor = state.crypto(state.donorCryptoByNetwork.get(networkId) ?? '');
      state.addGasDistribution({
        id: seedId(`gas:${p}:${k}`),
        pipelineId: pipeline.id,
        networkId,
        status: plan.status,
        subStatus: plan.subStatus,
        topUp: cancelled ? null : state.gasWorth(networkId, rng.int(180, 1400)).toString(),
        serviceFee: cancelled
          ? null
          : parseUnits(`0.${rng.int(5, 30).toString().padStart(2, '0')}`, donor.decimals).toString(),
        createdAt: rowCreated,
        updatedAt: Math.min(now, rowCreated + (plan.status === 'pending' ? rng.int(1, 20) : rng.int(20, 180)) * 1000),
      });
    });
  }
  ensureDonorRowOnSecondPage(state, ids);
  const mine = selectGasRows(state.gas.values(), ids.merchants.main, {});
  const cancelled = selectGasRows(state.gas.values(), ids.merchants.main, { status: 'cancelled' });
  ids.gas.all = [...mine, ...cancelled].sort((x, y) => (x.id < y.id ? -1 : 1)).map((row) => row.id);
  for (const row of [...mine, ...cancelled]) {
    ids.gas[row.status].push(row.id);
    if (row.subStatus === 'not_enough_donor_balance') ids.gas.notEnoughDonorBalance.push(row.id);
  }
  const byIdOrder = (x: string, y: string): number => (x < y ? -1 : 1);
  for (const key of ['success', 'pending', 'failed', 'cancelled', 'notEnoughDonorBalance'] as const)
    ids.gas[key].sort(byIdOrder);
  ids.gas.notEnoughDonorPending =
    ids.gas.notEnoughDonorBalance.find((id) => state.gas.get(id)?.status === 'pending') ?? '';
  const page2 = mine.slice(50).find((row) => row.subStatus === 'not_enough_donor_balance');
  ids.gas.notEnoughDonorOnSecondPage = page2?.id ?? '';
}

/** Makes sure the default gas list shows a not_enough_donor_balance failure on page 2 (rows are ordered by id). */
function ensureDonorRowOnSecondPage(state: SimState, ids: SeedIds): void {
  const rows = selectGasRows(state.gas.values(), ids.merchants.main, {});
  if (rows.slice(50).some((row) => row.subStatus === 'not_enough_donor_balance')) return;
  const target = rows.slice(50).find((row) => row.status === 'success');
  const donorOnPage1 = rows
    .slice(0, 50)
    .find((row) => row.status === 'failed' && row.subStatus === 'not_enough_donor_balance');
  if (!target || !donorOnPage1) return;
  state.updateGasDistribution(target.id, { status: 'failed', subStatus: 'not_enough_donor_balance', txHash: '' });
  state.updateGasDistribution(donorOnPage1.id, { status: 'success', subStatus: 'sent', txHash: state.random.txHash() });
}
