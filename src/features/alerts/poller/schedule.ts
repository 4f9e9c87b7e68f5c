/**
 * Runs a poll on a node-cron schedule, never two at once: node-cron's `noOverlap` skips ticks while a run is
 * busy, and our own in-flight guard also covers runs started by hand (`runNow`). A slow poll delays the next
 * one; it never runs beside it.
 */

import { type Logger as CronLogger, createTask, type ScheduledTask } from 'node-cron';
import { isStorageUnavailable } from '../../../kernel/errors.js';
import { errorFields, type Logger } from '../../../logger.js';

/** The schedule as `/treasury alerts` shows it. */
export interface ScheduleStatus {
  running: boolean;
  polling: boolean;
  nextRun: Date | null;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  /** Ticks skipped because the previous poll was still running. */
  skippedTicks: number;
}

/** A started/stopped schedule of one job. */
export interface PollSchedule {
  start(): void;
  /**
   * Stops the schedule (no new poll starts), lets a running poll finish for up to `finishWithinMs` (default 0),
   * then aborts it between requests and waits (at most `graceMs`) for it to end.
   */
  stop(graceMs?: number, finishWithinMs?: number): Promise<void>;
  /** Runs a poll now unless one is running; resolves when it ends (false when skipped). */
  runNow(): Promise<boolean>;
  nextRun(): Date | null;
  status(): ScheduleStatus;
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

/** Wraps `run` in a node-cron task on `expression` (validated by config). */
export function createPollSchedule(options: {
  expression: string;
  run: (signal: AbortSignal) => Promise<unknown>;
  logger: Logger;
  name?: string;
}): PollSchedule {
  const { logger } = options;
  let inFlight: Promise<void> | undefined;
  let running = false;
  let controller = new AbortController();
  let lastStartedAt: Date | null = null;
  let lastFinishedAt: Date | null = null;
  let skippedTicks = 0;

  const runGuarded = (): Promise<boolean> => {
    if (inFlight) {
      skippedTicks += 1;
      logger.debug('alert poller: the previous poll is still running; this tick is skipped');
      return Promise.resolve(false);
    }
    lastStartedAt = new Date();
    const signal = controller.signal;
    inFlight = (async () => {
      try {
        await options.run(signal);
      } catch (error) {
        // pollOnce handles API and Slack failures itself; what is left is the store (or a bug).
        if (isStorageUnavailable(error))
          logger.warn(
            'alert poller: the database cannot be reached; nothing was recorded or posted, the next poll tries again',
            { error: errorFields(error) },
          );
        else logger.error('alert poller: a poll failed unexpectedly', { error: errorFields(error) });
      } finally {
        lastFinishedAt = new Date();
        inFlight = undefined;
      }
    })();
    return inFlight.then(() => true);
  };

  let task: ScheduledTask | undefined;
  return {
    start() {
      if (running) return;
      running = true;
      controller = new AbortController();
      task = createTask(options.expression, () => runGuarded(), {
        noOverlap: true,
        name: options.name ?? 'alert-poller',
        logger: cronLogger(logger),
      });
      task.on('execution:overlap', () => {
        skippedTicks += 1;
      });
      void task.start();
    },
    async stop(graceMs = 5_000, finishWithinMs = 0) {
      running = false;
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
      // Shutdown: the poll under way ends on its own when it can (its alerts posted, its state written)…
      await waitFor(finishWithinMs);
      // …and is cut short between two requests when it cannot.
      controller.abort();
      await waitFor(graceMs);
    },
    runNow: runGuarded,
    nextRun: () => (running && task ? task.getNextRun() : null),
    status: () => ({
      running,
      polling: inFlight !== undefined,
      nextRun: running && task ? task.getNextRun() : null,
      lastStartedAt,
      lastFinishedAt,
      skippedTicks,
    }),
  };
}
