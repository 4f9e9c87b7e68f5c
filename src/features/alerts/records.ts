/**
 * The alert poller's bookkeeping records (zod schemas and their types): where each watched source stands, the
 * outbox of alerts waiting for Slack, the failures already alerted, the summaries' thread work. Both stores keep
 * them as they are (the lowdb file under `alerts`, PostgreSQL in `alert_state`/`alert_outbox`). Times are ISO
 * strings from Date.toISOString(), so they also compare as strings.
 */
import { z } from 'zod';
import { ALERT_KINDS, AlertFacts, FailureFacts, kindNames, type OwnedSubject } from './kinds/index.js';
import type { StuckFacts } from './kinds/stuck.js';
import { AlertEvent, AlertLife } from './lifecycle.js';
import { ROUTE_KINDS } from './routing.js';

/** The three watched sources, in the order they are polled and shown. */
export const SOURCES = ['withdrawals', 'tasks', 'gas'] as const;
export type SourceName = (typeof SOURCES)[number];

type NonEmpty<T> = [T, ...T[]];

/**
 * A channel the bot is to post alerts in (ALERT_CHANNEL or a route of ALERT_ROUTES) that refused a post in a way no
 * retry fixes (archived, not found, the bot not in it, a missing scope…). It stays until a post there is accepted
 * again; `/treasury alerts` shows it while the configuration still sends alerts there.
 */
export const RefusingChannel = z.object({
  /** Slack's error code (`is_archived`…). */
  error: z.string().min(1),
  /** The first refusal of this run, and the latest. */
  since: z.string(),
  at: z.string(),
});
export type RefusingChannel = z.infer<typeof RefusingChannel>;

/** Where an alert was meant to go when it was posted in ALERT_CHANNEL instead: its route, and why Slack refused it. */
export const RedirectedFrom = z.object({ channel: z.string().min(1), error: z.string().min(1) });
export type RedirectedFrom = z.infer<typeof RedirectedFrom>;

/**
 * A post that may have reached Slack: written before the post is sent, cleared when Slack refused it. While it
 * is there, the next attempt first looks for a message carrying `key` in its metadata (posted since `since`)
 * and records that message instead of posting again: a lost answer or a crash never posts twice.
 */
export const SendAttempt = z.object({
  /** The delivery's key, in the message's metadata: the alert's key, or `summary:<kind>:<uuid>`, `thread:<ts>:<part>`. */
  key: z.string().min(1),
  /** When the first attempt was made (our clock): the lookup reads the channel from there on. */
  since: z.string(),
  /**
   * Where the post was sent (the channel the lookup reads). Absent in files from before: the item's route, or
   * the thread's channel.
   */
  channel: z.string().min(1).optional(),
  /**
   * Slack answered the post with a failure (a 5xx, `internal_error`, `fatal_error`): the message may be there, but
   * Slack is done with the request, so one lookup settles it (no waiting for POLL_RULES.uncertainSettleMs).
   */
  answered: z.literal(true).optional(),
  /** Sent to ALERT_CHANNEL because the item's route refused it for good (see RedirectedFrom). */
  redirectedFrom: RedirectedFrom.optional(),
});
export type SendAttempt = z.infer<typeof SendAttempt>;

/** What a send attempt is about: outbox items (one alert or a summary), or one part of a summary's thread. */
export type SendTarget = { itemKeys: readonly string[] } | { threadTs: string; part: number };

/** An alert waiting for Slack to accept it. It leaves the outbox only after Slack accepted it. */
export const OutboxItem = z.object({
  /** `withdrawal:<id>`, `task:<id>`, `gas:<id>`, or `api_down:<since>` / `api_recovered:<since>`. */
  key: z.string(),
  queuedAt: z.string(),
  /**
   * When the payment API says the change happened (a gas row's updatedAt, a new failure's createdAt), where it
   * gives one that is believable (see changeTimeOf): the start of the alert's latency. Absent (and in items from
   * before), the latency starts at `queuedAt`, the poll's first sight.
   */
  changedAt: z.string().optional(),
  facts: AlertFacts,
  /** Set while a message covering this item may have been posted (see SendAttempt); items sharing it go together. */
  sending: SendAttempt.optional(),
  /**
   * Failures that belong to this alert's incident, found while it waited for Slack (a gas top-up short of donor
   * balance while the donor asset's low-balance alert is queued): told in its thread once it is posted, or alerted
   * on their own if the item is dropped unposted. `event` is the thread line, `facts` the failure itself.
   */
  told: z.array(z.object({ key: z.string(), facts: FailureFacts, event: AlertEvent })).optional(),
});
export type OutboxItem = z.infer<typeof OutboxItem>;

/**
 * A catch-up walk of one list that did not fit one poll's page budget: it resumes where it stopped. Rows the
 * walk has passed are never read again by it; `to` becomes the list's watermark once it is done.
 */
export const WalkState = z.object({
  /** Lower bound (createdAt) of the walk: the list's floor when it began. */
  from: z.string(),
  /** The newest createdAt seen when the walk began: the watermark once the walk is done. */
  to: z.string(),
  /** Cursor lists: where to resume (same filters). */
  cursor: z.string().optional(),
  /** Withdrawals: rows above the resume point, when the list held `totalCount` rows. */
  offset: z.number().int().nonnegative().optional(),
  totalCount: z.number().int().nonnegative().optional(),
  /** Oldest createdAt processed so far, and the ids processed at exactly that instant (withdrawal resume). */
  oldest: z.string().optional(),
  boundaryIds: z.array(z.string()).optional(),
  /** Rows read so far, and an estimate of the rows in the whole walk (when the list allows one). */
  read: z.number().int().nonnegative(),
  estimate: z.number().int().nonnegative().optional(),
  startedAt: z.string(),
  /** Failures found by following (not by the walk) inside the walk's range: the walk must not alert them again. */
  followKeys: z.array(z.string()).optional(),
});
export type WalkState = z.infer<typeof WalkState>;

/** One list of a source: the newest createdAt seen (API clock), a walk in progress, if any, and when it was last read in full. */
export const ListState = z.object({
  watermark: z.string().optional(),
  walk: WalkState.optional(),
  /**
   * When (our clock) the last complete read of this list began. A row created more than the overlap before it had
   * its whole overlap to become visible by then, so the next read need not go below it (see listFloor).
   */
  readAt: z.string().optional(),
});
export type ListState = z.infer<typeof ListState>;

/** Where one watched source stands. */
export const AlertSourceState = z.object({
  /** Set by the first successful poll of this source; before it, ALERT_LOOKBACK applies. */
  initializedAt: z.string().optional(),
  lastSuccessAt: z.string().optional(),
  lastError: z.object({ at: z.string(), message: z.string(), code: z.string() }).optional(),
  consecutiveFailures: z.number().int().default(0),
  /** When the current run of failed polls began. */
  failingSince: z.string().optional(),
  /** Newest createdAt seen (API clock); the next poll reads down to it (less an overlap). */
  watermark: z.string().optional(),
  /** Records seen still pending (id → createdAt): followed until final, however old (no horizon). */
  tracking: z.record(z.string(), z.string()).default({}),
  /** Per list of the source (`all`, `failed`, `default`, `cancelled`): its own watermark and any catch-up walk. */
  lists: z.record(z.string(), ListState).optional(),
  /** The pending list has been read once since this version started following it (tasks, gas). */
  pendingSyncedAt: z.string().optional(),
  /** Gas: ids alerted (or recorded) while still pending, so the pending list does not find them again. */
  handledPending: z.array(z.string()).optional(),
  /** Tasks and gas: when (our clock) each window of the pending list (`hour`, `day`, `all`) was last read. */
  windowReads: z
    .object({ hour: z.string().optional(), day: z.string().optional(), all: z.string().optional() })
    .optional(),
  /** Withdrawals: when each followed row was last seen (id → our clock), for its age band's interval. */
  checkedAt: z.record(z.string(), z.string()).optional(),
});
export type AlertSourceState = z.infer<typeof AlertSourceState>;

/** One handled failure in `alerted`. */
export const AlertedEntry = z.object({ createdAt: z.string(), at: z.string().optional() });

/**
 * The full list behind a summary that Slack accepted, still to be posted in the summary's thread: one entry per
 * summary, holding the parts not yet posted. A part leaves only after Slack accepted it.
 */
export const ThreadWork = z.object({
  /** The summary's ts: the parts are replies in its thread. */
  threadTs: z.string().min(1),
  /** The summary's channel (its kind's route); absent in files from before routing: ALERT_CHANNEL. */
  channel: z.string().optional(),
  kind: z.enum(kindNames((kind) => kind.failure) as NonEmpty<FailureFacts['kind']>),
  /** Failures in the whole list, and parts it was split into. */
  total: z.number().int().positive(),
  parts: z.number().int().positive(),
  queuedAt: z.string(),
  /** The parts still to post, in order; `first` numbers the part's first failure (1 = the newest). */
  remaining: z.array(
    z.object({
      part: z.number().int().positive(),
      first: z.number().int().positive(),
      failures: z.array(FailureFacts).min(1),
      /** Set while this part may have been posted (see SendAttempt). */
      sending: SendAttempt.optional(),
    }),
  ),
});
export type ThreadWork = z.infer<typeof ThreadWork>;

/** The facts a summary lists: the kinds whose floods are summarised (each about one row). */
const SummarisedFacts = z.union([
  FailureFacts,
  ...ALERT_KINDS.filter((kind) => kind.summary && !kind.failure).map((kind) => kind.facts),
]) as unknown as z.ZodType<FailureFacts | StuckFacts>;

const SummarySubject = z.object({
  type: z.literal('summary'),
  kind: z.enum(kindNames((kind) => kind.summary !== undefined) as NonEmpty<(FailureFacts | StuckFacts)['kind']>),
  total: z.number().int().positive(),
  listed: z.array(SummarisedFacts),
});

/**
 * What an owned alert's message shows; kept so that the message can be rewritten, or posted again, from the record.
 * One failure, or a flood of one kind in one message, or the subject of another kind (its module's `owned.schema`).
 */
export const AlertSubject = z.discriminatedUnion('type', [
  /** One failure. */
  z.object({ type: z.literal('failure'), facts: FailureFacts }),
  /** A flood of one kind in one message: the newest SUMMARY_LIST_CAP of `total` (the rest went to its thread). */
  SummarySubject,
  ...ALERT_KINDS.flatMap((kind) => kind.owned?.schema ?? []),
] as unknown as NonEmpty<z.ZodObject>) as unknown as z.ZodType<AlertSubject>;
export type AlertSubject =
  | { type: 'failure'; facts: FailureFacts }
  | Exclude<OwnedSubject, { type: 'failure' }>
  | z.infer<typeof SummarySubject>;

/** One reply the alert's thread still owes: posted once (see SendAttempt), then it leaves the list. */
export const ThreadLine = z.object({
  seq: z.number().int().positive(),
  event: AlertEvent,
  sending: SendAttempt.optional(),
});
export type ThreadLine = z.infer<typeof ThreadLine>;

/**
 * An alert people own: its life (open → acknowledged → resolved), where its message is, what the
 * message shows, and the Slack work it still owes: a rewrite while `shown` is behind `life.version`, and the
 * thread lines not yet posted. The message is a view of this record.
 */
export const OwnedAlert = z.object({
  /** The delivery key the message was posted with (`withdrawal:<id>`, `summary:<kind>:<uuid>`, `stuck:…`, `api_down:…`). */
  key: z.string().min(1),
  kind: z.enum(ROUTE_KINDS),
  /**
   * What the alert is about, so a later event about the same object goes into its thread instead of a new
   * message: `withdrawal:<id>`, `task:<id>`, `gas:<id>`, `gas-address:<network>:<address>`, `watcher`.
   */
  objects: z.array(z.string()),
  channel: z.string().min(1),
  ts: z.string().min(1),
  postedAt: z.string(),
  subject: AlertSubject,
  life: AlertLife,
  /** The version the message in Slack shows now. */
  shown: z.number().int().nonnegative(),
  /** Thread lines still to post, in order. */
  thread: z.array(ThreadLine),
  nextSeq: z.number().int().positive(),
  /** Set while the message (gone from Slack) is being posted again (see SendAttempt). */
  reposting: SendAttempt.optional(),
  /** Posted in ALERT_CHANNEL because its route refused it for good: the message says so. */
  redirectedFrom: RedirectedFrom.optional(),
});
export type OwnedAlert = z.infer<typeof OwnedAlert>;

/** An asset whose runway is below RUNWAY_ALERT_DAYS, as the poller remembers it between polls. */
export const RunwayLow = z.object({ since: z.string(), alertKey: z.string(), belowDays: z.string() });
export type RunwayLow = z.infer<typeof RunwayLow>;

/**
 * An asset below its threshold, as the poller remembers it between polls, with the threshold it went below (a
 * changed threshold ends that alert and is judged afresh).
 */
export const BalanceLow = z.object({
  since: z.string(),
  alertKey: z.string(),
  measure: z.enum(['units', 'usd']).optional(),
  below: z.string().optional(),
});
export type BalanceLow = z.infer<typeof BalanceLow>;

/** The alert poller's persisted state; bounded by pruning at every poll. */
export const AlertsState = z.object({
  sources: z
    .object({
      withdrawals: AlertSourceState.default(() => ({ consecutiveFailures: 0, tracking: {} })),
      tasks: AlertSourceState.default(() => ({ consecutiveFailures: 0, tracking: {} })),
      gas: AlertSourceState.default(() => ({ consecutiveFailures: 0, tracking: {} })),
    })
    .default(() => emptyAlertsState().sources),
  /**
   * Failures already handled, by key: `at` is when Slack accepted the alert; no `at` means the failure was
   * older than ALERT_LOOKBACK at the first poll (a baseline, never alerted). `createdAt` drives pruning.
   */
  alerted: z.record(z.string(), AlertedEntry).default({}),
  outbox: z.array(OutboxItem).default([]),
  /** Set while an `api_down` alert stands; cleared (and `api_recovered` queued) when every source reads again. */
  apiDown: z.object({ since: z.string() }).optional(),
  /** The last attempt to post to the channel. */
  lastDelivery: z.object({ at: z.string(), ok: z.boolean(), error: z.string().optional() }).optional(),
  /** Summaries' full lists still to post in their threads (see ThreadWork); absent when there are none. */
  threadWork: z.array(ThreadWork).optional(),
  /** Failures Slack accepted, counted per hour (hour start ISO → count), the last 25 hours: `/treasury alerts`. */
  sentPerHour: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Alerts people own, by key: open and acknowledged ones, and resolved ones for a while (see ALERT_POLICY). */
  owned: z.record(z.string(), OwnedAlert).optional(),
  /**
   * Assets whose balance is below their threshold now, by asset id: since when, and the key of the
   * low-balance alert raised then. An asset not listed is not low. Written in the same commit as the alert's
   * outbox item, so a restart neither repeats nor loses a crossing; bounded by the thresholds set.
   */
  balancesLow: z.record(z.string(), BalanceLow).optional(),
  /**
   * Assets whose runway is below RUNWAY_ALERT_DAYS now, by asset id, with the alert raised and the level it was
   * below: written in the same commit as the alert's outbox item; bounded by the assets.
   */
  runwaysLow: z.record(z.string(), RunwayLow).optional(),
  /** Channels that refuse alerts for good now, by channel id (see RefusingChannel); absent when none does. */
  refusingChannels: z.record(z.string(), RefusingChannel).optional(),
  /** When the last successful poll (every source read, by whichever replica polled) began. */
  lastSuccessfulPollAt: z.string().optional(),
});
export type AlertsState = z.infer<typeof AlertsState>;

/**
 * A keyed record with no prototype: ids such as `constructor`, `toString` or `__proto__` are plain keys that
 * are either there or not, never inherited from Object.prototype. The store keeps it prototype-free.
 */
export function keyedRecord<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** The poller's state before its first poll. */
export function emptyAlertsState(): AlertsState {
  return {
    sources: { withdrawals: emptySource(), tasks: emptySource(), gas: emptySource() },
    alerted: keyedRecord(),
    outbox: [],
  };
}

function emptySource(): AlertSourceState {
  return { consecutiveFailures: 0, tracking: keyedRecord() };
}
