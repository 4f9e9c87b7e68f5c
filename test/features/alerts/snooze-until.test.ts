// When a snooze ends: an hour or four of elapsed time, or 09:00 of the next calendar day in ALERT_TIME_ZONE,
// right on both sides of a change to or from summer time.
import { describe, expect, it } from 'vitest';
import { describeSnoozeChoice, isSnoozeChoice, SNOOZE_CHOICES } from '../../../src/features/alerts/snooze.js';
import { snoozeUntil } from '../../../src/features/alerts/snooze-until.js';

describe('snoozeUntil: until tomorrow 09:00 in the zone', () => {
  it.each([
    // zone, now (UTC), until (UTC), what it shows
    ['UTC', '2026-01-31T12:00:00Z', '2026-02-01T09:00:00Z', 'the next day, across a month'],
    ['UTC', '2026-12-31T23:59:00Z', '2027-01-01T09:00:00Z', 'across a year'],
    ['UTC', '2026-05-10T09:00:00Z', '2026-05-11T09:00:00Z', 'at 09:00 sharp: the next day, not now'],
    ['UTC', '2026-05-10T00:00:00Z', '2026-05-11T09:00:00Z', 'just after midnight: the next calendar day'],
    // Europe/Berlin: summer time from 2026-03-29 02:00 CET (01:00Z) to 2026-10-25 03:00 CEST (01:00Z).
    ['Europe/Berlin', '2026-03-28T20:00:00Z', '2026-03-29T07:00:00Z', 'the evening before spring forward: 09:00 CEST'],
    ['Europe/Berlin', '2026-03-29T00:30:00Z', '2026-03-30T07:00:00Z', '01:30 CET, just before the clocks jump'],
    ['Europe/Berlin', '2026-03-29T01:30:00Z', '2026-03-30T07:00:00Z', '03:30 CEST, just after'],
    ['Europe/Berlin', '2026-10-24T20:00:00Z', '2026-10-25T08:00:00Z', 'the evening before fall back: 09:00 CET'],
    ['Europe/Berlin', '2026-10-25T00:30:00Z', '2026-10-26T08:00:00Z', '02:30 CEST, the first time round'],
    ['Europe/Berlin', '2026-10-25T01:30:00Z', '2026-10-26T08:00:00Z', '02:30 CET, the second time round'],
    ['Europe/Berlin', '2026-03-28T23:30:00Z', '2026-03-30T07:00:00Z', 'already the 29th in Berlin (not in UTC)'],
    // Pacific/Auckland: ahead of UTC; summer time ends 2026-04-05 03:00 NZDT and starts 2026-09-27 02:00 NZST.
    [
      'Pacific/Auckland',
      '2026-04-04T10:00:00Z',
      '2026-04-04T21:00:00Z',
      'the night before summer time ends: 09:00 NZST',
    ],
    ['Pacific/Auckland', '2026-09-26T10:00:00Z', '2026-09-26T20:00:00Z', 'the night before it starts: 09:00 NZDT'],
    ['Pacific/Auckland', '2026-06-15T22:00:00Z', '2026-06-16T21:00:00Z', 'already the 16th there: the 17th'],
    ['Pacific/Auckland', '2026-12-31T20:00:00Z', '2027-01-01T20:00:00Z', 'New Year there first'],
    // Behind UTC: still the 31st in New York when it is the 1st in UTC.
    ['America/New_York', '2026-01-01T03:00:00Z', '2026-01-01T14:00:00Z', 'still yesterday there'],
  ])('%s at %s → %s (%s)', (zone, now, until, _what) => {
    expect(snoozeUntil('tomorrow', new Date(now), zone).toISOString()).toBe(new Date(until).toISOString());
  });

  it('refuses a zone it does not know instead of returning an invalid date', () => {
    expect(() => snoozeUntil('tomorrow', new Date('2026-01-01T00:00:00Z'), 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('snoozeUntil: an hour or four, in elapsed time', () => {
  it.each([
    ['1h', 'UTC', '2026-05-10T12:00:00Z', '2026-05-10T13:00:00Z'],
    ['4h', 'UTC', '2026-05-10T22:00:00Z', '2026-05-11T02:00:00Z'],
    // Across Berlin's spring-forward the wall clock jumps, the snooze does not: one hour is one hour.
    ['1h', 'Europe/Berlin', '2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z'],
    ['4h', 'Europe/Berlin', '2026-10-25T00:00:00Z', '2026-10-25T04:00:00Z'],
    ['4h', 'Pacific/Auckland', '2026-04-04T12:30:00Z', '2026-04-04T16:30:00Z'],
  ] as const)('%s in %s at %s → %s', (choice, zone, now, until) => {
    expect(snoozeUntil(choice, new Date(now), zone).toISOString()).toBe(new Date(until).toISOString());
  });
});

describe('the snooze menu', () => {
  it.each([
    ['1h', 'UTC', 'For 1 hour'],
    ['4h', 'Europe/Berlin', 'For 4 hours'],
    ['tomorrow', 'Europe/Berlin', 'Until tomorrow 09:00 (Europe/Berlin)'],
    ['tomorrow', 'UTC', 'Until tomorrow 09:00 (UTC)'],
  ] as const)('%s in %s reads "%s"', (choice, zone, text) => {
    expect(describeSnoozeChoice(choice, zone)).toBe(text);
  });

  it('has three choices, each within the 75 characters of a menu option even in the longest zone name', () => {
    expect(SNOOZE_CHOICES).toEqual(['1h', '4h', 'tomorrow']);
    for (const choice of SNOOZE_CHOICES)
      expect(describeSnoozeChoice(choice, 'America/Argentina/ComodRivadavia').length).toBeLessThanOrEqual(75);
  });

  it.each([
    ['1h', true],
    ['tomorrow', true],
    ['2h', false],
    ['', false],
    ['__proto__', false],
    [undefined, false],
    [1, false],
  ])('a menu value %j is a choice: %s', (value, expected) => {
    expect(isSnoozeChoice(value)).toBe(expected);
  });
});
