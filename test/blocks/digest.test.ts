// The daily digest in words: the total and each asset with its change since the previous digest (token units and
// USD, exact), new and vanished assets, the alerts and open alerts, swaps and the daily limit; API text escaped;
// within Slack's limits with extreme data.

import { describe, expect, it } from 'vitest';
import { newOwnedAlert } from '../../src/features/alerts/owned.js';
import { buildDigest, type DigestView } from '../../src/features/digest/blocks.js';
import { balancesView } from '../../src/features/digest/compose.js';
import type { DailySnapshot } from '../../src/features/digest/records.js';
import { expectWithinSlackLimits } from '../support/block-limits.js';
import { failedWithdrawalFacts, manyRunways } from '../support/fixtures.js';
import { messageToText } from '../support/rig/blocks-text.js';

const NOW = new Date('2026-11-24T08:00:00.000Z');

const snapshot = (day: string, assets: DailySnapshot['assets']): DailySnapshot => ({
  day,
  at: `${day}T08:00:00.000Z`,
  totalUsdCents: Object.values(assets)
    .reduce((sum, asset) => sum + BigInt(asset.usdCents ?? '0'), 0n)
    .toString(),
  assets,
});
const usdt = (balance: string, usdCents: string | null) => ({
  symbol: 'USDT',
  network: 'BSC',
  decimals: 18,
  balance,
  usdCents,
});

function view(overrides: Partial<DigestView> = {}): DigestView {
  return {
    day: '2026-11-24',
    at: NOW,
    occasion: 'scheduled',
    balances: { ok: true, totalUsdCents: 0n, assets: [], gone: [] },
    alertsByKind: [],
    open: { alerts: [], total: 0 },
    quotes: { waiting: 0, approved: 0, rejected: 0, expired: 0, swapsFinished: 0 },
    ...overrides,
  };
}

describe('balances and their change', () => {
  it('shows the total, each asset and its change since the previous digest, exactly', () => {
    const before = snapshot('2026-11-23', {
      a1: usdt('5000000000000000000000', '500000'), // 5,000 USDT, $5,000.00
      a2: { symbol: 'ETH', network: 'ETH', decimals: 18, balance: '2000000000000000000', usdCents: '700000' },
      gone: { symbol: 'DAI', network: 'ETH', decimals: 18, balance: '100000000000000000000', usdCents: '10000' },
    });
    const now = snapshot('2026-11-24', {
      a1: usdt('4000000000000000000001', '400000'), // 4,000.000000000000000001 USDT
      a2: { symbol: 'ETH', network: 'ETH', decimals: 18, balance: '2500000000000000000', usdCents: '875000' },
      a3: { symbol: 'TRX', network: 'TRON', decimals: 6, balance: '10000000', usdCents: null },
    });
    const text = messageToText(buildDigest(view({ balances: balancesView(now, before) })));
    expect(text).toContain('Daily digest · Tue 24 Nov 2026');
    expect(text).toContain('Total balance:* $12,750.00 (+$650.00 since the digest of Mon 23 Nov 2026)');
    expect(text).toContain('*ETH* · ETH — 2.5 ETH · $8,750.00 · +0.5 ETH (+$1,750.00)');
    expect(text).toContain(
      '*USDT* · BSC — 4,000.000000000000000001 USDT · $4,000.00 · -999.999999999999999999 USDT (-$1,000.00)',
    );
    expect(text).toContain('*TRX* · TRON — 10 TRX · n/a · _new since then_');
    expect(text).toContain('*DAI* · ETH — no longer listed (was 100 DAI)');
    // Largest USD value first; an asset without one last.
    expect(text.indexOf('*ETH*')).toBeLessThan(text.indexOf('*USDT*'));
    expect(text.indexOf('*USDT*')).toBeLessThan(text.indexOf('*TRX*'));
  });

  it('says when there is no earlier digest to compare with', () => {
    const now = snapshot('2026-11-24', { a1: usdt('1000000000000000000', '100') });
    const text = messageToText(buildDigest(view({ balances: balancesView(now, undefined) })));
    expect(text).toContain('$1.00 (no earlier digest to compare with yet)');
    expect(text).not.toContain('new since then');
  });

  it('says in plain words when the balances could not be read, and keeps the rest', () => {
    const text = messageToText(
      buildDigest(
        view({
          balances: { ok: false, reason: 'the payment API did not answer' },
          alertsByKind: [{ kind: 'withdrawal_failed', count: 2 }],
        }),
      ),
    );
    expect(text).toContain('could not be read: the payment API did not answer');
    expect(text).toContain('Failed withdrawals: 2');
  });

  it('escapes what the API names', () => {
    const now = snapshot('2026-11-24', {
      a1: { symbol: '<!channel>', network: 'A&B', decimals: 0, balance: '5', usdCents: '500' },
    });
    const message = buildDigest(view({ balances: balancesView(now, undefined) }));
    const json = JSON.stringify(message.blocks);
    expect(json).toContain('&lt;!channel&gt;');
    expect(json).toContain('A&amp;B');
    expect(json).not.toContain('<!channel>');
  });
});

describe('alerts, swaps and limits', () => {
  it('counts alerts by kind, lists open ones with who has them, and the swaps and limit use', () => {
    const item = { key: 'withdrawal:1', queuedAt: NOW.toISOString(), facts: failedWithdrawalFacts(1, NOW) };
    const open = newOwnedAlert({
      key: 'withdrawal:1',
      items: [item],
      channel: 'C1',
      ts: '1.1',
      at: new Date(NOW.getTime() - 3 * 3_600_000),
    });
    const taken = {
      ...open,
      key: 'withdrawal:2',
      life: { ...open.life, state: 'acknowledged' as const, acknowledgedBy: 'U0AVERY' },
    };
    const text = messageToText(
      buildDigest(
        view({
          alertsByKind: [
            { kind: 'withdrawal_failed', count: 3 },
            { kind: 'balance_low', count: 1 },
            { kind: 'runway_low', count: 2 },
          ],
          open: { alerts: [open, taken], total: 2 },
          quotes: { waiting: 1, approved: 2, rejected: 1, expired: 0, swapsFinished: 2 },
          dailyLimit: {
            limitCents: 1_000_000n,
            use: [{ asset: 'USDT on BNB Smart Chain', createdCents: 250_000n, waitingCents: 50_000n }],
          },
        }),
      ),
    );
    expect(text).toContain('Alerts in the last 24 hours:* 6');
    expect(text).toContain('Runways below RUNWAY_ALERT_DAYS: 2');
    expect(text).toContain('Failed withdrawals: 3');
    expect(text).toContain('Balances below their threshold: 1');
    expect(text).toContain('Open alerts:* 2, 1 with nobody on it');
    expect(text).toMatch(/3 h old · _nobody yet_/);
    expect(text).toContain('<@U0AVERY>');
    expect(text).toContain('approved 2 · rejected 1 · expired 0 · swaps finished 2');
    expect(text).toContain('Waiting for approval now:* 1');
    expect(text).toContain(
      'USDT on BNB Smart Chain: $2,500 of $10,000 swapped, 25 %; $500 more in quotes waiting for approval',
    );
  });

  it('says so when nothing happened and no limit is set', () => {
    const text = messageToText(buildDigest(view()));
    expect(text).toContain('Alerts in the last 24 hours:* none.');
    expect(text).toContain('Open alerts:* none');
    expect(text).toContain('Daily swap limit:* none set.');
  });
});

describe('Slack limits', () => {
  it('stays within them with hundreds of assets, open alerts and limit rows', () => {
    const assets: DailySnapshot['assets'] = {};
    for (let i = 0; i < 300; i++)
      assets[`a${i}`] = {
        symbol: `TOKEN${i}${'X'.repeat(40)}`,
        network: 'N'.repeat(50),
        decimals: 18,
        balance: `${10n ** 30n + BigInt(i)}`,
        usdCents: `${10 ** 12 + i}`,
      };
    const before = snapshot('2026-11-23', assets);
    const item = { key: 'withdrawal:1', queuedAt: NOW.toISOString(), facts: failedWithdrawalFacts(1, NOW) };
    const alert = newOwnedAlert({ key: 'withdrawal:1', items: [item], channel: 'C1', ts: '1.1', at: NOW });
    const message = buildDigest(
      view({
        balances: balancesView(snapshot('2026-11-24', { ...assets, extra: assets.a1! }), before),
        alertsByKind: [{ kind: 'withdrawal_failed', count: 1_000_000 }],
        runway: manyRunways(300),
        open: { alerts: Array.from({ length: 200 }, (_, i) => ({ ...alert, key: `k${i}` })), total: 200 },
        dailyLimit: {
          limitCents: 1n,
          use: Array.from({ length: 100 }, (_, i) => ({
            asset: `ASSET ${i} ${'Z'.repeat(60)}`,
            createdCents: 10n ** 15n,
            waitingCents: 0n,
          })),
        },
      }),
    );
    expectWithinSlackLimits(message);
    const text = messageToText(message);
    expect(text).toContain('smaller assets; the total includes them');
    expect(text).toContain('190 more: `/treasury alerts open` lists them all');
    // Full of assets and alerts, the digest has no room left for runway lines: it says where they are.
    expect(text).toMatch(/…and \d+ more: `\/treasury runway` lists every one\./);
  });
});
