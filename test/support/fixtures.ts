// Records as they are stored, shared by the tests that write state files or build alerts by hand.
import type { FailureFacts } from '../../src/features/alerts/kinds/index.js';
import type { RunwayReport } from '../../src/features/runway/index.js';
import type { AuditEntry } from '../../src/features/swaps/quote.js';

/** A pending swap quote as the state file holds it; `overrides` replace any field. */
export function swapQuoteRecord(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    estimateId: 'e',
    estimatedAt: '2026-11-22T00:00:00.000Z',
    expiresAt: '2026-11-22T00:30:00.000Z',
    requestedBy: 'U1',
    channelId: 'C1',
    from: { assetId: 'a', symbol: 'USDT', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
    to: { assetId: 'b', symbol: 'USDC', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
    amountFrom: '1',
    estimatedAmount: '1',
    routeType: 'dex',
    serviceId: 's',
    status: 'pending' as const,
    history: [] as AuditEntry[],
    ...overrides,
  };
}

/**
 * The facts of failed withdrawal number `i` (i minutes before `now`). With `hostile` text, every field a person
 * reads carries it, and the amount is as long as a token amount can be.
 */
export function failedWithdrawalFacts(
  i: number,
  now: Date,
  hostile?: { text: string; txHash: string | null },
): FailureFacts {
  return {
    kind: 'withdrawal',
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    status: 'failed',
    createdAt: new Date(now.getTime() - i * 60_000).toISOString(),
    symbol: hostile ? hostile.text.slice(0, 300) : 'USDT',
    decimals: 6,
    network: { title: hostile ? hostile.text : 'Ethereum', symbol: 'ETH' },
    amount: hostile ? '9'.repeat(78) : '1500000',
    amountInUsd: hostile ? null : '1.50',
    address: hostile ? hostile.text : `0x${'a'.repeat(40)}`,
    txHash: hostile ? hostile.txHash : null,
  };
}

/** A runway report of `count` spending assets with long names (the lists' worst case). */
export function manyRunways(count: number): RunwayReport {
  return {
    ok: true,
    at: new Date('2026-11-24T08:00:00Z'),
    snapshotsAt: '09:00 Europe/Berlin',
    alertDays: '3',
    gasUnreadable: true,
    runways: Array.from({ length: count }, (_, i) => ({
      asset: {
        id: `a${i}`,
        symbol: `TOKEN${i}${'X'.repeat(40)}`,
        network: 'N'.repeat(50),
        decimals: 18,
        balance: 10n ** 30n,
        usdCents: 10n ** 12n,
      },
      runway: {
        state: 'spending' as const,
        outflow: { spent: 10n ** 29n + BigInt(i), gas: 1n, days: 7 },
        days: { num: 7n * 10n ** 30n, den: 10n ** 29n + BigInt(i) },
      },
    })),
  };
}
