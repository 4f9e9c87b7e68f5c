// The API key never leaves the client: not in any error it throws (message, String, inspect with hidden
// properties, JSON, cause), not in its log lines, not in the client object itself. Every error class the
// simulator can provoke is checked with the literal key values.
import { inspect } from 'node:util';
import got from 'got';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { createLogger } from '../../src/logger.js';
import {
  type PaymentsClient,
  type PaymentsError,
  PaymentsForbiddenError,
  PaymentsNetworkError,
  PaymentsNotFoundError,
  PaymentsRateLimitedError,
  PaymentsServerError,
  PaymentsUnauthorizedError,
  PaymentsUnexpectedResponseError,
  PaymentsValidationError,
} from '../../src/payments/index.js';
import { anyRejection, clientFor } from './helpers.js';

/** A key the simulator does not know, distinctive enough to find anywhere. */
const WRONG_KEY = 'leak-canary-4f9d2b7e1c8a3650';

let sim: PaymentsSimulator;
let lines: string[];
let clients: {
  full: PaymentsClient;
  wrongKey: PaymentsClient;
  noPermissions: PaymentsClient;
  impatient: PaymentsClient;
};

beforeAll(async () => {
  sim = await startSimulator({ quiet: true });
  lines = [];
  const logger = createLogger('debug', (line) => lines.push(line));
  clients = {
    full: clientFor(sim, { logger }),
    wrongKey: clientFor(sim, { logger, apiKey: WRONG_KEY }),
    noPermissions: clientFor(sim, { logger, apiKey: sim.keys.noPermissions }),
    impatient: clientFor(sim, { logger, timeoutMs: 200, retry: { maxAttempts: 2 } }),
  };
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  lines.length = 0;
});
afterEach(() => {
  sim.clearFaults();
});

/** Every rendering of a value a log, a crash report or an error tracker might produce. */
function renderings(value: unknown): string[] {
  const out = [String(value), inspect(value, { depth: 10, showHidden: true }), inspect(value, { depth: 10 })];
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch (error) {
    out.push(`(not JSON: ${String(error)})`);
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? '');
  return out;
}

/** Walks the cause chain of an error. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error instanceof Error ? error.cause : undefined;
  while (current !== undefined && chain.length < 10) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

function expectNoKey(texts: readonly string[], keys: readonly string[]): void {
  for (const text of texts) {
    for (const key of keys) expect(text, `found the API key in: ${text.slice(0, 300)}`).not.toContain(key);
  }
}

type Case = [
  name: string,
  errorClass: abstract new (...args: never[]) => PaymentsError,
  provoke: () => Promise<unknown>,
  keys: () => string[],
];

const cases: Case[] = [
  [
    'network error (dropped connection, all retries)',
    PaymentsNetworkError,
    () => {
      sim.injectFault('getWithdrawal', { destroySocket: true }, 4);
      return clients.full.getWithdrawal(sim.ids.withdrawals.all[0]!);
    },
    () => [sim.apiKey],
  ],
  [
    'network error (dropped connection on a create)',
    PaymentsNetworkError,
    () => {
      sim.injectFault('createInvoice', { destroySocket: true });
      return clients.full.createInvoice({ usdAmountInCents: 4_200n, productTitle: 'canary' });
    },
    () => [sim.apiKey],
  ],
  [
    'network error (timeout)',
    PaymentsNetworkError,
    () => {
      sim.injectFault('getSwap', { delayMs: 1_000 }, 2);
      return clients.impatient.getSwap(sim.ids.swaps.finished[0]!);
    },
    () => [sim.apiKey],
  ],
  [
    '401 unauthorized',
    PaymentsUnauthorizedError,
    () => clients.wrongKey.getDeposit(sim.ids.deposits.success[0]!),
    () => [WRONG_KEY],
  ],
  [
    '403 forbidden',
    PaymentsForbiddenError,
    () => clients.noPermissions.listPayoutTasks(),
    () => [sim.keys.noPermissions],
  ],
  ['404 not found', PaymentsNotFoundError, () => clients.full.getPayoutTask(sim.ids.foreign.task), () => [sim.apiKey]],
  [
    '429 rate limited',
    PaymentsRateLimitedError,
    () => {
      sim.injectFault('getDeposit', { status: 429, headers: { 'Retry-After': '0' } }, 4);
      return clients.full.getDeposit(sim.ids.deposits.success[0]!);
    },
    () => [sim.apiKey],
  ],
  [
    '500 server error',
    PaymentsServerError,
    () => {
      sim.injectFault('listGasDistributions', { status: 500 }, 4);
      return clients.full.listGasDistributions();
    },
    () => [sim.apiKey],
  ],
  ['400 validation', PaymentsValidationError, () => clients.full.getWithdrawal('not-a-uuid'), () => [sim.apiKey]],
  [
    '400 business error',
    PaymentsValidationError,
    () => clients.full.createSwap('2b7f8c1e-9a4d-4e6f-8b3a-5c1d7e9f0a2b'),
    () => [sim.apiKey],
  ],
  [
    'malformed JSON',
    PaymentsUnexpectedResponseError,
    () => {
      sim.injectFault('getAsset', { malformedJson: true });
      return clients.full.getAsset(sim.ids.assets.eth);
    },
    () => [sim.apiKey],
  ],
  [
    'wrong field type (ZodError cause)',
    PaymentsUnexpectedResponseError,
    () => {
      const id = sim.ids.withdrawals.all[0]!;
      sim.injectFault('getWithdrawal', { status: 200, body: { ...sim.getRaw('withdrawal', id), amount: 12.5 } });
      return clients.full.getWithdrawal(id);
    },
    () => [sim.apiKey],
  ],
];

describe('the API key never appears in an error or a log line', () => {
  it.each(cases)('%s', async (_name, errorClass, provoke, keys) => {
    const error = await anyRejection(provoke());
    expect(error).toBeInstanceOf(errorClass);
    const secret = keys();
    expectNoKey(renderings(error), secret);
    for (const cause of causes(error)) expectNoKey(renderings(cause), secret);
    // The client logged the attempt(s) at debug level, without the key.
    expect(lines.length).toBeGreaterThan(0);
    expectNoKey(lines, [...secret, sim.apiKey]);
  });

  it("the successful calls' log lines carry no key either", async () => {
    await clients.full.getDeposit(sim.ids.deposits.success[0]!);
    await clients.full.createInvoice({ usdAmountInCents: 100n });
    expect(lines.length).toBe(2);
    expectNoKey(lines, [sim.apiKey]);
  });

  it('inspecting the client object does not show the key', () => {
    for (const client of Object.values(clients)) {
      expectNoKey(
        [inspect(client, { depth: 10, showHidden: true }), String(client)],
        [sim.apiKey, WRONG_KEY, sim.keys.noPermissions],
      );
    }
  });

  it('control: a raw got error for the same request does show the key, so these renderings would catch a leak', async () => {
    sim.injectFault('listAssets', { destroySocket: true });
    const raw = await anyRejection(
      got(`${sim.url}/1.0/merchant/assets`, { headers: { apiKey: sim.apiKey }, retry: { limit: 0 } }),
    );
    expect(renderings(raw).some((text) => text.includes(sim.apiKey))).toBe(true);
  });

  it('the canary really is what the client sends (the checks above look for the right string)', async () => {
    // The simulator answers 401 only because it received exactly WRONG_KEY; with the full key the same call works.
    await expect(clients.wrongKey.listAssets()).rejects.toBeInstanceOf(PaymentsUnauthorizedError);
    await expect(clients.full.listAssets()).resolves.toHaveLength(7);
  });
});
