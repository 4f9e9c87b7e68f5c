/** What a source's read gets and gives, and the bookkeeping the three source readers share. */

import { PaymentsNotFoundError } from '../../../../payments/index.js';
import type { FailureFacts } from '../../kinds/index.js';
import type { AlertSourceState, ListState } from '../../records.js';
import { iso, isoMs } from '../place.js';
import type { PollDeps } from '../poll-rules.js';
import type { RecheckWindow, WindowReads } from '../recheck.js';

/** A failure seen in a source; `baseline` ones are recorded as handled without an alert (first run, older than the lookback). */
export interface Found {
  key: string;
  createdAt: string;
  baseline: boolean;
  facts: FailureFacts;
  /** Found by reading a list from the top (`scan`), or by following a row that was pending (`follow`). */
  via: 'scan' | 'follow';
  /** The API's time of the change, where it gives one (see change-time.ts); judged before it starts a latency. */
  changedAt?: string;
}

/** Where a source stands after a read: what commit.ts writes back. */
export interface SourcePlace {
  lists: Record<string, ListState>;
  tracking: Record<string, string>;
  pendingSyncedAt?: string;
  handledPending?: string[];
  /** Tasks and gas: when each window of the pending list was last read. */
  windowReads?: WindowReads;
  /** Withdrawals: when each followed row was last seen (read in a page or looked up by id). */
  checkedAt?: Record<string, string>;
}

/**
 * A followed row (in the source's tracking before the read) that the read saw in a final state: what it became.
 * `key` names the row as alerts do (`withdrawal:<id>`, `task:<id>`, `gas:<id>`).
 */
export interface Settled {
  key: string;
  status: string;
  subStatus: string | null;
}

/** What reading one source found. */
export interface Detection {
  found: Found[];
  /** Followed rows that left pending in this read (alerts about them are updated or resolved by the facts). */
  settled: Settled[];
  requests: number;
  place: SourcePlace;
}

/** What a source's reader gets besides the state. */
export interface ReadContext {
  now: Date;
  /** Tasks and gas: the window of the pending list this poll reads, if any (see planWindow). */
  window?: RecheckWindow;
  /** Withdrawals: how many followed rows this poll may look up by id (see planRechecks). */
  lookups?: number;
}

/** One source's read in progress: what it found so far, its new places and the requests it made. */
export interface Reader {
  deps: PollDeps;
  source: AlertSourceState;
  now: Date;
  nowMs: number;
  found: Found[];
  settled: Settled[];
  tracking: Record<string, string>;
  lists: Record<string, ListState>;
  requests: number;
}

/** A fresh read of a source: nothing found yet, tracking copied so the stored state is left alone. */
export function reader(deps: PollDeps, source: AlertSourceState, now: Date): Reader {
  // Prototype-free like the stored record: an id such as `__proto__` or `constructor` is a plain key.
  const tracking: Record<string, string> = Object.assign(Object.create(null), source.tracking);
  return { deps, source, now, nowMs: now.getTime(), found: [], settled: [], tracking, lists: {}, requests: 0 };
}

/**
 * Rows older than ALERT_LOOKBACK at the first poll are recorded, not alerted: rows a walk from the top finds
 * (however many polls the first walk takes), and rows followed at the very first poll.
 */
export function isBaseline(r: Reader, createdAt: Date, via: 'scan' | 'follow'): boolean {
  const installedMs = r.source.initializedAt === undefined ? r.nowMs : isoMs(r.source.initializedAt);
  if (via === 'follow' && r.source.initializedAt !== undefined) return false;
  return createdAt.getTime() < installedMs - r.deps.lookbackMs;
}

/** Records a failure the read saw; `changedAt`, the API's time of the change, where it gives one. */
export function addFound(
  r: Reader,
  key: string,
  createdAt: Date,
  facts: FailureFacts,
  via: 'scan' | 'follow',
  options: { baseline?: boolean; changedAt?: Date | undefined } = {},
): void {
  const baseline = options.baseline ?? isBaseline(r, createdAt, via);
  const changedAt = options.changedAt ? { changedAt: iso(options.changedAt) } : {};
  r.found.push({ key, createdAt: iso(createdAt), baseline, facts, via, ...changedAt });
}

/**
 * The API's time of a withdrawal's or task's failure: its createdAt when the row was not followed while pending
 * (first seen already failed, it failed between its creation and this read); none for a followed row, whose
 * createdAt is before its whole pending time (see change-time.ts).
 */
export function createdAtUnlessFollowed(r: Reader, id: string, createdAt: Date): Date | undefined {
  return Object.hasOwn(r.source.tracking, id) ? undefined : createdAt;
}

/**
 * Records that the row `id` was seen final (`status`), when it was followed before this read (a row first seen
 * already final was never pending for us, so no alert can be about it pending). Once per row.
 */
export function addSettled(r: Reader, key: string, id: string, status: string, subStatus: string | null): void {
  if (!Object.hasOwn(r.source.tracking, id) || r.settled.some((row) => row.key === key)) return;
  r.settled.push({ key, status, subStatus });
}

/** The read's result, with the source's new place (plus what only some sources keep). */
export function detection(r: Reader, extra: Partial<SourcePlace> = {}): Detection {
  return {
    found: r.found,
    settled: r.settled,
    requests: r.requests,
    place: { lists: r.lists, tracking: r.tracking, ...extra },
  };
}

/** A lookup by id whose row is gone (404) gives undefined; other errors fail the read. */
export async function notFoundAsUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof PaymentsNotFoundError) return undefined;
    throw error;
  }
}
