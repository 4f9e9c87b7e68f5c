import { type Logger, silentLogger } from '../logger.js';
import { createPaymentsRequest, type PaymentsHttpOptions, type PaymentsRequest } from './http.js';
import {
  type Asset,
  AssetList,
  AssetWithWithdrawable,
  type CursorPage,
  Deposit,
  type GasDistribution,
  GasDistributionPage,
  Invoice,
  PayoutCreated,
  PayoutTask,
  PayoutTaskPage,
  Swap,
  SwapEstimate,
  Withdrawal,
  WithdrawalPage,
} from './schemas.js';

/** Body of create-invoice (USD). */
export interface CreateInvoiceInput {
  usdAmountInCents: bigint;
  assetId?: string;
  productTitle?: string;
  extraData?: string;
  /** Seconds, at most 86400. */
  paymentDelayTime?: number;
}

/** Body of create-invoice-by-crypto. */
export interface CreateInvoiceByCryptoInput {
  /** Base units of the asset's crypto. */
  cryptoAmount: bigint;
  assetId: string;
  productTitle?: string;
  extraData?: string;
  paymentDelayTime?: number;
}

/** Filters of the payout task list. */
export interface PayoutTaskFilters {
  status?: string;
  assetId?: string;
  payoutId?: string;
  createdAtFrom?: Date;
  createdAtTo?: Date;
}

/** Filters of the gas manager list. `status: 'cancelled'` is the only way to see cancelled rows. */
export interface GasDistributionFilters {
  status?: string;
  networkId?: string;
  createdAtFrom?: Date;
  createdAtTo?: Date;
}

/** A page of withdrawals (page-number pagination, newest first). */
export interface WithdrawalListPage {
  items: Withdrawal[];
  totalCount: number;
  page: number;
  perPage: number;
}

/** Maximum of paymentDelayTime in seconds (docs/payments-api.md#overview). */
export const MAX_PAYMENT_DELAY_SECONDS = 86_400;

/** The format of createdAtFrom/To: ISO-8601 with an explicit offset (docs/payments-api.md#timestamps). */
function formatIsoWithOffset(date: Date): string {
  return date.toISOString().replace(/Z$/, '+00:00');
}

/** The createdAtFrom/To query parameters of the cursor lists. */
function createdAtRange(filters: { createdAtFrom?: Date; createdAtTo?: Date }) {
  return {
    createdAtFrom: filters.createdAtFrom && formatIsoWithOffset(filters.createdAtFrom),
    createdAtTo: filters.createdAtTo && formatIsoWithOffset(filters.createdAtTo),
  };
}

function centsAsJsonInteger(cents: bigint): number {
  if (cents <= 0n || cents > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('usdAmountInCents out of range');
  return Number(cents);
}

function checkPaymentDelay(seconds: number | undefined): void {
  if (seconds !== undefined && !(Number.isInteger(seconds) && seconds > 0 && seconds <= MAX_PAYMENT_DELAY_SECONDS)) {
    throw new RangeError(`paymentDelayTime must be 1..${MAX_PAYMENT_DELAY_SECONDS} seconds`);
  }
}

/** A read joins one of the same kind that began less than this long ago and has not been answered yet. */
export const SHARED_READ_WINDOW_MS = 1_000;

/** Typed functions for the 15 operations of the payment API, plus pagination helpers. */
export function createPaymentsClient(
  options: (PaymentsHttpOptions | { request: PaymentsRequest; logger?: Logger }) & { clock?: () => number },
) {
  const request = 'request' in options ? options.request : createPaymentsRequest(options);
  const logger = options.logger ?? silentLogger;
  const clock = 'clock' in options && options.clock ? options.clock : () => performance.now();
  let sharedAssetsRead: { startedAt: number; read: Promise<readonly Asset[]> } | undefined;
  // Off-spec decimal balances are read correctly; one warning per process is enough to tell the operator.
  let warnedOfTokenUnitBalances = false;
  const checkBalanceUnits = (assets: readonly Asset[]): void => {
    const offSpec = assets.find((asset) => asset.balanceUnits === 'token_units');
    if (offSpec === undefined || warnedOfTokenUnitBalances) return;
    warnedOfTokenUnitBalances = true;
    logger.warn('payment API sent an asset balance with a decimal point; reading it as token units, not base units', {
      assetId: offSpec.id,
      symbol: offSpec.crypto.symbol,
    });
  };

  const client = {
    /** POST /2.0/merchant/create-invoice. Never retried: a retry could create two invoices. */
    async createInvoice(input: CreateInvoiceInput): Promise<Invoice> {
      checkPaymentDelay(input.paymentDelayTime);
      return request({
        operation: 'createInvoice',
        method: 'POST',
        path: '2.0/merchant/create-invoice',
        body: {
          usdAmountInCents: centsAsJsonInteger(input.usdAmountInCents),
          assetId: input.assetId,
          productTitle: input.productTitle,
          extraData: input.extraData,
          paymentDelayTime: input.paymentDelayTime,
        },
        schema: Invoice,
      });
    },

    /** POST /2.0/merchant/create-invoice-by-crypto. Never retried. */
    async createInvoiceByCrypto(input: CreateInvoiceByCryptoInput): Promise<Invoice> {
      checkPaymentDelay(input.paymentDelayTime);
      if (input.cryptoAmount <= 0n) throw new RangeError('cryptoAmount must be positive');
      return request({
        operation: 'createInvoiceByCrypto',
        method: 'POST',
        path: '2.0/merchant/create-invoice-by-crypto',
        body: {
          cryptoAmount: input.cryptoAmount.toString(),
          assetId: input.assetId,
          productTitle: input.productTitle,
          extraData: input.extraData,
          paymentDelayTime: input.paymentDelayTime,
        },
        schema: Invoice,
      });
    },

    /** GET /1.0/merchant/invoice-info. */
    getInvoice(id: string): Promise<Invoice> {
      return request({
        operation: 'getInvoice',
        method: 'GET',
        path: '1.0/merchant/invoice-info',
        query: { id },
        schema: Invoice,
      });
    },

    /** GET /1.0/merchant/asset: the only response with `balanceForWithdrawal`. */
    async getAsset(id: string): Promise<Asset> {
      const asset = await request({
        operation: 'getAsset',
        method: 'GET',
        path: '1.0/merchant/asset',
        query: { id },
        schema: AssetWithWithdrawable,
      });
      checkBalanceUnits([asset]);
      return asset;
    },

    /**
     * GET /1.0/merchant/assets. Reads made while another began less than {@link SHARED_READ_WINDOW_MS} ago and
     * is still waiting for its answer share it: fifty operators asking for balances at once cost one request,
     * not fifty connections, and each gets an answer at least as fresh as one read at that moment. The assets
     * are frozen, so no caller can change what another reads.
     */
    async listAssets(): Promise<Asset[]> {
      const at = clock();
      if (sharedAssetsRead === undefined || at - sharedAssetsRead.startedAt >= SHARED_READ_WINDOW_MS) {
        const read = request({
          operation: 'listAssets',
          method: 'GET',
          path: '1.0/merchant/assets',
          schema: AssetList,
        }).then((list) => {
          checkBalanceUnits(list.assets);
          return Object.freeze(list.assets.map((asset) => Object.freeze(asset)));
        });
        const entry = { startedAt: at, read };
        sharedAssetsRead = entry;
        const forget = () => {
          if (sharedAssetsRead === entry) sharedAssetsRead = undefined;
        };
        read.then(forget, forget);
      }
      return [...(await sharedAssetsRead.read)];
    },

    /** GET /1.0/merchant/asset-withdrawal-info. */
    getWithdrawal(id: string): Promise<Withdrawal> {
      return request({
        operation: 'getWithdrawal',
        method: 'GET',
        path: '1.0/merchant/asset-withdrawal-info',
        query: { id },
        schema: Withdrawal,
      });
    },

    /** GET /1.0/merchant/asset-withdrawals: one page, newest first (page is 1-based). */
    async listWithdrawals(params: { page?: number; perPage?: number } = {}): Promise<WithdrawalListPage> {
      const page = await request({
        operation: 'listWithdrawals',
        method: 'GET',
        path: '1.0/merchant/asset-withdrawals',
        query: { page: params.page ?? 1, perPage: params.perPage ?? 20 },
        schema: WithdrawalPage,
      });
      return { items: page.data, totalCount: page.totalCount, page: page.page, perPage: page.perPage };
    },

    /** POST /2.0/swap/estimate: a quote valid 30 minutes, single-use. Never retried. */
    estimateSwap(input: { assetIdFrom: string; assetIdTo: string; amount: bigint }): Promise<SwapEstimate> {
      return request({
        operation: 'estimateSwap',
        method: 'POST',
        path: '2.0/swap/estimate',
        body: { assetIdFrom: input.assetIdFrom, assetIdTo: input.assetIdTo, amount: input.amount.toString() },
        schema: SwapEstimate,
      });
    },

    /** POST /2.0/swap/create: moves money. Never retried. The response carries no fee. */
    createSwap(estimateId: string): Promise<Swap> {
      return request({
        operation: 'createSwap',
        method: 'POST',
        path: '2.0/swap/create',
        body: { estimateId },
        schema: Swap,
      });
    },

    /** GET /2.0/swap/get, including the fee. */
    getSwap(id: string): Promise<Swap> {
      return request({ operation: 'getSwap', method: 'GET', path: '2.0/swap/get', query: { id }, schema: Swap });
    },

    /**
     * POST /2.0/mass-payout/create-payout: an empty payout container. Never retried. Its answer is not shown in
     * docs/payments-api.md, so any 2xx is read as created (see PayoutCreated): it never throws on a 2xx.
     */
    createPayout(input: { assetId: string; name: string }): Promise<PayoutCreated> {
      return request({
        operation: 'createPayout',
        method: 'POST',
        path: '2.0/mass-payout/create-payout',
        body: { assetId: input.assetId, name: input.name },
        schema: PayoutCreated,
        anyBody: true,
      });
    },

    /** GET /2.0/mass-payout/tasks: one page of 50, newest first. */
    async listPayoutTasks(
      filters: PayoutTaskFilters & { cursor?: string | null } = {},
    ): Promise<CursorPage<PayoutTask>> {
      const page = await request({
        operation: 'listPayoutTasks',
        method: 'GET',
        path: '2.0/mass-payout/tasks',
        query: {
          cursor: filters.cursor ?? undefined,
          status: filters.status,
          assetId: filters.assetId,
          payoutId: filters.payoutId,
          ...createdAtRange(filters),
        },
        schema: PayoutTaskPage,
      });
      return { items: page.data, cursorNext: page.cursorNext, cursorPrevious: page.cursorPrevious };
    },

    /** GET /2.0/mass-payout/task (rate-limited: paced). */
    getPayoutTask(id: string): Promise<PayoutTask> {
      return request({
        operation: 'getPayoutTask',
        method: 'GET',
        path: '2.0/mass-payout/task',
        query: { id },
        schema: PayoutTask,
      });
    },

    /** GET /2.0/deposit/get (rate-limited: paced). */
    getDeposit(id: string): Promise<Deposit> {
      return request({
        operation: 'getDeposit',
        method: 'GET',
        path: '2.0/deposit/get',
        query: { id },
        schema: Deposit,
      });
    },

    /** GET /2.0/gas-manager/list: one page of 50, in NO promised order (rate-limited: paced). */
    async listGasDistributions(
      filters: GasDistributionFilters & { cursor?: string | null } = {},
    ): Promise<CursorPage<GasDistribution>> {
      const page = await request({
        operation: 'listGasDistributions',
        method: 'GET',
        path: '2.0/gas-manager/list',
        query: {
          cursor: filters.cursor ?? undefined,
          status: filters.status,
          networkId: filters.networkId,
          ...createdAtRange(filters),
        },
        schema: GasDistributionPage,
      });
      return { items: page.data, cursorNext: page.cursorNext, cursorPrevious: page.cursorPrevious };
    },

    /** Follows `cursorNext` through the task list until it is null (or `maxPages` pages were read). */
    async *payoutTaskPages(
      filters: PayoutTaskFilters = {},
      maxPages = Infinity,
    ): AsyncGenerator<CursorPage<PayoutTask>> {
      yield* followCursor((cursor) => client.listPayoutTasks({ ...filters, cursor }), maxPages);
    },

    /** Follows `cursorNext` through the gas manager list until it is null (or `maxPages` pages were read). */
    async *gasDistributionPages(
      filters: GasDistributionFilters = {},
      maxPages = Infinity,
    ): AsyncGenerator<CursorPage<GasDistribution>> {
      yield* followCursor((cursor) => client.listGasDistributions({ ...filters, cursor }), maxPages);
    },

    /** Walks the withdrawal pages from page 1 (newest first) until the last one (or `maxPages`). */
    async *withdrawalPages(perPage = 50, maxPages = Infinity): AsyncGenerator<WithdrawalListPage> {
      for (let page = 1; page <= maxPages; page++) {
        const result = await client.listWithdrawals({ page, perPage });
        yield result;
        if (result.items.length === 0 || page * result.perPage >= result.totalCount) return;
      }
    },
  };
  return client;
}

async function* followCursor<T>(
  fetchPage: (cursor: string | null) => Promise<CursorPage<T>>,
  maxPages: number,
): AsyncGenerator<CursorPage<T>> {
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let pages = 0; pages < maxPages; pages++) {
    const page: CursorPage<T> = await fetchPage(cursor);
    yield page;
    // A cursor seen twice would loop forever; treat it as the end.
    if (page.cursorNext === null || seen.has(page.cursorNext)) return;
    seen.add(page.cursorNext);
    cursor = page.cursorNext;
  }
}

/** The typed payment API client. */
export type PaymentsClient = ReturnType<typeof createPaymentsClient>;

export type { Asset, Deposit, GasDistribution, Invoice, PayoutCreated, PayoutTask, Swap, SwapEstimate, Withdrawal };
