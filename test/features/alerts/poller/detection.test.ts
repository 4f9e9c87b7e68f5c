import { afterEach, describe, expect, it } from 'vitest';
import { formatUtc } from '../../../../src/blocks/format.js';
import { DAY, HOUR, mentions, type PollerRig, type PollerRigOptions, startPollerRig } from './helpers.js';

let rig: PollerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function start(options: PollerRigOptions = {}): Promise<PollerRig> {
  rig = await startPollerRig(options);
  return rig;
}

/** Starts with an empty merchant and runs the first poll, so everything added afterwards is new. */
async function startInstalled(options: PollerRigOptions = {}): Promise<PollerRig> {
  const r = await start(options);
  const first = await r.poll();
  expect(first.posted).toBe(0);
  return r;
}

describe('each kind is alerted once, with what a person needs to act', () => {
  it('a failed withdrawal: amount in tokens and USD, asset and network, destination, created, status, id', async () => {
    const r = await startInstalled();
    const w = r.sim.addWithdrawal({ assetId: r.sim.ids.assets.usdtEth, status: 'failed', amount: '1234500000' });
    const report = await r.poll();
    expect(report.posted).toBe(1);
    const [text] = r.texts();
    expect(text).toContain('Withdrawal failed · 1,234.5 USDT');
    expect(text).toContain('1,234.5 USDT ($1,234.50)');
    expect(text).toContain('USDT on Ethereum (ETH)');
    expect(text).toContain(`\`${w.address}\``);
    expect(text).toContain(formatUtc(new Date(w.createdAt)));
    expect(text).toContain(':x: failed');
    expect(text).toContain(`\`${w.id}\``);
    expect(text).toContain('none: nothing was sent on-chain');
    expect(r.messages()[0]!.text).toContain('Withdrawal failed: 1,234.5 USDT ($1,234.50) on Ethereum (ETH)');
  });

  it('a failed payout task: amount, asset, network, targets and payout, both tx hashes, sub-status', async () => {
    const r = await startInstalled();
    const task = r.sim.addPayoutTask({
      assetId: r.sim.ids.assets.usdtBsc,
      status: 'failed',
      subStatus: 'payout_reverted',
      targetsCount: 12,
    });
    await r.poll();
    const [text] = r.texts();
    expect(text).toContain('Payout task failed · 500 USDT');
    expect(text).toContain('500 USDT ($500.00)');
    expect(text).toContain('USDT on BNB Smart Chain (BSC)');
    expect(text).toContain(':x: failed · payout_reverted');
    expect(text).toContain(`12 (multi_tx) in payout \`${task.payoutId}\``);
    expect(text).toContain(`\`${task.transferTxHash}\``);
    expect(text).toContain(`\`${task.payoutTxHash}\``);
    expect(text).toContain(`\`${task.id}\``);
  });

  it('a gas top-up short of donor balance: what could not be charged, the network, the target', async () => {
    const r = await startInstalled();
    const row = r.sim.addGasDistribution({
      networkId: r.sim.ids.networks.bsc,
      status: 'failed',
      subStatus: 'not_enough_donor_balance',
    });
    await r.poll();
    const [text] = r.texts();
    const raw = r.sim.getRaw('gas', row.id) as {
      charged: { amountFormatted: string; amountInUsd: string };
      topUp: { amountFormatted: string };
    };
    expect(text).toContain('Gas top-up short of donor balance · BNB Smart Chain');
    expect(text).toMatch(
      new RegExp(
        `\\*Could not charge\\*\\n${raw.charged.amountFormatted.replace(/0+$/, '').replace('.', '\\.')}\\S* USDT \\(\\$`,
      ),
    );
    expect(text).toContain('BNB Smart Chain (BSC)');
    expect(text).toContain(`\`${row.targetAddress}\``);
    expect(text).toContain('failed · not_enough_donor_balance');
    expect(text).toContain(`\`${row.id}\``);
    expect(text).toContain('top it up');
  });

  it('each of the three kinds is posted once, however many polls follow', async () => {
    const r = await startInstalled();
    const w = r.sim.addWithdrawal({ status: 'failed' });
    const t = r.sim.addPayoutTask({ status: 'failed' });
    const g = r.sim.addGasDistribution({ status: 'pending', subStatus: 'not_enough_donor_balance' });
    for (let i = 0; i < 10; i++) {
      await r.poll();
      r.sim.advanceTime(60_000);
    }
    // A pending gas row that matched and then becomes failed is the same top-up: still one alert.
    r.sim.updateGasDistribution(g.id, { status: 'failed' });
    await r.poll();
    expect(r.messages()).toHaveLength(3);
    for (const id of [w.id, t.id, g.id]) expect(mentions(r, id)).toBe(1);
    expect(r.store.read().alerts.outbox).toEqual([]);
  });
});

describe('failures that surface late', () => {
  it('a withdrawal first seen pending that fails after 250 newer ones pushed it to page 3', async () => {
    const r = await startInstalled();
    const pending = r.sim.addWithdrawal({ status: 'pending' });
    await r.poll();
    expect(r.store.read().alerts.sources.withdrawals.tracking).toHaveProperty(pending.id);
    r.sim.advanceTime(60_000);
    for (let i = 0; i < 250; i++) r.sim.addWithdrawal({ status: 'success' });
    r.sim.updateWithdrawal(pending.id, { status: 'failed' });
    r.sim.resetRequests();
    const report = await r.poll();
    expect(r.sim.requestCount('listWithdrawals')).toBe(3);
    expect(report.sources.withdrawals).toMatchObject({ ok: true, newFailures: 1 });
    expect(mentions(r, pending.id)).toBe(1);
    expect(r.store.read().alerts.sources.withdrawals.tracking).not.toHaveProperty(pending.id);
    // Once it is final it is no longer followed: once a newer withdrawal moved the watermark more than the
    // overlap above the 250, one page is enough again.
    r.sim.advanceTime(2 * HOUR);
    r.sim.addWithdrawal({ status: 'success' });
    await r.poll();
    r.sim.resetRequests();
    await r.poll();
    expect(r.sim.requestCount('listWithdrawals')).toBe(1);
    expect(mentions(r, pending.id)).toBe(1);
  });

  it('a payout task created days ago (before the bot was installed) that fails now', async () => {
    const r = await start();
    const task = r.sim.addPayoutTask({ status: 'pending', createdAt: r.sim.now() - 5 * DAY });
    for (let i = 0; i < 60; i++) r.sim.addPayoutTask({ status: 'failed', createdAt: r.sim.now() - 3 * DAY });
    await r.poll(); // first run: the 60 old failures are older than the lookback, so they are baseline
    expect(r.messages()).toHaveLength(0);
    r.sim.advanceTime(HOUR);
    r.sim.updatePayoutTask(task.id, { status: 'failed', subStatus: 'insufficient_gas' });
    await r.poll();
    expect(r.messages()).toHaveLength(1);
    expect(r.texts()[0]).toContain(task.id);
    expect(r.texts()[0]).toContain(formatUtc(new Date(task.createdAt)));
  });

  it('a gas row that is not first in the list but on the second cursor page', async () => {
    const r = await startInstalled();
    // The simulator orders gas rows by id: 60 ordinary rows fill page one, the matching row sorts last.
    for (let i = 0; i < 60; i++)
      r.sim.addGasDistribution({
        id: `0000${String(i).padStart(4, '0')}-0000-4000-8000-000000000000`,
        status: 'success',
      });
    const late = r.sim.addGasDistribution({
      id: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
      status: 'failed',
      subStatus: 'not_enough_donor_balance',
    });
    const firstPage = await r.payments.listGasDistributions({});
    expect(firstPage.items.map((row) => row.id)).not.toContain(late.id);
    r.sim.resetRequests();
    await r.poll();
    expect(r.sim.requestCount('listGasDistributions')).toBe(3); // two default pages + the cancelled list
    expect(r.messages()).toHaveLength(1);
    expect(mentions(r, late.id)).toBe(1);
  });

  it('cancelled gas rows are ignored unless they are short of donor balance; other failures are not this alert', async () => {
    const r = await startInstalled();
    r.sim.addGasDistribution({ status: 'cancelled', subStatus: 'enough_balance' });
    r.sim.addGasDistribution({ status: 'cancelled', subStatus: 'undefined_balance' });
    r.sim.addGasDistribution({ status: 'failed', subStatus: 'tx_reverted' });
    r.sim.addGasDistribution({ status: 'success', subStatus: 'sent' });
    const matching = r.sim.addGasDistribution({ status: 'cancelled', subStatus: 'not_enough_donor_balance' });
    await r.poll();
    expect(r.messages()).toHaveLength(1);
    expect(r.texts()[0]).toContain(matching.id);
    expect(r.texts()[0]).toContain('cancelled · not_enough_donor_balance');
  });
});

describe('the seeded merchant history', () => {
  it('first run with a 30-day lookback: every seeded gas shortfall (one on the second page, one pending) in one summary per kind', async () => {
    const r = await start({ seed: true, lookbackMs: 30 * DAY });
    await r.poll();
    const ids = r.sim.ids;
    const gasSummary = r.texts().find((text) => text.includes('gas top-ups short of donor balance'));
    expect(gasSummary).toBeDefined();
    expect(gasSummary).toContain(`${ids.gas.notEnoughDonorBalance.length} gas top-ups short of donor balance`);
    for (const id of ids.gas.notEnoughDonorBalance) expect(gasSummary).toContain(id);
    expect(gasSummary).toContain(ids.gas.notEnoughDonorOnSecondPage);
    expect(gasSummary).toContain(ids.gas.notEnoughDonorPending);
    const taskSummary = r.texts().find((text) => text.includes('payout tasks failed'))!;
    expect(taskSummary).toContain(`${ids.tasks.failed.length} payout tasks failed`);
    const withdrawalSummary = r.texts().find((text) => text.includes('withdrawals failed'))!;
    expect(withdrawalSummary).toContain(`${ids.withdrawals.failed.length} withdrawals failed`);
    expect(r.messages()).toHaveLength(3);
    // Another merchant's failures are never ours.
    expect(r.texts().join('\n')).not.toContain(ids.foreign.gas);
  });

  it('first run with a 24h lookback alerts only the failures of the last 24 hours', async () => {
    const r = await start({ seed: true, lookbackMs: 24 * HOUR });
    await r.poll();
    const since = r.sim.now() - 24 * HOUR;
    const recentTasks = r.sim.ids.tasks.failed.filter(
      (id) => (r.sim.getRecord('task', id) as { createdAt: number }).createdAt >= since,
    );
    const recentGas = r.sim.ids.gas.notEnoughDonorBalance.filter(
      (id) => (r.sim.getRecord('gas', id) as { createdAt: number }).createdAt >= since,
    );
    expect(recentTasks.length + recentGas.length).toBeGreaterThan(0);
    expect(r.messages()).toHaveLength(recentTasks.length + recentGas.length);
    for (const id of [...recentTasks, ...recentGas]) expect(mentions(r, id)).toBe(1);
  });

  it('first run with all history older than the lookback: nothing is alerted, then or later; new failures are', async () => {
    const r = await start({ seed: true, lookbackMs: 5 * 60_000 });
    for (let i = 0; i < 3; i++) {
      await r.poll();
      r.sim.advanceTime(60_000);
    }
    expect(r.messages()).toHaveLength(0);
    // The old failures are below every list's floor: no later read meets them, so none is alerted later, and
    // none needs to be remembered (the state keeps keys only near the watermarks).
    for (let i = 0; i < 3; i++) await r.poll();
    expect(r.messages()).toHaveLength(0);
    expect(Object.keys(r.store.read().alerts.alerted)).not.toContain(`withdrawal:${r.sim.ids.withdrawals.failed[0]}`);
    const fresh = r.sim.addWithdrawal({ status: 'failed' });
    await r.poll();
    expect(r.messages()).toHaveLength(1);
    expect(mentions(r, fresh.id)).toBe(1);
  });

  it('nothing is alerted twice over many polls while failures keep coming', async () => {
    const r = await start({ seed: true });
    await r.poll();
    const before = r.messages().length;
    const added: string[] = [];
    for (let i = 0; i < 25; i++) {
      if (i % 3 === 0) added.push(r.sim.addWithdrawal({ status: 'failed' }).id);
      if (i % 4 === 1) added.push(r.sim.addPayoutTask({ status: 'failed' }).id);
      if (i % 5 === 2)
        added.push(r.sim.addGasDistribution({ status: 'pending', subStatus: 'not_enough_donor_balance' }).id);
      await r.poll();
      r.sim.advanceTime(10 * 60_000);
    }
    for (const id of added) expect(mentions(r, id)).toBe(1);
    expect(r.messages()).toHaveLength(before + added.length);
  });
});

describe('flood control and pacing', () => {
  it('40 new failures of one kind in one poll: one summary listing 20 and "and 20 more"; none posted again', async () => {
    const r = await startInstalled();
    const ids = Array.from(
      { length: 40 },
      (_, i) => r.sim.addWithdrawal({ status: 'failed', createdAt: r.sim.now() - i * 1000 }).id,
    );
    const report = await r.poll();
    // The summary, and the full list of 40 in its thread (one part).
    expect(report).toMatchObject({ posted: 2, alerted: 40, waiting: 0 });
    const topLevel = r.messages().filter((m) => m.threadTs === undefined);
    expect(topLevel).toHaveLength(1);
    const thread = r.messages().filter((m) => m.threadTs === topLevel[0]!.ts);
    expect(thread).toHaveLength(1);
    for (const id of ids) expect(JSON.stringify(thread[0]!.blocks)).toContain(id);
    const [text] = r.texts();
    expect(text).toContain('40 withdrawals failed');
    expect(text).toContain('…and 20 more.');
    // Newest first: the 20 newest are listed.
    for (const id of ids.slice(0, 20)) expect(text).toContain(id);
    for (const id of ids.slice(20)) expect(text).not.toContain(id);
    await r.poll();
    await r.poll();
    expect(r.messages()).toHaveLength(2);
  });

  it('a flood of one kind does not hide another kind: one summary plus one message each for the few', async () => {
    const r = await startInstalled();
    for (let i = 0; i < 12; i++) r.sim.addPayoutTask({ status: 'failed' });
    const w1 = r.sim.addWithdrawal({ status: 'failed' });
    const w2 = r.sim.addWithdrawal({ status: 'failed' });
    await r.poll();
    expect(r.messages()).toHaveLength(3);
    expect(r.texts().filter((t) => t.includes('12 payout tasks failed'))).toHaveLength(1);
    expect(mentions(r, w1.id)).toBe(1);
    expect(mentions(r, w2.id)).toBe(1);
  });

  it('posts are spaced at least a second apart, also across polls', async () => {
    const r = await startInstalled();
    for (let i = 0; i < 4; i++) r.sim.addWithdrawal({ status: 'failed' });
    await r.poll();
    expect(r.messages()).toHaveLength(4);
    expect(r.sleeps).toHaveLength(3);
    for (const ms of r.sleeps) expect(ms).toBeGreaterThan(900);
    r.sim.addWithdrawal({ status: 'failed' });
    await r.poll();
    expect(r.sleeps).toHaveLength(4);
  });
});

describe('clocks that disagree', () => {
  it.each([
    ['40 minutes ahead of', 40 * 60_000],
    ['40 minutes behind', -40 * 60_000],
  ])('a bot clock %s the API still catches every kind', async (_label, offset) => {
    const r = await startInstalled({ clockOffsetMs: offset });
    r.sim.advanceTime(60_000);
    const w = r.sim.addWithdrawal({ status: 'failed' });
    const t = r.sim.addPayoutTask({ status: 'failed' });
    const g = r.sim.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' });
    await r.poll();
    r.sim.advanceTime(60_000);
    const w2 = r.sim.addWithdrawal({ status: 'failed' });
    const g2 = r.sim.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' });
    await r.poll();
    for (const id of [w.id, t.id, g.id, w2.id, g2.id]) expect(mentions(r, id)).toBe(1);
  });
});

describe('restarts and partial polls', () => {
  it('restart with the same state file: nothing posted again, and a failure from while it was down is posted once', async () => {
    const r = await start({ seed: true });
    await r.poll();
    const before = r.messages().length;
    const w = r.sim.addWithdrawal({ status: 'failed' });
    await r.poll();
    expect(mentions(r, w.id)).toBe(1);
    await r.restart();
    await r.poll();
    expect(r.messages()).toHaveLength(before + 1);
    await r.restart();
    r.sim.advanceTime(2 * HOUR);
    const whileDown = r.sim.addPayoutTask({ status: 'failed' });
    await r.poll();
    await r.poll();
    expect(mentions(r, whileDown.id)).toBe(1);
    expect(mentions(r, w.id)).toBe(1);
    expect(r.messages()).toHaveLength(before + 2);
  });

  it('a walk that fails on its second page loses nothing: the source keeps its place and catches up next poll', async () => {
    const r = await startInstalled();
    const pending = r.sim.addWithdrawal({ status: 'pending' });
    await r.poll();
    const placeBefore = structuredClone(r.store.read().alerts.sources.withdrawals);
    r.sim.advanceTime(60_000);
    for (let i = 0; i < 150; i++) r.sim.addWithdrawal({ status: 'success' });
    const fresh = r.sim.addWithdrawal({ status: 'failed' });
    r.sim.updateWithdrawal(pending.id, { status: 'failed' });
    const gas = r.sim.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' });
    // Page one answers, page two fails.
    r.sim.injectFault('listWithdrawals', { delayMs: 1 });
    r.sim.injectFault('listWithdrawals', { status: 503 });
    const broken = await r.poll();
    expect(broken.sources.withdrawals).toMatchObject({ ok: false, code: 'server' });
    // The other sources are not held back…
    expect(mentions(r, gas.id)).toBe(1);
    // …and the failed source wrote nothing: its watermark and followed withdrawals are as they were.
    const after = r.store.read().alerts.sources.withdrawals;
    expect({ watermark: after.watermark, tracking: after.tracking }).toEqual({
      watermark: placeBefore.watermark,
      tracking: placeBefore.tracking,
    });
    expect(mentions(r, fresh.id)).toBe(0);
    await r.poll();
    expect(mentions(r, fresh.id)).toBe(1);
    expect(mentions(r, pending.id)).toBe(1);
  });
});
