/**
 * Where a list stands: the watermark arithmetic of detection, pure (no I/O). The floor says how far down a list
 * must be read; the helpers say what a list's place becomes after a read, complete or part of a walk.
 */
import type { AlertSourceState, ListState, SourceName, WalkState } from '../records.js';
import { POLL_RULES } from './poll-rules.js';

/** Epoch ms of an ISO time. */
export const isoMs = (iso: string) => Date.parse(iso);
/** ISO time of a date, as stored. */
export const iso = (date: Date) => date.toISOString();

/** The list names of each source. */
export const SOURCE_LISTS: Record<SourceName, readonly string[]> = {
  withdrawals: ['all'],
  tasks: ['failed'],
  gas: ['default', 'cancelled'],
};

/** How far back the first poll of a source reads. */
export function firstRunSpan(name: SourceName, lookbackMs: number): number {
  return name === 'withdrawals' ? Math.max(lookbackMs, POLL_RULES.firstRunWithdrawalSpanMs) : lookbackMs;
}

/** A list's place; lists of a file written before per-list places start from the source's watermark. */
export function listOf(source: AlertSourceState, list: string): ListState {
  return source.lists?.[list] ?? (source.watermark === undefined ? {} : { watermark: source.watermark });
}

/**
 * Lower bound (epoch ms) of what a list must read from the top. Everything above the watermark (new rows), and
 * the overlap band below it where rows may still appear late: rows created less than the overlap before the
 * previous complete read began. A row that appears late does so within the overlap of its createdAt, so the
 * first read that begins after it appears reaches it. Once the band has settled (nothing new for an overlap),
 * an idle read costs one page per list, however dense the history.
 *
 * The watermark is a time of the API's clock, so clocks that disagree cannot make the poller skip new rows;
 * they only narrow the band by the difference, and the floor never goes below watermark − overlap, where the
 * handled keys that de-duplicate re-read rows are kept (commit.ts). With no watermark yet (no row seen so far)
 * the first-run span is read again, which costs one request when it is empty.
 */
export function listFloor(source: AlertSourceState, list: ListState, nowMs: number, spanMs: number): number {
  if (source.initializedAt === undefined) return nowMs - spanMs;
  // Still no row: everything since the first poll's span (an empty list costs one request however long ago).
  if (list.watermark === undefined) return Math.min(nowMs, isoMs(source.initializedAt)) - spanMs;
  const watermark = isoMs(list.watermark);
  const unsettledFrom = list.readAt === undefined ? -Infinity : isoMs(list.readAt) - POLL_RULES.overlapMs;
  return Math.max(watermark - POLL_RULES.overlapMs, Math.min(watermark, unsettledFrom));
}

/** The newest of the previous watermark and the dates seen, never later than now (a row stamped in the future must not skip anything). */
export function newestOf(previous: string | undefined, seen: readonly Date[], now: Date): string | undefined {
  let newest = previous;
  for (const date of seen) {
    const value = iso(date.getTime() > now.getTime() ? now : date);
    if (newest === undefined || value > newest) newest = value;
  }
  return newest;
}

/** Rows in the whole walk, extrapolated from the share of its time span read so far (lists ordered by time). */
export function estimateRows(read: number, from: string, to: string, oldest: string | undefined): number | undefined {
  if (oldest === undefined) return undefined;
  const span = isoMs(to) - isoMs(from);
  const done = isoMs(to) - isoMs(oldest);
  if (span <= 0 || done <= 0) return undefined;
  return Math.max(read, Math.round((read * span) / done));
}

/** A list read to its floor: its new watermark, and when the read began (a walk began at its first page). */
export function completedList(watermark: string | undefined, walk: WalkState | undefined, now: Date): ListState {
  return { ...(watermark !== undefined ? { watermark } : {}), readAt: walk?.startedAt ?? iso(now) };
}

/** A list with a walk under way: the watermark and last complete read stay until the walk is done. */
export function walkingList(list: ListState, walk: WalkState): ListState {
  return {
    ...(list.watermark !== undefined ? { watermark: list.watermark } : {}),
    ...(list.readAt !== undefined ? { readAt: list.readAt } : {}),
    walk,
  };
}

/** `{ key: value }`, or nothing when the value is undefined (the state file keeps no undefined fields). */
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
