/**
 * The digest's balance chart: the total USD balance and the largest assets over the last days, drawn on the server
 * as a PNG for Slack. ECharts lays the chart out as SVG (server-side, no DOM); resvg turns the SVG into a PNG with
 * a font shipped in an npm package (Inter), never the machine's fonts, so the picture is the same everywhere.
 * Both are loaded at the first chart, not at start-up: together they take about half a second to load.
 */
import { createRequire } from 'node:module';
import type { LineSeriesOption } from 'echarts/charts';
import type {
  GraphicComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TitleComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { centsToUsd } from '../../kernel/money.js';

type ChartOption = ComposeOption<
  LineSeriesOption | GridComponentOption | LegendComponentOption | TitleComponentOption | GraphicComponentOption
>;

/** One line of the chart: a name for the legend and one value per day, in dollars (display only; null = no data). */
export interface ChartSeries {
  label: string;
  valuesUsd: (number | null)[];
}

/** What the chart shows. */
export interface BalanceChartInput {
  /** Calendar days, `YYYY-MM-DD`, oldest first, up to 30; every series has one value per day. */
  days: string[];
  /** The total USD balance, drawn boldest. */
  total: ChartSeries;
  /** The largest few assets (at most 5). */
  assets: ChartSeries[];
  title: string;
}

/** A daily snapshot as far as the chart reads it: the total and each asset's USD value, in cents. */
export interface ChartSnapshot {
  day: string;
  totalUsdCents: string;
  /** By asset id; `usdCents` null when the API gave no USD value that day. */
  assets: Record<string, { label: string; usdCents: string | null }>;
}

/** How much of the history the chart shows, and its title. */
export interface ChartWindow {
  /** Calendar days ending at `endDay` (30 for the digest). */
  days: number;
  /** How many assets get their own line (the largest by their latest USD value). */
  largest: number;
  /** The last day shown, `YYYY-MM-DD` (the digest's day). */
  endDay: string;
  /** Default: `Balances in USD, last N days`. */
  title?: string;
}

const DAY_MS = 86_400_000;

/**
 * Laid out at 600×340 with 14 px labels and rendered at twice that (1200×680 pixels): sharp when opened, and the
 * labels still about 8 px high in Slack's ~360 px wide preview.
 */
const WIDTH = 600;
const HEIGHT = 340;
const ZOOM = 2;
const LEGEND_PER_ROW = 3;
const LEGEND_ROW_HEIGHT = 22;
const MAX_LABEL_CHARS = 18;
const INK = '#1d1c1d';
const MUTED_INK = '#454245';

/** The total in near-black, the assets in colours that stay apart on white (and for most colour-blind readers). */
const TOTAL_COLOR = INK;
const ASSET_COLORS = ['#1264a3', '#e8912d', '#2bac76', '#cd2553', '#7c3085'];
const FONT_FAMILY = 'Inter';

const require = createRequire(import.meta.url);
// Inter as static TTFs from npm (resvg reads TTF/OTF, not the web fonts' WOFF2); regular for labels, bold for the title.
// Each is resolved where it is named, so knip sees the dependency.
const fontFiles = (): string[] => [
  require.resolve('@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'),
  require.resolve('@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf'),
];

/**
 * Picks the chart's input from daily snapshots: the `days` calendar days ending at `endDay` (a day without a
 * snapshot is null, so a gap shows as a gap), the total, and the `largest` assets by their latest USD value.
 * Cents become dollars through exact decimal strings (the numbers are for drawing only).
 */
export function chartInputFromSnapshots(snapshots: readonly ChartSnapshot[], window: ChartWindow): BalanceChartInput {
  const days = calendarDays(window.endDay, window.days);
  const byDay = new Map<string, ChartSnapshot>();
  for (const snapshot of snapshots) byDay.set(snapshot.day, snapshot);
  const shown = days.map((day) => byDay.get(day));

  // The latest USD value of each asset seen in the window, for picking the largest.
  const latest = new Map<string, { label: string; cents: bigint }>();
  for (const snapshot of shown) {
    if (snapshot === undefined) continue;
    for (const [id, asset] of Object.entries(snapshot.assets)) {
      if (asset.usdCents !== null) latest.set(id, { label: asset.label, cents: BigInt(asset.usdCents) });
    }
  }
  const largestIds = [...latest.entries()]
    .sort(([idA, a], [idB, b]) => (a.cents === b.cents ? idA.localeCompare(idB) : a.cents > b.cents ? -1 : 1))
    .slice(0, Math.max(0, window.largest))
    .map(([id]) => id);

  return {
    days,
    total: {
      label: 'Total',
      valuesUsd: shown.map((snapshot) => (snapshot === undefined ? null : centsToDollars(snapshot.totalUsdCents))),
    },
    assets: largestIds.map((id) => {
      const cents = shown.map((snapshot) => snapshot?.assets[id]?.usdCents ?? null);
      return {
        label: latest.get(id)!.label,
        valuesUsd: cents.map((value) => (value === null ? null : centsToDollars(value))),
      };
    }),
    title: window.title ?? `Balances in USD, last ${days.length} days`,
  };
}

/** The `count` calendar days ending at `endDay`, oldest first. */
function calendarDays(endDay: string, count: number): string[] {
  const end = Date.parse(`${endDay}T00:00:00Z`);
  if (Number.isNaN(end)) throw new RangeError(`endDay must be YYYY-MM-DD, got ${JSON.stringify(endDay)}`);
  return Array.from({ length: Math.max(0, count) }, (_, i) =>
    new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** Cents (a digit string) as dollars, via the exact decimal string, so no cent is lost before drawing. */
function centsToDollars(cents: string): number {
  return Number(centsToUsd(BigInt(cents)));
}

/** Renders the chart as PNG bytes (1200×680). The rasterising runs off the event loop, in resvg's worker thread. */
export async function renderBalanceChart(input: BalanceChartInput): Promise<Buffer> {
  const { toSvg, renderAsync } = await loadRenderer();
  // The image's pixels (3 MB) are native memory, freed when the garbage collector finalizes `image`: the bot's
  // ordinary work collects it soon after (measured: flat over 200 renders), so nothing is forced here.
  const image = await renderAsync(toSvg(chartOption(input)), {
    fitTo: { mode: 'zoom', value: ZOOM },
    background: '#ffffff',
    font: {
      loadSystemFonts: false,
      fontFiles: fontFiles(),
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
  });
  return image.asPng();
}

interface Renderer {
  toSvg: (option: ChartOption) => string;
  renderAsync: typeof import('@resvg/resvg-js').renderAsync;
}
let renderer: Promise<Renderer> | undefined;

/** ECharts (only the parts a line chart needs) and resvg, loaded once. */
function loadRenderer(): Promise<Renderer> {
  renderer ??= (async () => {
    const [{ LineChart }, components, { init, use }, { SVGRenderer }, { renderAsync }] = await Promise.all([
      import('echarts/charts'),
      import('echarts/components'),
      import('echarts/core'),
      import('echarts/renderers'),
      import('@resvg/resvg-js'),
    ]);
    use([
      LineChart,
      components.GridComponent,
      components.LegendComponent,
      components.TitleComponent,
      components.GraphicComponent,
      SVGRenderer,
    ]);
    const toSvg = (option: ChartOption): string => {
      const chart = init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: HEIGHT });
      try {
        chart.setOption(option);
        return chart.renderToSVGString();
      } finally {
        // Without dispose() ECharts keeps a timer alive and the process cannot exit.
        chart.dispose();
      }
    };
    return { toSvg, renderAsync };
  })();
  // A failed load (a missing binary) is tried again at the next chart rather than remembered.
  renderer.catch(() => {
    renderer = undefined;
  });
  return renderer;
}

function chartOption(input: BalanceChartInput): ChartOption {
  const series = [input.total, ...input.assets].map((line) => ({ ...line, label: clip(line.label, MAX_LABEL_CHARS) }));
  const empty = series.every((line) => line.valuesUsd.every((value) => value === null));
  // Three legend entries to a row, placed by us: ECharts wraps a long legend over the plot.
  const legendRows = chunk(
    series.map((line) => line.label),
    LEGEND_PER_ROW,
  );
  const text = { fontFamily: FONT_FAMILY, color: INK };
  const axisLabel = { ...text, fontSize: 14, color: MUTED_INK };
  return {
    animation: false,
    textStyle: text,
    title: { text: clip(input.title, 60), left: 12, top: 8, textStyle: { ...text, fontSize: 19, fontWeight: 'bold' } },
    legend: legendRows.map((row, index) => ({
      data: row,
      top: 40 + index * LEGEND_ROW_HEIGHT,
      left: 12,
      itemWidth: 20,
      itemHeight: 10,
      itemGap: 16,
      textStyle: { ...text, fontSize: 14 },
    })),
    grid: {
      left: 12,
      right: 24,
      top: 48 + legendRows.length * LEGEND_ROW_HEIGHT,
      bottom: 8,
      // Axis labels inside the box (what containLabel did before ECharts 6).
      outerBoundsMode: 'same',
      outerBoundsContain: 'axisLabel',
    },
    xAxis: {
      type: 'category',
      data: input.days,
      boundaryGap: false,
      axisLabel: { ...axisLabel, formatter: shortDate, hideOverlap: true },
      axisTick: { alignWithLabel: true },
      axisLine: { lineStyle: { color: '#8d8b8d' } },
    },
    yAxis: {
      type: 'value',
      // From zero (or below, should a value be negative), so a small change does not look like a crash.
      min: (extent: { min: number }) => Math.min(0, extent.min),
      ...(empty ? { max: 1 } : {}),
      splitNumber: 4,
      axisLabel: { ...axisLabel, formatter: compactUsd },
      splitLine: { lineStyle: { color: '#e8e8e8' } },
    },
    series: series.map((line, index) => lineSeries(line, index === 0 ? TOTAL_COLOR : colorOf(index - 1), index === 0)),
    ...(empty
      ? {
          graphic: {
            type: 'text',
            left: 'center',
            top: 'middle',
            style: {
              text: 'No balances recorded for these days yet',
              fontSize: 16,
              fill: MUTED_INK,
              fontFamily: FONT_FAMILY,
            },
          },
        }
      : {}),
  };
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const rows: T[][] = [];
  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));
  return rows;
}

/** At most `max` characters, with an ellipsis when cut (labels come from the API). */
function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function colorOf(assetIndex: number): string {
  return ASSET_COLORS[assetIndex % ASSET_COLORS.length]!;
}

function lineSeries(line: ChartSeries, color: string, isTotal: boolean): LineSeriesOption {
  const values = line.valuesUsd.map((value) => (value !== null && Number.isFinite(value) ? value : null));
  return {
    type: 'line',
    name: line.label,
    color,
    z: isTotal ? 3 : 2,
    // A day between two gaps has no line to draw: mark it with a dot so it is seen.
    showSymbol: true,
    symbol: 'none',
    connectNulls: false,
    lineStyle: { width: isTotal ? 4 : 2, color },
    // '-' is ECharts' "no value": the line breaks there.
    data: values.map((value, i) =>
      value === null ? '-' : isIsolated(values, i) ? { value, symbol: 'circle', symbolSize: isTotal ? 9 : 6 } : value,
    ),
  };
}

function isIsolated(values: readonly (number | null)[], i: number): boolean {
  return (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2025-03-04` → `Mar 4`. */
function shortDate(day: string): string {
  const [, month, date] = /^\d{4}-(\d{2})-(\d{2})$/.exec(day) ?? [];
  if (month === undefined || date === undefined) return day;
  return `${MONTHS[Number(month) - 1] ?? month} ${Number(date)}`;
}

/** An axis value in dollars, short: `$0`, `$950`, `$12K`, `$1.2M`, `$3.5B`, `$1.1T`. */
export function compactUsd(dollars: number): string {
  if (!Number.isFinite(dollars)) return '';
  const sign = dollars < 0 ? '-' : '';
  const abs = Math.abs(dollars);
  let unit = 0;
  while (unit < UNITS.length - 1 && abs >= UNITS[unit + 1]!.size) unit++;
  // 999,950 rounds to 1,000K: say $1M instead.
  if (unit < UNITS.length - 1 && rounded(abs / UNITS[unit]!.size) >= 1000) unit++;
  const { size, suffix } = UNITS[unit]!;
  return `${sign}$${rounded(abs / size).toLocaleString('en-US', { maximumFractionDigits: 1 })}${suffix}`;
}

const UNITS = [
  { size: 1, suffix: '' },
  { size: 1e3, suffix: 'K' },
  { size: 1e6, suffix: 'M' },
  { size: 1e9, suffix: 'B' },
  { size: 1e12, suffix: 'T' },
];

/** One decimal below 100 (`1.2`, `12.5`), none from 100 up. */
function rounded(value: number): number {
  return value < 100 ? Math.round(value * 10) / 10 : Math.round(value);
}
