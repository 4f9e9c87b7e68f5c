// Alerts people own, the pure rules: what an alert is about (one thread per object), its routing kind, a click's
// reference to it, when a resolved one may be forgotten, and the bound on open alerts (the oldest retired).
import { describe, expect, it } from 'vitest';
import type { AlertFacts } from '../../../src/features/alerts/kinds/index.js';
import {
  alertRef,
  findByRef,
  mayForget,
  newOwnedAlert,
  OWNED_ALERT_POLICY,
  objectsOf,
  openAlertAbout,
  routingKindOf,
  subjectOf,
} from '../../../src/features/alerts/owned.js';
import { emptyAlertsState, type OutboxItem } from '../../../src/features/alerts/records.js';
import { recordDelivered } from '../../../src/store/alert-changes.js';
import { failedWithdrawalFacts } from '../../support/fixtures.js';

const NOW = new Date('2026-11-24T10:00:00.000Z');
const DAY = 86_400_000;
const gas = (id: string, address: string): AlertFacts => ({
  kind: 'gas',
  id,
  status: 'pending',
  subStatus: 'not_enough_donor_balance',
  createdAt: NOW.toISOString(),
  network: { title: 'BNB Smart Chain', symbol: 'BSC' },
  targetAddress: address,
  txHash: null,
  charged: null,
  topUp: null,
  pipelineId: 'p1',
});
const item = (facts: AlertFacts, key = `${facts.kind}:${'id' in facts ? facts.id : 'x'}`): OutboxItem => ({
  key,
  queuedAt: NOW.toISOString(),
  facts,
});

describe('what an alert is about', () => {
  it.each([
    [failedWithdrawalFacts(1, NOW), 'withdrawal_failed', ['withdrawal:00000000-0000-4000-8000-000000000001']],
    [gas('g1', '0xabc'), 'gas_donor_balance', ['gas:g1', 'gas-address:BSC:0xabc']],
    [
      { kind: 'stuck', source: 'task', id: 't1', createdAt: NOW.toISOString(), afterMs: 1, seenAt: NOW.toISOString() },
      'stuck',
      ['task:t1'],
    ],
    [{ kind: 'api_down', since: NOW.toISOString(), problems: [] }, 'watcher', ['watcher']],
  ] as [AlertFacts, string, string[]][])('%j → %s, %j', (facts, kind, objects) => {
    expect(routingKindOf(facts)).toBe(kind);
    expect(objectsOf(facts)).toEqual(objects);
  });

  it('a summary keeps its total and the newest of its items, and knows every object in it', () => {
    const items = Array.from({ length: 30 }, (_, i) => item(failedWithdrawalFacts(i, NOW)));
    const subject = subjectOf(items);
    expect(subject).toMatchObject({ type: 'summary', kind: 'withdrawal', total: 30 });
    if (subject.type !== 'summary') throw new Error('a summary');
    expect(subject.listed).toHaveLength(OWNED_ALERT_POLICY.summaryListCap);
    expect(subject.listed[0]).toEqual(failedWithdrawalFacts(0, NOW)); // the newest first
    const alert = newOwnedAlert({ key: 'summary:withdrawal:u', items, channel: 'C1', ts: '1.1', at: NOW });
    expect(alert.objects).toHaveLength(30);
  });

  it('the open alert about an object, not a resolved one; the same gas address matches another row', () => {
    const state = emptyAlertsState();
    recordDelivered(state, [item(gas('g1', '0xabc'))], NOW, { key: 'gas:g1', channel: 'C1', ts: '1.1' });
    expect(openAlertAbout(state.owned, objectsOf(gas('g2', '0xabc')))?.key).toBe('gas:g1');
    expect(openAlertAbout(state.owned, objectsOf(gas('g3', '0xdef')))).toBeUndefined();
    state.owned!['gas:g1']!.life.state = 'resolved';
    expect(openAlertAbout(state.owned, objectsOf(gas('g2', '0xabc')))).toBeUndefined();
  });
});

describe('a click names its alert', () => {
  it('by its key, or for a very long key by a shortened reference the store matches', () => {
    const state = emptyAlertsState();
    const longId = '7'.repeat(500);
    const stuck: AlertFacts = {
      kind: 'stuck',
      source: 'withdrawal',
      id: longId,
      createdAt: NOW.toISOString(),
      afterMs: 1,
      seenAt: NOW.toISOString(),
    };
    const key = `stuck:withdrawal:${longId}`;
    recordDelivered(state, [item(stuck, key)], NOW, { key, channel: 'C1', ts: '1.1' });
    expect(findByRef(state.owned, alertRef(key))?.key).toBe(key);
    expect(findByRef(state.owned, `${alertRef(key)}0`)).toBeUndefined();
    expect(findByRef(state.owned, 'constructor')).toBeUndefined();
  });
});

describe('bounded', () => {
  it('a resolved alert is forgotten after the retention, once Slack shows its last state', () => {
    const alert = newOwnedAlert({
      key: 'withdrawal:1',
      items: [item(failedWithdrawalFacts(1, NOW))],
      channel: 'C1',
      ts: '1.1',
      at: NOW,
    });
    const resolved = {
      ...alert,
      life: { ...alert.life, state: 'resolved' as const, version: 1, resolvedAt: NOW.toISOString() },
      shown: 1,
    };
    const later = new Date(NOW.getTime() + OWNED_ALERT_POLICY.resolvedRetentionMs);
    expect(mayForget(alert, later)).toBe(false); // still open
    expect(mayForget(resolved, new Date(later.getTime() - 1))).toBe(false);
    expect(mayForget(resolved, later)).toBe(true);
    expect(mayForget({ ...resolved, shown: 0 }, later)).toBe(false); // the message still shows it open
    expect(
      mayForget({ ...resolved, thread: [{ seq: 1, event: { type: 'reposted', at: NOW.toISOString() } }] }, later),
    ).toBe(false);
  });

  it('beyond the open limit the oldest open alerts are retired, saying so, newest kept', () => {
    const state = emptyAlertsState();
    const limit = OWNED_ALERT_POLICY.maxOpen;
    for (let i = 0; i < limit + 3; i++) {
      const facts = failedWithdrawalFacts(i, NOW);
      const at = new Date(NOW.getTime() + i * 1_000);
      recordDelivered(state, [item(facts)], at, { key: `withdrawal:${i}`, channel: 'C1', ts: `${i}.1` });
    }
    const alerts = Object.values(state.owned ?? {});
    expect(alerts.filter((a) => a.life.state !== 'resolved')).toHaveLength(limit);
    const retired = alerts.filter((a) => a.life.resolution?.by === 'retired').map((a) => a.key);
    expect(retired).toEqual(['withdrawal:0', 'withdrawal:1', 'withdrawal:2']);
    expect(state.owned!['withdrawal:0']!.thread.map((line) => line.event.type)).toEqual(['update']);
    expect(mayForget(state.owned!['withdrawal:0']!, new Date(NOW.getTime() + 8 * DAY))).toBe(false); // still owes Slack
  });
});
