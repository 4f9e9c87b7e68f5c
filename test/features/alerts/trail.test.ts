// The alert trail's entries, found by comparing the owned alerts before and after a change: a new alert is
// `posted` with what it is about in plain words; each decision queued in its thread is one entry; reminders,
// reposts and other thread lines are not decisions and leave nothing.
import { describe, expect, it } from 'vitest';
import { openAlertLife } from '../../../src/features/alerts/lifecycle.js';
import { appendEvent } from '../../../src/features/alerts/owned.js';
import type { AlertSubject, OwnedAlert } from '../../../src/features/alerts/records.js';
import { alertTrailEntries, describeSubject, trailMarks } from '../../../src/features/alerts/trail.js';
import { failedWithdrawalFacts } from '../../support/fixtures.js';

const AT = new Date('2026-11-24T09:00:00.000Z');
const iso = (minutes: number) => new Date(AT.getTime() + minutes * 60_000).toISOString();

function owned(key: string, subject: AlertSubject): OwnedAlert {
  return {
    key,
    kind: 'withdrawal_failed',
    objects: [],
    channel: 'C0ALERTS',
    ts: '1700000000.000100',
    postedAt: AT.toISOString(),
    subject,
    life: openAlertLife(AT),
    shown: 0,
    thread: [],
    nextSeq: 1,
  };
}

describe('alertTrailEntries', () => {
  it('records a new alert as posted, then only the decisions queued since', () => {
    const alert = owned('withdrawal:1', { type: 'failure', facts: failedWithdrawalFacts(1, AT) });
    const state = { owned: { [alert.key]: alert } };
    expect(alertTrailEntries(new Map(), state).map((entry) => entry.event)).toEqual(['posted']);

    const before = trailMarks(state);
    appendEvent(alert, { type: 'reminder_unacknowledged', at: iso(30), number: 1, openedAt: iso(0), mentions: [] });
    appendEvent(alert, { type: 'acknowledged', by: 'U0AVERY', at: iso(31) });
    appendEvent(alert, { type: 'update', at: iso(32), text: 'the same address failed again' });
    appendEvent(alert, { type: 'reposted', at: iso(33) });
    appendEvent(alert, { type: 'resolved_by_facts', at: iso(34), reason: 'the withdrawal succeeded' });
    expect(alertTrailEntries(before, state).map((entry) => [entry.event, entry.at, entry.by, entry.reason])).toEqual([
      ['acknowledged', iso(31), 'U0AVERY', undefined],
      ['resolved_by_facts', iso(34), undefined, 'the withdrawal succeeded'],
    ]);
    // Nothing changed: nothing recorded (the lines still waiting for Slack were recorded when they were queued).
    expect(alertTrailEntries(trailMarks(state), state)).toEqual([]);
  });
});

describe('describeSubject', () => {
  it.each<[string, AlertSubject, Record<string, string | undefined>]>([
    [
      'a gas top-up short of donor balance: what could not be charged',
      {
        type: 'failure',
        facts: {
          kind: 'gas',
          id: 'g1',
          status: 'failed',
          subStatus: 'not_enough_donor_balance',
          createdAt: iso(0),
          network: { title: 'BNB Chain', symbol: 'BSC' },
          targetAddress: '0xabc',
          txHash: null,
          charged: { amountFormatted: '0.75', currency: 'USDT', amountInUsd: '0.75' },
          topUp: null,
          pipelineId: 'p',
        },
      },
      {
        about: `gas top-up g1 failed (not_enough_donor_balance) for 0xabc on BSC, created ${iso(0)}`,
        asset: 'USDT@BSC',
        amount: '0.75',
        usd: '0.75',
      },
    ],
    [
      'a balance below a USD threshold',
      {
        type: 'balance',
        facts: {
          kind: 'balance_low',
          assetId: 'a1',
          symbol: 'USDT',
          network: 'BSC',
          decimals: 6,
          measure: 'usd',
          below: '500000',
          balance: '4000000000',
          balanceInUsd: '4000.00',
          createdAt: iso(0),
        },
      },
      {
        about: 'balance below its threshold of $5000.00',
        asset: 'USDT@BSC',
        amount: '4000',
        amountUnits: '4000000000',
        usd: '4000.00',
      },
    ],
    [
      'a runway below RUNWAY_ALERT_DAYS',
      {
        type: 'runway',
        facts: {
          kind: 'runway_low',
          assetId: 'a1',
          symbol: 'USDT',
          network: 'ETH',
          decimals: 6,
          belowDays: '3',
          recoversAtDays: '3.3',
          days: '2.4',
          outflow: '$1,000.00/day',
          balance: '2400000000',
          balanceInUsd: '2400.00',
          createdAt: iso(0),
        },
      },
      {
        about: 'runway of about 2.4 days at $1,000.00/day, below RUNWAY_ALERT_DAYS of 3',
        asset: 'USDT@ETH',
        amount: '2400',
        amountUnits: '2400000000',
        usd: '2400.00',
      },
    ],
    [
      'a summary',
      { type: 'summary', kind: 'task', total: 42, listed: [] },
      { about: '42 task alerts in one summary message' },
    ],
    [
      'a stuck row',
      {
        type: 'stuck',
        facts: {
          kind: 'stuck',
          source: 'withdrawal',
          id: 'w9',
          createdAt: iso(0),
          afterMs: 7_200_000,
          seenAt: iso(120),
        },
      },
      { about: `withdrawal w9 pending for over 120 minutes (created ${iso(0)})` },
    ],
    [
      'the payment API unreadable',
      {
        type: 'watcher',
        facts: {
          kind: 'api_down',
          since: iso(0),
          problems: [{ source: 'withdrawals', code: 'network', message: 'timeout', polls: 3 }],
        },
      },
      { about: `the payment API could not be read since ${iso(0)}: withdrawals network` },
    ],
  ])('%s', (_name, subject, expected) => {
    expect(describeSubject(subject)).toEqual(expected);
  });
});
