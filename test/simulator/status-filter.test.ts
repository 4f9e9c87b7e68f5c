// The `status` filter of the two cursor lists, as the spec (§4.5, §4.7) states it, over real HTTP: only rows of
// that status; the gas list hides cancelled rows unless `status=cancelled` is asked for; an unknown status is a
// 400; and a row that changes status moves between the lists (gas: with a later `updatedAt`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';

let sim: PaymentsSimulator;
beforeAll(async () => {
  sim = await startSimulator({ quiet: true, seed: false });
});
afterAll(async () => {
  await sim.close();
});

// biome-ignore lint/suspicious/noExplicitAny: wire JSON; each test asserts the fields it reads.
async function get(path: string): Promise<{ status: number; json: any }> {
  const response = await fetch(`${sim.url}${path}`, { headers: { apiKey: sim.apiKey } });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

const ids = (reply: { json: { data: { id: string }[] } }) => reply.json.data.map((row) => row.id).sort();

describe('status filter of the task and gas lists', () => {
  it('tasks: each status lists only its rows; an unknown status is a 400', async () => {
    const rows = {
      pending: sim.addPayoutTask({ status: 'pending' }).id,
      failed: sim.addPayoutTask({ status: 'failed', subStatus: 'payout_failed' }).id,
      success: sim.addPayoutTask({ status: 'success' }).id,
    };
    for (const status of ['pending', 'failed', 'success'] as const) {
      const reply = await get(`/2.0/mass-payout/tasks?status=${status}`);
      expect(reply.status).toBe(200);
      expect(ids(reply)).toEqual([rows[status]]);
    }
    expect(ids(await get('/2.0/mass-payout/tasks'))).toEqual(Object.values(rows).sort());
    for (const bad of ['cancelled', 'FAILED', '']) {
      const reply = await get(`/2.0/mass-payout/tasks?status=${bad}`);
      expect(reply.status).toBe(400);
      expect(reply.json.errors[0].field ?? reply.json.errors[0].property).toBe('status');
    }
  });

  it('gas: cancelled rows only with status=cancelled; an unknown status is a 400', async () => {
    const rows = {
      pending: sim.addGasDistribution({ status: 'pending', subStatus: null }).id,
      failed: sim.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' }).id,
      success: sim.addGasDistribution({ status: 'success' }).id,
      cancelled: sim.addGasDistribution({ status: 'cancelled', subStatus: 'enough_balance' }).id,
    };
    for (const status of ['pending', 'failed', 'success', 'cancelled'] as const) {
      const reply = await get(`/2.0/gas-manager/list?status=${status}`);
      expect(reply.status).toBe(200);
      expect(ids(reply)).toEqual([rows[status]]);
    }
    expect(ids(await get('/2.0/gas-manager/list'))).toEqual([rows.pending, rows.failed, rows.success].sort());
    for (const bad of ['refunded', 'Failed', ''])
      expect((await get(`/2.0/gas-manager/list?status=${bad}`)).status).toBe(400);
  });

  it('a row that turns failed leaves the pending list for the failed one, its createdAt kept (gas: updatedAt moves)', async () => {
    const task = sim.addPayoutTask({ status: 'pending', createdAt: sim.now() - 48 * 60_000 });
    const gas = sim.addGasDistribution({ status: 'pending', subStatus: null, createdAt: sim.now() - 48 * 60_000 });
    const before = (await get('/2.0/gas-manager/list?status=pending')).json.data.find(
      (row: { id: string }) => row.id === gas.id,
    );
    sim.advanceTime(2_000);
    sim.updatePayoutTask(task.id, { status: 'failed', subStatus: 'payout_failed' });
    sim.updateGasDistribution(gas.id, { status: 'failed', subStatus: 'not_enough_donor_balance' });
    const from = encodeURIComponent(new Date(sim.now() - 60 * 60_000).toISOString().replace('Z', '+00:00'));
    const failedTasks = await get(`/2.0/mass-payout/tasks?status=failed&createdAtFrom=${from}`);
    expect(ids(failedTasks)).toContain(task.id);
    expect(ids(await get(`/2.0/mass-payout/tasks?status=pending&createdAtFrom=${from}`))).not.toContain(task.id);
    const failedGas = await get(`/2.0/gas-manager/list?status=failed&createdAtFrom=${from}`);
    const after = failedGas.json.data.find((row: { id: string }) => row.id === gas.id);
    expect(after).toMatchObject({
      status: 'failed',
      subStatus: 'not_enough_donor_balance',
      createdAt: before.createdAt,
    });
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    // The wire may drop the fraction of a second.
    expect(Math.floor(Date.parse(after.updatedAt) / 1_000)).toBe(Math.floor(sim.now() / 1_000));
    expect(ids(await get(`/2.0/gas-manager/list?status=pending&createdAtFrom=${from}`))).not.toContain(gas.id);
  });
});
