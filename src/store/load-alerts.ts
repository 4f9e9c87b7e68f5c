/**
 * Loading the alert bookkeeping record by record, shared by both stores (the lowdb file's loader and
 * PostgreSQL's state row): one damaged record is set aside, never the whole bookkeeping. Also the generic
 * helpers (loadKeyed, problemOf) and the RejectedRecord/Loaded types the lowdb file loader builds on.
 */
import { z } from 'zod';
import {
  AlertedEntry,
  AlertSourceState,
  AlertsState,
  BalanceLow,
  emptyAlertsState,
  keyedRecord,
  ListState,
  OutboxItem,
  OwnedAlert,
  RefusingChannel,
  RunwayLow,
  ThreadWork,
} from '../features/alerts/records.js';

/** A stored record that failed validation: kept aside (in a file, or left in its row) and logged, never silently dropped. */
export interface RejectedRecord {
  /** Where it was in the file, e.g. `swapQuotes.<id>` or `alerts.outbox[3]`. */
  where: string;
  /** The record's id or key, when it has one. */
  id?: string;
  /** What is wrong with it, in a line. */
  problem: string;
  /** The record as it was in the file. */
  value: unknown;
}

/** What a loader makes of the file: the usable state, and the records it had to set aside. */
export interface Loaded<T> {
  data: T;
  rejected: RejectedRecord[];
}

const MAX_PROBLEM_CHARS = 300;

/** The first problem zod found, in a line (with how many more there were). */
export function problemOf(error: z.ZodError): string {
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
export function loadKeyed<V>(
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

const SourceFields = AlertSourceState.omit({ tracking: true, lists: true, checkedAt: true });

/**
 * The alert bookkeeping, part by part. The handled-alert keys (`alerted`) and the outbox are kept entry by
 * entry whatever else is damaged: losing them would post alerts again, or never. A damaged source (its
 * watermark…) starts over from ALERT_LOOKBACK, where the surviving `alerted` keys stop re-posts.
 */
export function loadAlertsState(raw: unknown, rejected: RejectedRecord[]): AlertsState {
  const alerts = emptyAlertsState();
  if (raw === undefined) return alerts;
  if (!isObject(raw)) {
    rejected.push({ where: 'alerts', problem: `expected the alert state, found ${kindOf(raw)}`, value: raw });
    return alerts;
  }
  if (raw.sources !== undefined && !isObject(raw.sources)) {
    rejected.push({
      where: 'alerts.sources',
      problem: `expected the watched sources, found ${kindOf(raw.sources)}`,
      value: raw.sources,
    });
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
      const { tracking, lists, checkedAt, ...fields } = source;
      const parsed = SourceFields.safeParse(fields);
      if (parsed.success) Object.assign(alerts.sources[name], parsed.data);
      else rejected.push({ where, id: name, problem: problemOf(parsed.error), value: fields });
      alerts.sources[name].tracking = loadKeyed(tracking, `${where}.tracking`, z.string(), rejected);
      // A damaged check time only makes its withdrawal due at once.
      if (checkedAt !== undefined)
        alerts.sources[name].checkedAt = loadKeyed(checkedAt, `${where}.checkedAt`, z.string(), rejected);
      // Files of the version before per-list places have no `lists`: each list then starts from `watermark`.
      // A damaged list starts over from the source's watermark (an overlap re-read, deduplicated by `alerted`).
      if (lists !== undefined) alerts.sources[name].lists = loadKeyed(lists, `${where}.lists`, ListState, rejected);
    }
  }
  alerts.alerted = loadKeyed(raw.alerted, 'alerts.alerted', AlertedEntry, rejected);
  if (raw.outbox !== undefined && !Array.isArray(raw.outbox)) {
    rejected.push({
      where: 'alerts.outbox',
      problem: `expected a list, found ${kindOf(raw.outbox)}`,
      value: raw.outbox,
    });
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
  const lastDelivery = loadOptional(
    raw.lastDelivery,
    'alerts.lastDelivery',
    AlertsState.shape.lastDelivery.unwrap(),
    rejected,
  );
  if (lastDelivery) alerts.lastDelivery = lastDelivery;
  const threadWork = loadThreadWork(raw.threadWork, rejected);
  if (threadWork.length > 0) alerts.threadWork = threadWork;
  const sentPerHour = loadOptional(
    raw.sentPerHour,
    'alerts.sentPerHour',
    AlertsState.shape.sentPerHour.unwrap(),
    rejected,
  );
  if (sentPerHour) alerts.sentPerHour = Object.assign(keyedRecord<number>(), sentPerHour);
  // Alerts people own, one by one: a damaged one is set aside (its message stays as it was in Slack).
  if (raw.owned !== undefined) {
    const owned = loadKeyed(raw.owned, 'alerts.owned', OwnedAlert, rejected, (key, alert) =>
      alert.key === key ? undefined : `filed under ${key} but its key is ${alert.key}`,
    );
    if (Object.keys(owned).length > 0) alerts.owned = owned;
  }
  // Assets below their threshold: a damaged entry is set aside (the next reading below alerts it again).
  if (raw.balancesLow !== undefined) {
    const low = loadKeyed(raw.balancesLow, 'alerts.balancesLow', BalanceLow, rejected);
    if (Object.keys(low).length > 0) alerts.balancesLow = low;
  }
  // Assets whose runway is low: a damaged entry is set aside (the next forecast below alerts it again).
  if (raw.runwaysLow !== undefined) {
    const low = loadKeyed(raw.runwaysLow, 'alerts.runwaysLow', RunwayLow, rejected);
    if (Object.keys(low).length > 0) alerts.runwaysLow = low;
  }
  // Channels refusing alerts: a damaged entry is set aside (the next refused post records it again).
  if (raw.refusingChannels !== undefined) {
    const refusing = loadKeyed(raw.refusingChannels, 'alerts.refusingChannels', RefusingChannel, rejected);
    if (Object.keys(refusing).length > 0) alerts.refusingChannels = refusing;
  }
  const lastSuccessfulPollAt = loadOptional(
    raw.lastSuccessfulPollAt,
    'alerts.lastSuccessfulPollAt',
    AlertsState.shape.lastSuccessfulPollAt.unwrap(),
    rejected,
  );
  if (lastSuccessfulPollAt) alerts.lastSuccessfulPollAt = lastSuccessfulPollAt;
  return alerts;
}
