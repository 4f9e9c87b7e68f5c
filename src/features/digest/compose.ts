/**
 * Gathers what the digest says from the records the bot keeps and one read of the assets, into the view the
 * builder draws (features/digest/blocks.ts). Reads only, but for the day's snapshot the scheduled digest keeps through
 * `keep` when the day has none; claiming the day is the caller's.
 */

import { sumDecimals, usdDecimalToCents } from '../../kernel/money.js';
import { type Asset, type PaymentsClient, PaymentsError } from '../../payments/index.js';
import type { BotRepositories } from '../repositories.js';
import type { RunwayReport, RunwayService } from '../runway/index.js';
import { limitKeyOf, limitUse } from '../swaps/decision.js';
import type { LimitUseView } from '../swaps/policy-blocks.js';
import type { DigestAssetView, DigestBalancesView, DigestView } from './blocks.js';
import type { DailySnapshot, SnapshotAsset } from './records.js';
import { alertsByKind, countQuotes, DIGEST_QUOTES_LOOKBACK_MS, openAlerts } from './rules.js';
import { dayBefore } from './schedule.js';

/** What composing needs. */
export interface ComposeDeps {
  store: Pick<BotRepositories, 'balances' | 'alerts' | 'swapQuotes'>;
  payments: Pick<PaymentsClient, 'listAssets'>;
  /** Each asset's runway from the same read of the assets (absent: the digest has no runway part). */
  runway?: Pick<RunwayService, 'forecast'> | undefined;
  /** SWAP_DAILY_LIMIT_USD in cents; unset: no limit to report. */
  dailyLimitUsdCents?: bigint | undefined;
}

/** A composed digest: the view, and the day's snapshot when the assets could be read (else why not, in words). */
export interface ComposedDigest {
  view: DigestView;
  snapshot?: DailySnapshot;
  /** Set when the assets could not be read: the balances part says so in these words; `readError` is for the log. */
  readProblem?: string;
  readError?: unknown;
}

/** The snapshot of `day` from the asset list: base units and USD cents, by asset id. */
export function dailySnapshotOf(assets: readonly Asset[], day: string, at: Date): DailySnapshot {
  const byId: Record<string, SnapshotAsset> = {};
  // The total adds the exact decimals and rounds once, as `/treasury balances` and the Home tab do.
  const counted: string[] = [];
  for (const asset of assets) {
    const cents = usdDecimalOrNull(asset.balanceInUsd);
    if (cents !== null) counted.push(asset.balanceInUsd);
    byId[asset.id] = {
      symbol: asset.crypto.symbol,
      network: asset.network.symbol,
      decimals: asset.crypto.decimals,
      balance: asset.balance,
      usdCents: cents === null ? null : cents.toString(),
    };
  }
  const total = counted.length > 0 ? usdDecimalToCents(sumDecimals(counted)) : 0n;
  return { day, at: at.toISOString(), totalUsdCents: total.toString(), assets: byId };
}

/** A USD value as cents; a negative or unreadable one counts as unknown rather than failing the digest. */
function usdDecimalOrNull(decimal: string): bigint | null {
  try {
    const cents = usdDecimalToCents(decimal);
    return cents < 0n ? null : cents;
  } catch {
    return null;
  }
}

/** Why the assets could not be read, in a few plain words (the details go to the log). */
export function readProblemOf(error: unknown): string {
  if (error instanceof PaymentsError) {
    switch (error.code) {
      case 'unauthorized':
      case 'forbidden':
        return "the payment API refused the bot's key";
      case 'unexpected_response':
        return 'the payment API sent an answer the bot could not read';
      default:
        return 'the payment API did not answer';
    }
  }
  return 'something went wrong inside the bot';
}

/** The balances part: `now` against `previous` (the newest snapshot of an earlier day), largest USD value first. */
export function balancesView(now: DailySnapshot, previous: DailySnapshot | undefined): DigestBalancesView {
  const assets: DigestAssetView[] = Object.entries(now.assets).map(([id, asset]) => {
    // Asset ids are API strings: `constructor` must not find Object.prototype's.
    const before = previous && Object.hasOwn(previous.assets, id) ? previous.assets[id] : undefined;
    return {
      symbol: asset.symbol,
      network: asset.network,
      decimals: asset.decimals,
      balance: BigInt(asset.balance),
      usdCents: asset.usdCents === null ? null : BigInt(asset.usdCents),
      ...(before
        ? {
            previous: {
              balance: BigInt(before.balance),
              usdCents: before.usdCents === null ? null : BigInt(before.usdCents),
            },
          }
        : {}),
    };
  });
  assets.sort((a, b) => {
    const left = a.usdCents ?? -1n;
    const right = b.usdCents ?? -1n;
    if (left !== right) return left > right ? -1 : 1;
    const nameA = `${a.symbol}@${a.network}`;
    const nameB = `${b.symbol}@${b.network}`;
    return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
  });
  const gone = previous
    ? Object.entries(previous.assets)
        .filter(([id]) => !Object.hasOwn(now.assets, id))
        .map(([, asset]) => ({ ...asset, balance: BigInt(asset.balance) }))
    : [];
  return {
    ok: true,
    totalUsdCents: BigInt(now.totalUsdCents),
    ...(previous ? { previous: { day: previous.day, totalUsdCents: BigInt(previous.totalUsdCents) } } : {}),
    assets,
    gone,
  };
}

/**
 * Composes the digest of `day` at `now`: one read of the assets (its snapshot is returned; with `keep`, the day's
 * kept snapshot instead), compared with the newest snapshot kept of an earlier day, plus the alerts and quotes
 * from the store.
 */
export async function composeDigest(
  deps: ComposeDeps,
  day: string,
  now: Date,
  occasion: DigestView['occasion'],
  keep?: (snapshot: DailySnapshot) => Promise<DailySnapshot>,
): Promise<ComposedDigest> {
  let snapshot: DailySnapshot | undefined;
  let assets: Asset[] | undefined;
  let runway: RunwayReport | undefined;
  let readProblem: string | undefined;
  let readError: unknown;
  try {
    assets = await deps.payments.listAssets();
    snapshot = dailySnapshotOf(assets, day, now);
  } catch (error) {
    readError = error;
    readProblem = readProblemOf(error);
  }
  // The scheduled digest reads the day's kept snapshot (the snapshot job's, or this reading when the day has none),
  // so its balances are the ones the runway measures on; a store failure fails the check, tried again at the next.
  if (snapshot && keep) snapshot = await keep(snapshot);
  if (assets && snapshot)
    runway = await deps.runway
      ?.forecast(assets, occasion === 'scheduled' ? { keeping: snapshot } : {})
      .catch((): RunwayReport => ({ ok: false, reason: 'the kept balance snapshots could not be read' }));
  const [kept, alertsState, quotes] = await Promise.all([
    deps.store.balances.listSnapshots(dayBefore(day, 400)),
    deps.store.alerts.readAlerts(),
    deps.store.swapQuotes.listQuotesSince(new Date(now.getTime() - DIGEST_QUOTES_LOOKBACK_MS)),
  ]);
  const previous = kept.filter((kept) => kept.day < day).at(-1);
  const owned = Object.values(alertsState.owned ?? {});
  const open = openAlerts(owned);
  const view: DigestView = {
    day,
    at: now,
    occasion,
    balances: snapshot ? balancesView(snapshot, previous) : { ok: false, reason: readProblem! },
    ...(runway ? { runway } : {}),
    alertsByKind: alertsByKind(owned, now),
    open: { alerts: open, total: open.length },
    quotes: countQuotes(quotes, now),
    ...(deps.dailyLimitUsdCents !== undefined
      ? { dailyLimit: { limitCents: deps.dailyLimitUsdCents, use: limitUseOf(quotes, now) } }
      : {}),
  };
  return snapshot ? { view, snapshot } : { view, readProblem: readProblem!, readError };
}

/** Each source asset's use of the daily limit in the last 24 hours, as `/treasury policy` counts it. */
function limitUseOf(quotes: Parameters<typeof limitUse>[0], now: Date): LimitUseView[] {
  const assets = new Map(quotes.map((quote) => [limitKeyOf(quote), quote.from]));
  const use: LimitUseView[] = [];
  for (const [key, asset] of assets) {
    const used = limitUse(quotes, key, now);
    if (used.createdCents + used.waitingCents > 0n)
      use.push({ asset: `${asset.symbol} on ${asset.networkTitle}`, ...used });
  }
  return use;
}
