// The freeze's rules, table by table: who may pull it and lift it, the quorum of distinct admins (the freezer
// counting once), and `--for` ending it by itself: its one `expired` line (at `until`, whichever of the expiry job
// and a later change sees it first), each ended freeze handed to one claimer once, and where it was announced.
import { describe, expect, it } from 'vitest';
import {
  activeFreeze,
  applyFreeze,
  applyUnfreezeVote,
  claimExpiredFreezes,
  emptyFreezeState,
  type FreezeState,
  freezeTrailSince,
  hasExpiredToClaim,
  isFrozenAt,
  mayFreeze,
  mayVoteUnfreeze,
  recordAnnouncement,
} from '../../../src/features/freeze/rules.js';

const T0 = new Date('2026-11-28T09:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const HOUR = 60 * 60_000;

function frozen(forMs?: number): FreezeState {
  const state = emptyFreezeState();
  applyFreeze(state, { by: 'U0AVERY', at: T0, reason: 'leaked token', ...(forMs ? { forMs } : {}) });
  return state;
}

describe('who may freeze and unfreeze', () => {
  it.each([
    { roles: { approver: false, admin: false }, freeze: false, unfreeze: false },
    { roles: { approver: true, admin: false }, freeze: true, unfreeze: false },
    { roles: { approver: false, admin: true }, freeze: true, unfreeze: true },
    { roles: { approver: true, admin: true }, freeze: true, unfreeze: true },
  ])('$roles: freeze $freeze, vote to unfreeze $unfreeze', ({ roles, freeze, unfreeze }) => {
    expect(mayFreeze(roles)).toBe(freeze);
    expect(mayVoteUnfreeze(roles)).toBe(unfreeze);
  });
});

describe('pulling the freeze', () => {
  it('records who, when, why, and a trail line; no until without --for', () => {
    const state = emptyFreezeState();
    const outcome = applyFreeze(state, { by: 'U0AVERY', at: T0, reason: 'leaked token' });
    expect(outcome).toEqual({
      ok: true,
      freeze: { frozenBy: 'U0AVERY', frozenAt: T0.toISOString(), reason: 'leaked token', unfreezeVotes: [] },
    });
    expect(state.trail).toEqual([{ at: T0.toISOString(), event: 'frozen', by: 'U0AVERY', reason: 'leaked token' }]);
    expect(activeFreeze(state, minutes(60 * 24 * 365))).toEqual(outcome.ok && outcome.freeze);
  });

  it('is refused while a freeze is in force, and changes nothing', () => {
    const state = frozen();
    const before = structuredClone(state);
    const again = applyFreeze(state, { by: 'U0RILEY', at: minutes(1), reason: 'me too' });
    expect(again).toMatchObject({ ok: false, reason: 'already_frozen', freeze: { frozenBy: 'U0AVERY' } });
    expect(state).toEqual(before);
  });

  it.each([
    { at: minutes(119), frozen: true },
    { at: minutes(120), frozen: false },
    { at: minutes(121), frozen: false },
  ])('with --for 2h, at $at it is frozen: $frozen', ({ at, frozen: expected }) => {
    const state = frozen(2 * HOUR);
    expect(state.current?.until).toBe(minutes(120).toISOString());
    expect(isFrozenAt(state.current, at)).toBe(expected);
    expect(activeFreeze(state, at) !== undefined).toBe(expected);
  });

  it('after --for ran out, a new freeze records the expiry first, at its until', () => {
    const state = frozen(2 * HOUR);
    expect(freezeTrailSince(state, T0, minutes(130)).map((e) => e.event)).toEqual(['frozen', 'expired']);
    const outcome = applyFreeze(state, { by: 'U0RILEY', at: minutes(130), reason: 'again' });
    expect(outcome.ok).toBe(true);
    expect(state.trail.map((e) => [e.event, e.at])).toEqual([
      ['frozen', T0.toISOString()],
      ['expired', minutes(120).toISOString()],
      ['frozen', minutes(130).toISOString()],
    ]);
  });
});

describe('the unfreeze quorum', () => {
  it.each([
    { quorum: 1, voters: ['U0AVERY'], unfrozenAfter: 1 },
    { quorum: 2, voters: ['U0AVERY', 'U0RILEY'], unfrozenAfter: 2 },
    { quorum: 2, voters: ['U0RILEY', 'U0AVERY'], unfrozenAfter: 2 },
    { quorum: 3, voters: ['U0AVERY', 'U0RILEY', 'U0SAM'], unfrozenAfter: 3 },
    { quorum: 0, voters: ['U0RILEY'], unfrozenAfter: 1 },
  ])(
    'quorum $quorum: $voters lift it at vote $unfrozenAfter (the freezer counts once)',
    ({ quorum, voters, unfrozenAfter }) => {
      const state = frozen();
      voters.forEach((by, index) => {
        const outcome = applyUnfreezeVote(state, { by, at: minutes(index + 1) }, quorum);
        expect(outcome).toMatchObject({ ok: true, unfrozen: index + 1 === unfrozenAfter, votes: index + 1 });
      });
      expect(state.current).toBeUndefined();
      expect(state.trail.at(-1)).toMatchObject({ event: 'unfrozen', by: voters.at(-1), votes: unfrozenAfter });
    },
  );

  it('a second click by the same admin is refused and not counted', () => {
    const state = frozen();
    applyUnfreezeVote(state, { by: 'U0AVERY', at: minutes(1) }, 2);
    const again = applyUnfreezeVote(state, { by: 'U0AVERY', at: minutes(2) }, 2);
    expect(again).toMatchObject({ ok: false, reason: 'already_voted', votes: 1, quorum: 2 });
    expect(state.current?.unfreezeVotes).toEqual([{ by: 'U0AVERY', at: minutes(1).toISOString() }]);
    expect(state.trail.map((e) => e.event)).toEqual(['frozen', 'unfreeze_vote']);
  });

  it('with no freeze, or after --for ran out, a vote finds nothing to lift', () => {
    expect(applyUnfreezeVote(emptyFreezeState(), { by: 'U0AVERY', at: T0 }, 2)).toEqual({
      ok: false,
      reason: 'not_frozen',
    });
    const state = frozen(HOUR);
    expect(applyUnfreezeVote(state, { by: 'U0AVERY', at: minutes(61) }, 2)).toEqual({
      ok: false,
      reason: 'not_frozen',
    });
    expect(state.trail.map((e) => e.event)).toEqual(['frozen', 'expired']);
  });

  it('a click on the announcement of an earlier freeze counts nothing toward the one in force', () => {
    const state = frozen();
    const earlier = state.current!.frozenAt;
    applyUnfreezeVote(state, { by: 'U0AVERY', at: minutes(1) }, 1);
    applyFreeze(state, { by: 'U0SAM', at: minutes(3), reason: 'strange quote' });
    const before = structuredClone(state);
    expect(applyUnfreezeVote(state, { by: 'U0RILEY', at: minutes(4), frozenAt: earlier }, 1)).toMatchObject({
      ok: false,
      reason: 'another_freeze',
      freeze: { frozenBy: 'U0SAM' },
    });
    expect(state).toEqual(before);
    expect(
      applyUnfreezeVote(state, { by: 'U0RILEY', at: minutes(4), frozenAt: minutes(3).toISOString() }, 1),
    ).toMatchObject({ ok: true, unfrozen: true });
  });

  it('votes of a lifted freeze do not carry over to the next', () => {
    const state = frozen();
    applyUnfreezeVote(state, { by: 'U0AVERY', at: minutes(1) }, 2);
    applyUnfreezeVote(state, { by: 'U0RILEY', at: minutes(2) }, 2);
    applyFreeze(state, { by: 'U0SAM', at: minutes(3), reason: 'strange quote' });
    expect(applyUnfreezeVote(state, { by: 'U0AVERY', at: minutes(4) }, 2)).toMatchObject({ unfrozen: false, votes: 1 });
  });
});

describe('claiming a freeze whose --for ran out', () => {
  it.each([
    { name: 'no freeze', state: () => emptyFreezeState(), at: 0, claimed: 0 },
    { name: 'a freeze without --for, much later', state: () => frozen(), at: 10_000, claimed: 0 },
    { name: 'a --for freeze before its until', state: () => frozen(2 * HOUR), at: 119, claimed: 0 },
    { name: 'a --for freeze at its until', state: () => frozen(2 * HOUR), at: 120, claimed: 1 },
    { name: 'a --for freeze long after its until', state: () => frozen(2 * HOUR), at: 900, claimed: 1 },
  ])('$name (minute $at): $claimed claimed', ({ state: make, at, claimed }) => {
    const state = make();
    expect(hasExpiredToClaim(state, minutes(at))).toBe(claimed > 0);
    const first = claimExpiredFreezes(state, minutes(at));
    expect(first).toHaveLength(claimed);
    // The second claimer (another replica, the next round) gets nothing, and the trail has one `expired` line.
    expect(claimExpiredFreezes(state, minutes(at))).toEqual([]);
    expect(hasExpiredToClaim(state, minutes(at))).toBe(false);
    expect(state.trail.filter((entry) => entry.event === 'expired')).toHaveLength(claimed);
  });

  it('records `expired` at the until, not at the claim; the freeze is gone', () => {
    const state = frozen(2 * HOUR);
    const [ended] = claimExpiredFreezes(state, minutes(135));
    expect(ended).toMatchObject({ frozenBy: 'U0AVERY', until: minutes(120).toISOString() });
    expect(state.current).toBeUndefined();
    expect(state.trail.at(-1)).toEqual({ at: minutes(120).toISOString(), event: 'expired' });
    expect(freezeTrailSince(state, T0, minutes(200)).map((entry) => entry.event)).toEqual(['frozen', 'expired']);
  });

  it.each([
    {
      name: 'a new freeze pulled after the until',
      change: (state: FreezeState) => applyFreeze(state, { by: 'U0JORDAN', at: minutes(130), reason: 'again' }),
    },
    {
      name: 'an Unfreeze click after the until',
      change: (state: FreezeState) => applyUnfreezeVote(state, { by: 'U0JORDAN', at: minutes(130) }, 2),
    },
  ])('$name writes the `expired` line first; the job still claims it once, never a second line', ({ change }) => {
    const state = frozen(2 * HOUR);
    change(state);
    expect(state.trail.filter((entry) => entry.event === 'expired')).toHaveLength(1);
    const claimed = claimExpiredFreezes(state, minutes(131));
    expect(claimed.map((freeze) => freeze.frozenBy)).toEqual(['U0AVERY']);
    expect(claimExpiredFreezes(state, minutes(132))).toEqual([]);
    expect(state.trail.filter((entry) => entry.event === 'expired')).toHaveLength(1);
    expect(freezeTrailSince(state, T0, minutes(132)).filter((entry) => entry.event === 'expired')).toHaveLength(1);
  });

  it('a freeze lifted by the quorum before its until is never claimed as expired', () => {
    const state = frozen(2 * HOUR);
    applyUnfreezeVote(state, { by: 'U0A', at: minutes(1) }, 2);
    applyUnfreezeVote(state, { by: 'U0B', at: minutes(2) }, 2);
    expect(claimExpiredFreezes(state, minutes(500))).toEqual([]);
    expect(state.trail.map((entry) => entry.event)).not.toContain('expired');
  });
});

describe('where the freeze was announced', () => {
  it.each([
    { name: 'the freeze in force', prepare: (_state: FreezeState) => undefined, frozenAt: T0, kept: true },
    { name: 'another freeze', prepare: (_state: FreezeState) => undefined, frozenAt: minutes(1), kept: false },
    {
      name: 'a freeze ended and not yet announced',
      prepare: (state: FreezeState) => applyFreeze(state, { by: 'U0B', at: minutes(200), reason: 'next' }),
      frozenAt: T0,
      kept: true,
    },
    {
      name: 'a freeze whose end was claimed',
      prepare: (state: FreezeState) => claimExpiredFreezes(state, minutes(200)),
      frozenAt: T0,
      kept: false,
    },
  ])('on $name: kept $kept', ({ prepare, frozenAt, kept }) => {
    const state = frozen(2 * HOUR);
    prepare(state);
    const where = { channel: 'C0ALERTS', ts: '1700000000.000100' };
    expect(recordAnnouncement(state, frozenAt.toISOString(), where)).toBe(kept);
    if (kept) {
      const found = [state.current, ...(state.expiredUnannounced ?? [])].find(
        (record) => record?.frozenAt === T0.toISOString(),
      );
      expect(found?.announcement).toEqual(where);
    }
  });

  it('an ended freeze is handed over with its announcement (to edit it)', () => {
    const state = frozen(HOUR);
    recordAnnouncement(state, T0.toISOString(), { channel: 'C0ALERTS', ts: '1.2' });
    expect(claimExpiredFreezes(state, minutes(61))[0]?.announcement).toEqual({ channel: 'C0ALERTS', ts: '1.2' });
  });
});
