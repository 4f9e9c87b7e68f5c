// The threshold rules: a low-balance alert opens when a balance goes below its threshold and resolves only once it
// is back above the threshold plus a clear margin, so a balance that hovers does not flap.
import { describe, expect, it } from 'vitest';
import {
  type BalanceState,
  judgeReading,
  measuredValue,
  recoveryLevel,
} from '../../../src/features/thresholds/rules.js';

describe('the recovery level: the threshold plus 10 %, rounded up', () => {
  it.each([
    [5_000n, 5_500n],
    [1n, 2n],
    [0n, 0n],
    [999n, 1_099n], // 99.9 rounds up to 100
    [10n ** 30n, 11n * 10n ** 29n],
  ])('%s → %s', (below, level) => {
    expect(recoveryLevel(below)).toBe(level);
  });
});

describe('one reading against a threshold of 5,000', () => {
  it.each<[BalanceState | undefined, bigint, BalanceState, string | undefined]>([
    [undefined, 5_000n, 'ok', undefined], // exactly at the threshold is not below it
    [undefined, 4_999n, 'low', 'crossed_below'], // first reading already low: one alert
    ['ok', 4_999n, 'low', 'crossed_below'],
    ['ok', 6_000n, 'ok', undefined],
    ['low', 4_000n, 'low', undefined], // still low: no second alert
    ['low', 5_200n, 'low', undefined], // back above the threshold but inside the margin: no flap
    ['low', 5_499n, 'low', undefined],
    ['low', 5_500n, 'ok', 'recovered'], // at the recovery level
  ])('before %s, balance %s → %s (%s)', (before, value, state, event) => {
    expect(judgeReading(before, value, 5_000n)).toEqual(event ? { state, event } : { state });
  });

  it('a balance hovering around the threshold raises one alert and resolves once', () => {
    const readings = [6_000n, 4_990n, 5_010n, 4_995n, 5_100n, 4_980n, 5_600n, 5_400n, 4_900n];
    let state: BalanceState | undefined;
    const events: string[] = [];
    for (const value of readings) {
      const crossing = judgeReading(state, value, 5_000n);
      state = crossing.state;
      if (crossing.event) events.push(crossing.event);
    }
    expect(events).toEqual(['crossed_below', 'recovered', 'crossed_below']);
  });
});

describe('what a threshold compares', () => {
  it.each([
    ['units', { balance: '1500000', balanceInUsd: '1.50' }, 1_500_000n],
    ['usd', { balance: '1', balanceInUsd: '4999.999' }, 499_999n], // rounded down: still below $5,000
    ['usd', { balance: '1', balanceInUsd: '5000' }, 500_000n],
    ['usd', { balance: '1', balanceInUsd: '0.5' }, 50n],
    ['usd', { balance: '1', balanceInUsd: null }, undefined], // no USD value: no judgement
    ['usd', { balance: '1', balanceInUsd: '' }, undefined],
    ['usd', { balance: '1', balanceInUsd: 'n/a' }, undefined],
    ['usd', { balance: '1', balanceInUsd: '-3' }, undefined],
    ['units', { balance: '-1', balanceInUsd: '1' }, undefined],
  ] as const)('%s of %j → %s', (measure, reading, value) => {
    expect(measuredValue(reading, measure)).toBe(value);
  });
});
