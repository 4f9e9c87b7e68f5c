/**
 * The alert poller's bookkeeping in the lowdb state file (`alerts`; the file format is unchanged). Each write is
 * one serialized, fsynced `update` of the store.
 */
import type { AlertRepository } from './repository.js';
import type { AlertsState } from './state.js';
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
        return alerted;
      }),
    recordDeliveryFailure: (at, reason) =>
      store.update((state) => {
        state.alerts.lastDelivery = { at: at.toISOString(), ok: false, error: reason };
      }),
  };
}
