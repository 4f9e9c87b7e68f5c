/** Shared by the money tests (kernel/money, kernel/amounts, blocks/format): arbitraries and error checks. */
import fc from 'fast-check';
import { expect } from 'vitest';
import { MAX_USD_CENTS } from '../src/kernel/amounts.js';
import { AmountError, type AmountErrorCode } from '../src/kernel/errors.js';
import { MAX_UINT256 } from '../src/kernel/money.js';

export const MAX_UINT256_DIGITS = '115792089237316195423570985008687907853269984665640564039457584007913129639935';

/** Runs `fn`, asserts it throws an AmountError with `code`, and returns the error. */
export function expectAmountError(fn: () => unknown, code: AmountErrorCode): AmountError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(AmountError);
  const err = caught as AmountError;
  expect(err.code).toBe(code);
  expect(err.name).toBe('AmountError');
  expect(err.message).toBe(err.reason);
  expectReadable(err.reason);
  return err;
}

/** A reason is one or more plain sentences: capitalised or quoted start, ends with a full stop. */
function expectReadable(reason: string): void {
  expect(reason.length).toBeGreaterThan(10);
  expect(reason.length).toBeLessThan(200);
  expect(reason).toMatch(/^["A-Z]/);
  expect(reason).toMatch(/\.$/);
  // Ignore the user's own input quoted back to them (it may legitimately be "NaN").
  expect(reason.replace(/"[^"]*"/g, '""')).not.toMatch(/undefined|null|NaN|\[object/);
  expect(reason).not.toMatch(/[<>]/);
}

/** Base-unit amounts: uniformly large values mixed with small and edge values, so every decimals/length regime is hit. */
export const baseUnits = fc.oneof(
  fc.bigInt({ min: 0n, max: MAX_UINT256 }),
  fc.bigInt({ min: 0n, max: 10n ** 40n }),
  fc.bigInt({ min: 0n, max: 1000n }),
  fc.constantFrom(0n, 1n, MAX_UINT256, MAX_UINT256 - 1n, 10n ** 36n, 10n ** 18n),
);
/** Every decimals a crypto may have. */
export const decimals = fc.integer({ min: 0, max: 36 });
/** Positive cents up to the largest accepted USD amount. */
export const cents = fc.oneof(fc.bigInt({ min: 1n, max: MAX_USD_CENTS }), fc.bigInt({ min: 1n, max: 10_000n }));
