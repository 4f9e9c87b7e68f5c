// The runway service's reads: which gas rows were charged and to which asset, and the gas list read once per window
// (a burst of Home tabs or a poll a minute makes one read; a failed read is not kept; the gas donor is unknown then).
import { describe, expect, it } from 'vitest';
import type { BalanceReading } from '../../../src/features/runway/rules.js';
import { createRunwayService, donorOf, isCharged } from '../../../src/features/runway/service.js';
import { silentLogger } from '../../../src/logger.js';
import type { Asset, GasDistribution } from '../../../src/payments/index.js';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const leg = (cryptoId: string, currency: string, amount: string) => ({
  amount,
  amountFormatted: amount,
  currency,
  cryptoId,
  networkId: 'net-bsc',
  amountInUsd: null,
  isChargedToMerchant: true,
});

function asset(id: string, symbol: string, cryptoId: string, balance: string): Asset {
  return {
    id,
    wallet: '0x',
    feePercent: '0',
    feeUsd: '0',
    balance,
    balanceInUsd: '0',
    balanceForWithdrawal: null,
    balanceUnits: 'base_units',
    crypto: { id: cryptoId, title: symbol, symbol, contractAddress: null, decimals: 0, logoURI: 'https://x' },
    network: { id: 'net-bsc', title: 'BNB Smart Chain', symbol: 'BSC', chainId: '56', networkType: 'evm' },
    createdAt: NOW,
  } as unknown as Asset;
}

function row(status: string, subStatus: string | null, amount: string | null, daysAgo: number): GasDistribution {
  return {
    status,
    subStatus,
    charged: amount === null ? null : leg('usdt-bsc', 'USDT', amount),
    network: { id: 'net-bsc', title: 'BNB Smart Chain', symbol: 'BSC', chainId: null, networkType: null },
    createdAt: new Date(NOW.getTime() - daysAgo * 86_400_000),
  } as unknown as GasDistribution;
}

describe('which gas rows count, and for which asset', () => {
  it.each<[string, string, string | null, string | null, boolean]>([
    ['sent', 'success', 'sent', '5', true],
    ['pending, being charged', 'pending', null, '5', true],
    ['short of donor balance: nothing was charged', 'failed', 'not_enough_donor_balance', '5', false],
    ['pending short of donor balance', 'pending', 'not_enough_donor_balance', '5', false],
    ['failed otherwise', 'failed', null, '5', false],
    ['cancelled: no charged leg', 'cancelled', 'enough_balance', null, false],
  ])('%s', (_name, status, subStatus, amount, counted) => {
    expect(isCharged(row(status, subStatus, amount, 1))).toBe(counted);
  });

  it('the asset of the charged crypto on its network; by symbol when no asset has that crypto id', () => {
    const usdt = asset('a-usdt', 'USDT', 'usdt-bsc', '100');
    const other = asset('a-usdt-2', 'USDT', 'another-id', '100');
    expect(donorOf(row('success', 'sent', '5', 1), [other, usdt])?.id).toBe('a-usdt');
    expect(donorOf(row('success', 'sent', '5', 1), [other])?.id).toBe('a-usdt-2');
    expect(donorOf(row('success', 'sent', '5', 1), [asset('a-bnb', 'BNB', 'bnb', '1')])).toBeUndefined();
  });
});

describe('the gas list is read once per window', () => {
  const readings: BalanceReading[] = [4, 3, 2, 1].map((ago) => {
    const day = new Date(NOW.getTime() - ago * 86_400_000).toISOString().slice(0, 10);
    return { day, at: `${day}T08:00:00.000Z`, assets: { 'a-usdt': { balance: '100' } } };
  });

  function service(pages: () => GasDistribution[] | Error) {
    let reads = 0;
    let now = NOW;
    const runway = createRunwayService({
      store: { balances: { listSnapshots: async () => readings } },
      payments: {
        listAssets: async () => [],
        async *gasDistributionPages() {
          reads += 1;
          const items = pages();
          if (items instanceof Error) throw items;
          yield { items, cursorNext: null, cursorPrevious: null };
        },
      },
      now: () => now,
      today: () => NOW.toISOString().slice(0, 10),
      logger: silentLogger,
      snapshotsAt: '00:05 UTC',
    });
    return { runway, reads: () => reads, setNow: (at: Date) => (now = at) };
  }
  const assets = [asset('a-usdt', 'USDT', 'usdt-bsc', '100')];

  it('a burst of forecasts makes one read; an hour later it is read again', async () => {
    const s = service(() => [row('success', 'sent', '10', 1.5)]);
    const reports = await Promise.all([1, 2, 3].map(() => s.runway.forecast(assets)));
    expect(s.reads()).toBe(1);
    expect(reports[0]).toMatchObject({ ok: true, runways: [{ runway: { state: 'spending', outflow: { gas: 10n } } }] });
    s.setNow(new Date(NOW.getTime() + 61 * 60_000));
    await s.runway.forecast(assets);
    expect(s.reads()).toBe(2);
  });

  it('a failed read is not kept, and the known gas donor is unknown rather than too long', async () => {
    let fail = false;
    const s = service(() => (fail ? new Error('the API did not answer') : [row('success', 'sent', '10', 1.5)]));
    await s.runway.forecast(assets);
    fail = true;
    s.setNow(new Date(NOW.getTime() + 61 * 60_000));
    const failed = await s.runway.forecast(assets);
    expect(failed).toMatchObject({ ok: true, gasUnreadable: true, runways: [{ runway: { state: 'unknown' } }] });
    fail = false;
    await s.runway.forecast(assets);
    expect(s.reads()).toBe(3);
  });
});
