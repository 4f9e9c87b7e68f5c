import { setTimeout as sleep } from 'node:timers/promises';

/** Hands out request slots so the API never sees more than `maxPerWindow` requests in any `windowMs` window. */
export interface Pacer {
  /** Resolves when the caller may send one request; call the returned function when its answer is in. */
  acquire(): Promise<() => void>;
}

/**
 * A sliding-window pacer. The API allows 50 requests per second on its rate-limited endpoints and counts
 * them when they ARRIVE, which can be any time between our send and its answer. So a slot stays in the
 * window from its send until `windowMs` after its answer: then no window of the server's can see more than
 * `maxPerWindow` arrivals, however the network bunches them. 45 by default, a little below the limit.
 */
export function createPacer(options: { maxPerWindow?: number; windowMs?: number; now?: () => number } = {}): Pacer {
  const maxPerWindow = options.maxPerWindow ?? 45;
  const windowMs = options.windowMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  /** One entry per slot: when its answer came in, or Infinity while the request is in flight. */
  const slots: number[] = [];
  // Acquisitions are served one at a time, in call order, so a burst cannot overtake the window check.
  let queue: Promise<unknown> = Promise.resolve();

  const prune = (current: number) => {
    for (let i = slots.length - 1; i >= 0; i--) if (current - slots[i]! >= windowMs) slots.splice(i, 1);
  };

  const takeSlot = async (): Promise<() => void> => {
    for (;;) {
      const current = now();
      prune(current);
      if (slots.length < maxPerWindow) {
        slots.push(Infinity);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          // Entries are interchangeable (only the count matters): mark one in-flight entry as answered now.
          const inFlight = slots.indexOf(Infinity);
          if (inFlight >= 0) slots[inFlight] = now();
        };
      }
      const finished = slots.filter(Number.isFinite);
      // Wait for the oldest answered slot to leave the window, or briefly when all are still in flight.
      const wait = finished.length > 0 ? windowMs - (current - Math.min(...finished)) + 1 : 10;
      await sleep(Math.max(1, wait));
    }
  };

  return {
    acquire() {
      const slot = queue.then(takeSlot);
      queue = slot.catch(() => undefined);
      return slot;
    },
  };
}
