/**
 * The one scheduler of the bot's periodic work. Each job is registered with its period and who runs it; the
 * scheduler starts them all, never runs one job twice at once, counts each run as work in flight (shutdown waits for
 * it), asks the leadership gate before a leader-only run, and stops them all in one place.
 */
import type { Logger } from '../logger.js';
import type { LeadershipGate } from './leadership.js';
import { createJobSchedule, type JobPeriod, type JobSchedule, type Timers } from './schedule.js';

/**
 * Who runs a job: every process (each step is claimed in the store, so it happens once); the leader only (the
 * scheduler asks the gate before each run); or the leader only, asked by the job itself once it has something to do
 * (so the followers do not ask the lease at every tick).
 */
export type RunsOn = 'every replica' | 'leader' | 'leader, asked by the job';

/** One periodic job. */
export interface JobDefinition {
  /** Short name (the jobs table, the log of what was still running at shutdown). */
  name: string;
  period: JobPeriod;
  runsOn: RunsOn;
  /** Also runs once as the scheduler starts, before its first period. */
  runAtStart?: boolean;
  /**
   * At shutdown, how long a run under way may finish before its signal asks it to stop (default: the whole
   * budget); then it is waited for up to the end of the budget.
   */
  finishWithin?: (budgetMs: number) => number;
  run(signal: AbortSignal): Promise<unknown>;
  /** A run that threw: say what it means (default: one error line). */
  onError?: (error: unknown) => void;
  /** Said at debug level when a tick is skipped because the previous run is still going. */
  skippedLine?: string;
}

/** Where a run is counted as work in flight (listeners/background.ts). */
export interface WorkRegister {
  track<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** The scheduler. */
export interface Scheduler {
  /** Registers a job (nothing runs before start()); its schedule answers runNow() and status(). */
  add(job: JobDefinition): JobSchedule;
  /** The jobs registered, in order. */
  readonly jobs: readonly JobDefinition[];
  /** Starts every job's period (and the runs at start). */
  start(): void;
  /**
   * Stops every job: no new run starts; runs under way finish (or are asked to stop, see finishWithin) within
   * `budgetMs`. Resolves with the names of the jobs still running at the end of the budget.
   */
  stop(budgetMs: number): Promise<string[]>;
}

export interface SchedulerOptions {
  logger: Logger;
  leadership: LeadershipGate;
  work?: WorkRegister;
  timers?: Timers;
}

/** An empty scheduler; jobs are added with add(). */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { logger, leadership, work } = options;
  const entries: { job: JobDefinition; schedule: JobSchedule }[] = [];
  let started = false;
  return {
    get jobs() {
      return entries.map((entry) => entry.job);
    },
    add(job) {
      const schedule = createJobSchedule({
        name: job.name,
        period: job.period,
        logger,
        run: async (signal) => {
          if (job.runsOn === 'leader' && !(await leadership.isLeader())) return; // another replica runs it
          await job.run(signal);
        },
        ...(job.onError ? { onError: job.onError } : {}),
        ...(job.skippedLine ? { skippedLine: job.skippedLine } : {}),
        ...(work ? { wrap: (run: () => Promise<void>) => work.track(job.name, run) } : {}),
        ...(options.timers ? { timers: options.timers } : {}),
      });
      entries.push({ job, schedule });
      return schedule;
    },
    start() {
      if (started) return;
      started = true;
      for (const { job, schedule } of entries) {
        schedule.start();
        if (job.runAtStart) void schedule.runNow();
      }
    },
    async stop(budgetMs) {
      started = false;
      const deadline = Date.now() + budgetMs;
      const left = await Promise.all(
        entries.map(async ({ job, schedule }) => {
          const finishWithinMs = job.finishWithin ? job.finishWithin(budgetMs) : budgetMs;
          let timer: NodeJS.Timeout | undefined;
          const ended = await Promise.race([
            schedule.stop(Math.max(0, deadline - Date.now()), finishWithinMs).then(() => !schedule.status().polling),
            new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), deadline - Date.now()))),
          ]);
          clearTimeout(timer);
          return ended ? [] : [job.name];
        }),
      );
      return left.flat();
    },
  };
}
