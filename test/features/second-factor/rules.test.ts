// The second factor's pure rules: which codes are taken (once, with one step of drift), the lockout of five wrong
// codes, enrolment start and reset, standing, and damaged records failing closed.
import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  applyAdminConfirmation,
  applyCode,
  applyLapse,
  applyRecordDm,
  applyReset,
  applyStartEnrolment,
  type CodeAttempt,
  decodeEnrolment,
  type EnrolmentRecord,
  normalizeCode,
  resetRefusal,
  type StoredEnrolment,
  standingOf,
} from '../../../src/features/second-factor/rules.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const T0 = new Date('2026-11-28T12:00:10.000Z'); // 10 s into a 30 s step
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const codeAt = (when: Date, secret = SECRET) => generateSync({ secret, epoch: Math.floor(when.getTime() / 1000) });
const stepOf = (when: Date) => Math.floor(when.getTime() / 1000 / 30);

function record(overrides: Partial<EnrolmentRecord> = {}): EnrolmentRecord {
  return {
    userId: 'U0AVERY',
    sealedSecret: 'sealed',
    state: 'enrolled',
    startedAt: '2026-11-01T00:00:00.000Z',
    enrolledAt: '2026-11-01T00:01:00.000Z',
    adminConfirmation: { at: '2026-11-01T00:05:00.000Z', by: 'U0ADMIN' },
    wrongCodes: 0,
    ...overrides,
  };
}
/** An enrolment waiting for its first code, started a minute before T0 (it lapses 10 minutes after its start). */
function pendingRecord(overrides: Partial<EnrolmentRecord> = {}): EnrolmentRecord {
  return {
    userId: 'U0AVERY',
    sealedSecret: 'sealed',
    state: 'pending',
    startedAt: at(-60).toISOString(),
    wrongCodes: 0,
    ...overrides,
  };
}
const stored = (r: EnrolmentRecord): StoredEnrolment => ({ kind: 'enrolment', record: r });
const attempt = (code: string, now: Date, purpose: CodeAttempt['purpose'] = 'approve'): CodeAttempt => ({
  code,
  now,
  purpose,
  secretOf: () => SECRET,
});

/** Applies a sequence of codes to one record, as the store would, and answers each outcome. */
function run(start: EnrolmentRecord, codes: [string, Date][], purpose: CodeAttempt['purpose'] = 'approve') {
  let current: StoredEnrolment = stored(start);
  const outcomes = [];
  const events = [];
  for (const [code, now] of codes) {
    const change = applyCode(current, attempt(code, now, purpose));
    outcomes.push(change.result);
    events.push(...change.events);
    if (change.next === 'delete') current = { kind: 'none' };
    else if (change.next !== 'keep') current = stored(change.next);
  }
  return { outcomes, events, current };
}

describe('normalizeCode', () => {
  it.each([
    ['123456', '123456'],
    ['123 456', '123456'],
    [' 123456 ', '123456'],
    ['1 2 3 4 5 6', '123456'],
    ['12345', undefined],
    ['1234567', undefined],
    ['12345a', undefined],
    ['１２３４５６', undefined],
    ['123-456', undefined],
    ['', undefined],
  ])('%j → %j', (typed, expected) => {
    expect(normalizeCode(typed)).toBe(expected);
  });
});

describe('applyCode', () => {
  it('accepts the code of now, one step before and one step after; not two steps off', () => {
    for (const [offset, accepted] of [
      [0, true],
      [-30, true],
      [30, true],
      [-60, false],
      [60, false],
    ] as const) {
      const change = applyCode(stored(record()), attempt(codeAt(at(offset)), T0));
      expect(change.result.outcome, `code of ${offset} s`).toBe(accepted ? 'ok' : 'wrong');
    }
  });

  it('uses the step once: the same code again, or an earlier step, is replayed (and counts as wrong)', () => {
    const code = codeAt(T0);
    const { outcomes, current } = run(record(), [
      [code, T0],
      [code, at(5)],
      [codeAt(at(-30)), at(6)],
    ]);
    expect(outcomes).toEqual([
      { outcome: 'ok', timeStep: stepOf(T0) },
      { outcome: 'replayed', wrongCodes: 1 },
      { outcome: 'replayed', wrongCodes: 2 },
    ]);
    expect(current).toMatchObject({ record: { lastUsedStep: stepOf(T0), wrongCodes: 2 } });
    // The next step's code is fresh, and a right code resets the count.
    const next = applyCode(current, attempt(codeAt(at(30)), at(30)));
    expect(next.result).toEqual({ outcome: 'ok', timeStep: stepOf(T0) + 1 });
    expect(next.next).toMatchObject({ wrongCodes: 0, lastUsedStep: stepOf(T0) + 1 });
  });

  it('the 5th wrong code in a row locks for 15 minutes; locked codes are not checked; the count restarts after', () => {
    const wrong: [string, Date][] = [1, 2, 3, 4, 5].map((n) => ['000000', at(n)]);
    const { outcomes, events, current } = run(record(), wrong);
    const until = new Date(at(5).getTime() + 15 * 60_000).toISOString();
    expect(outcomes).toEqual([
      { outcome: 'wrong', wrongCodes: 1 },
      { outcome: 'wrong', wrongCodes: 2 },
      { outcome: 'wrong', wrongCodes: 3 },
      { outcome: 'wrong', wrongCodes: 4 },
      { outcome: 'locked', until, justLocked: true },
    ]);
    expect(events.map((e) => e.event)).toEqual([
      'wrong_code',
      'wrong_code',
      'wrong_code',
      'wrong_code',
      'wrong_code',
      'locked',
    ]);
    expect(JSON.stringify(events)).not.toContain('000000');
    // Locked: even the right code is refused, nothing changes, nothing is recorded.
    const whileLocked = applyCode(current, attempt(codeAt(at(60)), at(60)));
    expect(whileLocked).toEqual({ result: { outcome: 'locked', until, justLocked: false }, next: 'keep', events: [] });
    expect(applyCode(current, attempt('nonsense', at(61))).result).toMatchObject({ outcome: 'locked' });
    // The lock ends: the count starts again (one wrong code is 1 of 5, not a new lock).
    const after = new Date(Date.parse(until));
    const again = applyCode(current, attempt('000000', after));
    expect(again.result).toEqual({ outcome: 'wrong', wrongCodes: 1 });
    expect(again.next).not.toHaveProperty('lockedUntil');
    expect(applyCode(current, attempt(codeAt(after), after)).result).toMatchObject({ outcome: 'ok' });
  });

  it('a right code between wrong ones resets the count', () => {
    const { outcomes } = run(record(), [
      ['000000', at(1)],
      ['000000', at(2)],
      ['000000', at(3)],
      ['000000', at(4)],
      [codeAt(at(5)), at(5)],
      ['000000', at(6)],
    ]);
    expect(outcomes.at(-2)).toMatchObject({ outcome: 'ok' });
    expect(outcomes.at(-1)).toEqual({ outcome: 'wrong', wrongCodes: 1 });
  });

  it.each([
    ['malformed', stored(record()), '12345', 'approve', { outcome: 'malformed' }],
    ['no record', { kind: 'none' } as StoredEnrolment, '123456', 'approve', { outcome: 'not_enrolled' }],
    ['pending, for an approval', stored(pendingRecord()), '123456', 'approve', { outcome: 'not_enrolled' }],
    ['enrolled, for a confirm', stored(record()), '123456', 'confirm', { outcome: 'not_enrolled' }],
    [
      'a damaged record',
      { kind: 'damaged', problem: 'x' } as StoredEnrolment,
      '123456',
      'approve',
      { outcome: 'unreadable' },
    ],
  ] as const)('%s: refused, nothing changes', (_what, start, code, purpose, expected) => {
    expect(applyCode(start, attempt(code, T0, purpose))).toEqual({ result: expected, next: 'keep', events: [] });
  });

  it('a secret that does not open fails closed and counts nothing', () => {
    const change = applyCode(stored(record()), {
      ...attempt(codeAt(T0), T0),
      secretOf: () => {
        throw new Error('another key');
      },
    });
    expect(change).toEqual({ result: { outcome: 'unreadable' }, next: 'keep', events: [] });
  });

  it('a secret otplib refuses (not base32) fails closed and counts nothing', () => {
    const change = applyCode(stored(record()), { ...attempt('123456', T0), secretOf: () => 'not base32 at all!' });
    expect(change).toEqual({ result: { outcome: 'unreadable' }, next: 'keep', events: [] });
  });

  it('confirm completes a pending enrolment, with its step used', () => {
    const pending = pendingRecord();
    const { outcomes, events, current } = run(
      pending,
      [
        ['000000', at(1)],
        [codeAt(T0), at(2)],
      ],
      'confirm',
    );
    expect(outcomes).toEqual([
      { outcome: 'wrong', wrongCodes: 1 },
      { outcome: 'ok', timeStep: stepOf(T0) },
    ]);
    expect(events.map((e) => e.event)).toEqual(['wrong_code', 'enrolled']);
    expect(current).toMatchObject({
      record: { state: 'enrolled', enrolledAt: at(2).toISOString(), lastUsedStep: stepOf(T0), wrongCodes: 0 },
    });
    // Until another admin confirms the enrolment no code approves; the confirming code cannot approve after that.
    expect(applyCode(current, attempt(codeAt(T0), at(3))).result).toEqual({ outcome: 'awaiting_admin' });
    if (current.kind !== 'enrolment') throw new Error('expected an enrolment');
    const vouched = stored({ ...current.record, adminConfirmation: { at: at(3).toISOString(), by: 'U0ADMIN' } });
    expect(applyCode(vouched, attempt(codeAt(T0), at(3))).result).toMatchObject({ outcome: 'replayed' });
  });
});

describe('applyStartEnrolment', () => {
  const start = { userId: 'U0AVERY', sealedSecret: 'sealed-new', now: T0 };
  it.each([
    ['no record', { kind: 'none' } as StoredEnrolment, 'started'],
    ['a pending one (replaced)', stored(pendingRecord()), 'started'],
    ['enrolled', stored(record()), 'already_enrolled'],
    ['locked', stored(pendingRecord({ lockedUntil: at(60).toISOString(), wrongCodes: 5 })), 'locked'],
    ['a lock that ended', stored(pendingRecord({ lockedUntil: at(-1).toISOString() })), 'started'],
    ['damaged (kept for an admin)', { kind: 'damaged', problem: 'x' } as StoredEnrolment, 'unreadable'],
  ] as const)('%s → %s', (_what, before, outcome) => {
    const change = applyStartEnrolment(before, start);
    expect(change.result.outcome).toBe(outcome);
    if (outcome === 'started') {
      expect(change.next).toEqual({
        userId: 'U0AVERY',
        sealedSecret: 'sealed-new',
        state: 'pending',
        startedAt: T0.toISOString(),
        wrongCodes: 0,
      });
      expect(change.events).toEqual([{ at: T0.toISOString(), event: 'enrolment_started', userId: 'U0AVERY' }]);
    } else expect(change.next).toBe('keep');
  });
});

describe('applyReset', () => {
  it.each([
    ['enrolled', stored(record()), { outcome: 'reset', was: 'enrolled' }],
    ['locked', stored(record({ lockedUntil: at(60).toISOString() })), { outcome: 'reset', was: 'enrolled' }],
    ['damaged', { kind: 'damaged', problem: 'x' } as StoredEnrolment, { outcome: 'reset', was: 'damaged' }],
  ] as const)('%s: deleted, recorded with who reset whom', (_what, before, result) => {
    expect(applyReset(before, { userId: 'U0AVERY', by: 'U0ADMIN', now: T0 })).toEqual({
      result,
      next: 'delete',
      events: [{ at: T0.toISOString(), event: 'reset', userId: 'U0AVERY', by: 'U0ADMIN' }],
      deletions: [],
    });
  });
  it('nothing to reset', () => {
    expect(applyReset({ kind: 'none' }, { userId: 'U0AVERY', by: 'U0ADMIN', now: T0 })).toEqual({
      result: { outcome: 'none' },
      next: 'keep',
      events: [],
    });
  });
});

describe('standingOf and decodeEnrolment', () => {
  it.each([
    [{ kind: 'none' } as StoredEnrolment, { state: 'not_enrolled' }],
    [stored(pendingRecord()), { state: 'pending', startedAt: at(-60).toISOString() }],
    [stored(record()), { state: 'enrolled', enrolledAt: '2026-11-01T00:01:00.000Z' }],
    [
      stored(record({ lockedUntil: at(1).toISOString() })),
      { state: 'locked', until: at(1).toISOString(), enrolled: true },
    ],
    [
      stored(record({ lockedUntil: at(0).toISOString() })),
      { state: 'enrolled', enrolledAt: '2026-11-01T00:01:00.000Z' },
    ],
    [{ kind: 'damaged', problem: 'x' } as StoredEnrolment, { state: 'damaged' }],
  ])('%j → %j', (before, standing) => {
    expect(standingOf(before, T0)).toEqual(standing);
  });

  it('a damaged or misfiled record is damaged, never none', () => {
    expect(decodeEnrolment(record(), 'U0AVERY')).toEqual({ kind: 'enrolment', record: record() });
    expect(decodeEnrolment({ ...record(), wrongCodes: -1 }, 'U0AVERY')).toMatchObject({ kind: 'damaged' });
    expect(decodeEnrolment('junk', 'U0AVERY')).toMatchObject({ kind: 'damaged' });
    expect(decodeEnrolment(record(), 'U0RILEY')).toEqual({ kind: 'damaged', problem: 'stored under another person' });
  });
});

describe('the enrolment DM: deleted once confirmed, or when the enrolment lapses', () => {
  const dm = { channel: 'D0AVERY', ts: '1700000000.000100', fileId: 'F0QR' };
  const deletionIds = (change: { deletions?: { id: string }[] }) => (change.deletions ?? []).map((d) => d.id);

  it('a confirming code queues the deletion of the message and the QR code, and forgets where they were', () => {
    const change = applyCode(stored(pendingRecord({ enrolmentDm: dm })), attempt(codeAt(T0), T0, 'confirm'));
    expect(change.result).toMatchObject({ outcome: 'ok' });
    expect(deletionIds(change)).toEqual(['message:D0AVERY:1700000000.000100', 'file:F0QR']);
    expect(change.next).not.toBe('keep');
    expect((change.next as EnrolmentRecord).enrolmentDm).toBeUndefined();
  });

  it('an enrolment lapses 10 minutes after its start: cleared, its DM queued for deletion, recorded', () => {
    const pending = stored(pendingRecord({ startedAt: at(-600).toISOString(), enrolmentDm: dm }));
    expect(applyLapse(stored(pendingRecord({ startedAt: at(-599).toISOString() })), T0).result).toBe('not_lapsed');
    const lapsed = applyLapse(pending, T0);
    expect(lapsed.result).toBe('lapsed');
    expect(lapsed.next).toBe('delete');
    expect(lapsed.events).toEqual([{ at: T0.toISOString(), event: 'enrolment_lapsed', userId: 'U0AVERY' }]);
    expect(deletionIds(lapsed)).toEqual(['message:D0AVERY:1700000000.000100', 'file:F0QR']);
    // A code typed after the lapse finds no enrolment to complete: it lapses there too.
    const late = applyCode(pending, attempt(codeAt(T0), T0, 'confirm'));
    expect(late.result).toEqual({ outcome: 'lapsed' });
    expect(late.next).toBe('delete');
    expect(standingOf(pending, T0)).toEqual({ state: 'not_enrolled' });
    // An enrolled record never lapses.
    expect(applyLapse(stored(record()), T0).result).toBe('not_lapsed');
  });

  it('a new enrolment replacing a pending one, and a reset, queue the old DM for deletion', () => {
    const before = stored(pendingRecord({ enrolmentDm: dm }));
    expect(deletionIds(applyStartEnrolment(before, { userId: 'U0AVERY', sealedSecret: 'new', now: T0 }))).toEqual([
      'message:D0AVERY:1700000000.000100',
      'file:F0QR',
    ]);
    expect(deletionIds(applyReset(before, { userId: 'U0AVERY', by: 'U0ADMIN', now: T0 }))).toEqual([
      'message:D0AVERY:1700000000.000100',
      'file:F0QR',
    ]);
  });

  it('a DM part is recorded with the enrolment it shows, or queued at once when that one is gone', () => {
    const part = { userId: 'U0AVERY', sealedSecret: 'sealed', dm: { channel: 'D0AVERY', fileId: 'F0QR' }, now: T0 };
    const recorded = applyRecordDm(stored(pendingRecord({ enrolmentDm: { channel: 'D0AVERY', ts: '1.2' } })), part);
    expect(recorded.result).toBe('recorded');
    expect((recorded.next as EnrolmentRecord).enrolmentDm).toEqual({ channel: 'D0AVERY', ts: '1.2', fileId: 'F0QR' });
    for (const gone of [
      { kind: 'none' } as StoredEnrolment,
      stored(pendingRecord({ sealedSecret: 'another' })),
      stored(record({ sealedSecret: 'sealed' })),
    ]) {
      const change = applyRecordDm(gone, part);
      expect(change.result).toBe('queued');
      expect(change.next).toBe('keep');
      expect(deletionIds(change)).toEqual(['file:F0QR']);
    }
  });
});

describe('a new enrolment counts once another admin confirmed it', () => {
  const unconfirmed = () => record({ adminConfirmation: undefined });
  const click = (overrides: Partial<Parameters<typeof applyAdminConfirmation>[1]> = {}) => ({
    userId: 'U0AVERY',
    clickerId: 'U0ADMIN',
    clickerIsAdmin: true,
    enrolledAt: '2026-11-01T00:01:00.000Z',
    now: T0,
    ...overrides,
  });

  it('until then its codes are refused for approvals, checked nor counted', () => {
    const change = applyCode(stored(unconfirmed()), attempt(codeAt(T0), T0));
    expect(change).toEqual({ result: { outcome: 'awaiting_admin' }, next: 'keep', events: [] });
    expect(applyCode(stored(unconfirmed()), attempt('000000', T0)).result).toEqual({ outcome: 'awaiting_admin' });
    expect(standingOf(stored(unconfirmed()), T0)).toEqual({
      state: 'awaiting_admin',
      enrolledAt: '2026-11-01T00:01:00.000Z',
    });
  });

  it('another admin confirms it once; recorded with who', () => {
    const change = applyAdminConfirmation(stored(unconfirmed()), click());
    expect(change.result).toEqual({ outcome: 'confirmed' });
    expect((change.next as EnrolmentRecord).adminConfirmation).toEqual({ at: T0.toISOString(), by: 'U0ADMIN' });
    expect(change.events).toEqual([
      { at: T0.toISOString(), event: 'admin_confirmed', userId: 'U0AVERY', by: 'U0ADMIN' },
    ]);
    expect(applyCode(stored(change.next as EnrolmentRecord), attempt(codeAt(T0), T0)).result).toMatchObject({
      outcome: 'ok',
    });
    expect(applyAdminConfirmation(stored(change.next as EnrolmentRecord), click()).result).toEqual({
      outcome: 'already',
      by: 'U0ADMIN',
    });
  });

  it.each([
    ['the enrolled person themself (an admin too)', stored(unconfirmed()), click({ clickerId: 'U0AVERY' }), 'self'],
    ['someone not an admin', stored(unconfirmed()), click({ clickerIsAdmin: false }), 'not_admin'],
    ['an enrolment since replaced', stored(unconfirmed()), click({ enrolledAt: '2026-10-01T00:00:00.000Z' }), 'gone'],
    ['an enrolment reset', { kind: 'none' } as StoredEnrolment, click(), 'gone'],
    ['an enrolment not finished', stored(pendingRecord()), click(), 'gone'],
  ] as const)('refused for %s', (_what, before, by, outcome) => {
    const change = applyAdminConfirmation(before, by);
    expect(change.result.outcome).toBe(outcome);
    expect(change.next).toBe('keep');
    expect(change.events).toEqual([]);
  });
});

describe('resetRefusal', () => {
  it('refuses a reset of one’s own second factor, and only that', () => {
    expect(resetRefusal('U0ADMIN', 'U0ADMIN')).toBe('self');
    expect(resetRefusal('U0ADMIN', 'U0AVERY')).toBeUndefined();
  });
});
