/** Follow planning without a simulator: which sources need their follow-up read, and which get one this poll. */
import { describe, expect, it } from 'vitest';
import type { SourceName } from '../../src/poller/facts.js';
import { needsFollow, planFollows } from '../../src/poller/follow.js';
import { POLL_POLICY } from '../../src/poller/policy.js';
import type { AlertSourceState } from '../../src/store/state.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const LOOKBACK = DAY;
const WATERMARK = NOW - HOUR;
// Lists read in full long after their watermark: settled, so the floor is the watermark itself.
const FLOOR = WATERMARK;
const at = (ms: number) => new Date(ms).toISOString();
const settled = { watermark: at(WATERMARK), readAt: at(NOW - MINUTE) };

function source(fields: Partial<AlertSourceState> = {}): AlertSourceState {
  return { consecutiveFailures: 0, tracking: {}, initializedAt: at(NOW - 5 * DAY), pendingSyncedAt: at(NOW - 5 * DAY), ...fields };
}

describe('needsFollow: rows pending that the reads of new rows do not show', () => {
  const walk = { from: at(NOW - DAY), to: at(WATERMARK), read: 1, startedAt: at(NOW - MINUTE) };
  it.each([
    ['tasks, always: the pending list is how new pending tasks are found', 'tasks', source(), true],
    ['gas whose pending list was never read', 'gas', source({ pendingSyncedAt: undefined }), true],
    ['withdrawals following nothing', 'withdrawals', source({ lists: { all: settled } }), false],
    ['gas following nothing, pending list read before', 'gas', source({ lists: { default: settled, cancelled: settled } }), false],
    ['a pending withdrawal above the floor: the next read shows it', 'withdrawals', source({ lists: { all: settled }, tracking: { w: at(FLOOR + 1) } }), false],
    ['a pending withdrawal exactly at the floor: still read', 'withdrawals', source({ lists: { all: settled }, tracking: { w: at(FLOOR) } }), false],
    ['a pending withdrawal one ms below the floor', 'withdrawals', source({ lists: { all: settled }, tracking: { w: at(FLOOR - 1) } }), true],
    ['a pending withdrawal with a walk under way', 'withdrawals', source({ lists: { all: { ...settled, walk } }, tracking: { w: at(NOW) } }), true],
    [
      'pending gas below the floor of one of its two lists',
      'gas',
      source({ lists: { default: { watermark: at(FLOOR - HOUR), readAt: at(NOW) }, cancelled: settled }, tracking: { g: at(FLOOR - 1) } }),
      true,
    ],
    [
      'pending gas above both floors',
      'gas',
      source({ lists: { default: settled, cancelled: settled }, tracking: { g: at(FLOOR + MINUTE) } }),
      false,
    ],
    [
      'a withdrawal followed from a file without per-list places: the source watermark less the overlap',
      'withdrawals',
      source({ watermark: at(WATERMARK), tracking: { w: at(WATERMARK - POLL_POLICY.overlapMs - 1) } }),
      true,
    ],
  ] satisfies [string, SourceName, AlertSourceState, boolean][])('%s', (_case, name, state, expected) => {
    expect(needsFollow(name, state, NOW, LOOKBACK)).toBe(expected);
  });
});

describe(`planFollows: at most ${POLL_POLICY.followReadsPerPoll} follow-up reads a poll, taking turns`, () => {
  const ALL: SourceName[] = ['withdrawals', 'tasks', 'gas'];
  it.each([
    ['none needed', [], 0, []],
    ['one needed: it', ['gas'], 5, ['gas']],
    ['two needed (the cap): both, whatever the turn', ['withdrawals', 'gas'], 7, ['withdrawals', 'gas']],
    ['all three, turn 0', ALL, 0, ['withdrawals', 'tasks']],
    ['all three, turn 1', ALL, 1, ['tasks', 'gas']],
    ['all three, turn 2', ALL, 2, ['gas', 'withdrawals']],
    ['all three, turn 3: round again', ALL, 3, ['withdrawals', 'tasks']],
  ] satisfies [string, SourceName[], number, SourceName[]][])('%s', (_case, needed, turn, expected) => {
    const chosen = planFollows(needed, turn);
    expect([...chosen]).toEqual(expected);
    expect(chosen.size).toBeLessThanOrEqual(POLL_POLICY.followReadsPerPoll);
  });

  it('over three polls in turn, each of the three sources gets its follow-up read twice', () => {
    const counts = new Map<SourceName, number>();
    for (let turn = 0; turn < 3; turn++) for (const name of planFollows(ALL, turn)) counts.set(name, (counts.get(name) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ withdrawals: 2, tasks: 2, gas: 2 });
  });
});
