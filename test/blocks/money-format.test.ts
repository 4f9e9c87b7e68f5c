/** Numbers for people (blocks/format.ts): token amounts, API decimals and dollars, exact. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatDecimal, formatTokenAmount, formatUsd } from '../../src/blocks/format.js';
import { compareText } from '../../src/kernel/compare.js';
import { centsToUsd, fromBaseUnits } from '../../src/kernel/money.js';
import { baseUnits, decimals, MAX_UINT256_DIGITS } from '../money-helpers.js';

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
    [
      MAX_UINT256_DIGITS,
      0,
      undefined,
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457,584,007,913,129,639,935',
    ],
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
  it('formatTokenAmount without separators equals fromBaseUnits', () => {
    fc.assert(
      fc.property(baseUnits, decimals, (x, d) => {
        expect(formatTokenAmount(x, d).replace(/,/g, '')).toBe(fromBaseUnits(x, d));
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
});

describe('formatCount (counts in status lines, without Intl)', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [40000, '40,000'],
    [1234567, '1,234,567'],
    [-1200, '-1,200'],
  ])('%d → %s', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });

  it('agrees with en-US grouping for any safe integer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
        (n) => formatCount(n) === n.toLocaleString('en-US'),
      ),
    );
  });
});

describe('compareText (code-unit order for timestamps, ids and symbols)', () => {
  it('orders ISO-8601 timestamps in time order and is a total order', () => {
    const stamps = ['2026-11-24T10:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-11-24T09:59:59.999Z'];
    expect([...stamps].sort(compareText)).toEqual([
      '2026-01-02T00:00:00.000Z',
      '2026-11-24T09:59:59.999Z',
      '2026-11-24T10:00:00.000Z',
    ]);
    expect(compareText('USDT', 'USDT')).toBe(0);
    expect(compareText('BTC', 'USDT')).toBe(-1);
    expect(compareText('b', 'a')).toBe(1);
  });
});
