/**
 * Exact money arithmetic. Every amount is a BigInt or a decimal string; no value ever passes through a
 * JavaScript `number` or floating point.
 *
 * - Crypto amounts from the payment API are base-unit integer strings (smallest unit), with `decimals` per
 *   crypto between 0 and 36 (docs/payments-api.md#units).
 * - USD amounts from the API are decimal strings (e.g. "1520.254301") or null.
 *
 * Programming errors (bad `decimals`, malformed base-unit or API strings, wrong runtime types) throw
 * `RangeError` / `TypeError`. `toBaseUnits` refuses a decimal it cannot convert exactly with `AmountError`.
 * Parsing what people type lives in `kernel/amounts.ts`; formatting for people in `blocks/format.ts`.
 */
import { AmountError } from './errors.js';
import { escapeText, quoteInput } from './text.js';

/** Largest value of an unsigned 256-bit integer (2^256 - 1), the ceiling for token base units. */
export const MAX_UINT256: bigint = (1n << 256n) - 1n;

/** Largest number of decimals a crypto may have. */
const MAX_DECIMALS = 36;

const BASE_UNITS_RE = /^\d+$/;
const API_DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;
const PLAIN_DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Throws unless `decimals` is an integer from 0 to 36 (programming error, not user error). */
export function assertDecimals(decimals: number): void {
  if (typeof decimals !== 'number') {
    throw new TypeError(`decimals must be a number, got ${typeof decimals}`);
  }
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new RangeError(`decimals must be an integer from 0 to ${MAX_DECIMALS}, got ${String(decimals)}`);
  }
}

/** True when `value` is a base-unit integer string: ASCII digits only, no sign or point. */
export function isBaseUnitString(value: unknown): value is string {
  return typeof value === 'string' && BASE_UNITS_RE.test(value);
}

/** Base units as a bigint; strings must match /^\d+$/, bigints may be negative. */
export function baseUnitsToBigInt(baseUnits: string | bigint): bigint {
  if (typeof baseUnits === 'bigint') return baseUnits;
  if (typeof baseUnits === 'string') {
    if (!BASE_UNITS_RE.test(baseUnits)) {
      throw new TypeError(`base units must be a string of digits, got ${JSON.stringify(baseUnits.slice(0, 80))}`);
    }
    return BigInt(baseUnits);
  }
  throw new TypeError(`base units must be a string or bigint, got ${typeof baseUnits}`);
}

/** Compares two base-unit amounts; returns -1, 0 or 1. */
export function compareBaseUnits(a: string | bigint, b: string | bigint): -1 | 0 | 1 {
  const x = baseUnitsToBigInt(a);
  const y = baseUnitsToBigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Converts an exact decimal token string ("1.5", "-0.25") to base units; rejects lost precision. */
export function toBaseUnits(tokenAmount: string, decimals: number): bigint {
  assertDecimals(decimals);
  if (typeof tokenAmount !== 'string') {
    throw new TypeError(`token amount must be a string, got ${typeof tokenAmount}`);
  }
  const m = PLAIN_DECIMAL_RE.exec(tokenAmount);
  if (!m) {
    throw new AmountError('invalid', `${quoteInput(tokenAmount)} is not a number.`);
  }
  const negative = m[1] === '-';
  const value = digitsToBaseUnits(m[2] ?? '0', m[3] ?? '', decimals, undefined);
  return negative ? -value : value;
}

/** Converts base units to a plain decimal string without separators or trailing zeros ("1.5"). */
export function fromBaseUnits(baseUnits: string | bigint, decimals: number): string {
  assertDecimals(decimals);
  const value = baseUnitsToBigInt(baseUnits);
  const { sign, intPart, fracPart } = splitBaseUnits(value, decimals);
  return `${sign}${intPart}${fracPart ? `.${fracPart}` : ''}`;
}

/**
 * Integer digits + fraction digits → base units, refusing more fraction digits than `decimals` with an
 * `AmountError` that names the token (`symbol`, escaped) or "This token".
 */
export function digitsToBaseUnits(
  intDigits: string,
  fracDigits: string,
  decimals: number,
  symbol: string | undefined,
): bigint {
  if (fracDigits.length > decimals) {
    const who = symbol ? escapeText(symbol) : 'This token';
    const gave = `you gave ${fracDigits.length}`;
    const reason =
      decimals === 0
        ? `${who} allows no decimal places; ${gave}.`
        : `${who} allows at most ${decimals} decimal ${decimals === 1 ? 'place' : 'places'}; ${gave}.`;
    throw new AmountError('too_many_decimals', reason);
  }
  return BigInt(`${intDigits || '0'}${fracDigits.padEnd(decimals, '0')}`);
}

/** Splits a base-unit value into sign, integer digits and fraction digits without trailing zeros. */
export function splitBaseUnits(value: bigint, decimals: number): { sign: string; intPart: string; fracPart: string } {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  const sign = negative ? '-' : '';
  if (decimals === 0) return { sign, intPart: digits, fracPart: '' };
  const padded = digits.padStart(decimals + 1, '0');
  const cut = padded.length - decimals;
  return {
    sign,
    intPart: padded.slice(0, cut),
    fracPart: padded.slice(cut).replace(/0+$/, ''),
  };
}

/** Validates an API decimal string like "1520.254301" or "-3" (programming/API error if malformed). */
export function parseApiDecimal(decimal: string): { negative: boolean; intPart: string; fracPart: string } {
  if (typeof decimal !== 'string') {
    throw new TypeError(`decimal must be a string, got ${typeof decimal}`);
  }
  const m = API_DECIMAL_RE.exec(decimal);
  if (!m) {
    throw new TypeError(`not a decimal string: ${JSON.stringify(decimal.slice(0, 80))}`);
  }
  return { negative: m[1] === '-', intPart: m[2] ?? '0', fracPart: m[3] ?? '' };
}

/** Renders cents as a plain dollar string with exactly two decimals ("49.99", "-0.05"). */
export function centsToUsd(cents: bigint): string {
  if (typeof cents !== 'bigint') {
    throw new TypeError(`cents must be a bigint, got ${typeof cents}`);
  }
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${(abs / 100n).toString()}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Adds API decimal strings exactly (e.g. USD balances for a total); returns a plain decimal string. */
export function sumDecimals(values: readonly string[]): string {
  const scale = Math.max(0, ...values.map((v) => v.split('.')[1]?.length ?? 0));
  if (scale > MAX_DECIMALS) throw new RangeError('too many fractional digits to add exactly');
  const total = values.reduce((sum, value) => sum + toBaseUnits(value, scale), 0n);
  return fromBaseUnits(total, scale);
}

/** Compares two API decimal strings exactly: -1, 0 or 1. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const difference = toBaseUnits(a, scale) - toBaseUnits(b, scale);
  return difference === 0n ? 0 : difference > 0n ? 1 : -1;
}

/** An API decimal USD amount (`"1520.255"`) as cents, rounded half away from zero, exactly (`152026n`). */
export function usdDecimalToCents(decimal: string): bigint {
  const { negative, intPart, fracPart } = parseApiDecimal(decimal);
  const padded = fracPart.padEnd(3, '0');
  let magnitude = BigInt(intPart) * 100n + BigInt(padded.slice(0, 2));
  if (padded.charCodeAt(2) >= 0x35 /* '5' */) magnitude += 1n;
  return negative ? -magnitude : magnitude;
}
