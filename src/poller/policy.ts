/** The poller's fixed rules, what one poll needs, and what it reports. */
import type { Logger } from '../logger.js';
import type { PaymentsClient } from '../payments/index.js';
import type { BotRepositories } from '../store/repository.js';
import type { SourceName } from './facts.js';
import type { AlertPoster } from './slack.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The poller's fixed rules (documented in the README). */
export const POLL_POLICY = {
  /** Withdrawals per page when walking the list (the simulator's and, we assume, the API's maximum). */
  withdrawalsPerPage: 100,
  /**
   * At the first poll, withdrawals are read back this far at least (the list has no status filter): a withdrawal
   * pending then is followed until it is final. Tasks and gas find their pending rows through `status=pending`.
   */
  firstRunWithdrawalSpanMs: 7 * DAY,
  /** Each poll re-reads this much below the watermark (the newest createdAt seen): rows that became visible late. */
  overlapMs: 15 * MINUTE,
  /**
   * Pages one list may read in one poll. A list with more to read (first run with a long lookback, a long outage,
   * a burst) is caught up over several polls: the walk resumes where it stopped, and `/treasury alerts` shows it.
   */
  pagesPerListPerPoll: 20,
  /**
   * Follow-up reads of rows still pending (the task and gas `status=pending` lists, a withdrawal by id) a poll
   * makes at most: with the 4 reads of new rows, an idle poll makes at most 6 requests. When all three sources
   * need one, they take turns.
   */
  followReadsPerPoll: 2,
  /** Rows that left the pending list looked up in one poll (a task by id, a gas row by a narrow time window); the rest next poll. */
  lookupsPerPoll: 10,
  /** More new failures of one kind than this in one delivery: one summary instead of one message each. */
  floodThreshold: 5,
  /** Slack allows about one message per second per channel. */
  minPostIntervalMs: 1_000,
  /**
   * A post whose answer was lost is believed absent only once its first attempt is this old: Slack may still be
   * carrying out a request its client gave up on (the client waits 10 s; Slack's own work ends well within this).
   * Until then its items wait; the rest of the outbox goes on.
   */
  uncertainSettleMs: 2 * 60_000,
  /**
   * When Slack cannot answer the lookup (history reads fail) for this long after the first attempt, the post is
   * made again: a rare duplicate rather than an alert held back for good.
   */
  lookupGiveUpMs: 15 * 60_000,
  /** Polls in a row a source may fail (network, 5xx, 429…) before the "cannot reach" alert; 401/403 alert at once. */
  unreachableAfterPolls: 3,
} as const;

/** Remembers when the last post went out, across polls, so posts stay a second apart. */
export interface ChannelPacing {
  lastPostMs: number | undefined;
  /** Set once the log said that the channel cannot be read to look for lost posts (said once per process). */
  lookupRefusalLogged?: boolean;
}

/** What one poll needs; everything is injected so a test can run it against the simulator and a Slack stand-in. */
export interface PollDeps {
  payments: PaymentsClient;
  store: Pick<BotRepositories, 'alerts'>;
  slack: AlertPoster;
  channel: string;
  now: () => Date;
  /** ALERT_LOOKBACK: how far back the first poll of a source alerts; older failures are recorded, not alerted. */
  lookbackMs: number;
  logger: Logger;
  sleep: (ms: number) => Promise<void>;
  /** Shared by the polls of one poller; a fresh one per poll by default. */
  pacing?: ChannelPacing;
  /** Monotonic clock for pacing; performance.now by default. */
  clockMs?: () => number;
  /**
   * Replicated deployments: asked before every post. A replica that lost its lease (its database connection)
   * mid-poll posts nothing more; the replica that took over posts what is left.
   */
  stillLeading?: () => Promise<boolean>;
  /** Aborted at shutdown: the poll stops between requests and posts, committing nothing half-read. */
  signal?: AbortSignal;
}

/** What one source's read produced. */
export type SourceReport = { ok: true; requests: number; newFailures: number } | { ok: false; code: string; error: string };

/** What one poll did. */
export interface PollReport {
  at: Date;
  sources: Record<SourceName, SourceReport>;
  /** Alerts added to the outbox by this poll (health messages included). */
  queued: number;
  /** Messages Slack accepted in this poll. */
  posted: number;
  /** Failures marked alerted in this poll (a summary counts all it covers). */
  alerted: number;
  /** Alerts still waiting for Slack. */
  waiting: number;
  /** Why posting stopped, when Slack failed. */
  slackError?: string;
  /** The poll was stopped (shutdown) before it could commit. */
  aborted?: boolean;
}
