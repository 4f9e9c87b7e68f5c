/**
 * Who may use the bot at all, as pure functions beside the swap approval rules in approval.ts:
 *
 * - the organisation: only people of the workspace the bot is installed in (and, on Enterprise Grid, of its
 *   organisation) may use it at all; a member of another organisation in a Slack Connect channel is refused
 *   (`isFromInstallingOrg`, applied once, at the edge: src/listeners/edge.ts);
 * - TREASURY_USERS: who of them may (`treasuryAccess`): listed people, members of listed user groups, or `*`
 *   (EVERYONE_MEANS).
 *
 * Nothing is called for someone either turns away.
 */

/** Members of each user group as Slack told them, or why Slack could not (TREASURY_USERS, TREASURY_ADMINS, SWAP_APPROVERS). */
export type GroupMembers = ReadonlyMap<string, readonly string[] | { error: string }>;

/** TREASURY_USERS' explicit "everyone in the installing organisation". */
const EVERYONE = '*';

/**
 * What `*` admits, in the words every description of it uses. On Enterprise Grid a click names the organisation
 * (E…), not the person's workspace, so one workspace cannot be told apart: to admit one workspace only, name a user
 * group holding its people.
 */
export const EVERYONE_MEANS = 'everyone in the installing organisation (on Enterprise Grid, every workspace of it)';

/**
 * The workspace the bot is installed in, as `auth.test` names it: its team (T…) and, when the workspace belongs to
 * an Enterprise Grid organisation, that organisation (E…).
 */
export interface InstallingOrg {
  teamId: string;
  enterpriseId?: string | undefined;
}

/**
 * What a request says about the acting person's own organisation: `team` is their workspace (a slash command's
 * `team_id`) or, in an interaction, `user.team_id`, which Slack fills with the Grid organisation's id (E…) for a
 * Grid member; `enterprise` is the request's `enterprise_id` when it has one (never the host's `team.id` of a
 * click: a click from another organisation in a shared channel carries the host workspace there).
 */
export interface OrgClaim {
  team?: unknown;
  enterprise?: unknown;
}

const named = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * Whether the request comes from inside the installing organisation. Unknown is outside: no installing team
 * (auth.test not answered), or a request that names no team for the person.
 *
 * Enterprise Grid: the people of the organisation's other workspaces count as inside (the same company, and Slack
 * reports a Grid member's `user.team_id` as the organisation's id in clicks, so they cannot be told apart there);
 * TREASURY_USERS still decides which of them may act. An organisation id that disagrees with the team is outside.
 */
export function isFromInstallingOrg(org: InstallingOrg | undefined, claim: OrgClaim): boolean {
  if (org === undefined || named(org.teamId) === undefined) return false;
  const team = named(claim.team);
  const enterprise = named(claim.enterprise);
  if (team === undefined) return false;
  const ourEnterprise = named(org.enterpriseId);
  // Another organisation's id next to ours, or one where we have none: outside.
  if (enterprise !== undefined && enterprise !== ourEnterprise) return false;
  if (team === org.teamId) return true;
  if (ourEnterprise === undefined) return false;
  // On Grid: the organisation's own id in user.team_id, or another workspace of the same organisation.
  return team === ourEnterprise || enterprise === ourEnterprise;
}

/** What TREASURY_USERS says of one person. */
export type TreasuryAccess =
  | { allowed: true }
  | { allowed: false; why: 'not_listed' }
  /** Their membership hangs on user groups Slack could not list: unknown, so refused (fail closed). */
  | { allowed: false; why: 'unknown'; reasons: string[] };

/** The user group ids (S…) of TREASURY_USERS: the lists that need Slack (usergroups.users.list). */
export function treasuryGroupIds(treasuryUsers: readonly string[]): string[] {
  return treasuryUsers.filter((id) => id.startsWith('S'));
}

/**
 * Whether `userId` may use `/treasury` and its buttons under TREASURY_USERS: `*` lets everyone in (of the
 * installing organisation: the edge refused everyone else), a listed user id, or a member of a listed group as
 * `groups` lists them. An empty list lets nobody in. When the answer hangs on a group Slack could not list (or
 * one missing from `groups`), it is unknown and the person is refused.
 */
export function treasuryAccess(treasuryUsers: readonly string[], userId: string, groups: GroupMembers): TreasuryAccess {
  if (userId === '') return { allowed: false, why: 'not_listed' };
  if (treasuryUsers.includes(EVERYONE) || treasuryUsers.includes(userId)) return { allowed: true };
  const reasons: string[] = [];
  for (const groupId of treasuryGroupIds(treasuryUsers)) {
    const listed = groups.get(groupId);
    if (Array.isArray(listed)) {
      if (listed.includes(userId)) return { allowed: true };
    } else {
      reasons.push(listed && 'error' in listed ? listed.error : 'Slack did not list it');
    }
  }
  return reasons.length > 0 ? { allowed: false, why: 'unknown', reasons } : { allowed: false, why: 'not_listed' };
}

/** Whether `userId` is let in by TREASURY_USERS without asking Slack (`*`, or listed by id). */
export function mayUseBot(treasuryUsers: readonly string[], userId: string): boolean {
  return userId !== '' && (treasuryUsers.includes(EVERYONE) || treasuryUsers.includes(userId));
}

/** The polite refusal for people outside TREASURY_USERS. */
export const NOT_A_TREASURY_USER =
  'Sorry, this bot is limited to the treasury team. Ask an admin to add you to TREASURY_USERS if you need it.';

/** The refusal when Slack could not say whether the person is in a TREASURY_USERS group. */
function membershipUnknown(reasons: readonly string[]): string {
  const why = [...new Set(reasons)].join('; ');
  return `Sorry, the bot could not check that you are on the treasury team (${why}), so it does nothing for now. Please try again in a minute.`;
}

/** What a refused person is told. */
export function refusalText(access: Exclude<TreasuryAccess, { allowed: true }>): string {
  return access.why === 'unknown' ? membershipUnknown(access.reasons) : NOT_A_TREASURY_USER;
}

/** The refusal for someone of another organisation (a Slack Connect channel shared with another company). */
export const OUTSIDE_ORGANISATION =
  'Sorry, this bot only works for people of the workspace it is installed in. Ask someone there if you need something from it.';
