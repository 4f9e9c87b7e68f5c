// The runways' part of the poll's commit, as a pure function: one alert per crossing, no flapping inside the margin,
// recovery by the facts, nothing judged while learning, and a changed or unset RUNWAY_ALERT_DAYS ending the alert.
import { describe, expect, it } from 'vitest';
import { newOwnedAlert } from '../../../../src/features/alerts/owned.js';
import {
  commitRunways,
  type RunwayJudgement,
  type RunwaysRead,
} from '../../../../src/features/alerts/poller/runways.js';
import { emptyAlertsState, keyedRecord, type OutboxItem } from '../../../../src/features/alerts/records.js';

const T0 = new Date('2026-11-25T09:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

function judged(verdict: RunwayJudgement['verdict'], days?: string, levelText = '3'): RunwaysRead {
  const judgement: RunwayJudgement = {
    assetId: 'a1',
    symbol: 'USDT',
    network: 'ETH',
    decimals: 6,
    balance: '2000000000',
    balanceInUsd: '2000.00',
    verdict,
    ...(days ? { days, outflow: '$1,000.00/day' } : {}),
  };
  return { levelText, recoversAtText: '3.3', judged: { ok: true, byId: new Map([['a1', judgement]]) } };
}

/** Runs one commit; returns what it queued. */
function commit(alerts: ReturnType<typeof emptyAlertsState>, read: RunwaysRead | undefined, now: Date) {
  const queued: OutboxItem[] = [];
  const crossings = commitRunways(alerts, read, now, (item) => {
    alerts.outbox.push(item);
    queued.push(item);
  });
  return { crossings, queued };
}

/** Slack accepted the queued alert: it becomes one people own, as the delivery does. */
function deliver(alerts: ReturnType<typeof emptyAlertsState>, now: Date) {
  const [item] = alerts.outbox.splice(0, 1);
  alerts.owned ??= keyedRecord();
  alerts.owned[item!.key] = newOwnedAlert({ key: item!.key, items: [item!], channel: 'C0ALERTS', ts: '1.1', at: now });
  return alerts.owned[item!.key]!;
}

describe('commitRunways', () => {
  it('a runway below 3 days raises one alert, none more while it stays low or hovers inside the margin', () => {
    const alerts = emptyAlertsState();
    const first = commit(alerts, judged('below', '2.4'), at(0));
    expect(first.crossings).toBe(1);
    expect(first.queued[0]).toMatchObject({
      key: `runway_low:a1:${at(0).toISOString()}`,
      facts: { kind: 'runway_low', assetId: 'a1', belowDays: '3', recoversAtDays: '3.3', days: '2.4' },
    });
    expect(alerts.runwaysLow).toEqual({
      a1: { since: at(0).toISOString(), alertKey: first.queued[0]!.key, belowDays: '3' },
    });
    expect(commit(alerts, judged('below', '2.1'), at(1)).crossings).toBe(0);
    expect(commit(alerts, judged('between', '3.1'), at(2)).crossings).toBe(0);
    expect(commit(alerts, judged('unjudged'), at(3)).crossings).toBe(0);
    expect(alerts.outbox).toHaveLength(1);
    expect(Object.keys(alerts.runwaysLow ?? {})).toEqual(['a1']);
  });

  it('resolves by the facts at the recovery level; below again is a new alert', () => {
    const alerts = emptyAlertsState();
    commit(alerts, judged('below', '2.4'), at(0));
    const alert = deliver(alerts, at(0));
    commit(alerts, judged('recovered', '3.5'), at(10));
    expect(alerts.runwaysLow).toBeUndefined();
    expect(alert.life.state).toBe('resolved');
    expect(alert.life.resolution).toMatchObject({ by: 'facts' });
    expect(alert.subject).toMatchObject({ type: 'runway', recovered: { at: at(10).toISOString(), days: '3.5' } });
    const again = commit(alerts, judged('below', '2.9'), at(20));
    expect(again.crossings).toBe(1);
    expect(again.queued[0]!.key).toBe(`runway_low:a1:${at(20).toISOString()}`);
  });

  it('not spending any more recovers too', () => {
    const alerts = emptyAlertsState();
    commit(alerts, judged('below', '2.4'), at(0));
    const alert = deliver(alerts, at(0));
    commit(alerts, judged('recovered'), at(5));
    expect(alert.life.state).toBe('resolved');
    expect(JSON.stringify(alert.thread)).toContain('nothing leaves the asset any more');
  });

  it('a failed read judges nothing: the asset stays low', () => {
    const alerts = emptyAlertsState();
    commit(alerts, judged('below', '2.4'), at(0));
    const failed: RunwaysRead = {
      levelText: '3',
      recoversAtText: '3.3',
      judged: { ok: false, code: 'server', message: 'x' },
    };
    expect(commit(alerts, failed, at(1)).crossings).toBe(0);
    expect(Object.keys(alerts.runwaysLow ?? {})).toEqual(['a1']);
  });

  it('a changed RUNWAY_ALERT_DAYS ends the alert raised at the old level and judges afresh', () => {
    const alerts = emptyAlertsState();
    commit(alerts, judged('below', '2.4'), at(0));
    const alert = deliver(alerts, at(0));
    const next = commit(alerts, judged('below', '2.4', '5'), at(5));
    expect(alert.life.state).toBe('resolved');
    expect(alert.subject).toMatchObject({ endedBecause: expect.stringContaining('changed to 5 days') });
    expect(next.crossings).toBe(1);
    expect(alerts.runwaysLow?.a1?.belowDays).toBe('5');
  });

  it('RUNWAY_ALERT_DAYS unset: what it left open ends, and a queued alert is dropped', () => {
    const alerts = emptyAlertsState();
    commit(alerts, judged('below', '2.4'), at(0));
    const alert = deliver(alerts, at(0));
    commit(alerts, undefined, at(5));
    expect(alert.life.state).toBe('resolved');
    expect(alerts.runwaysLow).toBeUndefined();

    const queuedOnly = emptyAlertsState();
    commit(queuedOnly, judged('below', '2.4'), at(0));
    commit(queuedOnly, undefined, at(5));
    expect(queuedOnly.outbox).toEqual([]);
  });

  it('with nothing low and the alert off, the state is untouched', () => {
    const alerts = emptyAlertsState();
    const before = JSON.stringify(alerts);
    expect(commit(alerts, undefined, at(0)).crossings).toBe(0);
    expect(JSON.stringify(alerts)).toBe(before);
  });
});
