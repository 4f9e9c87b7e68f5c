/**
 * The swap quotes in the lowdb state file (`swapQuotes`, keyed by quote id; the file format is unchanged).
 * Each operation is one serialized, fsynced `update` of the store, so a claim and its check cannot interleave
 * with another, and a claim counts only once it is on disk. The changes themselves: ../swap-quote-changes.ts.
 */

import type { FreezeState } from '../../features/freeze/rules.js';
import type { SwapQuoteRepository } from '../../features/repositories.js';
import { needsFollowing, type SwapQuote } from '../../features/swaps/quote.js';
import { endedBefore, estimateMonth } from '../../features/swaps/retention.js';
import { compareText } from '../../kernel/compare.js';
import { StoreError } from '../../kernel/store-error.js';
import { type Logger, silentLogger } from '../../logger.js';
import { cloneJson } from '../clone-json.js';
import { archiveAfterSave, refuseQuoteWhenFrozen, swapQuoteChangeMethods } from '../swap-quote-changes.js';
import type { QuoteArchive } from './quote-archive.js';
import type { Store } from './state-file.js';

/** The part of the state this repository owns, and the freeze it reads (absent in a store without one). */
interface WithSwapQuotes {
  swapQuotes: Record<string, SwapQuote>;
  freeze?: FreezeState;
}

/** A quote the operation expected is not in the file: a programming error, never a user's. */
function missing(id: string): StoreError {
  return new StoreError(`no swap quote ${JSON.stringify(id).slice(0, 60)} in the state file`);
}

function estimatedAfter(quote: SwapQuote, since: Date): boolean {
  return new Date(quote.estimatedAt).getTime() > since.getTime();
}

/**
 * The swap quote repository over the lowdb store that holds `swapQuotes`; quotes past the retention move to
 * `archive` (beside the file).
 */
export function createLowdbSwapQuoteRepository(
  store: Store<WithSwapQuotes>,
  archive: QuoteArchive,
  logger: Logger = silentLogger,
): SwapQuoteRepository {
  // Own keys only: an id such as `constructor` must never find something Object.prototype has.
  const find = (quotes: Record<string, SwapQuote>, id: string): SwapQuote | undefined =>
    Object.hasOwn(quotes, id) ? quotes[id] : undefined;
  const all = (): SwapQuote[] => Object.values(store.read().swapQuotes);

  const ended = (quotes: Record<string, SwapQuote>, cutoff: Date): SwapQuote[] =>
    Object.values(quotes).filter(
      // A quote ends after its estimate: a recent estimate needs no closer look.
      (quote) =>
        !(Date.parse(quote.estimatedAt) >= cutoff.getTime()) &&
        estimateMonth(quote) !== undefined &&
        endedBefore(quote, cutoff),
    );

  async function archiveEndedQuotes(cutoff: Date): Promise<number> {
    // Nothing to move: no write (every write rewrites the whole file).
    if (ended(store.read().swapQuotes, cutoff).length === 0) return 0;
    return store.update((state) => {
      const leaving = ended(state.swapQuotes, cutoff);
      // Archived (on disk) before they leave the file; if the write of the file then fails, they are in both.
      archive.append(leaving);
      for (const quote of leaving) delete state.swapQuotes[quote.id];
      return leaving.length;
    });
  }

  return {
    async saveQuote(quote) {
      await store.update((state) => {
        if (find(state.swapQuotes, quote.id)) throw new StoreError(`swap quote ${quote.id} already exists`);
        refuseQuoteWhenFrozen(quote, state.freeze?.current);
        state.swapQuotes[quote.id] = cloneJson(quote);
      });
      await archiveAfterSave(quote, archiveEndedQuotes, logger, 'the state file');
    },

    archiveEndedQuotes,

    async getQuote(id) {
      const quote = find(store.read().swapQuotes, id);
      return quote && cloneJson(quote);
    },

    async listRecentQuotes(limit) {
      return all()
        .sort((a, b) => compareText(b.estimatedAt, a.estimatedAt))
        .slice(0, limit)
        .map(cloneJson);
    },

    async listQuotesByStatus(status) {
      return all()
        .filter((quote) => quote.status === status)
        .map(cloneJson);
    },

    async listQuotesToFollow() {
      return all().filter(needsFollowing).map(cloneJson);
    },

    async listQuotesSince(since) {
      return all()
        .filter((quote) => estimatedAfter(quote, since))
        .sort((a, b) => compareText(a.estimatedAt, b.estimatedAt))
        .map(cloneJson);
    },

    // Every quote in the open file was decoded at start (a damaged one refuses the start): the same list.
    listUsageSince(since) {
      return this.listQuotesSince(since);
    },

    ...swapQuoteChangeMethods(
      (id, apply) =>
        store.update((state) => {
          const quote = find(state.swapQuotes, id);
          if (!quote) throw missing(id);
          return apply(quote);
        }),
      // One serialized update: no other decision can change a quote of the asset or the requester in between.
      (id, since, apply) =>
        store.update((state) => {
          const quote = find(state.swapQuotes, id);
          if (!quote) throw missing(id);
          const related = Object.values(state.swapQuotes)
            .filter(
              (other) =>
                other.id !== id &&
                (other.from.assetId === quote.from.assetId || other.requestedBy === quote.requestedBy),
            )
            .filter((other) => estimatedAfter(other, since))
            .map(cloneJson);
          return apply(quote, related, state.freeze?.current);
        }),
    ),
  };
}
