// The daily balance snapshot as a job of its own, end to end on both stores (the real app, signed HTTP, the Slack
// stand-in, the payment API simulator, the clock injected): with RUNWAY_ALERT_DAYS set and DIGEST_AT unset the bot
// starts, takes one snapshot a day at 00:05 in ALERT_TIME_ZONE (one across two replicas, one across checks and
// restarts), takes a missed one at start, and `/treasury runway` learns from them. With DIGEST_AT set, the snapshot is
// taken at DIGEST_AT and the digest reads it rather than a reading of its own.
import { afterEach, describe, expect, it } from 'vitest';
import { type AlertRig, AVERY, startAlertRig, storesUnderTest, usePostgres } from '../alerts/rig.js';
import { type DigestRig, startDigestRig } from '../digest/rig.js';
import { messageToText } from '../support/rig/blocks-text.js';
import { waitUntil } from '../support/waiting.js';

const postgres = usePostgres('daily-snapshot');

let rig: AlertRig | undefined;
let digestRig: DigestRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  await digestRig?.close();
  digestRig = undefined;
});

const ENV = { RUNWAY_ALERT_DAYS: '3' };
const usdc = (units: number) => BigInt(units) * 1_000_000n;

function usdcEth(current: { simulator: AlertRig['simulator'] }) {
  const asset = current.simulator.merchantAssets().find((a) => a.symbol === 'USDC' && a.network === 'ETH');
  if (!asset) throw new Error('the sample merchant has no USDC@ETH');
  return asset;
}

const setClock = (r: { simulator: AlertRig['simulator'] }, iso: string) => r.simulator.setTime(Date.parse(iso));
const days = async (r: AlertRig) =>
  (await r.replicas[0]!.store.balances.listSnapshots('2000-01-01')).map((snapshot) => snapshot.day);

describe.each(storesUnderTest(postgres))('the daily balance snapshot on %s', (_name, store) => {
  it('without DIGEST_AT: one snapshot a day at 00:05 UTC, and /treasury runway learns from them', async () => {
    rig = await startAlertRig({ store: await store(), env: ENV });
    const r = rig;
    const asset = usdcEth(r);
    const reads = () => r.simulator.requestCount('listAssets');

    setClock(r, '2026-11-21T00:04:00Z'); // before 00:05: nothing is read
    const before = reads();
    await r.replicas[0]!.treasury.snapshots.check();
    expect(reads()).toBe(before);
    expect(await days(r)).toEqual([]);

    // 100 USDC leave each day; each day's first check from 00:05 keeps one snapshot, later checks read nothing.
    for (const [i, day] of ['2026-11-21', '2026-11-22', '2026-11-23'].entries()) {
      r.simulator.setAssetBalance(asset.id, usdc(1_000 - 100 * i));
      setClock(r, `${day}T00:05:00Z`);
      await r.replicas[0]!.treasury.snapshots.check();
      setClock(r, `${day}T18:00:00Z`);
      const after = reads();
      await r.replicas[0]!.treasury.snapshots.check();
      expect(reads()).toBe(after);
    }
    expect(await days(r)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);

    r.simulator.setAssetBalance(asset.id, usdc(700));
    setClock(r, '2026-11-24T00:04:00Z');
    const learning = messageToText(await r.command('runway', AVERY));
    expect(learning).toContain('USDC@ETH: still learning (2 of 3 days of history)');
    expect(learning).toContain('from the balance snapshot the bot takes each day at 00:05 UTC');

    setClock(r, '2026-11-24T00:05:00Z');
    await r.replicas[0]!.treasury.snapshots.check();
    setClock(r, '2026-11-24T10:00:00Z');
    const learned = messageToText(await r.command('runway', AVERY));
    expect(learned).toContain('USDC@ETH: about 7 days at $100.00/day (3-day outflow)');
    expect(learned).toContain('An alert comes when a runway falls below 3 days.');

    // A restart the same day keeps the day's snapshot; nothing is read for it again.
    await r.restart();
    const afterRestart = reads();
    await r.replicas[0]!.treasury.snapshots.check();
    expect(reads()).toBe(afterRestart);
    const [today] = await r.replicas[0]!.store.balances.listSnapshots('2026-11-24');
    expect(today!.at.slice(0, 19)).toBe('2026-11-24T00:05:00');
    expect(today!.assets[asset.id]!.balance).toBe(usdc(700).toString());
  });

  it('a bot started after 00:05 takes the missing snapshot at start, once; started before, it reads nothing', async () => {
    const kept = (r: AlertRig) => r.logs.filter((line) => line.includes('daily balance snapshot kept')).length;
    // The timer on (its run at start), with a period no test reaches.
    const timer = { snapshotCheckEveryMs: 3_600_000 };
    rig = await startAlertRig({ store: await store(), env: ENV, startAt: '2026-11-24T00:03:00Z', app: timer });
    const early = rig;
    await early.replicas[0]!.treasury.snapshots.check(); // the run at start, if one is under way, finished
    expect(early.simulator.requestCount('listAssets')).toBe(0);
    expect(await days(early)).toEqual([]);

    // Down from 00:03 to 15:00: back the same day, the missing snapshot is taken as the bot starts.
    setClock(early, '2026-11-24T15:00:00Z');
    await early.restart();
    await waitUntil(() => kept(early) === 1, 'the snapshot taken at start');
    expect(await days(early)).toEqual(['2026-11-24']);
    expect(early.simulator.requestCount('listAssets')).toBe(1);

    // Started again the same day: the day has its snapshot, nothing is read.
    await early.restart();
    await early.replicas[0]!.treasury.snapshots.check();
    expect(early.simulator.requestCount('listAssets')).toBe(1);
    expect(kept(early)).toBe(1);
  });
});

describe.runIf(postgres.available)('the daily balance snapshot on two replicas', () => {
  it('two replicas checking at once keep one snapshot, read by the lease holder only', async () => {
    rig = await startAlertRig({ store: await postgres.database(), env: ENV, replicas: ['a', 'b'] });
    const r = rig;
    setClock(r, '2026-11-21T00:05:00Z');
    const before = r.simulator.requestCount('listAssets');
    await Promise.all(r.replicas.map((replica) => replica.treasury.snapshots.check()));
    await Promise.all(r.replicas.map((replica) => replica.treasury.snapshots.check()));
    expect(await days(r)).toEqual(['2026-11-21']);
    expect(r.simulator.requestCount('listAssets')).toBe(before + 1);
  });
});

describe.each(storesUnderTest(postgres))('with DIGEST_AT on %s', (_name, store) => {
  it('the snapshot is taken at DIGEST_AT and the digest reads it rather than its own reading', async () => {
    digestRig = await startDigestRig({ store: await store() });
    const d = digestRig;
    const [asset] = d.simulator.merchantAssets();
    const whole = 10n ** BigInt(asset!.decimals);
    d.setClock('2026-11-24T08:00:00Z'); // 09:00 in Berlin
    await d.replicas[0]!.treasury.snapshots.check();
    await d.check();
    expect(d.digests()).toHaveLength(1);

    // The next day: the snapshot job reads +5, then the balance moves again before the digest's check.
    d.simulator.setAssetBalance(asset!.id, asset!.balance + whole * 5n);
    d.setClock('2026-11-25T08:00:00Z');
    await d.replicas[0]!.treasury.snapshots.check();
    d.simulator.setAssetBalance(asset!.id, asset!.balance + whole * 12n);
    d.setClock('2026-11-25T08:00:30Z');
    await d.check();
    const next = messageToText(d.digests()[1]!);
    expect(next).toContain(`+5 ${asset!.symbol}`);
    expect(next).not.toContain(`+12 ${asset!.symbol}`);
    const kept = await d.replicas[0]!.store.balances.listSnapshots('2026-11-24');
    expect(kept.map((snapshot) => [snapshot.day, snapshot.at.slice(0, 19)])).toEqual([
      ['2026-11-24', '2026-11-24T08:00:00'],
      ['2026-11-25', '2026-11-25T08:00:00'],
    ]);
  });

  it('the digest keeps the day’s snapshot itself when the job has not (the same keepSnapshot)', async () => {
    digestRig = await startDigestRig({ store: await store() });
    const d = digestRig;
    d.setClock('2026-11-24T08:00:10Z');
    await d.check();
    expect(d.digests()).toHaveLength(1);
    const reads = d.simulator.requestCount('listAssets');
    await d.replicas[0]!.treasury.snapshots.check();
    expect(d.simulator.requestCount('listAssets')).toBe(reads);
    const kept = await d.replicas[0]!.store.balances.listSnapshots('2026-11-24');
    expect(kept.map((snapshot) => snapshot.at.slice(0, 19))).toEqual(['2026-11-24T08:00:10']);
  });
});
