import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  AmountError,
  type AmountErrorCode,
  MAX_UINT256,
  MAX_USD_CENTS,
  assertDecimals,
  centsToUsd,
  compareBaseUnits,
  formatDecimal,
  formatTokenAmount,
  formatUsd,
  fromBaseUnits,
  isBaseUnitString,
  parseTokenAmount,
  parseUsdAmount,
  compareDecimals,
  sumDecimals,
  toBaseUnits,
} from '../src/money.js';

const MAX_UINT256_DIGITS = '115792089237316195423570985008687907853269984665640564039457584007913129639935';

/** Runs `fn`, asserts it throws an AmountError with `code`, and returns the error. */
function expectAmountError(fn: () => unknown, code: AmountErrorCode): AmountError {
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

describe('constants and validation helpers', () => {
  it('MAX_UINT256 is 2^256 - 1', () => {
    expect(MAX_UINT256).toBe(2n ** 256n - 1n);
    expect(MAX_UINT256.toString()).toBe(MAX_UINT256_DIGITS);
  });

  it.each([0, 1, 6, 18, 36])('accepts decimals %d', (d) => {
    expect(() => assertDecimals(d)).not.toThrow();
  });

  it.each([-1, 37, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 100])('rejects decimals %d with RangeError', (d) => {
    expect(() => assertDecimals(d)).toThrow(RangeError);
    expect(() => toBaseUnits('1', d)).toThrow(RangeError);
    expect(() => fromBaseUnits('1', d)).toThrow(RangeError);
    expect(() => formatTokenAmount('1', d)).toThrow(RangeError);
    expect(() => parseTokenAmount('1', d)).toThrow(RangeError);
  });

  it('rejects non-number decimals with TypeError, not AmountError', () => {
    expect(() => assertDecimals('6' as unknown as number)).toThrow(TypeError);
    expect(() => parseTokenAmount('1', '6' as unknown as number)).toThrow(TypeError);
  });

  it.each(['0', '1', '000', MAX_UINT256_DIGITS])('isBaseUnitString(%j) is true', (s) => {
    expect(isBaseUnitString(s)).toBe(true);
  });

  it.each(['', '-1', '+1', '1.0', '1e6', ' 1', '1 ', '0x10', '١٢', 12, 12n, null])('isBaseUnitString(%s) is false', (s) => {
    expect(isBaseUnitString(s)).toBe(false);
  });

  it.each([
    ['1', '2', -1],
    ['2', '1', 1],
    ['007', 7n, 0],
    [MAX_UINT256_DIGITS, MAX_UINT256 - 1n, 1],
    [-5n, '0', -1],
  ] as const)('compareBaseUnits(%s, %s) = %d', (a, b, expected) => {
    expect(compareBaseUnits(a, b)).toBe(expected);
  });
});

describe('toBaseUnits', () => {
  it.each([
    ['0', 0, 0n],
    ['12', 0, 12n],
    ['1', 6, 1_000_000n],
    ['1.5', 6, 1_500_000n],
    ['0.000001', 6, 1n],
    ['1.000000', 6, 1_000_000n],
    ['1520.254301', 6, 1_520_254_301n],
    ['1', 18, 10n ** 18n],
    ['0.000000000000000001', 18, 1n],
    ['123456789012.345678901234567890', 18, 123456789012345678901234567890n],
    ['1', 36, 10n ** 36n],
    ['0.000000000000000000000000000000000001', 36, 1n],
    [MAX_UINT256_DIGITS, 0, MAX_UINT256],
    ['00012.50', 2, 1250n],
    ['-1.5', 6, -1_500_000n],
    ['-0', 6, 0n],
  ] as const)('toBaseUnits(%j, %d) = %s', (input, d, expected) => {
    expect(toBaseUnits(input, d)).toBe(expected);
  });

  it.each([
    ['1.5', 0, 'too_many_decimals'],
    ['0.0000001', 6, 'too_many_decimals'],
    ['1.0000000', 6, 'too_many_decimals'],
    ['0.0000000000000000000000000000000000001', 36, 'too_many_decimals'],
    ['', 6, 'invalid'],
    ['1,000', 6, 'invalid'],
    ['.5', 6, 'invalid'],
    ['5.', 6, 'invalid'],
    ['+5', 6, 'invalid'],
    ['1e6', 6, 'invalid'],
    [' 1', 6, 'invalid'],
    ['abc', 6, 'invalid'],
  ] as const)('toBaseUnits(%j, %d) throws %s', (input, d, code) => {
    expectAmountError(() => toBaseUnits(input, d), code);
  });

  it('names the limit in the too-many-decimals reason', () => {
    const err = expectAmountError(() => toBaseUnits('0.0000001', 6), 'too_many_decimals');
    expect(err.reason).toBe('This token allows at most 6 decimal places; you gave 7.');
  });
});

describe('fromBaseUnits', () => {
  it.each([
    ['0', 0, '0'],
    ['0', 6, '0'],
    ['12', 0, '12'],
    ['1500000', 6, '1.5'],
    ['1', 6, '0.000001'],
    ['12000000', 6, '12'],
    ['1000001', 6, '1.000001'],
    ['0001500000', 6, '1.5'],
    ['1', 18, '0.000000000000000001'],
    ['1', 36, '0.000000000000000000000000000000000001'],
    ['1000000000000000000000000000000000000', 36, '1'],
    [MAX_UINT256_DIGITS, 0, MAX_UINT256_DIGITS],
    [MAX_UINT256_DIGITS, 18, '115792089237316195423570985008687907853269984665640564039457.584007913129639935'],
    [MAX_UINT256_DIGITS, 36, '115792089237316195423570985008687907853269.984665640564039457584007913129639935'],
    [-1_500_000n, 6, '-1.5'],
    [-1n, 6, '-0.000001'],
    [1_234_567n, 0, '1234567'],
  ] as const)('fromBaseUnits(%s, %d) = %j', (input, d, expected) => {
    expect(fromBaseUnits(input, d)).toBe(expected);
  });

  it.each(['', '-1', '+1', '1.5', '1e6', ' 1', '0x10', 'abc'])('rejects base-unit string %j with TypeError', (s) => {
    expect(() => fromBaseUnits(s, 6)).toThrow(TypeError);
    expect(() => formatTokenAmount(s, 6)).toThrow(TypeError);
  });

  it('rejects numbers at runtime (no floats allowed in)', () => {
    expect(() => fromBaseUnits(1.5 as unknown as bigint, 6)).toThrow(TypeError);
    expect(() => formatTokenAmount(15 as unknown as bigint, 6)).toThrow(TypeError);
  });
});

describe('no floating point anywhere', () => {
  it('keeps 30 significant digits exact', () => {
    expect(fromBaseUnits('123456789012345678901234567890', 18)).toBe('123456789012.34567890123456789');
    expect(formatTokenAmount('123456789012345678901234567890', 18, 'ETH')).toBe('123,456,789,012.34567890123456789 ETH');
    expect(toBaseUnits('123456789012.34567890123456789', 18)).toBe(123456789012345678901234567890n);
    expect(parseTokenAmount('123,456,789,012.34567890123456789', 18)).toBe(123456789012345678901234567890n);
  });

  it('gets the classic float traps right', () => {
    // 0.1 + 0.2 and 9007199254740993 are not representable as doubles.
    expect(toBaseUnits('0.1', 18) + toBaseUnits('0.2', 18)).toBe(toBaseUnits('0.3', 18));
    expect(parseTokenAmount('9007199254740993', 0)).toBe(9007199254740993n);
    expect(fromBaseUnits(9007199254740993n, 0)).toBe('9007199254740993');
    expect(formatUsd('9007199254740993.995')).toBe('$9,007,199,254,740,994.00');
    expect(formatDecimal('9007199254740993.1000000000000000001')).toBe('9,007,199,254,740,993.1000000000000000001');
    expect(parseUsdAmount('$90,071,992,547.41')).toBe(9007199254741n);
    expect(formatUsd('1.005')).toBe('$1.01'); // a float would round 1.005 down
    expect(formatUsd('1.015')).toBe('$1.02');
  });
});

describe('formatTokenAmount', () => {
  it.each([
    ['0', 6, undefined, '0'],
    ['1234567000001', 6, 'USDT', '1,234,567.000001 USDT'],
    ['1234567000000', 6, 'USDT', '1,234,567 USDT'],
    ['1500000', 6, undefined, '1.5'],
    ['1', 6, undefined, '0.000001'],
    ['999', 0, 'X', '999 X'],
    ['1000', 0, 'X', '1,000 X'],
    ['100000', 0, undefined, '100,000'],
    ['1000000', 0, undefined, '1,000,000'],
    ['1', 36, undefined, '0.000000000000000000000000000000000001'],
    ['1000000000000000000000000000000000000', 36, undefined, '1'],
    [MAX_UINT256_DIGITS, 0, undefined,
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457,584,007,913,129,639,935'],
    [-1_234_500_000n, 6, 'USDC', '-1,234.5 USDC'],
    [12_345_678_900_000_000_000_000n, 18, 'ETH', '12,345.6789 ETH'],
  ] as const)('formatTokenAmount(%s, %d, %s) = %j', (input, d, symbol, expected) => {
    expect(formatTokenAmount(input, d, symbol)).toBe(expected);
  });
});

describe('formatDecimal', () => {
  it.each([
    ['1520.25', '1,520.25'],
    ['1520.254301', '1,520.254301'],
    ['1520.50', '1,520.5'],
    ['1520.00', '1,520'],
    ['1520', '1,520'],
    ['0', '0'],
    ['0.000', '0'],
    ['0.10', '0.1'],
    ['999', '999'],
    ['1000', '1,000'],
    ['1234567.891', '1,234,567.891'],
    ['000123.4', '123.4'],
    ['-1520.50', '-1,520.5'],
    ['-0.00', '0'],
  ])('formatDecimal(%j) = %j', (input, expected) => {
    expect(formatDecimal(input)).toBe(expected);
  });

  it.each(['', 'abc', '1,520.25', '.5', '5.', '1e6', '+5', ' 5', 'NaN', '--1', '1.2.3'])(
    'formatDecimal(%j) throws TypeError',
    (input) => {
      expect(() => formatDecimal(input)).toThrow(TypeError);
    },
  );
});

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
    ['115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457,584,007,913,129,639,935', 0, MAX_UINT256],
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
    expectAmountError(() => parseTokenAmount('1' + '0'.repeat(42), 36), 'too_large');
    expect(parseTokenAmount('1' + '0'.repeat(41), 36)).toBe(10n ** 77n);
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

describe('centsToUsd', () => {
  it.each([
    [4999n, '49.99'],
    [1n, '0.01'],
    [10n, '0.10'],
    [100n, '1.00'],
    [0n, '0.00'],
    [100_050n, '1000.50'],
    [-5n, '-0.05'],
    [-100n, '-1.00'],
    [MAX_USD_CENTS, '1000000000000.00'],
  ])('centsToUsd(%s) = %j', (cents, expected) => {
    expect(centsToUsd(cents)).toBe(expected);
  });

  it('rejects a number at runtime', () => {
    expect(() => centsToUsd(4999 as unknown as bigint)).toThrow(TypeError);
  });
});

describe('formatUsd', () => {
  it.each([
    ['1520.25', '$1,520.25'],
    ['1520.254301', '$1,520.25'],
    ['1520.255', '$1,520.26'],
    ['1520.2549999999', '$1,520.25'],
    ['1520.995', '$1,521.00'],
    ['999999.995', '$1,000,000.00'],
    ['0.005', '$0.01'],
    ['0.004999', '$0.00'],
    ['0', '$0.00'],
    ['12', '$12.00'],
    ['12.5', '$12.50'],
    ['-1', '-$1.00'],
    ['-1.005', '-$1.01'],
    ['-1.004', '-$1.00'],
    ['-0.004', '$0.00'],
    ['1234567890123456789.01', '$1,234,567,890,123,456,789.01'],
    [152025n, '$1,520.25'],
    [-100n, '-$1.00'],
    [0n, '$0.00'],
    [1n, '$0.01'],
    [null, 'n/a'],
    [undefined, 'n/a'],
  ] as const)('formatUsd(%s) = %j', (input, expected) => {
    expect(formatUsd(input)).toBe(expected);
  });

  it.each(['', 'abc', '$5', '1,520.25', '1e3', '.5', '5.', ' 5', 'NaN'])('formatUsd(%j) throws TypeError', (input) => {
    expect(() => formatUsd(input)).toThrow(TypeError);
  });

  it('rejects a number at runtime', () => {
    expect(() => formatUsd(1520.25 as unknown as string)).toThrow(TypeError);
  });
});

describe('round-trip properties', () => {
  // Mix uniformly large values with small and edge values so every decimals/length regime is hit.
  const baseUnits = fc.oneof(
    fc.bigInt({ min: 0n, max: MAX_UINT256 }),
    fc.bigInt({ min: 0n, max: 10n ** 40n }),
    fc.bigInt({ min: 0n, max: 1000n }),
    fc.constantFrom(0n, 1n, MAX_UINT256, MAX_UINT256 - 1n, 10n ** 36n, 10n ** 18n),
  );
  const decimals = fc.integer({ min: 0, max: 36 });

  it('toBaseUnits(fromBaseUnits(x, d), d) === x', () => {
    fc.assert(
      fc.property(baseUnits, decimals, (x, d) => {
        expect(toBaseUnits(fromBaseUnits(x, d), d)).toBe(x);
        expect(toBaseUnits(fromBaseUnits(x.toString(), d), d)).toBe(x);
      }),
      { numRuns: 2000 },
    );
  });

  it('toBaseUnits(fromBaseUnits(x, d), d) === x for negative x too', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_UINT256, max: 0n }), decimals, (x, d) => {
        expect(toBaseUnits(fromBaseUnits(x, d), d)).toBe(x);
      }),
    );
  });

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

  it('formatTokenAmount without separators equals fromBaseUnits', () => {
    fc.assert(
      fc.property(baseUnits, decimals, (x, d) => {
        expect(formatTokenAmount(x, d).replace(/,/g, '')).toBe(fromBaseUnits(x, d));
      }),
    );
  });

  it('fromBaseUnits never has trailing zeros after a point', () => {
    fc.assert(
      fc.property(baseUnits, decimals, (x, d) => {
        const s = fromBaseUnits(x, d);
        expect(s).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
      }),
    );
  });

  const cents = fc.oneof(fc.bigInt({ min: 1n, max: MAX_USD_CENTS }), fc.bigInt({ min: 1n, max: 10_000n }));

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

  it('formatUsd(centsToUsd(c)) === formatUsd(c) for any c', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (c) => {
        expect(formatUsd(centsToUsd(c))).toBe(formatUsd(c));
      }),
    );
  });

  it('formatUsd rounds a decimal string half away from zero to cents', () => {
    // Reference: scale to ten-thousandths, then round by integer arithmetic.
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }), (tenThousandths) => {
        const abs = tenThousandths < 0n ? -tenThousandths : tenThousandths;
        const roundedAbs = (abs + 50n) / 100n;
        const expectedCents = tenThousandths < 0n ? -roundedAbs : roundedAbs;
        const decimal = fromBaseUnits(tenThousandths, 4);
        expect(formatUsd(decimal)).toBe(formatUsd(expectedCents));
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

describe('sumDecimals', () => {
  it('adds USD strings of different scales exactly', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['1520.254301', '3000', '0.000001', '-0.5'])).toBe('4519.754302');
    expect(sumDecimals([])).toBe('0');
  });
});

describe('compareDecimals', () => {
  it.each([
    ['10', '9.999999', 1],
    ['0.10', '0.1', 0],
    ['-1', '0', -1],
    ['123456789012345678901234567890.1', '123456789012345678901234567890.01', 1],
  ] as const)('%s vs %s → %d', (a, b, expected) => expect(compareDecimals(a, b)).toBe(expected));
});
