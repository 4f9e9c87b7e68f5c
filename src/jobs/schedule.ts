/**
 * One job on its period (a node-cron expression or a fixed number of milliseconds), never two runs at once: a tick
 * that comes while a run is busy is skipped (node-cron's `noOverlap` for cron, our in-flight guard for both), and the
 * guard also covers runs started by hand (`runNow`). A slow run delays the next one; it never runs beside it.
 */
import { type Logger as CronLogger, createTask, type ScheduledTask } from 'node-cron';
import { errorFields, type Logger, withLogContext } from '../logger.js';

/** When a job runs: on a node-cron expression (5 or 6 fields, validated by config), or every `everyMs`. */
export type JobPeriod = { cron: string } | { everyMs: number };

/** The schedule as `/treasury alerts` shows it (for the alert poll). */
export interface ScheduleStatus {
  running: boolean;
  /** A run is under way. */
  polling: boolean;
  nextRun: Date | null;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  /** Ticks skipped because the previous run was still going. */
  skippedTicks: number;
}

/** A started/stopped schedule of one job. */
export interface JobSchedule {
  start(): void;
  /**
   * Stops the schedule (no new run starts), lets a running one finish for up to `finishWithinMs` (default 0),
   * then aborts it (its signal) and waits at most `graceMs` for it to end.
   */
  stop(graceMs?: number, finishWithinMs?: number): Promise<void>;
  /** Runs the job now unless a run is under way; resolves when it ends (false when skipped). */
  runNow(): Promise<boolean>;
  nextRun(): Date | null;
  status(): ScheduleStatus;
}

/** Timers, injectable so a test drives fixed periods by hand. */
export interface Timers {
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(timer: unknown): void;
  now(): number;
}

const realTimers: Timers = {
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (timer) => clearInterval(timer as NodeJS.Timeout),
  now: () => Date.now(),
};

/** What a schedule is built from. */
export interface JobScheduleOptions {
  /** For the log (node-cron's task name too). */
  name: string;
  period: JobPeriod;
  run: (signal: AbortSignal) => Promise<unknown>;
  logger: Logger;
  /** A run that threw: say what it means for this job (default: one error line). */
  onError?: (error: unknown) => void;
  /** Wraps each run, e.g. to count it as work in flight (default: runs it as is). */
  wrap?: (run: () => Promise<void>) => Promise<void>;
  /** Said (at debug level) when a tick is skipped because the previous run is still going. */
  skippedLine?: string;
  timers?: Timers;
}

/** node-cron logs to the console by default; route it through ours. A skipped tick is expected, not a warning. */
function cronLogger(logger: Logger): CronLogger {
  const text = (message: string | Error) => (message instanceof Error ? message.message : message);
  return {
    info: (message) => logger.debug(`node-cron: ${message}`),
    debug: (message) => logger.debug(`node-cron: ${text(message)}`),
    warn: (message) =>
      /overlap/i.test(message) ? logger.debug(`node-cron: ${message}`) : logger.warn(`node-cron: ${message}`),
    error: (message, error) =>
      logger.error(`node-cron: ${text(message)}`, error ? { error: errorFields(error) } : undefined),
  };
}

/** Puts `run` on its period; nothing runs until start() (or runNow). */
export function createJobSchedule(options: JobScheduleOptions): JobSchedule {
  const { logger, period } = options;
  const timers = options.timers ?? realTimers;
  const onError =
    options.onError ??
    ((error: unknown) => logger.error(`${options.name}: a run failed unexpectedly`, { error: errorFields(error) }));
  const wrap = options.wrap ?? ((run: () => Promise<void>) => run());
  let inFlight: Promise<void> | undefined;
  let running = false;
  let controller = new AbortController();
  let lastStartedAt: Date | null = null;
  let lastFinishedAt: Date | null = null;
  let skippedTicks = 0;

  const runGuarded = (): Promise<boolean> => {
    if (inFlight) {
      skippedTicks += 1;
      logger.debug(options.skippedLine ?? `${options.name}: the previous run is still going; this tick is skipped`);
      return Promise.resolve(false);
    }
    lastStartedAt = new Date(timers.now());
    const signal = controller.signal;
    // Every line a run logs, its failure included, names its job (logger.ts's log context).
    inFlight = withLogContext({ job: options.name }, () =>
      wrap(async () => {
        try {
          await options.run(signal);
        } catch (error) {
          onError(error);
        }
      }),
    ).finally(() => {
      lastFinishedAt = new Date(timers.now());
      inFlight = undefined;
    });
    return inFlight.then(() => true);
  };

  let task: ScheduledTask | undefined;
  let interval: unknown;
  let nextTickAt: number | undefined;
  const nextRun = (): Date | null => {
    if (!running) return null;
    if (task) return task.getNextRun();
    return nextTickAt === undefined ? null : new Date(nextTickAt);
  };
  return {
    start() {
      if (running) return;
      running = true;
      controller = new AbortController();
      if ('cron' in period) {
        // A tick that comes as the schedule stops starts nothing.
        task = createTask(period.cron, () => (running ? runGuarded() : false), {
          noOverlap: true,
          name: options.name,
          logger: cronLogger(logger),
        });
        task.on('execution:overlap', () => {
          skippedTicks += 1;
        });
        void task.start();
      } else {
        nextTickAt = timers.now() + period.everyMs;
        const timer = timers.setInterval(() => {
          nextTickAt = timers.now() + period.everyMs;
          if (running) void runGuarded();
        }, period.everyMs);
        // A schedule never keeps the process alive by itself.
        (timer as { unref?: () => unknown }).unref?.();
        interval = timer;
      }
    },
    async stop(graceMs = 5_000, finishWithinMs = 0) {
      running = false;
      if (interval !== undefined) {
        timers.clearInterval(interval);
        interval = undefined;
        nextTickAt = undefined;
      }
      if (task) {
        await task.stop();
        await task.destroy();
        task = undefined;
      }
      const waitFor = async (ms: number) => {
        const current = inFlight;
        if (!current || ms <= 0) return;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([current, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
        clearTimeout(timer);
      };
      // Shutdown: the run under way ends on its own when it can (a poll's alerts posted, its state written)…
      await waitFor(finishWithinMs);
      // …and is cut short (between two requests, for a poll) when it cannot.
      controller.abort();
      await waitFor(graceMs);
    },
    runNow: runGuarded,
    nextRun,
    status: () => ({
      running,
      polling: inFlight !== undefined,
      nextRun: nextRun(),
      lastStartedAt,
      lastFinishedAt,
      skippedTicks,
    }),
  };
}
