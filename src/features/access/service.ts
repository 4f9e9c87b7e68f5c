/**
 * TREASURY_USERS as the listeners and the Home tab ask it: people named, `*`, or members of user groups (S…) as
 * Slack lists them (usergroups.users.list, through the same short-lived cache as SWAP_APPROVERS' groups). A group
 * Slack cannot list lets nobody in through it (fail closed); the person is told so in plain words. And
 * TREASURY_ADMINS: who may set thresholds, export the audit trail, unfreeze and reset a second factor.
 */

import { type GroupMembers, mayUseBot, type TreasuryAccess, treasuryAccess, treasuryGroupIds } from './rules.js';

/** Members of user groups, from Slack (cached; shared by TREASURY_USERS, TREASURY_ADMINS and SWAP_APPROVERS). */
export interface GroupDirectory {
  members(groupIds: readonly string[]): Promise<GroupMembers>;
}

/**
 * Whether `userId` is named in `ids` (user ids and user group ids, S…) or is a member of a named group as `groups`
 * lists it. A group Slack could not list counts as not containing the person (fail closed). One rule for every
 * "listed in a setting" check: TREASURY_ADMINS (thresholds, audit, unfreeze) and SWAP_APPROVERS (freeze).
 */
export async function isNamedOrGroupMember(
  ids: readonly string[],
  userId: string,
  groups: GroupDirectory,
): Promise<boolean> {
  if (ids.includes(userId)) return true;
  const groupIds = ids.filter((id) => id.startsWith('S'));
  if (groupIds.length === 0) return false;
  const members = await groups.members(groupIds);
  return groupIds.some((id) => {
    const listed = members.get(id);
    return Array.isArray(listed) && listed.includes(userId);
  });
}

export interface TreasuryAccessDeps {
  /** TREASURY_USERS: user ids (U…/W…), user group ids (S…), or `*` alone. */
  treasuryUsers: readonly string[];
  /** TREASURY_ADMINS (default: the swap approvers): user ids and user group ids (S…). */
  admins: readonly string[];
  /** Members of user groups, from Slack (cached; shared with the swap approvers). */
  groups: GroupDirectory;
  /**
   * How long a check waits for Slack's listing before the membership counts as unknown (refused), default 2 s:
   * a command, a click and a dialog are answered within Slack's 3 seconds. The listing still lands in the cache.
   */
  lookupTimeoutMs?: number;
}

/** Who may use the bot (TREASURY_USERS). */
export interface TreasuryAccessCheck {
  /** TREASURY_USERS as configured (for the policy view). */
  readonly treasuryUsers: readonly string[];
  /** Whether the person may use `/treasury`, its buttons and the Home tab; asks Slack only for groups. */
  check(userId: string): Promise<TreasuryAccess>;
  /** The answer when it needs no question to Slack (named, `*`, or no groups to look in); undefined otherwise. */
  known(userId: string): TreasuryAccess | undefined;
  /** Whether the person is a treasury admin (TREASURY_ADMINS: named, or in a named group Slack could list). */
  isAdmin(userId: string): Promise<boolean>;
}

export function createTreasuryAccess(deps: TreasuryAccessDeps): TreasuryAccessCheck {
  const groupIds = treasuryGroupIds(deps.treasuryUsers);
  const lookupTimeoutMs = deps.lookupTimeoutMs ?? 2_000;
  const known = (userId: string): TreasuryAccess | undefined => {
    if (mayUseBot(deps.treasuryUsers, userId)) return { allowed: true };
    return groupIds.length === 0 ? { allowed: false, why: 'not_listed' } : undefined;
  };
  return {
    treasuryUsers: deps.treasuryUsers,
    known,
    isAdmin: (userId) => isNamedOrGroupMember(deps.admins, userId, deps.groups),
    async check(userId) {
      // Named, or everyone, or no group to look in: no need to ask Slack.
      const answer = known(userId);
      if (answer !== undefined) return answer;
      const unknown = (error: string): GroupMembers => new Map(groupIds.map((id) => [id, { error }]));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<GroupMembers>((resolve) => {
        timer = setTimeout(() => resolve(unknown('Slack did not answer in time')), lookupTimeoutMs);
      });
      let groups: GroupMembers;
      try {
        // Unknown membership (no answer, an error): nobody gets in through a group this time.
        groups = await Promise.race([deps.groups.members(groupIds).catch(() => unknown('Slack did not answer')), late]);
      } finally {
        clearTimeout(timer);
      }
      return treasuryAccess(deps.treasuryUsers, userId, groups);
    },
  };
}
