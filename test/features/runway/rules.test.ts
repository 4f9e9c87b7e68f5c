// Runway forecasting, as tables: exact BigInt money, "still learning" until three days of history, "not spending",
// deposits never counted as negative spend, missing days, and the gas donor's `charged` amounts.
import { describe, expect, it } from 'vitest';
import {
  type AssetNow,
  type BalanceReading,
  compareRational,
  forecastRunways,
  formatLevelDays,
  formatRunwayDays,
  type GasCharge,
  judgeRunway,
  outflowOf,
  parseRunwayDays,
  type Rational,
  readingsInWindow,
  runwayLine,
  runwayOf,
  runwayRecoveryLevel,
} from '../../../src/features/runway/rules.js';

const TODAY = '2026-11-28';

/** Readings of asset `a1` by days before today: [daysAgo, balance]. */
function history(points: ReadonlyArray<readonly [number, bigint]>, assetId = 'a1'): BalanceReading[] {
  return points.map(([ago, balance]) => {
    const day = new Date(Date.parse(`${TODAY}T00:00:00Z`) - ago * 86_400_000).toISOString().slice(0, 10);
    return { day, at: `${day}T09:00:00.000Z`, assets: { [assetId]: { balance: balance.toString() } } };
  });
}

const asset = (balance: bigint, usdCents: bigint | null = null, id = 'a1'): AssetNow => ({
  id,
  symbol: 'USDT',
  network: 'ETH',
  decimals: 6,
  balance,
  usdCents,
});

const days = (r: Rational) => formatRunwayDays(r);

describe('the outflow counts only decreases; deposits and top-ups are not negative spend', () => {
  it.each<[string, ReadonlyArray<readonly [number, bigint]>, bigint, number]>([
    [
      'steady spend of 100 a day',
      [
        [3, 1_000n],
        [2, 900n],
        [1, 800n],
        [0, 700n],
      ],
      300n,
      3,
    ],
    [
      'a deposit in the middle does not cancel spend',
      [
        [3, 1_000n],
        [2, 900n],
        [1, 5_000n],
        [0, 4_900n],
      ],
      200n,
      3,
    ],
    [
      'only deposits: nothing spent',
      [
        [3, 100n],
        [2, 200n],
        [1, 300n],
        [0, 400n],
      ],
      0n,
      3,
    ],
    [
      'flat',
      [
        [3, 100n],
        [2, 100n],
        [1, 100n],
        [0, 100n],
      ],
      0n,
      3,
    ],
    [
      'exact beyond 2^53 (18 decimals)',
      [
        [3, 10n ** 30n + 7n],
        [0, 10n ** 30n],
      ],
      7n,
      3,
    ],
  ])('%s', (_name, points, spent, span) => {
    expect(outflowOf('a1', history(points))).toEqual({ spent, gas: 0n, days: span });
  });

  it('a gap (missing day) widens the step: its net decrease counts once over the days it spans', () => {
    // Days 5 and 4 ago are missing: the step from 6 to 3 days ago counts 300 over 3 days.
    const outflow = outflowOf(
      'a1',
      history([
        [6, 1_000n],
        [3, 700n],
        [2, 600n],
        [1, 500n],
        [0, 400n],
      ]),
    );
    expect(outflow).toEqual({ spent: 600n, gas: 0n, days: 6 });
  });

  it('an asset absent from some readings is measured over the readings that have it', () => {
    const readings = [
      ...history([
        [4, 1_000n],
        [0, 600n],
      ]),
      ...history([[2, 50n]], 'other'),
    ];
    expect(outflowOf('a1', readings)).toEqual({ spent: 400n, gas: 0n, days: 4 });
    expect(outflowOf('other', readings)).toBeUndefined();
  });
});

describe('the window: the 7 days before today, one reading a day', () => {
  it('keeps today back to 7 days before, drops older and future readings', () => {
    const readings = history([
      [9, 1n],
      [8, 1n],
      [7, 1n],
      [3, 1n],
      [0, 1n],
      [-1, 1n],
    ]);
    expect(readingsInWindow(readings, TODAY).map((r) => r.day)).toEqual(['2026-11-21', '2026-11-25', '2026-11-28']);
  });
});

describe('one asset’s runway', () => {
  it.each<[string, ReadonlyArray<readonly [number, bigint]>, bigint, string, string | undefined]>([
    ['no history', [], 1_000n, 'learning', undefined],
    ['one reading', [[0, 1_000n]], 1_000n, 'learning', undefined],
    [
      'two days of history is still learning',
      [
        [2, 1_000n],
        [0, 800n],
      ],
      800n,
      'learning',
      undefined,
    ],
    [
      'three days of history',
      [
        [3, 1_000n],
        [0, 700n],
      ],
      700n,
      'spending',
      '7',
    ],
    [
      'not spending',
      [
        [3, 500n],
        [0, 500n],
      ],
      500n,
      'not_spending',
      undefined,
    ],
    [
      'only deposits: not spending',
      [
        [3, 500n],
        [1, 900n],
        [0, 1_200n],
      ],
      1_200n,
      'not_spending',
      undefined,
    ],
    // 300 over 3 days = 100/day; 350 now lasts 3.5 days.
    [
      'fractional days shown to one decimal',
      [
        [3, 1_000n],
        [0, 700n],
      ],
      350n,
      'spending',
      '3.5',
    ],
    // 7 over 3 days; 10^30 lasts 10^30 * 3 / 7 days: whole days past 10, with separators.
    [
      'huge balances stay exact',
      [
        [3, 7n],
        [0, 0n],
      ],
      10n ** 20n,
      'spending',
      '42,857,142,857,142,857,142',
    ],
    [
      'an empty balance',
      [
        [3, 300n],
        [0, 0n],
      ],
      0n,
      'spending',
      '0',
    ],
  ])('%s', (_name, points, balanceNow, state, shown) => {
    const runway = runwayOf(asset(balanceNow), history(points));
    expect(runway.state).toBe(state);
    if (runway.state === 'spending') expect(days(runway.days)).toBe(shown);
  });

  it('the runway is the exact rational balance × days / spent', () => {
    const runway = runwayOf(
      asset(1_000n),
      history([
        [7, 3_000n],
        [0, 1_000n],
      ]),
    );
    expect(runway).toMatchObject({ state: 'spending', days: { num: 7_000n, den: 2_000n } });
  });
});

describe('the gas donor: the `charged` amounts of gas top-ups are its outflow too', () => {
  const readings = history([
    [3, 1_000n],
    [2, 1_000n],
    [1, 1_000n],
    [0, 1_000n],
  ]);
  const at = (ago: number, hour = '12') =>
    new Date(Date.parse(`${TODAY}T${hour}:00:00Z`) - ago * 86_400_000).toISOString();

  it.each<[string, GasCharge[], bigint, string]>([
    ['no charges: not spending', [], 0n, 'not_spending'],
    [
      'charges inside the history count',
      [
        { assetId: 'a1', amount: 150n, at: at(2) },
        { assetId: 'a1', amount: 150n, at: at(1) },
      ],
      300n,
      'spending',
    ],
    ['charges before the oldest reading do not', [{ assetId: 'a1', amount: 500n, at: at(4) }], 0n, 'not_spending'],
    [
      'charges after the newest reading do not (today’s come tomorrow)',
      [{ assetId: 'a1', amount: 500n, at: at(0, '10') }],
      0n,
      'not_spending',
    ],
    ['charges to another asset do not', [{ assetId: 'a2', amount: 500n, at: at(1) }], 0n, 'not_spending'],
  ])('%s', (_name, gas, spent, state) => {
    expect(outflowOf('a1', readings, gas)?.spent ?? 0n).toBe(spent);
    expect(runwayOf(asset(1_000n), readings, gas).state).toBe(state);
  });

  it('gas adds to the balance decreases (the API says gas does not pass through asset balances)', () => {
    const spending = history([
      [3, 1_000n],
      [0, 700n],
    ]);
    const outflow = outflowOf('a1', spending, [{ assetId: 'a1', amount: 300n, at: at(1) }]);
    expect(outflow).toEqual({ spent: 600n, gas: 300n, days: 3 });
  });

  it('when the gas list cannot be read, a known donor is unknown, the others are judged', () => {
    const both = [...readings].map((r) => ({ ...r, assets: { ...r.assets, a2: { balance: '10' } } }));
    const forecast = forecastRunways({
      today: TODAY,
      readings: both,
      assets: [asset(1_000n), asset(10n, null, 'a2')],
      gas: 'unreadable',
      donorIds: new Set(['a1']),
    });
    expect(forecast.map((f) => [f.asset.id, f.runway.state])).toEqual([
      ['a1', 'unknown'],
      ['a2', 'not_spending'],
    ]);
  });
});

describe('the forecast orders the shortest runway first', () => {
  it('spending by days, then unknown, not spending, learning', () => {
    const readings = [
      {
        day: '2026-11-25',
        at: '2026-11-25T09:00:00Z',
        assets: { a: { balance: '1000' }, b: { balance: '1000' }, c: { balance: '5' } },
      },
      {
        day: '2026-11-28',
        at: '2026-11-28T09:00:00Z',
        assets: { a: { balance: '700' }, b: { balance: '970' }, c: { balance: '5' } },
      },
    ];
    const forecast = forecastRunways({
      today: TODAY,
      readings,
      assets: [asset(970n, null, 'b'), asset(5n, null, 'c'), asset(700n, null, 'a'), asset(1n, null, 'd')],
      gas: [],
    });
    expect(forecast.map((f) => f.asset.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('RUNWAY_ALERT_DAYS', () => {
  it.each<[string, Rational | undefined]>([
    ['3', { num: 3n, den: 1n }],
    ['2.5', { num: 25n, den: 10n }],
    ['0.25', { num: 25n, den: 100n }],
    ['0', undefined],
    ['-1', undefined],
    ['1e3', undefined],
    ['three', undefined],
    ['1.234', undefined],
    ['', undefined],
  ])('%s', (text, level) => {
    expect(parseRunwayDays(text)).toEqual(level);
  });
});

describe('judging a runway against 3 days (recovery at 3.3 days)', () => {
  const level = parseRunwayDays('3')!;
  const spending = (num: bigint, den: bigint) =>
    ({ state: 'spending', outflow: { spent: den, gas: 0n, days: 1 }, days: { num, den } }) as const;
  it.each<[string, Parameters<typeof judgeRunway>[0], string]>([
    ['2.99 days', spending(299n, 100n), 'below'],
    ['exactly 3 days is not below', spending(3n, 1n), 'between'],
    ['3.29 days is inside the margin', spending(329n, 100n), 'between'],
    ['3.3 days recovers', spending(33n, 10n), 'recovered'],
    ['not spending recovers', { state: 'not_spending', outflow: { spent: 0n, gas: 0n, days: 3 } }, 'recovered'],
    ['learning is not judged', { state: 'learning', historyDays: 1 }, 'unjudged'],
    ['unknown is not judged', { state: 'unknown', reason: 'x' }, 'unjudged'],
  ])('%s', (_name, runway, verdict) => {
    expect(judgeRunway(runway, level)).toBe(verdict);
  });

  it.each<[string, string]>([
    ['3', '3.3'],
    ['2.5', '2.75'],
    ['0.25', '0.275'],
    ['10', '11'],
  ])('RUNWAY_ALERT_DAYS=%s recovers at exactly %s days', (level, recovers) => {
    expect(formatLevelDays(runwayRecoveryLevel(parseRunwayDays(level)!))).toBe(recovers);
  });

  it('compares exactly', () => {
    expect(compareRational({ num: 1n, den: 3n }, { num: 333_333n, den: 1_000_000n })).toBe(1);
  });
});

describe('the line people read', () => {
  const units = (n: bigint) => `${n} units`;
  it.each<[string, ReadonlyArray<readonly [number, bigint]>, AssetNow, string]>([
    [
      'spending with a USD price',
      [
        [7, 100_000_000n],
        [0, 30_000_000n],
      ],
      asset(120_000_000n, 12_000n),
      'USDT@ETH: about 12 days at $10.00/day (7-day outflow)',
    ],
    [
      'spending without a USD price',
      [
        [3, 1_000n],
        [0, 700n],
      ],
      asset(350n),
      'USDT@ETH: about 3.5 days at 100 units/day (3-day outflow)',
    ],
    [
      'learning',
      [
        [1, 1_000n],
        [0, 700n],
      ],
      asset(700n),
      'USDT@ETH: still learning (1 of 3 days of history)',
    ],
    [
      'not spending',
      [
        [4, 1_000n],
        [0, 1_000n],
      ],
      asset(1_000n),
      'USDT@ETH: not spending (nothing left it in 4 days)',
    ],
    [
      'empty',
      [
        [3, 300n],
        [0, 0n],
      ],
      asset(0n),
      'USDT@ETH: empty at 100 units/day (3-day outflow)',
    ],
    [
      'under a tenth of a day',
      [
        [3, 3_000n],
        [0, 0n],
      ],
      asset(50n),
      'USDT@ETH: under a tenth of a day at 1000 units/day (3-day outflow)',
    ],
  ])('%s', (_name, points, now, line) => {
    expect(runwayLine({ asset: now, runway: runwayOf(now, history(points)) }, units)).toBe(line);
  });
});
