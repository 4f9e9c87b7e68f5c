/**
 * The alert poller's bookkeeping in the lowdb state file (`alerts`; the file format is unchanged). Each write is
 * one serialized, fsynced `update` of the store.
 */
import type { AlertRepository } from './repository.js';
import { keyedRecord, type AlertsState } from './state.js';
import { cloneJson, type Store } from './store.js';

/** The alert repository over the lowdb store that holds `alerts`. */
export function createLowdbAlertRepository(store: Store<{ alerts: AlertsState }>): AlertRepository {
  return {
    readAlerts: async () => cloneJson(store.read().alerts),
    commitPoll: (apply) => store.update((state) => apply(state.alerts)),
    recordDelivered: (items, at) =>
      store.update((state) => {
        const alerts = state.alerts;
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
      }),
    recordDeliveryFailure: (at, reason) =>
      store.update((state) => {
        state.alerts.lastDelivery = { at: at.toISOString(), ok: false, error: reason };
      }),
    queueThreadWork: (work) =>
      store.update((state) => {
        const queued = state.alerts.threadWork ?? [];
        if (!queued.some((w) => w.threadTs === work.threadTs)) state.alerts.threadWork = [...queued, work];
      }),
    recordThreadPartPosted: (threadTs, part, at) =>
      store.update((state) => {
        const alerts = state.alerts;
        const queued = (alerts.threadWork ?? [])
          .map((w) => (w.threadTs === threadTs ? { ...w, remaining: w.remaining.filter((r) => r.part !== part) } : w))
          .filter((w) => w.remaining.length > 0);
        if (queued.length > 0) alerts.threadWork = queued;
        else delete alerts.threadWork;
        alerts.lastDelivery = { at: at.toISOString(), ok: true };
      }),
  };
}
