// Shared helpers of the payments client tests: a client pointed at a running simulator, and error capture.
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { createPaymentsClient, type PaymentsClient, type PaymentsHttpOptions } from '../../src/payments/index.js';

/** Fast retries so that exhausting them takes milliseconds. */
const FAST_RETRY = { baseDelayMs: 10, maxDelayMs: 50 } as const;

/** The real client, pointed at the simulator with merchant A's full key (overridable). */
export function clientFor(sim: PaymentsSimulator, overrides: Partial<PaymentsHttpOptions> = {}): PaymentsClient {
  return createPaymentsClient({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    ...overrides,
    retry: { ...FAST_RETRY, ...overrides.retry },
  });
}

/** A simulator and a client pointed at it, shared by the tests of one file or describe. */
export interface SimulatorContext {
  sim: PaymentsSimulator;
  client: PaymentsClient;
}

/**
 * Starts a simulator and a client for the enclosing file or describe, and gives each test a clean request
 * log and no leftover faults. The fields are filled in by `beforeAll`, so read them inside tests only.
 */
export function useSimulator(): SimulatorContext {
  const context = {} as SimulatorContext;
  beforeAll(async () => {
    context.sim = await startSimulator({ quiet: true });
    context.client = clientFor(context.sim);
  });
  afterAll(() => context.sim.close());
  beforeEach(() => context.sim.resetRequests());
  afterEach(() => context.sim.clearFaults());
  return context;
}

type ErrorClass<E> = abstract new (...args: never[]) => E;

/** Awaits a promise that must reject with an instance of `type`, and returns that error. */
export async function rejectionOf<E>(promise: Promise<unknown>, type: ErrorClass<E>): Promise<E> {
  let outcome: { resolved: true; value: unknown } | { resolved: false; error: unknown };
  try {
    outcome = { resolved: true, value: await promise };
  } catch (error) {
    outcome = { resolved: false, error };
  }
  if (outcome.resolved)
    throw new Error(`expected a rejection with ${type.name}, got a value: ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(type);
  return outcome.error as E;
}

/** Any rejection at all (for tests that inspect whatever the client threw). */
export async function anyRejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** A string field of a raw simulator record. */
export function rawString(raw: Record<string, unknown> | undefined, field: string): string {
  const value = raw?.[field];
  if (typeof value !== 'string') throw new Error(`raw record has no string field ${field}`);
  return value;
}

/** The instant a simulator `YYYY-MM-DD HH:MM:SS` (UTC) string denotes, parsed independently of the client. */
export function sqlUtcToMs(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}Z`);
}
