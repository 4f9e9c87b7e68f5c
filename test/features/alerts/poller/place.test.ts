/** The watermark arithmetic of detection, without a simulator: floors, watermarks, walk estimates. */
import { describe, expect, it } from 'vitest';
import {
  completedList,
  estimateRows,
  firstRunSpan,
  listFloor,
  listOf,
  newestOf,
  walkingList,
} from '../../../../src/features/alerts/poller/place.js';
import { POLL_RULES } from '../../../../src/features/alerts/poller/poll-rules.js';
import type { AlertSourceState, ListState } from '../../../../src/features/alerts/records.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const OVERLAP = POLL_RULES.overlapMs;
const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const WATERMARK = NOW - 2 * HOUR;
const SPAN = 3 * DAY;
const at = (ms: number) => new Date(ms).toISOString();

function source(fields: Partial<AlertSourceState> = {}): AlertSourceState {
  return { consecutiveFailures: 0, tracking: {}, initializedAt: at(NOW - 5 * DAY), ...fields };
}

describe('listFloor: how far down a list is read from the top', () => {
  it.each([
    [
      'first poll (not initialized): the first-run span back from now',
      source({ initializedAt: undefined }),
      {},
      NOW - SPAN,
    ],
    ['no watermark yet: the span back from the first poll', source(), {}, NOW - 5 * DAY - SPAN],
    [
      'no watermark, first poll stamped in the future: the span back from now',
      source({ initializedAt: at(NOW + HOUR) }),
      {},
      NOW - SPAN,
    ],
    [
      'watermark, never read in full (no readAt): the whole overlap below it',
      source(),
      { watermark: at(WATERMARK) },
      WATERMARK - OVERLAP,
    ],
    [
      'read exactly one overlap after the watermark: settled, from the watermark',
      source(),
      { watermark: at(WATERMARK), readAt: at(WATERMARK + OVERLAP) },
      WATERMARK,
    ],
    [
      'read one ms less than an overlap after: 1 ms of band still unsettled',
      source(),
      { watermark: at(WATERMARK), readAt: at(WATERMARK + OVERLAP - 1) },
      WATERMARK - 1,
    ],
    [
      'read one ms more than an overlap after: settled, from the watermark',
      source(),
      { watermark: at(WATERMARK), readAt: at(WATERMARK + OVERLAP + 1) },
      WATERMARK,
    ],
    [
      'read long after the watermark: from the watermark (one page when idle)',
      source(),
      { watermark: at(WATERMARK), readAt: at(NOW) },
      WATERMARK,
    ],
    [
      'read at the watermark instant: the whole overlap below it',
      source(),
      { watermark: at(WATERMARK), readAt: at(WATERMARK) },
      WATERMARK - OVERLAP,
    ],
    [
      'read before the watermark (clocks disagree): never below watermark − overlap',
      source(),
      { watermark: at(WATERMARK), readAt: at(WATERMARK - DAY) },
      WATERMARK - OVERLAP,
    ],
  ] satisfies [string, AlertSourceState, ListState, number][])('%s', (_case, state, list, expected) => {
    expect(listFloor(state, list, NOW, SPAN)).toBe(expected);
  });
});

describe("listOf: a list's place", () => {
  it.each([
    [
      'its own place when the file has one',
      source({ watermark: at(NOW - DAY), lists: { all: { watermark: at(WATERMARK) } } }),
      'all',
      { watermark: at(WATERMARK) },
    ],
    [
      "the source's watermark for a file written before per-list places",
      source({ watermark: at(WATERMARK) }),
      'failed',
      { watermark: at(WATERMARK) },
    ],
    ['nothing when no row was ever seen', source(), 'default', {}],
    [
      "the source's watermark for a list the file does not hold yet",
      source({ watermark: at(WATERMARK), lists: { default: {} } }),
      'cancelled',
      { watermark: at(WATERMARK) },
    ],
  ] satisfies [string, AlertSourceState, string, ListState][])('%s', (_case, state, name, expected) => {
    expect(listOf(state, name)).toEqual(expected);
  });
});

describe('firstRunSpan: how far back the first poll reads', () => {
  it.each([
    ['withdrawals', HOUR, POLL_RULES.firstRunWithdrawalSpanMs],
    ['withdrawals', 30 * DAY, 30 * DAY],
    ['tasks', HOUR, HOUR],
    ['gas', 30 * DAY, 30 * DAY],
  ] as const)('%s with a lookback of %d ms: %d ms', (name, lookback, expected) => {
    expect(firstRunSpan(name, lookback)).toBe(expected);
  });
});

describe('newestOf: the next watermark', () => {
  const now = new Date(NOW);
  it.each([
    ['nothing seen, no previous: none', undefined, [], undefined],
    ['nothing seen (an empty page): the previous one stays', at(WATERMARK), [], at(WATERMARK)],
    ['a newer row: moves up to it', at(WATERMARK), [new Date(WATERMARK + 1)], at(WATERMARK + 1)],
    [
      'only late rows (older than the previous): the previous one stays',
      at(WATERMARK),
      [new Date(WATERMARK - MINUTE)],
      at(WATERMARK),
    ],
    [
      'the newest of several, in any order',
      undefined,
      [new Date(WATERMARK - 1), new Date(WATERMARK), new Date(WATERMARK - 2)],
      at(WATERMARK),
    ],
    ['a row stamped in the future: now, never later', at(WATERMARK), [new Date(NOW + HOUR)], at(NOW)],
  ] satisfies [string, string | undefined, Date[], string | undefined][])('%s', (_case, previous, seen, expected) => {
    expect(newestOf(previous, seen, now)).toBe(expected);
  });
});

describe("estimateRows: a walk's size from the share of its span read", () => {
  const from = at(NOW - 10 * HOUR);
  it.each([
    ['nothing processed yet (no oldest): no estimate', 100, at(NOW), undefined, undefined],
    ['an empty span (from = to): no estimate', 100, from, from, undefined],
    ['oldest at the top (nothing of the span done): no estimate', 100, at(NOW), at(NOW), undefined],
    ['half the span read: twice the rows read', 100, at(NOW), at(NOW - 5 * HOUR), 200],
    ['a tenth read: ten times', 37, at(NOW), at(NOW - HOUR), 370],
    ['oldest below from (late rows): never less than what was read', 100, at(NOW), at(NOW - 20 * HOUR), 100],
  ] satisfies [string, number, string, string | undefined, number | undefined][])(
    '%s',
    (_case, read, to, oldest, expected) => {
      expect(estimateRows(read, from, to, oldest)).toBe(expected);
    },
  );
});

describe("a list's place after a read", () => {
  const now = new Date(NOW);
  const walk = { from: at(NOW - DAY), to: at(NOW - HOUR), read: 10, startedAt: at(NOW - 30 * MINUTE) };
  it.each([
    [
      'a plain read: its watermark, read at now',
      at(WATERMARK),
      undefined,
      { watermark: at(WATERMARK), readAt: at(NOW) },
    ],
    ['an empty list: no watermark, still read at now', undefined, undefined, { readAt: at(NOW) }],
    ['the end of a walk: read when the walk began', walk.to, walk, { watermark: walk.to, readAt: walk.startedAt }],
  ] satisfies [string, string | undefined, typeof walk | undefined, ListState][])(
    '%s',
    (_case, watermark, w, expected) => {
      expect(completedList(watermark, w, now)).toEqual(expected);
    },
  );

  it('a walk under way keeps the watermark and last complete read until it is done', () => {
    expect(
      walkingList({ watermark: at(WATERMARK), readAt: at(WATERMARK + MINUTE), walk: { ...walk, read: 1 } }, walk),
    ).toEqual({
      watermark: at(WATERMARK),
      readAt: at(WATERMARK + MINUTE),
      walk,
    });
    expect(walkingList({}, walk)).toEqual({ walk });
  });
});
