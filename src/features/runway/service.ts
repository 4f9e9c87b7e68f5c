/**
 * Runway: reads what the rules need (the kept daily snapshots, the assets now, the gas top-ups charged to the gas
 * donor) and forecasts each asset's runway for `/treasury runway`, the digest, the Home tab and the alert poller.
 * The gas list is read once per window and kept for an hour (the window moves once a day; pending rows settle),
 * so a Home opened often or a poll every minute costs no gas-list pages.
 */
import type { SlackMessage } from '../../blocks/common.js';
import { formatTokenAmount } from '../../blocks/format.js';
import { usdDecimalToCents } from '../../kernel/money.js';
import { errorFields, type Logger } from '../../logger.js';
import type { Asset, GasDistribution, PaymentsClient } from '../../payments/index.js';
// The alert poller declares what it watches (RUNWAY_ALERT_DAYS); this feature fills it in.
import type { RunwayJudgement, RunwayWatch } from '../alerts/poller/runways.js';
import { buildRunway } from './blocks.js';
import {
  type AssetNow,
  type BalanceReading,
  dailyOutflowText,
  daysBefore,
  forecastRunways,
  formatLevelDays,
  formatRunwayDays,
  type GasCharge,
  judgeRunway,
  type Rational,
  RUNWAY_WINDOW_DAYS,
  type RunwayReport,
  readingsInWindow,
  runwayRecoveryLevel,
} from './rules.js';

export type { RunwayReport } from './rules.js';

/** The gas list is read at most once an hour per window (pending rows settle, the window moves daily). */
const GAS_CHARGES_KEPT_MS = 60 * 60_000;
/** Pages of the gas list read for one window at most (50 rows each); more, and the gas outflow is unknown. */
const GAS_PAGES_MAX = 100;
/** The gas sub-status of a top-up the donor could not pay: nothing was charged. */
const NOT_ENOUGH_DONOR_BALANCE = 'not_enough_donor_balance';

/** What the runway needs. */
export interface RunwayServiceOptions {
  store: { balances: { listSnapshots(fromDay: string): Promise<BalanceReading[]> } };
  payments: Pick<PaymentsClient, 'listAssets' | 'gasDistributionPages'>;
  now: () => Date;
  /** Today's calendar day in the daily snapshot's time zone (the snapshots' days are in it). */
  today: (now: Date) => string;
  logger: Logger;
  /** When the daily balance snapshot is taken, as the notes say it (`00:05 UTC`). */
  snapshotsAt: string;
  /** RUNWAY_ALERT_DAYS, as typed and as a number of days (unset: no runway alert). */
  alertDays?: { text: string; days: Rational } | undefined;
}

/** The runway feature. */
export interface RunwayService {
  /**
   * The runways of `assets` (read now by the caller), from the snapshots kept; `keeping` is a snapshot about to be
   * kept (the scheduled digest's), counted as the newest reading. Never throws for the gas list.
   */
  forecast(assets: readonly Asset[], options?: { keeping?: BalanceReading }): Promise<RunwayReport>;
  /** `/treasury runway`: reads the assets and answers privately. */
  show(): Promise<SlackMessage>;
  /** What the alert poller watches with RUNWAY_ALERT_DAYS set (undefined when unset). */
  readonly watch: RunwayWatch | undefined;
}

/** An asset as the rules take it; a USD value that cannot be read counts as none. */
function assetNowOf(asset: Asset): AssetNow {
  let usdCents: bigint | null = null;
  try {
    const cents = usdDecimalToCents(asset.balanceInUsd);
    usdCents = cents < 0n ? null : cents;
  } catch {
    usdCents = null;
  }
  return {
    id: asset.id,
    symbol: asset.crypto.symbol,
    network: asset.network.symbol,
    decimals: asset.crypto.decimals,
    balance: BigInt(asset.balance),
    usdCents,
  };
}

/**
 * Whether a gas row's `charged` left the liquidity address: sent, or pending and not short of donor balance
 * (counting a pending charge is the cautious side: a shorter runway, never a longer one).
 */
export function isCharged(row: Pick<GasDistribution, 'status' | 'subStatus' | 'charged'>): boolean {
  if (row.charged === null || row.subStatus === NOT_ENOUGH_DONOR_BALANCE) return false;
  return row.status === 'success' || row.status === 'pending';
}

/**
 * The merchant asset a gas row's `charged` leg is paid from: the asset of its crypto on its network; when no asset
 * has that crypto id, the asset of the charged currency's symbol on that network.
 */
export function donorOf(
  row: Pick<GasDistribution, 'charged' | 'network'>,
  assets: readonly Asset[],
): Asset | undefined {
  const leg = row.charged;
  if (!leg) return undefined;
  return (
    assets.find((asset) => asset.crypto.id === leg.cryptoId && asset.network.id === leg.networkId) ??
    assets.find(
      (asset) =>
        asset.crypto.symbol.toLowerCase() === leg.currency.toLowerCase() &&
        (asset.network.id === leg.networkId || asset.network.id === row.network.id),
    )
  );
}

/** Builds the runway feature. */
export function createRunwayService(options: RunwayServiceOptions): RunwayService {
  const { logger } = options;
  // The last read of the gas list: its window's start, when it was read, and its rows (or the read under way, so
  // that a burst of Home tabs makes one read).
  let kept: { from: string; at: number; rows: Promise<GasDistribution[] | 'unreadable'> } | undefined;
  // Assets seen paying for gas: while the gas list cannot be read, their runway is unknown rather than too long.
  const donorIds = new Set<string>();

  /**
   * The gas rows charged from `from` to `to`, or `unreadable`. A read of the same window is used again for an hour,
   * when it was made after `newest` (the newest reading the charges are counted up to); a failed read is not kept.
   */
  function chargedRows(from: string, newest: string, to: Date): Promise<GasDistribution[] | 'unreadable'> {
    if (kept && kept.from === from && kept.at >= Date.parse(newest) && to.getTime() - kept.at < GAS_CHARGES_KEPT_MS)
      return kept.rows;
    const read = { from, at: to.getTime(), rows: readChargedRows(from, to) };
    kept = read;
    void read.rows.then((rows) => {
      if (rows === 'unreadable' && kept === read) kept = undefined;
    });
    return read.rows;
  }

  async function readChargedRows(from: string, to: Date): Promise<GasDistribution[] | 'unreadable'> {
    try {
      const rows: GasDistribution[] = [];
      let pages = 0;
      let complete = false;
      for await (const page of options.payments.gasDistributionPages(
        { createdAtFrom: new Date(from), createdAtTo: to },
        GAS_PAGES_MAX,
      )) {
        pages += 1;
        rows.push(...page.items.filter(isCharged));
        if (page.cursorNext === null) complete = true;
      }
      if (!complete) {
        logger.warn(
          'runway: the gas list holds more top-ups than the bot reads for a runway; the gas donor is unknown',
          {
            pages,
          },
        );
        return 'unreadable';
      }
      return rows;
    } catch (error) {
      logger.warn('runway: could not read the gas top-ups; the gas donor’s runway is unknown', {
        error: errorFields(error),
      });
      return 'unreadable';
    }
  }

  async function forecast(assets: readonly Asset[], extra?: { keeping?: BalanceReading }): Promise<RunwayReport> {
    const now = options.now();
    const today = extra?.keeping?.day ?? options.today(now);
    const stored = await options.store.balances.listSnapshots(daysBefore(today, RUNWAY_WINDOW_DAYS));
    const readings = readingsInWindow(
      extra?.keeping ? [...stored.filter((s) => s.day !== extra.keeping!.day), extra.keeping] : stored,
      today,
    );
    // Gas charges matter only once there is a span of history to count them over.
    let gas: GasCharge[] | 'unreadable' = [];
    if (readings.length >= 2) {
      const rows = await chargedRows(readings[0]!.at, readings.at(-1)!.at, now);
      if (rows === 'unreadable') gas = 'unreadable';
      else
        gas = rows.flatMap((row) => {
          const donor = donorOf(row, assets);
          if (!donor) return [];
          donorIds.add(donor.id);
          return [{ assetId: donor.id, amount: BigInt(row.charged!.amount), at: row.createdAt.toISOString() }];
        });
    }
    const runways = forecastRunways({ today, readings, assets: assets.map(assetNowOf), gas, donorIds });
    return {
      ok: true,
      at: now,
      runways,
      ...(gas === 'unreadable' ? { gasUnreadable: true } : {}),
      snapshotsAt: options.snapshotsAt,
      ...(options.alertDays ? { alertDays: options.alertDays.text } : {}),
    };
  }

  /** Each asset's runway against the level; a failed forecast throws (the poll judges nothing then). */
  async function judge(assets: readonly Asset[], level: Rational): Promise<RunwayJudgement[]> {
    const report = await forecast(assets);
    if (!report.ok) throw new Error(report.reason);
    const byId = new Map(assets.map((asset) => [asset.id, asset]));
    return report.runways.map(({ asset, runway }): RunwayJudgement => {
      const read = byId.get(asset.id)!;
      return {
        assetId: asset.id,
        symbol: asset.symbol,
        network: asset.network,
        decimals: asset.decimals,
        balance: read.balance,
        balanceInUsd: read.balanceInUsd ?? null,
        verdict: judgeRunway(runway, level),
        ...(runway.state === 'spending'
          ? {
              days: formatRunwayDays(runway.days),
              outflow: dailyOutflowText(asset, runway.outflow, (units) =>
                formatTokenAmount(units, asset.decimals, asset.symbol),
              ),
            }
          : {}),
      };
    });
  }

  const alertDays = options.alertDays;
  return {
    forecast,
    watch: alertDays
      ? {
          levelText: alertDays.text,
          recoversAtText: formatLevelDays(runwayRecoveryLevel(alertDays.days)),
          judge: (assets) => judge(assets, alertDays.days),
        }
      : undefined,
    async show() {
      let assets: Asset[];
      try {
        assets = await options.payments.listAssets();
      } catch (error) {
        logger.warn('/treasury runway: could not read the balances', { error: errorFields(error) });
        return buildRunway({ ok: false, reason: 'the payment API did not answer with the balances' });
      }
      return buildRunway(await forecast(assets));
    },
  };
}
