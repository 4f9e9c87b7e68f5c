/**
 * Rows stuck in pending, against the simulator: each gets one alert, the alert follows the row (resolved when
 * it succeeds, told when it fails), later failures about the same thing go into the open alert's thread, and
 * the outage alert resolves itself. The poller's own reads only: no extra request is made for any of it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OwnedAlert } from '../../../../src/features/alerts/records.js';
import { HOUR, type PollerRig, type PollerRigOptions, startPollerRig } from './helpers.js';

const MINUTE = 60_000;
const STUCK = { withdrawal: 2 * HOUR, task: 6 * HOUR, gas: HOUR };
const SHORT = 'not_enough_donor_balance';

let rig: PollerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** An empty merchant, polled once: everything added afterwards is new. */
async function startInstalled(options: PollerRigOptions = {}): Promise<PollerRig> {
  rig = await startPollerRig({ stuckAfterMs: STUCK, ...options });
  expect((await rig.poll()).posted).toBe(0);
  return rig;
}

const owned = (r: PollerRig, key: string): OwnedAlert | undefined => r.store.read().alerts.owned?.[key];
const eventTypes = (alert: OwnedAlert | undefined) => alert?.thread.map((line) => line.event.type) ?? [];

/** Moves the clock on and polls, `times` times. */
async function pollEvery(r: PollerRig, ms: number, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    r.sim.advanceTime(ms);
    await r.poll();
  }
}

/** A withdrawal left pending until it is alerted as stuck (just past two hours): its id. */
async function stuckWithdrawal(r: PollerRig): Promise<string> {
  const w = r.sim.addWithdrawal({ status: 'pending' });
  await r.poll();
  await pollEvery(r, HOUR, 1);
  expect(r.messages()).toHaveLength(0);
  r.sim.advanceTime(HOUR + MINUTE);
  const report = await r.poll();
  expect(report).toMatchObject({ queued: 1, posted: 1, waiting: 0 });
  expect(owned(r, `stuck:withdrawal:${w.id}`)?.subject).toMatchObject({ type: 'stuck', facts: { id: w.id } });
  return w.id;
}

describe('stuck, not only failed', () => {
  it('a withdrawal pending past 2 h gets one stuck alert, not two over many polls nor after a restart', async () => {
    const r = await startInstalled();
    const id = await stuckWithdrawal(r);
    expect(r.messages()[0]!.metadata?.event_payload).toMatchObject({ key: `stuck:withdrawal:${id}` });
    await pollEvery(r, 30 * MINUTE, 3);
    await r.restart();
    await pollEvery(r, 30 * MINUTE, 3);
    expect(r.messages()).toHaveLength(1);
    const alerts = r.store.read().alerts;
    expect(alerts.outbox).toEqual([]);
    expect(alerts.alerted).toHaveProperty(`stuck:withdrawal:${id}`);
    expect(alerts.sources.withdrawals.tracking).toHaveProperty(id);
  });

  it('then succeeds: the stuck alert is resolved by the facts, with a line in its thread', async () => {
    const r = await startInstalled();
    const id = await stuckWithdrawal(r);
    r.sim.completePending('withdrawal', id);
    await pollEvery(r, HOUR + MINUTE, 1); // its age band's follow-up reads it by id
    const alert = owned(r, `stuck:withdrawal:${id}`);
    expect(alert?.life).toMatchObject({
      state: 'resolved',
      resolution: { by: 'facts', reason: 'the withdrawal succeeded' },
    });
    expect(alert?.subject).toMatchObject({ type: 'stuck', outcome: { status: 'success' } });
    expect(eventTypes(alert)).toEqual(['resolved_by_facts']);
    const alerts = r.store.read().alerts;
    expect(alerts.sources.withdrawals.tracking).not.toHaveProperty(id);
    expect(alerts.alerted).not.toHaveProperty(`stuck:withdrawal:${id}`);
    expect(r.messages()).toHaveLength(1);
  });

  it('then fails: the stuck alert gets the outcome and one line with the failure, and no second alert', async () => {
    const r = await startInstalled();
    const id = await stuckWithdrawal(r);
    r.sim.updateWithdrawal(id, { status: 'failed' });
    r.sim.advanceTime(HOUR + MINUTE);
    const report = await r.poll();
    expect(report).toMatchObject({ queued: 0, posted: 0 });
    const alert = owned(r, `stuck:withdrawal:${id}`);
    expect(alert?.life).toMatchObject({ state: 'open', version: 1 });
    expect(alert?.subject).toMatchObject({ type: 'stuck', outcome: { status: 'failed' } });
    expect(alert?.thread).toHaveLength(1);
    expect(alert?.thread[0]?.event).toMatchObject({ type: 'update' });
    expect(JSON.stringify(alert?.thread[0]?.event)).toContain(`Then failed`);
    expect(JSON.stringify(alert?.thread[0]?.event)).toContain(id);
    await pollEvery(r, 20 * MINUTE, 3);
    expect(r.messages()).toHaveLength(1);
    expect(r.store.read().alerts.outbox).toEqual([]);
    expect(owned(r, `stuck:withdrawal:${id}`)?.thread).toHaveLength(1);
  });

  it('at the first poll, rows already stuck are alerted (a task, a withdrawal, a gas top-up), not one short of donor balance', async () => {
    rig = await startPollerRig({ stuckAfterMs: STUCK });
    const r = rig;
    const now = r.sim.now();
    const w = r.sim.addWithdrawal({ status: 'pending', createdAt: now - 3 * HOUR });
    const t = r.sim.addPayoutTask({ status: 'pending', createdAt: now - 7 * HOUR });
    const g = r.sim.addGasDistribution({ status: 'pending', createdAt: now - 2 * HOUR });
    const short = r.sim.addGasDistribution({ status: 'pending', subStatus: SHORT, createdAt: now - 2 * HOUR });
    const young = r.sim.addPayoutTask({ status: 'pending', createdAt: now - 5 * HOUR });
    await r.poll();
    const keys = Object.keys(r.store.read().alerts.owned ?? {}).sort();
    expect(keys).toEqual(
      [`stuck:withdrawal:${w.id}`, `stuck:task:${t.id}`, `stuck:gas:${g.id}`, `gas:${short.id}`].sort(),
    );
    expect(r.messages()).toHaveLength(4);
    await pollEvery(r, 10 * MINUTE, 3);
    expect(r.messages()).toHaveLength(4);
    // The young task passes its 6 h later (the task pending list is read at least every 10 minutes).
    await pollEvery(r, 20 * MINUTE, 3);
    expect(owned(r, `stuck:task:${young.id}`)).toBeDefined();
    expect(r.messages()).toHaveLength(5);
  });

  it('many stuck at once: one summary, which resolves itself once every row it lists succeeded', async () => {
    rig = await startPollerRig({ stuckAfterMs: STUCK });
    const r = rig;
    const ids = Array.from(
      { length: 7 },
      (_, i) => r.sim.addWithdrawal({ status: 'pending', createdAt: r.sim.now() - 3 * HOUR - i * MINUTE }).id,
    );
    await r.poll();
    expect(r.messages()).toHaveLength(1);
    const [summary] = Object.values(r.store.read().alerts.owned ?? {});
    expect(summary?.subject).toMatchObject({ type: 'summary', kind: 'stuck', total: 7 });
    for (const id of ids) r.sim.completePending('withdrawal', id);
    for (let i = 0; i < 10 && owned(r, summary!.key)?.life.state !== 'resolved'; i++)
      await pollEvery(r, HOUR + MINUTE, 1);
    const alert = owned(r, summary!.key);
    expect(alert?.life).toMatchObject({
      state: 'resolved',
      resolution: { reason: 'every row it lists left pending successfully' },
    });
    expect(eventTypes(alert)).toEqual([...Array(6).fill('update'), 'resolved_by_facts']);
    expect(r.messages()).toHaveLength(1);
  });
});

describe('resolved by the facts, one thread per object', () => {
  it('a gas top-up short of donor balance is followed while pending, never called stuck, and resolves once sent', async () => {
    const r = await startInstalled();
    const g = r.sim.addGasDistribution({ status: 'pending', subStatus: SHORT });
    await r.poll();
    expect(r.messages()).toHaveLength(1);
    expect(r.store.read().alerts.sources.gas.tracking).toHaveProperty(g.id);
    await pollEvery(r, 10 * MINUTE, 8); // past STUCK_GAS_AFTER
    expect(r.messages()).toHaveLength(1);
    expect(r.store.read().alerts.outbox).toEqual([]);
    r.sim.completePending('gas', g.id);
    await pollEvery(r, 10 * MINUTE, 1);
    const alert = owned(r, `gas:${g.id}`);
    expect(alert?.life).toMatchObject({ state: 'resolved', resolution: { reason: 'the gas top-up was sent' } });
    expect(eventTypes(alert)).toEqual(['resolved_by_facts']);
    const gas = r.store.read().alerts.sources.gas;
    expect(gas.tracking).not.toHaveProperty(g.id);
    expect(gas.handledPending ?? []).not.toContain(g.id);
  });

  it('a second gas failure for the same address while its alert is open: no new alert, one line in its thread', async () => {
    const r = await startInstalled();
    const first = r.sim.addGasDistribution({ status: 'failed', subStatus: SHORT, networkId: r.sim.ids.networks.bsc });
    await r.poll();
    expect(r.messages()).toHaveLength(1);
    r.sim.advanceTime(MINUTE);
    const second = r.sim.addGasDistribution({
      status: 'failed',
      subStatus: SHORT,
      networkId: r.sim.ids.networks.bsc,
      targetAddress: first.targetAddress,
    });
    const report = await r.poll();
    expect(report).toMatchObject({ queued: 0, posted: 0 });
    await pollEvery(r, MINUTE, 2);
    expect(r.messages()).toHaveLength(1);
    const alert = owned(r, `gas:${first.id}`);
    expect(alert?.thread).toHaveLength(1);
    expect(alert?.thread[0]?.event).toMatchObject({ type: 'update' });
    expect(JSON.stringify(alert?.thread[0]?.event)).toContain(second.id);
    expect(r.store.read().alerts.alerted).toHaveProperty(`gas:${second.id}`);
    // Another address is another alert.
    r.sim.addGasDistribution({ status: 'failed', subStatus: SHORT, networkId: r.sim.ids.networks.bsc });
    await pollEvery(r, MINUTE, 1);
    expect(r.messages()).toHaveLength(2);
  });

  it('when the payment API answers again, the outage alert resolves itself: no second message', async () => {
    const r = await startInstalled();
    r.sim.injectFault('listWithdrawals', { status: 503 }, 3);
    await pollEvery(r, MINUTE, 3);
    expect(r.messages()).toHaveLength(1);
    const [key] = Object.keys(r.store.read().alerts.owned ?? {});
    expect(key).toMatch(/^api_down:/);
    await pollEvery(r, MINUTE, 2);
    expect(r.messages()).toHaveLength(1);
    const alert = owned(r, key!);
    expect(alert?.life).toMatchObject({ state: 'resolved', resolution: { reason: 'the payment API answers again' } });
    expect(alert?.subject).toMatchObject({ type: 'watcher', recoveredAt: expect.any(String) });
    expect(eventTypes(alert)).toEqual(['resolved_by_facts']);
    expect(r.store.read().alerts.apiDown).toBeUndefined();
  });
});
