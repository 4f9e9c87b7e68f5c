// Exact money arithmetic for the simulator. Amounts live as base-unit integer strings / BigInt and prices as
// decimal strings; USD values are computed in whole cents with BigInt so no float ever touches money.

/** Number of decimals used for internal USD prices (price strings are parsed to this scale). */
const PRICE_DECIMALS = 8;

const TEN = 10n;

/** 10^n as a BigInt. */
export function pow10(n: number): bigint {
  return TEN ** BigInt(n);
}

/** Parses a non-negative decimal string ("1520.25") into base units with `decimals` places; extra digits are cut. */
export function parseUnits(value: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new Error(`not a decimal amount: ${value}`);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').slice(0, decimals).padEnd(decimals, '0');
  return BigInt(whole) * pow10(decimals) + BigInt(fraction === '' ? '0' : fraction);
}

/** Formats base units as a token-unit decimal string without trailing zeros ("1520.25", "100", "0.004"). */
export function formatUnits(base: bigint, decimals: number): string {
  const negative = base < 0n;
  const abs = negative ? -base : base;
  const scale = pow10(decimals);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Divides rounding half away from zero (inputs are non-negative in practice). */
function divRound(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** Divides rounding up. */
function divCeil(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

/** USD value in cents of `base` units of a currency with `decimals` places priced at `price` USD per token. */
export function usdCentsOf(base: bigint, decimals: number, price: string): bigint {
  const priceScaled = parseUnits(price, PRICE_DECIMALS);
  return divRound(base * priceScaled * 100n, pow10(decimals + PRICE_DECIMALS));
}

/** Base units of a currency worth `cents` US cents, rounded up so the amount always covers the USD value. */
export function baseUnitsForUsdCents(cents: bigint, decimals: number, price: string): bigint {
  const priceScaled = parseUnits(price, PRICE_DECIMALS);
  return divCeil(cents * pow10(decimals + PRICE_DECIMALS), priceScaled * 100n);
}

/** Converts base units of one currency into base units of another through their USD prices (rounded down). */
export function convertBaseUnits(
  base: bigint,
  from: { decimals: number; price: string },
  to: { decimals: number; price: string },
): bigint {
  const fromPrice = parseUnits(from.price, PRICE_DECIMALS);
  const toPrice = parseUnits(to.price, PRICE_DECIMALS);
  return (base * fromPrice * pow10(to.decimals)) / (toPrice * pow10(from.decimals));
}

/** Formats US cents as a decimal string with two places ("49.99", "0.05"). */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Applies a fee or spread in basis points, rounding down: amount * (10000 - bps) / 10000. */
export function minusBps(amount: bigint, bps: number): bigint {
  return (amount * BigInt(10_000 - bps)) / 10_000n;
}

/** Takes `bps` basis points of an amount, rounding down. */
export function bpsOf(amount: bigint, bps: number): bigint {
  return (amount * BigInt(bps)) / 10_000n;
}
