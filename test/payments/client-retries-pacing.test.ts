// Retries (reads only, never creates), Retry-After handling, and pacing of the three rate-limited endpoints:
// the pure policy functions, the pacer with real time, and the real client against the real simulator.
import { describe, expect, it, vi } from 'vitest';
import {
  type Fault,
  type OperationName,
  type PaymentsSimulator,
  type RequestLogEntry,
  startSimulator,
} from '../../dev/simulator/index.js';
import {
  createPacer,
  type Pacer,
  type PaymentsClient,
  type PaymentsError,
  PaymentsNetworkError,
  PaymentsNotFoundError,
  PaymentsRateLimitedError,
  PaymentsServerError,
  PaymentsUnauthorizedError,
  PaymentsUnexpectedResponseError,
  PaymentsValidationError,
  parseRetryAfter,
  paymentsRetryDelayMs,
  type RetryPolicy,
} from '../../src/payments/index.js';
import { anyRejection, clientFor, rejectionOf, useSimulator } from './helpers.js';

describe('paymentsRetryDelayMs (pure)', () => {
  const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 500, maxRetryAfterMs: 30_000 };
  const server = new PaymentsServerError('getSwap', 503, undefined);

  it('doubles the delay from baseDelayMs on each attempt, capped at maxDelayMs', () => {
    expect(
      [1, 2, 3].map((attempt) => paymentsRetryDelayMs(server, 'GET', attempt, { ...policy, maxAttempts: 10 })),
    ).toEqual([100, 200, 400]);
    expect(paymentsRetryDelayMs(server, 'GET', 4, { ...policy, maxAttempts: 10 })).toBe(500);
    expect(paymentsRetryDelayMs(server, 'GET', 9, { ...policy, maxAttempts: 10 })).toBe(500);
  });

  it('gives up once maxAttempts attempts were made', () => {
    expect(paymentsRetryDelayMs(server, 'GET', 3, policy)).toBe(400);
    expect(paymentsRetryDelayMs(server, 'GET', 4, policy)).toBeUndefined();
    expect(paymentsRetryDelayMs(server, 'GET', 1, { ...policy, maxAttempts: 1 })).toBeUndefined();
  });

  it('never retries a POST, whatever the error', () => {
    for (const error of [
      server,
      new PaymentsNetworkError('createSwap', 'ECONNRESET'),
      new PaymentsRateLimitedError('createSwap', 10),
    ]) {
      expect(paymentsRetryDelayMs(error, 'POST', 1, policy)).toBeUndefined();
    }
  });

  it.each<[string, PaymentsError]>([
    ['validation', new PaymentsValidationError('getSwap', 'Validation failed', [])],
    ['unauthorized', new PaymentsUnauthorizedError('getSwap')],
    ['not found', new PaymentsNotFoundError('getSwap')],
    ['unexpected response', new PaymentsUnexpectedResponseError('getSwap', '(body)', 200)],
    ['a 4xx the spec does not describe', new PaymentsServerError('getSwap', 409, undefined)],
  ])('does not retry a non-transient error (%s)', (_name, error) => {
    expect(error.transient).toBe(false);
    expect(paymentsRetryDelayMs(error, 'GET', 1, policy)).toBeUndefined();
  });

  it('retries network errors and 5xx with backoff', () => {
    expect(paymentsRetryDelayMs(new PaymentsNetworkError('getSwap', 'ETIMEDOUT'), 'GET', 2, policy)).toBe(200);
    expect(paymentsRetryDelayMs(new PaymentsServerError('getSwap', 500, 'x'), 'GET', 1, policy)).toBe(100);
  });

  it('waits exactly the Retry-After of a 429, even beyond maxDelayMs, up to maxRetryAfterMs', () => {
    expect(paymentsRetryDelayMs(new PaymentsRateLimitedError('getDeposit', 1_000), 'GET', 1, policy)).toBe(1_000);
    expect(paymentsRetryDelayMs(new PaymentsRateLimitedError('getDeposit', 30_000), 'GET', 1, policy)).toBe(30_000);
    expect(paymentsRetryDelayMs(new PaymentsRateLimitedError('getDeposit', 0), 'GET', 1, policy)).toBe(0);
  });

  it('surfaces a 429 whose Retry-After is above maxRetryAfterMs instead of waiting', () => {
    expect(paymentsRetryDelayMs(new PaymentsRateLimitedError('getDeposit', 30_001), 'GET', 1, policy)).toBeUndefined();
  });

  it('falls back to backoff for a 429 without Retry-After', () => {
    expect(paymentsRetryDelayMs(new PaymentsRateLimitedError('getDeposit', undefined), 'GET', 2, policy)).toBe(200);
  });
});

describe('parseRetryAfter (pure)', () => {
  const now = Date.UTC(2026, 10, 20, 10, 0, 0);

  it.each([
    ['1', 1_000],
    ['0', 0],
    [' 120 ', 120_000],
  ])('delay-seconds %j → %i ms', (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms);
  });

  it('an HTTP date in the future → the milliseconds until then', () => {
    expect(parseRetryAfter('Fri, 20 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
  });

  it('an HTTP date in the past → 0', () => {
    expect(parseRetryAfter('Fri, 20 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });

  it.each([undefined, '', 'soon', 'not a date'])('no usable header (%j) → undefined', (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });

  // Date.parse reads "1.5" as 2001-01-05 and "-1" as the year -1 (both past, so "retry at once"); such values
  // must be ignored so the normal backoff applies.
  it.each(['1.5', '-1', '2.5'])('an invalid value (%j) is ignored, not read as "retry immediately"', (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });
});

describe('createPacer (real time)', () => {
  it('lets no more than maxPerWindow acquisitions through in any window, in call order', async () => {
    const pacer = createPacer({ maxPerWindow: 5, windowMs: 200 });
    const started = performance.now();
    const grants: Array<{ index: number; at: number }> = [];
    await Promise.all(
      Array.from({ length: 13 }, (_unused, index) =>
        pacer.acquire().then((release) => {
          grants.push({ index, at: performance.now() - started });
          release(); // an instant answer: the slot stays in the window for windowMs from now
        }),
      ),
    );
    expect(grants.map((grant) => grant.index)).toEqual(Array.from({ length: 13 }, (_unused, index) => index));
    const times = grants.map((grant) => grant.at);
    // Window property: the (k+5)-th grant comes a full window after the k-th (1 ms tolerance for timer jitter).
    for (let k = 0; k + 5 < times.length; k++) expect(times[k + 5]! - times[k]!).toBeGreaterThanOrEqual(199);
    // And it does not wait needlessly: the first 5 at once, the 13th in the third window.
    expect(times[4]!).toBeLessThan(100);
    expect(times[12]!).toBeGreaterThanOrEqual(399);
    expect(times[12]!).toBeLessThan(900);
  });

  it('with an injected clock: the sixth caller waits until the first slot leaves the window', async () => {
    let clock = 1_000;
    const pacer = createPacer({ maxPerWindow: 2, windowMs: 50, now: () => clock });
    (await pacer.acquire())();
    (await pacer.acquire())();
    let third = false;
    const pending = pacer.acquire().then(() => (third = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(third).toBe(false);
    clock += 50;
    await pending;
    expect(third).toBe(true);
  });

  it('a request still in flight keeps its slot until its answer is in, and for a window after', async () => {
    let clock = 1_000;
    const pacer = createPacer({ maxPerWindow: 1, windowMs: 50, now: () => clock });
    const release = await pacer.acquire();
    let second = false;
    const pending = pacer.acquire().then(() => (second = true));
    clock += 500; // long past the window, but the first request has not been answered
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(second).toBe(false);
    release();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(second).toBe(false); // answered just now: still inside the window
    clock += 50;
    await pending;
    expect(second).toBe(true);
  });
});

describe('the shared.client against the simulator', () => {
  const shared = useSimulator();

  describe('retries of reads', () => {
    it('a read that meets two 503s then an answer succeeds, after 3 requests', async () => {
      shared.sim.injectFault('getWithdrawal', { status: 503 }, 2);
      const id = shared.sim.ids.withdrawals.all[0]!;
      const withdrawal = await shared.client.getWithdrawal(id);
      expect(withdrawal.id).toBe(id);
      expect(shared.sim.requestCount('getWithdrawal')).toBe(3);
      expect(shared.sim.requests.map((entry) => entry.status)).toEqual([503, 503, 200]);
    });

    it('a read whose connection drops once succeeds on the retry', async () => {
      shared.sim.injectFault('getDeposit', { destroySocket: true });
      const deposit = await shared.client.getDeposit(shared.sim.ids.deposits.frozen);
      expect(deposit.status).toBe('frozen');
      expect(shared.sim.requestCount('getDeposit')).toBe(2);
    });

    it('the waits between attempts double from baseDelayMs and are capped at maxDelayMs', async () => {
      const sleep = vi.fn(async (_ms: number) => {});
      const spied = clientFor(shared.sim, { sleep, retry: { maxAttempts: 5 } });
      shared.sim.injectFault('listAssets', { status: 500 }, 4);
      await spied.listAssets();
      expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([10, 20, 40, 50]);
      expect(shared.sim.requestCount('listAssets')).toBe(5);
    });

    it('a 429 with `Retry-After: 1` is waited for (about a second), then the read succeeds', async () => {
      shared.sim.injectFault('getSwap', { status: 429, headers: { 'Retry-After': '1' } });
      const started = performance.now();
      const swap = await shared.client.getSwap(shared.sim.ids.swaps.inProgress);
      const elapsed = performance.now() - started;
      expect(swap.status).toBe('in_progress');
      expect(elapsed).toBeGreaterThanOrEqual(950);
      expect(elapsed).toBeLessThan(2_500);
      expect(shared.sim.requests.map((entry) => entry.status)).toEqual([429, 200]);
    });

    it('a Retry-After above maxRetryAfterMs is not waited for: the 429 is surfaced at once', async () => {
      const impatient = clientFor(shared.sim, { retry: { maxRetryAfterMs: 500 } });
      shared.sim.injectFault('getSwap', { status: 429, headers: { 'Retry-After': '5' } });
      const started = performance.now();
      const error = await rejectionOf(impatient.getSwap(shared.sim.ids.swaps.inProgress), PaymentsRateLimitedError);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(error.retryAfterMs).toBe(5_000);
      expect(shared.sim.requestCount('getSwap')).toBe(1);
    });
  });

  describe('creates are never retried', () => {
    const creates: Array<[OperationName, (c: PaymentsClient, sim: PaymentsSimulator) => Promise<unknown>]> = [
      ['createInvoice', (c) => c.createInvoice({ usdAmountInCents: 1_999n })],
      [
        'createInvoiceByCrypto',
        (c, s) => c.createInvoiceByCrypto({ cryptoAmount: 10n ** 16n, assetId: s.ids.assets.eth }),
      ],
      [
        'estimateSwap',
        (c, s) =>
          c.estimateSwap({ assetIdFrom: s.ids.assets.usdtEth, assetIdTo: s.ids.assets.usdcEth, amount: 50_000_000n }),
      ],
      ['createSwap', (c) => c.createSwap('2b7f8c1e-9a4d-4e6f-8b3a-5c1d7e9f0a2b')],
      ['createPayout', (c, s) => c.createPayout({ assetId: s.ids.assets.usdtEth, name: 'Never twice' })],
    ];
    const faults: Array<[string, Fault, abstract new (...args: never[]) => Error]> = [
      ['a 503', { status: 503 }, PaymentsServerError],
      ['a dropped connection', { destroySocket: true }, PaymentsNetworkError],
    ];

    for (const [faultName, fault, errorClass] of faults) {
      it.each(creates)(
        `%s meeting ${faultName}: the error is thrown after exactly one request`,
        async (operation, call) => {
          const sleep = vi.fn(async (_ms: number) => {});
          const spied = clientFor(shared.sim, { sleep });
          shared.sim.injectFault(operation, fault);
          const error = await anyRejection(call(spied, shared.sim));
          expect(error).toBeInstanceOf(errorClass);
          expect(shared.sim.requestCount(operation)).toBe(1);
          expect(sleep).not.toHaveBeenCalled();
        },
      );
    }

    it('createSwap meeting a 429 (with Retry-After: 0) is not retried either', async () => {
      shared.sim.injectFault('createSwap', { status: 429, headers: { 'Retry-After': '0' } });
      await rejectionOf(shared.client.createSwap('2b7f8c1e-9a4d-4e6f-8b3a-5c1d7e9f0a2b'), PaymentsRateLimitedError);
      expect(shared.sim.requestCount('createSwap')).toBe(1);
    });
  });

  describe('pacing of the rate-limited endpoints (50 req/s each at the API)', () => {
    /**
     * Largest number of `entries` whose `at` falls within one window starting at any entry. `at` is whole
     * milliseconds of the wall clock while the simulator's limiter uses performance.now(), so the default window is
     * 999 ms: two entries less than 999 wall-clock ms apart are surely less than 1000 limiter ms apart.
     */
    function busiestWindow(entries: readonly RequestLogEntry[], windowMs = 999): number {
      const times = entries.map((entry) => entry.at).sort((x, y) => x - y);
      let busiest = 0;
      for (let start = 0, end = 0; start < times.length; start++) {
        while (end < times.length && times[end]! - times[start]! < windowMs) end++;
        busiest = Math.max(busiest, end - start);
      }
      return busiest;
    }

    function mixedBurst(c: PaymentsClient, deposits: number): Array<Promise<unknown>> {
      const { ids } = shared.sim;
      const calls: Array<Promise<unknown>> = [];
      for (let i = 0; i < deposits; i++) {
        calls.push(c.getDeposit(ids.deposits.success[i % ids.deposits.success.length]!));
        if (i % 16 === 5) calls.push(c.getPayoutTask(ids.tasks.all[i]!));
        if (i % 16 === 13) calls.push(c.listGasDistributions());
      }
      return calls;
    }

    it('only getPayoutTask, getDeposit and listGasDistributions take a pacer slot, one per attempt, and give it back', async () => {
      const release = vi.fn();
      const acquire = vi.fn(async () => release);
      const pacer: Pacer = { acquire };
      const counted = clientFor(shared.sim, { pacer });
      await counted.getWithdrawal(shared.sim.ids.withdrawals.all[0]!);
      await counted.listPayoutTasks();
      await counted.getSwap(shared.sim.ids.swaps.inProgress);
      expect(acquire).not.toHaveBeenCalled();
      await counted.getDeposit(shared.sim.ids.deposits.success[0]!);
      await counted.getPayoutTask(shared.sim.ids.tasks.all[0]!);
      await counted.listGasDistributions();
      expect(acquire).toHaveBeenCalledTimes(3);
      shared.sim.injectFault('getDeposit', { status: 503 }, 2);
      await counted.getDeposit(shared.sim.ids.deposits.success[0]!);
      expect(acquire).toHaveBeenCalledTimes(6);
      expect(release).toHaveBeenCalledTimes(6);
    });

    it('120 concurrent getDeposit calls mixed with getPayoutTask and listGasDistributions all succeed, spread over several windows', async () => {
      const started = performance.now();
      const calls = mixedBurst(shared.client, 120);
      // 120 + 8 + 7: exactly three windows' worth of the client's 45 slots per second.
      expect(calls).toHaveLength(135);
      const results = await Promise.allSettled(calls);
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
      // 135 calls through a 45-per-second pacer need three windows: the last slots open about 2 s after the first.
      expect(performance.now() - started).toBeGreaterThanOrEqual(1_950);
      const served = shared.sim.requests.filter((entry) => entry.status === 200);
      expect(served).toHaveLength(135);
      for (const operation of ['getDeposit', 'getPayoutTask', 'listGasDistributions'] as const) {
        expect(busiestWindow(served.filter((entry) => entry.operation === operation))).toBeLessThanOrEqual(50);
      }
    }, 15_000);

    // The API counts ARRIVALS, which lie anywhere between our send and its answer; the pacer keeps a slot in the
    // window until windowMs after its answer, so bunched arrivals can never exceed the limit.
    it('120 concurrent getDeposit calls (mixed) draw no 429 from the simulator', async () => {
      await Promise.all(mixedBurst(shared.client, 120));
      expect(shared.sim.requests.filter((entry) => entry.status === 429)).toEqual([]);
      expect(
        busiestWindow(shared.sim.requests.filter((entry) => entry.operation === 'getDeposit')),
      ).toBeLessThanOrEqual(50);
    }, 15_000);

    // Deterministic: the first 45 requests are slowed by 300 ms before reaching the server's limiter (an injected
    // delay is applied before the rate-limit check), as a slow network would. A pacer that counted slots from the
    // send would let the second burst in 1 s after the first LEFT, and ~40 of the 90 requests would get a 429.
    it('a first burst that reaches the API late does not make the next burst exceed its 50 req/s', async () => {
      // A simulator of its own: the previous test's burst must not count against this one's window.
      const fresh = await startSimulator({ quiet: true });
      try {
        const noRetry = clientFor(fresh, { retry: { maxAttempts: 1 } });
        fresh.injectFault('getDeposit', { delayMs: 300 }, 45);
        const calls = Array.from({ length: 90 }, (_unused, i) =>
          noRetry.getDeposit(fresh.ids.deposits.success[i % 3]!),
        );
        const results = await Promise.allSettled(calls);
        expect(results.filter((result) => result.status === 'rejected')).toHaveLength(0);
        expect(fresh.requests.filter((entry) => entry.status === 429)).toHaveLength(0);
      } finally {
        await fresh.close();
      }
    }, 15_000);
  });
});
