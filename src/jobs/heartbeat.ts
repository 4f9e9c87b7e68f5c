/**
 * The dead-man's switch: a GET to HEARTBEAT_URL after every successful poll (healthchecks.io's pattern, like
 * Alertmanager's Watchdog), so a poller that falls silent pages someone from outside. The GET goes out after the
 * poll is done, in the background: it never fails or delays a poll, a failure is one warn line, and shutdown waits
 * for a GET under way (it takes at most HEARTBEAT_TIMEOUT_MS). The URL may hold a secret token: it is never logged.
 */
import got from 'got';
import type { Logger } from '../logger.js';
import type { WorkRegister } from './scheduler.js';

/** How long one heartbeat GET may take; a slow monitor then counts as a failed GET, logged. */
const HEARTBEAT_TIMEOUT_MS = 5_000;

/** Sends the heartbeat. */
export interface Heartbeat {
  /** Sends one GET in the background (returns at once); while one is still under way, this one is skipped. */
  beat(): void;
}

/** What the heartbeat is built from; `work` counts a GET under way so shutdown waits for it. */
export interface HeartbeatOptions {
  url: string;
  logger: Logger;
  work: WorkRegister;
  timeoutMs?: number;
}

/** The heartbeat to HEARTBEAT_URL. */
export function createHeartbeat(options: HeartbeatOptions): Heartbeat {
  const timeoutMs = options.timeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  let underWay = false;
  const send = async (): Promise<void> => {
    try {
      // One try, no retry: the next successful poll sends the next one, and the monitor allows for a missed one.
      await got(options.url, { method: 'GET', timeout: { request: timeoutMs }, retry: { limit: 0 } });
    } catch (error) {
      // got's message holds the URL (its path may be the secret): hand-picked fields only.
      const { code, response } = error as { code?: unknown; response?: { statusCode?: number } };
      const status = response?.statusCode;
      options.logger.warn('heartbeat: the GET to HEARTBEAT_URL failed; the poll itself succeeded', {
        ...(status !== undefined ? { status } : {}),
        ...(typeof code === 'string' ? { code } : {}),
      });
    } finally {
      underWay = false;
    }
  };
  return {
    beat() {
      if (underWay) return;
      underWay = true;
      void options.work.track('heartbeat', send);
    },
  };
}
