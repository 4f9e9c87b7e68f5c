/** The two list walkers of detection against in-memory pages (no simulator): floors, empty pages, late rows, walks. */
import { describe, expect, it } from 'vitest';
import { POLL_RULES } from '../../../../src/features/alerts/poller/poll-rules.js';
import {
  type CursorPage,
  PollAbortedError,
  readAll,
  readCursorList,
  readWithdrawals,
} from '../../../../src/features/alerts/poller/walk.js';
import type { ListState } from '../../../../src/features/alerts/records.js';
import type { PaymentsClient, Withdrawal } from '../../../../src/payments/index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const now = new Date(NOW);
const WATERMARK = NOW - HOUR;
const FLOOR = WATERMARK - POLL_RULES.overlapMs;
const BUDGET = POLL_RULES.pagesPerListPerPoll;
const at = (ms: number) => new Date(ms).toISOString();
const noSignal = { signal: undefined };

interface Row {
  id: string;
  createdAt: Date;
}
const row = (id: string, ms: number): Row => ({ id, createdAt: new Date(ms) });

/** A cursor list of fixed pages: cursor `c<n>` leads to page n; the last page's cursorNext is null. */
function cursorList(pages: Row[][]) {
  const calls: { from: string; cursor: string | null }[] = [];
  const fetchPage = async (from: Date, cursor: string | null): Promise<CursorPage<Row>> => {
    calls.push({ from: from.toISOString(), cursor });
    const index = cursor === null ? 0 : Number(cursor.slice(1));
    return { items: pages[index] ?? [], cursorNext: index + 1 < pages.length ? `c${index + 1}` : null };
  };
  return { fetchPage, calls };
}

describe('readCursorList with a recheck: starts lower, stops one page below the floor', () => {
  const list = { watermark: at(WATERMARK), readAt: at(NOW - MINUTE) };
  const recheck = { fromMs: FLOOR - 2 * HOUR, pages: 1 };
  it('one page holding new rows and rows below the floor: read to its end, covered down to the recheck start', async () => {
    const { fetchPage, calls } = cursorList([[row('new', WATERMARK + 1), row('old', FLOOR - HOUR)]]);
    const read = await readCursorList(noSignal, fetchPage, list, FLOOR, now, true, recheck);
    expect(calls.map((call) => call.from)).toEqual([at(FLOOR - 2 * HOUR)]);
    expect(read.rows.map((r) => r.id)).toEqual(['new', 'old']);
    expect(read.coveredFromMs).toBe(FLOOR - 2 * HOUR);
    expect(read.list).toEqual({ watermark: at(WATERMARK + 1), readAt: at(NOW) });
  });
  it('more pages below the floor: stops after the first, covered down to just above its oldest row', async () => {
    const { fetchPage, calls } = cursorList([
      [row('new', WATERMARK + 1), row('old', FLOOR - HOUR)],
      [row('older', FLOOR - 90 * MINUTE)],
    ]);
    const read = await readCursorList(noSignal, fetchPage, list, FLOOR, now, true, recheck);
    expect(calls).toHaveLength(1);
    expect(read.coveredFromMs).toBe(FLOOR - HOUR + 1_000);
    expect(read.list.walk).toBeUndefined();
  });
  it('a recheck above the floor, an unordered list, or a walk under way: the plain read', async () => {
    for (const [ordered, fromMs, walking] of [
      [true, FLOOR + 1, false],
      [false, FLOOR - HOUR, false],
      [true, FLOOR - HOUR, true],
    ] as const) {
      const { fetchPage, calls } = cursorList([[row('new', WATERMARK + 1)]]);
      const walk = { from: at(FLOOR), to: at(NOW), read: 0, startedAt: at(NOW), cursor: 'c0' };
      const read = await readCursorList(noSignal, fetchPage, walking ? { ...list, walk } : list, FLOOR, now, ordered, {
        fromMs,
        pages: 1,
      });
      expect(calls[0]?.from).toBe(at(FLOOR));
      expect(read.coveredFromMs).toBeUndefined();
    }
  });
});

describe('readCursorList (tasks, gas): from the top down to the floor', () => {
  it.each([
    ['an empty list: one request, no watermark yet', [[]], {}, 0, { readAt: at(NOW) }],
    [
      'an empty page keeps the previous watermark',
      [[]],
      { watermark: at(WATERMARK), readAt: at(WATERMARK) },
      0,
      { watermark: at(WATERMARK), readAt: at(NOW) },
    ],
    [
      'rows on two pages, the cursor ends (null): the newest is the watermark',
      [[row('b', WATERMARK + 2), row('a', WATERMARK + 1)], [row('z', WATERMARK - 1)]],
      { watermark: at(WATERMARK) },
      3,
      { watermark: at(WATERMARK + 2), readAt: at(NOW) },
    ],
    [
      'a late row (below the watermark, inside the overlap) is read; the watermark stays',
      [[row('late', WATERMARK - 5 * MINUTE)]],
      { watermark: at(WATERMARK) },
      1,
      { watermark: at(WATERMARK), readAt: at(NOW) },
    ],
    [
      'a row stamped in the future: the watermark is now, never later',
      [[row('future', NOW + HOUR)]],
      { watermark: at(WATERMARK) },
      1,
      { watermark: at(NOW), readAt: at(NOW) },
    ],
    [
      'an empty page before the end still ends the read',
      [[], [row('a', WATERMARK + 1)]],
      {},
      1,
      { watermark: at(WATERMARK + 1), readAt: at(NOW) },
    ],
  ] satisfies [string, Row[][], ListState, number, ListState][])('%s', async (_case, pages, list, rows, expected) => {
    const { fetchPage, calls } = cursorList(pages);
    const read = await readCursorList(noSignal, fetchPage, list, FLOOR, now, true);
    expect(read.rows).toHaveLength(rows);
    expect(read.requests).toBe(pages.length);
    expect(read.list).toEqual(expected);
    expect(calls.map((call) => call.from)).toEqual(pages.map(() => at(FLOOR)));
    expect(calls.map((call) => call.cursor)).toEqual(pages.map((_, i) => (i === 0 ? null : `c${i}`)));
  });

  it.each([
    ['repeats itself', () => 'same', 2],
    [
      'comes back to an earlier cursor',
      (cursor: string | null) => (cursor === null ? 'a' : cursor === 'a' ? 'b' : 'a'),
      3,
    ],
  ])('a cursor that %s is the end (no endless loop)', async (_case, next, requests) => {
    const fetchPage = async (_from: Date, cursor: string | null) => ({
      items: [row(String(cursor), WATERMARK + 1)],
      cursorNext: next(cursor),
    });
    const read = await readCursorList(noSignal, fetchPage, {}, FLOOR, now, true);
    expect(read.requests).toBe(requests);
    expect(read.list).toEqual({ watermark: at(WATERMARK + 1), readAt: at(NOW) });
  });

  it.each([
    ['ordered (tasks): the walk keeps its oldest row and an estimate', true],
    ['unordered (gas): no oldest, no estimate', false],
  ])('more pages than the budget leaves a walk; %s', async (_case, ordered) => {
    // One row a minute, newest first, far more pages than one poll may read.
    const pages = Array.from({ length: BUDGET * 3 }, (_, i) => [row(`r${i}`, NOW - (i + 1) * MINUTE)]);
    const { fetchPage } = cursorList(pages);
    const floor = NOW - DAY;
    const previous = { watermark: at(WATERMARK - DAY), readAt: at(NOW - DAY) };
    const read = await readCursorList(noSignal, fetchPage, previous, floor, now, ordered);
    expect(read.requests).toBe(BUDGET);
    expect(read.rows).toHaveLength(BUDGET);
    const oldest = at(NOW - BUDGET * MINUTE);
    expect(read.list).toEqual({
      ...previous,
      walk: {
        from: at(floor),
        to: at(NOW - MINUTE),
        cursor: `c${BUDGET}`,
        read: BUDGET,
        startedAt: at(NOW),
        ...(ordered ? { oldest, estimate: Math.round((BUDGET * (DAY - MINUTE)) / ((BUDGET - 1) * MINUTE)) } : {}),
      },
    });
  });

  it('a resumed walk reads on from its cursor and, done, takes its `to` as the watermark', async () => {
    const walk = {
      from: at(NOW - DAY),
      to: at(NOW - MINUTE),
      cursor: 'c5',
      read: 5,
      startedAt: at(NOW - 10 * MINUTE),
      followKeys: ['task:x'],
    };
    const pages = [
      ...Array.from({ length: 5 }, () => [] as Row[]),
      [row('r5', NOW - 6 * HOUR)],
      [row('r6', NOW - 7 * HOUR)],
    ];
    const { fetchPage, calls } = cursorList(pages);
    const read = await readCursorList(noSignal, fetchPage, { watermark: at(WATERMARK - DAY), walk }, FLOOR, now, true);
    expect(calls).toEqual([
      { from: walk.from, cursor: 'c5' },
      { from: walk.from, cursor: 'c6' },
    ]);
    expect(read.rows.map((r) => r.id)).toEqual(['r5', 'r6']);
    expect(read.list).toEqual({ watermark: walk.to, readAt: walk.startedAt });
  });

  it('a stopped poll reads nothing more', async () => {
    const { fetchPage, calls } = cursorList([[row('a', WATERMARK + 1)]]);
    await expect(
      readCursorList({ signal: AbortSignal.abort() }, fetchPage, {}, FLOOR, now, true),
    ).rejects.toBeInstanceOf(PollAbortedError);
    expect(calls).toHaveLength(0);
  });
});

/** A page-number withdrawal list, newest first, over rows that a test may change between reads. */
function withdrawalList(rows: Row[]) {
  const pagesRead: number[] = [];
  const payments: Pick<PaymentsClient, 'listWithdrawals'> = {
    listWithdrawals: async ({ page = 1, perPage = 20 } = {}) => {
      pagesRead.push(page);
      const items = rows.slice((page - 1) * perPage, page * perPage) as unknown as Withdrawal[];
      return { items, totalCount: rows.length, page, perPage };
    },
  };
  return { deps: { signal: undefined, payments }, pagesRead, rows };
}

/** `count` rows a minute apart, newest `newestMs`. */
const rowsFrom = (count: number, newestMs: number, prefix = 'w') =>
  Array.from({ length: count }, (_, i) => row(`${prefix}${i}`, newestMs - i * MINUTE));

describe('readWithdrawals (page numbers, newest first): from the top down to the floor', () => {
  const PER_PAGE = POLL_RULES.withdrawalsPerPage;
  it.each([
    ['an empty list: one request, no watermark yet', [], FLOOR, {}, [], 1, { readAt: at(NOW) }],
    [
      'an empty list keeps the previous watermark',
      [],
      FLOOR,
      { watermark: at(WATERMARK) },
      [],
      1,
      { watermark: at(WATERMARK), readAt: at(NOW) },
    ],
    [
      'a row exactly at the floor is read, one ms below is not (and ends the read)',
      [row('above', FLOOR + 1), row('at', FLOOR), row('below', FLOOR - 1), row('older', FLOOR - MINUTE)],
      FLOOR,
      { watermark: at(WATERMARK) },
      ['above', 'at'],
      1,
      { watermark: at(WATERMARK), readAt: at(NOW) },
    ],
    [
      'a late row (below the watermark, above the floor) is read; new rows move the watermark',
      [row('new', WATERMARK + MINUTE), row('late', WATERMARK - 5 * MINUTE), row('old', FLOOR - 1)],
      FLOOR,
      { watermark: at(WATERMARK), readAt: at(WATERMARK) },
      ['new', 'late'],
      1,
      { watermark: at(WATERMARK + MINUTE), readAt: at(NOW) },
    ],
    [
      'a list shorter than the floor: read to its end (totalCount)',
      rowsFrom(PER_PAGE + 50, NOW - MINUTE),
      NOW - DAY,
      {},
      rowsFrom(PER_PAGE + 50, NOW - MINUTE).map((r) => r.id),
      2,
      { watermark: at(NOW - MINUTE), readAt: at(NOW) },
    ],
  ] satisfies [string, Row[], number, ListState, string[], number, ListState][])(
    '%s',
    async (_case, rows, floor, list, ids, requests, expected) => {
      const { deps } = withdrawalList(rows);
      const read = await readWithdrawals(deps, list, floor, now);
      expect(read.rows.map((r) => r.id)).toEqual(ids);
      expect(read.requests).toBe(requests);
      expect(read.list).toEqual(expected);
    },
  );

  it('more pages than the budget leaves a walk; resumed after rows were added on top, it skips none and repeats none', async () => {
    const total = PER_PAGE * BUDGET + 500;
    const list = withdrawalList(rowsFrom(total, NOW - MINUTE));
    const floor = NOW - 10 * DAY;
    const first = await readWithdrawals(list.deps, {}, floor, now);
    expect(first.requests).toBe(BUDGET);
    expect(first.rows).toHaveLength(PER_PAGE * BUDGET);
    const oldest = at(NOW - PER_PAGE * BUDGET * MINUTE);
    expect(first.list.walk).toMatchObject({
      from: at(floor),
      to: at(NOW - MINUTE),
      offset: PER_PAGE * BUDGET,
      totalCount: total,
      read: PER_PAGE * BUDGET,
      startedAt: at(NOW),
      oldest,
      boundaryIds: [`w${PER_PAGE * BUDGET - 1}`],
    });
    expect(first.list.watermark).toBeUndefined();

    // Three withdrawals arrive on top before the next poll: every page shifts by three rows.
    list.rows.unshift(...rowsFrom(3, NOW + 3 * MINUTE, 'new'));
    const later = new Date(NOW + 5 * MINUTE);
    const second = await readWithdrawals(list.deps, first.list, floor, later);
    expect(second.rows.map((r) => r.id)).toEqual(
      rowsFrom(total, NOW - MINUTE)
        .slice(PER_PAGE * BUDGET)
        .map((r) => r.id),
    );
    expect(second.list).toEqual({ watermark: at(NOW - MINUTE), readAt: at(NOW) });
    expect(second.requests).toBeLessThanOrEqual(BUDGET);
  });

  it('a stopped poll reads nothing more', async () => {
    const { deps, pagesRead } = withdrawalList([row('a', NOW)]);
    await expect(readWithdrawals({ ...deps, signal: AbortSignal.abort() }, {}, FLOOR, now)).rejects.toBeInstanceOf(
      PollAbortedError,
    );
    expect(pagesRead).toHaveLength(0);
  });
});

describe('readAll (pending lists, narrow windows): every page', () => {
  it.each([
    ['one empty page', [[]], 0],
    ['three pages, one of them empty', [[row('a', NOW)], [], [row('b', NOW), row('c', NOW)]], 3],
  ] satisfies [string, Row[][], number][])('%s', async (_case, pages, rows) => {
    async function* generate() {
      for (const [i, items] of pages.entries()) yield { items, cursorNext: i + 1 < pages.length ? `c${i + 1}` : null };
    }
    const read = await readAll(generate(), undefined);
    expect(read.requests).toBe(pages.length);
    expect(read.rows).toHaveLength(rows);
  });
});
