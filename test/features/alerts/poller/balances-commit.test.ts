// The thresholds' part of the poll's commit, as a pure function: a low-balance alert dropped before Slack had it
// (the balance recovered first) hands the failures told into it back to the outbox, each on its own.
import { describe, expect, it } from 'vitest';
import type { FailureFacts } from '../../../../src/features/alerts/kinds/index.js';
import { commitBalances, lowBalanceKey } from '../../../../src/features/alerts/poller/balances.js';
import { emptyAlertsState, type OutboxItem } from '../../../../src/features/alerts/records.js';

const AT = new Date('2026-11-25T09:00:00.000Z');
const THRESHOLD = {
  assetId: 'a1',
  measure: 'units' as const,
  below: '5000',
  symbol: 'USDT',
  network: 'BSC',
  decimals: 0,
  setBy: 'U0AVERY',
  setAt: AT.toISOString(),
};
const gas: FailureFacts = {
  kind: 'gas',
  id: 'g1',
  status: 'failed',
  subStatus: 'not_enough_donor_balance',
  createdAt: AT.toISOString(),
  network: { title: 'BNB Smart Chain', symbol: 'BSC' },
  targetAddress: '0xabc',
  txHash: null,
  charged: null,
  topUp: null,
  pipelineId: 'p1',
};

/** USDT@BSC at 10 went below 5,000 at AT. */
const lowFacts: OutboxItem['facts'] = {
  kind: 'balance_low',
  assetId: 'a1',
  symbol: 'USDT',
  network: 'BSC',
  decimals: 0,
  measure: 'units',
  below: '5000',
  balance: '10',
  balanceInUsd: null,
  createdAt: AT.toISOString(),
};

describe('commitBalances', () => {
  it('a queued low-balance alert that no longer stands is dropped, and the failures told into it are queued on their own', () => {
    const alerts = emptyAlertsState();
    const key = lowBalanceKey('a1', AT.toISOString());
    alerts.balancesLow = { a1: { since: AT.toISOString(), alertKey: key, measure: 'units', below: '5000' } };
    const item: OutboxItem = {
      key,
      queuedAt: AT.toISOString(),
      facts: lowFacts,
      told: [{ key: 'gas:g1', facts: gas, event: { type: 'update', at: AT.toISOString(), text: 'short again' } }],
    };
    alerts.outbox.push(item);
    const queued: OutboxItem[] = [];
    const crossings = commitBalances(
      alerts,
      {
        thresholds: [THRESHOLD],
        assets: {
          ok: true,
          byId: new Map([['a1', { symbol: 'USDT', network: 'BSC', decimals: 0, balance: '5500', balanceInUsd: null }]]),
        },
      },
      AT,
      (next) => {
        alerts.outbox.push(next);
        queued.push(next);
      },
    );
    expect(crossings).toBe(0);
    expect(alerts.balancesLow).toBeUndefined();
    expect(alerts.outbox.map((entry) => entry.key)).toEqual(['gas:g1']);
    expect(queued[0]?.facts).toEqual(gas);
  });

  it('while sending, the queued alert stays (it may be in Slack already)', () => {
    const alerts = emptyAlertsState();
    const key = lowBalanceKey('a1', AT.toISOString());
    alerts.outbox.push({
      key,
      queuedAt: AT.toISOString(),
      sending: { key, since: AT.toISOString() },
      facts: lowFacts,
    });
    commitBalances(alerts, { thresholds: [THRESHOLD] }, AT, () => {});
    expect(alerts.outbox.map((entry) => entry.key)).toEqual([key]);
  });
});
