/**
 * The swap quote repository's changes as pure functions of one stored quote: each mutates `quote` in place and
 * returns the method's answer. Every storage (the lowdb file, PostgreSQL) runs them inside its own atomic change
 * of one quote, so the business rules exist once.
 */

import { type FreezeRecord, isFrozenAt } from '../features/freeze/rules.js';
import { FrozenError, NO_QUOTE_MADE } from '../features/freeze/words.js';
import type { CreateResult, DecisionResult, JudgeDecision, SwapQuoteRepository } from '../features/repositories.js';
import type { DecisionChange } from '../features/swaps/decision.js';
import {
  type AuditEntry,
  applySwapProgress,
  auditEntry,
  canMove,
  canRequote,
  type QuoteStatus,
  type SwapProgress,
  type SwapQuote,
} from '../features/swaps/quote.js';
import { QUOTE_RETENTION_MS } from '../features/swaps/retention.js';
import { StoreError } from '../kernel/store-error.js';
import { errorFields, type Logger } from '../logger.js';
import { cloneJson } from './clone-json.js';

/** Moves `quote` to `to`, refusing any move the quote lifecycle does not allow. */
function move(quote: SwapQuote, to: QuoteStatus): void {
  if (!canMove(quote.status, to))
    throw new StoreError(`swap quote ${quote.id} is ${quote.status} and cannot become ${to}`);
  quote.status = to;
}

function recordMessageTs(quote: SwapQuote, messageTs: string): void {
  quote.messageTs = messageTs;
}

function markPostFailed(quote: SwapQuote, reason: string, slackError: string, at: Date): void {
  move(quote, 'expired');
  quote.failure = reason;
  quote.history.push(auditEntry(at, 'post_failed', undefined, slackError));
}

/** Runs `judge` on a copy of the quote and applies the change it decides; a refusal changes nothing. */
function decideQuote(
  quote: SwapQuote,
  related: readonly SwapQuote[],
  judge: JudgeDecision,
  freeze: FreezeRecord | undefined,
): DecisionResult {
  const decision = judge(cloneJson(quote), related, freeze && cloneJson(freeze));
  if (decision.ok) applyDecision(quote, decision.change);
  return { decision, quote: cloneJson(quote) };
}

function applyDecision(quote: SwapQuote, change: DecisionChange): void {
  // A counted approval short of the quorum leaves the quote pending.
  if (change.status !== quote.status) move(quote, change.status);
  quote.approvals = change.approvals;
  if (change.policy) quote.policy = change.policy;
  if (change.decided) {
    quote.decidedBy = change.decided.by;
    quote.decidedAt = change.decided.at;
  }
  quote.history.push(change.entry);
}

function expireLapsed(quote: SwapQuote, entry: AuditEntry): boolean {
  if (quote.status !== 'pending') return false;
  move(quote, 'expired');
  quote.history.push(entry);
  return true;
}

function claimReminder(quote: SwapQuote, at: Date): boolean {
  if (quote.status !== 'pending' || quote.remindedAt !== undefined) return false;
  quote.remindedAt = at.toISOString();
  return true;
}

function releaseReminder(quote: SwapQuote): void {
  delete quote.remindedAt;
}

function recordCreateResult(quote: SwapQuote, result: CreateResult, entry: AuditEntry): SwapQuote {
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
}

function recordSwapProgress(quote: SwapQuote, progress: SwapProgress, at: Date, final: boolean): { changed: boolean } {
  const { changed } = applySwapProgress(quote, progress);
  if (changed) quote.history.push(auditEntry(at, `swap_${progress.swapStatus}`));
  if (final) quote.followEndedAt = at.toISOString();
  return { changed };
}

function endFollow(quote: SwapQuote, at: Date, entry: AuditEntry): void {
  // Replicas may all follow one swap (after one died): the first to give up records it, once.
  if (quote.followEndedAt !== undefined) return;
  quote.followEndedAt = at.toISOString();
  quote.history.push(entry);
}

function markOutcomeUnknown(quote: SwapQuote, failure: string, entry: AuditEntry): boolean {
  if (quote.status !== 'approving') return false;
  move(quote, 'outcome_unknown');
  quote.unknownCause = 'interrupted';
  quote.failure = failure;
  quote.history.push(entry);
  return true;
}

function claimRequote(quote: SwapQuote, successorId: string, entry: AuditEntry): boolean {
  if (!canRequote(quote)) return false;
  quote.replacedBy = successorId; // claimed now, so a double click makes one new quote
  quote.history.push(entry);
  return true;
}

function recordRequote(quote: SwapQuote, successorId: string, entry: AuditEntry): void {
  quote.replacedBy = successorId;
  quote.history.push(entry);
}

function releaseRequote(quote: SwapQuote, entry: AuditEntry): void {
  delete quote.replacedBy;
  quote.history.push(entry);
}

/** A storage's one atomic change of an existing quote (a StoreError when there is no such quote). */
export type ChangeQuote = <R>(id: string, apply: (quote: SwapQuote) => R) => Promise<R>;

/**
 * As ChangeQuote, also reading (in the same atomic change) the other quotes out of the quote's source asset or
 * asked for by its requester, estimated after `since`, and the freeze: copies, never changed.
 */
export type ChangeQuoteOfAsset = <R>(
  id: string,
  since: Date,
  apply: (quote: SwapQuote, related: readonly SwapQuote[], freeze: FreezeRecord | undefined) => R,
) => Promise<R>;

/** Refuses a new quote while `freeze` is in force at its estimate time (the caller holds the atomic change). */
export function refuseQuoteWhenFrozen(quote: Pick<SwapQuote, 'estimatedAt'>, freeze: FreezeRecord | undefined): void {
  if (freeze && isFrozenAt(freeze, new Date(quote.estimatedAt))) throw new FrozenError(freeze, NO_QUOTE_MADE);
}

type ChangingMethods = Exclude<
  keyof SwapQuoteRepository,
  | 'saveQuote'
  | 'getQuote'
  | 'listRecentQuotes'
  | 'listQuotesByStatus'
  | 'listQuotesToFollow'
  | 'listQuotesSince'
  | 'listUsageSince'
  | 'archiveEndedQuotes'
>;

/** The repository methods that change a quote, each one `change` (or `changeOfAsset`) of the storage. */
export function swapQuoteChangeMethods(
  change: ChangeQuote,
  changeOfAsset: ChangeQuoteOfAsset,
): Pick<SwapQuoteRepository, ChangingMethods> {
  return {
    decideQuote: (id, since, judge) =>
      changeOfAsset(id, since, (quote, related, freeze) => decideQuote(quote, related, judge, freeze)),
    expireLapsed: (id, entry) => change(id, (quote) => expireLapsed(quote, entry)),
    claimReminder: (id, at) => change(id, (quote) => claimReminder(quote, at)),
    releaseReminder: async (id) => change(id, (quote) => releaseReminder(quote)),
    recordMessageTs: async (id, messageTs) => change(id, (quote) => recordMessageTs(quote, messageTs)),
    markPostFailed: async (id, reason, slackError, at) =>
      change(id, (quote) => markPostFailed(quote, reason, slackError, at)),
    recordCreateResult: (id, result, _at, entry) => change(id, (quote) => recordCreateResult(quote, result, entry)),
    recordSwapProgress: (id, progress, at, { final }) =>
      change(id, (quote) => recordSwapProgress(quote, progress, at, final)),
    endFollow: async (id, at, entry) => change(id, (quote) => endFollow(quote, at, entry)),
    markOutcomeUnknown: (id, failure, _at, entry) => change(id, (quote) => markOutcomeUnknown(quote, failure, entry)),
    claimRequote: (id, successorId, entry) => change(id, (quote) => claimRequote(quote, successorId, entry)),
    recordRequote: async (id, successorId, entry) => change(id, (quote) => recordRequote(quote, successorId, entry)),
    releaseRequote: async (id, entry) => change(id, (quote) => releaseRequote(quote, entry)),
  };
}

/**
 * After a quote is saved, moves the quotes that ended more than QUOTE_RETENTION_MS before its estimate out of the
 * working state (both stores). Housekeeping: the quote is saved whatever happens here, so a failure is logged
 * and the old quotes stay where they are until the next save.
 */
export async function archiveAfterSave(
  quote: Pick<SwapQuote, 'estimatedAt'>,
  archiveEndedQuotes: (cutoff: Date) => Promise<number>,
  logger: Logger,
  workingState: string,
): Promise<void> {
  const estimated = Date.parse(quote.estimatedAt);
  if (Number.isNaN(estimated)) return;
  try {
    const moved = await archiveEndedQuotes(new Date(estimated - QUOTE_RETENTION_MS));
    if (moved > 0) logger.info('swap quotes past their retention moved to the archive', { moved });
  } catch (error) {
    logger.warn(`could not move old swap quotes to the archive; they stay in ${workingState} for now`, {
      error: errorFields(error),
    });
  }
}
