// ---------------------------------------------------------------------------------------------------------
// Alerts people own: what an alert is about, how it is routed, and the fixed rules of keeping them.
// Pure: the poller and the store build records with these, the builders read them.

import { compareText } from '../../kernel/compare.js';
import { type AlertFacts, type FailureFacts, kindOf } from './kinds/index.js';
import type { StuckFacts } from './kinds/stuck.js';
import { type AlertEvent, type AlertLife, openAlertLife } from './lifecycle.js';
import type { AlertSubject, OwnedAlert, RedirectedFrom, OutboxItem as StoredOutboxItem } from './records.js';
import type { RouteKind } from './routing.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The fixed rules of owned alerts (documented in docs/features/alerts.md). */
export const OWNED_ALERT_POLICY = {
  /**
   * A resolved alert stays in the hot state this long after it was resolved (so a late click is still answered
   * with who resolved it, and `/treasury alerts` can count it), then leaves it once Slack shows its last state.
   */
  resolvedRetentionMs: 7 * DAY,
  /** Thread lines and rewrites a replica posts for one alert in one go; the rest at the next poll. */
  threadLinesPerSync: 10,
  /** A block_id (and so an alert reference in a click) may be at most 255 characters. */
  maxRefLength: 200,
  /** A summary message lists at most this many (the full list goes to its thread). */
  summaryListCap: 20,
  /**
   * Alerts followed while not resolved, at most: beyond it the oldest is retired (its message says nobody
   * handled it). A team with this many open alerts is not reading them one by one; the state stays bounded.
   */
  maxOpen: 200,
} as const;

/** The metadata event type of every alert message and thread line; its payload's `key` names the post. */
export const ALERT_EVENT_TYPE = 'treasury_alert';

/** The metadata key of an alert's thread line: found again after a lost answer. */
export function threadLineKey(alertKey: string, seq: number): string {
  return `line:${seq}:${alertKey}`;
}

/** Queues one thread line on the alert (changes `alert`): the thread tells every change. */
export function appendEvent(alert: OwnedAlert, event: AlertEvent): void {
  alert.thread.push({ seq: alert.nextSeq, event });
  alert.nextSeq += 1;
}

/** The routing kind of what an outbox item says. */
export function routingKindOf(facts: AlertFacts): RouteKind {
  return kindOf(facts).route as RouteKind;
}

/** What an alert is about, so that later events about the same thing go into its thread (see its kind's `objects`). */
export function objectsOf(facts: AlertFacts): string[] {
  return kindOf(facts).objects(facts);
}

/** What the message of items posted together shows: its kind's subject for one, or a summary of a flood. */
export function subjectOf(
  items: readonly Pick<StoredOutboxItem, 'facts'>[],
  listCap: number = OWNED_ALERT_POLICY.summaryListCap,
): AlertSubject {
  const first = items[0]!.facts;
  const owned = kindOf(first).owned;
  if (items.length === 1 && owned) return owned.subject(first);
  const listed = items
    .map((item) => item.facts)
    .filter((facts): facts is FailureFacts | StuckFacts => kindOf(facts).summary !== undefined)
    .sort((a, b) => compareText(b.createdAt, a.createdAt) || compareText(a.id, b.id))
    .slice(0, listCap);
  return { type: 'summary', kind: first.kind as (FailureFacts | StuckFacts)['kind'], total: items.length, listed };
}

/** Whether an outbox item becomes an alert people own (health messages about recovery do not). */
export function isOwnable(facts: AlertFacts): boolean {
  return kindOf(facts).owned !== undefined;
}

/** A new owned alert for a message Slack accepted. */
export function newOwnedAlert(input: {
  key: string;
  items: readonly Pick<StoredOutboxItem, 'facts'>[];
  channel: string;
  ts: string;
  at: Date;
  /** Posted in ALERT_CHANNEL because its route refused it for good. */
  redirectedFrom?: RedirectedFrom;
}): OwnedAlert {
  const facts = input.items[0]!.facts;
  return {
    key: input.key,
    kind: routingKindOf(facts),
    objects: [...new Set(input.items.flatMap((item) => objectsOf(item.facts)))],
    channel: input.channel,
    ts: input.ts,
    postedAt: input.at.toISOString(),
    subject: subjectOf(input.items),
    life: openAlertLife(input.at),
    shown: 0,
    thread: [],
    nextSeq: 1,
    ...(input.redirectedFrom ? { redirectedFrom: input.redirectedFrom } : {}),
  };
}

/** The alert as its first message shows it, before Slack has it (the message is built from this). */
export function firstView(key: string, items: readonly Pick<StoredOutboxItem, 'facts'>[], at: Date): AlertView {
  const facts = items[0]!.facts;
  return { key, kind: routingKindOf(facts), subject: subjectOf(items), life: openAlertLife(at) };
}

/** What a message is built from: the alert's key, kind, subject and life. */
export type AlertView = Pick<OwnedAlert, 'key' | 'kind' | 'subject' | 'life'>;

/**
 * The reference a click carries to name its alert: the key itself, or for an unreasonably long key (ids come
 * from the API) a shortened form with a checksum, which the store matches against the keys it holds.
 */
export function alertRef(key: string): string {
  if (key.length <= OWNED_ALERT_POLICY.maxRefLength) return key;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${key.slice(0, 150)}~${key.length}~${hash.toString(16)}`;
}

/** The owned alert a click's reference names, if the store still holds it. */
export function findByRef(owned: Record<string, OwnedAlert> | undefined, ref: string): OwnedAlert | undefined {
  if (!owned) return undefined;
  if (Object.hasOwn(owned, ref)) return owned[ref];
  if (!ref.includes('~')) return undefined;
  return Object.values(owned).find((alert) => alertRef(alert.key) === ref);
}

/** An open (not resolved) owned alert about one of `objects`, the oldest first; undefined when there is none. */
export function openAlertAbout(
  owned: Record<string, OwnedAlert> | undefined,
  objects: readonly string[],
): OwnedAlert | undefined {
  if (!owned) return undefined;
  const wanted = new Set(objects);
  return Object.values(owned)
    .filter((alert) => alert.life.state !== 'resolved' && alert.objects.some((object) => wanted.has(object)))
    .sort(oldestFirst)[0];
}

/** Alerts in the order they were posted (ties by key): the order of `/treasury alerts open` and of retiring. */
export function oldestFirst(a: Pick<OwnedAlert, 'postedAt' | 'key'>, b: Pick<OwnedAlert, 'postedAt' | 'key'>): number {
  return compareText(a.postedAt, b.postedAt) || compareText(a.key, b.key);
}

/** Whether Slack shows everything about this alert: no rewrite owed, no thread line waiting, nothing reposting. */
export function slackIsCurrent(alert: OwnedAlert): boolean {
  return alert.shown >= alert.life.version && alert.thread.length === 0 && alert.reposting === undefined;
}

/** Whether a resolved alert may leave the hot state at `now`. */
export function mayForget(alert: OwnedAlert, now: Date): boolean {
  const life: AlertLife = alert.life;
  if (life.state !== 'resolved' || life.resolvedAt === undefined) return false;
  return slackIsCurrent(alert) && now.getTime() - Date.parse(life.resolvedAt) >= OWNED_ALERT_POLICY.resolvedRetentionMs;
}

/**
 * Alerts not resolved, by state: `snoozed` while a snooze runs at `now`, else `open` or `acknowledged` (the
 * `treasury_alerts_open` gauge). The PostgreSQL store counts the same in SQL (countOpenAlerts).
 */
export function openAlertCounts(
  owned: Readonly<Record<string, { life: Pick<AlertLife, 'state' | 'snoozedUntil'> }>> | undefined,
  now: Date,
): Record<string, number> {
  const counts: Record<string, number> = {};
  if (owned === undefined) return counts;
  // Keys, then each value: Object.values is several times slower on a large prototype-free record (V8).
  for (const key of Object.keys(owned)) {
    const { life } = owned[key]!;
    if (life.state === 'resolved') continue;
    const snoozed = life.snoozedUntil !== undefined && Date.parse(life.snoozedUntil) > now.getTime();
    const state = snoozed ? 'snoozed' : life.state;
    counts[state] = (counts[state] ?? 0) + 1;
  }
  return counts;
}
