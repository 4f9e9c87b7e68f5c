// The day's balance snapshot: each asset's USD value in cents, and a total that adds the exact decimals and rounds
// once (as `/treasury balances` and the Home tab do), so twenty values ending in ½ cent do not drift by 10 cents.
import { describe, expect, it } from 'vitest';
import { dailySnapshotOf } from '../../../src/features/digest/compose.js';
import type { Asset } from '../../../src/payments/index.js';

const asset = (id: string, balanceInUsd: string): Asset =>
  ({
    id,
    balance: '1000',
    balanceInUsd,
    crypto: { symbol: 'USDT', decimals: 2 },
    network: { symbol: 'BSC', title: 'BNB Smart Chain' },
  }) as unknown as Asset;

describe('dailySnapshotOf', () => {
  it('totals the exact decimals, rounded once', () => {
    const assets = Array.from({ length: 20 }, (_, i) => asset(`a${i}`, '1.005'));
    const snapshot = dailySnapshotOf(assets, '2026-11-25', new Date('2026-11-25T08:00:00Z'));
    expect(snapshot.totalUsdCents).toBe('2010');
    expect(snapshot.assets.a0?.usdCents).toBe('101');
  });

  it('leaves out values it cannot read or that are negative, and totals 0 with none', () => {
    const snapshot = dailySnapshotOf(
      [asset('a', '12.34'), asset('b', '-1.00'), asset('c', 'n/a')],
      '2026-11-25',
      new Date(),
    );
    expect(snapshot.totalUsdCents).toBe('1234');
    expect(snapshot.assets.b?.usdCents).toBeNull();
    expect(snapshot.assets.c?.usdCents).toBeNull();
    expect(dailySnapshotOf([], '2026-11-25', new Date()).totalUsdCents).toBe('0');
  });
});
