// TREASURY_USERS as the listeners ask it: Slack is asked only for groups, and a listing that fails or comes too
// late (a command, a click and a dialog must be answered within Slack's 3 s) leaves the membership unknown: refused.
// TREASURY_ADMINS is asked here too: named, or in a named group Slack could list (fail closed).
import { describe, expect, it } from 'vitest';
import type { GroupMembers } from '../../../src/features/access/rules.js';
import { createTreasuryAccess } from '../../../src/features/access/service.js';

/** A source of group listings that answers as told and counts the questions. */
function groupsThat(answer: (groupIds: readonly string[]) => Promise<GroupMembers>) {
  const asked: string[][] = [];
  return {
    asked,
    members(groupIds: readonly string[]) {
      asked.push([...groupIds]);
      return answer(groupIds);
    },
  };
}

describe('createTreasuryAccess', () => {
  it('named people and * need no question to Slack', async () => {
    const groups = groupsThat(async () => new Map());
    const named = createTreasuryAccess({ treasuryUsers: ['U0OPS1', 'S0TEAM'], admins: [], groups });
    expect(named.known('U0OPS1')).toEqual({ allowed: true });
    expect(await named.check('U0OPS1')).toEqual({ allowed: true });
    const everyone = createTreasuryAccess({ treasuryUsers: ['*'], admins: [], groups });
    expect(await everyone.check('U0ANYONE')).toEqual({ allowed: true });
    expect(groups.asked).toEqual([]);
  });

  it('without groups, an unlisted person is refused at once', async () => {
    const groups = groupsThat(async () => new Map());
    const access = createTreasuryAccess({ treasuryUsers: ['U0OPS1'], admins: [], groups });
    expect(access.known('U0SAM')).toEqual({ allowed: false, why: 'not_listed' });
    expect(await access.check('U0SAM')).toEqual({ allowed: false, why: 'not_listed' });
    expect(groups.asked).toEqual([]);
  });

  it("a group's member is let in once Slack lists them; the answer then needs Slack (known is undefined)", async () => {
    const groups = groupsThat(async () => new Map([['S0TEAM', ['U0OPS2']]]));
    const access = createTreasuryAccess({ treasuryUsers: ['S0TEAM'], admins: [], groups });
    expect(access.known('U0OPS2')).toBeUndefined();
    expect(await access.check('U0OPS2')).toEqual({ allowed: true });
    expect(await access.check('U0SAM')).toEqual({ allowed: false, why: 'not_listed' });
    expect(groups.asked).toEqual([['S0TEAM'], ['S0TEAM']]);
  });

  it('a listing that fails or comes after the deadline is unknown: refused, saying why', async () => {
    const failing = createTreasuryAccess({
      treasuryUsers: ['S0TEAM'],
      admins: [],
      groups: groupsThat(() => Promise.reject(new Error('socket hang up'))),
    });
    expect(await failing.check('U0OPS2')).toEqual({
      allowed: false,
      why: 'unknown',
      reasons: ['Slack did not answer'],
    });

    const never = createTreasuryAccess({
      treasuryUsers: ['S0TEAM'],
      admins: [],
      groups: groupsThat(() => new Promise<GroupMembers>(() => undefined)),
      lookupTimeoutMs: 50,
    });
    const started = Date.now();
    expect(await never.check('U0OPS2')).toEqual({
      allowed: false,
      why: 'unknown',
      reasons: ['Slack did not answer in time'],
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('TREASURY_ADMINS: a named admin, or a member of a named group Slack listed; a group it could not list admits nobody', async () => {
    const groups = groupsThat(
      async (ids) => new Map(ids.map((id) => [id, id === 'S0LEADS' ? ['U0LEAD'] : { error: 'no' }])),
    );
    const access = createTreasuryAccess({ treasuryUsers: ['*'], admins: ['U0BOSS', 'S0LEADS', 'S0GONE'], groups });
    expect(await access.isAdmin('U0BOSS')).toBe(true);
    expect(await access.isAdmin('U0LEAD')).toBe(true);
    expect(await access.isAdmin('U0SAM')).toBe(false);
    expect(groups.asked).toEqual([
      ['S0LEADS', 'S0GONE'],
      ['S0LEADS', 'S0GONE'],
    ]);
  });
});
