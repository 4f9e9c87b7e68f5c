// The simulator's world, in memory: the catalog (networks, cryptos), merchants' records, and the rules that move
// records on their own (swaps advancing with the simulator clock). Add-methods take partial records and fill
// realistic defaults, so the seed and tests share one path.
import { randomUUID } from 'node:crypto';
import { baseUnitsForUsdCents, bpsOf, formatCents, parseUnits, usdCentsOf } from './money.js';
import { Random } from './random.js';
import { RecordTable, type TableOrder } from './table.js';
import { effectiveMs } from './time.js';
import type {
  ApiKeyRecord,
  AssetRecord,
  CreatePayoutAnswer,
  CryptoRecord,
  DepositRecord,
  EstimateRecord,
  GasDistributionRecord,
  GasPipelineRecord,
  InvoiceRecord,
  NetworkRecord,
  PayoutRecord,
  PayoutTaskRecord,
  RecordKind,
  SwapRecord,
  SwapStatus,
  WithdrawalRecord,
} from './types.js';

/** When API-created swaps move on: ms after creation. */
export interface SwapTimings {
  inProgressAfterMs: number;
  finishedAfterMs: number;
}

/** Swap routing rules: which pairs have no route, the liquidity cap, service ids and spreads. */
export interface SwapConfig {
  /** `${cryptoIdFrom}>${cryptoIdTo}` pairs that are configured but have no route. */
  noRoutePairs: Set<string>;
  /** Above this USD value of the source amount no route has the liquidity. */
  liquidityCapUsdCents: bigint;
  /** Same-network routes go through this DEX per network id. */
  dexServiceIds: Map<string, string>;
  /** Cross-network routes go through a CEX. */
  cexServiceId: string;
  spreadBps: { dex: number; cex: number };
}

/** Estimates expire after 30 minutes of simulator time. */
export const ESTIMATE_TTL_MS = 30 * 60 * 1000;

/** Thrown by control methods on bad input (unknown ids, impossible transitions). */
export class SimulatorStateError extends Error {
  readonly code = 'simulator_invalid_control';
  override name = 'SimulatorStateError';
}

type Maybe<T> = T | undefined;

/** What a by-id read needs: a Map or a RecordTable. */
export interface RecordLookup<T> {
  get(id: string): T | undefined;
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The withdrawal list's order, ascending (the list shows it reversed): createdAt, then id. */
const WITHDRAWAL_ORDER: TableOrder<WithdrawalRecord> = {
  compare: (a, b) => a.createdAt - b.createdAt || byId(a.id, b.id),
  groups: (row) => [row.merchantId],
};

/** The task list's order, ascending (the list shows it reversed): the instant createdAt shows, then id. */
const TASK_ORDER: TableOrder<PayoutTaskRecord> = {
  compare: (a, b) => effectiveMs(a.id, a.createdAt) - effectiveMs(b.id, b.createdAt) || byId(a.id, b.id),
  groups: (row) => [`${row.merchantId}|all`, `${row.merchantId}|status:${row.status}`],
};

/** The gas list's order (by id); `default` is what the list shows without a status (no cancelled rows). */
const GAS_ID_ORDER: TableOrder<GasDistributionRecord> = {
  compare: (a, b) => byId(a.id, b.id),
  groups: (row) =>
    row.status === 'cancelled'
      ? [`${row.merchantId}|status:cancelled`]
      : [`${row.merchantId}|default`, `${row.merchantId}|status:${row.status}`],
};

/** Gas rows by the instant createdAt shows (for createdAtFrom/To windows). */
const GAS_TIME_ORDER: TableOrder<GasDistributionRecord> = {
  compare: (a, b) => effectiveMs(a.id, a.createdAt) - effectiveMs(b.id, b.createdAt) || byId(a.id, b.id),
  groups: (row) => [row.merchantId],
};

/** The whole mutable world of one simulator instance. */
export class SimState {
  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly networks = new Map<string, NetworkRecord>();
  readonly cryptos = new Map<string, CryptoRecord>();
  readonly assets = new Map<string, AssetRecord>();
  readonly invoices = new Map<string, InvoiceRecord>();
  /** Withdrawals, indexed newest first per merchant (the withdrawal list's order). */
  readonly withdrawals = new RecordTable<WithdrawalRecord, 'key'>({ key: WITHDRAWAL_ORDER });
  readonly estimates = new Map<string, EstimateRecord>();
  readonly swaps = new Map<string, SwapRecord>();
  readonly payouts = new Map<string, PayoutRecord>();
  /** Payout tasks, indexed by the task list's order per merchant and per merchant and status. */
  readonly tasks = new RecordTable<PayoutTaskRecord, 'key'>({ key: TASK_ORDER });
  readonly deposits = new Map<string, DepositRecord>();
  readonly pipelines = new Map<string, GasPipelineRecord>();
  /** Gas distributions, indexed by id (the list's order) per merchant and status, and by time per merchant. */
  readonly gas = new RecordTable<GasDistributionRecord, 'id' | 'time'>({ id: GAS_ID_ORDER, time: GAS_TIME_ORDER });
  /** Ids of the object gas rows of each pipeline (bulk rows are found from the pipeline's bulk range). */
  readonly gasByPipeline = new Map<string, Set<string>>();
  /** Resolves the rows of a bulk pipeline (set by loadBulkHistory). */
  bulkPipelineRows: ((pipelineId: string) => Iterable<GasDistributionRecord>) | undefined;
  /** Lists whose candidate rows (after group and time window) number at most this are filtered and sorted whole. */
  listScanLimit = 2000;
  /** How create-payout answers (its response is not in docs/payments-api.md): see CreatePayoutAnswer. */
  createPayoutAnswer: CreatePayoutAnswer = 'full';
  /** Gas liquidity (donor) stablecoin per network id. */
  readonly donorCryptoByNetwork = new Map<string, string>();
  /** Deterministic source for addresses and hashes. */
  readonly random = new Random(0xc0ffee);
  /** Merchant used when a partial record names none. */
  defaultMerchantId = '';
  /** Swap routing rules (filled by the seed). */
  readonly swapConfig: SwapConfig = {
    noRoutePairs: new Set<string>(),
    liquidityCapUsdCents: 25_000_000n,
    dexServiceIds: new Map<string, string>(),
    cexServiceId: 'cex_binance',
    spreadBps: { dex: 30, cex: 50 },
  };

  constructor(
    readonly now: () => number,
    readonly swapTimings: SwapTimings,
  ) {}

  // ---- catalog lookups -------------------------------------------------------------------------------------

  /** Crypto by id, or throws. */
  crypto(id: string): CryptoRecord {
    const crypto = this.cryptos.get(id);
    if (!crypto) throw new SimulatorStateError(`unknown crypto ${id}`);
    return crypto;
  }

  /** Network by id, or throws. */
  network(id: string): NetworkRecord {
    const network = this.networks.get(id);
    if (!network) throw new SimulatorStateError(`unknown network ${id}`);
    return network;
  }

  /** Asset by id regardless of merchant, or throws. */
  asset(id: string): AssetRecord {
    const asset = this.assets.get(id);
    if (!asset) throw new SimulatorStateError(`unknown asset ${id}`);
    return asset;
  }

  /** Crypto and network of an asset. */
  assetCurrency(asset: AssetRecord): { crypto: CryptoRecord; network: NetworkRecord } {
    const crypto = this.crypto(asset.cryptoId);
    return { crypto, network: this.network(crypto.networkId) };
  }

  /** Native coin (gas currency) of a network. */
  nativeCrypto(networkId: string): CryptoRecord {
    return this.crypto(this.network(networkId).nativeCryptoId);
  }

  /** A record of `map` when it belongs to `merchantId`; records of other merchants look absent. */
  owned<T extends { merchantId: string }>(map: RecordLookup<T>, merchantId: string, id: string): Maybe<T> {
    const record = map.get(id);
    return record && record.merchantId === merchantId ? record : undefined;
  }

  /** The map holding records of a kind. */
  mapOf(kind: RecordKind): RecordLookup<{ id: string; merchantId: string }> {
    const maps = {
      invoice: this.invoices,
      asset: this.assets,
      withdrawal: this.withdrawals,
      estimate: this.estimates,
      swap: this.swaps,
      payout: this.payouts,
      task: this.tasks,
      deposit: this.deposits,
      gas: this.gas,
    } satisfies Record<RecordKind, RecordLookup<{ id: string; merchantId: string }>>;
    return maps[kind];
  }

  // ---- money helpers ---------------------------------------------------------------------------------------

  /** USD value (decimal string, cents) of base units of a crypto. */
  usd(cryptoId: string, base: bigint | string): string {
    const crypto = this.crypto(cryptoId);
    return formatCents(usdCentsOf(BigInt(base), crypto.decimals, crypto.priceUsd));
  }

  /** Service fee of an asset for an amount: feePercent of the amount plus feeUsd worth of the crypto. */
  assetServiceFee(asset: AssetRecord, amount: bigint): bigint {
    const crypto = this.crypto(asset.cryptoId);
    const percentBps = Number(parseUnits(asset.feePercent, 2));
    const fixed = baseUnitsForUsdCents(parseUnits(asset.feeUsd, 2), crypto.decimals, crypto.priceUsd);
    return bpsOf(amount, percentBps) + fixed;
  }

  /** Gas worth `usdCents` on a network, in base units of its native coin (default about 1.50 USD a transaction). */
  gasWorth(networkId: string, usdCents: number = 150): bigint {
    const native = this.nativeCrypto(networkId);
    return baseUnitsForUsdCents(BigInt(usdCents), native.decimals, native.priceUsd);
  }

  // ---- add / update ----------------------------------------------------------------------------------------

  /** Adds an asset (seed use). */
  addAsset(partial: Partial<AssetRecord> & { cryptoId: string }): AssetRecord {
    this.crypto(partial.cryptoId);
    const asset: AssetRecord = {
      id: randomUUID(),
      merchantId: this.defaultMerchantId,
      wallet: this.random.address(),
      feePercent: '0.5',
      feeUsd: '0.10',
      balance: '0',
      locked: '0',
      createdAt: this.now(),
      ...partial,
    };
    this.assets.set(asset.id, asset);
    return asset;
  }

  /** Sets the balance of an asset in base units. */
  setAssetBalance(assetId: string, baseUnits: bigint | string): AssetRecord {
    const asset = this.asset(assetId);
    const value = BigInt(baseUnits);
    if (value < 0n) throw new SimulatorStateError('balance cannot be negative');
    asset.balance = value.toString();
    return asset;
  }

  /** Adds an invoice; with an asset and no cryptoAmount, the amount is priced from usdCents. */
  addInvoice(partial: Partial<InvoiceRecord> = {}): InvoiceRecord {
    const createdAt = partial.createdAt ?? this.now();
    const usdCents = partial.usdCents ?? '4999';
    const assetId = partial.assetId ?? null;
    let cryptoAmount = partial.cryptoAmount ?? null;
    if (assetId !== null && cryptoAmount === null) {
      const crypto = this.crypto(this.asset(assetId).cryptoId);
      cryptoAmount = baseUnitsForUsdCents(BigInt(usdCents), crypto.decimals, crypto.priceUsd).toString();
    }
    const invoice: InvoiceRecord = {
      id: randomUUID(),
      merchantId: assetId ? this.asset(assetId).merchantId : this.defaultMerchantId,
      status: 'pending',
      usdCents,
      productTitle: 'Test product',
      extraData: null,
      address: assetId ? this.random.address() : null,
      expiredAt: createdAt + 3600 * 1000,
      ...partial,
      assetId,
      cryptoAmount,
      createdAt,
    };
    this.invoices.set(invoice.id, invoice);
    return invoice;
  }

  /**
   * Moves an invoice to `status`, any value (the spec shows only `pending`: `paid`, `partially_paid`, `overpaid`,
   * `expired`… are what a payment might make of it), optionally with the amounts the API then reports: `usdCents`
   * (the USD amount in cents) and `cryptoAmount` (base units of its currency). Throws for an unknown invoice.
   */
  setInvoiceStatus(
    id: string,
    status: string,
    amounts: { usdCents?: string; cryptoAmount?: string } = {},
  ): InvoiceRecord {
    const invoice = this.invoices.get(id);
    if (!invoice) throw new SimulatorStateError(`unknown invoice ${id}`);
    if (status.trim() === '') throw new SimulatorStateError('an invoice status cannot be empty');
    if (amounts.usdCents !== undefined && !/^\d+$/.test(amounts.usdCents))
      throw new SimulatorStateError('usdCents must be a whole number of cents');
    if (amounts.cryptoAmount !== undefined && !/^\d+$/.test(amounts.cryptoAmount))
      throw new SimulatorStateError('cryptoAmount must be base units (an unsigned integer string)');
    invoice.status = status;
    if (amounts.usdCents !== undefined) invoice.usdCents = amounts.usdCents;
    if (amounts.cryptoAmount !== undefined) invoice.cryptoAmount = amounts.cryptoAmount;
    return invoice;
  }

  /** Adds a withdrawal; a `success` one gets a txHash unless one is given. */
  addWithdrawal(partial: Partial<WithdrawalRecord> = {}): WithdrawalRecord {
    const asset = this.asset(partial.assetId ?? this.firstAssetOf(partial.merchantId));
    const crypto = this.crypto(asset.cryptoId);
    const status = partial.status ?? 'pending';
    const amount = partial.amount ?? parseUnits('100', crypto.decimals).toString();
    const withdrawal: WithdrawalRecord = {
      id: randomUUID(),
      merchantId: asset.merchantId,
      assetId: asset.id,
      status,
      address: this.random.address(),
      amount,
      isPrivate: false,
      serviceFee: this.assetServiceFee(asset, BigInt(amount)).toString(),
      txHash: status === 'success' ? this.random.txHash() : null,
      createdAt: this.now(),
      ...partial,
    };
    return this.withdrawals.add(withdrawal);
  }

  /** Patches a withdrawal; moving to `success` sets a txHash unless the patch gives one. */
  updateWithdrawal(id: string, patch: Partial<WithdrawalRecord>): WithdrawalRecord {
    const withdrawal = this.mustGet(this.withdrawals, id, 'withdrawal');
    if (patch.status === 'success' && patch.txHash === undefined && withdrawal.txHash === null) {
      patch = { ...patch, txHash: this.random.txHash() };
    }
    const change = patch;
    return this.withdrawals.update(id, (row) => Object.assign(row, change, { id }))!;
  }

  /** Adds a swap record directly (seed use); API swaps go through createSwapFromEstimate. */
  addSwap(partial: Partial<SwapRecord> & { assetIdFrom: string; assetIdTo: string; amountFrom: string }): SwapRecord {
    const from = this.asset(partial.assetIdFrom);
    const to = this.asset(partial.assetIdTo);
    const crossNetwork = this.crypto(from.cryptoId).networkId !== this.crypto(to.cryptoId).networkId;
    const estimatedAmount = partial.estimatedAmount ?? '0';
    const swap: SwapRecord = {
      id: randomUUID(),
      merchantId: from.merchantId,
      estimatedAmount,
      routeType: crossNetwork ? 'cex' : 'dex',
      status: 'new',
      amountTo: null,
      amountFromInUsd: null,
      amountToInUsd: null,
      hashFrom: null,
      hashTo: null,
      gasFrom: this.gasWorth(this.crypto(from.cryptoId).networkId, 300).toString(),
      gasTo: crossNetwork ? this.gasWorth(this.crypto(to.cryptoId).networkId).toString() : null,
      serviceFee: bpsOf(BigInt(partial.amountFrom), 20).toString(),
      createdAt: this.now(),
      autoAdvance: false,
      ...partial,
    };
    this.swaps.set(swap.id, swap);
    return swap;
  }

  /** Moves a swap to a new state: finishing fills amountTo/hashes/USD and credits the target asset, rejecting refunds the source. */
  setSwapStatus(id: string, status: Exclude<SwapStatus, 'new'>): SwapRecord {
    const swap = this.mustGet(this.swaps, id, 'swap');
    if (swap.status === status) return swap;
    if (swap.status === 'finished' || swap.status === 'rejected') {
      throw new SimulatorStateError(`swap ${id} is already ${swap.status}`);
    }
    const from = this.asset(swap.assetIdFrom);
    const to = this.asset(swap.assetIdTo);
    if (status === 'finished') {
      swap.amountTo = swap.estimatedAmount;
      swap.hashFrom = this.random.txHash();
      swap.hashTo = this.random.txHash();
      swap.amountFromInUsd = this.usd(from.cryptoId, swap.amountFrom);
      swap.amountToInUsd = this.usd(to.cryptoId, swap.amountTo);
      to.balance = (BigInt(to.balance) + BigInt(swap.amountTo)).toString();
    } else if (status === 'rejected') {
      swap.amountTo = null;
      from.balance = (BigInt(from.balance) + BigInt(swap.amountFrom)).toString();
    }
    swap.status = status;
    return swap;
  }

  /** Applies clock-driven swap progress; called before every request is handled (lazy advancement). */
  advanceSwaps(): void {
    const now = this.now();
    for (const swap of this.swaps.values()) {
      if (!swap.autoAdvance || swap.status === 'finished' || swap.status === 'rejected') continue;
      const elapsed = now - swap.createdAt;
      if (elapsed >= this.swapTimings.finishedAfterMs) this.setSwapStatus(swap.id, 'finished');
      else if (elapsed >= this.swapTimings.inProgressAfterMs && swap.status === 'new') {
        this.setSwapStatus(swap.id, 'in_progress');
      }
    }
  }

  /** Adds a payout container. */
  addPayout(partial: Partial<PayoutRecord> = {}): PayoutRecord {
    const asset = this.asset(partial.assetId ?? this.firstAssetOf(partial.merchantId));
    const payout: PayoutRecord = {
      id: randomUUID(),
      merchantId: asset.merchantId,
      assetId: asset.id,
      name: 'Payout',
      status: 'new',
      createdAt: this.now(),
      ...partial,
    };
    this.payouts.set(payout.id, payout);
    return payout;
  }

  /** Adds a payout task; without payoutId it joins the newest payout of its asset (created when none). */
  addPayoutTask(partial: Partial<PayoutTaskRecord> = {}): PayoutTaskRecord {
    const payout = partial.payoutId
      ? this.mustGet(this.payouts, partial.payoutId, 'payout')
      : this.newestPayoutFor(partial.assetId ?? this.firstAssetOf(partial.merchantId));
    const asset = this.asset(partial.assetId ?? payout.assetId);
    const crypto = this.crypto(asset.cryptoId);
    const status = partial.status ?? 'success';
    const type = partial.type ?? 'multi_tx';
    const targetsCount = partial.targetsCount ?? (type === 'single_tx' ? 1 : 10);
    const amount = partial.amount ?? parseUnits('500', crypto.decimals).toString();
    const subStatus = { success: 'payout_sent', pending: 'transfer_sent', failed: 'payout_failed' }[status];
    const task: PayoutTaskRecord = {
      id: randomUUID(),
      merchantId: asset.merchantId,
      payoutId: payout.id,
      assetId: asset.id,
      type,
      status,
      subStatus,
      amount,
      transferTxHash: this.random.txHash(),
      payoutTxHash: this.random.txHash(),
      targetsCount,
      gasAmount: this.gasWorth(crypto.networkId, 150 * (2 + targetsCount)).toString(),
      serviceFee: this.assetServiceFee(asset, BigInt(amount)).toString(),
      createdAt: this.now(),
      ...partial,
    };
    return this.tasks.add(task);
  }

  /** Patches a payout task. */
  updatePayoutTask(id: string, patch: Partial<PayoutTaskRecord>): PayoutTaskRecord {
    this.mustGet(this.tasks, id, 'task');
    return this.tasks.update(id, (row) => Object.assign(row, patch, { id }))!;
  }

  /** Adds a deposit. */
  addDeposit(partial: Partial<DepositRecord> = {}): DepositRecord {
    const asset = this.asset(partial.assetId ?? this.firstAssetOf(partial.merchantId));
    const crypto = this.crypto(asset.cryptoId);
    const amount = partial.amount ?? parseUnits('250', crypto.decimals).toString();
    const deposit: DepositRecord = {
      id: randomUUID(),
      merchantId: asset.merchantId,
      assetId: asset.id,
      status: 'success',
      amount,
      txHash: this.random.txHash(),
      txFrom: this.random.address(),
      serviceFee: this.assetServiceFee(asset, BigInt(amount)).toString(),
      legacyNoUsd: false,
      createdAt: this.now(),
      ...partial,
    };
    this.deposits.set(deposit.id, deposit);
    return deposit;
  }

  /** Adds a gas pipeline. */
  addGasPipeline(partial: Partial<GasPipelineRecord> = {}): GasPipelineRecord {
    const pipeline: GasPipelineRecord = {
      id: randomUUID(),
      merchantId: this.defaultMerchantId,
      status: 'finished',
      createdAt: this.now(),
      ...partial,
    };
    this.pipelines.set(pipeline.id, pipeline);
    return pipeline;
  }

  /** Adds a gas distribution; cancelled rows get null topUp/serviceFee, and a new pipeline is made when none is named. */
  addGasDistribution(partial: Partial<GasDistributionRecord> = {}): GasDistributionRecord {
    const createdAt = partial.createdAt ?? this.now();
    const pipeline = partial.pipelineId
      ? this.mustGet(this.pipelines, partial.pipelineId, 'gas pipeline')
      : this.addGasPipeline({ merchantId: partial.merchantId ?? this.defaultMerchantId, createdAt: createdAt - 5000 });
    const networkId = partial.networkId ?? [...this.networks.keys()][0] ?? '';
    const status = partial.status ?? 'success';
    const subStatus =
      partial.subStatus !== undefined
        ? partial.subStatus
        : { success: 'sent', pending: null, failed: 'not_enough_donor_balance', cancelled: 'enough_balance' }[status];
    const nothingSent = status === 'cancelled' || subStatus === 'not_enough_donor_balance';
    const donorCryptoId = partial.donorCryptoId ?? this.donorCryptoByNetwork.get(networkId);
    if (!donorCryptoId) throw new SimulatorStateError(`no donor stablecoin for network ${networkId}`);
    const donor = this.crypto(donorCryptoId);
    const row: GasDistributionRecord = {
      id: randomUUID(),
      merchantId: pipeline.merchantId,
      pipelineId: pipeline.id,
      networkId,
      status,
      subStatus,
      targetAddress: this.random.address(),
      txHash: nothingSent ? '' : this.random.txHash(),
      topUp: status === 'cancelled' ? null : this.gasWorth(networkId, 600).toString(),
      serviceFee: status === 'cancelled' ? null : parseUnits('0.10', donor.decimals).toString(),
      donorCryptoId,
      updatedAt: createdAt + 42_000,
      ...partial,
      createdAt,
    };
    this.network(row.networkId);
    const replaced = this.gas.get(row.id);
    if (replaced) this.gasByPipeline.get(replaced.pipelineId)?.delete(row.id);
    this.gas.add(row);
    this.notePipelineRow(row);
    return row;
  }

  /** Patches a gas distribution. */
  updateGasDistribution(id: string, patch: Partial<GasDistributionRecord>): GasDistributionRecord {
    const before = this.mustGet(this.gas, id, 'gas distribution');
    this.gasByPipeline.get(before.pipelineId)?.delete(id);
    // A row that changes (its status or sub-status) says when, as the service's updatedAt does.
    const changed =
      (patch.status !== undefined && patch.status !== before.status) ||
      (patch.subStatus !== undefined && patch.subStatus !== before.subStatus);
    const stamp = patch.updatedAt === undefined && changed ? { updatedAt: this.now() } : {};
    const row = this.gas.update(id, (record) => Object.assign(record, patch, stamp, { id }))!;
    this.notePipelineRow(row);
    return row;
  }

  /** The gas rows of a pipeline (object rows and, for a bulk pipeline, its bulk rows). */
  *gasRowsOfPipeline(pipelineId: string): IterableIterator<GasDistributionRecord> {
    const seen = new Set<string>();
    for (const id of this.gasByPipeline.get(pipelineId) ?? []) {
      const row = this.gas.get(id);
      if (row && row.pipelineId === pipelineId) {
        seen.add(id);
        yield row;
      }
    }
    for (const row of this.bulkPipelineRows?.(pipelineId) ?? []) {
      if (row.pipelineId === pipelineId && !seen.has(row.id)) yield row;
    }
  }

  private notePipelineRow(row: GasDistributionRecord): void {
    if (this.bulkPipelineRows && this.gas.isBulkId(row.id)) return;
    let ids = this.gasByPipeline.get(row.pipelineId);
    if (!ids) {
      ids = new Set();
      this.gasByPipeline.set(row.pipelineId, ids);
    }
    ids.add(row.id);
  }

  // ---- internals -------------------------------------------------------------------------------------------

  private mustGet<T>(map: RecordLookup<T>, id: string, what: string): T {
    const record = map.get(id);
    if (!record) throw new SimulatorStateError(`unknown ${what} ${id}`);
    return record;
  }

  private firstAssetOf(merchantId: string | undefined): string {
    const owner = merchantId ?? this.defaultMerchantId;
    for (const asset of this.assets.values()) if (asset.merchantId === owner) return asset.id;
    throw new SimulatorStateError(`merchant ${owner} has no asset`);
  }

  private newestPayoutFor(assetId: string): PayoutRecord {
    let newest: PayoutRecord | undefined;
    for (const payout of this.payouts.values()) {
      if (payout.assetId === assetId && (!newest || payout.createdAt >= newest.createdAt)) newest = payout;
    }
    return newest ?? this.addPayout({ assetId, name: 'Ad-hoc payout', createdAt: this.now() });
  }
}
