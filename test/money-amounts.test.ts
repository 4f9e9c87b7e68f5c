/** Amounts people type (kernel/amounts.ts): what is accepted, what is refused and the reason shown. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTokenAmount, formatUsd } from '../src/blocks/format.js';
import { MAX_USD_CENTS, parseTokenAmount, parseUsdAmount } from '../src/kernel/amounts.js';
import { AmountError } from '../src/kernel/errors.js';
import { centsToUsd, MAX_UINT256 } from '../src/kernel/money.js';
import { baseUnits, cents, decimals, expectAmountError, MAX_UINT256_DIGITS } from './money-helpers.js';

describe('parseTokenAmount accepts what people type', () => {
  it.each([
    ['1000', 6, 1_000_000_000n],
    ['1,000', 6, 1_000_000_000n],
    ['1,000.50', 6, 1_000_500_000n],
    ['1,234,567.000001', 6, 1_234_567_000_001n],
    ['0.000001', 6, 1n],
    ['.5', 6, 500_000n],
    ['0.5', 6, 500_000n],
    ['  42  ', 6, 42_000_000n],
    ['\t7\n', 0, 7n],
    ['007', 0, 7n],
    ['1.000000', 6, 1_000_000n],
    ['12', 0, 12n],
    ['100,000', 0, 100_000n],
    ['1', 18, 10n ** 18n],
    ['0.000000000000000001', 18, 1n],
    ['1', 36, 10n ** 36n],
    ['0.000000000000000000000000000000000001', 36, 1n],
    [MAX_UINT256_DIGITS, 0, MAX_UINT256],
    [
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457,584,007,913,129,639,935',
      0,
      MAX_UINT256,
    ],
    ['115792089237316195423570985008687907853269.984665640564039457584007913129639935', 36, MAX_UINT256],
  ] as const)('parseTokenAmount(%j, %d) = %s', (input, d, expected) => {
    expect(parseTokenAmount(input, d)).toBe(expected);
  });

  it.each([
    ['100 USDT', 100_000_000n],
    ['100 usdt', 100_000_000n],
    ['1,000.5   USDT', 1_000_500_000n],
    ['  .25 Usdt ', 250_000n],
  ])('accepts the own symbol as a suffix: %j', (input, expected) => {
    expect(parseTokenAmount(input, 6, { symbol: 'USDT' })).toBe(expected);
  });

  it.each([
    ['0', 0n],
    ['0.000000', 0n],
    ['.0', 0n],
    ['0 USDT', 0n],
  ])('allowZero accepts %j', (input, expected) => {
    expect(parseTokenAmount(input, 6, { allowZero: true, symbol: 'USDT' })).toBe(expected);
  });
});

describe('parseTokenAmount rejects', () => {
  it.each([
    // negative
    ['-5', 'negative'],
    ['-0.5', 'negative'],
    ['\u22125', 'negative'],
    ['-1,000', 'negative'],
    ['-0', 'negative'],
    // zero
    ['0', 'zero'],
    ['0.000000', 'zero'],
    ['000', 'zero'],
    ['.0', 'zero'],
    // too many decimals
    ['0.0000001', 'too_many_decimals'],
    ['1.0000000', 'too_many_decimals'],
    ['1,000.1234567', 'too_many_decimals'],
    // exponent
    ['1e6', 'exponent'],
    ['1E-3', 'exponent'],
    ['1.5e10', 'exponent'],
    ['1e+6', 'exponent'],
    ['.5E2', 'exponent'],
    ['-1e6', 'exponent'],
    // absurd sizes
    ['1'.repeat(101), 'too_large'],
    ['9'.repeat(100), 'too_large'],
    ['x'.repeat(5000), 'too_large'],
    // junk
    ['abc', 'invalid'],
    ['1.2.3', 'invalid'],
    ['1,00', 'invalid'],
    ['12,3456', 'invalid'],
    [',100', 'invalid'],
    ['0,100', 'invalid'],
    ['1,000,00', 'invalid'],
    ['1000,000', 'invalid'],
    ['1.000,50', 'invalid'],
    ['0.000,001', 'invalid'],
    ['--1', 'invalid'],
    ['-', 'invalid'],
    ['+5', 'invalid'],
    ['$5', 'invalid'],
    ['0x10', 'invalid'],
    ['0b1', 'invalid'],
    ['NaN', 'invalid'],
    ['Infinity', 'invalid'],
    ['-Infinity', 'invalid'],
    ['', 'invalid'],
    ['   ', 'invalid'],
    ['.', 'invalid'],
    ['1 000', 'invalid'],
    ['1\u00a0000', 'invalid'],
    ['5.', 'invalid'],
    ['1,000.', 'invalid'],
    ['e5', 'invalid'],
    ['1e', 'invalid'],
    ['١٢٣', 'invalid'],
    ['１２', 'invalid'],
    ['5 USDC', 'invalid'],
    ['5 USDT USDT', 'invalid'],
    ['USDT 5', 'invalid'],
    ['5USDT', 'invalid'],
    ['<!channel>', 'invalid'],
  ] as const)('%j → %s', (input, code) => {
    expectAmountError(() => parseTokenAmount(input, 6, { symbol: 'USDT' }), code);
  });

  it('rejects a base-unit result above 2^256 - 1', () => {
    expectAmountError(() => parseTokenAmount((MAX_UINT256 + 1n).toString(), 0), 'too_large');
    expectAmountError(() => parseTokenAmount(`1${'0'.repeat(42)}`, 36), 'too_large');
    expect(parseTokenAmount(`1${'0'.repeat(41)}`, 36)).toBe(10n ** 77n);
  });

  it.each([
    ['-5', 'Amount cannot be negative.'],
    ['0', 'Amount must be greater than zero.'],
    ['1.1234567', 'USDT allows at most 6 decimal places; you gave 7.'],
    ['1e6', 'Exponent notation like "1e6" is not accepted; write the number in full.'],
    ['1'.repeat(101), 'Amount is too large.'],
    ['abc', '"abc" is not a number.'],
    ['1.2.3', '"1.2.3" is not a number.'],
    ['', 'Please enter an amount.'],
    ['1,00', '"1,00" is not a valid number; commas may only separate thousands, like 1,000,000.50.'],
    ['5.', '"5." ends with a decimal point; write the digits after it or leave it out.'],
    ['5 USDC', 'Expected a USDT amount, but you wrote "USDC".'],
    ['<!channel>', '"&lt;!channel&gt;" is not a number.'],
  ])('reason for %j is %j', (input, reason) => {
    expect(() => parseTokenAmount(input, 6, { symbol: 'USDT' })).toThrow(reason);
    try {
      parseTokenAmount(input, 6, { symbol: 'USDT' });
    } catch (err) {
      expect((err as AmountError).reason).toBe(reason);
    }
  });

  it('words the decimals reason without a symbol and for whole-number tokens', () => {
    expect(expectAmountError(() => parseTokenAmount('1.5', 0), 'too_many_decimals').reason).toBe(
      'This token allows no decimal places; you gave 1.',
    );
    expect(expectAmountError(() => parseTokenAmount('1.25', 1, { symbol: 'XYZ' }), 'too_many_decimals').reason).toBe(
      'XYZ allows at most 1 decimal place; you gave 2.',
    );
    expect(expectAmountError(() => parseTokenAmount('5 usdt', 6), 'invalid').reason).toBe(
      'Write only the number, without "usdt".',
    );
  });

  it('shortens very long junk in the reason', () => {
    const err = expectAmountError(() => parseTokenAmount('abc'.repeat(30), 6), 'invalid');
    expect(err.reason.length).toBeLessThan(80);
  });

  it('rejects a non-string input with TypeError', () => {
    expect(() => parseTokenAmount(5 as unknown as string, 6)).toThrow(TypeError);
  });
});

describe('parseUsdAmount', () => {
  it.each([
    ['$49.99', 4999n],
    ['49.99', 4999n],
    ['49.99 usd', 4999n],
    ['49.99 USD', 4999n],
    ['49.99usd', 4999n],
    ['USD 49.99', 4999n],
    ['usd49.99', 4999n],
    ['$ 49.99', 4999n],
    ['US$49.99', 4999n],
    ['$49.99 USD', 4999n],
    ['  $49.99  ', 4999n],
    ['1,000', 100_000n],
    ['$1,000.5', 100_050n],
    ['$1,520.25', 152_025n],
    ['49.9', 4990n],
    ['.5', 50n],
    ['$.01', 1n],
    ['0.01', 1n],
    ['5', 500n],
    ['$1,000,000,000,000', MAX_USD_CENTS],
    ['1000000000000.00', MAX_USD_CENTS],
  ] as const)('parseUsdAmount(%j) = %s cents', (input, expected) => {
    expect(parseUsdAmount(input)).toBe(expected);
  });

  it.each([
    ['49.999', 'too_many_decimals'],
    ['$0.001', 'too_many_decimals'],
    ['1.000', 'too_many_decimals'],
    ['0', 'zero'],
    ['$0.00', 'zero'],
    ['0 USD', 'zero'],
    ['-5', 'negative'],
    ['-$5', 'negative'],
    ['$-5', 'negative'],
    ['-5 USD', 'negative'],
    ['USD -5', 'negative'],
    ['\u2212$5', 'negative'],
    ['$1e6', 'exponent'],
    ['1E-3 USD', 'exponent'],
    ['$1,000,000,000,000.01', 'too_large'],
    ['1000000000001', 'too_large'],
    ['9'.repeat(101), 'too_large'],
    ['x'.repeat(5000), 'too_large'],
    ['abc', 'invalid'],
    ['$', 'invalid'],
    ['USD', 'invalid'],
    ['', 'invalid'],
    ['$$5', 'invalid'],
    ['USD 5 USD', 'invalid'],
    ['5 $', 'invalid'],
    ['5$', 'invalid'],
    ['€5', 'invalid'],
    ['5 EUR', 'invalid'],
    ['1,00', 'invalid'],
    ['12,3456', 'invalid'],
    ['1.2.3', 'invalid'],
    ['--5', 'invalid'],
    ['-$-5', 'invalid'],
    ['+5', 'invalid'],
    ['$5.', 'invalid'],
    ['1 000', 'invalid'],
    ['0x10', 'invalid'],
    ['NaN', 'invalid'],
    ['Infinity', 'invalid'],
    ['$<@U123>', 'invalid'],
  ] as const)('parseUsdAmount(%j) throws %s', (input, code) => {
    expectAmountError(() => parseUsdAmount(input), code);
  });

  it.each([
    ['49.999', 'USD amounts allow at most 2 decimal places (cents); you gave 3.'],
    ['$0', 'Amount must be greater than zero.'],
    ['-$5', 'Amount cannot be negative.'],
    ['$2,000,000,000,000', 'Amount is too large; the most accepted is $1,000,000,000,000.'],
    ['abc', '"abc" is not a number.'],
    ['$<@U123>', '"$&lt;@U123&gt;" is not a number.'],
  ])('reason for %j is %j', (input, reason) => {
    expect(() => parseUsdAmount(input)).toThrow(reason);
  });
});

describe('round-trip properties', () => {
  it('parseTokenAmount(formatTokenAmount(x, d), d, { allowZero: true }) === x', () => {
    fc.assert(
      fc.property(baseUnits, decimals, (x, d) => {
        expect(parseTokenAmount(formatTokenAmount(x, d), d, { allowZero: true })).toBe(x);
      }),
      { numRuns: 2000 },
    );
  });

  it('parseTokenAmount also round-trips with the symbol appended', () => {
    fc.assert(
      fc.property(baseUnits, decimals, (x, d) => {
        expect(parseTokenAmount(formatTokenAmount(x, d, 'WBTC'), d, { allowZero: true, symbol: 'WBTC' })).toBe(x);
      }),
    );
  });

  it('parseUsdAmount(centsToUsd(c)) === c for c > 0', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(parseUsdAmount(centsToUsd(c))).toBe(c);
      }),
      { numRuns: 2000 },
    );
  });

  it('parseUsdAmount(formatUsd(c)) === c for c > 0', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(parseUsdAmount(formatUsd(c))).toBe(c);
      }),
    );
  });

  it('parseTokenAmount never throws anything but AmountError on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), decimals, (s, d) => {
        try {
          const v = parseTokenAmount(s, d, { allowZero: true });
          expect(v >= 0n && v <= MAX_UINT256).toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(AmountError);
        }
      }),
    );
  });

  it('parseUsdAmount never throws anything but AmountError on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (s) => {
        try {
          const v = parseUsdAmount(s);
          expect(v > 0n && v <= MAX_USD_CENTS).toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(AmountError);
        }
      }),
    );
  });
});
