/**
 * Work a listener starts after its ack and does not wait for. Bolt keeps a request's objects (body, context,
 * the HTTP request and response) alive until the listener returns; a command waiting seconds on the payment
 * API would hold all of them, and fifty such commands hold megabytes. So a listener acks, hands the answer to
 * this, and returns: the work keeps only the few fields it needs. Nothing is lost at shutdown: stop() waits for
 * work under way (up to a bound) before the process exits.
 */
import { errorFields, type Logger } from '../logger.js';

export interface BackgroundWork {
  /** Starts `work` now; a failure is logged (the work is expected to answer the person itself). */
  run(name: string, work: () => Promise<void>): void;
  /** Resolves when every started work has ended, or after `timeoutMs`; says how many were still running. */
  drain(timeoutMs: number): Promise<number>;
}

export function createBackgroundWork(logger: Logger): BackgroundWork {
  const running = new Set<Promise<void>>();
  return {
    run(name, work) {
      const task = Promise.resolve()
        .then(work)
        .catch((error: unknown) => logger.error(`${name} failed after its ack`, { error: errorFields(error) }))
        .finally(() => running.delete(task));
      running.add(task);
    },
    async drain(timeoutMs) {
      if (running.size === 0) return 0;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.allSettled([...running]), timeout]);
      clearTimeout(timer);
      return running.size;
    },
  };
}
