import { z } from 'zod';
import { AlertFacts, GasAlertFacts, TaskAlertFacts, WithdrawalAlertFacts } from '../domain/alerts.js';
import { SwapQuote } from '../domain/swap-quote.js';
import { CorruptStateError, type Loaded, type RejectedRecord } from './store.js';

// The swap quote is a domain record (src/domain/swap-quote.ts); the state file stores it as is. Re-exported
// for modules that read the whole state.
export { AssetSnapshot, AuditEntry, QUOTE_STATUSES, SwapQuote, type QuoteStatus } from '../domain/swap-quote.js';

// ---------------------------------------------------------------------------------------------------------
// Alert poller. Times are ISO strings from Date.toISOString(), so they also compare as strings.

// The alert facts are domain records (src/domain/alerts.ts); the outbox stores them as they are.
export { AlertFacts, type FailureFacts } from '../domain/alerts.js';

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
});
export type SendAttempt = z.infer<typeof SendAttempt>;

/** What a send attempt is about: outbox items (one alert or a summary), or one part of a summary's thread. */
export type SendTarget = { itemKeys: readonly string[] } | { threadTs: string; part: number };

/** An alert waiting for Slack to accept it. It leaves the outbox only after Slack accepted it. */
export const OutboxItem = z.object({
  /** `withdrawal:<id>`, `task:<id>`, `gas:<id>`, or `api_down:<since>` / `api_recovered:<since>`. */
  key: z.string(),
  queuedAt: z.string(),
  facts: AlertFacts,
  /** Set while a message covering this item may have been posted (see SendAttempt); items sharing it go together. */
  sending: SendAttempt.optional(),
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
  /** Withdrawals: the last pending id checked by id; the next check takes the id after it (a rotation). */
  followAfter: z.string().optional(),
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
  kind: z.enum(['withdrawal', 'task', 'gas']),
  /** Failures in the whole list, and parts it was split into. */
  total: z.number().int().positive(),
  parts: z.number().int().positive(),
  queuedAt: z.string(),
  /** The parts still to post, in order; `first` numbers the part's first failure (1 = the newest). */
  remaining: z.array(
    z.object({
      part: z.number().int().positive(),
      first: z.number().int().positive(),
      failures: z.array(z.discriminatedUnion('kind', [WithdrawalAlertFacts, TaskAlertFacts, GasAlertFacts])).min(1),
      /** Set while this part may have been posted (see SendAttempt). */
      sending: SendAttempt.optional(),
    }),
  ),
});
export type ThreadWork = z.infer<typeof ThreadWork>;

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
  /** Polls counted, to rotate the follow-up reads when more sources need one than a poll allows. */
  followTurn: z.number().int().nonnegative().optional(),
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
  return { sources: { withdrawals: emptySource(), tasks: emptySource(), gas: emptySource() }, alerted: keyedRecord(), outbox: [] };
}

function emptySource(): AlertSourceState {
  return { consecutiveFailures: 0, tracking: keyedRecord() };
}

/** The whole state file. Files written before the alert poller existed load with empty alert state. */
export const BotState = z.object({
  version: z.literal(1),
  swapQuotes: z.record(z.string(), SwapQuote),
  alerts: AlertsState.default(() => emptyAlertsState()),
});
export type BotState = z.infer<typeof BotState>;

/** Empty state for a first start. */
export function emptyState(): BotState {
  return { version: 1, swapQuotes: keyedRecord(), alerts: emptyAlertsState() };
}

// ---------------------------------------------------------------------------------------------------------
// Loading the file record by record: one bad record is set aside, never the whole state.

const MAX_PROBLEM_CHARS = 300;

function problemOf(error: z.ZodError): string {
  const [first] = error.issues;
  const where = first?.path.map(String).join('.') || '(the record itself)';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : '';
  return `${where}: ${first?.message ?? 'invalid'}${more}`.slice(0, MAX_PROBLEM_CHARS);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

/**
 * Validates a keyed record entry by entry into a prototype-free record: a bad entry goes to `rejected`
 * (with its key as id), the others are kept. A part that is not a keyed record at all is rejected whole.
 */
function loadKeyed<V>(
  raw: unknown,
  where: string,
  schema: z.ZodType<V>,
  rejected: RejectedRecord[],
  check?: (key: string, value: V) => string | undefined,
): Record<string, V> {
  const record = keyedRecord<V>();
  if (raw === undefined) return record;
  if (!isObject(raw)) {
    rejected.push({ where, problem: `expected a record by id, found ${kindOf(raw)}`, value: raw });
    return record;
  }
  for (const key of Object.keys(raw)) {
    const parsed = schema.safeParse(raw[key]);
    const problem = parsed.success ? check?.(key, parsed.data) : problemOf(parsed.error);
    if (parsed.success && problem === undefined) record[key] = parsed.data;
    else rejected.push({ where: `${where}.${key}`, id: key, problem: problem ?? 'invalid', value: raw[key] });
  }
  return record;
}

/** An optional part: kept when valid, set aside (and left out) when not. */
function loadOptional<V>(raw: unknown, where: string, schema: z.ZodType<V>, rejected: RejectedRecord[]): V | undefined {
  if (raw === undefined) return undefined;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  rejected.push({ where, problem: problemOf(parsed.error), value: raw });
  return undefined;
}

/** The summaries' thread work, entry by entry, as the outbox is: a damaged entry is set aside, the others kept. */
function loadThreadWork(raw: unknown, rejected: RejectedRecord[]): ThreadWork[] {
  const kept: ThreadWork[] = [];
  if (raw === undefined) return kept;
  if (!Array.isArray(raw)) {
    rejected.push({ where: 'alerts.threadWork', problem: `expected a list, found ${kindOf(raw)}`, value: raw });
    return kept;
  }
  raw.forEach((item: unknown, index: number) => {
    const parsed = ThreadWork.safeParse(item);
    if (parsed.success) kept.push(parsed.data);
    else {
      const id = isObject(item) && typeof item.threadTs === 'string' ? { id: item.threadTs } : {};
      rejected.push({ where: `alerts.threadWork[${index}]`, ...id, problem: problemOf(parsed.error), value: item });
    }
  });
  return kept;
}

const SourceFields = AlertSourceState.omit({ tracking: true, lists: true });

/**
 * The alert bookkeeping, part by part. The handled-alert keys (`alerted`) and the outbox are kept entry by
 * entry whatever else is damaged: losing them would post alerts again, or never. A damaged source (its
 * watermark…) starts over from ALERT_LOOKBACK, where the surviving `alerted` keys stop re-posts.
 */
function loadAlerts(raw: unknown, rejected: RejectedRecord[]): AlertsState {
  const alerts = emptyAlertsState();
  if (raw === undefined) return alerts;
  if (!isObject(raw)) {
    rejected.push({ where: 'alerts', problem: `expected the alert state, found ${kindOf(raw)}`, value: raw });
    return alerts;
  }
  if (raw.sources !== undefined && !isObject(raw.sources)) {
    rejected.push({ where: 'alerts.sources', problem: `expected the watched sources, found ${kindOf(raw.sources)}`, value: raw.sources });
  } else if (raw.sources !== undefined) {
    const sources = raw.sources;
    for (const name of ['withdrawals', 'tasks', 'gas'] as const) {
      const source = sources[name];
      if (source === undefined) continue;
      const where = `alerts.sources.${name}`;
      if (!isObject(source)) {
        rejected.push({ where, id: name, problem: `expected a source state, found ${kindOf(source)}`, value: source });
        continue;
      }
      const { tracking, lists, ...fields } = source;
      const parsed = SourceFields.safeParse(fields);
      if (parsed.success) Object.assign(alerts.sources[name], parsed.data);
      else rejected.push({ where, id: name, problem: problemOf(parsed.error), value: fields });
      alerts.sources[name].tracking = loadKeyed(tracking, `${where}.tracking`, z.string(), rejected);
      // Files of the version before per-list places have no `lists`: each list then starts from `watermark`.
      // A damaged list starts over from the source's watermark (an overlap re-read, deduplicated by `alerted`).
      if (lists !== undefined) alerts.sources[name].lists = loadKeyed(lists, `${where}.lists`, ListState, rejected);
    }
  }
  alerts.alerted = loadKeyed(raw.alerted, 'alerts.alerted', AlertedEntry, rejected);
  if (raw.outbox !== undefined && !Array.isArray(raw.outbox)) {
    rejected.push({ where: 'alerts.outbox', problem: `expected a list, found ${kindOf(raw.outbox)}`, value: raw.outbox });
  } else if (raw.outbox !== undefined) {
    raw.outbox.forEach((item: unknown, index: number) => {
      const parsed = OutboxItem.safeParse(item);
      if (parsed.success) alerts.outbox.push(parsed.data);
      else {
        const key = isObject(item) && typeof item.key === 'string' ? { id: item.key } : {};
        rejected.push({ where: `alerts.outbox[${index}]`, ...key, problem: problemOf(parsed.error), value: item });
      }
    });
  }
  const apiDown = loadOptional(raw.apiDown, 'alerts.apiDown', AlertsState.shape.apiDown.unwrap(), rejected);
  if (apiDown) alerts.apiDown = apiDown;
  const lastDelivery = loadOptional(raw.lastDelivery, 'alerts.lastDelivery', AlertsState.shape.lastDelivery.unwrap(), rejected);
  if (lastDelivery) alerts.lastDelivery = lastDelivery;
  const threadWork = loadThreadWork(raw.threadWork, rejected);
  if (threadWork.length > 0) alerts.threadWork = threadWork;
  const sentPerHour = loadOptional(raw.sentPerHour, 'alerts.sentPerHour', AlertsState.shape.sentPerHour.unwrap(), rejected);
  if (sentPerHour) alerts.sentPerHour = Object.assign(keyedRecord<number>(), sentPerHour);
  const followTurn = loadOptional(raw.followTurn, 'alerts.followTurn', AlertsState.shape.followTurn.unwrap(), rejected);
  if (followTurn !== undefined) alerts.followTurn = followTurn;
  return alerts;
}

/**
 * The state file's JSON, record by record: every valid quote and alert record is kept, each damaged one is
 * returned in `rejected` for the store to set aside. Only a file that is not version-1 state at all is corrupt.
 */
export function loadBotState(raw: Record<string, unknown>): Loaded<BotState> {
  if (raw.version !== 1) throw new CorruptStateError(`unknown state version ${String(JSON.stringify(raw.version)).slice(0, 40)}`);
  const rejected: RejectedRecord[] = [];
  const swapQuotes = loadKeyed(raw.swapQuotes, 'swapQuotes', SwapQuote, rejected, (key, quote) =>
    quote.id === key ? undefined : `stored under one id but its own id is another (${JSON.stringify(quote.id).slice(0, 60)})`,
  );
  return { data: { version: 1, swapQuotes, alerts: loadAlerts(raw.alerts, rejected) }, rejected };
}
