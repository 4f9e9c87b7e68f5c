import { UTCDate } from '@date-fns/utc';
import { format, formatDistanceStrict } from 'date-fns';
import { formatDecimal, formatTokenAmount, formatUsd } from '../money.js';
import type { Crypto, FeeLeg, Network } from '../payments/index.js';
import { escapeText } from './mrkdwn.js';

/** A timestamp as people read it, always in UTC: `2026-11-20 10:15 UTC`. */
export function formatUtc(date: Date): string {
  return `${format(new UTCDate(date), 'yyyy-MM-dd HH:mm')} UTC`;
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

/** A USD amount or `n/a` (old records have no USD pricing). */
export { formatUsd };

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

/** A status with an emoji; statuses the spec does not list still show, with a neutral marker. */
export function formatStatus(status: string, subStatus?: string | null): string {
  const emoji = STATUS_EMOJI[status] ?? ':grey_question:';
  const sub = subStatus ? ` · ${escapeText(subStatus)}` : '';
  return `${emoji} ${escapeText(status)}${sub}`;
}
