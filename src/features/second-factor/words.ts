/**
 * What the second factor tells people, in plain words: under the code input of an approval, in `/treasury 2fa`'s
 * replies, in the enrolment DM and in ALERT_CHANNEL. No secret, URI or code is ever part of these words except the
 * enrolment DM's, which is the one place the secret is shown.
 */
import { LOCK_MS, MAX_WRONG_CODES } from './rules.js';

const LOCK_MINUTES = Math.round(LOCK_MS / 60_000);

/** "14:05 UTC" (with the day when it is not `now`'s day: "28 Nov 14:05 UTC"). */
export function utcTime(iso: string, now: Date): string {
  const at = new Date(iso);
  const time = `${at.toISOString().slice(11, 16)} UTC`;
  if (at.toISOString().slice(0, 10) === now.toISOString().slice(0, 10)) return time;
  const day = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return `${day} ${time}`;
}

/** A day for people: "28 Nov 2026". */
export function utcDay(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** How many more wrong codes lock, as the tail of a refusal. */
function remaining(wrongCodes: number): string {
  const left = Math.max(0, MAX_WRONG_CODES - wrongCodes);
  return `${left} more wrong code${left === 1 ? '' : 's'} lock${left === 1 ? 's' : ''} your approvals for ${LOCK_MINUTES} minutes.`;
}

/** The plain words for each refusal of a code. */
export const CODE_WORDS = {
  wrong: (wrongCodes: number) => `That code is not right: ${remaining(wrongCodes)}`,
  replayed: (wrongCodes: number) =>
    `That code was used already (each code works once): wait for the next one in your app. ${remaining(wrongCodes)}`,
  locked: (until: string, now: Date) =>
    `Your approvals are locked until ${utcTime(until, now)} after ${MAX_WRONG_CODES} wrong codes.`,
  malformed: 'Type the 6 digits your authenticator app shows, e.g. 123 456.',
  notEnrolled: 'You have no second factor yet: type /treasury 2fa enroll to set one up.',
  pending: 'Your second factor is not set up yet: finish with /treasury 2fa confirm and a code from your app.',
  unreadable:
    'Your second factor cannot be read (its record is damaged, or the bot was given another key): ask a treasury admin to reset it (/treasury 2fa reset @you), then enrol again.',
  noKey: 'Second factors are not set up on this bot: an engineer sets TOTP_ENCRYPTION_KEY.',
} as const;

/** The line posted in ALERT_CHANNEL when a person's approvals lock. */
export function lockedAlertText(userId: string): string {
  return `<@${userId}>'s approvals are locked for ${LOCK_MINUTES} minutes after ${MAX_WRONG_CODES} wrong codes.`;
}
