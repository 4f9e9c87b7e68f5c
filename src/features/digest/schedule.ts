/**
 * When the daily digest is due: DIGEST_AT is a wall-clock time in a time zone, so the day and the instant are read
 * with that zone's rules (@date-fns/tz). Pure: the clock is an argument.
 *
 * The rules, daylight saving included:
 * - A digest belongs to a calendar day of the zone. It is due from the first instant of that day whose wall-clock
 *   time is at or after DIGEST_AT.
 * - Spring forward: a time that does not exist that day (02:30 when the clocks jump from 02:00 to 03:00) is due
 *   at the first instant after the gap (03:00), not an hour late and not skipped.
 * - Fall back: a time that happens twice (02:30 when the clocks go from 03:00 back to 02:00) is due the first time;
 *   the second time is the same day, whose digest is already claimed, so it is posted once.
 * - Late rather than never: at any check from its time until the day ends, today's digest is due if it has not
 *   been posted (after a downtime, the first check posts it). A day whose time passed while the bot was down
 *   until midnight gets none: yesterday's numbers would be a day stale, and today's digest follows within 24 h.
 */
import { TZDate } from '@date-fns/tz';
import type { DigestTime } from './rules.js';

const MINUTE_MS = 60_000;
/** How far around the naive instant the earliest matching minute is looked for (longer than any DST shift). */
const SCAN_MS = 3 * 60 * MINUTE_MS;

/** The calendar day (`YYYY-MM-DD`) of `at` in `timeZone`. */
export function localDay(at: Date, timeZone: string): string {
  const local = new TZDate(at.getTime(), timeZone);
  return `${String(local.getFullYear()).padStart(4, '0')}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

/**
 * The instant `day`'s digest is due: the earliest instant of that calendar day in the zone whose wall-clock time
 * is at or after the digest's time (the end of a spring-forward gap; the first of two fall-back repeats).
 */
export function dueInstant(day: string, time: DigestTime): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  // TZDate moves a time in a gap forward by the gap and picks the later of two repeats: only a starting point.
  const naive = new TZDate(year, month - 1, date, time.hour, time.minute, time.timeZone).getTime();
  const wanted = time.hour * 60 + time.minute;
  const start = Math.floor((naive - SCAN_MS) / MINUTE_MS) * MINUTE_MS;
  for (let at = start; at <= naive + SCAN_MS; at += MINUTE_MS) {
    const local = new TZDate(at, time.timeZone);
    if (localDay(new Date(at), time.timeZone) !== day) continue;
    if (local.getHours() * 60 + local.getMinutes() >= wanted) return new Date(at);
  }
  return new Date(naive);
}

/** Whether a digest is due at `now`: the zone's day of `now`, when its digest is due, and whether that has come. */
export interface DigestDue {
  day: string;
  dueAt: Date;
  due: boolean;
}

/** The digest rule at `now` (see the file's comment): today's digest, due from its time until the day ends. */
export function digestDue(now: Date, time: DigestTime): DigestDue {
  const day = localDay(now, time.timeZone);
  const dueAt = dueInstant(day, time);
  return { day, dueAt, due: now.getTime() >= dueAt.getTime() };
}

/** The calendar day `days` before `day` (calendar arithmetic: no time zone involved). */
export function dayBefore(day: string, days = 1): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
