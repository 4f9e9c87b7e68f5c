// The runway_low alert through the real app, on the state file and on PostgreSQL: with RUNWAY_ALERT_DAYS=3 a runway
// falling below 3 days raises one alert people own, a later poll or a restart raises no second one, a runway inside
// the margin keeps it open, and back at 3.3 days it resolves itself by the facts. The gas donor's runway counts the
// `charged` amounts of its gas top-ups.
import { afterEach, describe, expect, it } from 'vitest';
import type { DailySnapshot } from '../../src/features/digest/records.js';
import { messageToText } from '../support/rig/blocks-text.js';
import {
  ALERTS,
  type AlertRig,
  AVERY,
  colourOf,
  controlsOf,
  startAlertRig,
  storesUnderTest,
  textOf,
  usePostgres,
} from './rig.js';

const postgres = usePostgres('runway-low');
let rig: AlertRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const DAY = 86_400_000;
// No DIGEST_AT: the daily snapshots are a job of their own (its timer off in the rig); these tests save them directly.
const ENV = { RUNWAY_ALERT_DAYS: '3' };
const runwayAlerts = (r: AlertRig) =>
  r.slack.messages(ALERTS).filter((m) => m.threadTs === undefined && /runway is below/.test(textOf(m)));

/** The day `ago` days before the bot's clock, in the snapshots' zone (ALERT_TIME_ZONE, UTC here). */
function dayAgo(r: AlertRig, ago: number): string {
  return new Date(r.simulator.now() - ago * DAY).toISOString().slice(0, 10);
}

/** Keeps one snapshot a day of one asset: `balances[i]` on the day `balances.length - i` days ago. */
async function keepSnapshots(
  r: AlertRig,
  asset: { id: string; symbol: string; network: string; decimals: number },
  balances: bigint[],
) {
  for (const [i, balance] of balances.entries()) {
    const day = dayAgo(r, balances.length - i);
    const snapshot: DailySnapshot = {
      day,
      at: new Date(r.simulator.now() - (balances.length - i) * DAY).toISOString(),
      totalUsdCents: '0',
      assets: {
        [asset.id]: {
          symbol: asset.symbol,
          network: asset.network,
          decimals: asset.decimals,
          balance: balance.toString(),
          usdCents: null,
        },
      },
    };
    await r.replicas[0]!.store.balances.saveSnapshot(snapshot);
  }
}

function assetOf(r: AlertRig, symbol: string, network: string) {
  const asset = r.simulator.merchantAssets().find((a) => a.symbol === symbol && a.network === network);
  if (!asset) throw new Error(`no ${symbol}@${network}`);
  return asset;
}

describe.each(storesUnderTest(postgres))('the runway_low alert on %s', (_name, store) => {
  it('alerts once below 3 days, survives a restart, stays open inside the margin and resolves at 3.3 days', async () => {
    rig = await startAlertRig({ store: await store(), env: ENV });
    const r = rig;
    const asset = assetOf(r, 'USDC', 'ETH');
    const units = (n: bigint) => n * 10n ** BigInt(asset.decimals);
    // 1,000 USDC a day over the last 3 days (a deposit in between is not negative spend).
    await keepSnapshots(r, asset, [units(11_000n), units(10_000n), units(12_000n), units(10_000n)]);

    r.simulator.setAssetBalance(asset.id, units(5_000n)); // 5,000 / (3,000 / 3 days) = 5 days
    await r.poll();
    expect(runwayAlerts(r)).toHaveLength(0);

    r.simulator.setAssetBalance(asset.id, units(2_500n)); // 2.5 days
    await r.poll();
    const [alert] = runwayAlerts(r);
    expect(runwayAlerts(r)).toHaveLength(1);
    expect(textOf(alert!)).toMatch(/OPEN.*USDC@ETH runway is below 3 days/);
    expect(textOf(alert!)).toContain('about 2.5 days at $1,000.00/day');
    expect(textOf(alert!)).toContain('3.3 days');
    expect(controlsOf(alert!).length).toBeGreaterThan(0);
    expect(Object.keys((await r.replicas[0]!.store.alerts.readAlerts()).runwaysLow ?? {})).toEqual([asset.id]);

    r.simulator.setAssetBalance(asset.id, units(2_000n));
    await r.poll();
    await r.restart();
    await r.poll();
    r.simulator.setAssetBalance(asset.id, units(3_200n)); // 3.2 days: back above 3, inside the margin
    await r.poll();
    expect(runwayAlerts(r)).toHaveLength(1);
    expect(textOf(r.message(alert!.ts)!)).toMatch(/OPEN/);

    r.simulator.setAssetBalance(asset.id, units(3_300n)); // 3.3 days: the recovery level
    await r.poll();
    const resolved = await r.waitForMessage(alert!.ts, /RESOLVED/);
    expect(controlsOf(resolved)).toEqual([]);
    expect(colourOf(resolved)).toBe('#2EB67D');
    expect(textOf(resolved)).toContain('Back to about 3.3 days');
    const replies = await r.waitForThread(alert!.ts, 1);
    expect(textOf(replies.at(-1)!)).toMatch(/runway is back at about 3.3 days, at or above 3.3/);
    expect((await r.replicas[0]!.store.alerts.readAlerts()).runwaysLow).toBeUndefined();
  });

  it('counts the gas top-ups charged to the gas donor: a flat balance that pays for gas still runs out', async () => {
    rig = await startAlertRig({ store: await store(), env: ENV });
    const r = rig;
    // The simulator's donor stablecoin on BSC is USDT: its top-ups are charged to USDT@BSC.
    const donor = assetOf(r, 'USDT', 'BSC');
    const units = (n: bigint) => n * 10n ** BigInt(donor.decimals);
    await keepSnapshots(r, donor, [units(12n), units(12n), units(12n), units(12n)]);
    r.simulator.setAssetBalance(donor.id, units(12n));
    for (const ago of [3.5, 2.5, 1.5])
      r.simulator.addGasDistribution({
        networkId: r.simulator.ids.networks.bsc,
        status: 'success',
        createdAt: r.simulator.now() - ago * DAY,
      });
    await r.poll();
    const answer = messageToText(await r.command('runway', AVERY));
    const [alert] = runwayAlerts(r);
    expect(textOf(alert!)).toMatch(/USDT@BSC runway is below 3 days/);

    // 3 top-ups of $6.10 (the top-up and the service fee) over 3 days; 12 USDT last 1.9 days (rounded down).
    expect(answer).toContain(':warning: USDT@BSC: about 1.9 days at $6.10/day (3-day outflow, gas top-ups included)');
  });
});
