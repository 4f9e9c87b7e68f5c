/**
 * Exact money handling. Every amount is a BigInt or a decimal string; no value ever passes
 * through a JavaScript `number` or floating point.
 *
 * - Crypto amounts from the payment API are base-unit integer strings (smallest unit), with
 *   `decimals` per crypto between 0 and 36.
 * - USD amounts from the API are decimal strings (e.g. "1520.254301") or null.
 * - People type amounts in Slack; `parseTokenAmount` / `parseUsdAmount` validate those and throw
 *   `AmountError`, whose `reason` can be shown to the user as-is.
 *
 * Programming errors (bad `decimals`, malformed base-unit or API strings, wrong runtime types)
 * throw `RangeError` / `TypeError`, never `AmountError`.
 *
 * Decisions on ambiguous user input (both parsers):
 * - Surrounding whitespace is trimmed; whitespace inside the number ("1 000") is rejected.
 * - Thousands separators must be commas in correct groups of three ("1,000", "12,345.6");
 *   "1,00", "12,3456", ",100", "0,100" and commas after the decimal point are rejected.
 * - A leading dot is accepted (".5"); a trailing dot ("5.") is rejected as possibly unfinished.
 * - Leading zeros without separators are accepted ("007" is 7).
 * - "+5" is rejected; "-5" (also with the Unicode minus sign) is rejected as negative.
 * - Fractional digits are counted as typed: "1.0000000" for a 6-decimal token is rejected even
 *   though the extra digit is zero.
 * - The length limit of 100 characters applies to the trimmed input without its thousands
 *   separators (so the largest uint256 still parses when formatted with separators); anything
 *   longer than 1,000 raw characters is rejected before any other work.
 * - Token amounts may end with the token's own symbol when `options.symbol` is given, separated
 *   by whitespace and case-insensitive ("100 usdt"); any other trailing word is rejected.
 * - USD amounts accept "$49.99", "$ 49.99", "US$49.99", "USD 49.99", "49.99 USD", "49.99usd",
 *   "$49.99 USD"; the "USD" prefix and suffix together are rejected.
 */

/** Stable machine-readable category of an `AmountError`. */
export type AmountErrorCode = 'negative' | 'zero' | 'too_many_decimals' | 'exponent' | 'too_large' | 'invalid';

/** A rejected amount; `reason` is a complete human sentence safe to post in Slack. */
export class AmountError extends Error {
  /** Stable category, for code paths and tests. */
  readonly code: AmountErrorCode;
  /** Human sentence for the Slack user, e.g. "Amount must be greater than zero.". */
  readonly reason: string;

  constructor(code: AmountErrorCode, reason: string) {
    super(reason);
    this.name = 'AmountError';
    this.code = code;
    this.reason = reason;
  }
}

/** Largest value of an unsigned 256-bit integer (2^256 - 1), the ceiling for token base units. */
export const MAX_UINT256: bigint = (1n << 256n) - 1n;

/** Largest number of decimals a crypto may have. */
export const MAX_DECIMALS = 36;

/** Largest USD amount `parseUsdAmount` accepts, in cents (one trillion dollars). */
export const MAX_USD_CENTS: bigint = 10n ** 14n;

/** Longest accepted user input, counted without thousands separators. */
export const MAX_INPUT_LENGTH = 100;

const HARD_INPUT_LIMIT = 1000;
const BASE_UNITS_RE = /^\d+$/;
const API_DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;
const PLAIN_DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;
/** Integer part either plain digits or correctly grouped thousands; optional fraction. */
const USER_NUMBER_RE = /^(?:(\d+)|([1-9]\d{0,2}(?:,\d{3})+))?(?:\.(\d+))?$/;
const USER_TRAILING_DOT_RE = /^(?:\d+|[1-9]\d{0,2}(?:,\d{3})+)\.$/;
const EXPONENT_RE = /^[\d.,]*\d[\d.,]*e[+\-\u2212]?\d+$/i;
const MINUS_RE = /^[-\u2212]/;

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
function baseUnitsToBigInt(baseUnits: string | bigint): bigint {
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
    throw new AmountError('invalid', `${quote(tokenAmount)} is not a number.`);
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

/** Formats base units for people: thousands separators, no trailing zeros ("1,234,567.000001 USDT"). */
export function formatTokenAmount(baseUnits: string | bigint, decimals: number, symbol?: string): string {
  assertDecimals(decimals);
  const value = baseUnitsToBigInt(baseUnits);
  const { sign, intPart, fracPart } = splitBaseUnits(value, decimals);
  const amount = `${sign}${groupThousands(intPart)}${fracPart ? `.${fracPart}` : ''}`;
  return symbol ? `${amount} ${symbol}` : amount;
}

/** Adds thousands separators to an API decimal string and strips trailing zeros ("1520.50" → "1,520.5"). */
export function formatDecimal(decimal: string): string {
  const { negative, intPart, fracPart } = parseApiDecimal(decimal);
  const frac = fracPart.replace(/0+$/, '');
  const isZero = /^0*$/.test(intPart) && frac === '';
  const sign = negative && !isZero ? '-' : '';
  return `${sign}${groupThousands(stripLeadingZeros(intPart))}${frac ? `.${frac}` : ''}`;
}

/** Parses a token amount typed by a person ("1,000.50", ".5", "100 USDT") into base units. */
export function parseTokenAmount(
  input: string,
  decimals: number,
  options: { symbol?: string; allowZero?: boolean } = {},
): bigint {
  assertDecimals(decimals);
  if (typeof input !== 'string') {
    throw new TypeError(`amount input must be a string, got ${typeof input}`);
  }
  const { symbol, allowZero = false } = options;
  if (input.length > HARD_INPUT_LIMIT) throw tooLarge();
  let text = input.trim();
  if (text === '') throw new AmountError('invalid', 'Please enter an amount.');

  // Optional trailing symbol of this very token, separated by whitespace.
  const words = /^(\S+)\s+(\S+)$/.exec(text);
  if (words) {
    const [, numberPart = '', word = ''] = words;
    if (symbol && word.toLowerCase() === symbol.toLowerCase()) {
      text = numberPart;
    } else if (/^[A-Za-z][A-Za-z0-9.]*$/.test(word) && looksNumeric(numberPart)) {
      throw new AmountError(
        'invalid',
        symbol
          ? `Expected a ${slackEscape(symbol)} amount, but you wrote ${quote(word)}.`
          : `Write only the number, without ${quote(word)}.`,
      );
    }
  }
  if (text.replace(/,/g, '').length > MAX_INPUT_LENGTH) throw tooLarge();

  const value = parseUnsignedUserNumber(text, input, (intDigits, fracDigits) =>
    digitsToBaseUnits(intDigits, fracDigits, decimals, symbol),
  );
  if (value === 0n && !allowZero) throw mustBePositive();
  if (value > MAX_UINT256) throw tooLarge();
  return value;
}

/** Parses a USD amount typed by a person ("$49.99", "49.99 usd", "USD 1,000.5") into cents. */
export function parseUsdAmount(input: string): bigint {
  if (typeof input !== 'string') {
    throw new TypeError(`amount input must be a string, got ${typeof input}`);
  }
  if (input.length > HARD_INPUT_LIMIT) throw tooLarge(USD_TOO_LARGE);
  const text = input.trim();
  if (text === '') throw new AmountError('invalid', 'Please enter an amount.');

  // [sign] [USD | US$ | $] [sign] number [USD]
  const m = /^([-\u2212]\s*)?(?:(usd)\s*|(?:us)?\$\s*)?([-\u2212])?(.*?)(?:\s*(usd))?$/is.exec(text);
  const leadingSign = m?.[1];
  const prefixUsd = m?.[2];
  const innerSign = m?.[3];
  const body = m?.[4] ?? '';
  const suffixUsd = m?.[5];
  if (!m || (leadingSign && innerSign) || (prefixUsd && suffixUsd) || body === '') {
    throw new AmountError('invalid', notANumber(input));
  }
  if (body.replace(/,/g, '').length > MAX_INPUT_LENGTH) throw tooLarge(USD_TOO_LARGE);
  const signed = leadingSign || innerSign ? `-${body}` : body;

  const cents = parseUnsignedUserNumber(signed, input, (intDigits, fracDigits) => {
    if (fracDigits.length > 2) {
      throw new AmountError(
        'too_many_decimals',
        `USD amounts allow at most 2 decimal places (cents); you gave ${fracDigits.length}.`,
      );
    }
    return BigInt(intDigits || '0') * 100n + BigInt(fracDigits.padEnd(2, '0'));
  });
  if (cents === 0n) throw mustBePositive();
  if (cents > MAX_USD_CENTS) throw tooLarge(USD_TOO_LARGE);
  return cents;
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

/**
 * Formats dollars for people: "$1,520.25", "-$1.00", "n/a" for null/undefined. A string is an
 * API decimal rounded half away from zero to cents; a bigint is already cents.
 */
export function formatUsd(value: string | bigint | null | undefined): string {
  if (value === null || value === undefined) return 'n/a';
  let cents: bigint;
  if (typeof value === 'bigint') {
    cents = value;
  } else if (typeof value === 'string') {
    const { negative, intPart, fracPart } = parseApiDecimal(value);
    const padded = fracPart.padEnd(3, '0');
    let magnitude = BigInt(intPart) * 100n + BigInt(padded.slice(0, 2));
    if (padded.charCodeAt(2) >= 0x35 /* '5' */) magnitude += 1n;
    cents = negative ? -magnitude : magnitude;
  } else {
    throw new TypeError(`USD value must be a decimal string, bigint cents, null or undefined, got ${typeof value}`);
  }
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}$${groupThousands((abs / 100n).toString())}.${(abs % 100n).toString().padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Internals

const USD_TOO_LARGE = 'Amount is too large; the most accepted is $1,000,000,000,000.';

function tooLarge(reason = 'Amount is too large.'): AmountError {
  return new AmountError('too_large', reason);
}

function mustBePositive(): AmountError {
  return new AmountError('zero', 'Amount must be greater than zero.');
}

/** Escapes the three characters Slack treats as control sequences (mentions, links). */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** User input quoted for a Slack reason: whitespace collapsed, shortened, Slack-escaped. */
function quote(text: string): string {
  const flat = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  const short = flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
  return `"${slackEscape(short)}"`;
}

function notANumber(input: string): string {
  return `${quote(input)} is not a number.`;
}

/** Loose check used only to pick a better error message for "<number> <word>". */
function looksNumeric(text: string): boolean {
  return /^[-\u2212]?[\d.,]*\d[\d.,]*$/.test(text);
}

/**
 * Classifies and parses a user number that may carry one leading minus sign. Calls `convert`
 * with the integer digits (separators removed, possibly empty) and fraction digits of a valid
 * non-negative number; rejects negatives, exponents and junk with AmountError.
 */
function parseUnsignedUserNumber(
  text: string,
  originalInput: string,
  convert: (intDigits: string, fracDigits: string) => bigint,
): bigint {
  let body = text;
  let negative = false;
  if (MINUS_RE.test(body)) {
    negative = true;
    body = body.slice(1);
    if (MINUS_RE.test(body)) throw new AmountError('invalid', notANumber(originalInput));
  }
  if (EXPONENT_RE.test(body)) {
    throw new AmountError(
      'exponent',
      `Exponent notation like ${quote(body)} is not accepted; write the number in full.`,
    );
  }
  const m = USER_NUMBER_RE.exec(body);
  const plainInt = m?.[1];
  const groupedInt = m?.[2];
  const frac = m?.[3];
  if (!m || (plainInt === undefined && groupedInt === undefined && frac === undefined)) {
    if (USER_TRAILING_DOT_RE.test(body)) {
      throw new AmountError(
        'invalid',
        `${quote(originalInput)} ends with a decimal point; write the digits after it or leave it out.`,
      );
    }
    if (/^[\d.,]+$/.test(body) && body.includes(',')) {
      throw new AmountError(
        'invalid',
        `${quote(originalInput)} is not a valid number; commas may only separate thousands, like 1,000,000.50.`,
      );
    }
    throw new AmountError('invalid', notANumber(originalInput));
  }
  if (negative) throw new AmountError('negative', 'Amount cannot be negative.');
  const intDigits = plainInt ?? (groupedInt ?? '').replace(/,/g, '');
  return convert(intDigits, frac ?? '');
}

/** Integer digits + fraction digits → base units, rejecting more fraction digits than `decimals`. */
function digitsToBaseUnits(intDigits: string, fracDigits: string, decimals: number, symbol: string | undefined): bigint {
  if (fracDigits.length > decimals) {
    const who = symbol ? slackEscape(symbol) : 'This token';
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
function splitBaseUnits(value: bigint, decimals: number): { sign: string; intPart: string; fracPart: string } {
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
function parseApiDecimal(decimal: string): { negative: boolean; intPart: string; fracPart: string } {
  if (typeof decimal !== 'string') {
    throw new TypeError(`decimal must be a string, got ${typeof decimal}`);
  }
  const m = API_DECIMAL_RE.exec(decimal);
  if (!m) {
    throw new TypeError(`not a decimal string: ${JSON.stringify(decimal.slice(0, 80))}`);
  }
  return { negative: m[1] === '-', intPart: m[2] ?? '0', fracPart: m[3] ?? '' };
}

function stripLeadingZeros(digits: string): string {
  const stripped = digits.replace(/^0+/, '');
  return stripped === '' ? '0' : stripped;
}

/** "1234567" → "1,234,567" (digits only, no sign). */
function groupThousands(digits: string): string {
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
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
