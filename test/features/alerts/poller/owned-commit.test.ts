/**
 * The commit's part-13 rules without a simulator: rows stuck in pending, alerts resolved or told more by the
 * facts, one thread per object, the watcher's recovery, and resolved alerts leaving the hot state.
 */
import { describe, expect, it } from 'vitest';
import type { AlertFacts, FailureFacts } from '../../../../src/features/alerts/kinds/index.js';
import type { StuckFacts } from '../../../../src/features/alerts/kinds/stuck.js';
import { resolveAlertByFacts } from '../../../../src/features/alerts/lifecycle.js';
import { newOwnedAlert, OWNED_ALERT_POLICY } from '../../../../src/features/alerts/owned.js';
import { commitDetections, stuckKey, stuckRows } from '../../../../src/features/alerts/poller/commit.js';
import type { Detection, Found, Outcome, Settled } from '../../../../src/features/alerts/poller/detect.js';
import {
  type AlertsState,
  emptyAlertsState,
  type OwnedAlert,
  type SourceName,
} from '../../../../src/features/alerts/records.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const STUCK = { withdrawal: 2 * HOUR, task: 6 * HOUR, gas: HOUR };

/** A read of every source that saw nothing new; `reads` sets what one source saw. */
function reads(parts: Partial<Record<SourceName, Partial<Detection>>> = {}, alerts?: AlertsState) {
  const outcome = (name: SourceName): Outcome => {
    const part = parts[name] ?? {};
    return {
      ok: true,
      detection: {
        found: part.found ?? [],
        settled: part.settled ?? [],
        requests: 1,
        place: part.place ?? { lists: {}, tracking: { ...alerts?.sources[name].tracking } },
      },
    };
  };
  return { withdrawals: outcome('withdrawals'), tasks: outcome('tasks'), gas: outcome('gas') };
}

function commit(alerts: AlertsState, parts: Partial<Record<SourceName, Partial<Detection>>> = {}, now = NOW) {
  return commitDetections(alerts, reads(parts, alerts), now, DAY, { stuckAfterMs: STUCK });
}

function stuck(source: StuckFacts['source'], id: string, createdAt: string): StuckFacts {
  return { kind: 'stuck', source, id, createdAt, afterMs: STUCK[source], seenAt: at(0) };
}

/** An alert Slack accepted at `postedAt`, about what `facts` says. */
function own(alerts: AlertsState, key: string, facts: AlertFacts[], postedAt = at(-HOUR)): OwnedAlert {
  const alert = newOwnedAlert({
    key,
    items: facts.map((f) => ({ facts: f })),
    channel: 'C0ALERTS',
    ts: '1.000',
    at: new Date(postedAt),
  });
  alerts.owned = { ...alerts.owned, [key]: alert };
  return alert;
}

function withdrawalFailure(id: string, createdAt: string): FailureFacts {
  return {
    kind: 'withdrawal',
    id,
    status: 'failed',
    createdAt,
    symbol: 'USDT',
    decimals: 6,
    network: { title: 'Ethereum', symbol: 'ETH' },
    amount: '5000000',
    amountInUsd: '5.00',
    address: '0xabc',
    txHash: null,
  };
}

function gasShort(id: string, createdAt: string, targetAddress = '0xfeed', status = 'failed'): FailureFacts {
  return {
    kind: 'gas',
    id,
    status,
    subStatus: 'not_enough_donor_balance',
    createdAt,
    network: { title: 'BNB Smart Chain', symbol: 'BSC' },
    targetAddress,
    txHash: null,
    charged: null,
    topUp: null,
    pipelineId: 'p1',
  };
}

const found = (key: string, facts: FailureFacts, via: Found['via'] = 'follow'): Found => ({
  key,
  createdAt: facts.createdAt,
  baseline: false,
  facts,
  via,
});
const settled = (key: string, status: string, subStatus: string | null = null): Settled => ({ key, status, subStatus });
const events = (alert: OwnedAlert | undefined) => alert?.thread.map((line) => line.event) ?? [];

describe('rows stuck in pending', () => {
  it.each([
    ['withdrawal', 'withdrawals', 2 * HOUR],
    ['task', 'tasks', 6 * HOUR],
    ['gas', 'gas', HOUR],
  ] as const)('a %s is stuck once pending longer than its threshold, not at it', (kind, name, threshold) => {
    const alerts = emptyAlertsState();
    alerts.sources[name].tracking = { young: at(-threshold + 1), edge: at(-threshold), old: at(-threshold - 1) };
    expect(stuckRows(alerts, name, threshold, NOW).map((f) => f.id)).toEqual(['old']);
    const { queued } = commit(alerts);
    expect(queued).toBe(1);
    expect(alerts.outbox).toEqual([
      { key: `stuck:${kind}:old`, queuedAt: at(0), facts: stuck(kind, 'old', at(-threshold - 1)) },
    ]);
  });

  it('once alerted it is not queued again, and its key goes once the row is no longer followed', () => {
    const alerts = emptyAlertsState();
    alerts.sources.withdrawals.tracking = { w1: at(-3 * HOUR) };
    commit(alerts);
    expect(alerts.outbox).toHaveLength(1);
    // Slack accepted it (what recordDelivered does).
    alerts.outbox = [];
    alerts.alerted[stuckKey('withdrawal', 'w1')] = { createdAt: at(-3 * HOUR), at: at(0) };
    for (let i = 1; i <= 3; i++) expect(commit(alerts, {}, new Date(NOW.getTime() + i * HOUR)).queued).toBe(0);
    expect(alerts.alerted).toHaveProperty('stuck:withdrawal:w1');
    commit(alerts, { withdrawals: { place: { lists: {}, tracking: {} } } });
    expect(alerts.alerted).not.toHaveProperty('stuck:withdrawal:w1');
  });

  it('not while an alert about the row waits in the outbox or is open, nor a gas row short of donor balance', () => {
    const alerts = emptyAlertsState();
    alerts.sources.gas.tracking = { short: at(-2 * HOUR), queued: at(-2 * HOUR), owned: at(-2 * HOUR) };
    alerts.sources.gas.handledPending = ['short'];
    alerts.outbox = [{ key: 'gas:queued', queuedAt: at(-HOUR), facts: gasShort('queued', at(-2 * HOUR)) }];
    own(alerts, 'gas:owned', [gasShort('owned', at(-2 * HOUR), '0xbeef', 'pending')]);
    expect(commit(alerts).queued).toBe(0);
    expect(alerts.outbox.map((item) => item.key)).toEqual(['gas:queued']);
  });

  it('the first poll alerts rows already stuck (pending now, however old), and no thresholds means no stuck alerts', () => {
    const alerts = emptyAlertsState();
    alerts.sources.withdrawals.tracking = { w1: at(-5 * DAY) };
    commitDetections(alerts, reads({}, alerts), NOW, DAY);
    expect(alerts.outbox).toEqual([]);
    commit(alerts);
    expect(alerts.outbox.map((item) => item.key)).toEqual(['stuck:withdrawal:w1']);
  });

  it('a queued stuck alert whose row left pending is dropped, unless it may be in Slack already', () => {
    const alerts = emptyAlertsState();
    alerts.outbox = [
      { key: 'stuck:withdrawal:w1', queuedAt: at(-MINUTE), facts: stuck('withdrawal', 'w1', at(-3 * HOUR)) },
      {
        key: 'stuck:withdrawal:w2',
        queuedAt: at(-MINUTE),
        facts: stuck('withdrawal', 'w2', at(-3 * HOUR)),
        sending: { key: 'stuck:withdrawal:w2', since: at(-MINUTE) },
      },
    ];
    commit(alerts, { withdrawals: { place: { lists: {}, tracking: {} } } });
    expect(alerts.outbox.map((item) => item.key)).toEqual(['stuck:withdrawal:w2']);
  });
});

describe('resolved by the facts', () => {
  it('a stuck withdrawal that succeeds: resolved, with the outcome and one line in its thread', () => {
    const alerts = emptyAlertsState();
    const alert = own(alerts, 'stuck:withdrawal:w1', [stuck('withdrawal', 'w1', at(-3 * HOUR))]);
    commit(alerts, { withdrawals: { settled: [settled('withdrawal:w1', 'success')] } });
    expect(alert.life).toMatchObject({
      state: 'resolved',
      version: 1,
      resolvedAt: at(0),
      resolution: { by: 'facts', reason: 'the withdrawal succeeded' },
    });
    expect(alert.subject).toMatchObject({ type: 'stuck', outcome: { status: 'success', at: at(0) } });
    expect(events(alert)).toEqual([{ type: 'resolved_by_facts', at: at(0), reason: 'the withdrawal succeeded' }]);
  });

  it('a stuck withdrawal that fails: rewritten with the outcome, the failure in its thread, no second alert', () => {
    const alerts = emptyAlertsState();
    alerts.sources.withdrawals.tracking = { w1: at(-3 * HOUR) };
    const alert = own(alerts, 'stuck:withdrawal:w1', [stuck('withdrawal', 'w1', at(-3 * HOUR))]);
    const { queued, newFailures } = commit(alerts, {
      withdrawals: {
        found: [found('withdrawal:w1', withdrawalFailure('w1', at(-3 * HOUR)))],
        settled: [settled('withdrawal:w1', 'failed')],
        place: { lists: {}, tracking: {} },
      },
    });
    expect({ queued, newFailures: newFailures.withdrawals }).toEqual({ queued: 0, newFailures: 0 });
    expect(alerts.outbox).toEqual([]);
    expect(alerts.alerted['withdrawal:w1']).toEqual({ createdAt: at(-3 * HOUR) });
    expect(alert.life).toMatchObject({ state: 'open', version: 1 });
    expect(alert.subject).toMatchObject({ outcome: { status: 'failed', at: at(0) } });
    const [event, ...more] = events(alert);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ type: 'update', at: at(0) });
    expect(event?.type === 'update' && event.text).toMatch(/^:x: Then failed: .*`w1`/);
  });

  it('a stuck gas top-up cancelled (no failure alert for it): the outcome and a line saying how it ended', () => {
    const alerts = emptyAlertsState();
    const alert = own(alerts, 'stuck:gas:g1', [stuck('gas', 'g1', at(-2 * HOUR))]);
    commit(alerts, { gas: { settled: [settled('gas:g1', 'cancelled', 'enough_balance')] } });
    expect(alert.life).toMatchObject({ state: 'open', version: 1 });
    expect(events(alert)).toEqual([
      {
        type: 'update',
        at: at(0),
        text: 'Gas top-up `g1` is no longer pending: :heavy_minus_sign: cancelled · enough_balance.',
      },
    ]);
  });

  it('a gas top-up short of donor balance that is later sent resolves its alert; one that fails stays open', () => {
    const alerts = emptyAlertsState();
    const sent = own(alerts, 'gas:g1', [gasShort('g1', at(-2 * HOUR), '0x1', 'pending')]);
    const failed = own(alerts, 'gas:g2', [gasShort('g2', at(-2 * HOUR), '0x2', 'pending')]);
    commit(alerts, {
      gas: { settled: [settled('gas:g1', 'success', 'sent'), settled('gas:g2', 'failed', 'not_enough_donor_balance')] },
    });
    expect(sent.life).toMatchObject({
      state: 'resolved',
      resolution: { by: 'facts', reason: 'the gas top-up was sent' },
    });
    expect(failed.life).toMatchObject({ state: 'open', version: 0 });
    expect(events(failed)).toHaveLength(1);
    expect(failed.subject.type).toBe('failure');
  });

  it('a summary resolves itself only once every row it is about succeeded', () => {
    const alerts = emptyAlertsState();
    const rows = ['w1', 'w2', 'w3'].map((id) => stuck('withdrawal', id, at(-3 * HOUR)));
    const alert = own(alerts, 'summary:stuck:1', rows);
    commit(alerts, { withdrawals: { settled: [settled('withdrawal:w1', 'success')] } });
    commit(alerts, { withdrawals: { settled: [settled('withdrawal:w2', 'success')] } });
    expect(alert.life.state).toBe('open');
    expect(events(alert).map((e) => e.type)).toEqual(['update', 'update']);
    commit(alerts, { withdrawals: { settled: [settled('withdrawal:w3', 'success')] } });
    expect(alert.life).toMatchObject({
      state: 'resolved',
      resolution: { by: 'facts', reason: 'every row it lists left pending successfully' },
    });
  });

  it('a row with no open alert about it changes nothing; an alert a person resolved stays as they left it', () => {
    const alerts = emptyAlertsState();
    const alert = own(alerts, 'stuck:withdrawal:w1', [stuck('withdrawal', 'w1', at(-3 * HOUR))]);
    alert.life = {
      ...alert.life,
      state: 'resolved',
      version: 1,
      resolution: { by: 'person', userId: 'U1', note: 'ok' },
    };
    const before = structuredClone(alert);
    commit(alerts, {
      withdrawals: { settled: [settled('withdrawal:w1', 'success'), settled('withdrawal:w9', 'success')] },
    });
    expect(alert).toEqual(before);
  });
});

describe('one thread per object', () => {
  it('the same gas address short again while its alert is open: a line in its thread, no new alert', () => {
    const alerts = emptyAlertsState();
    const alert = own(alerts, 'gas:g1', [gasShort('g1', at(-2 * HOUR))]);
    const again = gasShort('g2', at(-MINUTE));
    const { queued } = commit(alerts, { gas: { found: [found('gas:g2', again, 'scan')] } });
    expect(queued).toBe(0);
    expect(alerts.outbox).toEqual([]);
    expect(alerts.alerted).toHaveProperty('gas:g2');
    expect(events(alert)).toHaveLength(1);
    expect(events(alert)[0]).toMatchObject({ type: 'update', at: at(0) });
    expect(JSON.stringify(events(alert)[0])).toContain('The same address is short of donor balance again');
    expect(alert.objects).toContain('gas:g2');
    // Another address, or the same one once the alert is resolved: a new alert.
    commit(alerts, { gas: { found: [found('gas:g3', gasShort('g3', at(-MINUTE), '0xother'), 'scan')] } });
    alert.life = resolveAlertByFacts(alert.life, NOW, 'done')!.life;
    commit(alerts, { gas: { found: [found('gas:g4', gasShort('g4', at(-MINUTE)), 'scan')] } });
    expect(alerts.outbox.map((item) => item.key)).toEqual(['gas:g3', 'gas:g4']);
  });

  it('a baseline failure is recorded as before, whatever is open', () => {
    const alerts = emptyAlertsState();
    const alert = own(alerts, 'gas:g1', [gasShort('g1', at(-2 * HOUR))]);
    commit(alerts, { gas: { found: [{ ...found('gas:g2', gasShort('g2', at(-2 * HOUR)), 'scan'), baseline: true }] } });
    expect(events(alert)).toEqual([]);
    expect(alerts.alerted['gas:g2']).toEqual({ createdAt: at(-2 * HOUR) });
    expect(alerts.outbox).toEqual([]);
  });
});

describe('the watcher', () => {
  const down = { kind: 'api_down' as const, since: at(-HOUR), problems: [] };

  it('when the API answers again, the open outage alert resolves itself instead of a second message', () => {
    const alerts = emptyAlertsState();
    alerts.apiDown = { since: down.since };
    const alert = own(alerts, `api_down:${down.since}`, [down]);
    expect(commit(alerts).queued).toBe(0);
    expect(alerts.apiDown).toBeUndefined();
    expect(alerts.outbox).toEqual([]);
    expect(alert.life).toMatchObject({ state: 'resolved', resolution: { reason: 'the payment API answers again' } });
    expect(alert.subject).toMatchObject({ type: 'watcher', recoveredAt: at(0) });
    expect(events(alert).map((e) => e.type)).toEqual(['resolved_by_facts']);
  });

  it('with no open outage alert (not posted yet, or resolved by a person), the "answers again" note as before', () => {
    for (const setup of [
      (_alerts: AlertsState) => {},
      (alerts: AlertsState) => {
        const alert = own(alerts, `api_down:${down.since}`, [down]);
        alert.life = { ...alert.life, state: 'resolved', version: 1 };
      },
    ]) {
      const alerts = emptyAlertsState();
      alerts.apiDown = { since: down.since };
      setup(alerts);
      commit(alerts);
      expect(alerts.outbox.map((item) => item.key)).toEqual([`api_recovered:${down.since}`]);
    }
  });
});

describe('resolved alerts leave the hot state', () => {
  it('after the retention, once Slack shows their last state; open ones and those Slack is behind on stay', () => {
    const alerts = emptyAlertsState();
    const retention = OWNED_ALERT_POLICY.resolvedRetentionMs;
    const resolvedAt = (alert: OwnedAlert, ms: number) => {
      alert.life = resolveAlertByFacts(alert.life, new Date(NOW.getTime() + ms), 'done')!.life;
      alert.shown = alert.life.version;
    };
    resolvedAt(own(alerts, 'gas:old', [gasShort('old', at(-9 * DAY))]), -retention);
    resolvedAt(own(alerts, 'gas:recent', [gasShort('recent', at(-9 * DAY))]), -retention + 1);
    const behind = own(alerts, 'gas:behind', [gasShort('behind', at(-9 * DAY))]);
    resolvedAt(behind, -retention);
    behind.shown = 0;
    own(alerts, 'gas:open', [gasShort('open', at(-9 * DAY))], at(-30 * DAY));
    commit(alerts);
    expect(Object.keys(alerts.owned ?? {}).sort()).toEqual(['gas:behind', 'gas:open', 'gas:recent']);
    behind.shown = behind.life.version;
    commit(alerts, {}, new Date(NOW.getTime() + 1));
    expect(Object.keys(alerts.owned ?? {}).sort()).toEqual(['gas:open']);
  });
});
