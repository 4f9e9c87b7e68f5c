/**
 * Detection: reads each source of the payment API and says which failures it saw, without writing anything.
 * A source that fails half-way reports an error and keeps its place (see commit.ts).
 *
 * Cost follows what changes, not what exists (docs/payments-api.md#pagination):
 * - New rows: each list is read from the top down to its watermark (the newest createdAt seen) less an overlap
 *   for rows that appear late. Idle, that is one page per list: withdrawals, failed tasks, gas, cancelled gas.
 * - Rows that can still change (pending) are followed, however old, less often as they age (follow.ts): tasks
 *   and gas through their `status=pending` list over a window of createdAt, withdrawals by id. A row that left
 *   the pending list is looked up once: a task by id, a gas row by a narrow createdAt window (the gas list has
 *   no order and hides cancelled rows).
 * - A followed row that turns failed is found at the next poll by reading failed rows below the floor: tasks in
 *   the same read as new failures, started at the oldest followed task within the lookback (one page below the
 *   floor at most); gas by `status=failed` from the oldest followed top-up pending for under an hour.
 * - A list with more to read than one poll's page budget (first run, outage, burst) is walked over several
 *   polls, each bounded, resuming where it stopped (`ListState.walk`).
 *
 * In parts: place.ts (watermarks and list floors), walk.ts (the page-number and cursor walkers), follow.ts (which
 * sources make their follow-up read), sources/ (one reader per source), read-error.ts (why a read failed).
 */
import type { AlertSourceState, SourceName } from '../records.js';
import type { PollDeps } from './poll-rules.js';
import { detectGas } from './sources/gas.js';
import type { Detection, ReadContext } from './sources/read.js';
import { detectTasks } from './sources/tasks.js';
import { detectWithdrawals } from './sources/withdrawals.js';

export { listOf, SOURCE_LISTS } from './place.js';
export { describeReadError } from './read-error.js';
export { planRechecks } from './recheck.js';
export type { Detection, Found, ReadContext, Settled } from './sources/read.js';
export { PollAbortedError } from './walk.js';

/** A source's read: what it found, or why it could not be read. */
export type Outcome = { ok: true; detection: Detection } | { ok: false; code: string; message: string };

/** The reader of each source. */
export const DETECTORS: Record<
  SourceName,
  (deps: PollDeps, source: AlertSourceState, context: ReadContext) => Promise<Detection>
> = {
  withdrawals: detectWithdrawals,
  tasks: detectTasks,
  gas: detectGas,
};
