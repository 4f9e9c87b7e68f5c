/**
 * The swap approval policy that grows with the risk, as pure functions: what a quote is worth in USD, the tiers
 * of distinct approvers (SWAP_POLICY), the maximum (SWAP_MAX_USD) and the rolling daily limit
 * (SWAP_DAILY_LIMIT_USD), the policy as fixed on each quote (PolicySnapshot), and the quorum rules a click is
 * judged by. Money is exact: BigInt cents, never a float; cents are stored as digit strings (JSON has no bigint).
 *
 * Unknown is never cheap: a quote whose USD value cannot be told is treated as above every tier and every
 * limit (fail closed), with a reason a person can read.
 */
import { z } from 'zod';
import { assertDecimals, baseUnitsToBigInt, parseApiDecimal } from '../../kernel/money.js';
import { mentionText, parseMentionable } from '../alerts/routing.js';

// ---------------------------------------------------------------------------------------------------------
// What a quote is worth in USD.

/** Why a quote's USD value cannot be told. */
export type UnknownValueReason = 'no_balance' | 'no_usd' | 'bad_usd' | 'zero_usd' | 'beyond_balance';

/** Every UnknownValueReason, as stored. */
export const UNKNOWN_VALUE_REASONS = ['no_balance', 'no_usd', 'bad_usd', 'zero_usd', 'beyond_balance'] as const;

/** A quote's USD value: exact cents, or unknown with a code and a sentence a person can read. */
export type UsdValue = { cents: bigint } | { unknown: UnknownValueReason; reason: string };

/**
 * How far an asset's own price may be stretched: an amount up to this many times the balance the price is read
 * from. The price is balanceInUsd / balance and balanceInUsd is rounded to the cent, so within the bound the
 * value is right to within 5 cents; beyond it a price read off a small holding (dust after a sweep) would be
 * spread over an amount many times larger, and the API would refuse to swap more than the balance anyway
 * ("Balance not enough") unless it is topped up first.
 */
export const MAX_PRICE_EXTRAPOLATION = 10n;

/** What `quoteValueUsd` reads: the source amount and the asset's balance, both base units of one asset. */
export interface QuoteValueInput {
  /** Base-unit integer string of the source amount. */
  amount: string;
  decimals: number;
  /** Base-unit integer string of the asset's balance, from the asset list at quote time. */
  balance: string;
  /** The balance's worth in USD, a decimal string ("1234.56"); null/undefined/"" when the list has none. */
  balanceInUsd: string | null | undefined;
}

/**
 * An amount's USD value from the asset's own price at quote time: amount × balanceInUsd / balance, in exact
 * rational arithmetic (amount and balance are base units of the same asset, so `decimals` cancels out; it is
 * still checked). Rounded to cents half-up: a remainder of exactly half a cent rounds up (values are never
 * negative, so half-up and half-away-from-zero agree).
 *
 * A value that cannot be trusted is `unknown` (fail closed), never a guess: a zero balance, a missing or
 * unreadable USD figure, a non-zero balance the list values at $0 (dust after a sweep, a token the API prices at
 * 0: a price of zero would make any amount free), or an amount more than MAX_PRICE_EXTRAPOLATION times the
 * balance the price comes from.
 */
export function quoteValueUsd({ amount, decimals, balance, balanceInUsd }: QuoteValueInput): UsdValue {
  assertDecimals(decimals);
  const amountUnits = baseUnitsToBigInt(amount);
  const balanceUnits = baseUnitsToBigInt(balance);
  if (balanceInUsd === null || balanceInUsd === undefined || balanceInUsd.trim() === '') {
    return { unknown: 'no_usd', reason: 'the asset list gives no USD value for this asset, so its price is unknown' };
  }
  if (balanceUnits === 0n) {
    return {
      unknown: 'no_balance',
      reason: 'the balance of this asset is zero, so its price cannot be read from the asset list',
    };
  }
  let usd: { negative: boolean; intPart: string; fracPart: string };
  try {
    usd = parseApiDecimal(balanceInUsd);
  } catch {
    return { unknown: 'bad_usd', reason: 'the USD value in the asset list could not be read, so the price is unknown' };
  }
  if (usd.negative) {
    return { unknown: 'bad_usd', reason: 'the asset list gives a negative USD value, so the price is unknown' };
  }
  const usdUnits = BigInt(`${usd.intPart}${usd.fracPart}`);
  if (usdUnits === 0n) {
    return {
      unknown: 'zero_usd',
      reason:
        'the asset list values the balance of this asset at $0, so its price is unknown (a zero price would make any amount look free)',
    };
  }
  if (amountUnits > balanceUnits * MAX_PRICE_EXTRAPOLATION) {
    return {
      unknown: 'beyond_balance',
      reason: `the amount is more than ${MAX_PRICE_EXTRAPOLATION} times the balance of this asset that its price comes from, so its value cannot be told from that price`,
    };
  }
  // value in cents = amount × (usdUnits / 10^scale) / balance × 100
  const numerator = amountUnits * usdUnits * 100n;
  const denominator = balanceUnits * 10n ** BigInt(usd.fracPart.length);
  return { cents: divideHalfUp(numerator, denominator) };
}

/** One leg of a swap for `swapValueUsd`: its amount and its asset's balance and USD figure, and a name for people. */
export interface SwapLeg extends QuoteValueInput {
  /** How people name the leg's asset in a reason: "USDT on Ethereum". */
  label: string;
}

/**
 * What a swap is worth in USD: both legs valued at their own asset's price (the source amount, and the estimated
 * target amount), and the larger taken, so a source the API prices too low cannot make a large swap cheap. When
 * either leg cannot be valued the swap's value is unknown (fail closed: the unknown leg could be the larger),
 * with the reason naming that leg. Without a target leg (no estimate yet) the source leg alone.
 */
export function swapValueUsd(from: SwapLeg, to?: SwapLeg): UsdValue {
  const legs: [string, SwapLeg][] = [['the asset swapped from', from]];
  if (to) legs.push(['the asset swapped into', to]);
  let largest = 0n;
  for (const [role, leg] of legs) {
    const value = quoteValueUsd(leg);
    if (!isKnownValue(value)) return { unknown: value.unknown, reason: `for ${leg.label} (${role}), ${value.reason}` };
    if (value.cents > largest) largest = value.cents;
  }
  return { cents: largest };
}

/** numerator / denominator for non-negative operands, a remainder of half or more rounding up. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return 2n * (numerator % denominator) >= denominator ? quotient + 1n : quotient;
}

/** Whether the value is known. */
export function isKnownValue(value: UsdValue): value is { cents: bigint } {
  return 'cents' in value;
}

/** Cents for people, in policy messages: "$10,000" when whole dollars, else "$10,000.50". */
export function usdLabel(cents: bigint): string {
  const dollars = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = cents % 100n;
  return rest === 0n ? `$${dollars}` : `$${dollars}.${rest.toString().padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------------------
// Reading the configuration: SWAP_POLICY, SWAP_MAX_USD, SWAP_DAILY_LIMIT_USD.

/** One tier: amounts of at least `minCents` need `approvals` distinct approvers. */
export interface PolicyTier {
  minCents: bigint;
  approvals: number;
}

/** Today's behaviour, the policy when SWAP_POLICY is unset: one approver for any amount. */
export const DEFAULT_TIERS: readonly PolicyTier[] = [{ minCents: 0n, approvals: 1 }];

/** The most approvers one tier may ask for: beyond that it is a typo, not a policy. */
export const MAX_TIER_APPROVALS = 100;

/** The largest USD figure the configuration accepts, in cents (one trillion dollars, as for typed amounts). */
export const MAX_POLICY_CENTS: bigint = 10n ** 14n;

/** Whole dollars or dollars and cents, an optional "$", no separators: "10000", "$10000.50". */
const PLAIN_DOLLARS = /^\$?\s*(\d+)(?:\.(\d{1,2}))?$/;
/** As PLAIN_DOLLARS, or with thousands separators grouped by three: "$250,000.50". */
const DOLLARS = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** Dollar text → cents, or undefined when it is not a dollar amount `pattern` accepts. */
function dollarsToCents(text: string, pattern: RegExp): bigint | undefined {
  const match = pattern.exec(text.trim());
  if (!match) return undefined;
  const [, whole = '0', fraction = ''] = match;
  return BigInt(whole.replace(/,/g, '')) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/**
 * SWAP_POLICY, e.g. `0:1,10000:2,250000:3`: from each USD threshold up (whole dollars or with cents, an
 * optional "$"; commas separate tiers, so no thousands separators), how many distinct approvers a swap needs.
 * Unset or blank = DEFAULT_TIERS. Every problem is one plain line, all reported at once.
 *
 * The first tier must start at 0: a policy states what the smallest swaps need rather than leave it implied
 * (a forgotten `0:1` would otherwise silently mean one approver). Thresholds go strictly up and counts never
 * go down: a larger swap needing fewer approvers is a typo. `tiers` holds what could be read; use it only
 * when `problems` is empty.
 */
export function parseSwapPolicy(text: string | undefined): { tiers: PolicyTier[]; problems: string[] } {
  const entries = (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (entries.length === 0) return { tiers: DEFAULT_TIERS.map((tier) => ({ ...tier })), problems: [] };
  const tiers: PolicyTier[] = [];
  const problems: string[] = [];
  // Set by any 0 threshold read, even one refused for its order: its own problem line says what is wrong.
  let startsAtZero = false;
  for (const entry of entries) {
    const match = /^([^:]*):([^:]*)$/.exec(entry);
    if (!match) {
      problems.push(`SWAP_POLICY: "${entry}" should look like AMOUNT:APPROVERS, e.g. 10000:2`);
      continue;
    }
    const [, amountText = '', countText = ''] = match;
    const minCents = dollarsToCents(amountText, PLAIN_DOLLARS);
    if (minCents === undefined) {
      problems.push(
        `SWAP_POLICY: "${amountText.trim()}" in "${entry}" is not a USD amount (whole dollars or with cents, no commas)`,
      );
      continue;
    }
    if (minCents > MAX_POLICY_CENTS) {
      problems.push(`SWAP_POLICY: "${entry}" starts above the most accepted, ${usdLabel(MAX_POLICY_CENTS)}`);
      continue;
    }
    if (minCents === 0n) startsAtZero = true;
    const count = /^\d{1,4}$/.test(countText.trim()) ? Number(countText.trim()) : undefined;
    if (count === undefined || count > MAX_TIER_APPROVALS) {
      problems.push(
        `SWAP_POLICY: "${countText.trim()}" in "${entry}" is not a number of approvers from 1 to ${MAX_TIER_APPROVALS}`,
      );
      continue;
    }
    if (count === 0) {
      problems.push(`SWAP_POLICY: "${entry}" asks for 0 approvers; every swap needs at least 1`);
      continue;
    }
    const previous = tiers.at(-1);
    if (tiers.some((tier) => tier.minCents === minCents)) {
      problems.push(`SWAP_POLICY: ${usdLabel(minCents)} is given twice`);
      continue;
    }
    if (previous && minCents < previous.minCents) {
      problems.push(
        `SWAP_POLICY: ${usdLabel(minCents)} comes after ${usdLabel(previous.minCents)}; list the tiers from the smallest amount up`,
      );
      continue;
    }
    if (previous && count < previous.approvals) {
      problems.push(
        `SWAP_POLICY: ${usdLabel(minCents)} needs ${count} ${approversWord(count)}, fewer than the ${previous.approvals} of ${usdLabel(previous.minCents)} below it`,
      );
      continue;
    }
    tiers.push({ minCents, approvals: count });
  }
  const first = tiers[0];
  if (first && !startsAtZero) {
    problems.push(
      `SWAP_POLICY: the first tier starts at ${usdLabel(first.minCents)}; start it at 0 (e.g. 0:1,${entries.join(',')}) so every amount has a rule`,
    );
  }
  if (tiers.length === 0 && problems.length === 0) problems.push('SWAP_POLICY: no tier could be read');
  return { tiers, problems };
}

/** Tiers as SWAP_POLICY is written (`0:1,10000:2,250000.50:3`), for the start-up summary. */
export function formatTiers(tiers: readonly PolicyTier[]): string {
  return tiers
    .map((tier) => {
      const cents = tier.minCents % 100n;
      const dollars = `${tier.minCents / 100n}${cents === 0n ? '' : `.${cents.toString().padStart(2, '0')}`}`;
      return `${dollars}:${tier.approvals}`;
    })
    .join(',');
}

function approversWord(count: number): string {
  return count === 1 ? 'approver' : 'approvers';
}

/**
 * SWAP_MAX_USD or SWAP_DAILY_LIMIT_USD (`name`): "$250,000", "250000" or "250000.50"; unset or blank = no limit.
 * Zero is refused: leave it unset for no limit, and stopping all swaps is not this setting's job.
 */
export function parseUsdLimit(
  text: string | undefined,
  name = 'the USD limit',
): { limitCents: bigint | undefined; problems: string[] } {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return { limitCents: undefined, problems: [] };
  const cents = dollarsToCents(trimmed, DOLLARS);
  if (cents === undefined) {
    return {
      limitCents: undefined,
      problems: [`${name}: "${trimmed}" is not a USD amount (e.g. 250000, $250,000 or 250000.50)`],
    };
  }
  if (cents === 0n) {
    return { limitCents: undefined, problems: [`${name}: must be more than $0 (leave it unset for no limit)`] };
  }
  if (cents > MAX_POLICY_CENTS) {
    return {
      limitCents: undefined,
      problems: [`${name}: "${trimmed}" is above the most accepted, ${usdLabel(MAX_POLICY_CENTS)}`],
    };
  }
  return { limitCents: cents, problems: [] };
}

// ---------------------------------------------------------------------------------------------------------
// What an amount needs.

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

// ---------------------------------------------------------------------------------------------------------
// The policy fixed on a quote.

const CENTS = z.string().regex(/^\d+$/);

/** A tier as stored: cents as a digit string. */
export const StoredTier = z.object({ minCents: CENTS, approvals: z.number().int().min(1) });
/** A tier as stored: cents as a digit string. */
export type StoredTier = z.infer<typeof StoredTier>;

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
 * hours are `window`.
 */
export function snapshotPolicy(
  policy: SwapPolicy,
  value: UsdValue,
  at: Date,
  window?: RequesterWindow,
): PolicySnapshot {
  const { needed, tier, failClosed, window: counted } = approvalsNeeded(policy.tiers, value, window);
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
    fixedAt: at.toISOString(),
  };
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

// ---------------------------------------------------------------------------------------------------------
// Who is an approver of a quote.

/** Whether a clicker is an approver: yes, no, or unknown because Slack could not say who is in a group. */
export type ApproverCheck = boolean | { unknown: string };

/** Members of each approver group as Slack told them, or why Slack could not. */
export type GroupMembers = ReadonlyMap<string, readonly string[] | { error: string }>;

/**
 * Whether `userId` is an approver under the snapshot: named, or a member of a named group. When the answer
 * hangs on a group Slack could not list (or that is missing from `groups`), it is unknown (fail closed: nobody
 * from that group may approve).
 */
export function approverCheck(
  snapshot: Pick<PolicySnapshot, 'approvers'>,
  userId: string,
  groups: GroupMembers,
): ApproverCheck {
  if (snapshot.approvers.userIds.includes(userId)) return true;
  const unlisted: string[] = [];
  const reasons: string[] = [];
  for (const groupId of snapshot.approvers.groupIds) {
    const members = groups.get(groupId);
    if (members === undefined || !Array.isArray(members)) {
      unlisted.push(groupId);
      if (members !== undefined && 'error' in members && !reasons.includes(members.error)) reasons.push(members.error);
    } else if (members.includes(userId)) return true;
  }
  if (unlisted.length === 0) return false;
  const named = unlisted.map((id) => mentionText({ type: 'group', id })).join(', ');
  const why = reasons.length > 0 ? ` (${reasons.join('; ')})` : '';
  return {
    unknown: `Slack could not say who is in ${named}${why}, so nobody from ${unlisted.length === 1 ? 'it' : 'them'} can approve right now; try again in a few minutes`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Quorum: distinct approvers, each once; one Reject ends it.

/** One approval recorded on a quote. */
export const Approval = z.object({ userId: z.string(), at: z.iso.datetime() });
/** One approval recorded on a quote. */
export type Approval = z.infer<typeof Approval>;

/** What the quorum rules read of a quote: its status and the approvals recorded so far. */
export interface QuorumState {
  /** The quote's status (swap-quote.ts): only a `pending` quote gains approvals. */
  status: string;
  approvals: readonly Approval[];
}

/** A click on Approve or Reject: who, when, the quote's requester and snapshot, and whether the clicker approves. */
export interface QuorumClick {
  userId: string;
  at: Date;
  requesterId: string;
  snapshot: Pick<PolicySnapshot, 'approvers' | 'allowSelfApproval' | 'needed'>;
  isApprover: ApproverCheck;
}

/** Why a click on Approve or Reject changes nothing. */
export type QuorumRefusalReason =
  | 'not_an_approver'
  | 'approvers_unknown'
  | 'self_approval'
  | 'already_approved'
  | 'already_decided'
  | 'not_requester_or_approver';

/** A refused click: the stable reason and what the clicker is told privately. */
export interface QuorumRefusal<Reason extends QuorumRefusalReason = QuorumRefusalReason> {
  ok: false;
  reason: Reason;
  notice: string;
  /** For `already_approved`: when this person approved. */
  approvedAt?: string;
}

function approversText(snapshot: Pick<PolicySnapshot, 'approvers'>): string {
  const people = snapshot.approvers.userIds.map((id) => mentionText({ type: 'user', id }));
  const groups = snapshot.approvers.groupIds.map((id) => mentionText({ type: 'group', id }));
  const all = [...people, ...groups];
  return all.length === 0 ? 'nobody: no swap approvers are configured' : all.join(', ');
}

function whenText(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** Refusal for a quote no longer waiting for approvals, or undefined while it waits. */
function refuseDecided(state: QuorumState): QuorumRefusal<'already_decided'> | undefined {
  if (state.status === 'pending') return undefined;
  return {
    ok: false,
    reason: 'already_decided',
    notice:
      state.status === 'expired'
        ? 'This quote has expired; no swap was made. Nothing was done.'
        : state.status === 'rejected'
          ? 'This quote was already rejected. Nothing was done.'
          : 'This quote already has all its approvals. Nothing was done; the swap is created at most once.',
  };
}

/**
 * Counts an approval under the quote's snapshot (never the configuration of now): only approvers, the requester
 * only with self-approval on, each person once, only while the quote waits. `reached` says this approval
 * makes the quorum: the caller then moves the quote to `approving` in the same atomic change, so the create
 * happens once. Expiry is judged by the caller (approval.ts, isTooLateToApprove).
 */
export function countApproval(
  state: QuorumState,
  click: QuorumClick,
): { ok: true; approvals: Approval[]; reached: boolean } | QuorumRefusal {
  const { userId, snapshot, isApprover } = click;
  if (typeof isApprover === 'object') {
    return { ok: false, reason: 'approvers_unknown', notice: `${isApprover.unknown}. Nothing was done.` };
  }
  if (!isApprover) {
    const none = snapshot.approvers.userIds.length + snapshot.approvers.groupIds.length === 0;
    return {
      ok: false,
      reason: 'not_an_approver',
      notice: none
        ? 'No swap approvers are configured (`SWAP_APPROVERS` is empty), so nobody can approve swaps. Nothing was done.'
        : `Only the swap approvers (${approversText(snapshot)}) can approve this quote. Nothing was done.`,
    };
  }
  if (userId === click.requesterId && !snapshot.allowSelfApproval) {
    return {
      ok: false,
      reason: 'self_approval',
      notice: 'You requested this swap, so someone else must approve it (separation of duties). Nothing was done.',
    };
  }
  const decided = refuseDecided(state);
  if (decided) return decided;
  if (state.approvals.length >= snapshot.needed) {
    return refuseDecided({ ...state, status: 'approving' })!;
  }
  const earlier = state.approvals.find((approval) => approval.userId === userId);
  if (earlier) {
    const left = snapshot.needed - state.approvals.length;
    return {
      ok: false,
      reason: 'already_approved',
      approvedAt: earlier.at,
      notice: `You already approved this quote at ${whenText(earlier.at)}; it is waiting for ${left === 1 ? 'one more approver' : `${left} more approvers`}. Nothing was done.`,
    };
  }
  const approvals = [...state.approvals, { userId, at: click.at.toISOString() }];
  return { ok: true, approvals, reached: approvals.length >= snapshot.needed };
}

/**
 * A Reject: the requester or any approver ends the quote for everyone, whatever approvals it had. A clicker
 * whose approver status is unknown (a group Slack could not list) cannot reject unless they are the requester.
 */
export function rejectQuote(
  state: QuorumState,
  click: QuorumClick,
): { ok: true; rejectedBy: string; at: string } | QuorumRefusal {
  const { userId, isApprover } = click;
  if (userId !== click.requesterId && isApprover !== true) {
    if (typeof isApprover === 'object') {
      return { ok: false, reason: 'approvers_unknown', notice: `${isApprover.unknown}. Nothing was done.` };
    }
    return {
      ok: false,
      reason: 'not_requester_or_approver',
      notice: 'Only the requester or a swap approver can reject this quote. Nothing was done.',
    };
  }
  const decided = refuseDecided(state);
  if (decided) return decided;
  return { ok: true, rejectedBy: userId, at: click.at.toISOString() };
}

// ---------------------------------------------------------------------------------------------------------
// The rolling daily limit.

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
