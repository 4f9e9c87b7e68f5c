/** Exact arithmetic in kernel/money.ts: base units ⇄ token units, comparisons, sums. No float anywhere. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal, formatTokenAmount, formatUsd } from '../src/blocks/format.js';
import { parseTokenAmount, parseUsdAmount } from '../src/kernel/amounts.js';
import {
  assertDecimals,
  centsToUsd,
  compareBaseUnits,
  compareDecimals,
  fromBaseUnits,
  isBaseUnitString,
  MAX_UINT256,
  sumDecimals,
  toBaseUnits,
} from '../src/kernel/money.js';
import { baseUnits, decimals, expectAmountError, MAX_UINT256_DIGITS } from './money-helpers.js';

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

  it.each(['', '-1', '+1', '1.0', '1e6', ' 1', '1 ', '0x10', '١٢', 12, 12n, null])(
    'isBaseUnitString(%s) is false',
    (s) => {
      expect(isBaseUnitString(s)).toBe(false);
    },
  );

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
    expect(formatTokenAmount('123456789012345678901234567890', 18, 'ETH')).toBe(
      '123,456,789,012.34567890123456789 ETH',
    );
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
    [10n ** 14n, '1000000000000.00'], // the largest amount parseUsdAmount accepts
  ])('centsToUsd(%s) = %j', (cents, expected) => {
    expect(centsToUsd(cents)).toBe(expected);
  });

  it('rejects a number at runtime', () => {
    expect(() => centsToUsd(4999 as unknown as bigint)).toThrow(TypeError);
  });
});

describe('round-trip properties', () => {
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

  it('fromBaseUnits never has trailing zeros after a point', () => {
    fc.assert(
      fc.property(baseUnits, decimals, (x, d) => {
        const s = fromBaseUnits(x, d);
        expect(s).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
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
