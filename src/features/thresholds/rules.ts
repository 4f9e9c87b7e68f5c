/**
 * Balance thresholds, as pure rules: a threshold per asset in token base units or in USD cents, the
 * margin a balance must clear before a low-balance alert counts as recovered, and the crossing a reading makes.
 * The records the store keeps (thresholds as set, and the trail of every change) are zod schemas here too.
 *
 * Why a recovery margin: a balance that hovers around the threshold (a top-up, a payout, a top-up…) would
 * otherwise raise and resolve an alert on every poll. The alert opens when the balance goes below the threshold
 * and resolves only once the balance is back at or above the threshold plus RECOVERY_MARGIN_PERCENT of it.
 */
import { z } from 'zod';
import { parseApiDecimal } from '../../kernel/money.js';

/** What a threshold measures: the balance in the asset's base units, or its USD value in cents. */
export const ThresholdMeasure = z.enum(['units', 'usd']);
export type ThresholdMeasure = z.infer<typeof ThresholdMeasure>;

/** A threshold: alert when the asset's balance (or its USD value) goes below `below`. */
export const BalanceThreshold = z.object({
  assetId: z.string().min(1),
  measure: ThresholdMeasure,
  /** Base units (measure `units`) or cents (measure `usd`), a non-negative integer string. */
  below: z.string().regex(/^\d+$/),
  /**
   * What the person saw when they set it, so lists and alerts can speak in the asset's own words without asking
   * the API: its symbol and network, and its decimals (a `units` threshold is shown in token units with them).
   */
  symbol: z.string(),
  network: z.string(),
  decimals: z.number().int().nonnegative(),
});
export type BalanceThreshold = z.infer<typeof BalanceThreshold>;

/** A threshold as stored: who set it and when. */
export const StoredThreshold = BalanceThreshold.extend({ setBy: z.string(), setAt: z.string() });
export type StoredThreshold = z.infer<typeof StoredThreshold>;

/** Threshold changes are kept this long (the audit export reaches back as far), then leave the store. */
export const THRESHOLD_TRAIL_RETENTION_MS = 400 * 86_400_000;

/** One entry of the threshold trail: set (with the new threshold and the one it replaced) or removed. */
export const ThresholdChange = z.object({
  at: z.string(),
  by: z.string(),
  action: z.enum(['set', 'removed']),
  assetId: z.string(),
  threshold: BalanceThreshold.optional(),
  previous: BalanceThreshold.optional(),
});
export type ThresholdChange = z.infer<typeof ThresholdChange>;

/** How far above the threshold a balance must come back before its low-balance alert resolves, in percent. */
export const RECOVERY_MARGIN_PERCENT = 10n;

/**
 * The level at which a low balance counts as recovered: the threshold plus RECOVERY_MARGIN_PERCENT of it,
 * rounded up (so it is always strictly above a threshold of 1 or more).
 */
export function recoveryLevel(below: bigint): bigint {
  const margin = (below * RECOVERY_MARGIN_PERCENT + 99n) / 100n;
  return below + margin;
}

/** Where an asset's balance stands against its threshold. */
export type BalanceState = 'ok' | 'low';

/** What one reading does: the state after it, and whether it crossed below (alert) or recovered (resolve). */
export interface Crossing {
  state: BalanceState;
  event?: 'crossed_below' | 'recovered';
}

/**
 * Judges one reading against the threshold, given the state before it (undefined: never read since the threshold
 * was set). Below the threshold is low; a low balance stays low until it reaches the recovery level.
 */
export function judgeReading(before: BalanceState | undefined, value: bigint, below: bigint): Crossing {
  if (before === 'low') return value >= recoveryLevel(below) ? { state: 'ok', event: 'recovered' } : { state: 'low' };
  if (value < below) return { state: 'low', event: 'crossed_below' };
  return { state: 'ok' };
}

/** An asset as the poller reads it: its balance in base units and its USD value as the API writes it. */
export interface BalanceReading {
  balance: string;
  balanceInUsd: string | null | undefined;
}

/**
 * The value a threshold compares: base units, or the USD value in cents rounded down (a balance worth
 * $4,999.999 is below $5,000). Undefined when the USD value is missing or unreadable: no judgement is made then,
 * rather than a false alarm or a false recovery.
 */
export function measuredValue(reading: BalanceReading, measure: ThresholdMeasure): bigint | undefined {
  if (measure === 'units') return /^\d+$/.test(reading.balance) ? BigInt(reading.balance) : undefined;
  if (reading.balanceInUsd === null || reading.balanceInUsd === undefined || reading.balanceInUsd.trim() === '')
    return undefined;
  try {
    const usd = parseApiDecimal(reading.balanceInUsd);
    if (usd.negative) return undefined;
    return BigInt(usd.intPart) * 100n + BigInt(usd.fracPart.padEnd(2, '0').slice(0, 2));
  } catch {
    return undefined;
  }
}
