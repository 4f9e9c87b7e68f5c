/**
 * Runway, as pure rules: how many days each asset's balance lasts at its recent outflow. The outflow is read from
 * the daily balance snapshots the digest keeps (the API has no history) and, for the asset that pays for gas, from
 * the `charged` amounts of the gas top-ups. Money is BigInt base units; the runway is an exact rational, rounded
 * down only to be shown. The method and its limits: docs/features/runway.md.
 */
import { formatUsd } from '../../blocks/format.js';

/** How many days back the outflow is measured, from today. */
export const RUNWAY_WINDOW_DAYS = 7;
/** Below this many days between the oldest and newest reading of an asset, the runway is "still learning". */
const RUNWAY_MIN_HISTORY_DAYS = 3;
/** A low runway counts as recovered only at the alert level plus this share of it (as balance thresholds do). */
const RUNWAY_RECOVERY_MARGIN_PERCENT = 10n;

/** An exact, non-negative number of days: `num / den`, `den` > 0. */
export interface Rational {
  num: bigint;
  den: bigint;
}

/** One day's balances as the digest keeps them (a DailySnapshot has these fields and more). */
export interface BalanceReading {
  /** `YYYY-MM-DD` in the digest's time zone. */
  day: string;
  /** When it was read (ISO). */
  at: string;
  /** Balances in base units, by asset id. */
  assets: Record<string, { balance: string }>;
}

/** An asset as read now: the balance the runway is counted from. */
export interface AssetNow {
  id: string;
  symbol: string;
  /** The network's symbol, as in `USDT@ETH`. */
  network: string;
  decimals: number;
  /** Base units. */
  balance: bigint;
  /** The balance's USD value in cents, null when the API gave none. */
  usdCents: bigint | null;
}

/** A gas top-up charged to the liquidity address, attributed to the merchant asset that pays for gas. */
export interface GasCharge {
  assetId: string;
  /** Base units of that asset (the row's `charged.amount`). */
  amount: bigint;
  /** When the top-up was made (ISO). */
  at: string;
}

/** The outflow measured over an asset's history: what left it, over how many days. */
export interface Outflow {
  /** Base units that left: the sum of the day-to-day decreases, plus gas charged (the donor only). */
  spent: bigint;
  /** Of `spent`, the gas top-ups charged (0 for an asset that pays for no gas). */
  gas: bigint;
  /** Days between the oldest and the newest reading used (a missing day widens a step, see gaps in the docs). */
  days: number;
}

/** An asset's runway. */
export type Runway =
  /** Fewer than RUNWAY_MIN_HISTORY_DAYS days of history in the window. */
  | { state: 'learning'; historyDays: number }
  /** Enough history and nothing left the asset. */
  | { state: 'not_spending'; outflow: Outflow }
  /** `days` = balance now / (spent / days): exact. */
  | { state: 'spending'; outflow: Outflow; days: Rational }
  /** Its outflow cannot be known now (it pays for gas and the gas top-ups could not be read). */
  | { state: 'unknown'; reason: string };

/** One asset's runway with the asset as read now. */
export interface AssetRunway {
  asset: AssetNow;
  runway: Runway;
}

/** The runways now, or why they cannot be told. */
export type RunwayReport =
  | {
      ok: true;
      at: Date;
      runways: AssetRunway[];
      /** The gas list could not be read: a gas donor's runway is unknown (the others stand). */
      gasUnreadable?: boolean;
      /** When the daily balance snapshot is taken (`00:05 UTC`): the history the runway measures on. */
      snapshotsAt: string;
      alertDays?: string;
    }
  | { ok: false; reason: string };

/** The calendar day `days` before `day` (both `YYYY-MM-DD`). */
export function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to` (`YYYY-MM-DD`). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The readings the runway is measured on: one per day, from RUNWAY_WINDOW_DAYS before `today` to `today`, oldest first. */
export function readingsInWindow<R extends BalanceReading>(readings: readonly R[], today: string): R[] {
  const from = daysBefore(today, RUNWAY_WINDOW_DAYS);
  const byDay = new Map<string, R>();
  for (const reading of readings) if (reading.day >= from && reading.day <= today) byDay.set(reading.day, reading);
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/**
 * The outflow of one asset over `readings` (in the window, oldest first): each step from one reading of the asset
 * to its next counts its decrease; an increase (a deposit, a top-up, a swap into it) counts nothing, so it never
 * hides spending. Gas charged to the asset between its oldest and newest reading is added. Undefined with fewer
 * than two readings of the asset.
 */
export function outflowOf(
  assetId: string,
  readings: readonly BalanceReading[],
  gas: readonly GasCharge[] = [],
): Outflow | undefined {
  const points = readings.filter((reading) => Object.hasOwn(reading.assets, assetId));
  if (points.length < 2) return undefined;
  let spent = 0n;
  for (let i = 1; i < points.length; i++) {
    const before = BigInt(points[i - 1]!.assets[assetId]!.balance);
    const after = BigInt(points[i]!.assets[assetId]!.balance);
    if (after < before) spent += before - after;
  }
  const first = points[0]!;
  const last = points.at(-1)!;
  const from = Date.parse(first.at);
  const to = Date.parse(last.at);
  let charged = 0n;
  for (const charge of gas) {
    const at = Date.parse(charge.at);
    if (charge.assetId === assetId && at > from && at <= to) charged += charge.amount;
  }
  return { spent: spent + charged, gas: charged, days: daysBetween(first.day, last.day) };
}

/** The runway of `asset` from its readings in the window (and, for the gas donor, its gas charges). */
export function runwayOf(asset: AssetNow, readings: readonly BalanceReading[], gas: readonly GasCharge[] = []): Runway {
  const outflow = outflowOf(asset.id, readings, gas);
  if (!outflow || outflow.days < RUNWAY_MIN_HISTORY_DAYS) return { state: 'learning', historyDays: outflow?.days ?? 0 };
  if (outflow.spent === 0n) return { state: 'not_spending', outflow };
  return { state: 'spending', outflow, days: { num: asset.balance * BigInt(outflow.days), den: outflow.spent } };
}

/** What the forecast needs: today's day, the kept readings, the assets now, and the gas charges (or why not). */
export interface ForecastInput {
  today: string;
  readings: readonly BalanceReading[];
  assets: readonly AssetNow[];
  /** The gas charges in the window; `unreadable` when the gas list could not be read. */
  gas: readonly GasCharge[] | 'unreadable';
  /** Assets known to pay for gas (from the last gas list read): unknown while the gas list cannot be read. */
  donorIds?: ReadonlySet<string>;
}

/** Every asset's runway, shortest first; then spending before not spending, learning and unknown (by name). */
export function forecastRunways(input: ForecastInput): AssetRunway[] {
  const readings = readingsInWindow(input.readings, input.today);
  const gas = input.gas === 'unreadable' ? [] : input.gas;
  const runways = input.assets.map((asset): AssetRunway => {
    if (input.gas === 'unreadable' && input.donorIds?.has(asset.id))
      return { asset, runway: { state: 'unknown', reason: 'the gas top-ups it pays for could not be read' } };
    return { asset, runway: runwayOf(asset, readings, gas) };
  });
  return runways.sort(byRunway);
}

const STATE_ORDER: Record<Runway['state'], number> = { spending: 0, unknown: 1, not_spending: 2, learning: 3 };

function byRunway(a: AssetRunway, b: AssetRunway): number {
  const order = STATE_ORDER[a.runway.state] - STATE_ORDER[b.runway.state];
  if (order !== 0) return order;
  if (a.runway.state === 'spending' && b.runway.state === 'spending') {
    const cmp = compareRational(a.runway.days, b.runway.days);
    if (cmp !== 0) return cmp;
  }
  const nameA = assetName(a.asset);
  const nameB = assetName(b.asset);
  return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
}

/** `USDT@ETH`. */
function assetName(asset: Pick<AssetNow, 'symbol' | 'network'>): string {
  return `${asset.symbol}@${asset.network}`;
}

/** −1, 0 or 1 as `a` is below, at or above `b`. */
export function compareRational(a: Rational, b: Rational): -1 | 0 | 1 {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * RUNWAY_ALERT_DAYS as an exact number of days: a positive decimal with at most two decimals (`3`, `2.5`);
 * undefined for anything else (the configuration refuses to start).
 */
export function parseRunwayDays(text: string): Rational | undefined {
  const match = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  const den = 10n ** BigInt(fraction.length);
  const num = BigInt(match[1]!) * den + (fraction === '' ? 0n : BigInt(fraction));
  return num > 0n ? { num, den } : undefined;
}

/** The level a low runway must reach to count as recovered: the alert level plus RUNWAY_RECOVERY_MARGIN_PERCENT. */
export function runwayRecoveryLevel(level: Rational): Rational {
  return { num: level.num * (100n + RUNWAY_RECOVERY_MARGIN_PERCENT), den: level.den * 100n };
}

/**
 * Where a runway stands against RUNWAY_ALERT_DAYS: `below` it, `recovered` (at or above the level plus the margin,
 * or nothing leaving the asset), `between` (inside the margin: no change either way), or `unjudged` (still
 * learning, or unknown: neither an alarm nor a recovery).
 */
export function judgeRunway(runway: Runway, level: Rational): 'below' | 'between' | 'recovered' | 'unjudged' {
  if (runway.state === 'learning' || runway.state === 'unknown') return 'unjudged';
  if (runway.state === 'not_spending') return 'recovered';
  if (compareRational(runway.days, level) < 0) return 'below';
  return compareRational(runway.days, runwayRecoveryLevel(level)) >= 0 ? 'recovered' : 'between';
}

/**
 * Days for people, rounded down: one decimal under 10 days (`3.4`), whole days from 10 on (`12`); `0` when the
 * balance is gone.
 */
export function formatRunwayDays(days: Rational): string {
  const tenths = (days.num * 10n) / days.den;
  if (tenths >= 100n) return groupThousands((tenths / 10n).toString());
  return `${tenths / 10n}.${tenths % 10n}`.replace(/\.0$/, '');
}

/** A level of days exactly as a decimal when its denominator is a power of ten (`3.3`, `2.75`), else rounded down. */
export function formatLevelDays(days: Rational): string {
  const digits = days.den.toString();
  if (!/^10*$/.test(digits)) return formatRunwayDays(days);
  const scale = digits.length - 1;
  const whole = days.num / days.den;
  const fraction = (days.num % days.den).toString().padStart(scale, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/** The outflow per day in base units, rounded down. */
function dailyOutflow(outflow: Outflow): bigint {
  return outflow.days === 0 ? outflow.spent : outflow.spent / BigInt(outflow.days);
}

/**
 * The outflow per day in USD cents, rounded down, at the asset's USD price now (its USD value over its balance);
 * undefined when there is no price (no USD value, or a zero balance).
 */
function dailyOutflowUsdCents(asset: AssetNow, outflow: Outflow): bigint | undefined {
  if (asset.usdCents === null || asset.balance === 0n || outflow.days === 0) return undefined;
  return (outflow.spent * asset.usdCents) / (asset.balance * BigInt(outflow.days));
}

/** The per-day outflow in words: `$4,100.00/day`, or in token units when the asset has no USD price. */
export function dailyOutflowText(asset: AssetNow, outflow: Outflow, tokenText: (baseUnits: bigint) => string): string {
  const cents = dailyOutflowUsdCents(asset, outflow);
  return cents === undefined ? `${tokenText(dailyOutflow(outflow))}/day` : `${formatUsd(cents)}/day`;
}

/**
 * One line for people (plain words, no mrkdwn): `USDT@ETH: about 12 days at $4,100.00/day (7-day outflow)`.
 * `tokenText` formats base units of the asset (the caller's formatter, so this file stays free of the asset's
 * formatting rules).
 */
export function runwayLine(item: AssetRunway, tokenText: (baseUnits: bigint) => string): string {
  const name = assetName(item.asset);
  const { runway } = item;
  switch (runway.state) {
    case 'learning':
      return `${name}: still learning (${runway.historyDays} of ${RUNWAY_MIN_HISTORY_DAYS} days of history)`;
    case 'not_spending':
      return `${name}: not spending (nothing left it in ${dayWord(runway.outflow.days)})`;
    case 'unknown':
      return `${name}: unknown: ${runway.reason}`;
    case 'spending': {
      const days = formatRunwayDays(runway.days);
      const length =
        runway.days.num === 0n
          ? 'empty'
          : days === '0'
            ? 'under a tenth of a day'
            : `about ${days} ${days === '1' ? 'day' : 'days'}`;
      const gas = runway.outflow.gas > 0n ? ', gas top-ups included' : '';
      return `${name}: ${length} at ${dailyOutflowText(item.asset, runway.outflow, tokenText)} (${runway.outflow.days}-day outflow${gas})`;
    }
  }
}

function dayWord(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
