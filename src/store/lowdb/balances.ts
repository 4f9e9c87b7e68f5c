/**
 * Balance thresholds, their trail, the daily snapshots and the daily digests in the lowdb state file
 * (`balances`). Each change is one serialized, fsynced `update` of the store.
 */

import type { BalanceRepository } from '../../features/repositories.js';
import { type StoredThreshold, THRESHOLD_TRAIL_RETENTION_MS } from '../../features/thresholds/rules.js';
import { removedEntry, setEntry, snapshotCutoff } from '../balance-changes.js';
import { cloneJson } from '../clone-json.js';
import type { BalancesState } from './bot-state.js';
import type { Store } from './state-file.js';

const own = <V>(record: Record<string, V>, key: string): V | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** The balance repository over the lowdb store that holds `balances`. */
export function createLowdbBalanceRepository(store: Store<{ balances: BalancesState }>): BalanceRepository {
  const read = () => store.read().balances;
  return {
    listThresholds: async () =>
      cloneJson(Object.values(read().thresholds)).sort((a, b) => (a.assetId < b.assetId ? -1 : 1)),
    async setThreshold(threshold, by, at) {
      return store.update((state) => {
        const previous = own(state.balances.thresholds, threshold.assetId);
        const stored: StoredThreshold = { ...cloneJson(threshold), setBy: by, setAt: at.toISOString() };
        state.balances.thresholds[threshold.assetId] = stored;
        state.balances.thresholdChanges.push(setEntry(threshold, previous, by, at));
        pruneTrail(state.balances, at);
        return previous ? { previous: cloneJson(previous) } : {};
      });
    },
    async removeThreshold(assetId, by, at) {
      return store.update((state) => {
        const removed = own(state.balances.thresholds, assetId);
        if (!removed) return {};
        delete state.balances.thresholds[assetId];
        state.balances.thresholdChanges.push(removedEntry(removed, by, at));
        pruneTrail(state.balances, at);
        return { removed: cloneJson(removed) };
      });
    },
    listThresholdChanges: async (since) =>
      cloneJson(read().thresholdChanges.filter((change) => Date.parse(change.at) >= since.getTime())),
    async saveSnapshot(snapshot) {
      await store.update((state) => {
        state.balances.snapshots[snapshot.day] = cloneJson(snapshot);
        pruneDays(state.balances);
      });
    },
    async keepSnapshot(snapshot) {
      return store.update((state) => {
        const existing = own(state.balances.snapshots, snapshot.day);
        if (existing) return { kept: false, snapshot: cloneJson(existing) };
        state.balances.snapshots[snapshot.day] = cloneJson(snapshot);
        pruneDays(state.balances);
        return { kept: true, snapshot: cloneJson(snapshot) };
      });
    },
    listSnapshots: async (fromDay) =>
      cloneJson(
        Object.values(read().snapshots)
          .filter((snapshot) => snapshot.day >= fromDay)
          .sort((a, b) => (a.day < b.day ? -1 : 1)),
      ),
    async claimDigest(record) {
      return store.update((state) => {
        const existing = own(state.balances.digests, record.day);
        if (existing) return { claimed: false, record: cloneJson(existing) };
        state.balances.digests[record.day] = cloneJson(record);
        return { claimed: true, record: cloneJson(record) };
      });
    },
    getDigest: async (day) => {
      const record = own(read().digests, day);
      return record ? cloneJson(record) : undefined;
    },
    async changeDigest(day, change) {
      return store.update((state) => {
        const record = own(state.balances.digests, day);
        if (!record) return undefined;
        const result = change(record);
        return { result, record: cloneJson(record) };
      });
    },
  };
}

/** Trail entries past the retention leave (kept in order, so the oldest are first). */
function pruneTrail(balances: BalancesState, at: Date): void {
  const cutoff = at.getTime() - THRESHOLD_TRAIL_RETENTION_MS;
  balances.thresholdChanges = balances.thresholdChanges.filter((change) => Date.parse(change.at) >= cutoff);
}

/** Snapshots and digests of days past the retention (counted from the newest snapshot) leave. */
function pruneDays(balances: BalancesState): void {
  const newest = Object.keys(balances.snapshots).sort().at(-1);
  if (newest === undefined) return;
  const cutoff = snapshotCutoff(newest);
  for (const day of Object.keys(balances.snapshots)) if (day < cutoff) delete balances.snapshots[day];
  for (const day of Object.keys(balances.digests)) if (day < cutoff) delete balances.digests[day];
}
