import type { Withdrawal } from '../../../../payments/index.js';
import { failureKey } from '../../kinds/index.js';
import { withdrawalFacts } from '../../kinds/withdrawal.js';
import type { AlertSourceState } from '../../records.js';
import { firstRunSpan, iso, listFloor, listOf } from '../place.js';
import type { PollDeps } from '../poll-rules.js';
import { dueWithdrawals } from '../recheck.js';
import { checkAborted, readWithdrawals } from '../walk.js';
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
 * Withdrawals: newest first from the top down to the floor (one page when idle). A pending withdrawal is
 * followed until final: while it is on the pages read, for free; below them, by id, when its age band's
 * interval has passed since it was last seen (POLL_RULES.recheckBands), the most overdue first.
 */
export async function detectWithdrawals(
  deps: PollDeps,
  source: AlertSourceState,
  context: ReadContext,
): Promise<Detection> {
  const r = reader(deps, source, context.now);
  const list = listOf(source, 'all');
  const floor = listFloor(source, list, r.nowMs, firstRunSpan('withdrawals', deps.lookbackMs));
  const read = await readWithdrawals(deps, list, floor, r.now);
  r.requests += read.requests;
  r.lists.all = read.list;
  const seen = new Set<string>();
  const checkedAt: Record<string, string> = Object.assign(Object.create(null), source.checkedAt);
  const apply = (row: Withdrawal, via: 'scan' | 'follow') => {
    seen.add(row.id);
    const key = failureKey('withdrawal', row.id);
    if (row.status === 'failed') {
      const changedAt = createdAtUnlessFollowed(r, row.id, row.createdAt);
      addSettled(r, key, row.id, row.status, null);
      delete r.tracking[row.id];
      addFound(r, key, row.createdAt, withdrawalFacts(row), via, { changedAt });
    } else if (row.status === 'success') {
      addSettled(r, key, row.id, row.status, null);
      delete r.tracking[row.id];
    } else {
      // pending, or a status the API documentation does not list (docs/payments-api.md#statuses): it may still fail.
      r.tracking[row.id] = iso(row.createdAt);
      checkedAt[row.id] = iso(r.now);
    }
  };
  for (const row of read.rows) apply(row, 'scan');
  // Followed rows on the pages read, below the floor: seen for free.
  for (const row of read.belowFloor ?? [])
    if (Object.hasOwn(r.tracking, row.id) && !seen.has(row.id)) apply(row, 'follow');
  for (const id of dueWithdrawals(r.tracking, checkedAt, seen, r.nowMs, context.lookups ?? 0)) {
    checkAborted(deps.signal);
    const row = await notFoundAsUndefined(deps.payments.getWithdrawal(id));
    r.requests += 1;
    if (row) apply(row, 'follow');
    else {
      deps.logger.warn('alert poller: a followed withdrawal is no longer found (404); it is no longer followed', {
        id,
      });
      delete r.tracking[id];
    }
  }
  // Only rows still followed keep their check time.
  for (const id of Object.keys(checkedAt)) if (!Object.hasOwn(r.tracking, id)) delete checkedAt[id];
  return detection(r, { checkedAt });
}
