/**
 * How long a swap quote stays in the store's working state once it has ended, and when it ended. After that it
 * moves to the archive the audit export reads (the lowdb file's monthly archive files, PostgreSQL's
 * `swap_quotes_archive` table): nothing is deleted, but the state every write rewrites (the lowdb file) and the
 * tables every decision reads stay bounded by the retention, not by the bot's age.
 */
import { isFinalStatus, needsFollowing, type SwapQuote } from './quote.js';

/**
 * 30 days after a quote ended. Far beyond every window that reads quotes: the daily limit's 24 hours (quotes
 * estimated after now − 24 h), the 30-minute estimate, following a swap (30 minutes), `/treasury swaps`' recent list;
 * a click on a quote that has left answers in plain words and does nothing (approval.ts, CLICK_NOTICES).
 */
export const QUOTE_RETENTION_DAYS = 30;
export const QUOTE_RETENTION_MS = QUOTE_RETENTION_DAYS * 86_400_000;

/**
 * When the quote ended: undefined while anything can still happen to it (pending, approving, a created swap still
 * being followed); otherwise the latest time recorded on it (its last history entry, decision, end of following).
 * Times that do not parse are ignored; a quote with none that parses has not ended as far as the store can tell.
 */
export function quoteEndedAt(
  quote: Pick<SwapQuote, 'status' | 'swapId' | 'followEndedAt' | 'estimatedAt' | 'decidedAt' | 'history'>,
): Date | undefined {
  if (!isFinalStatus(quote.status) || needsFollowing(quote)) return undefined;
  let latest = Number.NaN;
  for (const text of [quote.estimatedAt, quote.decidedAt, quote.followEndedAt, ...quote.history.map((e) => e.at)]) {
    if (text === undefined) continue;
    const ms = Date.parse(text);
    if (!Number.isNaN(ms) && !(ms <= latest)) latest = ms;
  }
  return Number.isNaN(latest) ? undefined : new Date(latest);
}

/** Whether the quote ended before `cutoff` (now − QUOTE_RETENTION_MS): it leaves the working state. */
export function endedBefore(quote: Parameters<typeof quoteEndedAt>[0], cutoff: Date): boolean {
  const ended = quoteEndedAt(quote);
  return ended !== undefined && ended.getTime() < cutoff.getTime();
}

/** The UTC month of the quote's estimate (`2026-11`), or undefined when the time does not parse. */
export function estimateMonth(quote: Pick<SwapQuote, 'estimatedAt'>): string | undefined {
  const ms = Date.parse(quote.estimatedAt);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().slice(0, 7);
}
