import { setTimeout as sleep } from 'node:timers/promises';

/** Hands out request slots so that no more than `maxPerWindow` requests start in any `windowMs` window. */
export interface Pacer {
  /** Resolves when the caller may send one request. */
  acquire(): Promise<void>;
}

/**
 * A sliding-window pacer. The API allows 50 requests per second on its rate-limited endpoints; we stay a
 * little below (45 by default) because the server counts arrivals, and network jitter can bunch requests
 * that left us evenly spaced.
 */
export function createPacer(options: { maxPerWindow?: number; windowMs?: number; now?: () => number } = {}): Pacer {
  const maxPerWindow = options.maxPerWindow ?? 45;
  const windowMs = options.windowMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  const recentStarts: number[] = [];
  // Acquisitions are served one at a time, in call order, so a burst cannot overtake the window check.
  let queue: Promise<void> = Promise.resolve();

  const takeSlot = async () => {
    for (;;) {
      const current = now();
      while (recentStarts.length > 0 && current - recentStarts[0]! >= windowMs) recentStarts.shift();
      if (recentStarts.length < maxPerWindow) {
        recentStarts.push(current);
        return;
      }
      await sleep(windowMs - (current - recentStarts[0]!) + 1);
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
