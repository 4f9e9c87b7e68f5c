// The balance repository contract (thresholds and their trail, daily snapshots, daily digests), run against both
// stores: the lowdb state file and a real throwaway PostgreSQL. Two PostgreSQL stores on one database stand for
// two replicas claiming the same day's digest, or keeping the same day's snapshot.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DailySnapshot, DigestRecord } from '../../src/features/digest/records.js';
import type { BalanceThreshold } from '../../src/features/thresholds/rules.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('balances');

const threshold = (assetId: string, below: string, measure: 'units' | 'usd' = 'units'): BalanceThreshold => ({
  assetId,
  measure,
  below,
  symbol: 'USDT',
  network: 'BSC',
  decimals: 6,
});
const snapshot = (day: string, total: string): DailySnapshot => ({
  day,
  at: `${day}T08:00:00.000Z`,
  totalUsdCents: total,
  assets: { a1: { symbol: 'USDT', network: 'BSC', decimals: 6, balance: '5000000', usdCents: total } },
});
const digest = (day: string, channel = 'C0ALERTS'): DigestRecord => ({
  day,
  channel,
  claimedAt: `${day}T08:00:00.000Z`,
  message: { text: `Digest of ${day}`, blocks: [] },
});
const T1 = new Date('2026-11-24T09:00:00.000Z');
const T2 = new Date('2026-11-24T10:00:00.000Z');

describe.each(backends)('balances: $name', (backend) => {
  it.skipIf(backend.skip)(
    'sets, replaces and removes thresholds, each change in the trail with who and when',
    async () => {
      const store = await backend.open();
      try {
        const { balances } = store;
        expect(await balances.setThreshold(threshold('a2', '100'), 'U0AVERY', T1)).toEqual({});
        const replaced = await balances.setThreshold(threshold('a2', '500000', 'usd'), 'U0BLAKE', T2);
        expect(replaced.previous).toMatchObject({ below: '100', measure: 'units', setBy: 'U0AVERY' });
        await balances.setThreshold(threshold('a1', '7'), 'U0AVERY', T2);
        expect(await balances.listThresholds()).toEqual([
          { ...threshold('a1', '7'), setBy: 'U0AVERY', setAt: T2.toISOString() },
          { ...threshold('a2', '500000', 'usd'), setBy: 'U0BLAKE', setAt: T2.toISOString() },
        ]);
        expect((await balances.removeThreshold('a2', 'U0AVERY', T2)).removed).toMatchObject({ below: '500000' });
        expect(await balances.removeThreshold('a2', 'U0AVERY', T2)).toEqual({});
        expect(await balances.removeThreshold('constructor', 'U0AVERY', T2)).toEqual({});
        expect((await balances.listThresholds()).map((t) => t.assetId)).toEqual(['a1']);
        const trail = await balances.listThresholdChanges(T1);
        expect(trail.map((c) => [c.action, c.assetId, c.by, c.at, c.threshold?.below, c.previous?.below])).toEqual([
          ['set', 'a2', 'U0AVERY', T1.toISOString(), '100', undefined],
          ['set', 'a2', 'U0BLAKE', T2.toISOString(), '500000', '100'],
          ['set', 'a1', 'U0AVERY', T2.toISOString(), '7', undefined],
          ['removed', 'a2', 'U0AVERY', T2.toISOString(), undefined, '500000'],
        ]);
        expect(await balances.listThresholdChanges(T2)).toHaveLength(3);
      } finally {
        await store.close?.();
      }
    },
  );

  it.skipIf(backend.skip)('keeps the trail for 400 days', async () => {
    const store = await backend.open();
    try {
      const { balances } = store;
      const old = new Date('2025-01-01T00:00:00.000Z');
      await balances.setThreshold(threshold('a1', '1'), 'U0AVERY', old);
      await balances.setThreshold(threshold('a1', '2'), 'U0AVERY', new Date(old.getTime() + 399 * 86_400_000));
      expect(await balances.listThresholdChanges(new Date(0))).toHaveLength(2);
      await balances.removeThreshold('a1', 'U0AVERY', new Date(old.getTime() + 401 * 86_400_000));
      expect((await balances.listThresholdChanges(new Date(0))).map((c) => c.threshold?.below ?? 'removed')).toEqual([
        '2',
        'removed',
      ]);
    } finally {
      await store.close?.();
    }
  });

  it.skipIf(backend.skip)('keeps one snapshot a day, the last one saved, for 400 days at most', async () => {
    const store = await backend.open();
    try {
      const { balances } = store;
      await balances.saveSnapshot(snapshot('2025-10-01', '1'));
      await balances.saveSnapshot(snapshot('2025-10-20', '2'));
      await balances.saveSnapshot(snapshot('2026-11-24', '3'));
      await balances.saveSnapshot(snapshot('2026-11-24', '4'));
      await balances.claimDigest(digest('2025-10-01'));
      // 2026-11-24 minus 399 days is 2025-10-21: older days leave (snapshots and digests).
      expect((await balances.listSnapshots('2000-01-01')).map((s) => [s.day, s.totalUsdCents])).toEqual([
        ['2026-11-24', '4'],
      ]);
      await balances.saveSnapshot(snapshot('2025-10-21', '5'));
      expect((await balances.listSnapshots('2025-10-21')).map((s) => s.day)).toEqual(['2025-10-21', '2026-11-24']);
      expect((await balances.listSnapshots('2025-10-22')).map((s) => s.day)).toEqual(['2026-11-24']);
      expect(await balances.getDigest('2025-10-01')).toBeUndefined();
    } finally {
      await store.close?.();
    }
  });

  it.skipIf(backend.skip)("keeps a day's first snapshot only; later keeps get the stored one", async () => {
    const store = await backend.open();
    try {
      const { balances } = store;
      await balances.saveSnapshot(snapshot('2025-10-01', '1'));
      expect(await balances.keepSnapshot(snapshot('2026-11-24', '3'))).toEqual({
        kept: true,
        snapshot: snapshot('2026-11-24', '3'),
      });
      expect(await balances.keepSnapshot(snapshot('2026-11-24', '4'))).toEqual({
        kept: false,
        snapshot: snapshot('2026-11-24', '3'),
      });
      // A kept day prunes like a saved one: 2025-10-01 is past the 400 days.
      expect((await balances.listSnapshots('2000-01-01')).map((s) => [s.day, s.totalUsdCents])).toEqual([
        ['2026-11-24', '3'],
      ]);
    } finally {
      await store.close?.();
    }
  });

  it.skipIf(backend.skip || !backend.name.startsWith('PostgreSQL'))(
    'two replicas keeping the same day at once: exactly one snapshot is kept',
    async () => {
      const store = await backend.open();
      const other = await store.another!();
      try {
        const keeps = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? store.balances : other.balances).keepSnapshot(snapshot('2026-11-24', String(i))),
          ),
        );
        expect(keeps.filter((k) => k.kept)).toHaveLength(1);
        const winner = keeps.find((k) => k.kept)!.snapshot.totalUsdCents;
        expect(new Set(keeps.map((k) => k.snapshot.totalUsdCents))).toEqual(new Set([winner]));
        expect((await other.balances.listSnapshots('2026-11-24')).map((s) => s.totalUsdCents)).toEqual([winner]);
      } finally {
        await other.close();
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)(
    "claims a day's digest once; later claims get the stored one; changes are atomic",
    async () => {
      const store = await backend.open();
      try {
        const { balances } = store;
        const first = await balances.claimDigest(digest('2026-11-24'));
        expect(first.claimed).toBe(true);
        const second = await balances.claimDigest(digest('2026-11-24', 'C0OTHER'));
        expect(second).toEqual({ claimed: false, record: digest('2026-11-24') });
        const changed = await balances.changeDigest('2026-11-24', (record) => {
          record.ts = '1700000000.000100';
          return 'posted';
        });
        expect(changed).toMatchObject({ result: 'posted', record: { ts: '1700000000.000100' } });
        expect((await balances.getDigest('2026-11-24'))?.ts).toBe('1700000000.000100');
        expect(await balances.changeDigest('2026-11-25', () => 'x')).toBeUndefined();
      } finally {
        await store.close?.();
      }
    },
  );

  it.skipIf(backend.skip || !backend.name.startsWith('PostgreSQL'))(
    'two replicas claiming the same day at once: exactly one claims it',
    async () => {
      const store = await backend.open();
      const other = await store.another!();
      try {
        const claims = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? store.balances : other.balances).claimDigest(digest('2026-11-24', `C${i}`)),
          ),
        );
        expect(claims.filter((c) => c.claimed)).toHaveLength(1);
        const winner = claims.find((c) => c.claimed)!.record.channel;
        expect(new Set(claims.map((c) => c.record.channel))).toEqual(new Set([winner]));
      } finally {
        await other.close();
        await store.close();
      }
    },
  );
});

describe('balances in the state file', () => {
  it('a file written before thresholds existed loads with none; a damaged threshold is set aside, the rest kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'balances-old-'));
    const file = join(dir, 'state.json');
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: {} }));
    const old = await openBotStore(file);
    expect(await old.balances.listThresholds()).toEqual([]);
    await old.balances.setThreshold(threshold('a1', '7'), 'U0AVERY', T1);
    await old.close?.();
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.balances.thresholds.a2 = { assetId: 'a2', measure: 'units', below: '-5' };
    writeFileSync(file, JSON.stringify(raw));
    const reopened = await openBotStore(file);
    expect((await reopened.balances.listThresholds()).map((t) => t.assetId)).toEqual(['a1']);
    expect(await reopened.balances.listThresholdChanges(T1)).toHaveLength(1);
  });

  it('an asset whose runway is low is remembered across a restart (no repeated crossing)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'runways-low-')), 'state.json');
    const low = { a1: { since: T1.toISOString(), alertKey: `runway_low:a1:${T1.toISOString()}`, belowDays: '3' } };
    const first = await openBotStore(file);
    await first.alerts.commitPoll((alerts) => {
      alerts.runwaysLow = low;
    });
    await first.close();
    const again = await openBotStore(file);
    expect((await again.alerts.readAlerts()).runwaysLow).toEqual(low);
    await again.close();
  });

  it('an asset below its threshold is remembered across a restart (no repeated crossing)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'balances-low-')), 'state.json');
    const first = await openBotStore(file);
    await first.alerts.commitPoll((alerts) => {
      alerts.balancesLow = { a1: { since: T1.toISOString(), alertKey: `balance_low:a1:${T1.toISOString()}` } };
    });
    await first.close();
    const again = await openBotStore(file);
    expect((await again.alerts.readAlerts()).balancesLow).toEqual({
      a1: { since: T1.toISOString(), alertKey: `balance_low:a1:${T1.toISOString()}` },
    });
    await again.close();
  });
});
