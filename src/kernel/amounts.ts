/**
 * Amounts people type in Slack, parsed into exact base units or cents. `parseTokenAmount` / `parseUsdAmount`
 * throw `AmountError` (kernel/errors.ts), whose `reason` can be shown to the user as is. Programming errors
 * (bad `decimals`, wrong runtime types) throw `RangeError` / `TypeError`, never `AmountError`.
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
import { AmountError } from './errors.js';
import { assertDecimals, digitsToBaseUnits, MAX_UINT256 } from './money.js';
import { escapeText, quoteInput as quote } from './text.js';

/** Largest USD amount `parseUsdAmount` accepts, in cents (one trillion dollars). */
export const MAX_USD_CENTS: bigint = 10n ** 14n;

/** Longest accepted user input, counted without thousands separators. */
const MAX_INPUT_LENGTH = 100;

const HARD_INPUT_LIMIT = 1000;
/** Integer part either plain digits or correctly grouped thousands; optional fraction. */
const USER_NUMBER_RE = /^(?:(\d+)|([1-9]\d{0,2}(?:,\d{3})+))?(?:\.(\d+))?$/;
const USER_TRAILING_DOT_RE = /^(?:\d+|[1-9]\d{0,2}(?:,\d{3})+)\.$/;
const EXPONENT_RE = /^[\d.,]*\d[\d.,]*e[+\-\u2212]?\d+$/i;
const MINUS_RE = /^[-\u2212]/;

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
          ? `Expected a ${escapeText(symbol)} amount, but you wrote ${quote(word)}.`
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

// ---------------------------------------------------------------------------------------------
// Internals

const USD_TOO_LARGE = 'Amount is too large; the most accepted is $1,000,000,000,000.';

function tooLarge(reason = 'Amount is too large.'): AmountError {
  return new AmountError('too_large', reason);
}

function mustBePositive(): AmountError {
  return new AmountError('zero', 'Amount must be greater than zero.');
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
