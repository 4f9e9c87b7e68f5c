/**
 * Shutdown's one wait: every job stopped (the scheduler), then the work in flight (requests, answers after their ack,
 * job runs) and whatever else was started (swaps being followed) waited for within one budget; what is still running
 * at its end is named in one log line and cut off.
 */
import type { Logger } from '../logger.js';
import type { Scheduler } from './scheduler.js';

/** Something to wait for at shutdown, named for the log line. */
export interface Stoppable {
  name: string;
  stop(): Promise<unknown>;
}

/** Stops the jobs and waits for the work under way, at most `budgetMs`. */
export async function stopWithinBudget(options: {
  scheduler: Scheduler;
  /** The register of work in flight: job runs are in it, so it names a run still going at the end. */
  work: { drain(timeoutMs: number): Promise<string[]> };
  others: Stoppable[];
  budgetMs: number;
  logger: Logger;
}): Promise<void> {
  const { budgetMs } = options;
  const deadline = Date.now() + budgetMs;
  const bounded = async ({ name, stop }: Stoppable): Promise<string[]> => {
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      stop().then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), deadline - Date.now()))),
    ]);
    clearTimeout(timer);
    return ended ? [] : [name];
  };
  const [running, , ...others] = await Promise.all([
    options.work.drain(budgetMs),
    options.scheduler.stop(budgetMs),
    ...options.others.map(bounded),
  ]);
  const left = [...running, ...others.flat()];
  if (left.length > 0)
    options.logger.warn('stopped after the shutdown budget with work still running; it is cut off', {
      budgetMs,
      left: left.length,
      running: [...new Set(left)].join(', '),
    });
}
