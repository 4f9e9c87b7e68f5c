import type { Withdrawal } from '../../payments/index.js';
import type { AlertSourceState } from '../../store/state.js';
import { failureKey, withdrawalFacts } from '../facts.js';
import { firstRunSpan, iso, listFloor, listOf } from '../place.js';
import type { PollDeps } from '../policy.js';
import { checkAborted, readWithdrawals } from '../walk.js';
import { addFound, detection, notFoundAsUndefined, reader, type Detection, type ReadContext } from './read.js';

/**
 * Withdrawals: newest first from the top down to the floor (one page when idle). A pending withdrawal is
 * followed until final: while it is in the pages read, for free; below them, by id, one per poll in rotation.
 */
export async function detectWithdrawals(deps: PollDeps, source: AlertSourceState, context: ReadContext): Promise<Detection> {
  const r = reader(deps, source, context.now);
  const list = listOf(source, 'all');
  const floor = listFloor(source, list, r.nowMs, firstRunSpan('withdrawals', deps.lookbackMs));
  const read = await readWithdrawals(deps, list, floor, r.now);
  r.requests += read.requests;
  r.lists.all = read.list;
  const seen = new Set<string>();
  const apply = (row: Withdrawal, via: 'scan' | 'follow') => {
    seen.add(row.id);
    if (row.status === 'failed') {
      delete r.tracking[row.id];
      addFound(r, failureKey('withdrawal', row.id), row.createdAt, withdrawalFacts(row), via);
    } else if (row.status === 'success') {
      delete r.tracking[row.id];
    } else {
      // pending, or a status the API documentation does not list (docs/payments-api.md#statuses): it may still fail.
      r.tracking[row.id] = iso(row.createdAt);
    }
  };
  for (const row of read.rows) apply(row, 'scan');
  let followAfter = source.followAfter;
  if (context.follow) {
    const rest = Object.keys(r.tracking).filter((id) => !seen.has(id)).sort();
    const start = rest.findIndex((id) => followAfter === undefined || id > followAfter);
    const order = start === -1 ? rest : [...rest.slice(start), ...rest.slice(0, start)];
    for (const id of order.slice(0, 1)) {
      checkAborted(deps.signal);
      const row = await notFoundAsUndefined(deps.payments.getWithdrawal(id));
      r.requests += 1;
      followAfter = id;
      if (row) apply(row, 'follow');
      else {
        deps.logger.warn('alert poller: a followed withdrawal is no longer found (404); it is no longer followed', { id });
        delete r.tracking[id];
      }
    }
  }
  return detection(r, followAfter !== undefined ? { followAfter } : {});
}
