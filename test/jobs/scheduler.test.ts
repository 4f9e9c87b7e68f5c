// The one scheduler of periodic work (src/jobs/scheduler.ts): never two runs of a job at once, runs counted as work in
// flight that stop() waits for within its budget, and leader-only jobs skipped on a follower. Fixed periods are driven
// by hand through injected timers; the work register is the real one (listeners/background.ts).
import { describe, expect, it } from 'vitest';
import { createLeadershipGate, createScheduler, type RunsOn, type Timers } from '../../src/jobs/index.js';
import { createBackgroundWork } from '../../src/listeners/background.js';
import { silentLogger } from '../../src/logger.js';

/** Timers whose intervals fire only when the test says `tick()`. */
function handTimers(): Timers & { tick(): void; active(): number } {
  const intervals = new Set<{ run: () => void }>();
  return {
    setInterval(run) {
      const timer = { run };
      intervals.add(timer);
      return timer;
    },
    clearInterval(timer) {
      intervals.delete(timer as { run: () => void });
    },
    now: () => Date.now(),
    tick() {
      for (const timer of [...intervals]) timer.run();
    },
    active: () => intervals.size,
  };
}

/** A run that ends when the test says so. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

const follower = { replica: 'b', tryLead: async () => false, leader: async () => 'a' };
const leader = { replica: 'a', tryLead: async () => true, leader: async () => 'a' };

describe('the scheduler', () => {
  it('never runs a job twice at once: ticks while it runs are skipped, the next tick after it runs again', async () => {
    const timers = handTimers();
    const scheduler = createScheduler({ logger: silentLogger, leadership: createLeadershipGate(undefined), timers });
    const runs: ReturnType<typeof gate>[] = [];
    const job = scheduler.add({
      name: 'quote sweep',
      period: { everyMs: 30_000 },
      runsOn: 'every replica',
      run: async () => {
        const run = gate();
        runs.push(run);
        await run.opened;
      },
    });
    scheduler.start();
    timers.tick();
    await flush();
    timers.tick();
    timers.tick();
    expect(await job.runNow()).toBe(false);
    await flush();
    expect(runs).toHaveLength(1);
    expect(job.status()).toMatchObject({ polling: true, skippedTicks: 3 });
    runs[0]!.open();
    await flush();
    timers.tick();
    await flush();
    expect(runs).toHaveLength(2);
    runs[1]!.open();
    expect(await scheduler.stop(1_000)).toEqual([]);
    expect(timers.active()).toBe(0);
  });

  it('counts a run as work in flight; stop() waits for it, and names it when it outlasts the budget', async () => {
    const timers = handTimers();
    const work = createBackgroundWork(silentLogger);
    const scheduler = createScheduler({
      logger: silentLogger,
      leadership: createLeadershipGate(undefined),
      work,
      timers,
    });
    const short = gate();
    scheduler.add({
      name: 'daily digest',
      period: { everyMs: 30_000 },
      runsOn: 'every replica',
      run: () => short.opened,
    });
    scheduler.add({
      name: 'alert poll',
      period: { everyMs: 60_000 },
      runsOn: 'every replica',
      run: () => new Promise(() => undefined), // never ends, ignores its signal
    });
    scheduler.start();
    timers.tick();
    await flush();
    setTimeout(() => short.open(), 50);
    const started = Date.now();
    const [left, drained] = await Promise.all([scheduler.stop(300), work.drain(300)]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(left).toEqual(['alert poll']);
    expect(drained).toEqual(['alert poll']);
    // Stopped: ticks start nothing.
    timers.tick();
    expect(timers.active()).toBe(0);
  });

  it('asks the aborted run to stop at finishWithin, then waits for it', async () => {
    const scheduler = createScheduler({ logger: silentLogger, leadership: createLeadershipGate(undefined) });
    const outcomes: string[] = [];
    const job = scheduler.add({
      name: 'alert poll',
      period: { cron: '0 0 1 1 *' },
      runsOn: 'leader',
      finishWithin: (budgetMs) => budgetMs / 4,
      run: (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            outcomes.push('aborted');
            resolve();
          }),
        ),
    });
    scheduler.start();
    const ran = job.runNow();
    await flush();
    expect(await scheduler.stop(400)).toEqual([]);
    expect(outcomes).toEqual(['aborted']);
    expect(await ran).toBe(true);
  });

  const cases: { runsOn: RunsOn; on: string; lease: typeof leader | undefined; runs: boolean }[] = [
    { runsOn: 'leader', on: 'a follower', lease: follower, runs: false },
    { runsOn: 'leader', on: 'the leader', lease: leader, runs: true },
    { runsOn: 'leader', on: 'the state file', lease: undefined, runs: true }, // one process: always the leader
    { runsOn: 'every replica', on: 'a follower', lease: follower, runs: true },
    { runsOn: 'leader, asked by the job', on: 'a follower', lease: follower, runs: true }, // the job asks itself
  ];
  it.each(cases)('a "$runsOn" job on $on runs: $runs', async ({ runsOn, lease, runs }) => {
    const scheduler = createScheduler({ logger: silentLogger, leadership: createLeadershipGate(lease) });
    let ran = 0;
    const job = scheduler.add({
      name: 'a job',
      period: { everyMs: 60_000 },
      runsOn,
      run: async () => {
        ran += 1;
      },
    });
    expect(await job.runNow()).toBe(true);
    expect(ran).toBe(runs ? 1 : 0);
  });

  it('runs a job marked runAtStart once as it starts, before its first period', async () => {
    const timers = handTimers();
    const scheduler = createScheduler({ logger: silentLogger, leadership: createLeadershipGate(undefined), timers });
    let ran = 0;
    scheduler.add({
      name: 'daily digest',
      period: { everyMs: 30_000 },
      runsOn: 'leader, asked by the job',
      runAtStart: true,
      run: async () => {
        ran += 1;
      },
    });
    scheduler.start();
    await flush();
    expect(ran).toBe(1);
    expect(await scheduler.stop(100)).toEqual([]);
  });
});
