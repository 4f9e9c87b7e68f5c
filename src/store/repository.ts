/**
 * The swap quotes as the features see them: named operations on whole records, each atomic, none handing out
 * the stored record itself. The lowdb file (lowdb/swap-quotes.ts) and PostgreSQL (postgres/swap-quotes.ts) implement the
 * same methods (every one is async, and each is one statement or one transaction).
 */

import type { AlertsState, OutboxItem, SendAttempt, SendTarget, ThreadWork } from '../domain/alert-records.js';
import type { DecisionOutcome } from '../domain/approval.js';
import type { AuditEntry, QuoteStatus, SwapProgress, SwapQuote, UnknownCause } from '../domain/swap-quote.js';

/** The outcome of claimDecision: the caller's decision won, or the quote as the earlier winner left it. */
export type DecisionClaim = { claimed: true; quote: SwapQuote } | { claimed: false; quote: SwapQuote };

/** What came back from the one swap/create of an approved quote. */
export type CreateResult =
  | { ok: true; swapId: string; swapStatus: string }
  | { ok: false; status: 'create_failed' | 'outcome_unknown'; failure: string; unknownCause?: UnknownCause };

/** The swap quotes, persisted. Every method resolves once the change is durable (on disk, committed). */
export interface SwapQuoteRepository {
  /** Records a new quote (its first audit entries included). */
  saveQuote(quote: SwapQuote): Promise<void>;
  /** The quote with this id (own keys only: `constructor` finds nothing), or undefined. */
  getQuote(id: string): Promise<SwapQuote | undefined>;
  /** The newest `limit` quotes by estimate time, newest first. */
  listRecentQuotes(limit: number): Promise<SwapQuote[]>;
  /** Every quote in `status` (start-up recovery). */
  listQuotesByStatus(status: QuoteStatus): Promise<SwapQuote[]>;
  /** Every created quote whose swap is still being followed (start-up recovery). */
  listQuotesToFollow(): Promise<SwapQuote[]>;
  /** Where the quote message was posted: from now on only a click on it can decide the quote. */
  recordMessageTs(id: string, messageTs: string): Promise<void>;
  /** The quote message could not be posted: the quote ends as expired, with the reason. */
  markPostFailed(id: string, reason: string, slackError: string, at: Date): Promise<void>;
  /**
   * Atomically: if the quote is still pending, writes `outcome`, who decided and when, and `entry` to the
   * audit trail, and returns `claimed: true`; otherwise changes nothing and returns the quote as it is (the
   * winner's decision). This write comes BEFORE any swap/create: it is what makes the create happen once.
   */
  claimDecision(id: string, outcome: DecisionOutcome, by: string, at: Date, entry: AuditEntry): Promise<DecisionClaim>;
  /** Records the answer (or the failure) of the swap/create of an `approving` quote. */
  recordCreateResult(id: string, result: CreateResult, at: Date, entry: AuditEntry): Promise<SwapQuote>;
  /** Applies what swap/get reported; ends following at a final swap status. Says whether anything changed. */
  recordSwapProgress(
    id: string,
    progress: SwapProgress,
    at: Date,
    options: { final: boolean },
  ): Promise<{ changed: boolean }>;
  /** Following the swap stopped (gave up after the bound). */
  endFollow(id: string, at: Date, entry: AuditEntry): Promise<void>;
  /**
   * A quote found `approving` at start-up: the bot died between writing the approval and recording the
   * create's answer. Marks it `outcome_unknown` (`interrupted`) if it is still approving; says whether it did.
   */
  markOutcomeUnknown(id: string, failure: string, at: Date, entry: AuditEntry): Promise<boolean>;
  /**
   * Atomically claims "New quote" on a quote that ended without a swap and has no successor yet: records
   * `successorId` so a double click makes one new quote. False when it was already claimed (or cannot be).
   */
  claimRequote(id: string, successorId: string, entry: AuditEntry): Promise<boolean>;
  /** The successor quote was posted: the old quote points at it. */
  recordRequote(id: string, successorId: string, entry: AuditEntry): Promise<void>;
  /** Making the successor failed: the claim is released, so "New quote" can be tried again. */
  releaseRequote(id: string, entry: AuditEntry): Promise<void>;
}

/**
 * The alert poller's bookkeeping, persisted: what each source has read, the outbox of alerts waiting for
 * Slack, and the failures already alerted. Every method resolves once the change is durable.
 */
export interface AlertRepository {
  /** The bookkeeping as last committed (a copy: changing it changes nothing). */
  readAlerts(): Promise<AlertsState>;
  /**
   * Applies one poll's reading in one atomic change (new alerts into the outbox, each source's place, health,
   * pruning). `apply` is a pure function of the current bookkeeping; it may run again if the store retries.
   */
  commitPoll<R>(apply: (alerts: AlertsState) => R): Promise<R>;
  /** Slack accepted the message covering `items`: they leave the outbox, and failures count as alerted. Returns how many did. */
  recordDelivered(items: readonly OutboxItem[], at: Date): Promise<number>;
  /** Slack did not take a message; the outbox stays as it is for the next poll. */
  recordDeliveryFailure(at: Date, reason: string): Promise<void>;
  /**
   * Written BEFORE a post: the target may be in the channel from now on (a lost answer, a crash), so the next
   * attempt looks for it first. `undefined` clears the mark once Slack refused the post (it is not there).
   */
  recordSending(target: SendTarget, attempt: SendAttempt | undefined): Promise<void>;
  /**
   * A summary Slack accepted has a full list to post in its thread: `work` is queued. Written BEFORE
   * recordDelivered of the summary's items, so a crash in between re-posts the summary (the documented window)
   * but never loses the list. Queuing work for a threadTs already queued changes nothing.
   */
  queueThreadWork(work: ThreadWork): Promise<void>;
  /** Slack accepted part `part` of the thread of `threadTs`: it leaves the work (the entry too, once empty). */
  recordThreadPartPosted(threadTs: string, part: number, at: Date): Promise<void>;
}

/** What the bot runs on: the two repositories, from the lowdb file or from PostgreSQL. */
export interface BotRepositories {
  readonly swapQuotes: SwapQuoteRepository;
  readonly alerts: AlertRepository;
  /** Whether the store can be used now (GET /healthz); the lowdb file has nothing to check. */
  health?(): Promise<{ ok: boolean; detail: string }>;
}
