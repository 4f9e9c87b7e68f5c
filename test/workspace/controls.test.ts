// The control panel's "stuck" controls, through the workspace server as the page uses them: a withdrawal or a gas
// top-up made stuck is pending in the simulator since hours ago, and "Let it succeed" offers the pending rows (the
// ones made stuck first) and moves the one picked to success, with a transaction hash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { createControls } from '../../dev/workspace/controls.js';
import { startWorkspaceServer, type WorkspaceServer } from '../../dev/workspace/server.js';
import { createTimeline } from '../../dev/workspace/timeline.js';
import { silentLogger } from '../../src/logger.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';

const HOUR = 60 * 60_000;

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
let server: WorkspaceServer;

async function api(path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: path.startsWith('/api/controls/') ? 'POST' : 'GET',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The choices "Let it succeed" offers now, as the page receives them. */
async function succeedChoices(): Promise<Array<{ id: string; label: string }>> {
  const controls = (await api('/api/controls')).body as unknown as Array<{ id: string; choices?: [] }>;
  return controls.find((control) => control.id === 'stuck-succeeds')?.choices ?? [];
}

describe('the stuck controls', () => {
  beforeAll(async () => {
    simulator = await startSimulator({ quiet: true });
    slack = await startSlackStandIn();
    server = await startWorkspaceServer({
      port: 0,
      logger: silentLogger,
      timeline: createTimeline(),
      workspace: { users: [] },
      command: async () => {},
      action: async () => {},
      controls: createControls({ simulator, slack, alertChannel: 'C0ALERTS', shiftClock: () => {} }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await slack?.close();
    await simulator?.close();
  });

  it('makes a withdrawal pending since 3 hours ago and a gas top-up since 2 hours ago', async () => {
    const withdrawal = await api('/api/controls/withdrawal-stuck');
    expect(withdrawal.body).toMatchObject({ ok: true, message: expect.stringContaining('pending for 3 hours') });
    const gas = await api('/api/controls/gas-stuck');
    expect(gas.body).toMatchObject({ ok: true, message: expect.stringContaining('pending for 2 hours') });

    const [newest, older] = await succeedChoices();
    expect(newest?.id).toMatch(/^gas:/);
    expect(older?.id).toMatch(/^withdrawal:/);
    const withdrawalRow = simulator.getRaw('withdrawal', older!.id.slice('withdrawal:'.length));
    expect(withdrawalRow).toMatchObject({ status: 'pending', txHash: null });
    const age = simulator.now() - Date.parse(`${String(withdrawalRow?.createdAt).replace(' ', 'T')}Z`);
    expect(age).toBeGreaterThanOrEqual(3 * HOUR - 5_000);
    expect(age).toBeLessThan(3 * HOUR + 5_000);
    expect(older?.label).toMatch(/^Withdrawal [0-9a-f]{8}… · .+ on .+ · pending 3 h$/);
    expect(newest?.label).toMatch(/^Gas top-up [0-9a-f]{8}… · gas to 0x.+ · pending 2 h$/);
  });

  it('lets the withdrawal picked succeed with a transaction hash, and then no longer offers it', async () => {
    await api('/api/controls/withdrawal-stuck');
    const [picked] = await succeedChoices();
    const id = picked!.id.slice('withdrawal:'.length);
    const result = await api('/api/controls/stuck-succeeds', { choice: picked!.id });
    expect(result.body).toMatchObject({
      ok: true,
      message: expect.stringContaining(`Withdrawal ${id.slice(0, 8)}… succeeded`),
    });
    expect(simulator.getRaw('withdrawal', id)).toMatchObject({
      status: 'success',
      txHash: expect.stringMatching(/^0x[0-9a-f]+$/),
    });
    expect((await succeedChoices()).map((choice) => choice.id)).not.toContain(picked!.id);
    expect(await api('/api/controls/stuck-succeeds', { choice: picked!.id })).toEqual({
      status: 409,
      body: { ok: false, message: 'That one is no longer pending; pick another.' },
    });
  });

  it('lets a gas top-up succeed: sent, with a transaction hash', async () => {
    await api('/api/controls/gas-stuck');
    const [picked] = await succeedChoices();
    expect(picked?.id).toMatch(/^gas:/);
    expect((await api('/api/controls/stuck-succeeds', { choice: picked!.id })).body).toMatchObject({ ok: true });
    expect(simulator.getRaw('gas', picked!.id.slice('gas:'.length))).toMatchObject({
      status: 'success',
      subStatus: 'sent',
      txHash: expect.stringMatching(/^0x[0-9a-f]+$/),
    });
  });

  it('without a choice, lets the newest row made stuck succeed', async () => {
    await api('/api/controls/withdrawal-stuck');
    const [first] = await succeedChoices();
    expect((await api('/api/controls/stuck-succeeds')).body).toMatchObject({ ok: true });
    expect(simulator.getRaw('withdrawal', first!.id.slice('withdrawal:'.length))).toMatchObject({ status: 'success' });
  });

  it('drains the balance picked to 5 % and tops it up twentyfold, exactly, saying what it is now', async () => {
    const controls = (await api('/api/controls')).body as unknown as Array<{
      id: string;
      choices?: { id: string; label: string }[];
    }>;
    const choices = controls.find((control) => control.id === 'balance-drops')?.choices ?? [];
    const bsc = choices.find((choice) => choice.label.startsWith('USDT@BSC'));
    expect(bsc?.label).toMatch(/^USDT@BSC · [\d.]+ USDT$/);
    const raw = () => simulator.merchantAssets().find((asset) => asset.id === bsc!.id)!.balance;
    const before = raw();
    const drained = await api('/api/controls/balance-drops', { choice: bsc!.id });
    expect(drained.body).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^USDT@BSC dropped to 5 %: [\d.]+ USDT now/),
    });
    const drainedTo = raw();
    expect(drainedTo).toBe(before / 20n);
    expect(drainedTo).toBeGreaterThan(0n);
    expect((await api('/api/controls/balance-recovers', { choice: bsc!.id })).body).toMatchObject({ ok: true });
    expect(raw()).toBe(drainedTo * 21n);
  });

  it('marks the pending invoice picked as paid (the newest first), then no longer offers it', async () => {
    const created = await fetch(`${simulator.url}/2.0/merchant/create-invoice`, {
      method: 'POST',
      headers: { apiKey: simulator.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ usdAmountInCents: 4999, productTitle: 'Pro plan' }),
    });
    const invoice = (await created.json()) as { id: string };
    const invoiceChoices = async () =>
      (
        (await api('/api/controls')).body as unknown as Array<{ id: string; choices?: { id: string; label: string }[] }>
      ).find((control) => control.id === 'invoice-paid')?.choices ?? [];
    const [newest] = await invoiceChoices();
    expect(newest).toEqual({ id: invoice.id, label: `$49.99 · Pro plan · ${invoice.id.slice(0, 8)}…` });
    expect((await api('/api/controls/invoice-paid', { choice: invoice.id })).body).toMatchObject({
      ok: true,
      message: expect.stringContaining(`Invoice ${invoice.id.slice(0, 8)}… ($49.99) is paid.`),
    });
    const info = await fetch(`${simulator.url}/1.0/merchant/invoice-info?id=${invoice.id}`, {
      headers: { apiKey: simulator.apiKey },
    });
    expect(((await info.json()) as { status: string }).status).toBe('paid');
    expect((await invoiceChoices()).map((choice) => choice.id)).not.toContain(invoice.id);
    expect(await api('/api/controls/invoice-paid', { choice: invoice.id })).toEqual({
      status: 409,
      body: { ok: false, message: 'That invoice is no longer pending; pick another.' },
    });
  });
});
