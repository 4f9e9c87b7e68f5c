import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';

/**
 * How long a count must stay put before a test believes nothing more is coming. The app acknowledges a click
 * before it works and may keep working after its visible answer, so "nothing else happened" is only worth
 * checking once the outcome is in, and then over a quiet period: a duplicate call made even a few hundred
 * milliseconds after the first one fails the check. Short, so the suite stays fast.
 */
const QUIET_MS = 400;
const POLL_MS = 10;
/** An async read goes to the store (a file read, a query): polled less often. */
const ASYNC_POLL_MS = 20;

/**
 * Resolves with `read()`'s first truthy value, polling; a throwing `read` (e.g. an `expect`) means "not yet".
 * Rejects after `timeoutMs`, naming what it waited for and the last value or error seen.
 */
export async function waitUntil<T>(read: () => T, description: string, timeoutMs = 5_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = read();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error instanceof Error ? error.message : error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description} (last: ${String(last)})`);
    }
    await sleep(POLL_MS);
  }
}

/**
 * Resolves with the first value an async `read()` gives that is not `undefined`, polling; a throwing `read` fails
 * at once. Rejects after `timeoutMs`, naming what it waited for.
 */
export async function waitUntilAsync<T>(
  read: () => Promise<T | undefined>,
  description: string,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${description}`);
    await sleep(ASYNC_POLL_MS);
  }
}

/**
 * Asserts that `read()` equals `expected` now and keeps equalling it for `quietMs`, failing at the first change.
 * Call it after waiting for the outcome the test guards, never instead of that. Returning an object with named
 * counts (`{ creates: …, updates: … }`) makes a failure say which one moved.
 */
export async function expectStaysAt<T>(expected: T, read: () => T, quietMs = QUIET_MS): Promise<void> {
  const until = Date.now() + quietMs;
  for (;;) {
    expect(read(), `expected to stay at ${JSON.stringify(expected)} for ${quietMs} ms`).toEqual(expected);
    const left = until - Date.now();
    if (left <= 0) return;
    await sleep(Math.min(POLL_MS, left));
  }
}

/** Requests arriving at one HTTP server of this process, counted before any injected delay holds their answer. */
export interface Arrivals {
  /** How many requests for `path` (no query string) have arrived so far. */
  count(path: string): number;
  stop(): void;
}

/**
 * Watches requests arriving at the in-process server behind `baseUrl` (e.g. the payment API simulator). The
 * simulator logs a request only once it is answered, so a request held by an injected delay is invisible
 * there until the delay ends; this sees it the moment it arrives.
 */
export function watchArrivals(baseUrl: string): Arrivals {
  const port = Number(new URL(baseUrl).port);
  const paths: string[] = [];
  const onStart = (message: unknown): void => {
    const { request, server } = message as { request: IncomingMessage; server: Server };
    if ((server.address() as AddressInfo | null)?.port !== port) return;
    paths.push(new URL(request.url ?? '/', 'http://arrivals.local').pathname);
  };
  subscribe('http.server.request.start', onStart);
  return {
    count: (path) => paths.filter((p) => p === path).length,
    stop: () => {
      unsubscribe('http.server.request.start', onStart);
    },
  };
}
