import type { PayoutTask } from '../../../../payments/index.js';
import { failureKey } from '../../kinds/index.js';
import { taskFacts } from '../../kinds/task.js';
import type { AlertSourceState } from '../../records.js';
import { iso, isoMs, listFloor, listOf } from '../place.js';
import { POLL_RULES, type PollDeps } from '../poll-rules.js';
import { oldestRecheckedSince, windowCovers, windowQueryFrom } from '../recheck.js';
import { checkAborted, readAll, readCursorList } from '../walk.js';
import {
  addFound,
  addSettled,
  createdAtUnlessFollowed,
  type Detection,
  detection,
  notFoundAsUndefined,
  type ReadContext,
  reader,
} from './read.js';

/**
 * Payout tasks: `status=pending` over the window the follow plan chose, if any (the last hour or day: one page;
 * all of it now and then), then `status=failed` newest first down to the floor (one page when idle), starting
 * lower when a followed task created within ALERT_LOOKBACK lies below the floor: that same read then also
 * finds, at the next poll, a followed task that turned failed (usually on the same page). A followed task
 * inside the window read that left the pending list and is not among the failed rows read is looked up by id
 * (when older than what the failed read covered, or a walk is under way).
 */
export async function detectTasks(deps: PollDeps, source: AlertSourceState, context: ReadContext): Promise<Detection> {
  const r = reader(deps, source, context.now);
  const window = context.window;
  let listed: Map<string, PayoutTask> | undefined;
  if (window) {
    const from = windowQueryFrom(window, r.nowMs);
    const pending = await readAll(
      deps.payments.payoutTaskPages({ status: 'pending', ...(from ? { createdAtFrom: from } : {}) }),
      deps.signal,
    );
    r.requests += pending.requests;
    listed = new Map(pending.rows.map((task) => [task.id, task]));
  }
  const list = listOf(source, 'failed');
  const floor = listFloor(source, list, r.nowMs, deps.lookbackMs);
  const recheckFrom = oldestRecheckedSince(source.tracking, r.nowMs - deps.lookbackMs, floor);
  const read = await readCursorList(
    deps,
    (from, cursor) => deps.payments.listPayoutTasks({ status: 'failed', createdAtFrom: from, cursor }),
    list,
    floor,
    r.now,
    true,
    recheckFrom === undefined ? undefined : { fromMs: recheckFrom, pages: POLL_RULES.recheckPagesPerPoll },
  );
  r.requests += read.requests;
  r.lists.failed = read.list;
  // Where the failed rows just read are complete: from the floor, or lower when the read rechecked.
  const coveredFrom = Math.min(floor, read.coveredFromMs ?? floor);
  const failedSeen = new Set<string>();
  for (const task of read.rows) {
    if (task.status !== 'failed') continue;
    // Below the floor, only a task followed while pending is news (it turned failed); the rest was handled.
    const below = read.coveredFromMs !== undefined && task.createdAt.getTime() < floor;
    if (below && !Object.hasOwn(source.tracking, task.id)) continue;
    failedSeen.add(task.id);
    const changedAt = createdAtUnlessFollowed(r, task.id, task.createdAt);
    addSettled(r, failureKey('task', task.id), task.id, task.status, task.subStatus);
    delete r.tracking[task.id];
    addFound(r, failureKey('task', task.id), task.createdAt, taskFacts(task), below ? 'follow' : 'scan', {
      changedAt,
    });
  }
  if (listed && window) {
    for (const task of listed.values()) if (!failedSeen.has(task.id)) r.tracking[task.id] = iso(task.createdAt);
    // Followed tasks inside the window that left the pending list before it was read: final by now.
    let lookups = 0;
    for (const [id, createdAt] of Object.entries(r.tracking)) {
      if (listed.has(id) || !windowCovers(window, isoMs(createdAt), r.nowMs)) continue;
      if (!list.walk && isoMs(createdAt) >= coveredFrom) {
        // Inside the failed rows just read in full: not among them, so it did not fail. Neither pending nor
        // failed is success (the documented states; docs/payments-api.md#statuses).
        addSettled(r, failureKey('task', id), id, 'success', null);
        delete r.tracking[id];
        continue;
      }
      if (lookups >= POLL_RULES.lookupsPerPoll) break; // the rest next poll
      checkAborted(deps.signal);
      lookups += 1;
      r.requests += 1;
      const task = await notFoundAsUndefined(deps.payments.getPayoutTask(id));
      if (!task) {
        deps.logger.warn('alert poller: a followed payout task is no longer found (404); it is no longer followed', {
          id,
        });
        delete r.tracking[id];
      } else if (task.status === 'failed') {
        addSettled(r, failureKey('task', id), id, task.status, task.subStatus);
        delete r.tracking[id];
        addFound(r, failureKey('task', id), task.createdAt, taskFacts(task), 'follow');
      } else if (task.status === 'success') {
        addSettled(r, failureKey('task', id), id, task.status, task.subStatus);
        delete r.tracking[id];
      }
      // Another status: still pending for us; followed on.
    }
  }
  return detection(
    r,
    window
      ? {
          pendingSyncedAt: source.pendingSyncedAt ?? iso(r.now),
          windowReads: { ...source.windowReads, [window]: iso(r.now) },
        }
      : {},
  );
}
