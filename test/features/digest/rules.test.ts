// What the daily digest counts: alerts of the last 24 hours by kind (a summary counts what it covers), the open
// alerts oldest first, and what happened to swap quotes, at the window's edges.
import { describe, expect, it } from 'vitest';
import type { AlertFacts } from '../../../src/features/alerts/kinds/index.js';
import { newOwnedAlert } from '../../../src/features/alerts/owned.js';
import type { OutboxItem } from '../../../src/features/alerts/records.js';
import { alertsByKind, countQuotes, openAlerts } from '../../../src/features/digest/rules.js';
import { SwapQuote } from '../../../src/features/swaps/quote.js';
import { failedWithdrawalFacts, swapQuoteRecord } from '../../support/fixtures.js';

const NOW = new Date('2026-11-24T09:00:00.000Z');
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(NOW.getTime() - hours * HOUR);

const item = (facts: AlertFacts, key: string): OutboxItem => ({ key, queuedAt: NOW.toISOString(), facts });
const stuck = (id: string): AlertFacts => ({
  kind: 'stuck',
  source: 'withdrawal',
  id,
  createdAt: ago(30).toISOString(),
  afterMs: 2 * HOUR,
  seenAt: NOW.toISOString(),
});

function alertPosted(hoursAgo: number, items: OutboxItem[], key = items[0]!.key) {
  return newOwnedAlert({ key, items, channel: 'C1', ts: `${hoursAgo}.1`, at: ago(hoursAgo) });
}

describe('alerts of the last 24 hours, by kind', () => {
  it('counts each alert once, a summary by every failure it covers, and leaves out what is older than 24 h', () => {
    const owned = [
      alertPosted(1, [item(failedWithdrawalFacts(1, NOW), 'withdrawal:1')]),
      alertPosted(
        2,
        Array.from({ length: 12 }, (_, i) => item(failedWithdrawalFacts(10 + i, NOW), `withdrawal:${10 + i}`)),
        'summary:withdrawal:u1',
      ),
      alertPosted(3, [item(stuck('w9'), 'stuck:withdrawal:w9')]),
      alertPosted(24, [item(failedWithdrawalFacts(2, NOW), 'withdrawal:2')]), // exactly 24 h: out
      alertPosted(23.99, [item(failedWithdrawalFacts(3, NOW), 'withdrawal:3')]), // just in
      alertPosted(30, [item(failedWithdrawalFacts(4, NOW), 'withdrawal:4')]),
    ];
    expect(alertsByKind(owned, NOW)).toEqual([
      { kind: 'withdrawal_failed', count: 14 },
      { kind: 'stuck', count: 1 },
    ]);
  });

  it('is empty when nothing happened', () => {
    expect(alertsByKind([], NOW)).toEqual([]);
  });
});

describe('open alerts', () => {
  it('keeps the ones not resolved, oldest first', () => {
    const a = alertPosted(5, [item(failedWithdrawalFacts(1, NOW), 'withdrawal:1')]);
    const b = alertPosted(50, [item(failedWithdrawalFacts(2, NOW), 'withdrawal:2')]);
    const c = alertPosted(2, [item(failedWithdrawalFacts(3, NOW), 'withdrawal:3')]);
    c.life.state = 'resolved';
    const d = alertPosted(1, [item(failedWithdrawalFacts(4, NOW), 'withdrawal:4')]);
    d.life = { ...d.life, state: 'acknowledged', acknowledgedBy: 'U0AVERY' };
    expect(openAlerts([a, b, c, d]).map((alert) => alert.key)).toEqual([
      'withdrawal:2',
      'withdrawal:1',
      'withdrawal:4',
    ]);
  });
});

describe('swap quotes in the last 24 hours', () => {
  let n = 0;
  const quote = (estimatedHoursAgo: number, fields: Partial<SwapQuote>): SwapQuote => {
    const estimatedAt = ago(estimatedHoursAgo);
    return {
      ...SwapQuote.parse(
        swapQuoteRecord(`q${++n}`, {
          estimatedAt: estimatedAt.toISOString(),
          expiresAt: new Date(estimatedAt.getTime() + 30 * 60_000).toISOString(),
        }),
      ),
      ...fields,
    };
  };

  it('counts waiting, approved, rejected, expired and finished swaps by when each happened', () => {
    const quotes = [
      quote(0.1, { status: 'pending' }), // waiting now
      quote(2, { status: 'pending' }), // lapsed, not yet swept: expired
      quote(3, { status: 'expired' }), // expired 2.5 h ago
      quote(30, { status: 'expired' }), // expired long ago: out
      quote(0.1, { status: 'expired', failure: 'could not post' }), // never posted: expired at once
      quote(4, {
        status: 'created',
        decidedAt: ago(3.9).toISOString(),
        swapStatus: 'finished',
        followEndedAt: ago(3.8).toISOString(),
      }),
      quote(5, { status: 'created', decidedAt: ago(4.9).toISOString(), swapStatus: 'pending' }),
      quote(6, { status: 'outcome_unknown', decidedAt: ago(5.9).toISOString() }),
      quote(24.2, {
        status: 'created',
        decidedAt: ago(24).toISOString(),
        swapStatus: 'finished',
        followEndedAt: ago(23.9).toISOString(),
      }), // approved 24 h ago: out; finished after: in
      quote(7, { status: 'rejected', decidedAt: ago(6.9).toISOString() }),
      quote(26, { status: 'rejected', decidedAt: ago(25.9).toISOString() }),
    ];
    expect(countQuotes(quotes, NOW)).toEqual({ waiting: 1, approved: 3, rejected: 1, expired: 3, swapsFinished: 2 });
  });

  it('is all zero with no quotes', () => {
    expect(countQuotes([], NOW)).toEqual({ waiting: 0, approved: 0, rejected: 0, expired: 0, swapsFinished: 0 });
  });
});
