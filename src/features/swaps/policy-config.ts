/**
 * Reading the swap policy's configuration: the tiers of SWAP_POLICY, and the USD limits SWAP_MAX_USD and
 * SWAP_DAILY_LIMIT_USD, each parsed into BigInt cents with one readable problem per mistake.
 */
import { usdLabel } from './policy-value.js';

/** One tier: amounts of at least `minCents` need `approvals` distinct approvers. */
export interface PolicyTier {
  minCents: bigint;
  approvals: number;
}

/** Today's behaviour, the policy when SWAP_POLICY is unset: one approver for any amount. */
export const DEFAULT_TIERS: readonly PolicyTier[] = [{ minCents: 0n, approvals: 1 }];

/** The most approvers one tier may ask for: beyond that it is a typo, not a policy. */
const MAX_TIER_APPROVALS = 100;

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
