/**
 * What an amount needs under the policy: the tier of approvals (counting the requester's swaps of the last 24
 * hours), the maximum for one swap (SWAP_MAX_USD) and the rolling daily limit (SWAP_DAILY_LIMIT_USD).
 */
import type { PolicyTier } from './policy-config.js';
import { isKnownValue, type UsdValue, usdLabel } from './policy-value.js';

/**
 * The requester's own swaps in the 24 hours before a quote (created, of unknown outcome, or waiting for approval,
 * as the caller chose), which the tier is judged on together with the quote: splitting a large swap into smaller
 * ones never lowers the approvals it needs. `unknown` when one of them has no known USD value: then the total
 * cannot be told (fail closed).
 */
export type RequesterWindow = { count: number; cents: bigint } | { count: number; unknown: string };

/** The window as the quote records it: how many earlier swaps, what they add up to, and the total with this one. */
export type WindowTotal =
  | { count: number; priorCents: bigint; totalCents: bigint }
  | { count: number; unknown: string };

/** How many approvals a value needs, under which tier; `failClosed` says why an unknown value got the top tier. */
export interface ApprovalsNeeded {
  needed: number;
  tier: PolicyTier;
  failClosed?: string;
  /** The requester's earlier swaps of the last 24 hours counted with this one, when there were any. */
  window?: WindowTotal;
}

/**
 * The tier whose threshold is the largest at or below the value (exactly at a threshold takes that tier). With a
 * `window` of the requester's earlier swaps, the tier is judged on the value plus theirs: the larger of the two,
 * since tiers only grow with the amount. An unknown value, or an unknown window, takes the highest tier, failing
 * closed with the reason. `tiers` must not be empty.
 */
export function approvalsNeeded(
  tiers: readonly PolicyTier[],
  value: UsdValue,
  window?: RequesterWindow,
): ApprovalsNeeded {
  if (tiers.length === 0) throw new RangeError('a swap policy needs at least one tier');
  const byThreshold = [...tiers].sort((a, b) => (a.minCents < b.minCents ? -1 : a.minCents > b.minCents ? 1 : 0));
  const highest = byThreshold.at(-1)!;
  if (!isKnownValue(value)) {
    return {
      needed: highest.approvals,
      tier: highest,
      failClosed: `${value.reason}; without a price the swap needs as many approvals as the largest swaps`,
    };
  }
  // With a single tier the window cannot change anything: it is left out (and an unknown one says nothing).
  const counted = window !== undefined && window.count > 0 && byThreshold.length > 1 ? window : undefined;
  if (counted && 'unknown' in counted) {
    return {
      needed: highest.approvals,
      tier: highest,
      failClosed: `${counted.unknown}, so your swaps of the last 24 hours cannot be added up; the swap needs as many approvals as the largest swaps`,
      window: { count: counted.count, unknown: counted.unknown },
    };
  }
  const total = counted ? value.cents + counted.cents : value.cents;
  // A value below the lowest threshold (only possible for tiers not starting at 0) takes the lowest tier.
  const tier = byThreshold.filter((candidate) => candidate.minCents <= total).at(-1) ?? byThreshold[0]!;
  return {
    needed: tier.approvals,
    tier,
    ...(counted ? { window: { count: counted.count, priorCents: counted.cents, totalCents: total } } : {}),
  };
}

/** Whether a value is within SWAP_MAX_USD (undefined = no maximum); an unknown value is not (fail closed). */
export function checkMaxUsd(
  maxCents: bigint | undefined,
  value: UsdValue,
): { ok: true } | { ok: false; reason: string } {
  if (maxCents === undefined) return { ok: true };
  if (!isKnownValue(value)) {
    return { ok: false, reason: `swaps are limited to ${usdLabel(maxCents)} each and ${value.reason}` };
  }
  if (value.cents <= maxCents) return { ok: true };
  return {
    ok: false,
    reason: `this swap is worth about ${usdLabel(value.cents)}, above the ${usdLabel(maxCents)} allowed for one swap`,
  };
}

/** The window of the daily limit: the 24 hours before now. */
export const DAILY_WINDOW_MS = 24 * 60 * 60_000;

/** A swap out of an asset that counts against its daily limit: created, or a quote waiting for approval. */
export interface UsageEntry {
  assetKey: string;
  cents: bigint;
  at: Date | string;
  state: 'created' | 'waiting';
}

/**
 * What swaps out of `assetKey` add up to in the 24 hours before `now`. The window is (now − 24 h, now]: an
 * entry exactly 24 h old is out, one made at `now` is in. An entry dated after `now` (another replica's clock
 * slightly ahead) is counted: the limit errs on the safe side.
 */
export function dailyUsage(entries: readonly UsageEntry[], assetKey: string, now: Date): bigint {
  const windowStart = now.getTime() - DAILY_WINDOW_MS;
  let total = 0n;
  for (const entry of entries) {
    if (entry.assetKey !== assetKey) continue;
    if (new Date(entry.at).getTime() <= windowStart) continue;
    total += entry.cents;
  }
  return total;
}

/**
 * Whether `addCents` fits the daily limit with `usageCents` already used; reaching the limit exactly is
 * allowed. `leftCents` is what was left before this swap (never below 0), for "$X is left today".
 */
export function checkDailyLimit(
  limitCents: bigint,
  usageCents: bigint,
  addCents: bigint,
): { ok: true; leftCents: bigint } | { ok: false; leftCents: bigint } {
  const left = limitCents - usageCents;
  const leftCents = left > 0n ? left : 0n;
  return usageCents + addCents <= limitCents ? { ok: true, leftCents } : { ok: false, leftCents };
}
