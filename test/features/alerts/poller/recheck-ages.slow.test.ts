/**
 * Follow-ups that back off by age, through the real poller, the simulator over HTTP and a real state file: a
 * row pending for a long time is checked less often, idle polls stay cheap however many rows stay pending, and a
 * row that leaves pending is noticed within the interval POLL_RULES.recheckBands documents for its age.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { POLL_RULES } from '../../../../src/features/alerts/poller/index.js';
import { DAY, HOUR, mentions, type PollerRig, startPollerRig } from './helpers.js';

const MINUTE = 60_000;

let rig: PollerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Kind = 'withdrawal' | 'task' | 'gas';

/** Adds one pending row of `kind` created `age` ago; returns a function that makes it fail. */
function addPending(r: PollerRig, kind: Kind, age: number): { id: string; fail: () => void } {
  const createdAt = r.sim.now() - age;
  if (kind === 'withdrawal') {
    const row = r.sim.addWithdrawal({ status: 'pending', createdAt });
    return { id: row.id, fail: () => r.sim.updateWithdrawal(row.id, { status: 'failed' }) };
  }
  if (kind === 'task') {
    const row = r.sim.addPayoutTask({ status: 'pending', createdAt });
    return { id: row.id, fail: () => r.sim.updatePayoutTask(row.id, { status: 'failed', subStatus: 'payout_failed' }) };
  }
  const row = r.sim.addGasDistribution({ status: 'pending', createdAt });
  return {
    id: row.id,
    fail: () => r.sim.updateGasDistribution(row.id, { status: 'failed', subStatus: 'not_enough_donor_balance' }),
  };
}

/** Polls every `stepMs` until the row is alerted; the time it took (or Infinity after `limitMs`). */
async function timeToAlert(r: PollerRig, id: string, stepMs: number, limitMs: number): Promise<number> {
  for (let waited = 0; waited <= limitMs; waited += stepMs) {
    await r.poll();
    if (mentions(r, id) > 0) return waited;
    r.sim.advanceTime(stepMs);
  }
  return Number.POSITIVE_INFINITY;
}

describe('a row that leaves pending is noticed within the interval of its age band', () => {
  // One case per source and band: the row's age when added (30 idle minutes pass before it fails), the documented
  // interval of its band, the poll step.
  const cases: [Kind, string, number, number, number][] = [];
  for (const kind of ['withdrawal', 'task', 'gas'] as const) {
    const bands = POLL_RULES.recheckBands[kind === 'withdrawal' ? 'withdrawals' : 'lists'];
    cases.push([kind, 'under an hour', 10 * MINUTE, bands[0]!.everyMs, MINUTE]);
    cases.push([kind, 'under a day', 6 * HOUR, bands[1]!.everyMs, MINUTE]);
    cases.push([kind, 'older', 5 * DAY, bands[2]!.everyMs, kind === 'withdrawal' ? 10 * MINUTE : MINUTE]);
  }

  it.each(cases)(
    '%s pending %s (added %d ms old): alerted once within its band interval of %d ms',
    async (kind, _band, age, everyMs, stepMs) => {
      const r = await startPollerRig({ lookbackMs: 7 * DAY });
      rig = r;
      const row = addPending(r, kind, age);
      // Newer rows: the withdrawal is past the first page, each list has a watermark (the reads of new rows stop
      // near the top), so only a follow-up can see the row change.
      for (let i = 0; i < 150; i++)
        r.sim.addWithdrawal({ status: 'success', createdAt: r.sim.now() - 5 * MINUTE + i * 1_000 });
      r.sim.addPayoutTask({ status: 'failed', subStatus: 'payout_failed' });
      await r.poll();
      // Idle for half an hour with a little traffic: the row sinks below the floor of the reads of new rows.
      r.sim.resetRequests();
      for (let i = 0; i < 30; i++) {
        r.sim.advanceTime(MINUTE);
        r.sim.addWithdrawal({ status: 'success' });
        r.sim.addPayoutTask({ status: 'success' });
        r.sim.addGasDistribution({ status: 'success' });
        await r.poll();
      }
      // Backed off: this source's follow-ups come about once per interval, not at every poll.
      const operation = { withdrawal: 'getWithdrawal', task: 'listPayoutTasks', gas: 'listGasDistributions' }[kind];
      const followUps = r.sim.requests.filter(
        (q) => q.operation === operation && (kind === 'withdrawal' || q.query.status === 'pending'),
      ).length;
      const every = kind === 'task' ? Math.min(everyMs, POLL_RULES.taskDiscoveryEveryMs) : everyMs;
      expect(followUps).toBeLessThanOrEqual(Math.ceil((30 * MINUTE) / every) + 1);
      expect(mentions(r, row.id)).toBe(0);
      row.fail();
      const took = await timeToAlert(r, row.id, stepMs, everyMs + 2 * stepMs);
      // Within its band's interval (plus the poll that reads it), and, for the slower bands, not at once: backed off.
      expect(took).toBeLessThanOrEqual(everyMs + stepMs);
      for (let i = 0; i < 3; i++) {
        r.sim.advanceTime(stepMs);
        await r.poll();
      }
      expect(mentions(r, row.id)).toBe(1);
    },
    60_000,
  );
});

describe('idle polls stay cheap with many rows pending for a long time', () => {
  it('300 rows of each kind pending for 1 to 30 days: at most 6 requests in most idle polls, at most 7 on average over two hours', async () => {
    // A lookback longer than the history: the first run reads every withdrawal, so all 300 are followed.
    const r = await startPollerRig({ lookbackMs: 31 * DAY });
    rig = r;
    for (let i = 0; i < 300; i++)
      for (const kind of ['withdrawal', 'task', 'gas'] as const)
        addPending(r, kind, DAY + Math.floor((i * 29 * DAY) / 300));
    await r.poll();
    // Settle the first hour (the first poll reads every pending list whole, the withdrawals are looked up in turn).
    for (let i = 0; i < 60; i++) {
      r.sim.advanceTime(MINUTE);
      await r.poll();
    }
    const counts: number[] = [];
    for (let i = 0; i < 120; i++) {
      r.sim.advanceTime(MINUTE);
      r.sim.resetRequests();
      await r.poll();
      counts.push(r.sim.requestCount());
    }
    const atMostSix = counts.filter((count) => count <= 6).length;
    const average = counts.reduce((sum, count) => sum + count, 0) / counts.length;
    expect(atMostSix, counts.join(' ')).toBeGreaterThan(counts.length * 0.9);
    expect(average, counts.join(' ')).toBeLessThanOrEqual(7);
    // Every row is still followed (none dropped to save requests).
    const sources = r.store.read().alerts.sources;
    for (const name of ['withdrawals', 'tasks', 'gas'] as const)
      expect(Object.keys(sources[name].tracking)).toHaveLength(300);
  }, 120_000);
});
