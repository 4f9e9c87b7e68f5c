/**
 * Follow planning: which sources make their follow-up read (rows still pending that the reads of new rows do not
 * show) this poll, within the per-poll limit. Pure (no I/O).
 */
import type { AlertSourceState } from '../store/state.js';
import type { SourceName } from './facts.js';
import { firstRunSpan, isoMs, listFloor, listOf, SOURCE_LISTS } from './place.js';
import { POLL_POLICY } from './policy.js';

/** The source needs its follow-up read this poll: rows pending that the reads of new rows do not show. */
export function needsFollow(name: SourceName, source: AlertSourceState, nowMs: number, lookbackMs: number): boolean {
  if (name === 'tasks') return true; // the pending list is how new pending tasks are found (the scan reads failed ones)
  if (name === 'gas' && source.pendingSyncedAt === undefined) return true;
  const tracked = Object.values(source.tracking);
  if (tracked.length === 0) return false;
  const span = firstRunSpan(name, lookbackMs);
  return SOURCE_LISTS[name].some((listName) => {
    const list = listOf(source, listName);
    if (list.walk) return true;
    const floor = listFloor(source, list, nowMs, span);
    return tracked.some((createdAt) => isoMs(createdAt) < floor);
  });
}

/** Which sources make their follow-up read this poll: all that need one, up to the per-poll limit, taking turns. */
export function planFollows(needed: readonly SourceName[], turn: number): Set<SourceName> {
  if (needed.length <= POLL_POLICY.followReadsPerPoll) return new Set(needed);
  const chosen = new Set<SourceName>();
  for (let i = 0; chosen.size < POLL_POLICY.followReadsPerPoll; i++) chosen.add(needed[(turn + i) % needed.length]!);
  return chosen;
}
