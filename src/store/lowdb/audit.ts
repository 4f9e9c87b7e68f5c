/**
 * What the audit export reads from the lowdb state file: the alert trail and the swap quotes, a page at a
 * time in a stable order. The file is in memory already; paging keeps the export's own copies small. Quotes past
 * their retention are read from the monthly archive files beside the file (quote-archive.ts), a month at a time
 * and only the months a page reaches.
 */
import type { AlertTrailEntry } from '../../features/alerts/trail.js';
import type { AuditRepository } from '../../features/repositories.js';
import type { SwapQuote } from '../../features/swaps/quote.js';
import { compareText } from '../../kernel/compare.js';
import { StoreError } from '../../kernel/store-error.js';
import { cloneJson } from '../clone-json.js';
import type { StoredAlertTrailEntry } from './bot-state.js';
import type { QuoteArchive } from './quote-archive.js';
import type { Store } from './state-file.js';

/** A page's end as the next page's `after`: the sort key of its last item. */
function cursorOf(key: readonly [string, string | number]): string {
  return JSON.stringify(key);
}

function readCursor<K extends string | number>(
  after: string | undefined,
  kind: 'string' | 'number',
): [string, K] | undefined {
  if (after === undefined) return undefined;
  const key: unknown = JSON.parse(after);
  if (!Array.isArray(key) || typeof key[0] !== 'string' || typeof key[1] !== kind)
    throw new StoreError('the audit export passed a page cursor this store did not make');
  return key as [string, K];
}

/** Orders by time (ISO text, which compares as time), then by the second key. */
function byKey(a: readonly [string, string | number], b: readonly [string, string | number]): number {
  return compareText(a[0], b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}

/** The first instant of the month after `month` (`2026-11` → 2026-12-01T00:00:00.000Z), as ISO text. */
function nextMonthStart(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, mon, 1)).toISOString();
}

/** The audit repository over the lowdb store that holds the swap quotes and the alert trail, and its quote archive. */
export function createLowdbAuditRepository(
  store: Store<{ swapQuotes: Record<string, SwapQuote>; alertTrail: StoredAlertTrailEntry[] }>,
  archive?: Pick<QuoteArchive, 'months' | 'readMonth'>,
  onDamaged?: (month: string, lines: number) => void,
): AuditRepository {
  return {
    async listAlertTrail(since, page) {
      const after = readCursor<number>(page.after, 'number');
      const from = since.toISOString();
      const keyOf = (entry: StoredAlertTrailEntry) => [entry.at, entry.seq] as const;
      const items = store
        .read()
        .alertTrail.filter((entry) => entry.at >= from && (after === undefined || byKey(keyOf(entry), after) > 0))
        .sort((a, b) => byKey(keyOf(a), keyOf(b)))
        .slice(0, Math.max(1, page.limit));
      const last = items.at(-1);
      return {
        items: items.map(({ seq: _seq, ...entry }): AlertTrailEntry => cloneJson(entry)),
        ...(last && items.length >= page.limit ? { next: cursorOf(keyOf(last)) } : {}),
      };
    },
    async listQuotes(since, page) {
      const after = readCursor<string>(page.after, 'string');
      const limit = Math.max(1, page.limit);
      const keyOf = (quote: SwapQuote) => [new Date(quote.estimatedAt).toISOString(), quote.id] as const;
      const wanted = (quote: SwapQuote) =>
        new Date(quote.estimatedAt).getTime() > since.getTime() &&
        (after === undefined || byKey(keyOf(quote), after) > 0);
      // The working state's copy wins over an archived one (a crash between archiving and the write leaves both).
      const hot = Object.values(store.read().swapQuotes);
      const candidates = new Map<string, SwapQuote>();
      for (const quote of hot) if (wanted(quote)) candidates.set(quote.id, quote);
      const hotIds = new Set(hot.map((quote) => quote.id));
      // Archive months from the first the page can reach, in order, until the page is surely full: once `limit`
      // candidates sort before the next month's start, nothing in a later month can be among the first `limit`.
      const from = after?.[0] ?? since.toISOString();
      for (const month of archive?.months() ?? []) {
        if (nextMonthStart(month) <= from) continue; // estimated before where the page starts
        const start = `${month}-01T00:00:00.000Z`;
        let earlier = 0;
        for (const quote of candidates.values()) if (keyOf(quote)[0] < start) earlier++;
        if (earlier >= limit) break;
        const { quotes, damaged } = archive!.readMonth(month);
        if (damaged > 0) onDamaged?.(month, damaged);
        for (const quote of quotes) if (!hotIds.has(quote.id) && wanted(quote)) candidates.set(quote.id, quote);
      }
      const items = [...candidates.values()].sort((a, b) => byKey(keyOf(a), keyOf(b))).slice(0, limit);
      const last = items.at(-1);
      return {
        items: items.map(cloneJson),
        ...(last && items.length >= page.limit ? { next: cursorOf(keyOf(last)) } : {}),
      };
    },
  };
}
