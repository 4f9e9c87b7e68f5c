/**
 * The alert poller's bookkeeping in the lowdb state file (`alerts`; the file format is unchanged). Each write is
 * one serialized, fsynced `update` of the store. The changes themselves: ../alert-changes.ts.
 */
import type { AlertsState } from '../../domain/alert-records.js';
import { alertChangeMethods } from '../alert-changes.js';
import { cloneJson } from '../clone-json.js';
import type { AlertRepository } from '../repository.js';
import type { Store } from './state-file.js';

/** The alert repository over the lowdb store that holds `alerts`. */
export function createLowdbAlertRepository(store: Store<{ alerts: AlertsState }>): AlertRepository {
  return {
    readAlerts: async () => cloneJson(store.read().alerts),
    ...alertChangeMethods((apply) => store.update((state) => apply(state.alerts))),
  };
}
