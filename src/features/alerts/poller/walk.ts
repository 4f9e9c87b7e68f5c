/**
 * The two list walkers of detection: page numbers (withdrawals, newest first, no filters) and cursors (tasks and
 * gas, `cursorNext` null at the end). Each reads from the top down to a floor within one poll's page budget; a
 * list with more to read leaves a walk (`ListState.walk`) that the next poll resumes.
 */

import { CodedError } from '../../../kernel/errors.js';
import type { PaymentsClient, Withdrawal } from '../../../payments/index.js';
import type { ListState, WalkState } from '../records.js';
import { completedList, estimateRows, iso, isoMs, newestOf, optional, walkingList } from './place.js';
import { POLL_RULES, type PollDeps } from './poll-rules.js';

/** The poll was stopped between two requests (shutdown). */
export class PollAbortedError extends CodedError {
  declare readonly code: 'poll_aborted';
  constructor(message: string) {
    super('poll_aborted', message);
  }
}

/** Throws PollAbortedError once the poll's signal has fired: called before each request. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new PollAbortedError('the poll was stopped');
}

/** What one list read gave: its rows, the requests it made, and the list's new place. */
export interface ListRead<T> {
  rows: T[];
  requests: number;
  list: ListState;
  /** Rows on the pages read that are below the floor (withdrawals): not new, but a free look at followed rows. */
  belowFloor?: T[];
  /**
   * Cursor lists read with a recheck: the createdAt (epoch ms) from which the read saw every row of the list, at
   * or below the floor (the recheck's start when it was read to the end, else just above its oldest row read).
   */
  coveredFromMs?: number;
}

/**
 * A read of an ordered cursor list that also looks below its floor, down to `fromMs`, for rows that changed
 * there (a followed row that turned failed): at most `pages` pages holding rows below the floor.
 */
export interface Recheck {
  fromMs: number;
  pages: number;
}

/** One page of a cursor list. */
export interface CursorPage<T> {
  items: T[];
  cursorNext: string | null;
}

/**
 * Reads a cursor list from its floor: the whole of it when it fits the poll's page budget, otherwise as much as
 * the budget allows, leaving a walk that the next poll resumes with the same filters and cursor. With a recheck
 * (ordered lists, no walk under way), the same read starts lower, at the recheck's start: the rows below the
 * floor come after the new ones, on the same pages (usually the first), and the read stops once it has read
 * the recheck's pages below the floor. The caller keeps only the rows below the floor it follows.
 */
export async function readCursorList<T extends { createdAt: Date }>(
  deps: Pick<PollDeps, 'signal'>,
  fetchPage: (from: Date, cursor: string | null) => Promise<CursorPage<T>>,
  list: ListState,
  floorMs: number,
  now: Date,
  ordered: boolean,
  recheck?: Recheck,
): Promise<ListRead<T>> {
  const walk = list.walk;
  const rechecking = !walk && ordered && recheck !== undefined && recheck.fromMs < floorMs;
  const from = walk ? new Date(walk.from) : new Date(rechecking ? recheck.fromMs : floorMs);
  let cursor = walk?.cursor ?? null;
  const rows: T[] = [];
  let requests = 0;
  let done = false;
  let pagesBelowFloor = 0;
  let coveredFromMs: number | undefined;
  const seenCursors = new Set<string>();
  while (requests < POLL_RULES.pagesPerListPerPoll) {
    checkAborted(deps.signal);
    const page = await fetchPage(from, cursor);
    requests += 1;
    rows.push(...page.items);
    // A cursor seen twice would loop forever; treat it as the end (as followCursor does).
    if (page.cursorNext === null || page.cursorNext === cursor || seenCursors.has(page.cursorNext)) {
      done = true;
      if (rechecking) coveredFromMs = from.getTime();
      break;
    }
    seenCursors.add(page.cursorNext);
    cursor = page.cursorNext;
    const last = page.items.at(-1);
    if (rechecking && last && last.createdAt.getTime() < floorMs && ++pagesBelowFloor >= recheck.pages) {
      // Newest first, and past the floor: every new row has been read. What lies lower waits for the follow-ups.
      done = true;
      coveredFromMs = Math.min(floorMs, last.createdAt.getTime() + 1_000);
      break;
    }
  }
  if (done) {
    const watermark = walk
      ? walk.to
      : newestOf(
          list.watermark,
          rows.map((row) => row.createdAt),
          now,
        );
    return {
      rows,
      requests,
      list: completedList(watermark, walk, now),
      ...optional('coveredFromMs', coveredFromMs),
    };
  }
  const to =
    walk?.to ??
    newestOf(
      undefined,
      rows.map((row) => row.createdAt),
      now,
    ) ??
    iso(from);
  const read = (walk?.read ?? 0) + rows.length;
  let oldest = walk?.oldest;
  if (ordered)
    for (const row of rows) if (oldest === undefined || iso(row.createdAt) < oldest) oldest = iso(row.createdAt);
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

/** What the withdrawal walker needs: the abort signal and the page-number list. */
export type WithdrawalWalkDeps = Pick<PollDeps, 'signal'> & { payments: Pick<PaymentsClient, 'listWithdrawals'> };

/**
 * Withdrawals: a page-number list, newest first, with no filters. From the top down to the floor; a walk that
 * does not fit the budget resumes at its position, shifted by the rows added on top since (from `totalCount`),
 * and skips the rows it already processed (older than its oldest createdAt, or at that instant and seen).
 */
export async function readWithdrawals(
  deps: WithdrawalWalkDeps,
  list: ListState,
  floorMs: number,
  now: Date,
): Promise<ListRead<Withdrawal>> {
  const perPage = POLL_RULES.withdrawalsPerPage;
  const walk = list.walk;
  const rows: Withdrawal[] = [];
  const belowFloor: Withdrawal[] = [];
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
  while (requests < POLL_RULES.pagesPerListPerPoll) {
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
    if (
      walk &&
      oldest !== undefined &&
      first &&
      iso(first.createdAt) < oldest &&
      !boundary.has(first.id) &&
      pageNo > 1 &&
      backSteps < 3
    ) {
      // The first row is already older than anything processed: rows may have been skipped. Step back a page.
      backSteps += 1;
      offset -= perPage;
      continue;
    }
    for (const [index, row] of page.items.entries()) {
      const created = iso(row.createdAt);
      if (oldest !== undefined && (created > oldest || (created === oldest && boundary.has(row.id)))) continue;
      if (row.createdAt.getTime() < fromMs) {
        belowFloor.push(...page.items.slice(index));
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
    return { rows, requests, list: completedList(watermark, walk, now), belowFloor };
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
export async function readAll<T>(
  pages: AsyncGenerator<CursorPage<T>>,
  signal: AbortSignal | undefined,
): Promise<{ rows: T[]; requests: number }> {
  const rows: T[] = [];
  let requests = 0;
  for await (const page of pages) {
    requests += 1;
    rows.push(...page.items);
    checkAborted(signal);
  }
  return { rows, requests };
}
