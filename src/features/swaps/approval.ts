/**
 * The approval rules of a swap quote, as pure functions: who may approve or reject, until when, what a click
 * on a quote that is no longer pending means, which clicks may act at all, and what a failed swap/create
 * means. Each returns a value the caller acts on; the notices are what the clicker is told privately.
 */

import type { SwapQuote } from './quote.js';
import { QUOTE_RETENTION_DAYS } from './retention.js';

/** Approvals this close to expiry are refused: the create call must reach the service while the estimate lives. */
export const EXPIRY_SAFETY_MS = 30_000;

/** A Slack user mention; anything that is not a user id is shown as plain text. */
function mention(userId: string): string {
  return /^[UW][A-Z0-9]+$/.test(userId)
    ? `<@${userId}>`
    : userId.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A refusal: why (stable, for code and logs) and what the clicker is told. */
export interface Refusal<Reason extends string> {
  allowed: false;
  reason: Reason;
  notice: string;
}

// ---------------------------------------------------------------------------------------------------------
// Which clicks may act on a quote at all.

/** Where a click came from: the message its button is in, as the click payload says. */
export interface ClickOrigin {
  channelId?: string | undefined;
  messageTs?: string | undefined;
}

/** Quote ids are `randomUUID()`s; anything else in a button value did not come from this bot. */
const QUOTE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Whether a value from outside (a button value) has the shape of a quote id this bot makes. */
export function isQuoteId(value: unknown): boolean {
  return typeof value === 'string' && QUOTE_ID.test(value);
}

/**
 * Why a click may not act on this quote, or undefined when it may: a decision comes only from the quote's own
 * message. A button value can be edited by whoever sends the click, the message it sits in cannot be faked
 * into another quote's (channel and ts are checked against the record). A quote whose message ts was never
 * recorded (its posting failed, or the bot died before recording it) cannot be decided by a click at all.
 */
export function refuseClickOrigin(
  quote: Pick<SwapQuote, 'channelId' | 'messageTs'>,
  origin: ClickOrigin,
): string | undefined {
  if (quote.messageTs === undefined) return 'the quote has no recorded message';
  if (origin.messageTs === undefined || origin.channelId === undefined) return 'the click carries no message';
  if (origin.channelId !== quote.channelId || origin.messageTs !== quote.messageTs)
    return "the click comes from another message than the quote's own";
  return undefined;
}

/** Notices of clicks that cannot act on any quote. */
export const CLICK_NOTICES = {
  notAQuote: 'This button does not name a quote the bot made, so nothing was done.',
  // A quote leaves the working state 30 days after it ended (retention.ts): its buttons then do nothing.
  unknownQuote: `The bot has no open record of this quote, so nothing was done. Quotes that ended more than ${QUOTE_RETENTION_DAYS} days ago are kept only in the audit export (/treasury audit); ask for a new quote if you still need the swap.`,
  notThisMessage:
    "This button does not belong to this quote's message, so nothing was done. Use the buttons on the quote message itself.",
  unrecordedMessage:
    'The bot never recorded where this quote was posted, so it cannot be decided by a click. Nothing was done; ask for a new quote.',
} as const;

/** Why a click cannot act on a quote. */
export type ClickRefusalReason = 'not_a_quote' | 'unknown_quote' | 'no_recorded_message' | 'wrong_message';

/**
 * The checks every click passes before anything else: the value names a quote of ours (`quote` is what the
 * store has under it), and the click comes from that quote's own message. `detail` says why, for the log.
 */
export function checkClick<Q extends Pick<SwapQuote, 'channelId' | 'messageTs'>>(
  value: string,
  quote: Q | undefined,
  origin: ClickOrigin,
): { allowed: true; quote: Q } | (Refusal<ClickRefusalReason> & { detail?: string }) {
  if (!isQuoteId(value)) return { allowed: false, reason: 'not_a_quote', notice: CLICK_NOTICES.notAQuote };
  if (!quote) return { allowed: false, reason: 'unknown_quote', notice: CLICK_NOTICES.unknownQuote };
  const refused = refuseClickOrigin(quote, origin);
  if (refused === undefined) return { allowed: true, quote };
  return quote.messageTs === undefined
    ? { allowed: false, reason: 'no_recorded_message', notice: CLICK_NOTICES.unrecordedMessage, detail: refused }
    : { allowed: false, reason: 'wrong_message', notice: CLICK_NOTICES.notThisMessage, detail: refused };
}

// ---------------------------------------------------------------------------------------------------------
// Until when a quote can be approved, and what a click on a decided quote is told. Counting approvals under a
// quote's policy is decision.ts.

/** The notice for an approval that came too late (the quote is then marked expired, no create call is made). */
export const APPROVED_TOO_LATE_NOTICE =
  'This quote expired before it was approved, so no swap was made. Use "New quote" for a fresh one.';

/** Whether an approval at `now` comes too late: within EXPIRY_SAFETY_MS of the estimate's expiry, or after. */
export function isTooLateToApprove(quote: Pick<SwapQuote, 'expiresAt'>, now: Date): boolean {
  return now.getTime() >= new Date(quote.expiresAt).getTime() - EXPIRY_SAFETY_MS;
}

/** "<@A>", "<@A> and <@B>", "<@A>, <@B> and <@C>". */
function peopleText(userIds: readonly string[]): string {
  const named = userIds.map(mention);
  return named.length <= 1 ? (named[0] ?? '') : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}

/** What a click on a quote that is no longer pending is told: who decided and when, or that it expired. */
export function alreadyDecidedNotice(
  quote: Pick<SwapQuote, 'status' | 'decidedBy' | 'decidedAt' | 'approvals'>,
): string {
  const when = quote.decidedAt ? ` at ${quote.decidedAt.slice(0, 16).replace('T', ' ')} UTC` : '';
  switch (quote.status) {
    case 'rejected':
      return `Already decided: rejected by ${quote.decidedBy ? mention(quote.decidedBy) : 'someone'}${when}. Nothing was done.`;
    case 'expired':
      return 'This quote has expired; no swap was made. Use "New quote" for a fresh one.';
    default: {
      const approvers = quote.approvals?.length
        ? peopleText(quote.approvals.map((approval) => approval.userId))
        : quote.decidedBy
          ? mention(quote.decidedBy)
          : 'someone';
      return `Already decided: approved by ${approvers}${when}. Nothing was done; the swap is created at most once.`;
    }
  }
}

/**
 * Whether `userId` may ask for a new quote in place of this one: the requester or an approver of it
 * (`isApprover`: named, or a member of an approver group Slack could list).
 */
export function mayRequote(
  quote: Pick<SwapQuote, 'requestedBy'>,
  userId: string,
  isApprover: boolean | { unknown: string },
): { allowed: true } | Refusal<'not_requester_or_approver'> {
  if (userId === quote.requestedBy || isApprover === true) return { allowed: true };
  return {
    allowed: false,
    reason: 'not_requester_or_approver',
    notice: 'Only the requester or a swap approver can ask for a new quote.',
  };
}

/** The notice when "New quote" finds a successor already requested, or a quote that cannot be re-quoted. */
export const REQUOTE_TAKEN_NOTICE = 'A new quote was already requested for this one (or it cannot be re-quoted).';

// ---------------------------------------------------------------------------------------------------------
// What a failed swap/create means.

/**
 * A failed swap/create as the payment client reported it: the service refused it with a message (400), it
 * answered with an error of a known kind (`code` of the client's error: unauthorized, forbidden, server,
 * network, rate_limited, unexpected_response…), or something else went wrong in the bot.
 */
export type CreateError =
  | { kind: 'refused'; apiMessage: string }
  | { kind: 'api'; code: string }
  | { kind: 'unexpected' };

/** What the quote records for a failed create: refused (no swap exists) or outcome unknown (one may exist). */
export interface CreateFailure {
  status: 'create_failed' | 'outcome_unknown';
  text: string;
}

/**
 * What a failed swap/create means. A 400/401/403 was refused by the service: no swap exists. Anything else
 * (timeout, reset, 5xx, an answer we could not read) leaves the outcome unknown: the swap may exist, and it
 * is never resent. `fromSymbol` names the asset whose balance was short.
 */
export function describeCreateFailure(error: CreateError, fromSymbol: string): CreateFailure {
  if (error.kind === 'refused') {
    if (/estimate not found/i.test(error.apiMessage)) {
      return {
        status: 'create_failed',
        text: 'Estimate not found — the service no longer holds this quote (expired or already used).',
      };
    }
    if (/balance not enough/i.test(error.apiMessage)) {
      return {
        status: 'create_failed',
        text: `Balance not enough — the available ${fromSymbol} balance is below the swap amount.`,
      };
    }
    return { status: 'create_failed', text: error.apiMessage };
  }
  if (error.kind === 'api' && (error.code === 'unauthorized' || error.code === 'forbidden')) {
    return {
      status: 'create_failed',
      text:
        error.code === 'unauthorized' ? 'the API key was rejected' : 'the API key lacks the permission to create swaps',
    };
  }
  return { status: 'outcome_unknown', text: lostAnswerReason(error) };
}

/** Why the create's answer is missing, in plain words (shown in brackets on the quote). */
function lostAnswerReason(error: CreateError): string {
  if (error.kind !== 'api') return 'the bot hit an unexpected error';
  switch (error.code) {
    case 'network':
      return 'no answer in time';
    case 'unexpected_response':
      return 'its answer could not be read';
    case 'rate_limited':
      return 'it was rate-limiting us';
    default:
      return 'it reported a problem on its side';
  }
}
