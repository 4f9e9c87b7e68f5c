/**
 * The alert trail: one entry for each thing that happened to an alert people own (posted, acknowledged,
 * snoozed, resolved by a person with a note or by the facts with the reason, retired), kept ALERT_TRAIL_RETENTION_MS.
 * The alert itself leaves the hot state 7 days after it was resolved, and each thread line leaves the record once
 * Slack has it: the trail is what the audit export reads. The stores append its entries in the same atomic change as
 * the alert change, found by comparing the owned alerts before and after it (alertTrailEntries). Pure.
 */
import { z } from 'zod';
import { kindOf } from './kinds/index.js';
import type { Described } from './kinds/kind.js';
import type { AlertEvent } from './lifecycle.js';
import type { AlertSubject, AlertsState, OwnedAlert } from './records.js';
import { ROUTE_KINDS } from './routing.js';

/** Trail entries are kept this long (as the threshold trail is), then leave the store. */
export const ALERT_TRAIL_RETENTION_MS = 400 * 86_400_000;

/** What the trail records. Reminders, reposts and other thread lines are Slack chatter, not decisions: left out. */
const ALERT_TRAIL_EVENTS = [
  'posted',
  'acknowledged',
  'snoozed',
  'resolved_by_person',
  'resolved_by_facts',
  'retired',
] as const;

/** One thing that happened to an alert. Times are ISO-8601 UTC. */
export const AlertTrailEntry = z.object({
  at: z.string(),
  alertKey: z.string(),
  kind: z.enum(ROUTE_KINDS),
  event: z.enum(ALERT_TRAIL_EVENTS),
  /** The person who acted (acknowledged, snoozed, resolved). */
  by: z.string().optional(),
  /** snoozed: until when. */
  until: z.string().optional(),
  /** resolved_by_person: the note. */
  note: z.string().optional(),
  /** resolved_by_facts: why; retired: the open-alert limit that retired it. */
  reason: z.string().optional(),
  /** posted: what the alert is about, in plain words. */
  about: z.string().optional(),
  /** posted, about one amount: the asset (`SYMBOL@NETWORK`), the amount in token units and base units, its USD value. */
  asset: z.string().optional(),
  amount: z.string().optional(),
  amountUnits: z.string().optional(),
  usd: z.string().optional(),
  /** posted: where the message is. */
  channel: z.string().optional(),
  ts: z.string().optional(),
});
export type AlertTrailEntry = z.infer<typeof AlertTrailEntry>;

/** What the trail needs to know of each owned alert before a change: the next thread seq, and whether it was resolved. */
export type TrailMarks = ReadonlyMap<string, { nextSeq: number; resolved: boolean }>;

/** The owned alerts' marks before a change (cheap: two fields per alert in the hot state). */
export function trailMarks(alerts: Pick<AlertsState, 'owned'>): TrailMarks {
  const marks = new Map<string, { nextSeq: number; resolved: boolean }>();
  for (const alert of Object.values(alerts.owned ?? {}))
    marks.set(alert.key, { nextSeq: alert.nextSeq, resolved: alert.life.state === 'resolved' });
  return marks;
}

/**
 * The trail entries of one change of the bookkeeping: an owned alert that was not there before was posted; every
 * thread event queued since (its seq at or after the alert's nextSeq before) is one entry, when it is one the
 * trail records; an alert that became resolved by retirement is `retired`. Alerts that left (pruned) add nothing.
 */
export function alertTrailEntries(before: TrailMarks, after: Pick<AlertsState, 'owned'>): AlertTrailEntry[] {
  const entries: AlertTrailEntry[] = [];
  for (const alert of Object.values(after.owned ?? {})) {
    const mark = before.get(alert.key);
    if (mark === undefined) entries.push(postedEntry(alert));
    for (const line of alert.thread) {
      if (line.seq < (mark?.nextSeq ?? 1)) continue;
      const entry = entryOf(alert, line.event);
      if (entry) entries.push(entry);
    }
    const resolution = alert.life.resolution;
    if (!mark?.resolved && alert.life.state === 'resolved' && resolution?.by === 'retired')
      entries.push({
        ...base(alert, alert.life.resolvedAt ?? alert.postedAt, 'retired'),
        reason: `more than ${resolution.openLimit} alerts were open at once; nobody marked it handled`,
      });
  }
  return entries;
}

function base(alert: OwnedAlert, at: string, event: AlertTrailEntry['event']): AlertTrailEntry {
  return { at, alertKey: alert.key, kind: alert.kind, event };
}

function entryOf(alert: OwnedAlert, event: AlertEvent): AlertTrailEntry | undefined {
  switch (event.type) {
    case 'acknowledged':
      return { ...base(alert, event.at, 'acknowledged'), by: event.by };
    case 'snoozed':
      return { ...base(alert, event.at, 'snoozed'), by: event.by, until: event.until };
    case 'resolved_by_person':
      return { ...base(alert, event.at, 'resolved_by_person'), by: event.by, note: event.note };
    case 'resolved_by_facts':
      return { ...base(alert, event.at, 'resolved_by_facts'), reason: event.reason };
    default:
      return undefined;
  }
}

function postedEntry(alert: OwnedAlert): AlertTrailEntry {
  return {
    ...base(alert, alert.postedAt, 'posted'),
    ...describeSubject(alert.subject),
    channel: alert.channel,
    ts: alert.ts,
  };
}

/** What an alert is about, in plain words, with its one amount when it has one (its kind's `about`). */
export function describeSubject(subject: AlertSubject): Described {
  if (subject.type === 'summary') return { about: `${subject.total} ${subject.kind} alerts in one summary message` };
  return kindOf(subject.facts).owned!.about(subject);
}

/** Entries older than this leave the trail once an entry of `newestAt` is written (ISO, compares as text). */
export function trailCutoff(newestAt: string): string {
  const newest = Date.parse(newestAt);
  return Number.isNaN(newest) ? '' : new Date(newest - ALERT_TRAIL_RETENTION_MS).toISOString();
}
