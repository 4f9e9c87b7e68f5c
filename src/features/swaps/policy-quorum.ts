/**
 * Who may decide a quote and how: approvers named or in a user group (unknown when Slack cannot list a group),
 * distinct approvals each counted once under the quote's snapshot, and one Reject that ends it.
 */

import { z } from 'zod';
import type { GroupMembers } from '../access/rules.js';
import { mentionText } from '../alerts/mentions.js';
import type { PolicySnapshot } from './policy-snapshot.js';

/** Whether a clicker is an approver: yes, no, or unknown because Slack could not say who is in a group. */
export type ApproverCheck = boolean | { unknown: string };

/**
 * Whether `userId` is an approver under the snapshot: named, or a member of a named group. When the answer
 * hangs on a group Slack could not list (or that is missing from `groups`), it is unknown (fail closed: nobody
 * from that group may approve).
 */
export function approverCheck(
  snapshot: Pick<PolicySnapshot, 'approvers'>,
  userId: string,
  groups: GroupMembers,
): ApproverCheck {
  if (snapshot.approvers.userIds.includes(userId)) return true;
  const unlisted: string[] = [];
  const reasons: string[] = [];
  for (const groupId of snapshot.approvers.groupIds) {
    const members = groups.get(groupId);
    if (members === undefined || !Array.isArray(members)) {
      unlisted.push(groupId);
      if (members !== undefined && 'error' in members && !reasons.includes(members.error)) reasons.push(members.error);
    } else if (members.includes(userId)) return true;
  }
  if (unlisted.length === 0) return false;
  const named = unlisted.map((id) => mentionText({ type: 'group', id })).join(', ');
  const why = reasons.length > 0 ? ` (${reasons.join('; ')})` : '';
  return {
    unknown: `Slack could not say who is in ${named}${why}, so nobody from ${unlisted.length === 1 ? 'it' : 'them'} can approve right now; try again in a few minutes`,
  };
}

/** One approval recorded on a quote; `secondFactor` when it was made with a code from the approver's authenticator. */
export const Approval = z.object({
  userId: z.string(),
  at: z.iso.datetime(),
  secondFactor: z.literal(true).optional(),
});
/** One approval recorded on a quote. */
export type Approval = z.infer<typeof Approval>;

/** What the quorum rules read of a quote: its status and the approvals recorded so far. */
export interface QuorumState {
  /** The quote's status (quote.ts): only a `pending` quote gains approvals. */
  status: string;
  approvals: readonly Approval[];
}

/** A click on Approve or Reject: who, when, the quote's requester and snapshot, and whether the clicker approves. */
export interface QuorumClick {
  userId: string;
  at: Date;
  requesterId: string;
  snapshot: Pick<PolicySnapshot, 'approvers' | 'allowSelfApproval' | 'needed'>;
  isApprover: ApproverCheck;
}

/** Why a click on Approve or Reject changes nothing. */
export type QuorumRefusalReason =
  | 'not_an_approver'
  | 'approvers_unknown'
  | 'self_approval'
  | 'already_approved'
  | 'already_decided'
  | 'not_requester_or_approver';

/** A refused click: the stable reason and what the clicker is told privately. */
export interface QuorumRefusal<Reason extends QuorumRefusalReason = QuorumRefusalReason> {
  ok: false;
  reason: Reason;
  notice: string;
  /** For `already_approved`: when this person approved. */
  approvedAt?: string;
}

function approversText(snapshot: Pick<PolicySnapshot, 'approvers'>): string {
  const people = snapshot.approvers.userIds.map((id) => mentionText({ type: 'user', id }));
  const groups = snapshot.approvers.groupIds.map((id) => mentionText({ type: 'group', id }));
  const all = [...people, ...groups];
  return all.length === 0 ? 'nobody: no swap approvers are configured' : all.join(', ');
}

function whenText(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** Refusal for a quote no longer waiting for approvals, or undefined while it waits. */
function refuseDecided(state: QuorumState): QuorumRefusal<'already_decided'> | undefined {
  if (state.status === 'pending') return undefined;
  return {
    ok: false,
    reason: 'already_decided',
    notice:
      state.status === 'expired'
        ? 'This quote has expired; no swap was made. Nothing was done.'
        : state.status === 'rejected'
          ? 'This quote was already rejected. Nothing was done.'
          : 'This quote already has all its approvals. Nothing was done; the swap is created at most once.',
  };
}

/**
 * Counts an approval under the quote's snapshot (never the configuration of now): only approvers, the requester
 * only with self-approval on, each person once, only while the quote waits. `reached` says this approval
 * makes the quorum: the caller then moves the quote to `approving` in the same atomic change, so the create
 * happens once. Expiry is judged by the caller (approval.ts, isTooLateToApprove).
 */
export function countApproval(
  state: QuorumState,
  click: QuorumClick,
): { ok: true; approvals: Approval[]; reached: boolean } | QuorumRefusal {
  const { userId, snapshot, isApprover } = click;
  if (typeof isApprover === 'object') {
    return { ok: false, reason: 'approvers_unknown', notice: `${isApprover.unknown}. Nothing was done.` };
  }
  if (!isApprover) {
    const none = snapshot.approvers.userIds.length + snapshot.approvers.groupIds.length === 0;
    return {
      ok: false,
      reason: 'not_an_approver',
      notice: none
        ? 'No swap approvers are configured (`SWAP_APPROVERS` is empty), so nobody can approve swaps. Nothing was done.'
        : `Only the swap approvers (${approversText(snapshot)}) can approve this quote. Nothing was done.`,
    };
  }
  if (userId === click.requesterId && !snapshot.allowSelfApproval) {
    return {
      ok: false,
      reason: 'self_approval',
      notice: 'You requested this swap, so someone else must approve it (separation of duties). Nothing was done.',
    };
  }
  const decided = refuseDecided(state);
  if (decided) return decided;
  if (state.approvals.length >= snapshot.needed) {
    return refuseDecided({ ...state, status: 'approving' })!;
  }
  const earlier = state.approvals.find((approval) => approval.userId === userId);
  if (earlier) {
    const left = snapshot.needed - state.approvals.length;
    return {
      ok: false,
      reason: 'already_approved',
      approvedAt: earlier.at,
      notice: `You already approved this quote at ${whenText(earlier.at)}; it is waiting for ${left === 1 ? 'one more approver' : `${left} more approvers`}. Nothing was done.`,
    };
  }
  const approvals = [...state.approvals, { userId, at: click.at.toISOString() }];
  return { ok: true, approvals, reached: approvals.length >= snapshot.needed };
}

/**
 * A Reject: the requester or any approver ends the quote for everyone, whatever approvals it had. A clicker
 * whose approver status is unknown (a group Slack could not list) cannot reject unless they are the requester.
 */
export function rejectQuote(
  state: QuorumState,
  click: QuorumClick,
): { ok: true; rejectedBy: string; at: string } | QuorumRefusal {
  const { userId, isApprover } = click;
  if (userId !== click.requesterId && isApprover !== true) {
    if (typeof isApprover === 'object') {
      return { ok: false, reason: 'approvers_unknown', notice: `${isApprover.unknown}. Nothing was done.` };
    }
    return {
      ok: false,
      reason: 'not_requester_or_approver',
      notice: 'Only the requester or a swap approver can reject this quote. Nothing was done.',
    };
  }
  const decided = refuseDecided(state);
  if (decided) return decided;
  return { ok: true, rejectedBy: userId, at: click.at.toISOString() };
}
