// Which API times start an alert's latency (change-time.ts): believed only between the row's creation (and the
// moment from which the time is known to be close to the change) and the poll's first sight plus a small skew.
import { expect, it } from 'vitest';
import { API_CLOCK_SKEW_MS, believedSince, changeTimeOf } from '../../../../src/features/alerts/poller/change-time.js';

const seenAt = new Date('2026-11-20T10:00:00.000Z');
const createdAt = '2026-11-20T09:59:00.000Z';
const previousRead = '2026-11-20T09:58:00.000Z';
const shifted = (ms: number) => new Date(seenAt.getTime() + ms).toISOString();

it.each([
  ['a time before the first sight', shifted(-30_000), shifted(-30_000)],
  ['the row created then', createdAt, createdAt],
  ['a little ahead of our clock (within the skew)', shifted(API_CLOCK_SKEW_MS), shifted(API_CLOCK_SKEW_MS)],
  ['further ahead than the skew', shifted(API_CLOCK_SKEW_MS + 1), undefined],
  ['before the row was created', '2026-11-20T09:58:59.000Z', undefined],
  ['no time from the API', undefined, undefined],
  ['not a time', 'soon', undefined],
])('%s', (_name, apiTime, expected) => {
  expect(changeTimeOf(apiTime, createdAt, seenAt, previousRead)).toBe(expected);
});

it('a time before it is known to be close to the change is not believed; at the first poll none is', () => {
  const old = '2026-11-20T09:50:00.000Z';
  expect(changeTimeOf(old, old, seenAt, previousRead)).toBeUndefined();
  // Whole seconds on the wire: a row created just after the previous read may read a little earlier.
  const justBefore = '2026-11-20T09:57:51.000Z';
  expect(changeTimeOf(justBefore, justBefore, seenAt, previousRead)).toBe(justBefore);
  expect(changeTimeOf(createdAt, createdAt, seenAt, undefined)).toBeUndefined();
});

it("a createdAt is believed from the source's previous read, a gas updatedAt from its first poll", () => {
  const source = { initializedAt: '2026-11-01T00:00:00.000Z', lastSuccessAt: previousRead };
  expect(believedSince('withdrawal', source)).toBe(previousRead);
  expect(believedSince('task', source)).toBe(previousRead);
  expect(believedSince('gas', source)).toBe('2026-11-01T00:00:00.000Z');
  expect(believedSince('task', {})).toBeUndefined();
});
