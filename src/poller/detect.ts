/**
 * Detection: reads each source of the payment API and says which failures it saw, without writing anything.
 * A source that fails half-way reports an error and keeps its place (see commit.ts).
 *
 * Cost follows what changes, not what exists (docs/payments-api.md#pagination):
 * - New rows: each list is read from the top down to its watermark (the newest createdAt seen) less an overlap
 *   for rows that appear late. Idle, that is one page per list: withdrawals, failed tasks, gas, cancelled gas.
 * - Rows that can still change (pending) are followed, however old: tasks and gas through their `status=pending`
 *   list, withdrawals by id (a rotation, a few per poll). A row that left the pending list is looked up once:
 *   a task by id, a gas row by a narrow createdAt window (the gas list has no order and hides cancelled rows).
 * - A list with more to read than one poll's page budget (first run, outage, burst) is walked over several
 *   polls, each bounded, resuming where it stopped (`ListState.walk`).
 */
import { clipText } from '../domain/text.js';
import {
  PaymentsError,
  PaymentsNotFoundError,
  type GasDistribution,
  type PayoutTask,
  type Withdrawal,
} from '../payments/index.js';
import type { AlertSourceState, FailureFacts, ListState, WalkState } from '../store/state.js';
import { failureKey, gasFacts, NOT_ENOUGH_DONOR_BALANCE, taskFacts, withdrawalFacts, type SourceName } from './facts.js';
import { POLL_POLICY, type PollDeps } from './policy.js';

/** A failure seen in a source; `baseline` ones are recorded as handled without an alert (first run, older than the lookback). */
export interface Found {
  key: string;
  createdAt: string;
  baseline: boolean;
  facts: FailureFacts;
  /** Found by reading a list from the top (`scan`), or by following a row that was pending (`follow`). */
  via: 'scan' | 'follow';
}

/** Where a source stands after a read: what commit.ts writes back. */
export interface SourcePlace {
  lists: Record<string, ListState>;
  tracking: Record<string, string>;
  pendingSyncedAt?: string;
  followAfter?: string;
  handledPending?: string[];
}

/** What reading one source found. */
export interface Detection {
  found: Found[];
  requests: number;
  place: SourcePlace;
}

/** A source's read: what it found, or why it could not be read. */
export type Outcome = { ok: true; detection: Detection } | { ok: false; code: string; message: string };

const isoMs = (iso: string) => Date.parse(iso);
const iso = (date: Date) => date.toISOString();

/** The poll was stopped between two requests (shutdown). */
export class PollAbortedError extends Error {}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new PollAbortedError('the poll was stopped');
}

/** How far back the first poll of a source reads. */
function firstRunSpan(name: SourceName, lookbackMs: number): number {
  return name === 'withdrawals' ? Math.max(lookbackMs, POLL_POLICY.firstRunWithdrawalSpanMs) : lookbackMs;
}

/** The list names of each source. */
export const SOURCE_LISTS: Record<SourceName, readonly string[]> = {
  withdrawals: ['all'],
  tasks: ['failed'],
  gas: ['default', 'cancelled'],
};

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
  const unsettledFrom = list.readAt === undefined ? -Infinity : isoMs(list.readAt) - POLL_POLICY.overlapMs;
  return Math.max(watermark - POLL_POLICY.overlapMs, Math.min(watermark, unsettledFrom));
}

/** The newest of the previous watermark and the dates seen, never later than now (a row stamped in the future must not skip anything). */
function newestOf(previous: string | undefined, seen: readonly Date[], now: Date): string | undefined {
  let newest = previous;
  for (const date of seen) {
    const value = iso(date.getTime() > now.getTime() ? now : date);
    if (newest === undefined || value > newest) newest = value;
  }
  return newest;
}

/** Rows in the whole walk, extrapolated from the share of its time span read so far (lists ordered by time). */
function estimateRows(read: number, from: string, to: string, oldest: string | undefined): number | undefined {
  if (oldest === undefined) return undefined;
  const span = isoMs(to) - isoMs(from);
  const done = isoMs(to) - isoMs(oldest);
  if (span <= 0 || done <= 0) return undefined;
  return Math.max(read, Math.round((read * span) / done));
}

interface ListRead<T> {
  rows: T[];
  requests: number;
  list: ListState;
}

/**
 * Reads a cursor list from its floor: the whole of it when it fits the poll's page budget, otherwise as much as
 * the budget allows, leaving a walk that the next poll resumes with the same filters and cursor.
 */
async function readCursorList<T extends { createdAt: Date }>(
  deps: PollDeps,
  fetchPage: (from: Date, cursor: string | null) => Promise<{ items: T[]; cursorNext: string | null }>,
  list: ListState,
  floorMs: number,
  now: Date,
  ordered: boolean,
): Promise<ListRead<T>> {
  const walk = list.walk;
  const from = walk ? new Date(walk.from) : new Date(floorMs);
  let cursor = walk?.cursor ?? null;
  const rows: T[] = [];
  let requests = 0;
  let done = false;
  const seenCursors = new Set<string>();
  while (requests < POLL_POLICY.pagesPerListPerPoll) {
    checkAborted(deps.signal);
    const page = await fetchPage(from, cursor);
    requests += 1;
    rows.push(...page.items);
    // A cursor seen twice would loop forever; treat it as the end (as followCursor does).
    if (page.cursorNext === null || page.cursorNext === cursor || seenCursors.has(page.cursorNext)) {
      done = true;
      break;
    }
    seenCursors.add(page.cursorNext);
    cursor = page.cursorNext;
  }
  if (done) {
    const watermark = walk ? walk.to : newestOf(list.watermark, rows.map((row) => row.createdAt), now);
    return { rows, requests, list: completedList(watermark, walk, now) };
  }
  const to = walk?.to ?? newestOf(undefined, rows.map((row) => row.createdAt), now) ?? iso(from);
  const read = (walk?.read ?? 0) + rows.length;
  let oldest = walk?.oldest;
  if (ordered) for (const row of rows) if (oldest === undefined || iso(row.createdAt) < oldest) oldest = iso(row.createdAt);
  const next: WalkState = {
    from: iso(from),
    to,
    cursor: cursor ?? undefined,
    read,
    startedAt: walk?.startedAt ?? iso(now),
    ...(oldest !== undefined ? { oldest } : {}),
    ...(ordered ? optional('estimate', estimateRows(read, iso(from), to, oldest)) : {}),
    ...(walk?.followKeys ? { followKeys: walk.followKeys } : {}),
  };
  return { rows, requests, list: walkingList(list, next) };
}

/** A list read to its floor: its new watermark, and when the read began (a walk began at its first page). */
function completedList(watermark: string | undefined, walk: WalkState | undefined, now: Date): ListState {
  return { ...(watermark !== undefined ? { watermark } : {}), readAt: walk?.startedAt ?? iso(now) };
}

/** A list with a walk under way: the watermark and last complete read stay until the walk is done. */
function walkingList(list: ListState, walk: WalkState): ListState {
  return { ...(list.watermark !== undefined ? { watermark: list.watermark } : {}), ...(list.readAt !== undefined ? { readAt: list.readAt } : {}), walk };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/**
 * Withdrawals: a page-number list, newest first, with no filters. From the top down to the floor; a walk that
 * does not fit the budget resumes at its position, shifted by the rows added on top since (from `totalCount`),
 * and skips the rows it already processed (older than its oldest createdAt, or at that instant and seen).
 */
async function readWithdrawals(deps: PollDeps, list: ListState, floorMs: number, now: Date): Promise<ListRead<Withdrawal>> {
  const perPage = POLL_POLICY.withdrawalsPerPage;
  const walk = list.walk;
  const rows: Withdrawal[] = [];
  let requests = 0;
  const fromMs = walk ? isoMs(walk.from) : floorMs;
  let oldest = walk?.oldest;
  let boundary = new Set(walk?.boundaryIds ?? []);
  let newest: Date | undefined;
  let offset = walk?.offset ?? 0;
  let total = walk?.totalCount;
  let knownTotal = total;
  let backSteps = 0;
  let aimBack = walk !== undefined;
  let done = false;
  let pageNo = 1;
  while (requests < POLL_POLICY.pagesPerListPerPoll) {
    checkAborted(deps.signal);
    // A resumed walk first aims at the page holding the last row it processed, so that a shift the wrong way
    // cannot skip a row unnoticed (one extra page per resumed poll); then page after page.
    const aim = () => Math.max(0, offset + ((knownTotal ?? 0) - (total ?? 0)) - (aimBack ? 1 : 0));
    if (walk) pageNo = Math.floor(aim() / perPage) + 1;
    const page = await deps.payments.listWithdrawals({ page: pageNo, perPage });
    requests += 1;
    if (!walk) newest ??= page.items[0]?.createdAt;
    if (walk && knownTotal !== page.totalCount) {
      // Rows were added (or removed) since the walk stopped: aim again with the new count.
      const before = pageNo;
      knownTotal = page.totalCount;
      if (Math.floor(aim() / perPage) + 1 !== before) continue;
    }
    const first = page.items[0];
    if (walk && oldest !== undefined && first && iso(first.createdAt) < oldest && !boundary.has(first.id) && pageNo > 1 && backSteps < 3) {
      // The first row is already older than anything processed: rows may have been skipped. Step back a page.
      backSteps += 1;
      offset -= perPage;
      continue;
    }
    for (const row of page.items) {
      const created = iso(row.createdAt);
      if (oldest !== undefined && (created > oldest || (created === oldest && boundary.has(row.id)))) continue;
      if (row.createdAt.getTime() < fromMs) {
        done = true;
        break;
      }
      rows.push(row);
      if (oldest === undefined || created < oldest) {
        oldest = created;
        boundary = new Set();
      }
      boundary.add(row.id);
    }
    if (!done && (page.items.length === 0 || pageNo * perPage >= page.totalCount)) done = true;
    // Where the walk stands: `offset` rows above its resume point when the list held `total` rows.
    aimBack = false;
    offset = pageNo * perPage;
    total = page.totalCount;
    knownTotal = page.totalCount;
    if (done) break;
    if (!walk) pageNo += 1;
  }
  if (done) {
    const watermark = walk ? walk.to : newestOf(list.watermark, newest ? [newest] : [], now);
    return { rows, requests, list: completedList(watermark, walk, now) };
  }
  const to = walk?.to ?? newestOf(undefined, newest ? [newest] : [], now) ?? iso(new Date(fromMs));
  const read = (walk?.read ?? 0) + rows.length;
  const next: WalkState = {
    from: iso(new Date(fromMs)),
    to,
    offset,
    totalCount: total ?? 0,
    read,
    startedAt: walk?.startedAt ?? iso(now),
    ...(oldest !== undefined ? { oldest, boundaryIds: [...boundary] } : {}),
    ...optional('estimate', estimateRows(read, iso(new Date(fromMs)), to, oldest)),
    ...(walk?.followKeys ? { followKeys: walk.followKeys } : {}),
  };
  return { rows, requests, list: walkingList(list, next) };
}

/** Reads every page of a cursor list (the pending lists and the narrow gas windows: small by nature). */
async function readAll<T>(pages: AsyncGenerator<{ items: T[]; cursorNext: string | null }>, signal: AbortSignal | undefined): Promise<{ rows: T[]; requests: number }> {
  const rows: T[] = [];
  let requests = 0;
  for await (const page of pages) {
    requests += 1;
    rows.push(...page.items);
    checkAborted(signal);
  }
  return { rows, requests };
}

/** What a source's reader gets besides the state. */
export interface ReadContext {
  now: Date;
  /** This poll may make the source's follow-up read (see planFollows). */
  follow: boolean;
}

interface Reader {
  deps: PollDeps;
  source: AlertSourceState;
  now: Date;
  nowMs: number;
  found: Found[];
  tracking: Record<string, string>;
  lists: Record<string, ListState>;
  requests: number;
}

function reader(deps: PollDeps, source: AlertSourceState, now: Date): Reader {
  return { deps, source, now, nowMs: now.getTime(), found: [], tracking: { ...source.tracking }, lists: {}, requests: 0 };
}

/**
 * Rows older than ALERT_LOOKBACK at the first poll are recorded, not alerted: rows a walk from the top finds
 * (however many polls the first walk takes), and rows followed at the very first poll.
 */
function isBaseline(r: Reader, createdAt: Date, via: 'scan' | 'follow'): boolean {
  const installedMs = r.source.initializedAt === undefined ? r.nowMs : isoMs(r.source.initializedAt);
  if (via === 'follow' && r.source.initializedAt !== undefined) return false;
  return createdAt.getTime() < installedMs - r.deps.lookbackMs;
}

function addFound(r: Reader, key: string, createdAt: Date, facts: FailureFacts, via: 'scan' | 'follow', baseline = isBaseline(r, createdAt, via)): void {
  r.found.push({ key, createdAt: iso(createdAt), baseline, facts, via });
}

function place(r: Reader, extra: Partial<SourcePlace> = {}): Detection {
  return { found: r.found, requests: r.requests, place: { lists: r.lists, tracking: r.tracking, ...extra } };
}

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

async function notFoundAsUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof PaymentsNotFoundError) return undefined;
    throw error;
  }
}

/**
 * Withdrawals: newest first from the top down to the floor (one page when idle). A pending withdrawal is
 * followed until final: while it is in the pages read, for free; below them, by id, one per poll in rotation.
 */
async function detectWithdrawals(deps: PollDeps, source: AlertSourceState, context: ReadContext): Promise<Detection> {
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
  return place(r, followAfter !== undefined ? { followAfter } : {});
}

/**
 * Payout tasks: `status=pending` (all pending tasks, however old: usually one page) first, then `status=failed`
 * newest first down to the floor (one page when idle). A followed task that left the pending list and is not
 * among the failed rows read is looked up by id (when older than the floor, or a walk is under way).
 */
async function detectTasks(deps: PollDeps, source: AlertSourceState, context: ReadContext): Promise<Detection> {
  const r = reader(deps, source, context.now);
  let listed: Map<string, PayoutTask> | undefined;
  if (context.follow) {
    const pending = await readAll(deps.payments.payoutTaskPages({ status: 'pending' }), deps.signal);
    r.requests += pending.requests;
    listed = new Map(pending.rows.map((task) => [task.id, task]));
  }
  const list = listOf(source, 'failed');
  const floor = listFloor(source, list, r.nowMs, deps.lookbackMs);
  const read = await readCursorList(
    deps,
    (from, cursor) => deps.payments.listPayoutTasks({ status: 'failed', createdAtFrom: from, cursor }),
    list,
    floor,
    r.now,
    true,
  );
  r.requests += read.requests;
  r.lists.failed = read.list;
  const failedSeen = new Set<string>();
  for (const task of read.rows) {
    if (task.status !== 'failed') continue;
    failedSeen.add(task.id);
    delete r.tracking[task.id];
    addFound(r, failureKey('task', task.id), task.createdAt, taskFacts(task), 'scan');
  }
  if (listed) {
    for (const task of listed.values()) if (!failedSeen.has(task.id)) r.tracking[task.id] = iso(task.createdAt);
    // Followed tasks that left the pending list before it was read: final by now.
    let lookups = 0;
    for (const [id, createdAt] of Object.entries(r.tracking)) {
      if (listed.has(id)) continue;
      if (!list.walk && isoMs(createdAt) >= floor) {
        // Inside the failed rows just read in full: not among them, so it did not fail.
        delete r.tracking[id];
        continue;
      }
      if (lookups >= POLL_POLICY.lookupsPerPoll) break; // the rest next poll
      checkAborted(deps.signal);
      lookups += 1;
      r.requests += 1;
      const task = await notFoundAsUndefined(deps.payments.getPayoutTask(id));
      if (!task) {
        deps.logger.warn('alert poller: a followed payout task is no longer found (404); it is no longer followed', { id });
        delete r.tracking[id];
      } else if (task.status === 'failed') {
        delete r.tracking[id];
        addFound(r, failureKey('task', id), task.createdAt, taskFacts(task), 'follow');
      } else if (task.status === 'success') {
        delete r.tracking[id];
      }
      // Another status: still pending for us; followed on.
    }
  }
  return place(r, listed ? { pendingSyncedAt: source.pendingSyncedAt ?? iso(r.now) } : {});
}

const FINAL_GAS_STATUSES = new Set(['success', 'failed', 'cancelled']);
const SECOND = 1_000;

/**
 * Gas top-ups: the list has no order and hides cancelled rows unless asked, so the default list and the
 * `status=cancelled` list are read in full from the floor (one page each when idle). Rows pending below the
 * floor are followed through `status=pending`; one that left it is found again by a narrow createdAt window.
 * A row matches on its subStatus, whatever its status.
 */
async function detectGas(deps: PollDeps, source: AlertSourceState, context: ReadContext): Promise<Detection> {
  const r = reader(deps, source, context.now);
  let listed: Map<string, GasDistribution> | undefined;
  if (context.follow) {
    const pending = await readAll(deps.payments.gasDistributionPages({ status: 'pending' }), deps.signal);
    r.requests += pending.requests;
    listed = new Map(pending.rows.map((row) => [row.id, row]));
  }
  const seen = new Map<string, GasDistribution>();
  const floors: number[] = [];
  for (const [name, status] of [['default', undefined], ['cancelled', 'cancelled']] as const) {
    const list = listOf(source, name);
    const floor = listFloor(source, list, r.nowMs, deps.lookbackMs);
    floors.push(floor);
    const read = await readCursorList(
      deps,
      (from, cursor) => deps.payments.listGasDistributions({ ...(status ? { status } : {}), createdAtFrom: from, cursor }),
      list,
      floor,
      r.now,
      false,
    );
    r.requests += read.requests;
    r.lists[name] = read.list;
    for (const row of read.rows) seen.set(row.id, row);
  }
  // Cancelled rows are rare: the cancelled list, read in full AFTER the default list, has seen every cancelled row
  // up to the default list's watermark (same API clock), so it moves up with it. Otherwise it would re-read, and
  // keep keys for, everything since its own last row at every poll. (Never the other way round: the default
  // list was read first.)
  const [dflt, cancelled] = [r.lists.default!, r.lists.cancelled!];
  if (!dflt.walk && !cancelled.walk && dflt.watermark !== undefined && (cancelled.watermark === undefined || cancelled.watermark < dflt.watermark)) {
    r.lists.cancelled = { ...cancelled, watermark: dflt.watermark };
  }
  const syncing = listed !== undefined && source.pendingSyncedAt === undefined;
  const handled = new Set(source.handledPending ?? []);
  const apply = (row: GasDistribution, via: 'scan' | 'follow') => {
    if (row.subStatus === NOT_ENOUGH_DONOR_BALANCE) {
      delete r.tracking[row.id];
      // Matched while pending: found once; it stays in the pending list (and may turn failed), the same top-up.
      const pending = !FINAL_GAS_STATUSES.has(row.status);
      if (handled.has(row.id)) {
        if (!pending) handled.delete(row.id);
        return;
      }
      if (pending) handled.add(row.id);
      // Found by the first sync of the pending list after an upgrade and below the floor: the version before
      // read that range, so it was handled then.
      const handledBefore = syncing && source.initializedAt !== undefined && row.createdAt.getTime() < Math.min(...floors);
      addFound(r, failureKey('gas', row.id), row.createdAt, gasFacts(row), via, handledBefore || isBaseline(r, row.createdAt, via));
    } else if (FINAL_GAS_STATUSES.has(row.status)) {
      delete r.tracking[row.id];
    } else {
      r.tracking[row.id] = iso(row.createdAt);
    }
  };
  for (const row of seen.values()) apply(row, 'scan');
  if (listed) {
    for (const row of listed.values()) if (!seen.has(row.id)) apply(row, 'follow');
    let lookups = 0;
    for (const [id, createdAt] of Object.entries(r.tracking)) {
      if (listed.has(id) || seen.has(id)) continue;
      if (lookups >= POLL_POLICY.lookupsPerPoll) break; // the rest next poll
      lookups += 1;
      // Left the pending list: find its final state in a narrow window around its createdAt (whole seconds on
      // the wire), first in the default list, then among the cancelled rows the default list hides.
      const at = isoMs(createdAt);
      const window = { createdAtFrom: new Date(Math.floor(at / SECOND) * SECOND - SECOND), createdAtTo: new Date(Math.ceil(at / SECOND) * SECOND + SECOND) };
      let row: GasDistribution | undefined;
      for (const status of [undefined, 'cancelled'] as const) {
        checkAborted(deps.signal);
        const rows = await readAll(deps.payments.gasDistributionPages({ ...window, ...(status ? { status } : {}) }), deps.signal);
        r.requests += rows.requests;
        row = rows.rows.find((candidate) => candidate.id === id);
        if (row) break;
      }
      if (row) apply(row, 'follow');
      else {
        deps.logger.warn('alert poller: a followed gas top-up left the pending list and is not found around its createdAt; it is no longer followed', { id });
        delete r.tracking[id];
      }
    }
  }
  // Matched rows no longer pending and not seen in this poll: nothing will list them as pending again.
  if (listed) for (const id of handled) if (!listed.has(id) && !seen.has(id)) handled.delete(id);
  return place(r, { ...(listed ? { pendingSyncedAt: source.pendingSyncedAt ?? iso(r.now) } : {}), handledPending: [...handled] });
}

/** The reader of each source. */
export const DETECTORS: Record<SourceName, (deps: PollDeps, source: AlertSourceState, context: ReadContext) => Promise<Detection>> = {
  withdrawals: detectWithdrawals,
  tasks: detectTasks,
  gas: detectGas,
};

/** A reason safe to show and log: our error classes carry no API key; long API texts are clipped. */
export function describeReadError(error: unknown): { code: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof PaymentsError ? error.code : 'internal';
  return { code, message: clipText(message, 300) };
}
