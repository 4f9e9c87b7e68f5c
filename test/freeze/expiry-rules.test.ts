// A freeze's `--for` running out, table by table: the one `expired` line (at `until`, whichever of the expiry job
// and a later change sees it first), each ended freeze handed to one claimer once, and where it was announced kept.
import { describe, expect, it } from 'vitest';
import {
  applyFreeze,
  applyUnfreezeVote,
  claimExpiredFreezes,
  emptyFreezeState,
  type FreezeState,
  freezeTrailSince,
  hasExpiredToClaim,
  recordAnnouncement,
} from '../../src/features/freeze/rules.js';

const T0 = new Date('2026-11-28T09:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const HOUR = 60 * 60_000;

function frozen(forMs?: number): FreezeState {
  const state = emptyFreezeState();
  applyFreeze(state, { by: 'U0AVERY', at: T0, reason: 'leaked token', ...(forMs ? { forMs } : {}) });
  return state;
}

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
