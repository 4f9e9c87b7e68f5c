// Thirty days of believable balance history for the local workspace: the daily snapshots the digest would have kept,
// so the runway (Home, /treasury runway, the digest) and the digest's 30-day chart have something to show on the
// first start. Made backwards from the sample merchant's balances now; kept once (a restart on the same data dir
// keeps what is there). Exact: base units and cents, never floats.

import type { DailySnapshot, SnapshotAsset } from '../../src/features/digest/records.js';
import { usdDecimalToCents } from '../../src/kernel/money.js';
import type { Asset } from '../../src/payments/index.js';

/** Days of history made. */
const HISTORY_DAYS = 30;

/**
 * How each asset moves per day, as a share of its balance now (per mille): what leaves it, and a deposit every
 * `depositEvery` days (deposits are not spending: the runway ignores them). Unlisted assets hold still.
 */
const PATTERNS: Record<string, { spentPerMille: bigint; depositEvery?: number; depositPerMille?: bigint }> = {
  'USDT@ETH': { spentPerMille: 80n, depositEvery: 7, depositPerMille: 250n }, // about 12 days
  'USDT@BSC': { spentPerMille: 45n, depositEvery: 10, depositPerMille: 200n }, // about 3 weeks
  'USDC@ETH': { spentPerMille: 30n }, // about a month
  'USDC@POLYGON': { spentPerMille: 180n, depositEvery: 5, depositPerMille: 400n }, // under a week: the one to watch
};

/** The calendar day `days` before `day`. */
function dayBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The snapshots of the HISTORY_DAYS days before `today`, oldest first, from `assets` as they are now. Going back a
 * day adds what was spent that day and takes off what was deposited, so the newest is one day's spending above now.
 */
function balanceHistory(assets: readonly Asset[], today: string): DailySnapshot[] {
  const balances = new Map(assets.map((asset) => [asset.id, BigInt(asset.balance)]));
  const snapshots: DailySnapshot[] = [];
  for (let ago = 1; ago <= HISTORY_DAYS; ago++) {
    const day = dayBefore(today, ago);
    const byId: Record<string, SnapshotAsset> = {};
    let totalCents = 0n;
    for (const asset of assets) {
      const now = BigInt(asset.balance);
      const pattern = PATTERNS[`${asset.crypto.symbol}@${asset.network.symbol}`];
      let balance = balances.get(asset.id)!;
      if (pattern) {
        balance += (now * pattern.spentPerMille) / 1000n;
        if (pattern.depositEvery && ago % pattern.depositEvery === 0)
          balance -= (now * (pattern.depositPerMille ?? 0n)) / 1000n;
        if (balance < 0n) balance = 0n;
      }
      balances.set(asset.id, balance);
      const centsNow = usdCentsOf(asset.balanceInUsd);
      const cents = centsNow === null || now === 0n ? null : (balance * centsNow) / now;
      if (cents !== null) totalCents += cents;
      byId[asset.id] = {
        symbol: asset.crypto.symbol,
        network: asset.network.symbol,
        decimals: asset.crypto.decimals,
        balance: balance.toString(),
        usdCents: cents === null ? null : cents.toString(),
      };
    }
    // Read at the digest's time, 09:00 in Berlin (08:00 UTC in winter, near enough for a sample).
    snapshots.push({ day, at: `${day}T08:00:00.000Z`, totalUsdCents: totalCents.toString(), assets: byId });
  }
  return snapshots.reverse();
}

function usdCentsOf(decimal: string): bigint | null {
  try {
    return usdDecimalToCents(decimal);
  } catch {
    return null;
  }
}

/** Keeps the history once: nothing is written when the store already holds a snapshot of those days. */
export async function keepBalanceHistory(
  balances: {
    listSnapshots(fromDay: string): Promise<DailySnapshot[]>;
    saveSnapshot(snapshot: DailySnapshot): Promise<void>;
  },
  assets: readonly Asset[],
  today: string,
): Promise<void> {
  if ((await balances.listSnapshots(dayBefore(today, HISTORY_DAYS))).length > 0) return;
  for (const snapshot of balanceHistory(assets, today)) await balances.saveSnapshot(snapshot);
}
