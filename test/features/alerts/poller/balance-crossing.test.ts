// A balance crossing across a restart, with the real poller on a real state file: Slack refusing the alert leaves
// it in the outbox; the restarted process posts it once and never raises the crossing again while the balance
// stays low.
import { afterEach, describe, expect, it } from 'vitest';
import { type PollerRig, startPollerRig } from './helpers.js';

let rig: PollerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('a balance crossing and a restart', () => {
  it('is neither repeated nor lost', async () => {
    rig = await startPollerRig({ thresholds: true });
    const r = rig;
    const [asset] = await r.payments.listAssets();
    await r.store.balances.setThreshold(
      {
        assetId: asset!.id,
        measure: 'units',
        below: (BigInt(asset!.balance) + 1n).toString(),
        symbol: asset!.crypto.symbol,
        network: asset!.network.symbol,
        decimals: asset!.crypto.decimals,
      },
      'U0AVERY',
      new Date(r.sim.now()),
    );
    // The crossing is committed, then Slack refuses the post: the alert waits in the outbox.
    r.slack.failNext('chat.postMessage', { error: 'ratelimited' });
    const first = await r.poll();
    expect(first.balances).toMatchObject({ thresholds: 1, ok: true, crossings: 1 });
    expect(r.messages()).toHaveLength(0);
    expect((await r.store.alerts.readAlerts()).outbox.map((item) => item.facts.kind)).toEqual(['balance_low']);

    await r.restart();
    const second = await r.poll();
    expect(second.balances?.crossings).toBe(0);
    expect(r.messages()).toHaveLength(1);
    expect(r.texts()[0]).toMatch(/balance is below/);
    await r.restart();
    await r.poll();
    expect(r.messages()).toHaveLength(1);
    expect(Object.keys((await r.store.alerts.readAlerts()).balancesLow ?? {})).toEqual([asset!.id]);
  });
});
