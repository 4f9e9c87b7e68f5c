/**
 * Balance thresholds in the poll: one `assets` read per poll, only while a threshold exists, and the
 * crossings it shows applied to the alert state in the poll's one commit.
 *
 * - A balance going below its threshold queues one `balance_low` alert and marks the asset low
 *   (`balancesLow`), in the same commit: a restart neither repeats nor loses the crossing.
 * - A low balance back at the recovery level (the threshold plus RECOVERY_MARGIN_PERCENT) resolves that alert
 *   by the facts; a balance hovering around the threshold raises no second alert.
 * - A removed threshold ends its alert; an alert still waiting for Slack that no longer applies is dropped.
 * - Gas top-ups short of donor balance while the donor asset is low are told in that alert's thread (commit.ts
 *   asks {@link openLowBalanceAlertForGas}).
 */

import { formatTokenAmount, formatUsd } from '../../../blocks/format.js';
import type { Asset } from '../../../payments/index.js';
import { levelLabel, thresholdLabel } from '../../thresholds/blocks.js';
import { judgeReading, measuredValue, recoveryLevel, type StoredThreshold } from '../../thresholds/rules.js';
import type { BalanceLowFacts } from '../kinds/balance-low.js';
import type { FailureFacts } from '../kinds/index.js';
import { resolveAlertByFacts } from '../lifecycle.js';
import { appendEvent } from '../owned.js';
import { type AlertsState, keyedRecord, type OutboxItem, type OwnedAlert } from '../records.js';
import { describeReadError } from './read-error.js';

/** An asset as the thresholds need it. */
export interface AssetReading {
  symbol: string;
  network: string;
  decimals: number;
  balance: string;
  balanceInUsd: string | null;
}

/** What the poll read for the thresholds: the thresholds, and the assets (or why they could not be read). */
export interface BalancesRead {
  thresholds: StoredThreshold[];
  /** Absent when no threshold is set (no request is made). */
  assets?: { ok: true; byId: Map<string, AssetReading> } | { ok: false; code: string; message: string };
}

/** The reading of one asset from the asset list. */
function readingOf(asset: Asset): AssetReading {
  return {
    symbol: asset.crypto.symbol,
    network: asset.network.symbol,
    decimals: asset.crypto.decimals,
    balance: asset.balance,
    balanceInUsd: asset.balanceInUsd ?? null,
  };
}

/** Reads the thresholds and, only when one is set, the asset list (one request). Never throws for the API. */
export async function readBalances(
  listThresholds: () => Promise<StoredThreshold[]>,
  listAssets: () => Promise<readonly Asset[]>,
): Promise<BalancesRead> {
  const thresholds = await listThresholds();
  if (thresholds.length === 0) return { thresholds };
  try {
    const assets = await listAssets();
    return { thresholds, assets: { ok: true, byId: new Map(assets.map((asset) => [asset.id, readingOf(asset)])) } };
  } catch (error) {
    return { thresholds, assets: { ok: false, ...describeReadError(error) } };
  }
}

/** The outbox key of the low-balance alert raised for `assetId` at `at`. */
export function lowBalanceKey(assetId: string, at: string): string {
  return `balance_low:${assetId}:${at}`;
}

/**
 * Applies a balances read to the state (inside the poll's commit; pure). `enqueue` queues a new alert. Returns
 * how many crossings were queued.
 */
export function commitBalances(
  alerts: AlertsState,
  read: BalancesRead,
  now: Date,
  enqueue: (item: OutboxItem) => void,
): number {
  const nowIso = now.toISOString();
  const thresholds = new Map(read.thresholds.map((threshold) => [threshold.assetId, threshold]));
  const low = alerts.balancesLow ?? keyedRecord();
  let crossings = 0;
  for (const [assetId, entry] of Object.entries(low)) {
    const threshold = thresholds.get(assetId);
    // Removed, or changed since the asset went low: that alert ends, and the balance is judged afresh.
    if (!threshold || (entry.below !== undefined && !sameLevel(entry, threshold))) delete low[assetId];
  }

  const readings = read.assets?.ok ? read.assets.byId : undefined;
  if (readings) {
    for (const threshold of read.thresholds) {
      const reading = readings.get(threshold.assetId);
      if (!reading) continue; // gone from the list: no judgement, the state stays
      const value = measuredValue(reading, threshold.measure);
      if (value === undefined) continue; // no USD value to compare: no false alarm, no false recovery
      const wasLow = Object.hasOwn(low, threshold.assetId);
      const crossing = judgeReading(wasLow ? 'low' : undefined, value, BigInt(threshold.below));
      if (crossing.event === 'crossed_below') {
        const key = lowBalanceKey(threshold.assetId, nowIso);
        low[threshold.assetId] = { since: nowIso, alertKey: key, measure: threshold.measure, below: threshold.below };
        enqueue({
          key,
          queuedAt: nowIso,
          facts: {
            kind: 'balance_low',
            assetId: threshold.assetId,
            symbol: reading.symbol,
            network: reading.network,
            decimals: reading.decimals,
            measure: threshold.measure,
            below: threshold.below,
            balance: reading.balance,
            balanceInUsd: reading.balanceInUsd,
            createdAt: nowIso,
          },
        });
        crossings += 1;
      } else if (crossing.event === 'recovered') {
        delete low[threshold.assetId];
      }
    }
  }

  // Every open low-balance alert that no longer stands (recovered, threshold removed, or replaced by a newer
  // crossing) resolves itself: also one that reached Slack only after its asset recovered.
  const stands = (assetId: string, key: string) => Object.hasOwn(low, assetId) && low[assetId]!.alertKey === key;
  for (const alert of Object.values(alerts.owned ?? {})) {
    const subject = alert.subject;
    if (subject.type !== 'balance' || alert.life.state === 'resolved') continue;
    const { assetId } = subject.facts;
    if (stands(assetId, alert.key)) continue;
    const threshold = thresholds.get(assetId);
    const reading = readings?.get(assetId);
    if (!threshold)
      endAlert(
        alert,
        now,
        'the threshold was removed',
        'Its threshold was removed, so the bot no longer watches this balance.',
      );
    else if (!sameLevel(subject.facts, threshold))
      endAlert(
        alert,
        now,
        `the threshold was changed to ${plain(thresholdLabel(threshold))}`,
        `Its threshold was changed to ${plain(thresholdLabel(threshold))}; a balance below that has its own alert.`,
      );
    else recoverAlert(alert, now, threshold, reading);
  }
  // A crossing still waiting for Slack that no longer stands: nothing to say any more (one that may have been
  // posted already stays: the delivery finds it, and the next poll resolves it). Failures told into it are then
  // alerted on their own: never lost.
  const dropped = alerts.outbox.filter(
    (item) => item.facts.kind === 'balance_low' && item.sending === undefined && !stands(item.facts.assetId, item.key),
  );
  alerts.outbox = alerts.outbox.filter((item) => !dropped.includes(item));
  for (const item of dropped)
    for (const told of item.told ?? []) enqueue({ key: told.key, queuedAt: nowIso, facts: told.facts });
  if (Object.keys(low).length > 0) alerts.balancesLow = low;
  else delete alerts.balancesLow;
  return crossings;
}

function recoverAlert(
  alert: OwnedAlert,
  now: Date,
  threshold: StoredThreshold,
  reading: AssetReading | undefined,
): void {
  if (alert.subject.type !== 'balance') return;
  const level = reading
    ? threshold.measure === 'usd'
      ? formatUsd(measuredValue(reading, 'usd') ?? reading.balanceInUsd)
      : formatTokenAmount(reading.balance, reading.decimals, reading.symbol)
    : undefined;
  const reason = level
    ? `the balance is back at ${level}, above ${plain(levelLabel(threshold, recoveryLevel(BigInt(threshold.below))))}`
    : 'the balance is back above the threshold';
  const change = resolveAlertByFacts(alert.life, now, reason);
  if (!change) return;
  alert.life = change.life;
  appendEvent(alert, change.event);
  alert.subject.recovered = {
    at: now.toISOString(),
    ...(reading ? { balance: reading.balance, balanceInUsd: reading.balanceInUsd } : {}),
  };
}

function endAlert(alert: OwnedAlert, now: Date, reason: string, because: string): void {
  if (alert.subject.type !== 'balance') return;
  const change = resolveAlertByFacts(alert.life, now, reason);
  if (!change) return;
  alert.life = change.life;
  appendEvent(alert, change.event);
  alert.subject.endedBecause = because;
}

/** Reason texts are plain words (the thread escapes them): undo the mrkdwn escaping of a label. */
function plain(label: string): string {
  return label.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Whether an alert's (or a remembered) level is the threshold's now. */
function sameLevel(
  level: { measure?: string | undefined; below?: string | undefined },
  threshold: StoredThreshold,
): boolean {
  return level.measure === threshold.measure && level.below === threshold.below;
}

/** Where a failure joins a low-balance incident: its alert people own, or its alert still waiting for Slack. */
export type LowBalanceIncident = { owned: OwnedAlert } | { queued: OutboxItem };

/**
 * The low-balance incident a gas top-up short of donor balance belongs to, posted or still queued: the donor is a
 * stablecoin on the top-up's network, so the asset low now on that network whose symbol is the charged currency;
 * when the row names no charged currency (the API sends none on some rows), the one asset low on that network, if
 * only one is.
 */
export function lowBalanceIncidentForGas(alerts: AlertsState, facts: FailureFacts): LowBalanceIncident | undefined {
  const low = alerts.balancesLow;
  if (facts.kind !== 'gas' || !low) return undefined;
  const network = facts.network.symbol.toLowerCase();
  const currency = facts.charged?.currency.toLowerCase();
  const matches = (f: BalanceLowFacts, key: string) =>
    Object.hasOwn(low, f.assetId) &&
    low[f.assetId]!.alertKey === key &&
    f.network.toLowerCase() === network &&
    (currency === undefined || f.symbol.toLowerCase() === currency);
  const candidates: LowBalanceIncident[] = [
    ...Object.values(alerts.owned ?? {})
      .filter(
        (alert) =>
          alert.subject.type === 'balance' &&
          alert.life.state !== 'resolved' &&
          matches(alert.subject.facts, alert.key),
      )
      .map((alert) => ({ owned: alert })),
    ...alerts.outbox
      .filter((item) => item.facts.kind === 'balance_low' && matches(item.facts, item.key))
      .map((item) => ({ queued: item })),
  ];
  return currency !== undefined || candidates.length === 1 ? candidates[0] : undefined;
}
