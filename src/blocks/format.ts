import { UTCDate } from '@date-fns/utc';
// One function per module: the package index loads every date-fns function (about 5 MB of memory).
import { format } from 'date-fns/format';
import { formatDistanceStrict } from 'date-fns/formatDistanceStrict';
import { assertDecimals, baseUnitsToBigInt, parseApiDecimal, splitBaseUnits } from '../kernel/money.js';
import type { Crypto, FeeLeg, Network } from '../payments/index.js';
import { escapeText } from './mrkdwn.js';

/** A timestamp as people read it, always in UTC: `2026-11-20 10:15 UTC`. */
export function formatUtc(date: Date): string {
  return `${format(new UTCDate(date), 'yyyy-MM-dd HH:mm')} UTC`;
}

/**
 * A time Slack shows in each reader's own time zone (`<!date^…>`), with the UTC form where a client cannot
 * (notifications, plain text): `Nov 24 10:15` for a reader in Berlin, `2026-11-24 09:15 UTC` as the fallback.
 */
export function formatSlackTime(date: Date): string {
  return `<!date^${Math.floor(date.getTime() / 1000)}^{date_short_pretty} {time}|${formatUtc(date)}>`;
}

/** `in 30 minutes` / `3 hours ago`, relative to `now`. */
export function formatRelative(date: Date, now: Date): string {
  return formatDistanceStrict(date, now, { addSuffix: true });
}

/*
 * Every formatter here returns mrkdwn-safe text: values that came from the API are escaped, so callers can
 * put the result straight into a block.
 */

/** Base units of a crypto as token units with the symbol: `1,234.5 USDT`. */
export function formatCryptoAmount(baseUnits: string | bigint, crypto: Pick<Crypto, 'decimals' | 'symbol'>): string {
  return escapeText(formatTokenAmount(baseUnits, crypto.decimals, crypto.symbol));
}

/** An API decimal token amount (a fee leg's `amountFormatted`) with its symbol: `1,520.25 USDT`. */
export function formatDecimalAmount(decimal: string, symbol: string): string {
  return escapeText(`${formatDecimal(decimal)} ${symbol}`);
}

/** A network as `Ethereum (ETH)`. */
export function formatNetwork(network: Pick<Network, 'title' | 'symbol'>): string {
  const label = network.title === network.symbol ? network.title : `${network.title} (${network.symbol})`;
  return escapeText(label);
}

/** A fee leg as `1.5 USDT ($1.50)`, the USD part left out when the API has none. */
export function formatFeeLeg(leg: FeeLeg): string {
  const usd = leg.amountInUsd === null ? '' : ` (${formatUsd(leg.amountInUsd)})`;
  return `${formatDecimal(leg.amountFormatted)} ${escapeText(leg.currency)}${usd}`;
}

/*
 * Numbers for people. These return digits, separators, `-` and `$` only (plus `symbol` as given, NOT escaped:
 * for plain_text, or wrap it in formatCryptoAmount for mrkdwn). Exact: BigInt and strings, never a float.
 */

/** Formats base units for people: thousands separators, no trailing zeros ("1,234,567.000001 USDT"). */
export function formatTokenAmount(baseUnits: string | bigint, decimals: number, symbol?: string): string {
  assertDecimals(decimals);
  const value = baseUnitsToBigInt(baseUnits);
  const { sign, intPart, fracPart } = splitBaseUnits(value, decimals);
  const amount = `${sign}${groupThousands(intPart)}${fracPart ? `.${fracPart}` : ''}`;
  return symbol ? `${amount} ${symbol}` : amount;
}

/** Adds thousands separators to an API decimal string and strips trailing zeros ("1520.50" → "1,520.5"). */
export function formatDecimal(decimal: string): string {
  const { negative, intPart, fracPart } = parseApiDecimal(decimal);
  const frac = fracPart.replace(/0+$/, '');
  const isZero = /^0*$/.test(intPart) && frac === '';
  const sign = negative && !isZero ? '-' : '';
  return `${sign}${groupThousands(stripLeadingZeros(intPart))}${frac ? `.${frac}` : ''}`;
}

/**
 * A USD amount for people: "$1,520.25", "-$1.00", "n/a" for null/undefined (old records have no USD pricing).
 * A string is an API decimal rounded half away from zero to cents; a bigint is already cents.
 */
export function formatUsd(value: string | bigint | null | undefined): string {
  if (value === null || value === undefined) return 'n/a';
  let cents: bigint;
  if (typeof value === 'bigint') {
    cents = value;
  } else if (typeof value === 'string') {
    const { negative, intPart, fracPart } = parseApiDecimal(value);
    const padded = fracPart.padEnd(3, '0');
    let magnitude = BigInt(intPart) * 100n + BigInt(padded.slice(0, 2));
    if (padded.charCodeAt(2) >= 0x35 /* '5' */) magnitude += 1n;
    cents = negative ? -magnitude : magnitude;
  } else {
    throw new TypeError(`USD value must be a decimal string, bigint cents, null or undefined, got ${typeof value}`);
  }
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}$${groupThousands((abs / 100n).toString())}.${(abs % 100n).toString().padStart(2, '0')}`;
}

function stripLeadingZeros(digits: string): string {
  const stripped = digits.replace(/^0+/, '');
  return stripped === '' ? '0' : stripped;
}

/** A whole count with thousands separators: 40000 → "40,000" (no Intl: see kernel/compare.ts). */
export function formatCount(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  return `${n < 0 ? '-' : ''}${groupThousands(digits)}`;
}

/** "1234567" → "1,234,567" (digits only, no sign). */
function groupThousands(digits: string): string {
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

const STATUS_EMOJI: Record<string, string> = {
  success: ':white_check_mark:',
  finished: ':white_check_mark:',
  failed: ':x:',
  rejected: ':x:',
  pending: ':hourglass_flowing_sand:',
  new: ':hourglass_flowing_sand:',
  in_progress: ':hourglass_flowing_sand:',
  cancelled: ':heavy_minus_sign:',
  frozen: ':ice_cube:',
  refunded: ':leftwards_arrow_with_hook:',
};

/** A status with an emoji; statuses docs/payments-api.md#statuses does not list still show, with a neutral marker. */
export function formatStatus(status: string, subStatus?: string | null): string {
  const emoji = STATUS_EMOJI[status] ?? ':grey_question:';
  const sub = subStatus ? ` · ${escapeText(subStatus)}` : '';
  return `${emoji} ${escapeText(status)}${sub}`;
}

/** A change in USD cents with its sign: "+$1,000.00", "-$5.25", "±$0.00". */
export function formatUsdChange(cents: bigint): string {
  return cents === 0n ? '±$0.00' : `${cents > 0n ? '+' : ''}${formatUsd(cents)}`;
}

/** A change in base units as token units with its sign: "+1,000 USDT", "-0.5 ETH", "±0 USDT" (symbol as given). */
export function formatTokenChange(baseUnits: bigint, decimals: number, symbol?: string): string {
  const amount = formatTokenAmount(baseUnits, decimals, symbol);
  return baseUnits === 0n ? `±${amount}` : `${baseUnits > 0n ? '+' : ''}${amount}`;
}

/** Cents for people, in policy messages: "$10,000" when whole dollars, else "$10,000.50". */
export function usdLabel(cents: bigint): string {
  const dollars = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = cents % 100n;
  return rest === 0n ? `$${dollars}` : `$${dollars}.${rest.toString().padStart(2, '0')}`;
}
