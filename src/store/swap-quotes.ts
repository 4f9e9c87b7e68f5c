/**
 * The swap quotes in the lowdb state file (`swapQuotes`, keyed by quote id; the file format is unchanged).
 * Each operation is one serialized, fsynced `update` of the store, so a claim and its check cannot interleave
 * with another, and a claim counts only once it is on disk.
 */
import { applySwapProgress, auditEntry, canMove, canRequote, needsFollowing, type QuoteStatus, type SwapQuote } from '../domain/swap-quote.js';
import type { CreateResult, DecisionClaim, SwapQuoteRepository } from './repository.js';
import { cloneJson, StoreError, type Store } from './store.js';

/** The part of the state this repository owns. */
interface WithSwapQuotes {
  swapQuotes: Record<string, SwapQuote>;
}

/** A quote the operation expected is not in the file: a programming error, never a user's. */
function missing(id: string): StoreError {
  return new StoreError(`no swap quote ${JSON.stringify(id).slice(0, 60)} in the state file`);
}

/** Moves `quote` to `to`, refusing any move the quote lifecycle does not allow. */
function move(quote: SwapQuote, to: QuoteStatus): void {
  if (!canMove(quote.status, to)) throw new StoreError(`swap quote ${quote.id} is ${quote.status} and cannot become ${to}`);
  quote.status = to;
}

/** The swap quote repository over the lowdb store that holds `swapQuotes`. */
export function createLowdbSwapQuoteRepository(store: Store<WithSwapQuotes>): SwapQuoteRepository {
  // Own keys only: an id such as `constructor` must never find something Object.prototype has.
  const find = (quotes: Record<string, SwapQuote>, id: string): SwapQuote | undefined => (Object.hasOwn(quotes, id) ? quotes[id] : undefined);
  const all = (): SwapQuote[] => Object.values(store.read().swapQuotes);

  /** One atomic change of an existing quote. */
  function change<R>(id: string, apply: (quote: SwapQuote) => R): Promise<R> {
    return store.update((state) => {
      const quote = find(state.swapQuotes, id);
      if (!quote) throw missing(id);
      return apply(quote);
    });
  }

  return {
    async saveQuote(quote) {
      await store.update((state) => {
        if (find(state.swapQuotes, quote.id)) throw new StoreError(`swap quote ${quote.id} already exists`);
        state.swapQuotes[quote.id] = cloneJson(quote);
      });
    },

    async getQuote(id) {
      const quote = find(store.read().swapQuotes, id);
      return quote && cloneJson(quote);
    },

    async listRecentQuotes(limit) {
      return all()
        .sort((a, b) => b.estimatedAt.localeCompare(a.estimatedAt))
        .slice(0, limit)
        .map(cloneJson);
    },

    async listQuotesByStatus(status) {
      return all().filter((quote) => quote.status === status).map(cloneJson);
    },

    async listQuotesToFollow() {
      return all().filter(needsFollowing).map(cloneJson);
    },

    async recordMessageTs(id, messageTs) {
      await change(id, (quote) => {
        quote.messageTs = messageTs;
      });
    },

    async markPostFailed(id, reason, slackError, at) {
      await change(id, (quote) => {
        move(quote, 'expired');
        quote.failure = reason;
        quote.history.push(auditEntry(at, 'post_failed', undefined, slackError));
      });
    },

    claimDecision(id, outcome, by, at, entry) {
      return change(id, (quote): DecisionClaim => {
        if (quote.status !== 'pending') return { claimed: false, quote: cloneJson(quote) };
        move(quote, outcome);
        quote.decidedBy = by;
        quote.decidedAt = at.toISOString();
        quote.history.push(entry);
        return { claimed: true, quote: cloneJson(quote) };
      });
    },

    recordCreateResult(id, result: CreateResult, _at, entry) {
      return change(id, (quote) => {
        if (result.ok) {
          move(quote, 'created');
          quote.swapId = result.swapId;
          quote.swapStatus = result.swapStatus;
        } else {
          move(quote, result.status);
          quote.failure = result.failure;
          if (result.unknownCause) quote.unknownCause = result.unknownCause;
        }
        quote.history.push(entry);
        return cloneJson(quote);
      });
    },

    recordSwapProgress(id, progress, at, { final }) {
      return change(id, (quote) => {
        const { changed } = applySwapProgress(quote, progress);
        if (changed) quote.history.push(auditEntry(at, `swap_${progress.swapStatus}`));
        if (final) quote.followEndedAt = at.toISOString();
        return { changed };
      });
    },

    async endFollow(id, at, entry) {
      await change(id, (quote) => {
        quote.followEndedAt = at.toISOString();
        quote.history.push(entry);
      });
    },

    markOutcomeUnknown(id, failure, _at, entry) {
      return change(id, (quote) => {
        if (quote.status !== 'approving') return false;
        move(quote, 'outcome_unknown');
        quote.unknownCause = 'interrupted';
        quote.failure = failure;
        quote.history.push(entry);
        return true;
      });
    },

    claimRequote(id, successorId, entry) {
      return change(id, (quote) => {
        if (!canRequote(quote)) return false;
        quote.replacedBy = successorId; // claimed now, so a double click makes one new quote
        quote.history.push(entry);
        return true;
      });
    },

    async recordRequote(id, successorId, entry) {
      await change(id, (quote) => {
        quote.replacedBy = successorId;
        quote.history.push(entry);
      });
    },

    async releaseRequote(id, entry) {
      await change(id, (quote) => {
        delete quote.replacedBy;
        quote.history.push(entry);
      });
    },
  };
}
