/**
 * The freeze: one switch that stops money moving (no swap requested or approved, no payout container created)
 * until a quorum of admins lifts it or its `--for` runs out. Plain data and pure functions: the store runs the
 * changes inside one atomic change of the freeze state, and the swap and payout decisions read the freeze inside
 * their own atomic change (isFrozenAt), so a click racing a freeze is judged on one side of it.
 */
import { z } from 'zod';

/** One admin's click on Unfreeze. */
const UnfreezeVote = z.object({
  by: z.string(),
  /** ISO-8601 UTC. */
  at: z.string(),
});

/** The freeze in force (or that was, until its `until` passed). */
export const FreezeRecord = z.object({
  frozenBy: z.string(),
  /** ISO-8601 UTC. */
  frozenAt: z.string(),
  /** The reason as typed (plain text: escape it before it reaches mrkdwn). */
  reason: z.string(),
  /** ISO-8601 UTC: the freeze ends by itself then (`--for 2h`); absent: only the unfreeze quorum ends it. */
  until: z.string().optional(),
  /** Distinct admins who clicked Unfreeze, in order. */
  unfreezeVotes: z.array(UnfreezeVote),
  /** Where the freeze was announced (ALERT_CHANNEL), once Slack took the post; absent: not (yet) announced. */
  announcement: z.object({ channel: z.string(), ts: z.string() }).optional(),
});
/** The freeze in force (or that was, until its `until` passed). */
export type FreezeRecord = z.infer<typeof FreezeRecord>;

/** What can happen to the freeze: each is one line of the trail (the audit export reads it). */
const FREEZE_EVENTS = ['frozen', 'unfreeze_vote', 'unfrozen', 'expired'] as const;

/** One step of the freeze's trail. */
export const FreezeEvent = z.object({
  /** ISO-8601 UTC. */
  at: z.string(),
  event: z.enum(FREEZE_EVENTS),
  /** Who did it; absent for `expired` (time did). */
  by: z.string().optional(),
  /** The freeze's reason (on `frozen`). */
  reason: z.string().optional(),
  /** When it ends by itself (on `frozen` with `--for`). */
  until: z.string().optional(),
  /** On `unfreeze_vote` and `unfrozen`: the distinct votes so far and the quorum. */
  votes: z.number().int().nonnegative().optional(),
  quorum: z.number().int().positive().optional(),
});
/** One step of the freeze's trail. */
export type FreezeEvent = z.infer<typeof FreezeEvent>;

/** What the store keeps: the freeze (absent when none was ever pulled or the last one was lifted) and its trail. */
export const FreezeState = z.object({
  current: FreezeRecord.optional(),
  trail: z.array(FreezeEvent),
  /**
   * Freezes whose `until` passed and whose end is recorded in the trail, but not yet announced: the expiry job
   * claims them (claimExpiredFreezes), once, to edit their announcement and say they ended.
   */
  expiredUnannounced: z.array(FreezeRecord).optional(),
});
/** What the store keeps: the freeze and its trail. */
export type FreezeState = z.infer<typeof FreezeState>;

/** The freeze state of a new store (and of one written before the freeze existed). */
export function emptyFreezeState(): FreezeState {
  return { trail: [] };
}

/** Trail entries are kept this long (as the alert trail and the threshold trail: 400 days). */
const FREEZE_TRAIL_RETENTION_MS = 400 * 24 * 60 * 60_000;

/** FREEZE_UNFREEZE_QUORUM's default: two distinct admins. */
export const DEFAULT_UNFREEZE_QUORUM = 2;

/** The longest `--for` accepted: a freeze meant to last longer has no `--for` (a quorum lifts it). */
export const MAX_FREEZE_FOR_MS = 30 * 24 * 60 * 60_000;

/** The longest reason kept (it is shown in messages and the Home tab). */
export const MAX_FREEZE_REASON_LENGTH = 500;

/** Whether `record` is in force at `now`: a freeze with an `until` at or before `now` has ended by itself. */
export function isFrozenAt(record: FreezeRecord | undefined, now: Date): boolean {
  if (!record) return false;
  if (record.until === undefined) return true;
  return now.getTime() < Date.parse(record.until);
}

/** The freeze in force at `now`, if any. */
export function activeFreeze(state: FreezeState, now: Date): FreezeRecord | undefined {
  const current = state.current;
  return current && isFrozenAt(current, now) ? current : undefined;
}

/** What a person is, for the freeze: an approver (SWAP_APPROVERS) and/or an admin (TREASURY_ADMINS). */
export interface FreezeRoles {
  approver: boolean;
  admin: boolean;
}

/** Anyone trusted may pull the freeze: an approver or an admin. */
export function mayFreeze(roles: FreezeRoles): boolean {
  return roles.approver || roles.admin;
}

/** Only admins lift it (each counts once toward the quorum; the one who froze may be one of them). */
export function mayVoteUnfreeze(roles: FreezeRoles): boolean {
  return roles.admin;
}

/** A request to freeze. */
export interface FreezeRequest {
  by: string;
  at: Date;
  reason: string;
  /** How long until it ends by itself (`--for`); absent: until the quorum lifts it. */
  forMs?: number;
}

/** The answer of a freeze: `frozen` (the new record), or refused because a freeze is in force already. */
export type FreezeOutcome =
  | { ok: true; freeze: FreezeRecord }
  | { ok: false; reason: 'already_frozen'; freeze: FreezeRecord };

/** An admin's Unfreeze click: who, when, and which freeze its button belongs to (its `frozenAt`). */
export interface UnfreezeRequest {
  by: string;
  at: Date;
  /** The freeze the clicked announcement is about; absent: the one in force. */
  frozenAt?: string;
}

/** The answer of an Unfreeze click. */
export type UnfreezeOutcome =
  | { ok: true; unfrozen: false; freeze: FreezeRecord; votes: number; quorum: number }
  | { ok: true; unfrozen: true; freeze: FreezeRecord; votes: number; quorum: number }
  | { ok: false; reason: 'not_frozen' }
  | { ok: false; reason: 'another_freeze'; freeze: FreezeRecord }
  | { ok: false; reason: 'already_voted'; freeze: FreezeRecord; votes: number; quorum: number };

/**
 * A freeze whose `until` passed is recorded as ended (once), at its `until`, before anything else changes; it waits
 * in `expiredUnannounced` until the expiry job claims it (whichever comes first writes the one `expired` line).
 */
function settleExpiry(state: FreezeState, now: Date): void {
  const current = state.current;
  if (!current?.until || isFrozenAt(current, now)) return;
  state.trail.push({ at: current.until, event: 'expired' });
  state.expiredUnannounced = [...(state.expiredUnannounced ?? []), current];
  delete state.current;
}

/** Whether claimExpiredFreezes would find anything at `now` (read without a lock, to lock only when it would). */
export function hasExpiredToClaim(state: FreezeState, now: Date): boolean {
  const current = state.current;
  return (state.expiredUnannounced?.length ?? 0) > 0 || (current?.until !== undefined && !isFrozenAt(current, now));
}

/**
 * Claims the freezes that ended by themselves (mutates `state`): a freeze in force whose `until` passed gets its one
 * `expired` line now, and every ended freeze not yet announced is handed over, oldest first, and forgotten. Run
 * inside the store's atomic change, so one caller across all replicas gets each (the others get none).
 */
export function claimExpiredFreezes(state: FreezeState, now: Date): FreezeRecord[] {
  settleExpiry(state, now);
  const claimed = state.expiredUnannounced ?? [];
  delete state.expiredUnannounced;
  if (claimed.length > 0) pruneTrail(state, now);
  return structuredClone(claimed);
}

/**
 * Keeps where the freeze that began at `frozenAt` was announced (mutates `state`), on the freeze in force or one
 * ended and not yet announced; false when that freeze is gone (lifted, or its end already announced).
 */
export function recordAnnouncement(
  state: FreezeState,
  frozenAt: string,
  announcement: { channel: string; ts: string },
): boolean {
  const record = [state.current, ...(state.expiredUnannounced ?? [])].find((entry) => entry?.frozenAt === frozenAt);
  if (!record) return false;
  record.announcement = { ...announcement };
  return true;
}

function pruneTrail(state: FreezeState, now: Date): void {
  const cutoff = now.getTime() - FREEZE_TRAIL_RETENTION_MS;
  state.trail = state.trail.filter((entry) => Date.parse(entry.at) >= cutoff);
}

/**
 * Pulls the freeze (mutates `state`): refused while one is in force. Who may do it (mayFreeze) and what the reason
 * and `--for` may be are checked before; this is the part that must be atomic.
 */
export function applyFreeze(state: FreezeState, request: FreezeRequest): FreezeOutcome {
  settleExpiry(state, request.at);
  if (state.current) return { ok: false, reason: 'already_frozen', freeze: structuredClone(state.current) };
  const frozenAt = request.at.toISOString();
  const until = request.forMs === undefined ? undefined : new Date(request.at.getTime() + request.forMs).toISOString();
  const freeze: FreezeRecord = {
    frozenBy: request.by,
    frozenAt,
    reason: request.reason,
    ...(until ? { until } : {}),
    unfreezeVotes: [],
  };
  state.current = freeze;
  state.trail.push({
    at: frozenAt,
    event: 'frozen',
    by: request.by,
    reason: request.reason,
    ...(until ? { until } : {}),
  });
  pruneTrail(state, request.at);
  return { ok: true, freeze: structuredClone(freeze) };
}

/**
 * Counts an admin's Unfreeze click (mutates `state`): each admin once; at `quorum` distinct votes the freeze ends.
 * Whether the person is an admin (mayVoteUnfreeze) is checked before.
 */
export function applyUnfreezeVote(state: FreezeState, vote: UnfreezeRequest, quorum: number): UnfreezeOutcome {
  settleExpiry(state, vote.at);
  const current = state.current;
  if (!current) return { ok: false, reason: 'not_frozen' };
  // A button of an earlier freeze's announcement never counts toward a later freeze.
  if (vote.frozenAt !== undefined && vote.frozenAt !== current.frozenAt)
    return { ok: false, reason: 'another_freeze', freeze: structuredClone(current) };
  const needed = Math.max(1, Math.floor(quorum));
  if (current.unfreezeVotes.some((cast) => cast.by === vote.by))
    return {
      ok: false,
      reason: 'already_voted',
      freeze: structuredClone(current),
      votes: current.unfreezeVotes.length,
      quorum: needed,
    };
  const at = vote.at.toISOString();
  current.unfreezeVotes.push({ by: vote.by, at });
  const votes = current.unfreezeVotes.length;
  state.trail.push({ at, event: 'unfreeze_vote', by: vote.by, votes, quorum: needed });
  const unfrozen = votes >= needed;
  const freeze = structuredClone(current);
  if (unfrozen) {
    state.trail.push({ at, event: 'unfrozen', by: vote.by, votes, quorum: needed });
    delete state.current;
  }
  pruneTrail(state, vote.at);
  return { ok: true, unfrozen, freeze, votes, quorum: needed };
}

/**
 * The trail at or after `since`, oldest first, as of `now`: a freeze whose `until` passed since the last change
 * shows its `expired` line already (it is written at the next change).
 */
export function freezeTrailSince(state: FreezeState, since: Date, now: Date): FreezeEvent[] {
  const trail = [...state.trail];
  const current = state.current;
  if (current?.until && !isFrozenAt(current, now)) trail.push({ at: current.until, event: 'expired' });
  return trail.filter((entry) => Date.parse(entry.at) >= since.getTime()).map((entry) => ({ ...entry }));
}
