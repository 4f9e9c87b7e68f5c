/**
 * A row followed while pending that then fails is alerted at the very next poll, whatever its age band, through
 * the real poller, the simulator over HTTP and a real state file: the failed rows are read from the oldest
 * followed row within ALERT_LOOKBACK (tasks: the same read as new failures, starting lower; gas: `status=failed`
 * from it), so a task or gas top-up pending for 48 minutes is not left to its band's next follow-up. The reads
 * stay within the poll's request budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { POLL_RULES, type PollReport } from '../../../../src/features/alerts/poller/index.js';
import { HOUR, mentions, type PollerRig, startPollerRig } from './helpers.js';

const MINUTE = 60_000;
const POLL_EVERY = 2_000;

let rig: PollerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Kind = 'task' | 'gas';
const LIST = { task: 'listPayoutTasks', gas: 'listGasDistributions' } as const;

/** Requests of one poll (the simulator's log, reset before it). */
async function pollCounting(r: PollerRig): Promise<{ report: PollReport; requests: number; pendingReads: number }> {
  r.sim.resetRequests();
  const report = await r.poll();
  const requests = r.sim.requests.length;
  const pendingReads = r.sim.requests.filter((q) => q.query.status === 'pending').length;
  return { report, requests, pendingReads };
}

/**
 * A row of `kind` pending since `ageMs` ago, a newer row above it (so it lies below the floor of the reads of
 * new rows), and `ageMs` of polls: one a minute with a little traffic. Returns the row and the most requests
 * one poll made meanwhile.
 */
async function followedFor(r: PollerRig, kind: Kind, ageMs: number) {
  const start = r.sim.now();
  const row =
    kind === 'task'
      ? r.sim.addPayoutTask({ status: 'pending', createdAt: start - 1_000 })
      : r.sim.addGasDistribution({ status: 'pending', subStatus: null, createdAt: start - 1_000 });
  if (kind === 'task') r.sim.addPayoutTask({ status: 'failed', subStatus: 'payout_failed', createdAt: start });
  else r.sim.addGasDistribution({ status: 'success', createdAt: start });
  let most = 0;
  for (let t = 0; t < ageMs; t += MINUTE) {
    most = Math.max(most, (await pollCounting(r)).requests);
    r.sim.advanceTime(MINUTE);
    if (kind === 'task') r.sim.addPayoutTask({ status: 'success' });
    else r.sim.addGasDistribution({ status: 'success' });
  }
  return { id: row.id, most };
}

describe('a row followed while pending that turns failed is alerted at the next poll', () => {
  it.each(['task', 'gas'] as const)(
    '%s pending for 48 minutes, failed just after its band was read: alerted by the next poll (2 s later), once',
    async (kind) => {
      const r = await startPollerRig({ lookbackMs: 24 * HOUR });
      rig = r;
      const followed = await followedFor(r, kind, 48 * MINUTE);
      const id = followed.id;
      let most = followed.most;
      expect(mentions(r, id)).toBe(0);
      // Poll every 2 s until a poll has just read this source's pending list: its band's next read is minutes
      // away, so only the read of failed rows can find the row at the next poll.
      let read = false;
      for (let i = 0; i < 200 && !read; i++) {
        r.sim.advanceTime(POLL_EVERY);
        const poll = await pollCounting(r);
        read = r.sim.requests.some((q) => q.operation === LIST[kind] && q.query.status === 'pending');
        most = Math.max(most, poll.requests);
      }
      expect(read).toBe(true);
      if (kind === 'task') r.sim.updatePayoutTask(id, { status: 'failed', subStatus: 'payout_failed' });
      else r.sim.updateGasDistribution(id, { status: 'failed', subStatus: 'not_enough_donor_balance' });
      r.sim.advanceTime(POLL_EVERY);
      const next = await pollCounting(r);
      expect(next.report.sources[kind === 'task' ? 'tasks' : 'gas']).toMatchObject({ ok: true, newFailures: 1 });
      expect(mentions(r, id)).toBe(1);
      // No pending list was read for it: the failed rows found it.
      expect(next.pendingReads).toBe(0);
      most = Math.max(most, next.requests);
      // Within the poll's budget all along: the reads of new rows (4) and the follow-ups.
      expect(most).toBeLessThanOrEqual(4 + POLL_RULES.recheckRequestsPerPoll);
      // Later polls neither alert it again nor keep reading below the floor for it.
      for (let i = 0; i < 5; i++) {
        r.sim.advanceTime(POLL_EVERY);
        const poll = await pollCounting(r);
        expect(poll.report.sources.tasks).toMatchObject({ ok: true, requests: 1 });
        expect(poll.report.sources.gas).toMatchObject({ ok: true, requests: 2 });
      }
      expect(mentions(r, id)).toBe(1);
    },
    120_000,
  );

  it('the task recheck costs no request: an idle poll reads one page of failed tasks while a task is followed', async () => {
    const r = await startPollerRig({ lookbackMs: 24 * HOUR });
    rig = r;
    await followedFor(r, 'task', 30 * MINUTE);
    // A recent failure: the floor of the failed list is now about 15 minutes back, above the followed task.
    r.sim.addPayoutTask({ status: 'failed', subStatus: 'payout_failed', createdAt: r.sim.now() - MINUTE });
    await pollCounting(r);
    for (let i = 0; i < 10; i++) {
      r.sim.advanceTime(POLL_EVERY);
      const poll = await pollCounting(r);
      // One page of failed tasks, from the followed task's createdAt; a pending window read only when due.
      expect(poll.report.sources.tasks).toMatchObject({ ok: true, requests: 1 + poll.pendingReads });
      const failedRead = r.sim.requests.find((q) => q.operation === 'listPayoutTasks' && q.query.status === 'failed');
      expect(Date.parse(failedRead?.query.createdAtFrom ?? '')).toBeLessThanOrEqual(r.sim.now() - 30 * MINUTE);
    }
  });

  it('a task followed for longer than ALERT_LOOKBACK is left to its follow-ups (the failed read starts at the floor)', async () => {
    const r = await startPollerRig({ lookbackMs: 20 * MINUTE });
    rig = r;
    const { id } = await followedFor(r, 'task', 30 * MINUTE);
    // A recent failure: the floor of the failed list is now about 15 minutes back, above the followed task.
    r.sim.addPayoutTask({ status: 'failed', subStatus: 'payout_failed', createdAt: r.sim.now() - MINUTE });
    await pollCounting(r);
    r.sim.advanceTime(POLL_EVERY);
    await pollCounting(r);
    const failedRead = r.sim.requests.find((q) => q.operation === 'listPayoutTasks' && q.query.status === 'failed');
    expect(Date.parse(failedRead?.query.createdAtFrom ?? '')).toBeGreaterThan(r.sim.now() - 20 * MINUTE);
    // Still followed: its band's follow-up reads it.
    const state = await r.store.alerts.readAlerts();
    expect(Object.keys(state.sources.tasks.tracking)).toContain(id);
  });
});
