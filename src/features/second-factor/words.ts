/**
 * What the second factor tells people, in plain words: under the code input of an approval, in `/treasury 2fa`'s
 * replies, in the enrolment DM and in ALERT_CHANNEL. No secret, URI or code is ever part of these words except the
 * enrolment DM's, which is the one place the secret is shown.
 */
import { ENROLMENT_LAPSE_MS, LOCK_MS, MAX_WRONG_CODES } from './rules.js';

const LOCK_MINUTES = Math.round(LOCK_MS / 60_000);
/** How long an enrolment waits for its first code, in minutes. */
export const LAPSE_MINUTES = Math.round(ENROLMENT_LAPSE_MS / 60_000);

/**
 * ALERT_CHANNEL as people read it: a channel id becomes a link (`<#C…>`) in mrkdwn; plain text (a modal's error)
 * shows a name as given, and an id as "the alert channel".
 */
export function alertChannelRef(channel: string | undefined, format: 'mrkdwn' | 'plain'): string {
  if (channel === undefined) return 'ALERT_CHANNEL (not set on this bot)';
  if (/^[CG][A-Z0-9]+$/.test(channel)) return format === 'mrkdwn' ? `<#${channel}>` : 'the alert channel';
  return channel.startsWith('#') ? channel : `#${channel}`;
}

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
  /** An enrolment no other admin confirmed yet (`where`: alertChannelRef). */
  awaitingAdmin: (where: string) =>
    `Your second factor waits for another admin to confirm it in ${where}: it counts for approvals once a treasury admin other than you presses Confirm enrolment there.`,
} as const;

/** What the person is told about the DM that showed their secret. */
export const DM_WORDS = {
  deleted: 'The message with your secret and QR code has been deleted; your authenticator app keeps the key.',
  notYetDeleted:
    'The bot could not delete the message with your secret and QR code yet; it keeps trying until Slack confirms it. Your authenticator app keeps the key.',
  lapsed: `Your second factor enrolment was not confirmed with a code within ${LAPSE_MINUTES} minutes, so it lapsed. The message with your secret and QR code has been deleted; the key your authenticator app may have kept does not work: remove it, and start again with \`/treasury 2fa enroll\`.`,
  lapsedNotYetDeleted: `Your second factor enrolment was not confirmed with a code within ${LAPSE_MINUTES} minutes, so it lapsed. The bot could not delete the message with your secret and QR code yet; it keeps trying until Slack confirms it. The key your authenticator app may have kept does not work: remove it, and start again with \`/treasury 2fa enroll\`.`,
} as const;

/** The refusal of a reset of one's own second factor (the typed command and the picker). */
export const SELF_RESET =
  'You cannot reset your own second factor: another treasury admin does it (`/treasury 2fa reset @you`), so that whoever holds one Slack session cannot replace its factor. A team with a single admin adds a second person to `TREASURY_ADMINS` for the reset (see the second factor guide).';

/** The words of a click on Confirm enrolment that did not confirm (mrkdwn). */
export const ADMIN_CONFIRM_WORDS = {
  self: 'You cannot confirm your own enrolment: another treasury admin does, after checking with you that it was you.',
  notAdmin: 'Only treasury admins (`TREASURY_ADMINS`) can confirm an enrolment.',
  unknownAdmin:
    'The bot could not confirm that you are a treasury admin (Slack did not list the admin group in time). Nothing was confirmed: try again in a moment.',
  gone: 'This enrolment is no longer there (reset, or enrolled again since): nothing to confirm.',
  already: (by: string | undefined) =>
    by === undefined ? 'This enrolment counts already.' : `<@${by}> confirmed this enrolment already.`,
  bad: 'This button carries data the bot cannot use (altered, or from another app). Nothing was confirmed.',
} as const;

/** The line posted in ALERT_CHANNEL when a person's approvals lock. */
export function lockedAlertText(userId: string): string {
  return `<@${userId}>'s approvals are locked for ${LOCK_MINUTES} minutes after ${MAX_WRONG_CODES} wrong codes.`;
}
