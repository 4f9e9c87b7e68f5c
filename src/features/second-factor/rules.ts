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
 *
 * The enrolment DM (the secret's otpauth:// URI and its QR code) is deleted from Slack once the enrolment is
 * confirmed, or when an unconfirmed one lapses after 10 minutes: the deletions are queued in the same change as the
 * record's, so a restart or another replica retries them. A first enrolment is trust on first use (whoever holds the
 * person's Slack session could make it), so an enrolment counts for approvals only once another treasury admin
 * confirmed it in ALERT_CHANNEL; and nobody resets their own second factor.
 */
import { verifySync } from 'otplib';
import { z } from 'zod';

/** Enrolment: `pending` (a secret was sent, no code confirmed yet) or `enrolled`. */
const ENROLMENT_STATES = ['pending', 'enrolled'] as const;

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
  /** Where the enrolment DM is (its message, the QR code's file) while it waits to be deleted with the enrolment. */
  enrolmentDm: z
    .object({ channel: z.string().min(1), ts: z.string().min(1).optional(), fileId: z.string().min(1).optional() })
    .optional(),
  /**
   * Another treasury admin confirmed this enrolment in ALERT_CHANNEL (`by`: who clicked). Without `by`: enrolled
   * before the bot asked for this confirmation, carried over by the upgrade (PostgreSQL migration 10, the state
   * file's second factor schema 2). Absent on an enrolled record: it does not count for approvals (fails closed).
   */
  adminConfirmation: z.object({ at: z.string(), by: z.string().min(1).optional() }).optional(),
});
/** One person's second factor. */
export type EnrolmentRecord = z.infer<typeof EnrolmentRecord>;

/** What can happen to a second factor: each is one line of the trail (the audit export reads it). */
const SECOND_FACTOR_EVENTS = [
  'enrolment_started',
  'enrolled',
  'admin_confirmed',
  'enrolment_lapsed',
  'reset',
  'wrong_code',
  'locked',
] as const;

/** One step of the trail. It never holds a secret or a code. */
export const SecondFactorEvent = z.object({
  /** ISO-8601 UTC. */
  at: z.string(),
  event: z.enum(SECOND_FACTOR_EVENTS),
  /** Whose second factor. */
  userId: z.string(),
  /** Who did it, when not the person themself (`reset`, `admin_confirmed`: the admin). */
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
const EPOCH_TOLERANCE_S = 30;
/** An enrolment not confirmed with a code within this lapses: it is cleared and its DM deleted. */
export const ENROLMENT_LAPSE_MS = 10 * 60_000;
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

/** One Slack deletion of an enrolment DM's part, queued in the store until Slack confirms it. */
export const SlackDeletion = z.object({
  /** `message:<channel>:<ts>` or `file:<id>`: queueing the same thing twice keeps one. */
  id: z.string().min(1),
  /** Whose enrolment DM. */
  userId: z.string().min(1),
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('message'), channel: z.string().min(1), ts: z.string().min(1) }),
    z.object({ kind: z.literal('file'), fileId: z.string().min(1) }),
  ]),
  /** ISO-8601 UTC. */
  queuedAt: z.string(),
  /** ISO-8601 UTC: the next try is not before then. */
  dueAt: z.string(),
  /** Tries that failed so far. */
  attempts: z.number().int().nonnegative(),
  /** Slack's answer to the last failed try (an error code, never a secret). */
  lastError: z.string().optional(),
});
/** One queued Slack deletion. */
export type SlackDeletion = z.infer<typeof SlackDeletion>;

/** How long after a failed deletion the next try waits: 30 s, doubling, at most an hour. */
export function deletionRetryMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, Math.min(attempts - 1, 10)));
}

/** The deletions of an enrolment DM (its message and its QR code's file), due at once. */
function dmDeletions(userId: string, dm: EnrolmentRecord['enrolmentDm'] | undefined, now: Date): SlackDeletion[] {
  if (dm === undefined) return [];
  const at = now.toISOString();
  const base = { userId, queuedAt: at, dueAt: at, attempts: 0 };
  return [
    ...(dm.ts === undefined
      ? []
      : [
          {
            ...base,
            id: `message:${dm.channel}:${dm.ts}`,
            target: { kind: 'message' as const, channel: dm.channel, ts: dm.ts },
          },
        ]),
    ...(dm.fileId === undefined
      ? []
      : [{ ...base, id: `file:${dm.fileId}`, target: { kind: 'file' as const, fileId: dm.fileId } }]),
  ];
}

/**
 * One atomic change of a person's record, as the rules decide it: the answer, the record after (`keep`: as it
 * was; `delete`: gone; or the new record), the trail lines to append and the Slack deletions to queue, in the same
 * change.
 */
export interface EnrolmentChange<R> {
  result: R;
  next: 'keep' | 'delete' | EnrolmentRecord;
  events: SecondFactorEvent[];
  deletions?: SlackDeletion[];
}

/** A code typed by a person: exactly 6 digits, spaces allowed between ("123 456"); undefined when it is not one. */
export function normalizeCode(typed: string): string | undefined {
  const digits = typed.trim().replace(/[ \u00a0]+/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}

/** Whether `record` is an enrolment whose first code did not come within ENROLMENT_LAPSE_MS. */
function isLapsedAt(record: EnrolmentRecord, now: Date): boolean {
  return record.state === 'pending' && now.getTime() - Date.parse(record.startedAt) >= ENROLMENT_LAPSE_MS;
}

/** Whether an enrolled record counts for approvals: another admin confirmed it (or it predates that rule). */
function isAdminConfirmed(record: EnrolmentRecord): boolean {
  return record.state === 'enrolled' && record.adminConfirmation !== undefined;
}

/** The change that clears a lapsed enrolment: the record goes, its DM is queued for deletion. */
function lapse<R>(record: EnrolmentRecord, now: Date, result: R): EnrolmentChange<R> {
  return {
    result,
    next: 'delete',
    events: [{ at: now.toISOString(), event: 'enrolment_lapsed', userId: record.userId }],
    deletions: dmDeletions(record.userId, record.enrolmentDm, now),
  };
}

/** Whether `record` locks approvals at `now`. */
function isLockedAt(record: EnrolmentRecord, now: Date): boolean {
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
  /** `confirm` of an enrolment that lapsed (10 minutes): it is cleared now. */
  | { outcome: 'lapsed' }
  /** `approve` on an enrolment no other admin confirmed yet: the code is not checked and counts for nothing. */
  | { outcome: 'awaiting_admin' }
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
  if (attempt.purpose === 'confirm' && isLapsedAt(record, now)) return lapse(record, now, { outcome: 'lapsed' });
  // Trust on first use: until another admin confirmed the enrolment, its codes do not count (nor are they counted).
  if (attempt.purpose === 'approve' && !isAdminConfirmed(record)) return keep({ outcome: 'awaiting_admin' });
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
    let deletions: SlackDeletion[] = [];
    if (record.state === 'pending') {
      record.state = 'enrolled';
      record.enrolledAt = at;
      events.push({ at, event: 'enrolled', userId: record.userId });
      // The secret is in the app now: the DM that shows it goes.
      deletions = dmDeletions(record.userId, record.enrolmentDm, now);
      delete record.enrolmentDm;
    }
    return { result: { outcome: 'ok', timeStep: checked.timeStep }, next: record, events, deletions };
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
  let deletions: SlackDeletion[] = [];
  if (stored.kind === 'enrolment') {
    const settled = settleLock(stored.record, start.now);
    if (settled.lockedUntil !== undefined)
      return { result: { outcome: 'locked', until: settled.lockedUntil }, next: 'keep', events: [] };
    if (settled.state === 'enrolled')
      return { result: { outcome: 'already_enrolled', record: settled }, next: 'keep', events: [] };
    // The earlier pending secret is void: its DM goes.
    deletions = dmDeletions(settled.userId, settled.enrolmentDm, start.now);
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
    deletions,
  };
}

/** Where a part of the enrolment DM went: its message (channel and ts) or its QR code's file. */
export type DmPart = { channel: string; ts: string } | { channel: string; fileId: string };

/**
 * Records a part of the enrolment DM with the enrolment it shows (`sealedSecret` names it), to be deleted with it.
 * When that enrolment is no longer waiting (confirmed, replaced, reset or lapsed meanwhile) the part is queued for
 * deletion at once instead.
 */
export function applyRecordDm(
  stored: StoredEnrolment,
  part: { userId: string; sealedSecret: string; dm: DmPart; now: Date },
): EnrolmentChange<'recorded' | 'queued'> {
  const dm = { channel: part.dm.channel, ...('ts' in part.dm ? { ts: part.dm.ts } : { fileId: part.dm.fileId }) };
  if (
    stored.kind === 'enrolment' &&
    stored.record.state === 'pending' &&
    stored.record.sealedSecret === part.sealedSecret &&
    !isLapsedAt(stored.record, part.now)
  ) {
    const record = structuredClone(stored.record);
    record.enrolmentDm = { ...record.enrolmentDm, ...dm };
    return { result: 'recorded', next: record, events: [] };
  }
  return { result: 'queued', next: 'keep', events: [], deletions: dmDeletions(part.userId, dm, part.now) };
}

/** What the lapse sweep found for one person: their enrolment lapsed (now cleared), or nothing to do. */
export type LapseOutcome = 'lapsed' | 'not_lapsed';

/** Clears an enrolment whose first code did not come within ENROLMENT_LAPSE_MS; its DM is queued for deletion. */
export function applyLapse(stored: StoredEnrolment, now: Date): EnrolmentChange<LapseOutcome> {
  if (stored.kind !== 'enrolment' || !isLapsedAt(stored.record, now))
    return { result: 'not_lapsed', next: 'keep', events: [] };
  return lapse(stored.record, now, 'lapsed' as const);
}

/** What a click on Confirm enrolment answers. */
export type AdminConfirmOutcome =
  | { outcome: 'confirmed' }
  | { outcome: 'self' }
  | { outcome: 'not_admin' }
  /** Confirmed before (by `by`; undefined: carried over from before the rule). */
  | { outcome: 'already'; by: string | undefined }
  /** No such enrolment now: reset, replaced, damaged, or never finished. */
  | { outcome: 'gone' };

/**
 * Another admin confirms a person's new enrolment (the announcement's button). `clickerId` is the click's own
 * user id (never a value from the payload); `enrolledAt` (from the button) names the enrolment announced, so a
 * button of an enrolment since reset cannot confirm the one that replaced it. The enrolled person never confirms
 * their own, and only an admin confirms.
 */
export function applyAdminConfirmation(
  stored: StoredEnrolment,
  click: { userId: string; clickerId: string; clickerIsAdmin: boolean; enrolledAt: string; now: Date },
): EnrolmentChange<AdminConfirmOutcome> {
  const keep = (result: AdminConfirmOutcome): EnrolmentChange<AdminConfirmOutcome> => ({
    result,
    next: 'keep',
    events: [],
  });
  if (click.clickerId === click.userId) return keep({ outcome: 'self' });
  if (!click.clickerIsAdmin) return keep({ outcome: 'not_admin' });
  if (
    stored.kind !== 'enrolment' ||
    stored.record.state !== 'enrolled' ||
    stored.record.enrolledAt !== click.enrolledAt
  )
    return keep({ outcome: 'gone' });
  if (stored.record.adminConfirmation !== undefined)
    return keep({ outcome: 'already', by: stored.record.adminConfirmation.by });
  const at = click.now.toISOString();
  const record = structuredClone(stored.record);
  record.adminConfirmation = { at, by: click.clickerId };
  return {
    result: { outcome: 'confirmed' },
    next: record,
    events: [{ at, event: 'admin_confirmed', userId: click.userId, by: click.clickerId }],
  };
}

/**
 * Whether an admin may reset `targetId`'s second factor: never their own (whoever holds one Slack session could
 * otherwise reset the factor and enrol a new one). Used by the typed command and the picker alike.
 */
export function resetRefusal(adminId: string, targetId: string): 'self' | undefined {
  return adminId === targetId ? 'self' : undefined;
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
  // The record goes with any pending admin confirmation; a DM still showing a secret goes too.
  return {
    result: { outcome: 'reset', was },
    next: 'delete',
    events: [{ at: reset.now.toISOString(), event: 'reset', userId: reset.userId, by: reset.by }],
    deletions: stored.kind === 'enrolment' ? dmDeletions(reset.userId, stored.record.enrolmentDm, reset.now) : [],
  };
}

/** Where a person stands, from their stored record. */
export type Standing =
  | { state: 'not_enrolled' }
  | { state: 'pending'; startedAt: string }
  | { state: 'enrolled'; enrolledAt: string | undefined }
  /** Enrolled, but no other admin confirmed it yet: it does not count for approvals. */
  | { state: 'awaiting_admin'; enrolledAt: string | undefined }
  | { state: 'locked'; until: string; enrolled: boolean }
  | { state: 'damaged' };

/** A person's standing at `now`, from the stored record (pure). */
export function standingOf(stored: StoredEnrolment, now: Date): Standing {
  if (stored.kind === 'none') return { state: 'not_enrolled' };
  if (stored.kind === 'damaged') return { state: 'damaged' };
  const record = stored.record;
  if (isLockedAt(record, now) && record.lockedUntil)
    return { state: 'locked', until: record.lockedUntil, enrolled: record.state === 'enrolled' };
  if (record.state === 'enrolled')
    return isAdminConfirmed(record)
      ? { state: 'enrolled', enrolledAt: record.enrolledAt }
      : { state: 'awaiting_admin', enrolledAt: record.enrolledAt };
  return isLapsedAt(record, now) ? { state: 'not_enrolled' } : { state: 'pending', startedAt: record.startedAt };
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
