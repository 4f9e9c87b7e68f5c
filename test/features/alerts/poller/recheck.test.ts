/** Follow-up planning without a simulator: which pending rows are checked this poll, by their age. */
import { describe, expect, it } from 'vitest';
import { POLL_RULES } from '../../../../src/features/alerts/poller/poll-rules.js';
import {
  bandOf,
  dueWithdrawals,
  lastCovered,
  oldestRecheckedSince,
  planRechecks,
  plansGasRecheck,
  planWindow,
  recheckFloor,
  type WindowReads,
  windowCovers,
  windowQueryFrom,
} from '../../../../src/features/alerts/poller/recheck.js';
import type { AlertSourceState } from '../../../../src/features/alerts/records.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const LOOKBACK = DAY;
const WATERMARK = NOW - 10 * MINUTE;
const at = (ms: number) => new Date(ms).toISOString();
// Lists read in full a minute ago: the floor is that read less the overlap (listFloor).
const settled = { watermark: at(WATERMARK), readAt: at(NOW - MINUTE) };
const FLOOR = NOW - MINUTE - POLL_RULES.overlapMs;
const LISTS = {
  tasks: { failed: settled },
  gas: { default: settled, cancelled: settled },
  withdrawals: { all: settled },
};

function source(fields: Partial<AlertSourceState> = {}): AlertSourceState {
  return {
    consecutiveFailures: 0,
    tracking: {},
    initializedAt: at(NOW - 5 * DAY),
    pendingSyncedAt: at(NOW - 5 * DAY),
    ...fields,
  };
}

/** Every window read just now: nothing due for the discovery or the clean-up. */
const freshReads = (ms = NOW): WindowReads => ({ hour: at(ms), day: at(ms), all: at(ms) });

describe('age bands: the documented intervals', () => {
  it.each([
    ['lists', 0, 0, 5 * MINUTE],
    ['lists', HOUR - 1, 0, 5 * MINUTE],
    ['lists', HOUR, 1, 10 * MINUTE],
    ['lists', DAY - 1, 1, 10 * MINUTE],
    ['lists', DAY, 2, HOUR],
    ['lists', 400 * DAY, 2, HOUR],
    ['withdrawals', 30 * MINUTE, 0, 5 * MINUTE],
    ['withdrawals', 2 * HOUR, 1, HOUR],
    ['withdrawals', 3 * DAY, 2, DAY],
  ] as const)('%s, age %d ms: band %d, every %d ms', (kind, age, band, every) => {
    const bands = POLL_RULES.recheckBands[kind];
    expect(bandOf(bands, age)).toBe(band);
    expect(bands[band]!.everyMs).toBe(every);
  });

  it('each band is checked at least as often as the one after it, and the task discovery beats the overlap', () => {
    for (const bands of Object.values(POLL_RULES.recheckBands)) {
      for (let i = 1; i < bands.length; i++) expect(bands[i]!.everyMs).toBeGreaterThanOrEqual(bands[i - 1]!.everyMs);
    }
    expect(POLL_RULES.taskDiscoveryEveryMs).toBeLessThan(POLL_RULES.overlapMs);
  });
});

describe('windows of the pending list', () => {
  it('ask for createdAt from an hour, a day ago, or nothing for the whole list', () => {
    expect(windowQueryFrom('hour', NOW)?.toISOString()).toBe(at(NOW - HOUR));
    expect(windowQueryFrom('day', NOW)?.toISOString()).toBe(at(NOW - DAY));
    expect(windowQueryFrom('all', NOW)).toBeUndefined();
  });

  it.each([
    ['hour', NOW - HOUR, false], // at the edge: left to a wider read (whole seconds on the wire)
    ['hour', NOW - HOUR + 999, false],
    ['hour', NOW - HOUR + 1_000, true],
    ['day', NOW - HOUR - 1, true],
    ['day', NOW - DAY + 500, false],
    ['all', 0, true],
  ] as const)('the %s window answers for a row created at %d: %s', (window, createdAt, covered) => {
    expect(windowCovers(window, createdAt, NOW)).toBe(covered);
  });

  it('a band counts as read when its window or a wider one was read', () => {
    const reads: WindowReads = { hour: at(NOW - MINUTE), day: at(NOW - 20 * MINUTE), all: at(NOW - 2 * HOUR) };
    expect(lastCovered(reads, 0)).toBe(NOW - MINUTE);
    expect(lastCovered(reads, 1)).toBe(NOW - 20 * MINUTE);
    expect(lastCovered(reads, 2)).toBe(NOW - 2 * HOUR);
    expect(lastCovered({ all: at(NOW - 30_000) }, 0)).toBe(NOW - 30_000);
    expect(lastCovered(undefined, 0)).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('recheckFloor: rows above it are read by the reads of new rows', () => {
  it('is the lowest floor of the source lists, and no floor at all while one is walked', () => {
    expect(recheckFloor('gas', source({ lists: LISTS.gas }), NOW, LOOKBACK)).toBe(FLOOR);
    const lower = { watermark: at(FLOOR - HOUR), readAt: at(NOW) };
    expect(recheckFloor('gas', source({ lists: { default: lower, cancelled: settled } }), NOW, LOOKBACK)).toBe(
      FLOOR - HOUR,
    );
    const walk = { from: at(NOW - DAY), to: at(WATERMARK), read: 1, startedAt: at(NOW - MINUTE) };
    expect(recheckFloor('withdrawals', source({ lists: { all: { ...settled, walk } } }), NOW, LOOKBACK)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });
});

describe('planWindow: the window of the pending list read this poll (tasks, gas)', () => {
  const tracked = (age: number) => ({ row: at(NOW - age) });
  it.each([
    ['the first poll of this version: the whole list', 'gas', { pendingSyncedAt: undefined }, 'all'],
    ['nothing tracked, all read just now', 'gas', { windowReads: freshReads() }, undefined],
    [
      'a row above the floor: the reads of new rows see it',
      'gas',
      { tracking: tracked(5 * MINUTE), windowReads: {} },
      undefined,
    ],
    [
      'a young row below the floor, hour window read 4 min ago: not yet',
      'gas',
      { tracking: tracked(30 * MINUTE), windowReads: freshReads(NOW - 4 * MINUTE) },
      undefined,
    ],
    [
      'a young row below the floor, hour window read 5 min ago: the hour',
      'gas',
      { tracking: tracked(30 * MINUTE), windowReads: freshReads(NOW - 5 * MINUTE) },
      'hour',
    ],
    [
      'a young row, only the whole list read 2 min ago: covered',
      'gas',
      { tracking: tracked(30 * MINUTE), windowReads: { all: at(NOW - 2 * MINUTE) } },
      undefined,
    ],
    [
      'a 3-hour-old row, day window read 9 min ago: not yet',
      'gas',
      { tracking: tracked(3 * HOUR), windowReads: freshReads(NOW - 9 * MINUTE) },
      undefined,
    ],
    [
      'a 3-hour-old row, day window read 10 min ago: the day',
      'gas',
      { tracking: tracked(3 * HOUR), windowReads: freshReads(NOW - 10 * MINUTE) },
      'day',
    ],
    [
      'a 3-day-old row, whole list read 59 min ago: not yet',
      'gas',
      { tracking: tracked(3 * DAY), windowReads: freshReads(NOW - 59 * MINUTE) },
      undefined,
    ],
    [
      'a 3-day-old row, whole list read an hour ago: all',
      'gas',
      { tracking: tracked(3 * DAY), windowReads: freshReads(NOW - HOUR) },
      'all',
    ],
    [
      'rows of every age, only the day due: the day (the widest due, not the widest held)',
      'gas',
      {
        tracking: { a: at(NOW - 30 * MINUTE), b: at(NOW - 3 * HOUR), c: at(NOW - 3 * DAY) },
        windowReads: { hour: at(NOW - MINUTE), day: at(NOW - 11 * MINUTE), all: at(NOW - 30 * MINUTE) },
      },
      'day',
    ],
    [
      'gas rows matched while pending, whole list read 23 h ago: not yet',
      'gas',
      { handledPending: ['g'], windowReads: { ...freshReads(), all: at(NOW - 23 * HOUR) } },
      undefined,
    ],
    [
      'gas rows matched while pending, whole list read a day ago: all (their clean-up)',
      'gas',
      { handledPending: ['g'], windowReads: { ...freshReads(), all: at(NOW - DAY) } },
      'all',
    ],
    [
      'tasks with nothing tracked, day window read 9 min ago: not yet',
      'tasks',
      { windowReads: freshReads(NOW - 9 * MINUTE) },
      undefined,
    ],
    [
      'tasks with nothing tracked, day window read 10 min ago: the day (new pending tasks)',
      'tasks',
      { windowReads: freshReads(NOW - 10 * MINUTE) },
      'day',
    ],
    ['tasks never read by window: the day', 'tasks', { windowReads: undefined }, 'day'],
  ] as const)('%s', (_case, name, fields, expected) => {
    const state = source({ lists: LISTS[name], ...(fields as Partial<AlertSourceState>) });
    expect(planWindow(name, state, NOW, LOOKBACK)).toBe(expected);
  });

  it('while a list is walked, a young row is due by its band even above the old floor', () => {
    const walk = { from: at(NOW - DAY), to: at(WATERMARK), read: 1, startedAt: at(NOW - MINUTE) };
    const state = source({
      lists: { failed: { ...settled, walk } },
      tracking: { t: at(NOW - MINUTE) },
      windowReads: freshReads(NOW - 5 * MINUTE),
    });
    expect(planWindow('tasks', state, NOW, LOOKBACK)).toBe('hour');
  });
});

describe('dueWithdrawals: by id, when the band interval has passed since the row was last seen', () => {
  const tracking = { young: at(NOW - 30 * MINUTE), day: at(NOW - 5 * HOUR), old: at(NOW - 10 * DAY) };
  it.each([
    ['all seen just now: none', { young: at(NOW), day: at(NOW), old: at(NOW) }, []],
    ['the young one seen 5 min ago', { young: at(NOW - 5 * MINUTE), day: at(NOW), old: at(NOW) }, ['young']],
    ['the day one seen 59 min ago: not yet', { young: at(NOW), day: at(NOW - 59 * MINUTE), old: at(NOW) }, []],
    ['the day one seen an hour ago', { young: at(NOW), day: at(NOW - HOUR), old: at(NOW) }, ['day']],
    ['the old one seen 23 h ago: not yet', { young: at(NOW), day: at(NOW), old: at(NOW - 23 * HOUR) }, []],
    ['the old one seen a day ago', { young: at(NOW), day: at(NOW), old: at(NOW - DAY) }, ['old']],
    [
      'all due: the most overdue first',
      { young: at(NOW - 7 * MINUTE), day: at(NOW - 3 * HOUR), old: at(NOW - DAY - 30 * MINUTE) },
      ['day', 'old', 'young'],
    ],
    ['never checked (a file of the version before): overdue since forever', {}, ['day', 'old', 'young']],
  ] as const)('%s', (_case, checkedAt, expected) => {
    expect(dueWithdrawals(tracking, checkedAt, new Set(), NOW, 10)).toEqual(expected);
  });

  it('takes at most the limit, skips rows seen in this poll, and a zero limit looks up nothing', () => {
    expect(dueWithdrawals(tracking, {}, new Set(), NOW, 2)).toEqual(['day', 'old']);
    expect(dueWithdrawals(tracking, {}, new Set(['day']), NOW, 2)).toEqual(['old', 'young']);
    expect(dueWithdrawals(tracking, {}, new Set(), NOW, 0)).toEqual([]);
  });

  it(`1,000 rows pending for weeks, checked daily, ${POLL_RULES.recheckRequestsPerPoll} a poll: each is checked within a day, a minute apart`, () => {
    const rows: Record<string, string> = {};
    const checked: Record<string, string> = {};
    for (let i = 0; i < 1_000; i++) rows[`w${String(i).padStart(4, '0')}`] = at(NOW - 7 * DAY - i * HOUR);
    const lastSeen = new Map<string, number>();
    let worstGap = 0;
    for (let minute = 0; minute < 3 * 24 * 60; minute++) {
      const now = NOW + minute * MINUTE;
      for (const id of dueWithdrawals(rows, checked, new Set(), now, POLL_RULES.recheckRequestsPerPoll)) {
        if (lastSeen.has(id)) worstGap = Math.max(worstGap, now - lastSeen.get(id)!);
        lastSeen.set(id, now);
        checked[id] = at(now);
      }
    }
    expect(lastSeen.size).toBe(1_000);
    expect(worstGap).toBeLessThanOrEqual(DAY + MINUTE);
  });
});

describe('planRechecks: the follow-up requests of one poll', () => {
  const sources = (tasks: Partial<AlertSourceState>, gas: Partial<AlertSourceState>) => ({
    withdrawals: source({ lists: LISTS.withdrawals }),
    tasks: source({ lists: LISTS.tasks, windowReads: freshReads(), ...tasks }),
    gas: source({ lists: LISTS.gas, windowReads: freshReads(), ...gas }),
  });
  it.each([
    [
      'no window due: withdrawals may take the whole budget',
      {},
      {},
      { withdrawalLookups: POLL_RULES.recheckRequestsPerPoll },
    ],
    [
      'the task discovery due: one window, one lookup',
      { windowReads: freshReads(NOW - 10 * MINUTE) },
      {},
      { tasks: 'day', withdrawalLookups: 1 },
    ],
    [
      'both windows due: still one lookup (a withdrawal never waits for ever)',
      { windowReads: freshReads(NOW - 10 * MINUTE) },
      { pendingSyncedAt: undefined },
      { tasks: 'day', gas: 'all', withdrawalLookups: 1 },
    ],
    [
      'a gas top-up followed below the floor: its failed recheck takes a slot, one lookup left',
      {},
      { tracking: { g1: at(FLOOR - 30 * MINUTE) } },
      { withdrawalLookups: POLL_RULES.recheckRequestsPerPoll - 1 },
    ],
  ] as const)('%s', (_case, tasks, gas, expected) => {
    expect(planRechecks(sources(tasks, gas), NOW, LOOKBACK)).toEqual(expected);
  });
});

describe('rechecking followed rows for a turn to failed', () => {
  it.each([
    ['nothing followed', {}, [], undefined],
    ['a row above the floor: the reads of new rows see it', { a: at(FLOOR + 2_000) }, [], undefined],
    ["a row in the floor's second (the API compares whole seconds)", { a: at(FLOOR + 500) }, [], FLOOR - 1_000],
    ['a row below the floor: from its second, less one', { a: at(FLOOR - HOUR + 400) }, [], FLOOR - HOUR - 1_000],
    ['the oldest of several', { a: at(FLOOR - HOUR), b: at(FLOOR - 2 * HOUR) }, [], FLOOR - 2 * HOUR - 1_000],
    ['older than the lookback: left to the follow-ups', { a: at(NOW - LOOKBACK - 1) }, [], undefined],
    [
      'skipped ids (alerted while pending) do not count',
      { a: at(FLOOR - HOUR), b: at(FLOOR - 2 * HOUR) },
      ['b'],
      FLOOR - HOUR - 1_000,
    ],
  ] as const)('%s', (_case, tracking, skip, expected) => {
    expect(oldestRecheckedSince(tracking, NOW - LOOKBACK, FLOOR, new Set(skip))).toBe(expected);
  });

  it('gas rechecks while a top-up not yet alerted is followed below the floor for under an hour, never during a walk', () => {
    const below = { g1: at(FLOOR - 30 * MINUTE) };
    expect(plansGasRecheck(source({ lists: LISTS.gas, tracking: below }), NOW, LOOKBACK)).toBe(true);
    expect(plansGasRecheck(source({ lists: LISTS.gas, tracking: { g1: at(NOW - MINUTE) } }), NOW, LOOKBACK)).toBe(
      false,
    );
    // Pending for over an hour: stuck, left to its band's follow-up (no request at every poll for as long as it stays).
    const old = { g1: at(NOW - POLL_RULES.gasRecheckYoungerThanMs - 1) };
    expect(plansGasRecheck(source({ lists: LISTS.gas, tracking: old }), NOW, LOOKBACK)).toBe(false);
    expect(plansGasRecheck(source({ lists: LISTS.gas, tracking: below, handledPending: ['g1'] }), NOW, LOOKBACK)).toBe(
      false,
    );
    const walking = {
      ...LISTS.gas,
      default: { ...settled, walk: { from: at(NOW - DAY), to: at(NOW), read: 0, startedAt: at(NOW) } },
    };
    expect(plansGasRecheck(source({ lists: walking, tracking: below }), NOW, LOOKBACK)).toBe(false);
  });
});
