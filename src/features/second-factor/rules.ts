/**
 * The TOTP second factor (RFC 6238): one enrolment record per Slack user and the pure rules that judge a code
 * against it. The store runs each change inside one atomic change of that person's record (SecondFactorRepository),
 * so two replicas given the same code judge it one after the other: the second sees the first's time step as used.
 *
 * Lockout: FIVE consecutive wrong codes lock the person's approvals for 15 minutes (the 5th wrong code is what
 * locks). A locked person's codes are not checked at all. A right code resets the count; when a lock ends the count
 * starts again from zero. A replayed code (of a time step already used, RFC 6238 §5.2) counts as wrong: someone
 * holding an old code is exactly who the lock is for, so it fails closed. A malformed entry (not 6 digits) is a
 * typo, not a guess: it is refused without counting.
 */
import { verifySync } from 'otplib';
import { z } from 'zod';

/** Enrolment: `pending` (a secret was sent, no code confirmed yet) or `enrolled`. */
export const ENROLMENT_STATES = ['pending', 'enrolled'] as const;

/** One person's second factor. */
export const EnrolmentRecord = z.object({
  userId: z.string().min(1),
  /** The TOTP secret, sealed (SecretBox, with the user id as context): never the secret itself. */
  sealedSecret: z.string().min(1),
  state: z.enum(ENROLMENT_STATES),
  /** ISO-8601 UTC: when `/treasury 2fa enroll` made this secret. */
  startedAt: z.string(),
  /** ISO-8601 UTC: when the first code confirmed it. */
  enrolledAt: z.string().optional(),
  /** The last TOTP time step accepted: codes of this step or earlier are refused (a code is used once). */
  lastUsedStep: z.number().int().nonnegative().optional(),
  /** Wrong (or replayed) codes in a row since the last right code or the last lock's end. */
  wrongCodes: z.number().int().nonnegative(),
  /** ISO-8601 UTC: approvals are locked until then. */
  lockedUntil: z.string().optional(),
});
/** One person's second factor. */
export type EnrolmentRecord = z.infer<typeof EnrolmentRecord>;

/** What can happen to a second factor: each is one line of the trail (the audit export reads it). */
export const SECOND_FACTOR_EVENTS = ['enrolment_started', 'enrolled', 'reset', 'wrong_code', 'locked'] as const;
/** One of SECOND_FACTOR_EVENTS. */
export type SecondFactorEventKind = (typeof SECOND_FACTOR_EVENTS)[number];

/** One step of the trail. It never holds a secret or a code. */
export const SecondFactorEvent = z.object({
  /** ISO-8601 UTC. */
  at: z.string(),
  event: z.enum(SECOND_FACTOR_EVENTS),
  /** Whose second factor. */
  userId: z.string(),
  /** Who did it, when not the person themself (`reset`: the admin). */
  by: z.string().optional(),
  /** On `wrong_code`: wrong, or a code of a time step already used. */
  reason: z.enum(['wrong', 'replayed']).optional(),
  /** On `wrong_code` and `locked`: the wrong codes in a row so far. */
  wrongCodes: z.number().int().nonnegative().optional(),
  /** On `locked`: ISO-8601 UTC. */
  until: z.string().optional(),
});
/** One step of the trail. */
export type SecondFactorEvent = z.infer<typeof SecondFactorEvent>;

/** Wrong codes in a row that lock a person's approvals. */
export const MAX_WRONG_CODES = 5;
/** How long a lock lasts. */
export const LOCK_MS = 15 * 60_000;
/** Clock drift accepted around now, in seconds: at most one 30-second step either way. */
export const EPOCH_TOLERANCE_S = 30;
/** Trail entries are kept this long (as the other trails: 400 days). */
export const SECOND_FACTOR_TRAIL_RETENTION_MS = 400 * 24 * 60 * 60_000;

/**
 * A person's record as the store holds it: none, readable, or damaged. A damaged record is kept as it is (never
 * dropped or reset) and fails closed: its owner cannot approve above the threshold until an admin resets it.
 */
export type StoredEnrolment =
  | { kind: 'none' }
  | { kind: 'enrolment'; record: EnrolmentRecord }
  | { kind: 'damaged'; problem: string };

/**
 * One atomic change of a person's record, as the rules decide it: the answer, the record after (`keep`: as it
 * was; `delete`: gone; or the new record) and the trail lines to append in the same change.
 */
export interface EnrolmentChange<R> {
  result: R;
  next: 'keep' | 'delete' | EnrolmentRecord;
  events: SecondFactorEvent[];
}

/** A code typed by a person: exactly 6 digits, spaces allowed between ("123 456"); undefined when it is not one. */
export function normalizeCode(typed: string): string | undefined {
  const digits = typed.trim().replace(/[ \u00a0]+/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}

/** Whether `record` locks approvals at `now`. */
export function isLockedAt(record: EnrolmentRecord, now: Date): boolean {
  return record.lockedUntil !== undefined && now.getTime() < Date.parse(record.lockedUntil);
}

/** What a code check answers. `ok` carries the time step it used. */
export type CodeOutcome =
  | { outcome: 'ok'; timeStep: number }
  | { outcome: 'wrong'; wrongCodes: number }
  | { outcome: 'replayed'; wrongCodes: number }
  /** `justLocked`: this code was the one that locked (the lock is announced once). */
  | { outcome: 'locked'; until: string; justLocked: boolean }
  | { outcome: 'not_enrolled' }
  | { outcome: 'malformed' }
  /** The record is damaged, or its secret does not open (another key): fails closed, counts nothing. */
  | { outcome: 'unreadable' };

/** Which records a check accepts: an approval needs `enrolled`; `/treasury 2fa confirm` needs `pending`. */
export type CodePurpose = 'approve' | 'confirm';

/** What judging a code needs besides the record: the typed code, the time, and how to open the sealed secret. */
export interface CodeAttempt {
  code: string;
  now: Date;
  purpose: CodePurpose;
  /** The record's secret in clear; throws when it cannot be opened. */
  secretOf(record: EnrolmentRecord): string;
}

/** A lock that has ended is cleared, and the count starts again. Returns a copy. */
function settleLock(record: EnrolmentRecord, now: Date): EnrolmentRecord {
  const copy = structuredClone(record);
  if (copy.lockedUntil !== undefined && !isLockedAt(copy, now)) {
    delete copy.lockedUntil;
    copy.wrongCodes = 0;
  }
  return copy;
}

/** The TOTP check itself: ok with its step, replayed (right, but of a used step), or wrong. */
function checkTotp(secret: string, token: string, now: Date, lastUsedStep: number | undefined) {
  const epoch = Math.floor(now.getTime() / 1000);
  const fresh = verifySync({
    secret,
    token,
    epoch,
    epochTolerance: EPOCH_TOLERANCE_S,
    ...(lastUsedStep === undefined ? {} : { afterTimeStep: lastUsedStep }),
  });
  // A TOTP answer always carries its time step; without one the step could not be remembered, so it fails closed.
  if (fresh.valid && 'timeStep' in fresh && typeof fresh.timeStep === 'number')
    return { kind: 'ok' as const, timeStep: fresh.timeStep };
  if (fresh.valid) return { kind: 'wrong' as const };
  if (lastUsedStep === undefined) return { kind: 'wrong' as const };
  const any = verifySync({ secret, token, epoch, epochTolerance: EPOCH_TOLERANCE_S });
  return any.valid ? { kind: 'replayed' as const } : { kind: 'wrong' as const };
}

/**
 * Judges a code against a person's stored record (pure: the change the store applies atomically). A right code
 * uses its time step (and, for `confirm`, completes the enrolment); a wrong or replayed one counts toward the lock.
 */
export function applyCode(stored: StoredEnrolment, attempt: CodeAttempt): EnrolmentChange<CodeOutcome> {
  const keep = <R>(result: R): EnrolmentChange<R> => ({ result, next: 'keep', events: [] });
  if (stored.kind === 'damaged') return keep({ outcome: 'unreadable' });
  if (stored.kind === 'none') return keep({ outcome: 'not_enrolled' });
  const { now } = attempt;
  const at = now.toISOString();
  const record = settleLock(stored.record, now);
  // A locked person's codes are not even checked (and a malformed one is not news while locked).
  if (record.lockedUntil !== undefined)
    return keep({ outcome: 'locked', until: record.lockedUntil, justLocked: false });
  const wanted = attempt.purpose === 'approve' ? 'enrolled' : 'pending';
  if (record.state !== wanted) return keep({ outcome: 'not_enrolled' });
  const token = normalizeCode(attempt.code);
  if (token === undefined) return keep({ outcome: 'malformed' });
  let secret: string;
  try {
    secret = attempt.secretOf(record);
  } catch {
    return keep({ outcome: 'unreadable' });
  }
  let checked: ReturnType<typeof checkTotp>;
  try {
    checked = checkTotp(secret, token, now, record.lastUsedStep);
  } catch {
    // A secret otplib refuses (not base32, too short) cannot give a code: fails closed, counts nothing.
    return keep({ outcome: 'unreadable' });
  }
  if (checked.kind === 'ok') {
    record.lastUsedStep = checked.timeStep;
    record.wrongCodes = 0;
    const events: SecondFactorEvent[] = [];
    if (record.state === 'pending') {
      record.state = 'enrolled';
      record.enrolledAt = at;
      events.push({ at, event: 'enrolled', userId: record.userId });
    }
    return { result: { outcome: 'ok', timeStep: checked.timeStep }, next: record, events };
  }
  record.wrongCodes += 1;
  const events: SecondFactorEvent[] = [
    { at, event: 'wrong_code', userId: record.userId, reason: checked.kind, wrongCodes: record.wrongCodes },
  ];
  if (record.wrongCodes >= MAX_WRONG_CODES) {
    const until = new Date(now.getTime() + LOCK_MS).toISOString();
    record.lockedUntil = until;
    events.push({ at, event: 'locked', userId: record.userId, wrongCodes: record.wrongCodes, until });
    return { result: { outcome: 'locked', until, justLocked: true }, next: record, events };
  }
  return { result: { outcome: checked.kind, wrongCodes: record.wrongCodes }, next: record, events };
}

/** What `/treasury 2fa enroll` answers: started (a new pending secret), or refused. */
export type StartOutcome =
  | { outcome: 'started'; record: EnrolmentRecord }
  | { outcome: 'already_enrolled'; record: EnrolmentRecord }
  | { outcome: 'locked'; until: string }
  | { outcome: 'unreadable' };

/**
 * Starts (or starts again) an enrolment with a new sealed secret: refused when enrolled (an admin resets), while
 * locked (a fresh secret must not lift a lock) and on a damaged record (kept for an admin to reset).
 */
export function applyStartEnrolment(
  stored: StoredEnrolment,
  start: { userId: string; sealedSecret: string; now: Date },
): EnrolmentChange<StartOutcome> {
  if (stored.kind === 'damaged') return { result: { outcome: 'unreadable' }, next: 'keep', events: [] };
  if (stored.kind === 'enrolment') {
    const settled = settleLock(stored.record, start.now);
    if (settled.lockedUntil !== undefined)
      return { result: { outcome: 'locked', until: settled.lockedUntil }, next: 'keep', events: [] };
    if (settled.state === 'enrolled')
      return { result: { outcome: 'already_enrolled', record: settled }, next: 'keep', events: [] };
  }
  const at = start.now.toISOString();
  const record: EnrolmentRecord = {
    userId: start.userId,
    sealedSecret: start.sealedSecret,
    state: 'pending',
    startedAt: at,
    wrongCodes: 0,
  };
  return {
    result: { outcome: 'started', record: structuredClone(record) },
    next: record,
    events: [{ at, event: 'enrolment_started', userId: start.userId }],
  };
}

/** What an admin's reset answers: whether there was anything to remove. */
export type ResetOutcome = { outcome: 'reset'; was: 'pending' | 'enrolled' | 'damaged' } | { outcome: 'none' };

/** An admin removes a person's enrolment and its lock (a damaged record too), recorded with who did it. */
export function applyReset(
  stored: StoredEnrolment,
  reset: { userId: string; by: string; now: Date },
): EnrolmentChange<ResetOutcome> {
  if (stored.kind === 'none') return { result: { outcome: 'none' }, next: 'keep', events: [] };
  const was = stored.kind === 'damaged' ? 'damaged' : stored.record.state;
  return {
    result: { outcome: 'reset', was },
    next: 'delete',
    events: [{ at: reset.now.toISOString(), event: 'reset', userId: reset.userId, by: reset.by }],
  };
}

/** Where a person stands, from their stored record. */
export type Standing =
  | { state: 'not_enrolled' }
  | { state: 'pending'; startedAt: string }
  | { state: 'enrolled'; enrolledAt: string | undefined }
  | { state: 'locked'; until: string; enrolled: boolean }
  | { state: 'damaged' };

/** A person's standing at `now`, from the stored record (pure). */
export function standingOf(stored: StoredEnrolment, now: Date): Standing {
  if (stored.kind === 'none') return { state: 'not_enrolled' };
  if (stored.kind === 'damaged') return { state: 'damaged' };
  const record = stored.record;
  if (isLockedAt(record, now) && record.lockedUntil)
    return { state: 'locked', until: record.lockedUntil, enrolled: record.state === 'enrolled' };
  return record.state === 'enrolled'
    ? { state: 'enrolled', enrolledAt: record.enrolledAt }
    : { state: 'pending', startedAt: record.startedAt };
}

/** Decodes a stored value: a record, or damaged with the problem in words (never the value itself). */
export function decodeEnrolment(raw: unknown, userId: string): StoredEnrolment {
  const parsed = EnrolmentRecord.safeParse(raw);
  if (!parsed.success)
    return {
      kind: 'damaged',
      problem: `unreadable field(s): ${parsed.error.issues.map((issue) => issue.path.join('.') || '(the record)').join(', ')}`,
    };
  if (parsed.data.userId !== userId) return { kind: 'damaged', problem: 'stored under another person' };
  return { kind: 'enrolment', record: parsed.data };
}

/** The trail at or after `since`, oldest first. */
export function trailSince(trail: readonly SecondFactorEvent[], since: Date): SecondFactorEvent[] {
  return trail.filter((entry) => Date.parse(entry.at) >= since.getTime()).map((entry) => ({ ...entry }));
}
