// Runway end to end (signed HTTP, the Slack stand-in, the payment API simulator, the clock injected), on both stores:
// "still learning" before three days of history; then from the daily snapshots the digest keeps, the same line in the
// daily digest, in `/treasury runway` and on the Home tab.
import { afterEach, describe, expect, it } from 'vitest';
import type { DailySnapshot } from '../../src/features/digest/records.js';
import { storesUnderTest, usePostgres } from '../alerts/rig.js';
import { AVERY, type DigestRig, startDigestRig } from '../digest/rig.js';
import { blocksToText, messageToText } from '../support/rig/blocks-text.js';

const postgres = usePostgres('runway');

let rig: DigestRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** USDC on Ethereum: an asset that pays for no gas, so its outflow is its balance decreases only. */
function usdcEth(current: DigestRig) {
  const asset = current.simulator.merchantAssets().find((a) => a.symbol === 'USDC' && a.network === 'ETH');
  if (!asset) throw new Error('the sample merchant has no USDC@ETH');
  return asset;
}

const usdc = (units: number) => BigInt(units) * 1_000_000n;

/** A kept snapshot of one asset on `day`, as the digest keeps it. */
function snapshot(day: string, assetId: string, balance: bigint): DailySnapshot {
  return {
    day,
    at: `${day}T08:00:00.000Z`,
    totalUsdCents: (balance / 10_000n).toString(),
    assets: {
      [assetId]: { symbol: 'USDC', network: 'ETH', decimals: 6, balance: balance.toString(), usdCents: null },
    },
  };
}

const LINE = 'USDC@ETH: about 7 days at $100.00/day (3-day outflow)';

describe.each(storesUnderTest(postgres))('runway on %s', (_name, store) => {
  it('is still learning with two days of history, then shows the same runway in the digest, /treasury runway and Home', async () => {
    rig = await startDigestRig({ store: await store(), startAt: '2026-11-24T06:00:00Z' });
    const asset = usdcEth(rig);
    const balances = rig.replicas[0]!.store.balances;
    // 100 USDC leave each day.
    await balances.saveSnapshot(snapshot('2026-11-21', asset.id, usdc(1_000)));
    await balances.saveSnapshot(snapshot('2026-11-22', asset.id, usdc(900)));
    await balances.saveSnapshot(snapshot('2026-11-23', asset.id, usdc(800)));
    rig.simulator.setAssetBalance(asset.id, usdc(700));

    const learning = messageToText(await rig.command('runway', AVERY));
    expect(learning).toContain('USDC@ETH: still learning (2 of 3 days of history)');

    rig.setClock('2026-11-24T08:00:00Z'); // 09:00 in Berlin: the digest keeps today's snapshot
    await rig.check();
    const [digest] = rig.digests();
    const words = messageToText(digest!);
    expect(words).toContain('*Runway* (at the outflow of the last 7 days)');
    expect(words).toContain(LINE);
    expect((await balances.listSnapshots('2026-11-24')).map((s) => s.day)).toEqual(['2026-11-24']);

    const answer = messageToText(await rig.command('runway', AVERY));
    expect(answer).toContain('Runway');
    expect(answer).toContain(LINE);
    // The shortest runway comes first: USDC@ETH is the only asset spending.
    expect(answer.indexOf(LINE)).toBeLessThan(answer.indexOf('still learning'));

    await rig.replicas[0]!.driver.openHome(AVERY);
    const home = await rig.slack.waitFor(() => rig!.slack.homeView(AVERY), 10_000, 'the Home tab');
    expect(blocksToText((home.view as { blocks: unknown[] }).blocks)).toContain(LINE);
  });
});
