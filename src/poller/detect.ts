/**
 * Detection: reads each source of the payment API and says which failures it saw, without writing anything.
 * A source that fails half-way reports an error and keeps its place (see commit.ts).
 */
import { clipText } from '../domain/text.js';
import { PaymentsError, type GasDistribution, type PayoutTask, type Withdrawal } from '../payments/index.js';
import type { AlertSourceState, FailureFacts } from '../store/state.js';
import { failureKey, gasFacts, NOT_ENOUGH_DONOR_BALANCE, taskFacts, withdrawalFacts, type SourceName } from './facts.js';
import { POLL_POLICY, type PollDeps } from './policy.js';

/** A failure seen in a source; `baseline` ones are recorded as handled without an alert (first run, older than the lookback). */
export interface Found {
  key: string;
  createdAt: string;
  baseline: boolean;
  facts: FailureFacts;
}

/** What reading one source found. */
export interface Detection {
  found: Found[];
  requests: number;
  watermark?: string;
  tracking?: Record<string, string>;
}

/** A source's read: what it found, or why it could not be read. */
export type Outcome = { ok: true; detection: Detection } | { ok: false; code: string; message: string };

const isoMs = (iso: string) => Date.parse(iso);

class ListTooLongError extends Error {
  readonly code = 'list_too_long';
}

/** The poll was stopped between two requests (shutdown). */
export class PollAbortedError extends Error {}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new PollAbortedError('the poll was stopped');
}

/**
 * Lower bound (epoch ms) of what a watermark-based source must read: a bit below the watermark, and down to
 * the oldest record still followed, but never further back than the catch-up limit. The watermark is a time
 * of the API's clock, so clocks that disagree cannot make the poller skip rows; with no watermark yet (no
 * row seen so far) the first-run span is read again, which costs one request per list when it is empty.
 */
function readFloor(source: AlertSourceState, nowMs: number, firstRunSpanMs: number): number {
  if (source.initializedAt === undefined) return nowMs - firstRunSpanMs;
  const anchor = source.watermark === undefined ? nowMs - firstRunSpanMs : isoMs(source.watermark) - POLL_POLICY.overlapMs;
  const marks = [anchor, ...Object.values(source.tracking).map(isoMs)];
  return Math.max(nowMs - POLL_POLICY.maxCatchUpMs, Math.min(...marks));
}

/** The newest createdAt seen, never later than now (a row stamped in the future must not skip anything). */
function nextWatermark(previous: string | undefined, seen: readonly Date[], now: Date): string | undefined {
  let newest = previous;
  for (const date of seen) {
    const iso = (date.getTime() > now.getTime() ? now : date).toISOString();
    if (newest === undefined || iso > newest) newest = iso;
  }
  return newest;
}

function pruneTracking(tracking: Record<string, string>, nowMs: number): Record<string, string> {
  const horizon = nowMs - POLL_POLICY.pendingHorizonMs;
  return Object.fromEntries(Object.entries(tracking).filter(([, createdAt]) => isoMs(createdAt) >= horizon));
}

function isFirstRunBaseline(source: AlertSourceState, createdAt: Date, nowMs: number, lookbackMs: number): boolean {
  return source.initializedAt === undefined && createdAt.getTime() < nowMs - lookbackMs;
}

/**
 * Withdrawals: page-number list, newest first. Walk from the top down to the watermark (less an overlap) and
 * to the oldest pending withdrawal still followed, however far down it has moved; remember the pending ones
 * so their later failure is caught. Idle cost: one page.
 */
async function detectWithdrawals(deps: PollDeps, source: AlertSourceState, now: Date): Promise<Detection> {
  const nowMs = now.getTime();
  const stopBeforeMs = readFloor(source, nowMs, Math.max(deps.lookbackMs, POLL_POLICY.pendingHorizonMs));
  const rows: Withdrawal[] = [];
  let requests = 0;
  let reachedFloor = false;
  // The top row is the newest withdrawal of all, even when it is older than the floor: it is the watermark.
  let newest: Date | undefined;
  for await (const page of deps.payments.withdrawalPages(POLL_POLICY.withdrawalsPerPage)) {
    requests += 1;
    newest ??= page.items[0]?.createdAt;
    for (const row of page.items) {
      if (row.createdAt.getTime() < stopBeforeMs) {
        reachedFloor = true;
        break;
      }
      rows.push(row);
    }
    if (reachedFloor) break;
    if (requests >= POLL_POLICY.maxPagesPerList) throw new ListTooLongError(`more than ${requests} pages of withdrawals to read`);
    checkAborted(deps.signal);
  }
  const tracking = { ...source.tracking };
  const found: Found[] = [];
  for (const row of rows) {
    if (row.status === 'failed') {
      delete tracking[row.id];
      const key = failureKey('withdrawal', row.id);
      found.push({ key, createdAt: row.createdAt.toISOString(), baseline: isFirstRunBaseline(source, row.createdAt, nowMs, deps.lookbackMs), facts: withdrawalFacts(row) });
    } else if (row.status === 'success') {
      delete tracking[row.id];
    } else {
      // pending, or a status the API documentation does not list (docs/payments-api.md#statuses): it may still fail.
      tracking[row.id] = row.createdAt.toISOString();
    }
  }
  return { found, requests, watermark: nextWatermark(source.watermark, newest ? [newest] : [], now), tracking: pruneTracking(tracking, nowMs) };
}

/** Reads every page of a cursor list, refusing a runaway one. */
async function readAll<T>(pages: AsyncGenerator<{ items: T[]; cursorNext: string | null }>, what: string, signal: AbortSignal | undefined): Promise<{ rows: T[]; requests: number }> {
  const rows: T[] = [];
  let requests = 0;
  for await (const page of pages) {
    requests += 1;
    rows.push(...page.items);
    if (requests >= POLL_POLICY.maxPagesPerList && page.cursorNext !== null) throw new ListTooLongError(`more than ${requests} pages of ${what} to read`);
    checkAborted(signal);
  }
  return { rows, requests };
}

/**
 * Payout tasks: the list is ordered by creation, not by failure, so ask for `status=failed` among tasks created
 * in the last TASK horizon and follow every cursor. Idle cost: one request per 50 failed tasks in the horizon.
 */
async function detectTasks(deps: PollDeps, source: AlertSourceState, now: Date): Promise<Detection> {
  const nowMs = now.getTime();
  const firstRun = source.initializedAt === undefined;
  const from = new Date(nowMs - Math.max(POLL_POLICY.taskHorizonMs, firstRun ? deps.lookbackMs : 0));
  const { rows, requests } = await readAll<PayoutTask>(
    deps.payments.payoutTaskPages({ status: 'failed', createdAtFrom: from }, POLL_POLICY.maxPagesPerList),
    'failed payout tasks',
    deps.signal,
  );
  const found = rows
    .filter((task) => task.status === 'failed')
    .map((task): Found => ({
      key: failureKey('task', task.id),
      createdAt: task.createdAt.toISOString(),
      baseline: isFirstRunBaseline(source, task.createdAt, nowMs, deps.lookbackMs),
      facts: taskFacts(task),
    }));
  return { found, requests };
}

const FINAL_GAS_STATUSES = new Set(['success', 'failed', 'cancelled']);

/**
 * Gas top-ups: the list promises no order and hides cancelled rows unless asked, so read every page of the
 * default list AND of `status=cancelled`, both since the watermark (less an overlap) or the oldest pending
 * top-up still followed. A row matches on its subStatus, whatever its status. Idle cost: two requests.
 */
async function detectGas(deps: PollDeps, source: AlertSourceState, now: Date): Promise<Detection> {
  const nowMs = now.getTime();
  const from = new Date(readFloor(source, nowMs, Math.max(deps.lookbackMs, POLL_POLICY.pendingHorizonMs)));
  const listed = await readAll<GasDistribution>(
    deps.payments.gasDistributionPages({ createdAtFrom: from }, POLL_POLICY.maxPagesPerList),
    'gas top-ups',
    deps.signal,
  );
  const cancelled = await readAll<GasDistribution>(
    deps.payments.gasDistributionPages({ status: 'cancelled', createdAtFrom: from }, POLL_POLICY.maxPagesPerList),
    'cancelled gas top-ups',
    deps.signal,
  );
  const rows = [...new Map([...listed.rows, ...cancelled.rows].map((row) => [row.id, row])).values()];
  const tracking = { ...source.tracking };
  const found: Found[] = [];
  for (const row of rows) {
    if (row.subStatus === NOT_ENOUGH_DONOR_BALANCE) {
      delete tracking[row.id];
      found.push({ key: failureKey('gas', row.id), createdAt: row.createdAt.toISOString(), baseline: isFirstRunBaseline(source, row.createdAt, nowMs, deps.lookbackMs), facts: gasFacts(row) });
    } else if (FINAL_GAS_STATUSES.has(row.status)) {
      delete tracking[row.id];
    } else {
      tracking[row.id] = row.createdAt.toISOString();
    }
  }
  return {
    found,
    requests: listed.requests + cancelled.requests,
    watermark: nextWatermark(source.watermark, rows.map((r) => r.createdAt), now),
    tracking: pruneTracking(tracking, nowMs),
  };
}

/** The reader of each source. */
export const DETECTORS: Record<SourceName, (deps: PollDeps, source: AlertSourceState, now: Date) => Promise<Detection>> = {
  withdrawals: detectWithdrawals,
  tasks: detectTasks,
  gas: detectGas,
};

/** A reason safe to show and log: our error classes carry no API key; long API texts are clipped. */
export function describeReadError(error: unknown): { code: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof PaymentsError ? error.code : error instanceof ListTooLongError ? error.code : 'internal';
  return { code, message: clipText(message, 300) };
}
