/**
 * Zod schemas for every payment API response, following docs/payments-api.md field by field, and the one
 * normalized shape each is turned into. The quirks stop here: the rest of the code never sees `name` vs
 * `title`, `chainType` vs `networkType`, the two timestamp formats, or the three shapes of `fee.network`.
 *
 * Unknown extra fields are tolerated (zod strips them). Open-ended values (statuses, subStatus) are plain
 * strings: a status docs/payments-api.md#statuses does not list passes through instead of failing the whole response.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------
// Scalars

/** Integer string of base units (the smallest unit of a currency), e.g. "1500000". */
const BaseUnits = z.string().regex(/^\d+$/, 'expected an integer string of base units');

/** Decimal string such as "49.99" or "0.000120" (USD amounts, formatted amounts, percents). */
const DecimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal string');

const Id = z.string().min(1);

const SQL_UTC = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

function utcInstant(parts: string[], fraction = '0', offsetMinutes = 0): Date | undefined {
  const [year, month, day, hour, minute, second] = parts.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // Milliseconds precision is what Date holds; sub-millisecond digits are dropped, never rounded up.
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const wallClock = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
  // Date.UTC rolls impossible values over (February 31 becomes March 3): refuse them instead.
  if (
    wallClock.getUTCFullYear() !== year ||
    wallClock.getUTCMonth() !== month - 1 ||
    wallClock.getUTCDate() !== day ||
    wallClock.getUTCHours() !== hour ||
    wallClock.getUTCMinutes() !== minute ||
    wallClock.getUTCSeconds() !== second
  ) {
    return undefined;
  }
  return new Date(wallClock.getTime() - offsetMinutes * 60_000);
}

/** Parses `YYYY-MM-DD HH:MM:SS` (UTC, used by invoices, assets, withdrawals) into an exact instant. */
export function parseSqlUtcTimestamp(text: string): Date | undefined {
  const m = SQL_UTC.exec(text);
  return m ? utcInstant(m.slice(1, 7)) : undefined;
}

/** Parses RFC 3339 with `Z` or an offset (used by swaps, tasks, deposits, gas rows) into an exact instant. */
export function parseRfc3339Timestamp(text: string): Date | undefined {
  const m = RFC_3339.exec(text);
  if (!m) return undefined;
  const offset = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  return utcInstant(m.slice(1, 7), m[7] ?? '0', offset);
}

const timestamp = (parse: (text: string) => Date | undefined, expected: string) =>
  z.string().transform((text, ctx) => {
    const date = parse(text);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: `expected a timestamp like ${expected}` });
      return z.NEVER;
    }
    return date;
  });

/** `YYYY-MM-DD HH:MM:SS`, UTC. */
const SqlUtcTimestamp = timestamp(parseSqlUtcTimestamp, '2026-11-20 10:15:30');
/** RFC 3339 with offset. */
const Rfc3339Timestamp = timestamp(parseRfc3339Timestamp, '2026-11-20T10:15:30+00:00');

// ---------------------------------------------------------------------------------------------------------
// Shared objects

/** A cryptocurrency (2.1). */
export const Crypto = z.object({
  id: Id,
  title: z.string(),
  symbol: z.string(),
  contractAddress: z.string().nullable(),
  decimals: z.number().int().min(0).max(36),
  logoURI: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});
export type Crypto = z.infer<typeof Crypto>;

/** The one network shape the rest of the code sees, whatever the endpoint called its fields. */
export interface Network {
  id: string;
  title: string;
  symbol: string;
  /** Absent on gas manager rows. */
  chainId: string | null;
  /** `networkType` or the asset endpoints' `chainType`; absent on gas manager rows. */
  networkType: string | null;
}

const chainId = z.union([z.string(), z.number()]).transform(String);

/** Network as in 2.2 (`title`, `networkType`): withdrawals, swaps, tasks, deposits. */
const StandardNetwork = z
  .object({ id: Id, title: z.string(), symbol: z.string(), chainId, networkType: z.string() })
  .transform((n): Network => ({ ...n }));

/** Invoice responses name the title `name`. */
const InvoiceNetwork = z
  .object({ id: Id, name: z.string(), symbol: z.string(), chainId, networkType: z.string() })
  .transform(({ name, ...n }): Network => ({ ...n, title: name }));

/** Asset responses name the network type `chainType`. */
const AssetNetwork = z
  .object({ id: Id, title: z.string(), symbol: z.string(), chainId, chainType: z.string() })
  .transform(({ chainType, ...n }): Network => ({ ...n, networkType: chainType }));

/** The gas manager network has only id, title and symbol. */
const GasNetwork = z
  .object({ id: Id, title: z.string(), symbol: z.string() })
  .transform((n): Network => ({ ...n, chainId: null, networkType: null }));

/** One leg of a fee (2.3). */
export const FeeLeg = z.object({
  amount: BaseUnits,
  amountFormatted: DecimalString,
  currency: z.string(),
  cryptoId: Id,
  networkId: Id,
  amountInUsd: DecimalString.nullable(),
  isChargedToMerchant: z.boolean(),
});
export type FeeLeg = z.infer<typeof FeeLeg>;

/** The normalized fee: `network` is always a list (empty when the API sent null). */
export interface Fee {
  network: FeeLeg[];
  service: FeeLeg | null;
  /** Shape not shown in docs/payments-api.md#fees: kept as received. */
  exchange: unknown;
  totalInUsd: string | null;
}

/** Fee object: `network` arrives as null, one leg, or an array of legs depending on the endpoint. */
export const Fee = z
  .object({
    network: z.union([z.array(FeeLeg), FeeLeg]).nullable(),
    service: FeeLeg.nullable(),
    exchange: z.unknown().optional(),
    totalInUsd: DecimalString.nullable(),
  })
  .transform(
    (fee): Fee => ({
      network: fee.network === null ? [] : Array.isArray(fee.network) ? fee.network : [fee.network],
      service: fee.service,
      exchange: fee.exchange ?? null,
      totalInUsd: fee.totalInUsd,
    }),
  );

const nullableString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

// ---------------------------------------------------------------------------------------------------------
// Resources

/** Invoice (2.4). */
export const Invoice = z.object({
  id: Id,
  usdAmount: DecimalString,
  status: z.string(),
  paymentPageLink: z.string(),
  productTitle: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  extraData: nullableString,
  cryptoAmount: BaseUnits.nullable(),
  crypto: Crypto.nullable(),
  network: InvoiceNetwork.nullable(),
  fee: Fee,
  address: nullableString,
  expiredAt: SqlUtcTimestamp,
});
export type Invoice = z.infer<typeof Invoice>;

/**
 * An asset balance as sent. The conventions (docs/payments-api.md#units) make amounts base-unit integer strings; a value with a
 * decimal point cannot be base units, so it is accepted as token units (a tolerant reader) and converted.
 */
const AssetBalance = z.string().regex(/^\d+(\.\d+)?$/, 'expected base units (or a decimal token amount)');

const assetFields = {
  id: Id,
  wallet: z.string(),
  feePercent: DecimalString,
  feeUsd: DecimalString,
  balance: AssetBalance,
  balanceInUsd: DecimalString,
  crypto: Crypto,
  network: AssetNetwork,
  createdAt: SqlUtcTimestamp,
};

/** How the API expressed an asset's balances: base units (as the conventions say) or decimal token units. */
export type BalanceUnits = 'base_units' | 'token_units';

/** Token units ("5234.56789") as base units; digits past the token's decimals are cut, never rounded up. */
function tokenUnitsToBaseUnits(sent: string, decimals: number): string {
  const [whole = '0', fraction = ''] = sent.split('.');
  return BigInt(`${whole}${fraction.slice(0, decimals).padEnd(decimals, '0')}`).toString();
}

const normalizeAsset = <
  A extends { balance: string; balanceForWithdrawal?: string | null | undefined; crypto: { decimals: number } },
>(
  asset: A,
) => {
  const sent = [asset.balance, asset.balanceForWithdrawal ?? ''];
  // One response speaks one unit: a decimal point in either balance means both are token units.
  const balanceUnits: BalanceUnits = sent.some((value) => value.includes('.')) ? 'token_units' : 'base_units';
  const toBaseUnits = (value: string): string =>
    balanceUnits === 'token_units' ? tokenUnitsToBaseUnits(value, asset.crypto.decimals) : value;
  return {
    ...asset,
    /** Base units of `crypto`. */
    balance: toBaseUnits(asset.balance),
    /** Base units of `crypto`; null when the response (the list) does not carry it. */
    balanceForWithdrawal: asset.balanceForWithdrawal == null ? null : toBaseUnits(asset.balanceForWithdrawal),
    /** How the API sent the balances: `token_units` is off-spec and worth a warning in the log. */
    balanceUnits,
  };
};

/** Merchant asset (2.5), balances in base units. `balanceForWithdrawal` is null in the list response. */
export const Asset = z
  .object({ ...assetFields, balanceForWithdrawal: AssetBalance.nullish() })
  .transform(normalizeAsset);
export type Asset = z.infer<typeof Asset>;

/** The single-asset response, which always carries `balanceForWithdrawal`. */
export const AssetWithWithdrawable = z
  .object({ ...assetFields, balanceForWithdrawal: AssetBalance })
  .transform(normalizeAsset);

/** Response of GET /1.0/merchant/assets. */
export const AssetList = z.object({ assets: z.array(Asset) });

/** Withdrawal (2.6). */
export const Withdrawal = z.object({
  id: Id,
  status: z.string(),
  address: z.string(),
  amount: BaseUnits,
  amountInUsd: DecimalString.nullable(),
  payer: z.string(),
  isPrivate: z.boolean(),
  asset: z.object({
    id: Id,
    balance: BaseUnits,
    balanceInUsd: DecimalString.nullable(),
    wallet: nullableString,
  }),
  crypto: Crypto,
  network: StandardNetwork,
  fee: Fee,
  txHash: nullableString,
  createdAt: SqlUtcTimestamp,
});
export type Withdrawal = z.infer<typeof Withdrawal>;

/** A page of GET /1.0/merchant/asset-withdrawals. */
export const WithdrawalPage = z.object({
  totalCount: z.number().int().min(0),
  page: z.number().int(),
  perPage: z.number().int(),
  data: z.array(Withdrawal),
});
export type WithdrawalPage = z.infer<typeof WithdrawalPage>;

/** Swap estimate (2.7). */
export const SwapEstimate = z.object({
  id: Id,
  serviceId: z.string(),
  routeType: z.string(),
  estimatedAmount: BaseUnits,
});
export type SwapEstimate = z.infer<typeof SwapEstimate>;

/** Swap (2.8). `fee` is null on the create response, which carries none. */
export const Swap = z.object({
  id: Id,
  amountFrom: BaseUnits,
  amountFromInUsd: DecimalString.nullable(),
  amountTo: BaseUnits.nullable(),
  amountToInUsd: DecimalString.nullable(),
  assetIdFrom: Id,
  assetIdTo: Id,
  cryptoIdFrom: Id,
  cryptoIdTo: Id,
  hashFrom: nullableString,
  hashTo: nullableString,
  status: z.string(),
  fee: Fee.nullish().transform((v) => v ?? null),
  createdAt: Rfc3339Timestamp,
});
export type Swap = z.infer<typeof Swap>;

/** Payout task (2.9). */
export const PayoutTask = z.object({
  id: Id,
  type: z.string(),
  status: z.string(),
  subStatus: nullableString,
  payoutId: Id,
  amount: BaseUnits,
  amountInUsd: DecimalString.nullable(),
  assetId: Id,
  crypto: Crypto,
  network: StandardNetwork,
  transferTxHash: nullableString,
  payoutTxHash: nullableString,
  targetsCount: z.number().int(),
  fee: Fee,
  createdAt: Rfc3339Timestamp,
});
export type PayoutTask = z.infer<typeof PayoutTask>;

const cursor = z
  .string()
  .nullish()
  .transform((v) => (v ? v : null));

/** A page of GET /2.0/mass-payout/tasks. */
export const PayoutTaskPage = z.object({ data: z.array(PayoutTask), cursorPrevious: cursor, cursorNext: cursor });

/** Deposit (2.10). Old deposits carry null USD fees, never backfilled. */
export const Deposit = z.object({
  id: Id,
  status: z.string(),
  amount: BaseUnits,
  assetId: Id,
  crypto: Crypto,
  network: StandardNetwork,
  txHash: nullableString,
  txFrom: nullableString,
  fee: Fee,
  createdAt: Rfc3339Timestamp,
});
export type Deposit = z.infer<typeof Deposit>;

/** Gas manager distribution (2.11). */
export const GasDistribution = z.object({
  id: Id,
  status: z.string(),
  subStatus: nullableString,
  network: GasNetwork,
  targetAddress: z.string(),
  txHash: nullableString,
  topUp: FeeLeg.nullable(),
  charged: FeeLeg.nullable(),
  fee: Fee,
  pipeline: z.object({
    id: Id,
    status: z.string(),
    totalAmountInUsd: DecimalString.nullable(),
    createdAt: Rfc3339Timestamp,
  }),
  createdAt: Rfc3339Timestamp,
  updatedAt: Rfc3339Timestamp,
});
export type GasDistribution = z.infer<typeof GasDistribution>;

/** A page of GET /2.0/gas-manager/list. */
export const GasDistributionPage = z.object({
  data: z.array(GasDistribution),
  cursorPrevious: cursor,
  cursorNext: cursor,
});

/**
 * What the bot reads of create-payout's answer. docs/payments-api.md does not show that answer, so every 2xx is
 * "created": `payoutId` when the body names a string `id` (at the top, or inside a `data` object), and `fields`, a
 * few scalar fields worth showing as [label, value]. An empty body, one that is not JSON, or JSON without an id
 * all read as created with no id.
 */
export interface PayoutCreated {
  payoutId?: string;
  fields: Array<[label: string, value: string]>;
}

/** The answer's fields shown to people, in this order, with their labels. */
const PAYOUT_FIELDS: ReadonlyArray<readonly [key: string, label: string]> = [
  ['name', 'Name'],
  ['status', 'Status'],
  ['assetId', 'Asset id'],
  ['createdAt', 'Created'],
];
/** A value longer than this is cut: it is shown, not used. */
const MAX_SHOWN_VALUE = 200;

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A string id we can show and look up: printable, of a sane length. */
function readId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const id = value.trim();
  return /^[\x21-\x7e]{1,128}$/.test(id) ? id : undefined;
}

function readPayoutCreated(body: unknown): PayoutCreated {
  const top = asRecord(body);
  const nested = asRecord(top?.data);
  const record = top && readId(top.id) === undefined && nested && readId(nested.id) !== undefined ? nested : top;
  if (!record) return { fields: [] };
  const payoutId = readId(record.id);
  const fields: Array<[string, string]> = [];
  for (const [key, label] of PAYOUT_FIELDS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') fields.push([label, value.slice(0, MAX_SHOWN_VALUE)]);
    else if (typeof value === 'number' || typeof value === 'boolean') fields.push([label, String(value)]);
  }
  return payoutId === undefined ? { fields } : { payoutId, fields };
}

/** Reads any 2xx answer of create-payout (see PayoutCreated); never fails. */
export const PayoutCreated: z.ZodType<PayoutCreated, unknown> = z.unknown().transform(readPayoutCreated);

/** The 400 validation envelope (docs/payments-api.md#errors); every field optional because real bodies vary. */
export const ValidationEnvelope = z.object({
  message: z.string().optional(),
  errors: z
    .array(z.object({ field: z.string(), messages: z.array(z.string()).catch([]) }))
    .optional()
    .catch(undefined),
});

/** A cursor-paginated page, normalized. */
export interface CursorPage<T> {
  items: T[];
  cursorNext: string | null;
  cursorPrevious: string | null;
}
