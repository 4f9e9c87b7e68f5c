// Bulk history for benchmarks: N withdrawals, N payout tasks and N gas distributions spread over a span of days,
// kept as columns (a creation time and a status code per row, plus a small asset or network index) and turned
// into records only when a request reads them. Ids, addresses, hashes and amounts are derived from the row
// number with an integer hash (deterministic, no crypto); ids are scrambled so that the gas list, ordered by id,
// stays in no particular time order, as the real list does.

import { baseUnitsForUsdCents, bpsOf, parseUnits, pow10 } from './money.js';
import { seedId } from './random.js';
import type { BulkSegment } from './table.js';
import type {
  GasDistributionRecord,
  GasStatus,
  PayoutTaskRecord,
  TaskStatus,
  WithdrawalRecord,
  WithdrawalStatus,
} from './types.js';
import type { SimState } from './world.js';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
/** Rows of one gas pipeline (consecutive in time). */
const BULK_GAS_PER_PIPELINE = 5;

/** Options of loadBulkHistory. */
export interface BulkHistoryOptions {
  /** Rows of each kind (withdrawals, payout tasks, gas distributions); at least one second of span per row. */
  rowsPerKind: number;
  /** The rows are spread evenly (with jitter) over this many days before `now`; default 30. */
  spanDays?: number;
  /** Share of rows that failed; default 0.05. */
  failureRate?: number;
  /** Share of the failed gas rows whose sub-status is not_enough_donor_balance; default 0.2. */
  donorShortShare?: number;
  /** Share of gas rows cancelled (a tenth of them short of donor balance); default 0.02. */
  cancelledRate?: number;
  /** Rows of each kind still pending, spread over the last `pendingWithinMs`; default 5. */
  pendingPerKind?: number;
  /** Default 24 h. */
  pendingWithinMs?: number;
  /** Newest end of the span, epoch ms; default the simulator clock. */
  now?: number;
  /** Owner of the rows; default merchant A. */
  merchantId?: string;
}

/** Counts per status (and gas sub-status) of what was generated. */
export interface BulkHistorySummary {
  rowsPerKind: number;
  from: number;
  to: number;
  withdrawals: Record<WithdrawalStatus, number>;
  tasks: Record<TaskStatus, number>;
  gas: Record<GasStatus, number> & { notEnoughDonorBalance: number };
  /** Payout containers made for the tasks (one per asset and day). */
  payouts: number;
  /** Gas pipelines made (one per 5 gas rows). */
  pipelines: number;
}

// ---- integer hashing and scrambled ids ------------------------------------------------------------------------

function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** A 32-bit hash of (kind, row, field). */
function hash(kind: number, n: number, field: number): number {
  return mix(mix(n ^ Math.imul(kind, 0x27d4eb2d)) ^ Math.imul(field + 1, 0x165667b1));
}

const C1 = 0x9e3779b1;
const C2 = 0x85ebca6b;
function inverse(c: number): number {
  let inv = c;
  for (let i = 0; i < 5; i += 1) inv = Math.imul(inv, 2 - Math.imul(c, inv));
  return inv;
}
const C1_INV = inverse(C1);
const C2_INV = inverse(C2);

/** A bijection on 32-bit integers. */
function scramble(x: number): number {
  x = Math.imul(x, C1) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, C2) >>> 0;
  return (x ^ (x >>> 13)) >>> 0;
}

function unscramble(y: number): number {
  y = (y ^ (y >>> 13) ^ (y >>> 26)) >>> 0;
  y = Math.imul(y, C2_INV) >>> 0;
  y = (y ^ (y >>> 16)) >>> 0;
  return Math.imul(y, C1_INV) >>> 0;
}

const hex = (value: number, width: number): string =>
  value
    .toString(16)
    .padStart(8, '0')
    .slice(8 - width);

/** Ids of one kind of bulk row: UUID-shaped, the first 8 hex digits a scrambled counter, the 2nd group a kind tag. */
class BulkIds {
  private readonly tag: string;
  private readonly salt: number;
  constructor(private readonly kind: number) {
    this.tag = `b10${kind}`;
    this.salt = kind * 2 ** 28;
  }

  /** The scrambled counter: ascending order of it is the ids' string order. */
  head(n: number): number {
    return scramble(n + this.salt);
  }

  idOf(n: number): string {
    const a = hash(this.kind, n, 101);
    const b = hash(this.kind, n, 102);
    const c = hash(this.kind, n, 103);
    const variant = (8 | (a & 3)).toString(16);
    return `${hex(this.head(n), 8)}-${this.tag}-4${hex(a >>> 4, 3)}-${variant}${hex(b, 3)}-${hex(b >>> 12, 4)}${hex(c, 8)}`;
  }

  rowOf(id: string, count: number): number | undefined {
    if (id.length !== 36 || id.slice(9, 13) !== this.tag) return undefined;
    const head = Number.parseInt(id.slice(0, 8), 16);
    if (Number.isNaN(head)) return undefined;
    const n = unscramble(head) - this.salt;
    if (n < 0 || n >= count) return undefined;
    return this.idOf(n) === id ? n : undefined;
  }
}

function hexString(kind: number, n: number, field: number, length: number): string {
  let out = '';
  for (let k = 0; out.length < length; k += 1) out += hex(hash(kind, n, field * 16 + k), 8);
  return out.slice(0, length);
}

// ---- the generator --------------------------------------------------------------------------------------------

const W_STATUS: readonly WithdrawalStatus[] = ['success', 'failed', 'pending'];
const T_STATUS: readonly TaskStatus[] = ['success', 'failed', 'pending'];
const T_SUB: Record<TaskStatus, string> = { success: 'payout_sent', failed: 'payout_failed', pending: 'transfer_sent' };
const G_CODES: ReadonlyArray<{ status: GasStatus; subStatus: string | null }> = [
  { status: 'success', subStatus: 'sent' },
  { status: 'failed', subStatus: 'tx_reverted' },
  { status: 'failed', subStatus: 'not_enough_donor_balance' },
  { status: 'pending', subStatus: null },
  { status: 'cancelled', subStatus: 'enough_balance' },
  { status: 'cancelled', subStatus: 'not_enough_donor_balance' },
  { status: 'pending', subStatus: 'not_enough_donor_balance' },
];

/** Generates the bulk history into `state` (once per simulator). */
export function loadBulkHistory(state: SimState, options: BulkHistoryOptions): BulkHistorySummary {
  const n = options.rowsPerKind;
  if (!Number.isInteger(n) || n < 1 || n >= 2 ** 28)
    throw new RangeError('rowsPerKind must be a positive integer below 2^28');
  const spanMs = (options.spanDays ?? 30) * DAY;
  const slot = spanMs / n;
  if (slot < SECOND) throw new RangeError('rowsPerKind must leave at least one second of span per row');
  const failureRate = options.failureRate ?? 0.05;
  const donorShortShare = options.donorShortShare ?? 0.2;
  const cancelledRate = options.cancelledRate ?? 0.02;
  const pendingPerKind = Math.min(options.pendingPerKind ?? 5, n);
  const pendingWithinMs = Math.min(options.pendingWithinMs ?? DAY, spanMs);
  const now = options.now ?? state.now();
  const start = now - spanMs;
  const merchantId = options.merchantId ?? state.defaultMerchantId;
  const assets = [...state.assets.values()].filter((asset) => asset.merchantId === merchantId);
  if (assets.length === 0) throw new RangeError(`merchant ${merchantId} has no asset`);
  const networks = [...state.networks.keys()].filter((id) => state.donorCryptoByNetwork.has(id));

  // Strictly increasing times, at least a second apart: the raw and the shown (whole-second) instants order
  // the rows the same way, so row n is the n-th oldest in every time order and no two rows tie.
  const jitterRange = Math.floor(slot) - SECOND;
  const timesFor = (kind: number): Float64Array => {
    const times = new Float64Array(n);
    for (let k = 0; k < n; k += 1) {
      const jitter = jitterRange > 0 ? hash(kind, k, 1) % (jitterRange + 1) : 0;
      times[k] = start + Math.floor(k * slot) + jitter;
    }
    return times;
  };
  const rowAt = (time: number): number => Math.max(0, Math.min(n - 1, Math.floor((time - start) / slot)));
  const pendingRows = new Set<number>();
  for (let j = 1; j <= pendingPerKind; j += 1)
    pendingRows.add(rowAt(now - (pendingWithinMs * j) / (pendingPerKind + 1)));
  const failed = (kind: number, k: number): boolean => hash(kind, k, 2) / 2 ** 32 < failureRate;
  const identity = (): Uint32Array => {
    const order = new Uint32Array(n);
    for (let k = 0; k < n; k += 1) order[k] = k;
    return order;
  };

  // Per-asset helpers: amounts in hundredths of a token, and the asset's service fee.
  const assetInfo = assets.map((asset) => {
    const crypto = state.crypto(asset.cryptoId);
    const percentBps = Number(parseUnits(asset.feePercent, 2));
    const fixed = baseUnitsForUsdCents(parseUnits(asset.feeUsd, 2), crypto.decimals, crypto.priceUsd);
    const hundredth = crypto.decimals >= 2 ? pow10(crypto.decimals - 2) : 1n;
    return {
      asset,
      networkId: crypto.networkId,
      hundredth,
      fee: (amount: bigint) => bpsOf(amount, percentBps) + fixed,
    };
  });
  const amountOf = (info: (typeof assetInfo)[number], kind: number, k: number): bigint =>
    BigInt(100 + (hash(kind, k, 3) % 500_000)) * info.hundredth;

  // ---- withdrawals
  const wIds = new BulkIds(1);
  const wTimes = timesFor(1);
  const wStatus = new Uint8Array(n);
  const wAsset = new Uint8Array(n);
  const summary: BulkHistorySummary = {
    rowsPerKind: n,
    from: start,
    to: now,
    withdrawals: { success: 0, failed: 0, pending: 0 },
    tasks: { success: 0, failed: 0, pending: 0 },
    gas: { success: 0, failed: 0, pending: 0, cancelled: 0, notEnoughDonorBalance: 0 },
    payouts: 0,
    pipelines: 0,
  };
  for (let k = 0; k < n; k += 1) {
    wStatus[k] = pendingRows.has(k) ? 2 : failed(1, k) ? 1 : 0;
    wAsset[k] = hash(1, k, 4) % assets.length;
    summary.withdrawals[W_STATUS[wStatus[k] as number] as WithdrawalStatus] += 1;
  }
  const withdrawals: BulkSegment<WithdrawalRecord> = {
    count: n,
    merchantId,
    idOf: (k) => wIds.idOf(k),
    indexOfId: (id) => wIds.rowOf(id, n),
    status: (k) => W_STATUS[wStatus[k] as number] as string,
    materialize: (k) => {
      const info = assetInfo[wAsset[k] as number]!;
      const amount = amountOf(info, 1, k);
      const status = W_STATUS[wStatus[k] as number] as WithdrawalStatus;
      return {
        id: wIds.idOf(k),
        merchantId,
        assetId: info.asset.id,
        status,
        address: `0x${hexString(1, k, 5, 40)}`,
        amount: amount.toString(),
        isPrivate: false,
        serviceFee: info.fee(amount).toString(),
        txHash: status === 'success' ? `0x${hexString(1, k, 6, 64)}` : null,
        createdAt: wTimes[k] as number,
      };
    },
  };
  state.withdrawals.loadBulk(withdrawals, { key: identity() });

  // ---- payout tasks: one payout per asset and day
  const days = Math.ceil(spanMs / DAY);
  const payoutIds: string[][] = assets.map((asset, a) =>
    Array.from(
      { length: days },
      (_, d) =>
        state.addPayout({
          id: seedId(`bulk-payout:${merchantId}:${a}:${d}`),
          merchantId,
          assetId: asset.id,
          name: `Bulk payouts, day ${d + 1}`,
          status: 'finished',
          createdAt: start + d * DAY,
        }).id,
    ),
  );
  summary.payouts = assets.length * days;
  const tIds = new BulkIds(2);
  const tTimes = timesFor(2);
  const tStatus = new Uint8Array(n);
  const tAsset = new Uint8Array(n);
  for (let k = 0; k < n; k += 1) {
    tStatus[k] = pendingRows.has(k) ? 2 : failed(2, k) ? 1 : 0;
    tAsset[k] = hash(2, k, 4) % assets.length;
    summary.tasks[T_STATUS[tStatus[k] as number] as TaskStatus] += 1;
  }
  const tasks: BulkSegment<PayoutTaskRecord> = {
    count: n,
    merchantId,
    idOf: (k) => tIds.idOf(k),
    indexOfId: (id) => tIds.rowOf(id, n),
    status: (k) => T_STATUS[tStatus[k] as number] as string,
    materialize: (k) => {
      const a = tAsset[k] as number;
      const info = assetInfo[a]!;
      const createdAt = tTimes[k] as number;
      const day = Math.max(0, Math.min(days - 1, Math.floor((createdAt - start) / DAY)));
      const amount = amountOf(info, 2, k);
      const single = hash(2, k, 7) % 5 === 4;
      const targetsCount = single ? 1 : 2 + (hash(2, k, 8) % 39);
      const status = T_STATUS[tStatus[k] as number] as TaskStatus;
      return {
        id: tIds.idOf(k),
        merchantId,
        payoutId: payoutIds[a]![day]!,
        assetId: info.asset.id,
        type: single ? 'single_tx' : 'multi_tx',
        status,
        subStatus: T_SUB[status],
        amount: amount.toString(),
        transferTxHash: `0x${hexString(2, k, 5, 64)}`,
        payoutTxHash: `0x${hexString(2, k, 6, 64)}`,
        targetsCount,
        gasAmount: state.gasWorth(info.networkId, 150 * (2 + targetsCount)).toString(),
        serviceFee: info.fee(amount).toString(),
        createdAt,
      };
    },
  };
  state.tasks.loadBulk(tasks, { key: identity() });

  // ---- gas distributions, 5 consecutive rows per pipeline
  const gIds = new BulkIds(3);
  const pIds = new BulkIds(4);
  const gTimes = timesFor(3);
  const gCode = new Uint8Array(n);
  const gNetwork = new Uint8Array(n);
  let firstPending = true;
  for (let k = 0; k < n; k += 1) {
    let code: number;
    if (pendingRows.has(k)) {
      code = firstPending ? 6 : 3;
      firstPending = false;
    } else {
      const u = hash(3, k, 2) / 2 ** 32;
      if (u < failureRate) code = u < failureRate * donorShortShare ? 2 : 1;
      else if (u < failureRate + cancelledRate) code = u < failureRate + cancelledRate * 0.1 ? 5 : 4;
      else code = 0;
    }
    gCode[k] = code;
    gNetwork[k] = hash(3, k, 4) % networks.length;
    const plan = G_CODES[code]!;
    summary.gas[plan.status] += 1;
    if (plan.subStatus === 'not_enough_donor_balance') summary.gas.notEnoughDonorBalance += 1;
  }
  const pipelineCount = Math.ceil(n / BULK_GAS_PER_PIPELINE);
  for (let p = 0; p < pipelineCount; p += 1) {
    state.pipelines.set(pIds.idOf(p), {
      id: pIds.idOf(p),
      merchantId,
      status: 'finished',
      createdAt: (gTimes[p * BULK_GAS_PER_PIPELINE] as number) - 5 * SECOND,
    });
  }
  summary.pipelines = pipelineCount;
  const gas: BulkSegment<GasDistributionRecord> = {
    count: n,
    merchantId,
    idOf: (k) => gIds.idOf(k),
    indexOfId: (id) => gIds.rowOf(id, n),
    status: (k) => G_CODES[gCode[k] as number]!.status,
    materialize: (k) => {
      const plan = G_CODES[gCode[k] as number]!;
      const networkId = networks[gNetwork[k] as number]!;
      const donorCryptoId = state.donorCryptoByNetwork.get(networkId)!;
      const donor = state.crypto(donorCryptoId);
      const cancelled = plan.status === 'cancelled';
      const nothingSent = cancelled || plan.subStatus === 'not_enough_donor_balance';
      const createdAt = gTimes[k] as number;
      const delay = (plan.status === 'pending' ? 1 + (hash(3, k, 9) % 20) : 20 + (hash(3, k, 9) % 160)) * SECOND;
      return {
        id: gIds.idOf(k),
        merchantId,
        pipelineId: pIds.idOf(Math.floor(k / BULK_GAS_PER_PIPELINE)),
        networkId,
        status: plan.status,
        subStatus: plan.subStatus,
        targetAddress: `0x${hexString(3, k, 5, 40)}`,
        txHash: nothingSent ? '' : `0x${hexString(3, k, 6, 64)}`,
        topUp: cancelled ? null : state.gasWorth(networkId, 180 + (hash(3, k, 10) % 1200)).toString(),
        serviceFee: cancelled
          ? null
          : (BigInt(5 + (hash(3, k, 11) % 26)) * (donor.decimals >= 2 ? pow10(donor.decimals - 2) : 1n)).toString(),
        donorCryptoId,
        createdAt,
        updatedAt: Math.min(now, createdAt + delay),
      };
    },
  };
  // The id order without comparing strings: the ids' first 8 hex digits are a bijection of the row number.
  const heads = new Uint32Array(n);
  for (let k = 0; k < n; k += 1) heads[k] = gIds.head(k);
  heads.sort();
  const byId = new Uint32Array(n);
  for (let k = 0; k < n; k += 1) byId[k] = unscramble(heads[k] as number) - 3 * 2 ** 28;
  state.gas.loadBulk(gas, { id: byId, time: identity() });
  state.bulkPipelineRows = function* (pipelineId: string) {
    const p = pIds.rowOf(pipelineId, pipelineCount);
    if (p === undefined) return;
    for (let k = p * BULK_GAS_PER_PIPELINE; k < Math.min(n, (p + 1) * BULK_GAS_PER_PIPELINE); k += 1) {
      const handle = state.gas.bulkHandle(k);
      if (handle !== undefined) yield state.gas.peek(handle);
    }
  };
  return summary;
}
