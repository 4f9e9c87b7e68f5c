/**
 * The policy fixed on a quote when it is made (PolicySnapshot): a later change of configuration never alters a
 * quote in flight. Cents are stored as digit strings (JSON has no bigint).
 */

import { z } from 'zod';
import { parseMentionable } from '../alerts/mentions.js';
import type { PolicyTier } from './policy-config.js';
import { approvalsNeeded, type RequesterWindow, type WindowTotal } from './policy-limits.js';
import { isKnownValue, UNKNOWN_VALUE_REASONS, type UsdValue, usdLabel } from './policy-value.js';

const CENTS = z.string().regex(/^\d+$/);

/** A tier as stored: cents as a digit string. */
const StoredTier = z.object({ minCents: CENTS, approvals: z.number().int().min(1) });
/** A tier as stored: cents as a digit string. */
type StoredTier = z.infer<typeof StoredTier>;

/** A USD value as stored. */
export const StoredUsdValue = z.union([
  z.object({ cents: CENTS }),
  z.object({ unknown: z.enum(UNKNOWN_VALUE_REASONS), reason: z.string() }),
]);
/** A USD value as stored. */
export type StoredUsdValue = z.infer<typeof StoredUsdValue>;

/** The requester's earlier swaps of the last 24 hours counted with a quote, as stored. */
export const StoredWindow = z.union([
  z.object({ count: z.number().int().min(1), priorCents: CENTS, totalCents: CENTS }),
  z.object({ count: z.number().int().min(1), unknown: z.string() }),
]);
/** The requester's earlier swaps of the last 24 hours counted with a quote, as stored. */
export type StoredWindow = z.infer<typeof StoredWindow>;

/**
 * What a quote records of the policy that applied when it was made: a later change of configuration never
 * alters a quote in flight, the snapshot decides.
 */
export const PolicySnapshot = z.object({
  tiers: z.array(StoredTier).min(1),
  /** The tier the quote's value fell in, and the approvals it needs. */
  tier: StoredTier,
  needed: z.number().int().min(1),
  /** Why an unknown value took the highest tier. */
  failClosed: z.string().optional(),
  approvers: z.object({ userIds: z.array(z.string()), groupIds: z.array(z.string()) }),
  allowSelfApproval: z.boolean(),
  maxUsdCents: CENTS.optional(),
  dailyLimitUsdCents: CENTS.optional(),
  value: StoredUsdValue,
  /**
   * The requester's own swaps of the 24 hours before, counted with this one to judge the tier (absent when there
   * were none, and on quotes made before it was recorded).
   */
  window: StoredWindow.optional(),
  /**
   * SWAP_STEP_UP_USD when the quote was made, in cents (absent: none was set, or the quote was made before it was
   * recorded). An approval needs a code under the stricter of this and the threshold where it is decided.
   */
  stepUpCents: CENTS.optional(),
  /**
   * The requester's own swaps of the 24 hours before (created, on their way, of unknown outcome, waiting), counted
   * with this one to judge whether approving it needs a code; recorded whatever the tiers (absent when there were
   * none, when the quote's own value is unknown, and on quotes made before it was recorded).
   */
  stepUpWindow: StoredWindow.optional(),
  /** When the policy was fixed (the quote's time), ISO. */
  fixedAt: z.iso.datetime(),
});
/** What a quote records of the policy that applied when it was made. */
export type PolicySnapshot = z.infer<typeof PolicySnapshot>;

/** The policy as configured now. */
export interface SwapPolicy {
  tiers: readonly PolicyTier[];
  /** SWAP_APPROVERS: user ids (U…/W…) and user group ids (S…). */
  approvers: readonly string[];
  allowSelfApproval: boolean;
  maxUsdCents?: bigint | undefined;
  dailyLimitUsdCents?: bigint | undefined;
}

/** Splits approver ids into people and user groups; an id of neither kind is kept as a person (it never matches). */
export function splitApprovers(ids: readonly string[]): { userIds: string[]; groupIds: string[] } {
  const userIds: string[] = [];
  const groupIds: string[] = [];
  for (const id of ids) {
    if (parseMentionable(id)?.type === 'group') groupIds.push(id);
    else userIds.push(id);
  }
  return { userIds, groupIds };
}

function storedTier(tier: PolicyTier): StoredTier {
  return { minCents: tier.minCents.toString(), approvals: tier.approvals };
}

/**
 * Fixes the policy for a quote worth `value`, made at `at`, by a requester whose earlier swaps of the last 24
 * hours are `window`, under SWAP_STEP_UP_USD `stepUpCents` (undefined: none set).
 */
export function snapshotPolicy(
  policy: SwapPolicy,
  value: UsdValue,
  at: Date,
  window?: RequesterWindow,
  stepUpCents?: bigint,
): PolicySnapshot {
  const { needed, tier, failClosed, window: counted } = approvalsNeeded(policy.tiers, value, window);
  const stepUpWindow = windowWith(value, window);
  return {
    tiers: policy.tiers.map(storedTier),
    tier: storedTier(tier),
    needed,
    ...(failClosed ? { failClosed } : {}),
    approvers: splitApprovers(policy.approvers),
    allowSelfApproval: policy.allowSelfApproval,
    ...(policy.maxUsdCents !== undefined ? { maxUsdCents: policy.maxUsdCents.toString() } : {}),
    ...(policy.dailyLimitUsdCents !== undefined ? { dailyLimitUsdCents: policy.dailyLimitUsdCents.toString() } : {}),
    value: isKnownValue(value) ? { cents: value.cents.toString() } : value,
    ...(counted ? { window: storedWindow(counted) } : {}),
    ...(stepUpCents !== undefined ? { stepUpCents: stepUpCents.toString() } : {}),
    ...(stepUpWindow ? { stepUpWindow: storedWindow(stepUpWindow) } : {}),
    fixedAt: at.toISOString(),
  };
}

/**
 * The requester's earlier swaps counted with a quote worth `value`: what they add up to and the total with it, or
 * why the total is unknown; undefined when there were none or the quote's own value is unknown (then the total
 * is unknown whatever they add up to).
 */
export function windowWith(value: UsdValue, window: RequesterWindow | undefined): WindowTotal | undefined {
  if (window === undefined || window.count === 0 || !isKnownValue(value)) return undefined;
  return 'unknown' in window
    ? { count: window.count, unknown: window.unknown }
    : { count: window.count, priorCents: window.cents, totalCents: value.cents + window.cents };
}

/** A stored window back as the requester's earlier swaps (what they add up to, without the quote). */
export function requesterWindowOf(window: StoredWindow): RequesterWindow {
  return 'unknown' in window
    ? { count: window.count, unknown: window.unknown }
    : { count: window.count, cents: BigInt(window.priorCents) };
}

/** A window total as stored: cents as digit strings. */
export function storedWindow(window: WindowTotal): StoredWindow {
  return 'unknown' in window
    ? window
    : { count: window.count, priorCents: window.priorCents.toString(), totalCents: window.totalCents.toString() };
}

/** The stored tiers back as PolicyTiers. */
export function snapshotTiers(snapshot: Pick<PolicySnapshot, 'tiers'>): PolicyTier[] {
  return snapshot.tiers.map((tier) => ({ minCents: BigInt(tier.minCents), approvals: tier.approvals }));
}

/** The stored value back as a UsdValue. */
export function snapshotValue(snapshot: Pick<PolicySnapshot, 'value'>): UsdValue {
  return 'cents' in snapshot.value ? { cents: BigInt(snapshot.value.cents) } : snapshot.value;
}

/**
 * The quote's words for the window: "with your $6,000 swap today this makes $12,000: 2 approvals" ("today" is
 * the last 24 hours), or why the total is unknown.
 */
export function windowText(window: StoredWindow, needed: number, whose = 'your'): string {
  const approvals = needed === 1 ? 'one approval' : `${needed} approvals`;
  if ('unknown' in window)
    return `with ${whose} ${window.count === 1 ? 'swap' : `${window.count} swaps`} of the last 24 hours the total is unknown (${window.unknown}): ${approvals}`;
  const swaps = window.count === 1 ? 'swap' : `${window.count} swaps`;
  return `with ${whose} ${usdLabel(BigInt(window.priorCents))} ${swaps === 'swap' ? 'swap' : `in ${swaps}`} today this makes ${usdLabel(BigInt(window.totalCents))}: ${approvals}`;
}
