// The digest's chart: which days and assets it shows, taken from the daily snapshots, and that it renders
// to a real PNG of the expected size whatever the data (one day, no data, absurdly large values).
import { describe, expect, it } from 'vitest';
import {
  type BalanceChartInput,
  type ChartSnapshot,
  chartInputFromSnapshots,
  compactUsd,
  renderBalanceChart,
} from '../../src/features/digest/balance-chart.js';

const asset = (label: string, usdCents: string | null) => ({ label, usdCents });

/** A snapshot whose total is the sum of its assets' cents. */
function snapshot(day: string, assets: Record<string, { label: string; usdCents: string | null }>): ChartSnapshot {
  const total = Object.values(assets).reduce((sum, a) => sum + BigInt(a.usdCents ?? '0'), 0n);
  return { day, totalUsdCents: total.toString(), assets };
}

describe('chartInputFromSnapshots', () => {
  it('shows the calendar days ending at endDay; a day without a snapshot is a gap, not a zero', () => {
    const input = chartInputFromSnapshots(
      [
        snapshot('2025-03-01', { usdt: asset('USDT@TRON', '100000') }),
        snapshot('2025-03-03', { usdt: asset('USDT@TRON', '123456') }),
      ],
      { days: 4, largest: 5, endDay: '2025-03-04' },
    );
    expect(input.days).toEqual(['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04']);
    expect(input.total).toEqual({ label: 'Total', valuesUsd: [1000, null, 1234.56, null] });
    expect(input.assets).toEqual([{ label: 'USDT@TRON', valuesUsd: [1000, null, 1234.56, null] }]);
    expect(input.title).toBe('Balances in USD, last 4 days');
  });

  it('counts calendar days across month ends and leap days', () => {
    const input = chartInputFromSnapshots([], { days: 3, largest: 5, endDay: '2024-03-01' });
    expect(input.days).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
  });

  it.each<[string, Record<string, { label: string; usdCents: string | null }>, number, string[]]>([
    [
      'the largest by their latest USD value, largest first',
      { a: asset('A', '300'), b: asset('B', '900'), c: asset('C', '500'), d: asset('D', '100') },
      2,
      ['B', 'C'],
    ],
    ['fewer assets than asked for', { a: asset('A', '300') }, 5, ['A']],
    ['a tie goes by asset id, so the choice is stable', { z: asset('Z', '500'), y: asset('Y', '500') }, 1, ['Y']],
    ['an asset without a USD value is not picked', { a: asset('A', null), b: asset('B', '1') }, 5, ['B']],
    ['none asked for', { a: asset('A', '300') }, 0, []],
  ])('picks %s', (_name, assets, largest, labels) => {
    const input = chartInputFromSnapshots([snapshot('2025-03-04', assets)], { days: 2, largest, endDay: '2025-03-04' });
    expect(input.assets.map((line) => line.label)).toEqual(labels);
  });

  it('ranks by the latest value, not the largest ever: an asset that was big once loses its place', () => {
    const input = chartInputFromSnapshots(
      [
        snapshot('2025-03-01', { whale: asset('WHALE', '1000000000'), steady: asset('STEADY', '5000') }),
        snapshot('2025-03-02', { whale: asset('WHALE', '100'), steady: asset('STEADY', '5000') }),
      ],
      { days: 2, largest: 1, endDay: '2025-03-02' },
    );
    expect(input.assets).toEqual([{ label: 'STEADY', valuesUsd: [50, 50] }]);
  });

  it('an asset missing on some days has gaps there; its USD value unknown one day is a gap too', () => {
    const input = chartInputFromSnapshots(
      [
        snapshot('2025-03-01', { eth: asset('ETH', '200') }),
        snapshot('2025-03-02', { usdt: asset('USDT', '100') }),
        snapshot('2025-03-03', { eth: asset('ETH', null), usdt: asset('USDT', '100') }),
        snapshot('2025-03-04', { eth: asset('ETH', '300'), usdt: asset('USDT', '100') }),
      ],
      { days: 4, largest: 2, endDay: '2025-03-04' },
    );
    expect(input.assets).toEqual([
      { label: 'ETH', valuesUsd: [2, null, null, 3] },
      { label: 'USDT', valuesUsd: [null, 1, 1, 1] },
    ]);
  });

  it('cuts 400 days of snapshots to the 30 days ending at endDay, ignoring any after it', () => {
    const start = Date.UTC(2024, 0, 1);
    const snapshots = Array.from({ length: 400 }, (_, i) => {
      const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
      return snapshot(day, { usdt: asset('USDT', String(i * 100)) });
    });
    const endDay = snapshots[379]!.day;
    const input = chartInputFromSnapshots(snapshots, { days: 30, largest: 5, endDay });
    expect(input.days).toHaveLength(30);
    expect(input.days.at(0)).toBe(snapshots[350]!.day);
    expect(input.days.at(-1)).toBe(endDay);
    expect(input.total.valuesUsd).toEqual(Array.from({ length: 30 }, (_, i) => 350 + i));
  });

  it('converts cents exactly however large (BigInt), and only then to a number for drawing', () => {
    const cents = '123456789012345678901234567';
    const input = chartInputFromSnapshots([{ day: '2025-03-04', totalUsdCents: cents, assets: {} }], {
      days: 1,
      largest: 5,
      endDay: '2025-03-04',
    });
    expect(input.total.valuesUsd).toEqual([Number('1234567890123456789012345.67')]);
  });

  it('refuses an endDay that is not a day', () => {
    expect(() => chartInputFromSnapshots([], { days: 30, largest: 5, endDay: 'yesterday' })).toThrow(RangeError);
  });
});

describe('compactUsd: the y axis labels', () => {
  it.each([
    [0, '$0'],
    [0.5, '$0.5'],
    [950, '$950'],
    [1_000, '$1K'],
    [1_250, '$1.3K'],
    [250_000, '$250K'],
    [999_950, '$1M'], // not "$1,000K"
    [1_200_000, '$1.2M'],
    [3_500_000_000, '$3.5B'],
    [1.1e12, '$1.1T'],
    [4e18, '$4,000,000T'],
    [-1_500, '-$1.5K'],
  ])('%s → %s', (dollars, label) => {
    expect(compactUsd(dollars)).toBe(label);
  });
});

/** The PNG's size from its IHDR chunk, after checking the signature and that the first chunk is IHDR. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  expect(png.subarray(-8, -4).toString('latin1')).toBe('IEND');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const DAYS = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2025, 2, 1 + i)).toISOString().slice(0, 10));
const wave = (base: number, amplitude: number) => DAYS.map((_, i) => base + amplitude * Math.sin(i / 3));

const inputs: Record<string, BalanceChartInput> = {
  'thirty days, the total and five assets, with gaps': {
    days: DAYS,
    title: 'Balances in USD, last 30 days',
    total: { label: 'Total', valuesUsd: wave(1_200_000, 80_000).map((v, i) => (i === 5 ? null : v)) },
    assets: [
      { label: 'USDT@TRON', valuesUsd: wave(520_000, 40_000) },
      { label: 'USDC@ETH', valuesUsd: wave(310_000, 60_000).map((v, i) => (i === 10 || i === 12 ? null : v)) },
      { label: 'ETH@ETH', valuesUsd: wave(180_000, 30_000) },
      { label: 'BNB@BSC & <a "quoted" label that is far too long>', valuesUsd: wave(90_000, 10_000) },
      { label: 'USDT@BSC', valuesUsd: wave(40_000, 20_000) },
    ],
  },
  'a single day': {
    days: ['2025-03-30'],
    title: 'Balances in USD, last 1 day',
    total: { label: 'Total', valuesUsd: [1_234_567] },
    assets: [{ label: 'USDT@TRON', valuesUsd: [1_000_000] }],
  },
  'no values at all': {
    days: DAYS,
    title: 'Balances in USD, last 30 days',
    total: { label: 'Total', valuesUsd: DAYS.map(() => null) },
    assets: [],
  },
  'values far beyond any treasury': {
    days: DAYS,
    title: 'Balances in USD, last 30 days',
    total: { label: 'Total', valuesUsd: wave(3e18, 1e18) },
    assets: [{ label: 'SHIB', valuesUsd: wave(1e17, 1e16) }],
  },
};

describe('renderBalanceChart', () => {
  it.each(Object.entries(inputs))('renders %s as a 1200×680 PNG', async (_name, input) => {
    const started = performance.now();
    const png = await renderBalanceChart(input);
    const ms = performance.now() - started;
    expect(pngSize(png)).toEqual({ width: 1200, height: 680 });
    // A blank image of this size compresses to a few kB; text, axes and lines make it tens of kB.
    expect(png.length).toBeGreaterThan(15_000);
    expect(png.length).toBeLessThan(500_000);
    // The first chart loads ECharts and resvg (about half a second); each later one takes tens of ms.
    expect(ms).toBeLessThan(5_000);
  });

  it('draws its text with the shipped font (without a font resvg draws no text, and two titles look the same)', async () => {
    const input = inputs['a single day']!;
    const one = await renderBalanceChart({ ...input, title: 'Balances in USD, last 1 day' });
    const other = await renderBalanceChart({ ...input, title: 'Balances in USD, last 2 days' });
    expect(one.equals(other)).toBe(false);
  });
});
