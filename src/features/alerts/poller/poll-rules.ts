/** The poller's fixed rules, what one poll needs, and what it reports. */

import type { Logger } from '../../../logger.js';
import type { BotMetrics } from '../../../metrics/index.js';
import type { PaymentsClient } from '../../../payments/index.js';
import type { BotRepositories } from '../../repositories.js';
import type { StoredThreshold } from '../../thresholds/rules.js';
import type { SourceName } from '../records.js';
import type { AlertRoutes } from '../routing.js';
import type { RunwayWatch } from './runways.js';
import type { AlertPoster } from './slack.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The poller's fixed rules (documented in docs/features/alerts.md). */
export const POLL_RULES = {
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
   * How often a row still pending is checked, by its age (now less its createdAt), youngest band first. A row
   * above its list's floor needs no check: the reads of new rows see it at every poll. Below the floor, tasks
   * and gas are checked by reading their `status=pending` list over the band's window (createdAt from one hour
   * ago, from one day ago, or all: one request for the young windows, the whole list for `all`), withdrawals
   * one by one by id (one request each, so their older bands are slower: the budget below holds about 1,400
   * withdrawals pending for over a day at one a day each). The "stuck" alerts (STUCK_*_AFTER) use the same ages.
   */
  recheckBands: {
    lists: [
      { youngerThanMs: HOUR, everyMs: 5 * MINUTE },
      { youngerThanMs: DAY, everyMs: 10 * MINUTE },
      { youngerThanMs: Number.POSITIVE_INFINITY, everyMs: HOUR },
    ],
    withdrawals: [
      { youngerThanMs: HOUR, everyMs: 5 * MINUTE },
      { youngerThanMs: DAY, everyMs: HOUR },
      { youngerThanMs: Number.POSITIVE_INFINITY, everyMs: DAY },
    ],
  },
  /**
   * The task pending list (the last day of it) is read at least this often even with nothing to follow: it is
   * how new pending tasks are found (the reads of new tasks take only failed ones). Shorter than the overlap, so
   * a task is seen pending before it falls below the floor of the failed list, or else fails above it.
   */
  taskDiscoveryEveryMs: 10 * MINUTE,
  /**
   * Gas rows matched while still pending (`handledPending`) are dropped from the state only when the whole
   * pending list is read; with nothing older than a day to follow, that read is made at least this often.
   */
  handledPendingCleanupEveryMs: DAY,
  /**
   * Follow-up requests one poll makes when all are due: with the 4 reads of new rows, an idle poll makes 6. A
   * task or gas window read counts one (its first page); withdrawal lookups take what is left, at least one when
   * any is due, the most overdue first. When more withdrawals are due than that, each waits its turn.
   */
  recheckRequestsPerPoll: 2,
  /**
   * Followed rows that turn failed are found at the next poll: the failed tasks are read from the oldest followed
   * task created within ALERT_LOOKBACK (the same read as the new failures, starting lower: usually the same one
   * page, no extra request), and while a followed gas top-up not yet alerted lies below the floor of the gas
   * reads, `status=failed` is read from it (one more request: the gas list has no order, so the read of new rows
   * cannot start lower for free). Each reads at most this many pages below the floor in one poll; older rows
   * are left to the follow-ups.
   */
  recheckPagesPerPoll: 1,
  /**
   * Gas top-ups are rechecked that way while younger than this (the youngest follow-up band, and STUCK_GAS_AFTER's
   * default): a top-up pending longer is stuck, and its extra request at every poll would go on for as long as it
   * stays so. Older ones are seen failed by their band's follow-up.
   */
  gasRecheckYoungerThanMs: HOUR,
  /** Rows that left the pending list looked up in one poll (a task by id, a gas row by a narrow time window); the rest next poll. */
  lookupsPerPoll: 10,
  /** More new failures of one kind than this in one delivery: one summary instead of one message each. */
  floodThreshold: 5,
  /** Slack allows about one message per second per channel. */
  minPostIntervalMs: 1_000,
  /**
   * A post whose answer was lost (no answer came: a timeout, a dropped connection, a crash) is believed absent only
   * once its first attempt is this old: Slack may still be carrying out a request its client gave up on (the client
   * waits 10 s; Slack's own work ends well within this). Until then its items wait; the rest of the outbox goes on.
   * A post Slack answered with a failure (5xx, `internal_error`, `fatal_error`) does not wait: one lookup settles it.
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
  /** ALERT_CHANNEL: where every kind of alert goes unless `routes` sends it elsewhere. */
  channel: string;
  /** ALERT_ROUTES: a channel (and a mention) per kind of alert. */
  routes?: AlertRoutes;
  /** ALERT_TIME_ZONE: where the snooze menu's "tomorrow 09:00" is. */
  timeZone?: string;
  /** STUCK_*_AFTER: a row pending longer than this gets one "stuck" alert; absent: none. */
  stuckAfterMs?: Readonly<Record<'withdrawal' | 'task' | 'gas', number>>;
  /**
   * The balance thresholds: while one is set, each poll reads the asset list once and raises or
   * resolves low-balance alerts. Absent, balances are not watched.
   */
  thresholds?: () => Promise<StoredThreshold[]>;
  /** RUNWAY_ALERT_DAYS: each poll judges every asset's runway from the asset list it reads; absent, not watched. */
  runway?: RunwayWatch;
  /** After the outbox went out: reminders and the Slack work alerts people own still owe (the polling replica only). */
  followUp?: () => Promise<void>;
  now: () => Date;
  /** ALERT_LOOKBACK: how far back the first poll of a source alerts; older failures are recorded, not alerted. */
  lookbackMs: number;
  logger: Logger;
  sleep: (ms: number) => Promise<void>;
  /** Shared by the polls of one poller; a fresh one per poll by default. */
  pacing?: ChannelPacing;
  /** Monotonic clock for pacing; performance.now by default. */
  clockMs?: () => number;
  /** Counts alerts posted and failed by kind, and their latency (the metrics). */
  metrics?: Pick<BotMetrics, 'alertPosted' | 'alertFailed' | 'alertLatency'>;
  /**
   * Replicated deployments: asked before every post. A replica that lost its lease (its database connection)
   * mid-poll posts nothing more; the replica that took over posts what is left.
   */
  stillLeading?: () => Promise<boolean>;
  /** Aborted at shutdown: the poll stops between requests and posts, committing nothing half-read. */
  signal?: AbortSignal;
}

/** What one source's read produced. */
export type SourceReport =
  | { ok: true; requests: number; newFailures: number }
  | { ok: false; code: string; error: string };

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
  /** The thresholds' read: how many are set, whether the asset list was read (one request), crossings queued. */
  balances?: { thresholds: number; ok: boolean; crossings: number; error?: string };
}
