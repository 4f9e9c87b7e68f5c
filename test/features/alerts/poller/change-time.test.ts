// Which API times start an alert's latency (change-time.ts): believed only between the row's creation (and the
// poller's first poll of the source) and the poll's first sight plus a small clock skew.
import { expect, it } from 'vitest';
import { API_CLOCK_SKEW_MS, changeTimeOf } from '../../../../src/features/alerts/poller/change-time.js';

const seenAt = new Date('2026-11-20T10:00:00.000Z');
const createdAt = '2026-11-20T09:50:00.000Z';
const watchedSince = '2026-11-20T09:00:00.000Z';
const shifted = (ms: number) => new Date(seenAt.getTime() + ms).toISOString();

it.each([
  ['a time before the first sight', shifted(-60_000), shifted(-60_000)],
  ['the row created then', createdAt, createdAt],
  ['a little ahead of our clock (within the skew)', shifted(API_CLOCK_SKEW_MS), shifted(API_CLOCK_SKEW_MS)],
  ['further ahead than the skew', shifted(API_CLOCK_SKEW_MS + 1), undefined],
  ['before the row was created', '2026-11-20T09:49:59.000Z', undefined],
  ['no time from the API', undefined, undefined],
  ['not a time', 'soon', undefined],
])('%s', (_name, apiTime, expected) => {
  expect(changeTimeOf(apiTime, createdAt, seenAt, watchedSince)).toBe(expected);
});

it('a time before the poller watched the source (found by the first run) is not believed', () => {
  const old = '2026-11-20T08:00:00.000Z';
  expect(changeTimeOf(old, old, seenAt, watchedSince)).toBeUndefined();
  // At the first poll the source is watched from the poll itself.
  expect(changeTimeOf(createdAt, createdAt, seenAt, undefined)).toBeUndefined();
});
