/**
 * The digest's 30-day chart from the daily snapshots: which days and assets it shows (features/digest/balance-chart.ts draws
 * it), and the words that stand for it where the picture cannot be seen (alt text).
 */

import { formatUsd } from '../../blocks/format.js';
import {
  type BalanceChartInput,
  type ChartSnapshot,
  chartInputFromSnapshots,
  renderBalanceChart,
} from './balance-chart.js';
import { formatDigestDay } from './blocks.js';
import type { DailySnapshot } from './records.js';
import { dayBefore } from './schedule.js';

/** The chart shows this many calendar days, ending at the digest's day. */
const CHART_DAYS = 30;
/** The largest assets (by their latest USD value) that get a line of their own beside the total. */
const CHART_ASSETS = 4;

/** The first day whose snapshot the chart of `day` reads. */
export function chartFromDay(day: string): string {
  return dayBefore(day, CHART_DAYS - 1);
}

/** Snapshots as the chart reads them: each asset labelled `USDT@BSC`. */
function chartSnapshots(snapshots: readonly DailySnapshot[]): ChartSnapshot[] {
  return snapshots.map((snapshot) => ({
    day: snapshot.day,
    totalUsdCents: snapshot.totalUsdCents,
    assets: Object.fromEntries(
      Object.entries(snapshot.assets).map(([id, asset]) => [
        id,
        { label: `${asset.symbol}@${asset.network}`, usdCents: asset.usdCents },
      ]),
    ),
  }));
}

/** The picture in words: the span shown, the total at its first and last day, and which assets have lines. */
function chartAltText(input: BalanceChartInput, snapshots: readonly DailySnapshot[]): string {
  const kept = snapshots.filter((snapshot) => input.days.includes(snapshot.day));
  const first = kept[0];
  const last = kept.at(-1);
  const span = `${formatDigestDay(input.days[0]!)} to ${formatDigestDay(input.days.at(-1)!)}`;
  const total =
    first && last
      ? ` The total went from ${formatUsd(BigInt(first.totalUsdCents))} (${formatDigestDay(first.day)}) to ${formatUsd(BigInt(last.totalUsdCents))} (${formatDigestDay(last.day)}), over ${kept.length} day${kept.length === 1 ? '' : 's'} with a reading.`
      : ' No balances were kept in that time.';
  const assets = input.assets.length > 0 ? ` Lines for ${input.assets.map((a) => a.label).join(', ')}.` : '';
  return `Line chart of the total USD balance, ${span}.${total}${assets}`;
}

/** The chart of `day` as PNG bytes, with its title and alt text; `snapshots` are those from chartFromDay(day) on. */
export async function renderDigestChart(
  day: string,
  snapshots: readonly DailySnapshot[],
  render: (input: BalanceChartInput) => Promise<Buffer> = renderBalanceChart,
): Promise<{ png: Buffer; title: string; altText: string }> {
  const input = chartInputFromSnapshots(chartSnapshots(snapshots), {
    days: CHART_DAYS,
    largest: CHART_ASSETS,
    endDay: day,
  });
  return { png: await render(input), title: input.title, altText: chartAltText(input, snapshots) };
}
