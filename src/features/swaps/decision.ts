/**
 * What a click on Approve or Reject does to a quote under the policy fixed on it: count a distinct approval,
 * reach the quorum (then the create is sent, once), end the quote on one Reject, or refuse with a reason the
 * clicker reads privately. Also the rolling daily limit as the quotes of one asset use it, and what the
 * "expires soon" reminder and the expiry sweep decide. Pure: the store runs decideOnQuote inside the atomic
 * change of the quote, with the other quotes of the same asset read in the same transaction.
 */

import { escapeText } from '../../kernel/text.js';
import type { GroupMembers } from '../access/rules.js';
import { type FreezeRecord, isFrozenAt } from '../freeze/rules.js';
import { frozenNotice, NOTHING_APPROVED } from '../freeze/words.js';
import { APPROVED_TOO_LATE_NOTICE, alreadyDecidedNotice, isTooLateToApprove } from './approval.js';
import {
  type Approval,
  type ApproverCheck,
  approvalsNeeded,
  checkDailyLimit,
  countApproval,
  DAILY_WINDOW_MS,
  DEFAULT_TIERS,
  dailyUsage,
  type PolicySnapshot,
  type QuorumRefusalReason,
  type RequesterWindow,
  rejectQuote,
  type SwapPolicy,
  snapshotPolicy,
  snapshotTiers,
  snapshotValue,
  storedWindow,
  type UsageEntry,
  type UsdValue,
  usdLabel,
  windowText,
} from './policy.js';
import { type AuditEntry, auditEntry, ESTIMATE_VALIDITY_MS, type SwapQuote } from './quote.js';
import { quoteStepUp, STEP_UP_WORDS, stepUpWindowText } from './step-up.js';

/** Approve or Reject. */
export type Decision = 'approve' | 'reject';

/** The approvers as configured now: all a quote made before policies were recorded needs (see policyOf). */
export type ApprovalPolicy = Pick<SwapPolicy, 'approvers' | 'allowSelfApproval'>;

/**
 * The policy a quote is decided by: the one fixed on it. A quote made before policies were recorded was made
 * under "one approval from SWAP_APPROVERS": that rule, with the approvers configured now.
 */
export function policyOf(quote: SwapQuote, current: ApprovalPolicy): PolicySnapshot {
  if (quote.policy) return quote.policy;
  const value: UsdValue = quote.valueUsd
    ? 'cents' in quote.valueUsd
      ? { cents: BigInt(quote.valueUsd.cents) }
      : quote.valueUsd
    : { unknown: 'no_usd', reason: 'the quote was made before its USD value was recorded' };
  return snapshotPolicy(
    { approvers: current.approvers, allowSelfApproval: current.allowSelfApproval, tiers: DEFAULT_TIERS },
    value,
    new Date(quote.estimatedAt),
  );
}

/** The approvals a quote has so far. */
export function approvalsOf(quote: Pick<SwapQuote, 'approvals'>): readonly Approval[] {
  return quote.approvals ?? [];
}

// ---------------------------------------------------------------------------------------------------------
// The rolling daily limit, as the quotes of one asset use it.

/** What counts against the daily limit of an asset: the source asset's id. */
export function limitKeyOf(quote: Pick<SwapQuote, 'from'>): string {
  return quote.from.assetId;
}

/** A quote's USD value in cents, when it is known. */
function quoteCents(quote: Pick<SwapQuote, 'policy' | 'valueUsd'>): bigint | undefined {
  const value = quote.policy?.value ?? quote.valueUsd;
  return value && 'cents' in value ? BigInt(value.cents) : undefined;
}

/**
 * How far back the quotes that may count against a limit now reach: a swap counts from its approval, which comes
 * at most ESTIMATE_VALIDITY_MS after its estimate, so quotes estimated before this cannot matter.
 */
export function usageLookbackStart(now: Date): Date {
  return new Date(now.getTime() - DAILY_WINDOW_MS - ESTIMATE_VALIDITY_MS);
}

/** Statuses whose swap was (or may have been) created: their money left the asset. */
const COMMITTED = new Set(['approving', 'created', 'outcome_unknown']);

/**
 * Swaps out of assets that count against their daily limit: created (or on their way, or of unknown outcome),
 * dated by the approval that sent them. `waitingAt` also counts the quotes still waiting for approval (dated by
 * their estimate) that have not expired at that time: a new quote must fit beside them. A quote whose value
 * is unknown counts nothing: one can only be made while no limit applies to it.
 */
function usageEntries(
  quotes: readonly SwapQuote[],
  options: { excludeId?: string; waitingAt?: Date } = {},
): UsageEntry[] {
  const entries: UsageEntry[] = [];
  for (const quote of quotes) {
    if (quote.id === options.excludeId) continue;
    const cents = quoteCents(quote);
    if (cents === undefined) continue;
    if (COMMITTED.has(quote.status) && quote.decidedAt) {
      entries.push({ assetKey: limitKeyOf(quote), cents, at: quote.decidedAt, state: 'created' });
    } else if (
      options.waitingAt &&
      quote.status === 'pending' &&
      new Date(quote.expiresAt).getTime() > options.waitingAt.getTime()
    ) {
      entries.push({ assetKey: limitKeyOf(quote), cents, at: quote.estimatedAt, state: 'waiting' });
    }
  }
  return entries;
}

/** What one asset's daily limit has used in the 24 hours before `now`: created swaps and waiting quotes. */
export interface LimitUse {
  createdCents: bigint;
  waitingCents: bigint;
}

/** The use of `assetKey`'s daily limit at `now`, split into created swaps and quotes waiting for approval. */
export function limitUse(quotes: readonly SwapQuote[], assetKey: string, now: Date): LimitUse {
  const entries = usageEntries(quotes, { waitingAt: now });
  return {
    createdCents: dailyUsage(
      entries.filter((entry) => entry.state === 'created'),
      assetKey,
      now,
    ),
    waitingCents: dailyUsage(
      entries.filter((entry) => entry.state === 'waiting'),
      assetKey,
      now,
    ),
  };
}

/**
 * What other people's quotes waiting for approval out of `assetKey` add up to at `now` (not `requester`'s own): they
 * do not refuse a new quote, but if they are approved first the new one may not fit the limit at its approval.
 */
function othersWaitingCents(quotes: readonly SwapQuote[], assetKey: string, requester: string, now: Date): bigint {
  return dailyUsage(
    usageEntries(
      quotes.filter((quote) => quote.requestedBy !== requester),
      { waitingAt: now },
    ).filter((entry) => entry.state === 'waiting'),
    assetKey,
    now,
  );
}

/**
 * The warning a quote carries when other people's waiting quotes out of its asset (`othersCents`), approved first,
 * could leave it no room under the daily limit at its approval (mrkdwn: the asset, API text, is escaped).
 */
export function othersWaitingWarning(
  asset: Pick<SwapQuote['from'], 'symbol' | 'networkTitle'>,
  othersCents: bigint,
): string {
  return `Other waiting quotes out of ${escapeText(`${asset.symbol} on ${asset.networkTitle}`)} add up to ${usdLabel(othersCents)}: if they are approved first, this one may not fit today's limit (it is judged when the swap is approved).`;
}

/**
 * Whether a new quote of `value` out of `assetKey` asked for by `requester` fits its daily limit beside the swaps
 * created (or on their way, or of unknown outcome) and the requester's OWN quotes waiting, in the last 24 hours.
 * Other people's waiting quotes never refuse it (one person's unapproved quotes must not hold an asset's limit
 * against everyone); when they could take the room first, `othersWaitingCents` says how much they add up to (the
 * quote warns). The limit itself is judged at the approval that would create the swap. An unknown value cannot be
 * counted, so it does not fit (fail closed).
 */
export function checkNewQuoteLimit(input: {
  limitCents: bigint | undefined;
  value: UsdValue;
  assetKey: string;
  assetLabel: string;
  requester: string;
  quotes: readonly SwapQuote[];
  now: Date;
}): { ok: true; othersWaitingCents?: bigint } | { ok: false; reason: string } {
  const { limitCents, value, assetLabel } = input;
  if (limitCents === undefined) return { ok: true };
  if (!('cents' in value)) {
    return {
      ok: false,
      // The reason is plain text (it may name an asset as the API spells it): escaped like the label.
      reason: `swaps out of ${assetLabel} are limited to ${usdLabel(limitCents)} a day and ${escapeText(value.reason)}, so it cannot be counted against that limit`,
    };
  }
  const own = input.quotes.filter((quote) => quote.requestedBy === input.requester);
  const created = limitUse(input.quotes, input.assetKey, input.now).createdCents;
  const ownWaiting = limitUse(own, input.assetKey, input.now).waitingCents;
  const used = created + ownWaiting;
  const fits = checkDailyLimit(limitCents, used, value.cents);
  if (fits.ok) {
    const others = othersWaitingCents(input.quotes, input.assetKey, input.requester, input.now);
    return others > 0n && used + others + value.cents > limitCents
      ? { ok: true, othersWaitingCents: others }
      : { ok: true };
  }
  const waiting = ownWaiting > 0n ? ` (${usdLabel(ownWaiting)} of it in your own quotes waiting for approval)` : '';
  return {
    ok: false,
    reason: `swaps out of ${assetLabel} are limited to ${usdLabel(limitCents)} in any 24 hours; ${usdLabel(used)} is used${waiting}, so ${usdLabel(fits.leftCents)} is left today and this swap is worth about ${usdLabel(value.cents)}`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The requester's own swaps of the last 24 hours: the tier of a new swap is judged on them plus it.

/** The window the tiers add a requester's swaps over: the 24 hours before now, as for the daily limit. */
const REQUESTER_WINDOW_MS = DAILY_WINDOW_MS;

/**
 * The requester's own swaps in the 24 hours before `now`, (now − 24 h, now] as for the daily limit (exactly 24 h
 * old is out; one dated after `now`, another replica's clock slightly ahead, is in): swaps created, on their way
 * (`approving`) or of unknown outcome, dated by the approval that sent them, and with `waiting` also the quotes
 * still waiting for approval at `now` (dated by their estimate). Rejected, expired and refused quotes sent no
 * money and never count; neither do other people's swaps. Any counted swap whose USD value is unknown makes the
 * whole window unknown (fail closed).
 */
export function requesterWindow(
  quotes: readonly SwapQuote[],
  requester: string,
  now: Date,
  options: { waiting: boolean; excludeId?: string },
): RequesterWindow {
  const windowStart = now.getTime() - REQUESTER_WINDOW_MS;
  let count = 0;
  let cents = 0n;
  let unknown: string | undefined;
  for (const quote of quotes) {
    if (quote.id === options.excludeId || quote.requestedBy !== requester) continue;
    let at: string;
    if (COMMITTED.has(quote.status)) at = quote.decidedAt ?? quote.estimatedAt;
    else if (options.waiting && quote.status === 'pending' && new Date(quote.expiresAt).getTime() > now.getTime())
      at = quote.estimatedAt;
    else continue;
    if (new Date(at).getTime() <= windowStart) continue;
    count += 1;
    const value = quoteCents(quote);
    if (value === undefined) unknown ??= unknownReasonOf(quote);
    else cents += value;
  }
  return unknown === undefined ? { count, cents } : { count, unknown };
}

/**
 * The requester's swaps that count with `quote` for the second factor when it is decided at `at`: the same swaps
 * the tier is judged again on inside the decision (created, on their way, of unknown outcome; the quotes waiting
 * when it was made are in the window fixed on it). The click that opens the code dialog judges with the same.
 */
export function stepUpWindowAt(
  quote: Pick<SwapQuote, 'id' | 'requestedBy'>,
  related: readonly SwapQuote[],
  at: Date,
): RequesterWindow {
  return requesterWindow(related, quote.requestedBy, at, { waiting: false, excludeId: quote.id });
}

/** Why a counted quote's value is unknown, in words for the requester. */
function unknownReasonOf(quote: SwapQuote): string {
  const value = quote.policy?.value ?? quote.valueUsd;
  const why = value && 'reason' in value ? value.reason : 'it was made before values were recorded';
  return `the USD value of your swap of ${quote.estimatedAt.slice(0, 16).replace('T', ' ')} UTC is unknown (${why})`;
}

// ---------------------------------------------------------------------------------------------------------
// A click on Approve or Reject.

/** A click as the store judges it: who, which decision, when, and whether they are an approver of this quote. */
export interface DecisionClick {
  userId: string;
  decision: Decision;
  at: Date;
  isApprover: ApproverCheck;
  /** The clicker gave a valid code from their authenticator app with this click (checked before the change). */
  secondFactor?: boolean;
}

/** Why a click changes nothing. */
export type DecisionRefusalReason = QuorumRefusalReason | 'daily_limit' | 'frozen' | 'second_factor_required';

/**
 * What a winning click writes: the quote's new status, its approvals, who ended the waiting, the audit entry, and
 * the policy when the approval that would have reached the quorum found it must ask for more.
 */
export interface DecisionChange {
  /** `pending` when an approval was counted and more are needed. */
  status: 'pending' | 'approving' | 'rejected' | 'expired';
  approvals: Approval[];
  /** The quote's policy, raised: the requester's swaps created since it was made put it in a higher tier. */
  policy?: PolicySnapshot;
  /** Who ended the waiting (reached the quorum, rejected, approved too late) and when. */
  decided?: { by: string; at: string };
  entry: AuditEntry;
}

/** What a click did: a change (and what the clicker is told, if anything), or a refusal. */
export type QuoteDecision =
  | { ok: true; change: DecisionChange; notice?: string }
  | { ok: false; reason: DecisionRefusalReason; notice: string };

function moreText(left: number): string {
  return left === 1 ? 'one more approval' : `${left} more approvals`;
}

/**
 * Judges a click on the quote as it is stored now, under `snapshot` (policyOf the quote). `related` are the other
 * quotes out of the same asset (its daily limit) and of the same requester (their 24-hour window), read in the
 * same transaction; quotes of other assets and requesters in it are ignored.
 */
export function decideOnQuote(
  quote: SwapQuote,
  snapshot: PolicySnapshot,
  click: DecisionClick,
  related: readonly SwapQuote[],
  /** The freeze as the store holds it in the same atomic change (absent: none); judged at the click's time. */
  freeze?: FreezeRecord,
  /**
   * SWAP_STEP_UP_USD in cents as configured here: an approval needs a code when the quote with the requester's swaps
   * of the last 24 hours comes to the stricter of this and the threshold fixed on the quote, or more (or is unknown).
   */
  stepUpCents?: bigint,
): QuoteDecision {
  // A waiting quote stays waiting under a freeze: its Approve refuses with the reason, its Reject still works.
  if (click.decision === 'approve' && quote.status === 'pending' && freeze && isFrozenAt(freeze, click.at))
    return { ok: false, reason: 'frozen', notice: frozenNotice(freeze, NOTHING_APPROVED) };
  const approvals = [...approvalsOf(quote)];
  const state = { status: quote.status, approvals };
  const quorumClick = {
    userId: click.userId,
    at: click.at,
    requesterId: quote.requestedBy,
    snapshot,
    isApprover: click.isApprover,
  };
  const at = click.at.toISOString();
  const refused = (refusal: { reason: QuorumRefusalReason; notice: string }): QuoteDecision => ({
    ok: false,
    reason: refusal.reason,
    // A decided quote names who decided and when.
    notice:
      refusal.reason === 'already_decided' && quote.status !== 'pending' ? alreadyDecidedNotice(quote) : refusal.notice,
  });

  if (click.decision === 'reject') {
    const rejected = rejectQuote(state, quorumClick);
    if (!rejected.ok) return refused(rejected);
    const after = approvals.length > 0 ? `after ${approvals.length} of ${snapshot.needed} approvals` : undefined;
    return {
      ok: true,
      change: {
        status: 'rejected',
        approvals,
        decided: { by: click.userId, at },
        entry: auditEntry(click.at, 'rejected', click.userId, after),
      },
    };
  }

  const counted = countApproval(state, quorumClick);
  if (!counted.ok) return refused(counted);
  // The real gate of the second factor: whatever the click's way here (a crafted payload, a replica that saw the
  // quote otherwise), an approval that needs a code counts only with one. Nothing is recorded without it.
  const withCode = click.secondFactor === true;
  if (!withCode) {
    const stepUp = quoteStepUp(snapshot, stepUpCents, stepUpWindowAt(quote, related, click.at));
    if (stepUp.needed) {
      const total = stepUpWindowText(stepUp, "the requester's");
      return {
        ok: false,
        reason: 'second_factor_required',
        notice: total === undefined ? STEP_UP_WORDS.required : `${STEP_UP_WORDS.required} (${escapeText(total)}.)`,
      };
    }
  }
  if (withCode) {
    const last = counted.approvals.at(-1)!;
    counted.approvals[counted.approvals.length - 1] = { ...last, secondFactor: true };
  }
  /** The audit entry of this approval: marked, and said in words, when it was made with a code. */
  const approvedEntry = (detail: string): AuditEntry =>
    withCode
      ? {
          ...auditEntry(click.at, 'approved', click.userId, `${detail}; ${STEP_UP_WORDS.recorded}`),
          secondFactor: true,
        }
      : auditEntry(click.at, 'approved', click.userId, detail);
  if (isTooLateToApprove(quote, click.at)) {
    return {
      ok: true,
      change: {
        status: 'expired',
        approvals,
        decided: { by: click.userId, at },
        entry: auditEntry(click.at, 'approve_after_expiry', click.userId, 'no create call made'),
      },
      notice: APPROVED_TOO_LATE_NOTICE,
    };
  }
  const ordinal = `approval ${counted.approvals.length} of ${snapshot.needed}`;
  if (!counted.reached) {
    const left = snapshot.needed - counted.approvals.length;
    return {
      ok: true,
      change: {
        status: 'pending',
        approvals: counted.approvals,
        entry: approvedEntry(`${ordinal}; waiting for ${moreText(left)}`),
      },
      notice: `Your approval is recorded (${counted.approvals.length} of ${snapshot.needed}). The swap is created once it has ${moreText(left)}.`,
    };
  }
  const raised = raiseForWindow(quote, snapshot, related, click.at);
  if (raised) {
    const left = raised.needed - counted.approvals.length;
    const why = raised.failClosed ?? (raised.window ? windowText(raised.window, raised.needed, "the requester's") : '');
    return {
      ok: true,
      change: {
        status: 'pending',
        approvals: counted.approvals,
        policy: raised,
        entry: approvedEntry(
          `approval ${counted.approvals.length} of ${raised.needed}; the requester's swaps of the last 24 hours raised the tier from ${snapshot.needed}; waiting for ${moreText(left)}`,
        ),
      },
      notice: `Your approval is recorded (${counted.approvals.length} of ${raised.needed}), but the swap is not created yet: since this quote was made, other swaps of its requester were approved, and ${escapeText(why)}. The swap is created once it has ${moreText(left)}.`,
    };
  }
  const overLimit = refuseOverDailyLimit(quote, snapshot, related, click.at);
  if (overLimit) return { ok: false, reason: 'daily_limit', notice: overLimit };
  return {
    ok: true,
    change: {
      status: 'approving',
      approvals: counted.approvals,
      decided: { by: click.userId, at },
      entry: approvedEntry(`${ordinal}; swap/create of estimate ${quote.estimateId} about to be sent`),
    },
  };
}

/**
 * The quote's policy with more approvals, when the approval about to reach its quorum finds that the requester's
 * swaps created (or on their way, or of unknown outcome) in the last 24 hours, with this one, now fall in a higher
 * tier than the one fixed at quote time (two quotes asked for at once cannot see each other; a swap approved since
 * counts now). Only swaps that left count here, as for the daily limit: quotes still waiting do not. Undefined
 * when the tier fixed on the quote stands (always for quotes made before tiers were recorded).
 */
function raiseForWindow(
  quote: SwapQuote,
  snapshot: PolicySnapshot,
  related: readonly SwapQuote[],
  at: Date,
): PolicySnapshot | undefined {
  if (!quote.policy) return undefined;
  const window = requesterWindow(related, quote.requestedBy, at, { waiting: false, excludeId: quote.id });
  if (window.count === 0) return undefined;
  const judged = approvalsNeeded(snapshotTiers(snapshot), snapshotValue(snapshot), window);
  if (judged.needed <= snapshot.needed) return undefined;
  const { failClosed: _old, window: _before, ...kept } = snapshot;
  return {
    ...kept,
    tier: { minCents: judged.tier.minCents.toString(), approvals: judged.tier.approvals },
    needed: judged.needed,
    ...(judged.failClosed ? { failClosed: judged.failClosed } : {}),
    ...(judged.window ? { window: storedWindow(judged.window) } : {}),
  };
}

/**
 * Why the approval that reaches the quorum would pass the quote's daily limit, or undefined when it fits. Only
 * created swaps count here: quotes still waiting do not hold room against each other, or none could be approved.
 */
function refuseOverDailyLimit(
  quote: SwapQuote,
  snapshot: PolicySnapshot,
  related: readonly SwapQuote[],
  at: Date,
): string | undefined {
  if (snapshot.dailyLimitUsdCents === undefined) return undefined;
  const limitCents = BigInt(snapshot.dailyLimitUsdCents);
  // API text, read as mrkdwn in the notice: escaped, so a hostile symbol cannot mention anyone.
  const asset = escapeText(`${quote.from.symbol} on ${quote.from.networkTitle}`);
  const cents = quoteCents(quote);
  if (cents === undefined)
    return `This quote's USD value is unknown, so it cannot be counted against the daily limit of ${usdLabel(limitCents)} for swaps out of ${asset}. Your approval was not recorded.`;
  const used = dailyUsage(usageEntries(related, { excludeId: quote.id }), limitKeyOf(quote), at);
  const fits = checkDailyLimit(limitCents, used, cents);
  if (fits.ok) return undefined;
  return (
    `Approving now would pass the daily limit for swaps out of ${asset}: ${usdLabel(used)} of ${usdLabel(limitCents)} ` +
    `was swapped in the last 24 hours, so ${usdLabel(fits.leftCents)} is left and this swap is worth about ${usdLabel(cents)}. ` +
    `Your approval was not recorded; the quote stays open and can be approved once there is room, until it expires at ${quote.expiresAt.slice(11, 16)} UTC.`
  );
}

// ---------------------------------------------------------------------------------------------------------
// The "expires soon" reminder and the expiry sweep.

/** A waiting quote gets one reminder this long before it expires. */
export const REMIND_BEFORE_EXPIRY_MS = 10 * 60_000;

/** Whether the quote should get its one "expires soon" reminder at `now`. */
export function isReminderDue(quote: SwapQuote, now: Date): boolean {
  if (quote.status !== 'pending' || quote.remindedAt !== undefined || quote.messageTs === undefined) return false;
  const expiresAt = new Date(quote.expiresAt).getTime();
  return now.getTime() >= expiresAt - REMIND_BEFORE_EXPIRY_MS && now.getTime() < expiresAt;
}

/** Whether a waiting quote has run out of time: the sweep marks it expired and says so on its message. */
export function hasLapsed(quote: Pick<SwapQuote, 'status' | 'expiresAt'>, now: Date): boolean {
  return quote.status === 'pending' && now.getTime() >= new Date(quote.expiresAt).getTime();
}

/** Who a reminder names: the approvers who have not acted, as user ids, and the groups it could not list. */
export interface YetToAct {
  userIds: string[];
  groupIds: string[];
}

/**
 * The approvers of a quote who have not approved it yet (never the requester unless they may self-approve):
 * named people, and the members of each group Slack could list. A group Slack could not list is named
 * itself, so its members still hear of it.
 */
export function approversYetToAct(
  quote: Pick<SwapQuote, 'requestedBy' | 'approvals'>,
  snapshot: Pick<PolicySnapshot, 'approvers' | 'allowSelfApproval'>,
  groups: GroupMembers,
): YetToAct {
  const acted = new Set(approvalsOf(quote).map((approval) => approval.userId));
  const mayAct = (userId: string) => !acted.has(userId) && (snapshot.allowSelfApproval || userId !== quote.requestedBy);
  const userIds: string[] = [];
  const add = (userId: string) => {
    if (mayAct(userId) && !userIds.includes(userId)) userIds.push(userId);
  };
  snapshot.approvers.userIds.forEach(add);
  const groupIds: string[] = [];
  for (const groupId of snapshot.approvers.groupIds) {
    const members = groups.get(groupId);
    if (Array.isArray(members)) members.forEach(add);
    else groupIds.push(groupId);
  }
  return { userIds, groupIds };
}
