// When the daily digest is due: DIGEST_AT's wall-clock time in its zone, on both sides of a change to or from summer
// time, and late rather than never (from its time until the day ends).
import { describe, expect, it } from 'vitest';
import type { DigestTime } from '../../../src/features/digest/rules.js';
import { dayBefore, digestDue, dueInstant, localDay } from '../../../src/features/digest/schedule.js';

const at = (clock: string, timeZone: string): DigestTime => {
  const [hour, minute] = clock.split(':').map(Number) as [number, number];
  return { hour, minute, timeZone };
};

describe('the instant a day’s digest is due', () => {
  it.each([
    // zone, DIGEST_AT, day, due at (UTC), why
    ['UTC', '09:00', '2026-05-10', '2026-05-10T09:00:00Z', 'an ordinary day'],
    ['Europe/Berlin', '09:00', '2026-01-15', '2026-01-15T08:00:00Z', 'winter: CET, UTC+1'],
    ['Europe/Berlin', '09:00', '2026-07-15', '2026-07-15T07:00:00Z', 'summer: CEST, UTC+2'],
    // Berlin springs forward on 2026-03-29: 02:00 CET becomes 03:00 CEST (01:00Z); 02:00–02:59 do not exist.
    ['Europe/Berlin', '09:00', '2026-03-29', '2026-03-29T07:00:00Z', 'spring-forward day, after the jump'],
    ['Europe/Berlin', '01:59', '2026-03-29', '2026-03-29T00:59:00Z', 'spring-forward day, just before the gap'],
    ['Europe/Berlin', '02:30', '2026-03-29', '2026-03-29T01:00:00Z', 'a time in the gap: the first instant after it'],
    ['Europe/Berlin', '02:00', '2026-03-29', '2026-03-29T01:00:00Z', 'the gap’s first minute: the same'],
    ['Europe/Berlin', '03:00', '2026-03-29', '2026-03-29T01:00:00Z', 'the gap’s end itself'],
    ['Europe/Berlin', '02:30', '2026-03-30', '2026-03-30T00:30:00Z', 'the day after: 02:30 exists again'],
    // Berlin falls back on 2026-10-25: 03:00 CEST becomes 02:00 CET (01:00Z); 02:00–02:59 happen twice.
    ['Europe/Berlin', '02:30', '2026-10-25', '2026-10-25T00:30:00Z', 'a repeated time: the first time round'],
    ['Europe/Berlin', '09:00', '2026-10-25', '2026-10-25T08:00:00Z', 'fall-back day, after the change'],
    ['Europe/Berlin', '01:30', '2026-10-25', '2026-10-24T23:30:00Z', 'fall-back day, before the change'],
    ['Europe/Berlin', '00:00', '2026-10-25', '2026-10-24T22:00:00Z', 'midnight is the day’s own first minute'],
    // America/New_York springs forward on 2026-03-08 at 02:00 EST (07:00Z).
    ['America/New_York', '02:15', '2026-03-08', '2026-03-08T07:00:00Z', 'New York’s gap'],
    ['Pacific/Auckland', '09:00', '2026-06-16', '2026-06-15T21:00:00Z', 'ahead of UTC: the day before in UTC'],
    // Santiago's clocks jump at midnight (2026-09-06 00:00 → 01:00): the day starts at 01:00.
    ['America/Santiago', '00:00', '2026-09-06', '2026-09-06T04:00:00Z', 'a day whose midnight does not exist'],
  ])('%s %s on %s → %s (%s)', (zone, clock, day, due, _why) => {
    expect(dueInstant(day, at(clock, zone)).toISOString()).toBe(new Date(due).toISOString());
  });
});

describe('whether the digest is due now', () => {
  const berlin9 = at('09:00', 'Europe/Berlin');
  it.each([
    // now (UTC), day in Berlin, due?
    ['2026-11-24T07:59:59Z', '2026-11-24', false, 'a second before 09:00 CET'],
    ['2026-11-24T08:00:00Z', '2026-11-24', true, 'at 09:00 sharp'],
    ['2026-11-24T15:00:00Z', '2026-11-24', true, 'after a downtime, the same day: late rather than never'],
    ['2026-11-24T22:59:00Z', '2026-11-24', true, '23:59: still that day'],
    ['2026-11-24T23:00:00Z', '2026-11-25', false, 'midnight in Berlin: a new day, whose time has not come'],
    ['2026-11-24T23:30:00Z', '2026-11-25', false, 'already tomorrow in Berlin, still today in UTC'],
  ])('at %s the day is %s, due: %s (%s)', (now, day, due, _why) => {
    const result = digestDue(new Date(now), berlin9);
    expect(result.day).toBe(day);
    expect(result.due).toBe(due);
  });

  it('spring forward: a 02:30 digest is due from 03:00 CEST, once that day', () => {
    const time = at('02:30', 'Europe/Berlin');
    expect(digestDue(new Date('2026-03-29T00:59:00Z'), time).due).toBe(false); // 01:59 CET
    const jump = digestDue(new Date('2026-03-29T01:00:00Z'), time); // 03:00 CEST
    expect(jump).toMatchObject({ day: '2026-03-29', due: true });
  });

  it('fall back: a 02:30 digest is due at the first 02:30; the second is the same day (claimed already)', () => {
    const time = at('02:30', 'Europe/Berlin');
    const first = digestDue(new Date('2026-10-25T00:30:00Z'), time); // 02:30 CEST
    const second = digestDue(new Date('2026-10-25T01:30:00Z'), time); // 02:30 CET
    expect(first).toMatchObject({ day: '2026-10-25', due: true });
    expect(second.day).toBe(first.day);
    expect(second.dueAt.toISOString()).toBe(first.dueAt.toISOString());
    expect(digestDue(new Date('2026-10-25T00:29:00Z'), time).due).toBe(false);
  });
});

describe('days', () => {
  it('reads the calendar day in the zone', () => {
    expect(localDay(new Date('2026-12-31T23:30:00Z'), 'Europe/Berlin')).toBe('2027-01-01');
    expect(localDay(new Date('2026-01-01T03:00:00Z'), 'America/New_York')).toBe('2025-12-31');
  });
  it('counts calendar days back across months, years and leap days', () => {
    expect(dayBefore('2026-03-01')).toBe('2026-02-28');
    expect(dayBefore('2028-03-01')).toBe('2028-02-29');
    expect(dayBefore('2027-01-01', 30)).toBe('2026-12-02');
  });
});
