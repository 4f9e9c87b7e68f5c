/**
 * The alert repository's changes as pure functions of the bookkeeping: each mutates `alerts` in place and
 * returns the method's answer. Every storage (the lowdb file, PostgreSQL) runs them inside its own atomic
 * change of the whole bookkeeping, so the rules exist once.
 */
import {
  type AlertsState,
  keyedRecord,
  type OutboxItem,
  type SendAttempt,
  type SendTarget,
  type ThreadWork,
} from '../domain/alert-records.js';
import type { AlertRepository } from './repository.js';

export function recordDelivered(alerts: AlertsState, items: readonly OutboxItem[], at: Date): number {
  const keys = new Set(items.map((item) => item.key));
  alerts.outbox = alerts.outbox.filter((item) => !keys.has(item.key));
  let alerted = 0;
  for (const item of items) {
    // Health messages are not failures: nothing to remember once they are posted.
    if (item.facts.kind === 'api_down' || item.facts.kind === 'api_recovered') continue;
    alerts.alerted[item.key] = { createdAt: item.facts.createdAt, at: at.toISOString() };
    alerted += 1;
  }
  alerts.lastDelivery = { at: at.toISOString(), ok: true };
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

export function recordDeliveryFailure(alerts: AlertsState, at: Date, reason: string): void {
  alerts.lastDelivery = { at: at.toISOString(), ok: false, error: reason };
}

export function queueThreadWork(alerts: AlertsState, work: ThreadWork): void {
  const queued = alerts.threadWork ?? [];
  if (!queued.some((w) => w.threadTs === work.threadTs)) alerts.threadWork = [...queued, work];
}

export function recordThreadPartPosted(alerts: AlertsState, threadTs: string, part: number, at: Date): void {
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
export function recordSending(alerts: AlertsState, target: SendTarget, attempt: SendAttempt | undefined): void {
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

/** A storage's one atomic change of the whole bookkeeping (a failed `apply` changes nothing). */
export type ChangeAlerts = <R>(apply: (alerts: AlertsState) => R) => Promise<R>;

/** Every alert repository method but readAlerts, each one `change` of the storage. */
export function alertChangeMethods(change: ChangeAlerts): Omit<AlertRepository, 'readAlerts'> {
  return {
    commitPoll: (apply) => change(apply),
    recordDelivered: (items, at) => change((alerts) => recordDelivered(alerts, items, at)),
    recordDeliveryFailure: (at, reason) => change((alerts) => recordDeliveryFailure(alerts, at, reason)),
    recordSending: (target, attempt) => change((alerts) => recordSending(alerts, target, attempt)),
    queueThreadWork: (work) => change((alerts) => queueThreadWork(alerts, work)),
    recordThreadPartPosted: (threadTs, part, at) =>
      change((alerts) => recordThreadPartPosted(alerts, threadTs, part, at)),
  };
}
