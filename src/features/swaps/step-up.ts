/**
 * The second factor for large approvals, as pure rules and the contract of what it needs: which quotes need a code
 * (the quote's value plus the requester's own swaps of the last 24 hours, against the stricter of the SWAP_STEP_UP_USD
 * fixed on the quote and the one configured where it is decided; unknown counts as above), what the code dialog carries
 * back (checked: it comes from outside), and the words people read. The codes themselves (enrolment, checking a
 * code once, the lock after wrong codes) are another feature's, seen here only through StepUpCodes.
 */

import type { SlackMessageContent } from '../../slack/gateway.js';
import {
  type PolicySnapshot,
  type RequesterWindow,
  requesterWindowOf,
  snapshotValue,
  type UsdValue,
  usdLabel,
  type WindowTotal,
  windowWith,
} from './policy.js';

/**
 * What the swaps need of the second-factor service (the TOTP feature satisfies it): whether a person can give a
 * code now, and checking one code (consumed once, wrong codes counted, locked after five).
 */
export interface StepUpCodes {
  readiness(userId: string): Promise<
    | { state: 'enrolled' }
    | { state: 'not_enrolled' }
    | { state: 'locked'; until: string }
    /** Enrolled, but the enrolment waits for another admin's confirmation: `message` says so. */
    | { state: 'awaiting_admin'; message: string }
  >;
  /** The shared decision: an enrolment no other admin confirmed is refused here too (`awaiting_admin`). */
  verify(
    userId: string,
    code: string,
  ): Promise<
    | { ok: true }
    | {
        ok: false;
        reason: 'wrong' | 'replayed' | 'locked' | 'not_enrolled' | 'awaiting_admin' | 'malformed';
        message: string;
      }
  >;
}

/** What the code dialog needs of Slack: opening it on a click, and telling the clicker afterwards. */
export interface StepUpSlack {
  openView(triggerId: string, view: object): Promise<{ viewId: string }>;
  postEphemeral(channel: string, user: string, message: SlackMessageContent): Promise<void>;
  openDirectMessage(userId: string): Promise<string>;
  post(channel: string, message: SlackMessageContent): Promise<string>;
}

/** The second factor as the swap feature is given it. */
export interface StepUpDeps {
  /** SWAP_STEP_UP_USD in cents; undefined: no approval needs a code. */
  thresholdCents: bigint | undefined;
  /** The codes; undefined while no second-factor service is wired (then a quote that needs a code cannot be approved). */
  codes?: StepUpCodes | undefined;
  slack: StepUpSlack;
}

/**
 * Whether approving a quote worth `value` needs a code: never without a threshold; at or above it; always when the
 * value is unknown (fail closed: what cannot be priced is treated as large).
 */
export function needsSecondFactor(value: UsdValue, thresholdCents: bigint | undefined): boolean {
  if (thresholdCents === undefined) return false;
  if (!('cents' in value)) return true;
  return value.cents >= thresholdCents;
}

/**
 * The stricter of two SWAP_STEP_UP_USD thresholds: the lower one (a code is needed if either asks for it); one
 * unset and the other set: the set one; both unset: none.
 */
export function stricterThreshold(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a < b ? a : b;
}

/** Whether approving a quote needs a code, under which threshold, and the requester's total it was judged on. */
export interface StepUpJudgement {
  needed: boolean;
  /** The threshold judged against (undefined: none applies, no code is needed). */
  thresholdCents?: bigint;
  /** The requester's earlier swaps of the last 24 hours counted with the quote, when there were any. */
  window?: WindowTotal;
}

/**
 * Whether approving a quote worth `value` needs a code when the requester's earlier swaps of the last 24 hours are
 * `window` (as the tiers count them): never without a threshold; when the quote plus those swaps come to the
 * threshold or more; always when the quote's value, or any of those swaps' value, is unknown (fail closed).
 * Splitting a large swap into smaller ones never dodges the code.
 */
export function judgeStepUp(
  value: UsdValue,
  thresholdCents: bigint | undefined,
  window?: RequesterWindow,
): StepUpJudgement {
  if (thresholdCents === undefined) return { needed: false };
  const counted = windowWith(value, window);
  if (!('cents' in value)) return { needed: true, thresholdCents };
  if (counted === undefined) return { needed: value.cents >= thresholdCents, thresholdCents };
  const needed = 'unknown' in counted || counted.totalCents >= thresholdCents;
  return { needed, thresholdCents, window: counted };
}

/**
 * Whether approving the quote of `snapshot` needs a code where the threshold configured is `configuredCents`: under
 * the stricter of it and the threshold fixed on the quote, judged on the requester's window fixed at quote time
 * and, when given, on `decisionWindow` (their swaps as the decision sees them now); a code is needed if either says
 * so. A quote made before thresholds were recorded is judged by the configured one.
 */
export function quoteStepUp(
  snapshot: Pick<PolicySnapshot, 'value' | 'stepUpCents' | 'stepUpWindow'>,
  configuredCents: bigint | undefined,
  decisionWindow?: RequesterWindow,
): StepUpJudgement {
  const fixed = snapshot.stepUpCents === undefined ? undefined : BigInt(snapshot.stepUpCents);
  const threshold = stricterThreshold(fixed, configuredCents);
  const value = snapshotValue(snapshot);
  const atQuote = judgeStepUp(value, threshold, snapshot.stepUpWindow && requesterWindowOf(snapshot.stepUpWindow));
  if (atQuote.needed || decisionWindow === undefined) return atQuote;
  return judgeStepUp(value, threshold, decisionWindow);
}

/**
 * The requester's total in words when it is what makes a code needed: "with your $40,000 swap today this makes
 * $80,000: a code is needed", or why the total is unknown; undefined when the quote alone decides.
 */
export function stepUpWindowText(judgement: StepUpJudgement, whose = 'your'): string | undefined {
  const { window } = judgement;
  if (window === undefined || judgement.thresholdCents === undefined) return undefined;
  const verdict = judgement.needed ? 'a code is needed' : 'no code is needed';
  if ('unknown' in window)
    return `with ${whose} ${window.count === 1 ? 'swap' : `${window.count} swaps`} of the last 24 hours the total is unknown (${window.unknown}): ${verdict}`;
  const swaps = window.count === 1 ? 'swap' : `${window.count} swaps`;
  return `with ${whose} ${usdLabel(window.priorCents)} ${swaps === 'swap' ? 'swap' : `in ${swaps}`} today this makes ${usdLabel(window.totalCents)}: ${verdict}`;
}

/** What the code dialog carries back in its private_metadata: the quote and the message whose Approve opened it. */
export interface StepUpModalState {
  quoteId: string;
  channelId: string;
  messageTs: string;
}

const CHANNEL_ID = /^[CDG][A-Z0-9]{2,20}$/;
const MESSAGE_TS = /^\d{1,12}\.\d{1,8}$/;
const QUOTE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The dialog's private_metadata for a quote and the click's message. */
export function stepUpMetadata(state: StepUpModalState): string {
  return JSON.stringify({ q: state.quoteId, c: state.channelId, m: state.messageTs });
}

/**
 * The dialog's private_metadata read back, or undefined when it is not exactly what stepUpMetadata writes (an
 * altered submission: refused, nothing counted).
 */
export function parseStepUpMetadata(text: unknown): StepUpModalState | undefined {
  if (typeof text !== 'string' || text.length > 300) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { q, c, m, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return undefined;
  if (typeof q !== 'string' || !QUOTE_ID.test(q)) return undefined;
  if (typeof c !== 'string' || !CHANNEL_ID.test(c)) return undefined;
  if (typeof m !== 'string' || !MESSAGE_TS.test(m)) return undefined;
  return { quoteId: q, channelId: c, messageTs: m };
}

/** `2026-11-28 12:15 UTC`. */
function utcText(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Why the quote asks for a code, in words: its value against the threshold (with the requester's swaps of the last
 * 24 hours when they make it), or that its value is unknown.
 */
export function whyCodeText(value: UsdValue, thresholdCents: bigint, judgement?: StepUpJudgement): string {
  const total = judgement && stepUpWindowText(judgement, "the requester's");
  if (!('cents' in value))
    return `This swap's USD value is unknown, so it is treated as large: approving it needs a code from your authenticator app (approvals from ${usdLabel(thresholdCents)} do).`;
  return total === undefined
    ? `This swap is worth about ${usdLabel(value.cents)}; approvals from ${usdLabel(thresholdCents)} need a code from your authenticator app.`
    : `This swap is worth about ${usdLabel(value.cents)}; ${total} from your authenticator app (approvals from ${usdLabel(thresholdCents)} need one, counting the requester's swaps of the last 24 hours).`;
}

/** The words people read about the second factor. */
export const STEP_UP_WORDS = {
  notEnrolled: (thresholdCents: bigint) =>
    `Approving this quote needs a 6-digit code from an authenticator app (approvals from ${usdLabel(thresholdCents)}), and you have not set one up. Run \`/treasury 2fa enroll\` to set it up, then click Approve again. Your approval was not counted; the quote waits for an approver who has a code.`,
  locked: (until: string) =>
    `Your approvals that need a code are locked until ${utcText(until)} after too many wrong codes. Your approval was not counted; the quote waits. Try again after that, or ask another approver.`,
  unavailable:
    'Approving this quote needs a code from an authenticator app, but the bot cannot check codes right now. Your approval was not counted; the quote waits. Try again in a few minutes.',
  notOpened:
    'Slack did not open the code dialog in time (it allows 3 seconds after a click). Your approval was not counted; click Approve again.',
  required:
    'This quote needs a code from your authenticator app to be approved: click Approve on the quote message and type the code. Your approval was not counted.',
  altered:
    'This dialog does not name a quote message the bot made, so nothing was approved. Click Approve on the quote again.',
  failed: 'The bot could not check the code right now, so nothing was approved. Please try again in a moment.',
  /** The audit detail and record of an approval made with a code. */
  recorded: 'approved with a second factor',
} as const;
