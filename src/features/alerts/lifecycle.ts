import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------
// The life of one alert (a failure, a flood summary, a stuck row): open → acknowledged → resolved, with a
// version that every change raises. Pure: the stores apply these changes inside one transaction, the message
// is rewritten from the result, and the thread gets the returned event. Times are ISO strings.

/** Who resolved an alert, and why: a person with a note, or the facts (the row later succeeded). */
const AlertResolution = z.discriminatedUnion('by', [
  z.object({ by: z.literal('person'), userId: z.string(), note: z.string() }),
  z.object({ by: z.literal('facts'), reason: z.string() }),
  /** Not handled, but no longer followed: more alerts were open at once than the bot keeps (the oldest go). */
  z.object({ by: z.literal('retired'), openLimit: z.number().int().positive() }),
]);
export type AlertResolution = z.infer<typeof AlertResolution>;

export const AlertLife = z.object({
  state: z.enum(['open', 'acknowledged', 'resolved']),
  /** Raised by every change; a click carries the version its message showed, so an outdated click is refused. */
  version: z.number().int().nonnegative(),
  openedAt: z.string(),
  acknowledgedBy: z.string().optional(),
  acknowledgedAt: z.string().optional(),
  resolvedAt: z.string().optional(),
  resolution: AlertResolution.optional(),
  snoozedUntil: z.string().optional(),
  snoozedBy: z.string().optional(),
  /** Reminders already sent: "not acknowledged" ones (at most two) and the one "still not resolved". */
  remindersSent: z.object({ unacknowledged: z.number().int().min(0).max(2), stale: z.boolean() }),
});
export type AlertLife = z.infer<typeof AlertLife>;

export function openAlertLife(at: Date): AlertLife {
  return { state: 'open', version: 0, openedAt: at.toISOString(), remindersSent: { unacknowledged: 0, stale: false } };
}

/** A person's click or submit, with the version of the message they acted on. */
export interface PersonAct {
  userId: string;
  at: Date;
  seenVersion: number;
}

/** Why a person's act changed nothing; `current` is what the message should show now. */
export type AlertRefusal =
  | { ok: false; reason: 'already_resolved'; current: AlertLife }
  | { ok: false; reason: 'already_acknowledged'; current: AlertLife }
  | { ok: false; reason: 'outdated'; current: AlertLife }
  | { ok: false; reason: 'note_required'; current: AlertLife };

/**
 * What happened to an alert, as its thread tells it (one reply each). Kept as facts, worded by the builders
 * (features/alerts/blocks.ts), so the record holds no presentation.
 */
export const AlertEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('acknowledged'), by: z.string(), at: z.string() }),
  z.object({ type: z.literal('snoozed'), by: z.string(), at: z.string(), until: z.string() }),
  z.object({ type: z.literal('resolved_by_person'), by: z.string(), at: z.string(), note: z.string() }),
  z.object({ type: z.literal('resolved_by_facts'), at: z.string(), reason: z.string() }),
  /** "Nobody has acknowledged this": `mentions` are Slack mention strings (`<@U…>`, `<!subteam^S…>`). */
  z.object({
    type: z.literal('reminder_unacknowledged'),
    at: z.string(),
    number: z.number().int().min(1).max(2),
    openedAt: z.string(),
    mentions: z.array(z.string()),
  }),
  z.object({
    type: z.literal('reminder_stale'),
    at: z.string(),
    acknowledgedBy: z.string(),
    acknowledgedAt: z.string(),
  }),
  /** Something more about the alert's object (a stuck row that failed, the same address failing again…). */
  z.object({ type: z.literal('update'), at: z.string(), text: z.string() }),
  /** The message had been deleted (or its channel was): it was posted again here. */
  z.object({ type: z.literal('reposted'), at: z.string() }),
]);
export type AlertEvent = z.infer<typeof AlertEvent>;

/** A change: the new life and the event the alert's thread gets. */
export type AlertChange = { ok: true; life: AlertLife; event: AlertEvent };

/**
 * The checks every person's act goes through, in this order: a resolved alert stays resolved (whatever the
 * message showed), then an outdated message is refused with the current state.
 */
function refuseStale(life: AlertLife, act: PersonAct): AlertRefusal | undefined {
  if (life.state === 'resolved') return { ok: false, reason: 'already_resolved', current: life };
  if (act.seenVersion !== life.version) return { ok: false, reason: 'outdated', current: life };
  return undefined;
}

/** Acknowledge: "I have it". Never reopens a resolved alert; a second person is told who has it. */
export function acknowledgeAlert(life: AlertLife, act: PersonAct): AlertChange | AlertRefusal {
  // Who has it matters more to the second clicker than which version their copy showed.
  if (life.state === 'acknowledged') return { ok: false, reason: 'already_acknowledged', current: life };
  const refused = refuseStale(life, act);
  if (refused) return refused;
  return {
    ok: true,
    life: {
      ...withoutSnooze(life),
      state: 'acknowledged',
      version: life.version + 1,
      acknowledgedBy: act.userId,
      acknowledgedAt: act.at.toISOString(),
    },
    event: { type: 'acknowledged', by: act.userId, at: act.at.toISOString() },
  };
}

/** Snooze: quiet (no reminders) until `until`; the alert stays open or acknowledged. */
export function snoozeAlert(life: AlertLife, act: PersonAct, until: Date): AlertChange | AlertRefusal {
  const refused = refuseStale(life, act);
  if (refused) return refused;
  return {
    ok: true,
    life: { ...life, version: life.version + 1, snoozedUntil: until.toISOString(), snoozedBy: act.userId },
    event: { type: 'snoozed', by: act.userId, at: act.at.toISOString(), until: until.toISOString() },
  };
}

/** Resolve with a note (required unless the deployment made it optional). */
export function resolveAlertByPerson(
  life: AlertLife,
  act: PersonAct,
  note: string,
  noteRequired: boolean,
): AlertChange | AlertRefusal {
  const refused = refuseStale(life, act);
  if (refused) return refused;
  const trimmed = note.trim();
  if (noteRequired && trimmed === '') return { ok: false, reason: 'note_required', current: life };
  return {
    ok: true,
    life: resolved(life, act.at, { by: 'person', userId: act.userId, note: trimmed }),
    event: { type: 'resolved_by_person', by: act.userId, at: act.at.toISOString(), note: trimmed },
  };
}

/**
 * Resolved by the facts (a stuck row that then succeeded, a donor that was refilled). No version check: the
 * facts win over whatever a message showed. An alert already resolved stays as it was (undefined: no change).
 */
export function resolveAlertByFacts(life: AlertLife, at: Date, reason: string): AlertChange | undefined {
  if (life.state === 'resolved') return undefined;
  return {
    ok: true,
    life: resolved(life, at, { by: 'facts', reason }),
    event: { type: 'resolved_by_facts', at: at.toISOString(), reason },
  };
}

/**
 * The alert stops being followed without being handled (too many open at once): it ends like a resolved one
 * (no buttons, no reminders), and the message says plainly that nobody handled it.
 */
export function retireAlert(life: AlertLife, at: Date, openLimit: number): AlertChange | undefined {
  if (life.state === 'resolved') return undefined;
  return {
    ok: true,
    life: resolved(life, at, { by: 'retired', openLimit }),
    event: {
      type: 'update',
      at: at.toISOString(),
      text: `:file_cabinet: No longer followed: more than ${openLimit} alerts were open at once, so the oldest stop being tracked. Nobody marked this one handled: check it by hand.`,
    },
  };
}

function resolved(life: AlertLife, at: Date, resolution: AlertResolution): AlertLife {
  return {
    ...withoutSnooze(life),
    state: 'resolved',
    version: life.version + 1,
    resolvedAt: at.toISOString(),
    resolution,
  };
}

/** Someone has it, or it is over: a snooze no longer applies. */
function withoutSnooze(life: AlertLife): AlertLife {
  const { snoozedUntil: _until, snoozedBy: _by, ...rest } = life;
  return rest;
}

/** When reminders are due (ALERT_REMIND_AFTER, ALERT_STALE_AFTER). */
export interface ReminderPolicy {
  remindAfterMs: number;
  staleAfterMs: number;
}

/** A reminder that is due now: the first or second "nobody has this yet", or "still not resolved". */
export type DueReminder = { kind: 'unacknowledged'; number: 1 | 2 } | { kind: 'stale'; acknowledgedBy: string };

/**
 * The reminder due at `now`, if any: nothing for a resolved or snoozed alert; an open one gets its first
 * reminder `remindAfterMs` after it opened and its second after twice that, no more; an acknowledged one gets
 * one reminder `staleAfterMs` after it was acknowledged. A reminder once sent is never due again.
 */
export function dueReminder(life: AlertLife, now: Date, policy: ReminderPolicy): DueReminder | undefined {
  if (life.state === 'resolved') return undefined;
  if (life.snoozedUntil !== undefined && now.toISOString() < life.snoozedUntil) return undefined;
  const since = (iso: string) => now.getTime() - Date.parse(iso);
  if (life.state === 'open') {
    const sent = life.remindersSent.unacknowledged;
    if (sent >= 2) return undefined;
    const number = (sent + 1) as 1 | 2;
    return since(life.openedAt) >= policy.remindAfterMs * number ? { kind: 'unacknowledged', number } : undefined;
  }
  if (life.remindersSent.stale || life.acknowledgedAt === undefined || life.acknowledgedBy === undefined) {
    return undefined;
  }
  return since(life.acknowledgedAt) >= policy.staleAfterMs
    ? { kind: 'stale', acknowledgedBy: life.acknowledgedBy }
    : undefined;
}

/** Records that `reminder` was sent (the version does not change: the message itself is not rewritten). */
export function markReminderSent(life: AlertLife, reminder: DueReminder): AlertLife {
  const sent = life.remindersSent;
  return {
    ...life,
    remindersSent:
      reminder.kind === 'stale'
        ? { ...sent, stale: true }
        : { ...sent, unacknowledged: Math.max(sent.unacknowledged, reminder.number) },
  };
}
