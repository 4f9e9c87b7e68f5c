import { describe, expect, it } from 'vitest';
import type { GroupMembers } from '../../../src/features/access/rules.js';
import {
  type InstallingOrg,
  isFromInstallingOrg,
  mayUseBot,
  type OrgClaim,
  type TreasuryAccess,
  treasuryAccess,
} from '../../../src/features/access/rules.js';

describe('mayUseBot (TREASURY_USERS, without asking Slack)', () => {
  const cases: { treasuryUsers: string[]; userId: string; allowed: boolean; why: string }[] = [
    { treasuryUsers: ['*'], userId: 'U0ANYONE', allowed: true, why: '* lets everyone in' },
    { treasuryUsers: [], userId: 'U0ANYONE', allowed: false, why: 'an empty list lets nobody in (fail closed)' },
    { treasuryUsers: ['U0OPS1'], userId: 'U0OPS1', allowed: true, why: 'a listed user' },
    {
      treasuryUsers: ['U0OPS1', 'U0OPS2'],
      userId: 'U0OPS2',
      allowed: true,
      why: 'any listed user, not only the first',
    },
    { treasuryUsers: ['U0OPS1'], userId: 'U0OUTSIDER', allowed: false, why: 'an unlisted user' },
    { treasuryUsers: ['U0OPS1'], userId: 'u0ops1', allowed: false, why: 'ids match exactly (case counts)' },
    { treasuryUsers: ['U0OPS1'], userId: 'U0OPS', allowed: false, why: 'no prefix match' },
    { treasuryUsers: ['U0OPS1'], userId: '', allowed: false, why: 'an empty user id' },
    { treasuryUsers: ['*'], userId: '', allowed: false, why: 'an empty user id, even with *' },
    { treasuryUsers: ['S0TEAM'], userId: 'U0OPS1', allowed: false, why: 'a group needs Slack: not by id' },
  ];
  it.each(cases)('$why: $userId in [$treasuryUsers] → $allowed', ({ treasuryUsers, userId, allowed }) => {
    expect(mayUseBot(treasuryUsers, userId)).toBe(allowed);
  });
});

describe('treasuryAccess (TREASURY_USERS with user groups)', () => {
  const listed = (entries: Record<string, readonly string[] | { error: string }>): GroupMembers =>
    new Map(Object.entries(entries));
  const cases: { why: string; users: string[]; userId: string; groups: GroupMembers; expected: TreasuryAccess }[] = [
    {
      why: 'a member of a listed group',
      users: ['S0TEAM'],
      userId: 'U0OPS1',
      groups: listed({ S0TEAM: ['U0OPS1'] }),
      expected: { allowed: true },
    },
    {
      why: 'not a member of the listed group',
      users: ['S0TEAM'],
      userId: 'U0SAM',
      groups: listed({ S0TEAM: ['U0OPS1'] }),
      expected: { allowed: false, why: 'not_listed' },
    },
    {
      why: 'the group could not be listed: unknown, refused',
      users: ['S0TEAM'],
      userId: 'U0OPS1',
      groups: listed({ S0TEAM: { error: 'Slack did not answer' } }),
      expected: { allowed: false, why: 'unknown', reasons: ['Slack did not answer'] },
    },
    {
      why: 'a group missing from the listing: unknown, refused',
      users: ['S0TEAM'],
      userId: 'U0OPS1',
      groups: listed({}),
      expected: { allowed: false, why: 'unknown', reasons: ['Slack did not list it'] },
    },
    {
      why: 'a member of one group while another could not be listed: allowed',
      users: ['S0BROKEN', 'S0TEAM'],
      userId: 'U0OPS1',
      groups: listed({ S0BROKEN: { error: 'Slack does not know this group' }, S0TEAM: ['U0OPS1'] }),
      expected: { allowed: true },
    },
    {
      why: 'listed by id, whatever the groups say',
      users: ['U0OPS1', 'S0TEAM'],
      userId: 'U0OPS1',
      groups: listed({ S0TEAM: { error: 'Slack did not answer' } }),
      expected: { allowed: true },
    },
    {
      why: 'a user id is not a group: no member list is read for it',
      users: ['U0OPS1'],
      userId: 'U0OPS2',
      groups: listed({ U0OPS1: ['U0OPS2'] }),
      expected: { allowed: false, why: 'not_listed' },
    },
  ];
  it.each(cases)('$why', ({ users, userId, groups, expected }) => {
    expect(treasuryAccess(users, userId, groups)).toEqual(expected);
  });
});

describe('isFromInstallingOrg (Slack Connect)', () => {
  const workspace: InstallingOrg = { teamId: 'T0OURS' };
  const grid: InstallingOrg = { teamId: 'T0OURS', enterpriseId: 'E0OURS' };
  const cases: { why: string; org: InstallingOrg | undefined; claim: OrgClaim; inside: boolean }[] = [
    { why: 'our workspace', org: workspace, claim: { team: 'T0OURS' }, inside: true },
    { why: 'another organisation (Slack Connect)', org: workspace, claim: { team: 'T0PARTNER' }, inside: false },
    {
      why: 'another Grid organisation (E… in user.team_id)',
      org: workspace,
      claim: { team: 'E0PARTNER' },
      inside: false,
    },
    { why: 'no team named: unknown', org: workspace, claim: {}, inside: false },
    { why: 'an empty team: unknown', org: workspace, claim: { team: '' }, inside: false },
    { why: 'a team that is not text', org: workspace, claim: { team: ['T0OURS'] }, inside: false },
    { why: 'the installing team not known yet', org: undefined, claim: { team: 'T0OURS' }, inside: false },
    {
      why: 'our team next to an organisation we are not in',
      org: workspace,
      claim: { team: 'T0OURS', enterprise: 'E0PARTNER' },
      inside: false,
    },
    { why: 'Grid: our workspace', org: grid, claim: { team: 'T0OURS', enterprise: 'E0OURS' }, inside: true },
    { why: 'Grid: our organisation in user.team_id', org: grid, claim: { team: 'E0OURS' }, inside: true },
    {
      why: 'Grid: another workspace of our organisation (command)',
      org: grid,
      claim: { team: 'T0SIBLING', enterprise: 'E0OURS' },
      inside: true,
    },
    { why: 'Grid: a workspace naming no organisation', org: grid, claim: { team: 'T0SIBLING' }, inside: false },
    {
      why: 'Grid: another organisation',
      org: grid,
      claim: { team: 'T0PARTNER', enterprise: 'E0PARTNER' },
      inside: false,
    },
    {
      why: 'Grid: our team id next to another organisation',
      org: grid,
      claim: { team: 'T0OURS', enterprise: 'E0PARTNER' },
      inside: false,
    },
    { why: 'Grid: another organisation in user.team_id', org: grid, claim: { team: 'E0PARTNER' }, inside: false },
  ];
  it.each(cases)('$why → $inside', ({ org, claim, inside }) => {
    expect(isFromInstallingOrg(org, claim)).toBe(inside);
  });
});
