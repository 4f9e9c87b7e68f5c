/**
 * Who is in the approver groups of SWAP_APPROVERS (`S…`), as Slack says (usergroups.users.list), kept for a short
 * while so that a burst of clicks asks Slack once. A group Slack cannot list maps to a plain-words reason instead
 * of members: approverCheck (features/swaps/policy.ts) then lets nobody from it approve (fail closed).
 */

import type { Logger } from '../../logger.js';
import { describeSlackError, isTransient, type SlackGateway, slackErrorCode } from '../../slack/index.js';
import type { GroupMembers } from '../access/rules.js';

/** How long a group's members are trusted after Slack listed them: a removed approver loses the right within this. */
export const APPROVER_GROUPS_TTL_MS = 5 * 60_000;

/** What {@link createApproverGroups} is built from. */
export interface ApproverGroupsDeps {
  slack: Pick<SlackGateway, 'groupMembers'>;
  now: () => Date;
  logger: Logger;
  /** How long a listing is served from memory (default {@link APPROVER_GROUPS_TTL_MS}). */
  ttlMs?: number;
}

/** The members of approver groups, from memory when Slack listed them within the TTL. */
export interface ApproverGroups {
  /** Each group id to its member ids, or `{ error }` saying in plain words why Slack could not list it. */
  members(groupIds: readonly string[]): Promise<GroupMembers>;
}

type Listing = readonly string[] | { error: string };

/**
 * Why a group could not be listed, for the person who clicked (the Slack error code goes to the log). Only the
 * errors usergroups.users.list documents, and the common ones about the token; anything else is said generally.
 */
function reasonFor(error: unknown): string {
  switch (slackErrorCode(error)) {
    case 'no_such_subteam':
      return 'Slack does not know this group';
    case 'missing_scope':
      return 'the bot lacks the usergroups:read permission';
    case 'plan_upgrade_required':
      return "this Slack workspace's plan has no user groups";
    case 'invalid_auth':
    case 'not_authed':
    case 'account_inactive':
    case 'token_revoked':
    case 'token_expired':
      return "Slack refused the bot's token";
  }
  return isTransient(error) ? 'Slack did not answer' : 'Slack refused to list the members';
}

/**
 * Builds the cache. Successful listings are kept for `ttlMs` from when Slack was asked (the injected clock); a
 * failure is never kept, so the next click asks again; lookups of one group that overlap share one request.
 */
export function createApproverGroups(deps: ApproverGroupsDeps): ApproverGroups {
  const ttlMs = deps.ttlMs ?? APPROVER_GROUPS_TTL_MS;
  const listed = new Map<string, { members: readonly string[]; askedAt: number }>();
  const asking = new Map<string, Promise<Listing>>();

  const fresh = (groupId: string): readonly string[] | undefined => {
    const entry = listed.get(groupId);
    if (entry === undefined) return undefined;
    if (deps.now().getTime() - entry.askedAt < ttlMs) return entry.members;
    listed.delete(groupId);
    return undefined;
  };

  const ask = (groupId: string): Promise<Listing> => {
    const running = asking.get(groupId);
    if (running !== undefined) return running;
    // Measured from the question, not the answer: the listing is at least this old.
    const askedAt = deps.now().getTime();
    const answer = deps.slack
      .groupMembers(groupId)
      .then(
        (ids): Listing => {
          const members = Object.freeze([...ids]);
          listed.set(groupId, { members, askedAt });
          return members;
        },
        (error: unknown): Listing => {
          deps.logger.warn('swaps: Slack could not list the members of an approver group; nobody from it may approve', {
            groupId,
            reason: describeSlackError(error),
          });
          return { error: reasonFor(error) };
        },
      )
      .finally(() => asking.delete(groupId));
    asking.set(groupId, answer);
    return answer;
  };

  return {
    async members(groupIds) {
      const unique = [...new Set(groupIds)];
      const listings = await Promise.all(unique.map((groupId) => fresh(groupId) ?? ask(groupId)));
      return new Map(unique.map((groupId, i) => [groupId, listings[i]!]));
    },
  };
}
