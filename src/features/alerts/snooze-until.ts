/**
 * When a snooze ends: "tomorrow 09:00" needs a time zone's rules, which @date-fns/tz reads from the platform's
 * Intl (the menu's words are in snooze.ts).
 */
import { TZDate } from '@date-fns/tz';
import { SNOOZE_TOMORROW_HOUR, type SnoozeChoice } from './snooze.js';

const HOUR_MS = 3_600_000;

/**
 * The end of a snooze chosen at `now`: an hour or four later, or 09:00 of the next calendar day in `timeZone`
 * (an IANA zone, e.g. ALERT_TIME_ZONE), whatever the daylight-saving change in between. Throws on a zone Intl
 * does not know (the configuration has checked ALERT_TIME_ZONE already).
 */
export function snoozeUntil(choice: SnoozeChoice, now: Date, timeZone: string): Date {
  switch (choice) {
    case '1h':
      return new Date(now.getTime() + HOUR_MS);
    case '4h':
      return new Date(now.getTime() + 4 * HOUR_MS);
    case 'tomorrow': {
      const local = new TZDate(now.getTime(), timeZone);
      // Day + 1 rolls over months and years as Date does; the wall-clock time is read in the zone, so 09:00 is
      // 09:00 there on either side of a change to or from summer time.
      const until = new TZDate(
        local.getFullYear(),
        local.getMonth(),
        local.getDate() + 1,
        SNOOZE_TOMORROW_HOUR,
        0,
        0,
        0,
        timeZone,
      );
      if (Number.isNaN(until.getTime())) throw new RangeError(`unknown time zone: ${timeZone}`);
      return new Date(until.getTime());
    }
  }
}
