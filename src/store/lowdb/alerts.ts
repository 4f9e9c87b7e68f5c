/**
 * The alert poller's bookkeeping in the lowdb state file (`alerts`; the file format is unchanged). Each write is
 * one serialized, fsynced `update` of the store. The changes themselves: ../alert-changes.ts. The same update
 * appends what the change did to alerts people own to the alert trail (`alertTrail`).
 */
import { openAlertCounts } from '../../features/alerts/owned.js';
import type { AlertsState } from '../../features/alerts/records.js';
import { type AlertTrailEntry, alertTrailEntries, trailCutoff, trailMarks } from '../../features/alerts/trail.js';
import type { AlertRepository } from '../../features/repositories.js';
import { alertChangeMethods } from '../alert-changes.js';
import { cloneJson } from '../clone-json.js';
import type { StoredAlertTrailEntry } from './bot-state.js';
import type { Store } from './state-file.js';

/** The alert repository over the lowdb store that holds `alerts` and the alert trail. */
export function createLowdbAlertRepository(
  store: Store<{ alerts: AlertsState; alertTrail: StoredAlertTrailEntry[] }>,
): AlertRepository {
  return {
    readAlerts: async () => cloneJson(store.read().alerts),
    // The state as loaded (checked then), read in place: no copy of the whole bookkeeping.
    countOpenAlerts: async (now) => openAlertCounts(store.read().alerts.owned, now),
    ...alertChangeMethods((apply) =>
      store.update((state) => {
        const before = trailMarks(state.alerts);
        const result = apply(state.alerts);
        appendToTrail(state, alertTrailEntries(before, state.alerts));
        return result;
      }),
    ),
  };
}

/** Appends `entries`, numbered after the last one; entries past the retention leave (the oldest are first). */
function appendToTrail(state: { alertTrail: StoredAlertTrailEntry[] }, entries: readonly AlertTrailEntry[]): void {
  if (entries.length === 0) return;
  let seq = state.alertTrail.at(-1)?.seq ?? 0;
  for (const entry of entries) state.alertTrail.push({ ...entry, seq: ++seq });
  const newest = entries
    .map((entry) => entry.at)
    .sort()
    .at(-1)!;
  const cutoff = trailCutoff(newest);
  if ((state.alertTrail[0]?.at ?? cutoff) < cutoff)
    state.alertTrail = state.alertTrail.filter((entry) => entry.at >= cutoff);
}
