/**
 * What the audit export reads from the lowdb state file (part 16): the alert trail and the swap quotes, a page at a
 * time in a stable order. The file is in memory already; paging keeps the export's own copies small.
 */
import type { AlertTrailEntry } from '../../domain/alert-trail.js';
import { compareText } from '../../domain/compare.js';
import type { SwapQuote } from '../../domain/swap-quote.js';
import { cloneJson } from '../clone-json.js';
import { StoreError } from '../errors.js';
import type { AuditRepository } from '../repository.js';
import type { StoredAlertTrailEntry } from './bot-state.js';
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

/** The audit repository over the lowdb store that holds the swap quotes and the alert trail. */
export function createLowdbAuditRepository(
  store: Store<{ swapQuotes: Record<string, SwapQuote>; alertTrail: StoredAlertTrailEntry[] }>,
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
      const keyOf = (quote: SwapQuote) => [new Date(quote.estimatedAt).toISOString(), quote.id] as const;
      const items = Object.values(store.read().swapQuotes)
        .filter((quote) => new Date(quote.estimatedAt).getTime() > since.getTime())
        .filter((quote) => after === undefined || byKey(keyOf(quote), after) > 0)
        .sort((a, b) => byKey(keyOf(a), keyOf(b)))
        .slice(0, Math.max(1, page.limit));
      const last = items.at(-1);
      return {
        items: items.map(cloneJson),
        ...(last && items.length >= page.limit ? { next: cursorOf(keyOf(last)) } : {}),
      };
    },
  };
}
