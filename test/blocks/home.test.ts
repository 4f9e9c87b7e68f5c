/**
 * The Home tab builder: within a Home tab's limits whatever the lists hold (200 alerts, 200 quotes, 300 assets:
 * at most 100 blocks, every list capped with "and N more"), each asset's threshold marked, the balances missing
 * when the payment API failed while the rest still shows, Acknowledge only on alerts nobody has, and nothing but
 * an explanation for someone outside the treasury team.
 */

import { describe, expect, it } from 'vitest';
import { openAlertLife } from '../../src/features/alerts/lifecycle.js';
import type { AlertView } from '../../src/features/alerts/owned.js';
import { buildHome, buildOutsiderHome, HOME_LISTED, type HomeFacts } from '../../src/features/home/blocks.js';
import { snapshotPolicy } from '../../src/features/swaps/policy.js';
import { newSwapQuote, type SwapQuote } from '../../src/features/swaps/quote.js';
import type { StoredThreshold } from '../../src/features/thresholds/rules.js';
import type { Asset } from '../../src/payments/index.js';
import { manyRunways } from '../support/fixtures.js';
import { blocksTextLength, validateHomeView } from '../support/rig/block-kit-validation.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';

const NOW = new Date('2026-11-24T09:00:00.000Z');
const AVERY = 'U0AVERY';
const RILEY = 'U0RILEY';

function asset(i: number, balance: string, usd: string, symbol = `TOK${i}`): Asset {
  return {
    id: `asset-${i}`,
    wallet: `0x${'b'.repeat(40)}`,
    feePercent: '0.5',
    feeUsd: '0.10',
    balance,
    balanceInUsd: usd,
    balanceForWithdrawal: null,
    balanceUnits: 'base_units',
    crypto: { id: `c${i}`, title: symbol, symbol, contractAddress: null, decimals: 6, logoURI: null },
    network: { id: 'n1', title: 'Ethereum', symbol: 'ETH', chainId: '1', networkType: 'evm' },
    createdAt: NOW,
  } as Asset;
}

function threshold(assetId: string, measure: 'units' | 'usd', below: string, symbol = 'USDT'): StoredThreshold {
  return { assetId, measure, below, symbol, network: 'ETH', decimals: 6, setBy: AVERY, setAt: NOW.toISOString() };
}

function alert(i: number, state: 'open' | 'acknowledged' = 'open'): { view: AlertView; postedAt: string } {
  const life = openAlertLife(new Date(NOW.getTime() - (i + 1) * 60_000));
  return {
    view: {
      key: `withdrawal:w-${i}`,
      kind: 'withdrawal_failed',
      subject: {
        type: 'failure',
        facts: {
          kind: 'withdrawal',
          id: `w-${i}`,
          status: 'failed',
          createdAt: life.openedAt,
          symbol: 'USDT',
          decimals: 6,
          network: { title: 'Ethereum', symbol: 'ETH' },
          amount: '1000000',
          amountInUsd: '1.00',
          address: '0xabc',
          txHash: null,
        },
      },
      life:
        state === 'open'
          ? life
          : { ...life, state: 'acknowledged', version: 1, acknowledgedBy: RILEY, acknowledgedAt: life.openedAt },
    },
    postedAt: life.openedAt,
  };
}

const snapshot = snapshotPolicy(
  { tiers: [{ minCents: 0n, approvals: 1 }], approvers: [AVERY], allowSelfApproval: false },
  { cents: 100_000n },
  NOW,
);

function quote(i: number, requestedBy = RILEY): SwapQuote {
  const made = newSwapQuote({
    id: `q-${i}`,
    estimateId: `e-${i}`,
    estimatedAt: new Date(NOW.getTime() - i * 1_000),
    requestedBy,
    channelId: 'C0TREASURY',
    from: { assetId: 'a1', symbol: 'USDT', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
    to: { assetId: 'a2', symbol: 'USDC', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
    amountFrom: 1_000_000_000n,
    estimatedAmount: '999000000',
    routeType: 'swap',
    serviceId: 's',
    valueUsd: { cents: '100000' },
    policy: snapshot,
  } as Parameters<typeof newSwapQuote>[0]);
  return { ...made, messageTs: `1700000000.${String(i).padStart(6, '0')}` };
}

function facts(overrides: Partial<HomeFacts> = {}): HomeFacts {
  return {
    userId: AVERY,
    now: NOW,
    assets: [asset(1, '4000000000', '4000.00', 'USDT'), asset(2, '2000000', '6000.00', 'ETH')],
    thresholds: [threshold('asset-1', 'usd', '500000'), threshold('asset-2', 'units', '1000000', 'ETH')],
    alerts: { shown: [alert(0)], total: 1 },
    waiting: {
      shown: [{ quote: quote(1), snapshot, permalink: 'https://acme.slack.com/archives/C0TREASURY/p1' }],
      total: 1,
    },
    requests: [{ quote: quote(2, AVERY) }],
    ...overrides,
  };
}

function expectValidHome(view: ReturnType<typeof buildHome>): void {
  expect(view.type).toBe('home');
  expect(view.blocks.length).toBeLessThanOrEqual(100);
  expect(validateHomeView(view)).toEqual([]);
  // views.publish refuses more than 250 kB of view.
  expect(Buffer.byteLength(JSON.stringify(view))).toBeLessThan(250 * 1024);
}

describe('the Home tab of a treasury user', () => {
  it('shows the total, each asset with its threshold marked, open alerts with Acknowledge, the quote waiting with its link, own requests, Refresh', () => {
    const view = buildHome(facts());
    expectValidHome(view);
    const text = blocksToText(view.blocks);
    expect(text).toContain('Balances · $10,000.00');
    // $4,000 is below a $5,000 threshold; 2 ETH is above a 1 ETH threshold.
    expect(text).toMatch(
      /\*USDT\* · Ethereum \(ETH\) — 4,000 USDT · \$4,000\.00 · :warning: \*below threshold \$5,000\*/,
    );
    expect(text).toMatch(/\*ETH\* · Ethereum \(ETH\) — 2 ETH · \$6,000\.00 · threshold 1 ETH/);
    expect(text).toContain('1 below its threshold');
    expect(text).toContain('Open alerts · 1');
    expect(text).toContain('Waiting for your approval · 1');
    expect(text).toContain('<https://acme.slack.com/archives/C0TREASURY/p1|Open the quote to approve or reject>');
    expect(text).toContain('Your recent requests');
    expect(text).toMatch(/• \*1,000 USDT → USDC\* · ≈ \$1,000 · 2 seconds ago · \*waiting for approval\*$/m);
    const buttons = findButtons(view.blocks);
    expect(buttons.map((b) => [b.actionId, b.blockId])).toEqual([
      ['home_new_swap', 'home_forms'],
      ['home_new_invoice', 'home_forms'],
      ['home_set_threshold', 'home_forms'],
      ['home_refresh', 'home_refresh'],
      ['alert_acknowledge', 'alert:0:withdrawal:w-0'],
    ]);
  });

  it('offers Acknowledge only on alerts nobody has, and says who has the others', () => {
    const view = buildHome(facts({ alerts: { shown: [alert(0, 'acknowledged'), alert(1)], total: 2 } }));
    expectValidHome(view);
    expect(
      findButtons(view.blocks)
        .filter((b) => b.actionId === 'alert_acknowledge')
        .map((b) => b.blockId),
    ).toEqual(['alert:0:withdrawal:w-1']);
    expect(blocksToText(view.blocks)).toContain('acknowledged by <@U0RILEY>');
  });

  it('stays within 100 blocks with 200 alerts, 200 waiting quotes, 300 assets and 200 requests, saying how many more', () => {
    const alerts = Array.from({ length: 200 }, (_, i) => alert(i));
    const quotes = Array.from({ length: 200 }, (_, i) => ({ quote: quote(i), snapshot }));
    const assets = Array.from({ length: 300 }, (_, i) => asset(i, `${i}000000`, `${i}.50`));
    const view = buildHome(
      facts({
        assets,
        thresholds: assets.slice(0, 100).map((a) => threshold(a.id, 'usd', '100000')),
        alerts: { shown: alerts, total: 200 },
        waiting: { shown: quotes, total: 200 },
        requests: Array.from({ length: 200 }, (_, i) => ({ quote: quote(i, AVERY) })),
        notice: 'x'.repeat(5_000),
        runway: manyRunways(300),
      }),
    );
    expectValidHome(view);
    const text = blocksToText(view.blocks);
    expect(text).toContain(`…and ${200 - HOME_LISTED.alerts} more.`);
    expect(text).toContain(`…and ${200 - HOME_LISTED.waiting} more.`);
    expect(text).toContain(`…and ${300 - HOME_LISTED.assets} more; the total includes them`);
    expect(findButtons(view.blocks).filter((b) => b.actionId === 'alert_acknowledge')).toHaveLength(HOME_LISTED.alerts);
    expect(text.match(/waiting for approval/g)?.length).toBe(HOME_LISTED.requests);
    expect(text).toContain('…and 290 more: `/treasury runway` lists every one.');
    expect(blocksTextLength(view.blocks)).toBeLessThan(100_000);
  });

  it('shows the rest when the balances could not be read, with the thresholds set', () => {
    const view = buildHome(facts({ assets: undefined }));
    expectValidHome(view);
    const text = blocksToText(view.blocks);
    expect(text).toContain('The balances could not be read from the payment service just now');
    expect(text).toContain('*USDT@ETH*: threshold $5,000');
    expect(text).toContain('Open alerts · 1');
    expect(text).toContain('Waiting for your approval · 1');
  });

  it('says plainly when there is nothing to do, and shows a notice on top', () => {
    const view = buildHome(
      facts({
        alerts: { shown: [], total: 0 },
        waiting: { shown: [], total: 0 },
        requests: [],
        notice: 'Nothing changed: <@U0RILEY> acknowledged this alert.',
      }),
    );
    expectValidHome(view);
    const text = blocksToText(view.blocks);
    expect(text.indexOf('Nothing changed')).toBeLessThan(text.indexOf('Balances'));
    expect(text).toContain('No open alerts.');
    expect(text).toContain('No swap quote is waiting for your approval.');
    expect(text).toContain('You have not asked for a swap lately.');
  });

  it('escapes what came from the API', () => {
    const view = buildHome(facts({ assets: [asset(1, '1', '1.00', '<!channel>')], thresholds: [] }));
    expect(blocksToText(view.blocks)).toContain('&lt;!channel&gt;');
    expect(blocksToText(view.blocks)).not.toContain('<!channel>');
  });
});

describe('the Home tab of someone outside the treasury team', () => {
  it('explains, shows no data and no buttons', () => {
    const view = buildOutsiderHome();
    expectValidHome(view);
    const text = blocksToText(view.blocks);
    expect(text).toContain('This bot is for the treasury team');
    expect(text).toContain('TREASURY_USERS');
    expect(text).not.toMatch(/\$|Balances|alert_acknowledge/);
    expect(findButtons(view.blocks)).toEqual([]);
  });
});
