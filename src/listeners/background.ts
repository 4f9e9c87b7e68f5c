/**
 * The bot's register of work in flight, and where shutdown waits for it.
 *
 * - `run`: work a listener starts after its ack and does not wait for. Bolt keeps a request's objects (body,
 *   context, the HTTP request and response) alive until the listener returns; a command waiting seconds on the
 *   payment API would hold all of them, and fifty such commands hold megabytes. So a listener acks, hands the
 *   answer to this, and returns: the work keeps only the few fields it needs.
 * - `track`: work someone awaits, counted from start to end: every Slack request's listener (one middleware, see
 *   listeners/index.ts), and each run of a periodic job (the scheduler in src/jobs: polls, sweeps, digest checks).
 *
 * Shutdown (`stop()`): from then on `stopping` is true and nothing new should start (requests get a plain "the bot
 * is restarting" answer, the scheduler starts no new run); `drain` waits for what was started, up to a bound, and names
 * what was still running after it.
 */
import { errorFields, type Logger } from '../logger.js';

export interface BackgroundWork {
  /** Starts `work` now; a failure is logged (the work is expected to answer the person itself). */
  run(name: string, work: () => Promise<void>): void;
  /** Runs `work` now, counted as in flight until it settles; its result or error goes to the caller. */
  track<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** True once stop() was called: shutdown has begun, nothing new should start. */
  readonly stopping: boolean;
  /** Shutdown begins (see `stopping`); work already started goes on. */
  stop(): void;
  /**
   * Resolves when every started work has ended (including work started meanwhile), or after `timeoutMs`, with
   * the names of the works still running then (empty when everything ended).
   */
  drain(timeoutMs: number): Promise<string[]>;
}

export function createBackgroundWork(logger: Logger): BackgroundWork {
  const running = new Map<Promise<unknown>, string>();
  let stopping = false;
  const add = <T>(name: string, task: Promise<T>): Promise<T> => {
    const settled = task.then(
      () => undefined,
      () => undefined,
    );
    running.set(settled, name);
    void settled.then(() => running.delete(settled));
    return task;
  };
  return {
    run(name, work) {
      void add(
        name,
        Promise.resolve()
          .then(work)
          .catch((error: unknown) => logger.error(`${name} failed after its ack`, { error: errorFields(error) })),
      );
    },
    track(name, work) {
      return add(name, Promise.resolve().then(work));
    },
    get stopping() {
      return stopping;
    },
    stop() {
      stopping = true;
    },
    async drain(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      // Work may start more work (a click's listener hands its Home tab refresh to `run`): wait until none is left.
      while (running.size > 0) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
        await Promise.race([Promise.allSettled([...running.keys()]), timeout]);
        clearTimeout(timer);
      }
      return [...running.values()];
    },
  };
}
