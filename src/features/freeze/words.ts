/**
 * What people are told about a freeze, in mrkdwn (the reason is escaped: it is what someone typed), and the error a
 * refused operation throws. Pure: the store throws FrozenError from inside its atomic change.
 */
import { UserFacingError } from '../../kernel/errors.js';
import { escapeText } from '../../kernel/text.js';
import type { FreezeRecord } from './rules.js';

/** `<@U…>` for a user id; anything else as escaped text. */
function person(userId: string): string {
  return /^[UW][A-Z0-9]+$/.test(userId) ? `<@${userId}>` : escapeText(userId);
}

/** "2026-11-28 09:00 UTC" for an ISO-8601 UTC time. */
function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** "frozen by <@U> since 09:00 UTC (reason), until 11:00 UTC": who, when, why and until when. */
export function describeFreeze(freeze: FreezeRecord): string {
  const until = freeze.until ? `; it ends by itself at ${when(freeze.until)}` : '';
  return `frozen by ${person(freeze.frozenBy)} since ${when(freeze.frozenAt)}: _${escapeText(freeze.reason)}_${until}`;
}

/** "The freeze by <@U> since 09:00 UTC (_reason_) ended by itself at 11:00 UTC": a `--for` that ran out. */
export function describeExpiredFreeze(freeze: FreezeRecord): string {
  const ended = freeze.until ? when(freeze.until) : 'its time';
  return `The freeze by ${person(freeze.frozenBy)} since ${when(freeze.frozenAt)} (_${escapeText(freeze.reason)}_) ended by itself at ${ended}`;
}

/** What a refused operation says: nothing moved, why, and how the freeze ends. */
export function frozenNotice(freeze: FreezeRecord, nothingDone: string): string {
  return `:ice_cube: Money is ${describeFreeze(freeze)}. ${nothingDone} It ends when enough admins press *Unfreeze* (on its announcement, or under \`/treasury freeze\`).`;
}

/** Thrown (from inside the store's atomic change, or before) when a freeze refuses an operation that moves money. */
export class FrozenError extends UserFacingError {
  constructor(
    readonly freeze: FreezeRecord,
    nothingDone: string,
  ) {
    super(frozenNotice(freeze, nothingDone), 'frozen', `refused: frozen since ${freeze.frozenAt}`);
    this.name = 'FrozenError';
  }
}

/** What a refused swap request says. */
export const NO_QUOTE_MADE = 'No quote was made.';
/** What a refused approval says. */
export const NOTHING_APPROVED = 'Your approval was not counted; the quote waits.';
/** What a refused payout confirmation says. */
export const NO_PAYOUT_CREATED = 'No payout container was created; the proposal stays open.';
