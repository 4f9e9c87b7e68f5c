// Public entry of the payment API simulator: start it, point a client at `url`, and drive it from tests
// (clock, faults, request log, data). Nothing here is imported from outside dev/simulator: this is the far side
// of the wire.
import type { AddressInfo } from 'node:net';
import { type BulkHistoryOptions, type BulkHistorySummary, loadBulkHistory } from './bulk.js';
import { formatCents, formatUnits } from './money.js';
import {
  renderAsset,
  renderDeposit,
  renderEstimate,
  renderGasDistribution,
  renderInvoice,
  renderPayout,
  renderPayoutTask,
  renderSwap,
  renderWithdrawal,
} from './render.js';
import { API_KEYS, type SeedIds, seedState } from './seed.js';
import { createSimulatorServer, type Fault, FaultQueue, RateLimiter, type RequestLogEntry } from './server.js';
import type {
  AssetRecord,
  CreatePayoutAnswer,
  DepositRecord,
  GasDistributionRecord,
  InvoiceRecord,
  OperationName,
  PayoutTaskRecord,
  RecordKind,
  SwapRecord,
  WithdrawalRecord,
} from './types.js';
import { SimState, SimulatorStateError, type SwapTimings } from './world.js';

export type { BulkHistoryOptions, BulkHistorySummary } from './bulk.js';
export type { SeedIds } from './seed.js';
export type { Fault, RequestLogEntry } from './server.js';
export type * from './types.js';
export type { SwapTimings } from './world.js';
export { SimulatorStateError } from './world.js';

/** Options of startSimulator. */
export interface SimulatorOptions {
  /** Port to listen on; default 0 (a random free port). */
  port?: number;
  /** Host to bind; default 127.0.0.1. */
  host?: string;
  /** Base clock in epoch ms; default real time. advanceTime/setTime shift it by an offset either way. */
  now?: () => number;
  /** When API-created swaps move to in_progress / finished; default 2000 / 8000 ms of simulator time. */
  swapTimings?: SwapTimings;
  /** Load the seed dataset; default true. With false only the catalog, keys and merchant assets exist. */
  seed?: boolean;
  /** Print nothing; default true. With false one line per request goes to `print` (console.log by default). */
  quiet?: boolean;
  /** Requests per second allowed per operation and key; default 50 (the service's limit). Benchmarks raise it. */
  rateLimitPerSecond?: number;
  /** Sink for request lines when not quiet. */
  print?: (line: string) => void;
}

/** A running simulator and its test controls. */
export class PaymentsSimulator {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** The accepted API keys. */
  readonly keys = API_KEYS;
  /** The full-permission key of merchant A (same as keys.full). */
  readonly apiKey: string = API_KEYS.full;
  /** Fixed ids of the seed dataset. */
  readonly ids: SeedIds;

  /** @internal use startSimulator */
  constructor(
    private readonly state: SimState,
    private readonly faults: FaultQueue,
    private readonly log: RequestLogEntry[],
    private readonly clockOffset: { ms: number },
    private readonly baseClock: () => number,
    private readonly shutdown: () => Promise<void>,
    url: string,
    ids: SeedIds,
  ) {
    this.url = url;
    this.ids = ids;
  }

  // ---- lifecycle and clock ----------------------------------------------------------------------------------

  /** Stops the server and drops open connections. */
  close(): Promise<void> {
    return this.shutdown();
  }

  /** Simulator time in epoch ms. */
  now(): number {
    return this.state.now();
  }

  /** Moves simulator time forward (swap progress, estimate expiry and new records follow it; rate limits do not). */
  advanceTime(ms: number): void {
    this.clockOffset.ms += ms;
  }

  /** Sets simulator time to an absolute instant. */
  setTime(epochMs: number): void {
    this.clockOffset.ms = epochMs - this.baseClock();
  }

  // ---- faults and request log -------------------------------------------------------------------------------

  /** Makes the next `times` calls of `operation` misbehave (answer, delay, malformed JSON or dropped socket). */
  injectFault(operation: OperationName, fault: Fault, times = 1): void {
    this.faults.inject(operation, fault, times);
  }

  /** The whole API answers 503 for the next `ms` of real time (the local workspace's "API down" control). */
  takeDown(ms: number): void {
    this.faults.setOutage(performance.now() + ms);
  }

  /** Removes all pending faults. */
  clearFaults(): void {
    this.faults.clear();
  }

  /**
   * How create-payout answers from now on (docs/payments-api.md does not show its response): `full` (the record,
   * the default), `empty` (200 with no body), `no_id` (200, the record without its id) or `hang` (no answer: the
   * client times out). The container is created in every case.
   */
  answerCreatePayoutWith(answer: CreatePayoutAnswer): void {
    this.state.createPayoutAnswer = answer;
  }

  /** The payout containers of merchant A, oldest first (the API has no list of them). */
  payoutContainers(): Array<{ id: string; assetId: string; name: string; createdAt: number }> {
    return [...this.state.payouts.values()]
      .filter((payout) => payout.merchantId === this.state.defaultMerchantId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(({ id, assetId, name, createdAt }) => ({ id, assetId, name, createdAt }));
  }

  /** Every request answered so far, oldest first (no API keys stored). */
  get requests(): readonly RequestLogEntry[] {
    return this.log;
  }

  /** Number of logged requests, optionally of one operation. */
  requestCount(operation?: OperationName): number {
    return operation === undefined ? this.log.length : this.log.filter((entry) => entry.operation === operation).length;
  }

  /** Empties the request log. */
  resetRequests(): void {
    this.log.length = 0;
  }

  // ---- data -------------------------------------------------------------------------------------------------

  /** Adds a withdrawal (defaults: merchant A's first asset, pending, 100 tokens, now). */
  addWithdrawal(partial: Partial<WithdrawalRecord> = {}): WithdrawalRecord {
    return this.state.addWithdrawal(partial);
  }

  /** Patches a withdrawal (status success without txHash gets one). */
  updateWithdrawal(id: string, patch: Partial<WithdrawalRecord>): WithdrawalRecord {
    return this.state.updateWithdrawal(id, patch);
  }

  /**
   * The pending withdrawals and gas top-ups of merchant A, oldest first: what may be stuck. Rows of a bulk history
   * are left out (only those added one by one: seed, tests, the local workspace's controls).
   */
  pendingRows(): PendingRow[] {
    const s = this.state;
    const rows: PendingRow[] = [];
    for (const w of s.withdrawals.objectRows()) {
      if (w.status !== 'pending' || w.merchantId !== s.defaultMerchantId) continue;
      const { crypto, network } = s.assetCurrency(s.asset(w.assetId));
      const amount = `${formatUnits(BigInt(w.amount), crypto.decimals)} ${crypto.symbol}`;
      rows.push({ kind: 'withdrawal', id: w.id, createdAt: w.createdAt, what: `${amount} on ${network.title}` });
    }
    for (const g of s.gas.objectRows()) {
      if (g.status !== 'pending' || g.merchantId !== s.defaultMerchantId) continue;
      const what = `gas to ${g.targetAddress.slice(0, 8)}… on ${s.network(g.networkId).title}`;
      rows.push({ kind: 'gas', id: g.id, createdAt: g.createdAt, what });
    }
    return rows.sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Moves a pending withdrawal or gas top-up to `success` with a transaction hash, as the chain confirming it
   * would; throws when the row is unknown or no longer pending.
   */
  completePending(kind: PendingRow['kind'], id: string): WithdrawalRecord | GasDistributionRecord {
    const s = this.state;
    const row = kind === 'withdrawal' ? s.withdrawals.get(id) : s.gas.get(id);
    if (row === undefined) throw new SimulatorStateError(`unknown ${kind === 'gas' ? 'gas top-up' : kind} ${id}`);
    if (row.status !== 'pending') throw new SimulatorStateError(`${kind} ${id} is ${row.status}, not pending`);
    if (kind === 'withdrawal') return s.updateWithdrawal(id, { status: 'success' });
    const txHash = (row as GasDistributionRecord).txHash || s.random.txHash();
    return s.updateGasDistribution(id, { status: 'success', subStatus: 'sent', txHash, updatedAt: s.now() });
  }

  /** Adds a payout task (defaults: newest payout of the asset, success, 500 tokens, now: top of the list). */
  addPayoutTask(partial: Partial<PayoutTaskRecord> = {}): PayoutTaskRecord {
    return this.state.addPayoutTask(partial);
  }

  /** Patches a payout task. */
  updatePayoutTask(id: string, patch: Partial<PayoutTaskRecord>): PayoutTaskRecord {
    return this.state.updatePayoutTask(id, patch);
  }

  /** Adds a gas distribution (defaults: Ethereum, success, new pipeline, now; pass `id` to control its list position). */
  addGasDistribution(partial: Partial<GasDistributionRecord> = {}): GasDistributionRecord {
    return this.state.addGasDistribution(partial);
  }

  /** Patches a gas distribution. */
  updateGasDistribution(id: string, patch: Partial<GasDistributionRecord>): GasDistributionRecord {
    return this.state.updateGasDistribution(id, patch);
  }

  /** Adds a deposit (defaults: merchant A's first asset, success, 250 tokens, now). */
  addDeposit(partial: Partial<DepositRecord> = {}): DepositRecord {
    return this.state.addDeposit(partial);
  }

  /** Adds an invoice (defaults: 49.99 USD, no currency chosen, pending, expires in an hour). */
  addInvoice(partial: Partial<InvoiceRecord> = {}): InvoiceRecord {
    return this.state.addInvoice(partial);
  }

  /**
   * Moves an invoice out of `pending` as a payment would: any status (`paid`, `partially_paid`, `overpaid`,
   * `expired`, or one the spec never names), optionally with the amounts the API reports afterwards (`usdCents`,
   * `cryptoAmount` in base units). The local workspace's "An invoice gets paid" control uses it. Throws for an
   * unknown invoice.
   */
  setInvoiceStatus(id: string, status: string, amounts?: { usdCents?: string; cryptoAmount?: string }): InvoiceRecord {
    return this.state.setInvoiceStatus(id, status, amounts);
  }

  /** Merchant A's invoices still `pending`, newest first (what the workspace's control can mark paid). */
  pendingInvoices(): Array<{
    id: string;
    productTitle: string;
    usdAmount: string;
    createdAt: number;
    expiredAt: number;
  }> {
    const s = this.state;
    return [...s.invoices.values()]
      .filter((invoice) => invoice.status === 'pending' && invoice.merchantId === s.defaultMerchantId)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((invoice) => ({
        id: invoice.id,
        productTitle: invoice.productTitle,
        usdAmount: formatCents(BigInt(invoice.usdCents)),
        createdAt: invoice.createdAt,
        expiredAt: invoice.expiredAt,
      }));
  }

  /** Forces a swap state: finished credits the target, rejected refunds the source. */
  advanceSwap(id: string, status: 'in_progress' | 'finished' | 'rejected'): SwapRecord {
    this.state.advanceSwaps();
    return this.state.setSwapStatus(id, status);
  }

  /**
   * Adds a long history (benchmarks): `rowsPerKind` withdrawals, payout tasks and gas distributions of merchant A
   * spread over `spanDays` (default 30) before now, `failureRate` (default 5 %) of them failed, a few pending
   * in the last day, some gas rows cancelled or short of donor balance. Rows are kept as compact columns and
   * served through indexes, so 1M of each kind load in seconds and list pages stay fast. Once per simulator.
   */
  loadBulkHistory(options: BulkHistoryOptions): BulkHistorySummary {
    return loadBulkHistory(this.state, options);
  }

  /** Merchant A's assets with their balances (base units), for the local workspace's controls. */
  merchantAssets(): Array<{ id: string; symbol: string; network: string; decimals: number; balance: bigint }> {
    const s = this.state;
    return [...s.assets.values()]
      .filter((asset) => asset.merchantId === s.defaultMerchantId)
      .map((asset) => {
        const { crypto, network } = s.assetCurrency(asset);
        return {
          id: asset.id,
          symbol: crypto.symbol,
          network: network.symbol,
          decimals: crypto.decimals,
          balance: BigInt(asset.balance),
        };
      });
  }

  /** Sets an asset balance in base units. */
  setAssetBalance(assetId: string, baseUnits: bigint | string): AssetRecord {
    return this.state.setAssetBalance(assetId, baseUnits);
  }

  /** The JSON the API would return for a record to its owner (get-operation shape), or undefined. */
  getRaw(kind: RecordKind, id: string): Record<string, unknown> | undefined {
    this.state.advanceSwaps();
    const s = this.state;
    switch (kind) {
      case 'invoice':
        return mapMaybe(s.invoices.get(id), (r) => renderInvoice(s, r));
      case 'asset':
        return mapMaybe(s.assets.get(id), (r) => renderAsset(s, r, { single: true }));
      case 'withdrawal':
        return mapMaybe(s.withdrawals.get(id), (r) => renderWithdrawal(s, r));
      case 'estimate':
        return mapMaybe(s.estimates.get(id), (r) => renderEstimate(r));
      case 'swap':
        return mapMaybe(s.swaps.get(id), (r) => renderSwap(s, r, { withFee: true }));
      case 'payout':
        return mapMaybe(s.payouts.get(id), (r) => renderPayout(r));
      case 'task':
        return mapMaybe(s.tasks.get(id), (r) => renderPayoutTask(s, r));
      case 'deposit':
        return mapMaybe(s.deposits.get(id), (r) => renderDeposit(s, r));
      case 'gas':
        return mapMaybe(s.gas.get(id), (r) => renderGasDistribution(s, r));
    }
  }

  /** The internal record (base-unit strings, epoch-ms times), or undefined. A live object: mutate with care. */
  getRecord(kind: RecordKind, id: string): unknown {
    this.state.advanceSwaps();
    return this.state.mapOf(kind).get(id);
  }
}

/** A pending withdrawal or gas top-up (see {@link PaymentsSimulator.pendingRows}). */
export interface PendingRow {
  kind: 'withdrawal' | 'gas';
  id: string;
  /** Epoch ms. */
  createdAt: number;
  /** In words: "100 USDT on Ethereum", "gas to 0x12ab34… on Tron". */
  what: string;
}

function mapMaybe<T>(
  record: T | undefined,
  render: (record: T) => Record<string, unknown>,
): Record<string, unknown> | undefined {
  return record === undefined ? undefined : render(record);
}

/** Starts a simulator on a real HTTP port and returns its controls. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<PaymentsSimulator> {
  const baseClock = options.now ?? Date.now;
  const offset = { ms: 0 };
  const swapTimings = options.swapTimings ?? { inProgressAfterMs: 2000, finishedAfterMs: 8000 };
  if (swapTimings.finishedAfterMs < swapTimings.inProgressAfterMs) {
    throw new SimulatorStateError('swapTimings.finishedAfterMs must not be before inProgressAfterMs');
  }
  const state = new SimState(() => baseClock() + offset.ms, swapTimings);
  const ids = seedState(state, { records: options.seed ?? true });
  const faults = new FaultQueue();
  const log: RequestLogEntry[] = [];
  const quiet = options.quiet ?? true;
  const { server, dispose } = createSimulatorServer({
    state,
    faults,
    rateLimiter: new RateLimiter(options.rateLimitPerSecond ?? 50, 1000),
    log,
    ...(quiet ? {} : { print: options.print ?? ((line: string) => console.log(line)) }),
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      dispose();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return new PaymentsSimulator(state, faults, log, offset, baseClock, shutdown, `http://${urlHost}:${port}`, ids);
}
