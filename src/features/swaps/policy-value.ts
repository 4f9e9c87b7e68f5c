/**
 * What a swap quote is worth in USD, as exact BigInt cents from the asset's balance and its USD value. Unknown is
 * never cheap: a value that cannot be told carries a reason a person can read, and the policy fails closed on it.
 */
import { assertDecimals, baseUnitsToBigInt, parseApiDecimal } from '../../kernel/money.js';

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

/** Cents for people (blocks/format.ts): the policy's own face keeps it. */
export { usdLabel } from '../../blocks/format.js';
