/**
 * The repository contract: what the features need kept, as named operations on whole records, each atomic, none
 * handing out the stored record itself. The features declare it here and src/store implements it twice, on the
 * lowdb state file (store/lowdb/) and on PostgreSQL (store/postgres/): every method is async, and each is one
 * statement or one transaction. The store imports the features' pure records; the features never import the store.
 */

import type { AlertChange, AlertRefusal, ReminderPolicy } from './alerts/lifecycle.js';
import type {
  AlertsState,
  OutboxItem,
  OwnedAlert,
  RedirectedFrom,
  SendAttempt,
  SendTarget,
  ThreadLine,
  ThreadWork,
} from './alerts/records.js';
import type { AlertTrailEntry } from './alerts/trail.js';
import type { DailySnapshot, DigestRecord } from './digest/records.js';
import type {
  FreezeEvent,
  FreezeOutcome,
  FreezeRecord,
  FreezeRequest,
  UnfreezeOutcome,
  UnfreezeRequest,
} from './freeze/rules.js';
import type { FollowedInvoice, SharedCopy } from './invoices/followed.js';
import type { PayoutOutcome, PayoutRequest } from './payouts/rules.js';
import type { EnrolmentChange, SecondFactorEvent, SlackDeletion, StoredEnrolment } from './second-factor/rules.js';
import type { QuoteDecision } from './swaps/decision.js';
import type { AuditEntry, QuoteStatus, SwapProgress, SwapQuote, UnknownCause } from './swaps/quote.js';
import type { BalanceThreshold, StoredThreshold, ThresholdChange } from './thresholds/rules.js';

/** The outcome of decideQuote: the decision as judged inside the atomic change, and the quote after it. */
export interface DecisionResult {
  decision: QuoteDecision;
  quote: SwapQuote;
}

/**
 * Judges a click on the quote as committed, seeing the other quotes out of the same source asset (its daily
 * limit) or of the same requester (their 24-hour window of the tiers).
 */
export type JudgeDecision = (
  quote: SwapQuote,
  related: readonly SwapQuote[],
  /** The freeze as committed, read in the same atomic change (absent: none; it may have run out: judge its `until`). */
  freeze: FreezeRecord | undefined,
) => QuoteDecision;

/** What came back from the one swap/create of an approved quote. */
export type CreateResult =
  | { ok: true; swapId: string; swapStatus: string }
  | { ok: false; status: 'create_failed' | 'outcome_unknown'; failure: string; unknownCause?: UnknownCause };

/** The swap quotes, persisted. Every method resolves once the change is durable (on disk, committed). */
export interface SwapQuoteRepository {
  /**
   * Records a new quote (its first audit entries included); quotes ended QUOTE_RETENTION_MS before it move out.
   * Refused with FrozenError (nothing saved) while a freeze is in force at its estimate time: checked in the same
   * atomic change as the insert.
   */
  saveQuote(quote: SwapQuote): Promise<void>;
  /** The quote with this id (own keys only: `constructor` finds nothing), or undefined. */
  getQuote(id: string): Promise<SwapQuote | undefined>;
  /** The newest `limit` quotes by estimate time, newest first. */
  listRecentQuotes(limit: number): Promise<SwapQuote[]>;
  /** Every quote in `status` (start-up recovery). */
  listQuotesByStatus(status: QuoteStatus): Promise<SwapQuote[]>;
  /** Every created quote whose swap is still being followed (start-up recovery). */
  listQuotesToFollow(): Promise<SwapQuote[]>;
  /** Every quote estimated after `since`, oldest first (the expiry sweep, the digest); a damaged one is left out. */
  listQuotesSince(since: Date): Promise<SwapQuote[]>;
  /**
   * As listQuotesSince, for judging the daily limit and a requester's 24-hour total (a quote, its preview, the
   * second factor's window): a quote that cannot be decoded is never left out, it refuses with DamagedRecordError
   * (unknown fails closed). The state file holds no damaged quote once open (it refuses to start on one).
   */
  listUsageSince(since: Date): Promise<SwapQuote[]>;
  /**
   * Moves every quote that ended before `cutoff` (swaps/retention.ts: final, not followed, nothing recorded since)
   * out of the working state into the archive the audit export reads; answers how many moved. saveQuote does it
   * too, with the new quote's estimate time less QUOTE_RETENTION_MS, so the working state stays bounded. A quote
   * that moved is not found by getQuote or any listing here: only by the audit export.
   */
  archiveEndedQuotes(cutoff: Date): Promise<number>;
  /** Where the quote message was posted: from now on only a click on it can decide the quote. */
  recordMessageTs(id: string, messageTs: string): Promise<void>;
  /** The quote message could not be posted: the quote ends as expired, with the reason. */
  markPostFailed(id: string, reason: string, slackError: string, at: Date): Promise<void>;
  /**
   * Atomically: `judge` sees the quote as committed and every other quote estimated after `since` out of the same
   * source asset (what counts against its daily limit) or of the same requester (their 24-hour window, which the
   * tier is judged on), and the change it decides (an approval counted, the quorum reached, the policy raised, a
   * rejection) is written with its audit entry; a refusal changes nothing. On PostgreSQL the decisions of one
   * asset, and those of one requester, run one at a time across replicas (the checks and the decision are one
   * transaction). Reaching the quorum writes `approving` BEFORE any swap/create: it is what makes the create
   * happen once.
   */
  decideQuote(id: string, since: Date, judge: JudgeDecision): Promise<DecisionResult>;
  /** A quote still pending at `at` ran out of time: it becomes `expired` with `entry`. Says whether it did. */
  expireLapsed(id: string, entry: AuditEntry): Promise<boolean>;
  /** Claims the one "expires soon" reminder of a pending quote; false when it was claimed before (or ended). */
  claimReminder(id: string, at: Date): Promise<boolean>;
  /** The reminder could not be posted: the claim is released, so a later sweep tries again. */
  releaseReminder(id: string): Promise<void>;
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
   * Alerts people own that are not resolved, by state at `now` (`open`, `acknowledged`, `snoozed`; see
   * openAlertCounts), counted where they are stored: the bookkeeping is neither copied nor parsed (a scrape reads it).
   */
  countOpenAlerts(now: Date): Promise<Record<string, number>>;
  /**
   * Applies one poll's reading in one atomic change (new alerts into the outbox, each source's place, health,
   * pruning). `apply` is a pure function of the current bookkeeping; it may run again if the store retries.
   */
  commitPoll<R>(apply: (alerts: AlertsState) => R): Promise<R>;
  /**
   * Slack accepted the message covering `items`: they leave the outbox, and failures count as alerted. With
   * `posted` (where the message is), the message becomes an alert people own. Returns how many failures.
   */
  recordDelivered(items: readonly OutboxItem[], at: Date, posted?: PostedMessage): Promise<number>;
  /**
   * Slack did not take a message; the outbox stays as it is for the next poll. With `refused`, the channel refused
   * it for good (see RefusingChannel): recorded until a post there is accepted again.
   */
  recordDeliveryFailure(at: Date, reason: string, refused?: { channel: string; error: string }): Promise<void>;
  /** Forgets the refusals of channels the configuration no longer sends alerts to (all but `channels`). */
  forgetRefusingChannels(keep: readonly string[]): Promise<void>;
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

  // Alerts people own. Each is one atomic change, so clicks on any replica run one at a time.

  /**
   * A person's act on the alert a click names (`ref`): `act` (a pure lifecycle rule, see alerts/lifecycle.ts) sees
   * the alert as committed; a change is stored with its thread line, a refusal changes nothing.
   */
  actOnAlert(ref: string, act: (alert: OwnedAlert) => AlertChange | AlertRefusal): Promise<ActOutcome>;
  /** Claims the thread lines this alert owes that nobody is posting (see claimAlertSync in alert-changes.ts). */
  claimAlertSync(key: string, at: Date): Promise<SyncClaim | undefined>;
  /** A claimed thread line was accepted by Slack, or refused (then it may be claimed again). */
  recordThreadLine(key: string, seq: number, outcome: 'posted' | 'refused'): Promise<void>;
  /** The message shows `version` now; answers the alert as it stands. */
  recordShown(key: string, version: number): Promise<OwnedAlert | undefined>;
  /**
   * The message (gone from Slack) is being posted again; `undefined` once Slack refused that post. With `seen` (the
   * message and attempt the caller read), recorded only if the alert still shows them; answers whether it was.
   */
  recordReposting(
    key: string,
    attempt: SendAttempt | undefined,
    seen?: { ts: string; attempt?: SendAttempt },
  ): Promise<boolean>;
  /** The message was posted again: the alert now lives at `posted`. */
  recordReposted(key: string, posted: { channel: string; ts: string; version: number }, at: Date): Promise<void>;
  /** Decides and queues every reminder due at `now` (one thread line each); answers the alerts concerned. */
  queueDueReminders(now: Date, plan: DueReminderPlan): Promise<string[]>;
}

/** Where a message Slack accepted is: an owned alert's home. */
export interface PostedMessage {
  key: string;
  channel: string;
  ts: string;
  /** Posted in ALERT_CHANNEL because its route refused it for good. */
  redirectedFrom?: RedirectedFrom;
}

/** What a person's act did: nothing found, a change (the alert after it), or a refusal (the alert as it is). */
export type ActOutcome =
  | { found: false }
  | { found: true; ok: true; alert: OwnedAlert }
  | { found: true; ok: false; refusal: AlertRefusal; alert: OwnedAlert };

/** An alert and the thread lines claimed for posting. */
export interface SyncClaim {
  alert: OwnedAlert;
  lines: ThreadLine[];
}

/** How reminders are decided: the policy of each alert (by its kind), and whom its first reminders mention. */
export interface DueReminderPlan {
  policy(alert: OwnedAlert): ReminderPolicy;
  mentions(alert: OwnedAlert): string[];
}

/**
 * Balance thresholds, the daily balance snapshots and the daily digests. Every method resolves once the
 * change is durable; each change is atomic (on PostgreSQL one transaction, so replicas run them one at a time).
 */
export interface BalanceRepository {
  /** Every threshold, by asset id. */
  listThresholds(): Promise<StoredThreshold[]>;
  /** Sets (or replaces) the asset's threshold and writes the change to the trail, in one change. */
  setThreshold(threshold: BalanceThreshold, by: string, at: Date): Promise<{ previous?: StoredThreshold }>;
  /** Removes the asset's threshold (and writes that to the trail); `removed` is undefined when there was none. */
  removeThreshold(assetId: string, by: string, at: Date): Promise<{ removed?: StoredThreshold }>;
  /** The trail of threshold changes at or after `since`, oldest first. */
  listThresholdChanges(since: Date): Promise<ThresholdChange[]>;
  /** Keeps the day's snapshot (replacing one of the same day); days past the retention leave. */
  saveSnapshot(snapshot: DailySnapshot): Promise<void>;
  /**
   * Keeps `snapshot` only when its day has none (`kept`), else returns the day's stored one unchanged; days past the
   * retention leave. This is what makes one snapshot a day across replicas and restarts.
   */
  keepSnapshot(snapshot: DailySnapshot): Promise<{ kept: boolean; snapshot: DailySnapshot }>;
  /** The snapshots from `fromDay` on, oldest first. */
  listSnapshots(fromDay: string): Promise<DailySnapshot[]>;
  /**
   * Claims the day's digest: `record` is stored when the day has none (`claimed`), else the stored one is
   * returned unchanged. This is what makes one digest a day across replicas and restarts.
   */
  claimDigest(record: DigestRecord): Promise<{ claimed: boolean; record: DigestRecord }>;
  /** The day's digest, if claimed. */
  getDigest(day: string): Promise<DigestRecord | undefined>;
  /** Changes the day's digest in one atomic step (`change` mutates it; a pure function); undefined when none. */
  changeDigest<R>(
    day: string,
    change: (record: DigestRecord) => R,
  ): Promise<{ result: R; record: DigestRecord } | undefined>;
}

/**
 * The answer of a claim: `claimed` (send create-payout once), `frozen` (a freeze was in force at the claim: nothing
 * changed, the proposal stays open), else the request as it stands (undefined: none).
 */
export type PayoutClaim =
  | { claimed: true; request: PayoutRequest }
  | { claimed: false; frozen: FreezeRecord; request: PayoutRequest }
  | { claimed: false; frozen?: undefined; request?: PayoutRequest };

/**
 * Requests to create a payout container. Every method resolves once the change is durable; each change
 * of a request is atomic (on PostgreSQL one transaction locking its row, so replicas run them one at a time).
 */
export interface PayoutRepository {
  /** Records a new request; requests past PAYOUT_REQUEST_RETENTION_MS leave. */
  saveRequest(request: PayoutRequest): Promise<void>;
  /** The request with this id (own keys only), or undefined. */
  getRequest(id: string): Promise<PayoutRequest | undefined>;
  /**
   * Atomically: a `proposed` request not older than `maxAgeMs` becomes `sending`, confirmed by `by` (`claimed`:
   * the caller sends create-payout, once); a lapsed one becomes `expired`; any other is returned as it is, so a
   * second click or a second replica is told what happened. Written BEFORE the create call. A `proposed` request
   * is not claimed while a freeze is in force at `at` (read in the same atomic change): `frozen`.
   */
  claimSend(id: string, by: string, at: Date, maxAgeMs: number): Promise<PayoutClaim>;
  /** Records the outcome of a `sending` request; `recorded` false (the request unchanged) for any other status. */
  recordOutcome(id: string, outcome: PayoutOutcome, at: Date): Promise<{ recorded: boolean; request?: PayoutRequest }>;
  /** Cancels a `proposed` request; `cancelled` false (the request unchanged) for any other status. */
  cancel(id: string, by: string, at: Date): Promise<{ cancelled: boolean; request?: PayoutRequest }>;
  /** The requests made at or after `since`, oldest first (the audit export reads it). */
  listRequestsSince(since: Date): Promise<PayoutRequest[]>;
}

/**
 * Invoices followed until they leave `pending` or expire: one record each, kept while it is open and
 * until Slack heard its outcome. Every method resolves once the change is durable; each change is atomic (on
 * PostgreSQL one transaction with the row locked, so replicas run them one at a time).
 */
export interface InvoiceRepository {
  /**
   * Starts following `record` (an invoice followed already is left as it is: `followed` false). In the same change,
   * while more than `max` would be open, the oldest open ones are settled as dropped (`bound`) with their notice
   * owed: they are answered in `dropped`.
   */
  followInvoice(
    record: FollowedInvoice,
    max: number,
    at: Date,
  ): Promise<{ followed: boolean; dropped: FollowedInvoice[] }>;
  /** A copy shared in a channel, to rewrite when the invoice changes; false when the invoice is not followed. */
  addSharedCopy(id: string, copy: SharedCopy): Promise<boolean>;
  /** Every record (open, or owing Slack its outcome), oldest first. */
  listInvoices(): Promise<FollowedInvoice[]>;
  /**
   * Changes one record in one atomic step (`change` mutates it; a pure function that may run again). A record whose
   * work is done (isFinished) leaves the store. Undefined when there is no such record.
   */
  changeInvoice<R>(
    id: string,
    change: (record: FollowedInvoice) => R,
  ): Promise<{ result: R; record: FollowedInvoice } | undefined>;
}

/** One page of a listing read in order, and where the next page starts (absent after the last page). */
export interface Page<T> {
  items: T[];
  /** Opaque: pass it as `after` to read the next page. */
  next?: string;
}

/**
 * What the audit export reads page by page, so a long period never sits in memory whole. Read-only; a
 * page is one statement, and pages follow a stable order, so rows written meanwhile never repeat a row.
 */
export interface AuditRepository {
  /** The alert trail at or after `since`, by time (then by the order it was written), `limit` entries after `after`. */
  listAlertTrail(since: Date, page: { after?: string; limit: number }): Promise<Page<AlertTrailEntry>>;
  /**
   * Swap quotes estimated after `since`, by estimate time (then id), `limit` quotes after `after`: those in the
   * working state and those archived after the retention alike.
   */
  listQuotes(since: Date, page: { after?: string; limit: number }): Promise<Page<SwapQuote>>;
}

/**
 * The freeze (features/freeze/rules.ts) and its trail: one record for the whole bot. Each change is atomic (on
 * PostgreSQL one transaction locking the one freeze row, so replicas run them one at a time). The swap decision
 * (decideQuote, saveQuote) and the payout claim (claimSend) read the freeze inside their own atomic change.
 */
export interface FreezeRepository {
  /** The freeze in force at `now` (one whose `until` passed is not), or undefined. */
  currentFreeze(now: Date): Promise<FreezeRecord | undefined>;
  /** Pulls the freeze, with its trail line; refused (nothing changes) while one is in force. */
  freeze(request: FreezeRequest): Promise<FreezeOutcome>;
  /**
   * Counts one admin's Unfreeze click (once per admin); at `quorum` distinct votes the freeze ends. A click on the
   * announcement of another freeze (`frozenAt` not the current one's) counts nothing.
   */
  voteUnfreeze(vote: UnfreezeRequest, quorum: number): Promise<UnfreezeOutcome>;
  /** The trail at or after `since` as of `now`, oldest first (the audit export reads it). */
  listFreezeTrail(since: Date, now: Date): Promise<FreezeEvent[]>;
  /**
   * The freezes whose `until` passed by `now` and whose end nobody announced yet, oldest first, each handed to one
   * caller only across replicas (claimed in the freeze's atomic change, its `expired` line written once).
   */
  claimExpiredFreezes(now: Date): Promise<FreezeRecord[]>;
  /** Keeps where the freeze begun at `frozenAt` was announced; false when it is gone (lifted, or its end announced). */
  recordFreezeAnnouncement(frozenAt: string, announcement: { channel: string; ts: string }): Promise<boolean>;
}

/**
 * The TOTP second factor (features/second-factor/rules.ts): one enrolment record per person and the trail. Each
 * change is one atomic read-modify-write of that person's record (on PostgreSQL one transaction holding the row
 * FOR UPDATE), so two replicas given the same code judge it one after the other and at most one accepts it. A
 * damaged record is handed to the rules as `damaged`, never dropped or replaced by the store.
 */
export interface SecondFactorRepository {
  /** The person's record as stored now. */
  readEnrolment(userId: string): Promise<StoredEnrolment>;
  /**
   * Runs `change` (pure, synchronous) on the person's record inside one atomic change, then writes what it decided
   * (the record kept, replaced or deleted), appends its trail lines and queues its Slack deletions (one already
   * queued under the same id stays as it is) in the same change. Answers its result.
   */
  changeEnrolment<R>(userId: string, change: (stored: StoredEnrolment) => EnrolmentChange<R>): Promise<R>;
  /** The trail at or after `since`, oldest first (the audit export reads it). */
  listSecondFactorTrail(since: Date): Promise<SecondFactorEvent[]>;
  /** Who has an enrolment waiting for its first code (the lapse sweep judges each with changeEnrolment). */
  listPendingEnrolments(): Promise<string[]>;
  /** The queued Slack deletions due at `now` (all when `now` is undefined), oldest first. */
  listSlackDeletions(now?: Date): Promise<SlackDeletion[]>;
  /** A deletion Slack confirmed (or found already gone) leaves the queue; false when it had left already. */
  finishSlackDeletion(id: string): Promise<boolean>;
  /** A deletion that failed stays queued: its tries, Slack's answer and when to try next. */
  postponeSlackDeletion(id: string, failed: { attempts: number; lastError: string; dueAt: string }): Promise<void>;
}

/**
 * Which forms' submissions already ran, by Slack view id, shared by every replica: a person who submits the same
 * form again (after Slack's "trouble connecting") runs it once, whichever replica the second submission reaches.
 */
export interface FormSubmissionRepository {
  /** True for the first claim of `viewId`, false after; other views' claims older than a day are forgotten. */
  claim(viewId: string, at: Date): Promise<boolean>;
}

/** What the bot runs on: the repositories, from the lowdb file or from PostgreSQL. */
export interface BotRepositories {
  readonly swapQuotes: SwapQuoteRepository;
  readonly alerts: AlertRepository;
  readonly balances: BalanceRepository;
  readonly invoices: InvoiceRepository;
  readonly payouts: PayoutRepository;
  readonly freeze: FreezeRepository;
  readonly secondFactor: SecondFactorRepository;
  readonly formSubmissions: FormSubmissionRepository;
  /** What the audit export reads (`/treasury audit`, `npm run audit`). */
  readonly audit: AuditRepository;
  /** Whether the store can be used now (GET /readyz): PostgreSQL answers, the state file is readable and writable. */
  health?(): Promise<{ ok: boolean; detail: string }>;
}
