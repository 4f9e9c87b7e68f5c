/**
 * The balance repository's rules shared by both stores: the trail entry a threshold change writes, and which
 * snapshot days are kept. Pure.
 */

import { oldestKeptDay } from '../features/digest/records.js';
import type { BalanceThreshold, StoredThreshold, ThresholdChange } from '../features/thresholds/rules.js';

/** The threshold as the trail shows it (without who set it: the entry says who). */
function thresholdOnly(stored: StoredThreshold): BalanceThreshold {
  const { setBy: _by, setAt: _at, ...threshold } = stored;
  return threshold;
}

/** The trail entry of setting `threshold` over `previous`. */
export function setEntry(
  threshold: BalanceThreshold,
  previous: StoredThreshold | undefined,
  by: string,
  at: Date,
): ThresholdChange {
  return {
    at: at.toISOString(),
    by,
    action: 'set',
    assetId: threshold.assetId,
    threshold,
    ...(previous ? { previous: thresholdOnly(previous) } : {}),
  };
}

/** The trail entry of removing `removed`. */
export function removedEntry(removed: StoredThreshold, by: string, at: Date): ThresholdChange {
  return { at: at.toISOString(), by, action: 'removed', assetId: removed.assetId, previous: thresholdOnly(removed) };
}

/** Days before this one leave the store once a snapshot of `newestDay` is kept. */
export function snapshotCutoff(newestDay: string): string {
  return oldestKeptDay(newestDay);
}
