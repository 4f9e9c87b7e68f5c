/**
 * The alert repository's changes as pure functions of the bookkeeping: each mutates `alerts` in place and
 * returns the method's answer. Every storage (the lowdb file, PostgreSQL) runs them inside its own atomic
 * change of the whole bookkeeping, so the rules exist once.
 */

import { kindOf } from '../features/alerts/kinds/index.js';
import {
  type AlertChange,
  type AlertRefusal,
  dueReminder,
  markReminderSent,
  retireAlert,
} from '../features/alerts/lifecycle.js';
import {
  appendEvent,
  findByRef,
  isOwnable,
  mayForget,
  newOwnedAlert,
  OWNED_ALERT_POLICY,
  objectsOf,
  oldestFirst,
  threadLineKey,
} from '../features/alerts/owned.js';
import {
  type AlertsState,
  keyedRecord,
  type OutboxItem,
  type OwnedAlert,
  type RefusingChannel,
  type SendAttempt,
  type SendTarget,
  type ThreadLine,
  type ThreadWork,
} from '../features/alerts/records.js';
import type {
  ActOutcome,
  AlertRepository,
  DueReminderPlan,
  PostedMessage,
  SyncClaim,
} from '../features/repositories.js';

export function recordDelivered(
  alerts: AlertsState,
  items: readonly OutboxItem[],
  at: Date,
  posted?: PostedMessage,
): number {
  // Slack accepted the message: from now on it is an alert people own (unless it only says the API is back).
  if (posted && items.length > 0 && isOwnable(items[0]!.facts)) {
    alerts.owned ??= keyedRecord<OwnedAlert>();
    if (!Object.hasOwn(alerts.owned, posted.key)) {
      const alert = newOwnedAlert({
        key: posted.key,
        items,
        channel: posted.channel,
        ts: posted.ts,
        at,
        ...(posted.redirectedFrom ? { redirectedFrom: posted.redirectedFrom } : {}),
      });
      // Failures that joined the incident while it waited for Slack: its thread tells them, and it is about them.
      const keys = new Set(items.map((item) => item.key));
      for (const item of alerts.outbox.filter((stored) => keys.has(stored.key)))
        for (const told of item.told ?? []) {
          appendEvent(alert, told.event);
          alert.objects = [...new Set([...alert.objects, ...objectsOf(told.facts)])];
        }
      alerts.owned[posted.key] = alert;
      retireBeyondLimit(alerts, at);
    }
  }
  const keys = new Set(items.map((item) => item.key));
  alerts.outbox = alerts.outbox.filter((item) => !keys.has(item.key));
  let alerted = 0;
  for (const item of items) {
    // Only alerts about one row are remembered once posted (health, balance and runway incidents are not rows), and
    // only failures are counted (a row stuck in pending is not one): `/treasury alerts` counts failures.
    const kind = kindOf(item.facts);
    if (!kind.summary || !('createdAt' in item.facts)) continue;
    alerts.alerted[item.key] = { createdAt: item.facts.createdAt, at: at.toISOString() };
    if (kind.failure) alerted += 1;
  }
  alerts.lastDelivery = { at: at.toISOString(), ok: true };
  if (posted) channelAccepted(alerts, posted.channel);
  if (alerted > 0) {
    // Counted per hour for `/treasury alerts` (the keys in `alerted` are pruned once no read can meet them).
    const hour = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000).toISOString();
    alerts.sentPerHour ??= keyedRecord<number>();
    alerts.sentPerHour[hour] = (alerts.sentPerHour[hour] ?? 0) + alerted;
    const cutoff = new Date(at.getTime() - 25 * 3_600_000).toISOString();
    for (const key of Object.keys(alerts.sentPerHour)) if (key < cutoff) delete alerts.sentPerHour[key];
  }
  return alerted;
}

function recordDeliveryFailure(
  alerts: AlertsState,
  at: Date,
  reason: string,
  refused?: { channel: string; error: string },
): void {
  alerts.lastDelivery = { at: at.toISOString(), ok: false, error: reason };
  if (!refused) return;
  alerts.refusingChannels ??= keyedRecord<RefusingChannel>();
  const since = alerts.refusingChannels[refused.channel]?.since ?? at.toISOString();
  alerts.refusingChannels[refused.channel] = { error: refused.error, since, at: at.toISOString() };
}

/** Slack accepted a post in `channel`: whatever refusal was recorded for it is over. */
function channelAccepted(alerts: AlertsState, channel: string | undefined): void {
  if (channel === undefined || !alerts.refusingChannels || !Object.hasOwn(alerts.refusingChannels, channel)) return;
  delete alerts.refusingChannels[channel];
  if (Object.keys(alerts.refusingChannels).length === 0) delete alerts.refusingChannels;
}

function forgetRefusingChannels(alerts: AlertsState, keep: readonly string[]): void {
  for (const channel of Object.keys(alerts.refusingChannels ?? {}))
    if (!keep.includes(channel)) channelAccepted(alerts, channel);
}

function queueThreadWork(alerts: AlertsState, work: ThreadWork): void {
  const queued = alerts.threadWork ?? [];
  if (!queued.some((w) => w.threadTs === work.threadTs)) alerts.threadWork = [...queued, work];
}

function recordThreadPartPosted(alerts: AlertsState, threadTs: string, part: number, at: Date): void {
  channelAccepted(alerts, alerts.threadWork?.find((w) => w.threadTs === threadTs)?.channel);
  const queued = (alerts.threadWork ?? [])
    .map((w) => (w.threadTs === threadTs ? { ...w, remaining: w.remaining.filter((r) => r.part !== part) } : w))
    .filter((w) => w.remaining.length > 0);
  if (queued.length > 0) alerts.threadWork = queued;
  else delete alerts.threadWork;
  alerts.lastDelivery = { at: at.toISOString(), ok: true };
}

/**
 * Marks the target as possibly posted (`attempt`), or clears the mark (`undefined`: Slack refused the post, so
 * it was not posted). Items or parts that are no longer waiting are left alone.
 */
function recordSending(alerts: AlertsState, target: SendTarget, attempt: SendAttempt | undefined): void {
  if ('itemKeys' in target) {
    const keys = new Set(target.itemKeys);
    alerts.outbox = alerts.outbox.map((item) => {
      if (!keys.has(item.key)) return item;
      const { sending: _previous, ...rest } = item;
      return attempt === undefined ? rest : { ...rest, sending: attempt };
    });
    return;
  }
  if (alerts.threadWork === undefined) return;
  alerts.threadWork = alerts.threadWork.map((work) =>
    work.threadTs !== target.threadTs
      ? work
      : {
          ...work,
          remaining: work.remaining.map((part) => {
            if (part.part !== target.part) return part;
            const { sending: _previous, ...rest } = part;
            return attempt === undefined ? rest : { ...rest, sending: attempt };
          }),
        },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Alerts people own.

/** A person's act on the alert `ref` names: applied when the lifecycle allows it, with its thread line. */
function actOnAlert(
  alerts: AlertsState,
  ref: string,
  act: (alert: OwnedAlert) => AlertChange | AlertRefusal,
): ActOutcome {
  const alert = findByRef(alerts.owned, ref);
  if (!alert) return { found: false };
  const outcome = act(alert);
  if (!outcome.ok) return { found: true, ok: false, refusal: outcome, alert: structuredClone(alert) };
  alert.life = outcome.life;
  appendEvent(alert, outcome.event);
  return { found: true, ok: true, alert: structuredClone(alert) };
}

/**
 * Claims the Slack work this alert owes: its thread lines not being posted by anyone (each marked `sending`
 * from `at`, so no other replica posts it too), at most OWNED_ALERT_POLICY.threadLinesPerSync. The rewrite needs
 * no claim (chat.update with the record's state is the same whoever sends it).
 */
function claimAlertSync(alerts: AlertsState, key: string, at: Date): SyncClaim | undefined {
  const alert = alerts.owned?.[key];
  if (!alert || !Object.hasOwn(alerts.owned!, key)) return undefined;
  const lines: ThreadLine[] = [];
  for (const line of alert.thread) {
    if (lines.length >= OWNED_ALERT_POLICY.threadLinesPerSync) break;
    if (line.sending !== undefined) break; // an earlier line may be in Slack already: keep the order
    line.sending = { key: threadLineKey(key, line.seq), since: at.toISOString() };
    lines.push(structuredClone(line));
  }
  return { alert: structuredClone(alert), lines };
}

/** Slack accepted a thread line (`posted`), or refused it (`refused`: it is not there, so it may go again). */
function recordThreadLine(alerts: AlertsState, key: string, seq: number, outcome: 'posted' | 'refused'): void {
  const alert = alerts.owned?.[key];
  if (!alert) return;
  if (outcome === 'posted') alert.thread = alert.thread.filter((line) => line.seq !== seq);
  else
    alert.thread = alert.thread.map((line) => {
      if (line.seq !== seq) return line;
      const { sending: _sending, ...rest } = line;
      return rest;
    });
}

/** Slack shows `version` of the alert now; answers the alert as it stands (it may have moved on meanwhile). */
function recordShown(alerts: AlertsState, key: string, version: number): OwnedAlert | undefined {
  const alert = alerts.owned?.[key];
  if (!alert) return undefined;
  alert.shown = Math.max(alert.shown, version);
  return structuredClone(alert);
}

/**
 * The alert's message is being posted again (it was gone), or that attempt was refused (`undefined`). With `seen`
 * (the message and the attempt the caller's copy of the alert showed), the attempt is recorded only while the alert
 * still shows both: two that found the message gone at once (clicks on two replicas, a click and the poll) post it
 * again once. Answers whether it was recorded.
 */
function recordReposting(
  alerts: AlertsState,
  key: string,
  attempt: SendAttempt | undefined,
  seen?: { ts: string; attempt?: SendAttempt },
): boolean {
  const alert = alerts.owned?.[key];
  if (!alert) return false;
  if (attempt === undefined) {
    delete alert.reposting;
    return true;
  }
  const moved =
    seen !== undefined &&
    (alert.ts !== seen.ts ||
      alert.reposting?.key !== seen.attempt?.key ||
      alert.reposting?.since !== seen.attempt?.since);
  if (moved) return false;
  alert.reposting = attempt;
  return true;
}

/**
 * The alert's message was posted again at `ts` (in `channel`): it shows `version`, and the thread tells why.
 * Lines still owed now go to the new thread.
 */
function recordReposted(
  alerts: AlertsState,
  key: string,
  posted: { channel: string; ts: string; version: number },
  at: Date,
): void {
  const alert = alerts.owned?.[key];
  if (!alert) return;
  // Recorded already (two that looked for the same lost post both found it): one relink, one line.
  if (alert.channel === posted.channel && alert.ts === posted.ts) return;
  alert.channel = posted.channel;
  alert.ts = posted.ts;
  alert.shown = Math.max(alert.shown, posted.version);
  delete alert.reposting;
  alert.thread = alert.thread.map(({ sending: _sending, ...line }) => line);
  appendEvent(alert, { type: 'reposted', at: at.toISOString() });
}

/**
 * Every reminder due at `now`, decided and queued in this one change (a thread line each, marked as sent on
 * the alert): after a crash the line is still queued, and the decision is never made twice.
 */
function queueDueReminders(alerts: AlertsState, now: Date, plan: DueReminderPlan): string[] {
  const queued: string[] = [];
  for (const alert of Object.values(alerts.owned ?? {})) {
    // A snooze that ended: the message must stop saying "snoozed" (a new version is drawn), and reminders resume.
    if (alert.life.snoozedUntil !== undefined && alert.life.snoozedUntil <= now.toISOString()) {
      const { snoozedUntil: _until, snoozedBy: _by, ...life } = alert.life;
      alert.life = { ...life, version: life.version + 1 };
    }
    const due = dueReminder(alert.life, now, plan.policy(alert));
    if (!due) continue;
    alert.life = markReminderSent(alert.life, due);
    const at = now.toISOString();
    appendEvent(
      alert,
      due.kind === 'unacknowledged'
        ? {
            type: 'reminder_unacknowledged',
            at,
            number: due.number,
            openedAt: alert.life.openedAt,
            mentions: plan.mentions(alert),
          }
        : {
            type: 'reminder_stale',
            at,
            acknowledgedBy: due.acknowledgedBy,
            acknowledgedAt: alert.life.acknowledgedAt ?? at,
          },
    );
    queued.push(alert.key);
  }
  return queued;
}

/** More alerts open than OWNED_ALERT_POLICY.maxOpen: the oldest are retired, saying so (see retireAlert). */
function retireBeyondLimit(alerts: AlertsState, at: Date): void {
  const open = Object.values(alerts.owned ?? {})
    .filter((alert) => alert.life.state !== 'resolved')
    .sort(oldestFirst);
  for (const alert of open.slice(0, Math.max(0, open.length - OWNED_ALERT_POLICY.maxOpen))) {
    const change = retireAlert(alert.life, at, OWNED_ALERT_POLICY.maxOpen);
    if (!change) continue;
    alert.life = change.life;
    appendEvent(alert, change.event);
  }
}

/** Resolved alerts whose retention passed, and whose message and thread are up to date, leave the hot state. */
export function pruneOwned(alerts: AlertsState, now: Date): void {
  if (!alerts.owned) return;
  for (const [key, alert] of Object.entries(alerts.owned)) if (mayForget(alert, now)) delete alerts.owned[key];
  if (Object.keys(alerts.owned).length === 0) delete alerts.owned;
}

/** A storage's one atomic change of the whole bookkeeping (a failed `apply` changes nothing). */
export type ChangeAlerts = <R>(apply: (alerts: AlertsState) => R) => Promise<R>;

/** Every alert repository method but the reads, each one `change` of the storage. */
export function alertChangeMethods(change: ChangeAlerts): Omit<AlertRepository, 'readAlerts' | 'countOpenAlerts'> {
  return {
    commitPoll: (apply) => change(apply),
    recordDelivered: (items, at, posted) => change((alerts) => recordDelivered(alerts, items, at, posted)),
    recordDeliveryFailure: (at, reason, refused) =>
      change((alerts) => recordDeliveryFailure(alerts, at, reason, refused)),
    forgetRefusingChannels: (keep) => change((alerts) => forgetRefusingChannels(alerts, keep)),
    recordSending: (target, attempt) => change((alerts) => recordSending(alerts, target, attempt)),
    queueThreadWork: (work) => change((alerts) => queueThreadWork(alerts, work)),
    recordThreadPartPosted: (threadTs, part, at) =>
      change((alerts) => recordThreadPartPosted(alerts, threadTs, part, at)),
    actOnAlert: (ref, act) => change((alerts) => actOnAlert(alerts, ref, act)),
    claimAlertSync: (key, at) => change((alerts) => claimAlertSync(alerts, key, at)),
    recordThreadLine: (key, seq, outcome) => change((alerts) => recordThreadLine(alerts, key, seq, outcome)),
    recordShown: (key, version) => change((alerts) => recordShown(alerts, key, version)),
    recordReposting: (key, attempt, seen) => change((alerts) => recordReposting(alerts, key, attempt, seen)),
    recordReposted: (key, posted, at) => change((alerts) => recordReposted(alerts, key, posted, at)),
    queueDueReminders: (now, plan) => change((alerts) => queueDueReminders(alerts, now, plan)),
  };
}
