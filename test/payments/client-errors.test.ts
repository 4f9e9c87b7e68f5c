// What a caller of the payments client sees when things go wrong: one typed error class per kind of failure,
// with the fields a caller branches on, provoked against the real simulator over HTTP.
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { ZodError } from 'zod';
import { startSimulator } from '../../dev/simulator/index.js';
import {
  type PaymentsClient,
  PaymentsError,
  PaymentsForbiddenError,
  PaymentsNetworkError,
  PaymentsNotFoundError,
  PaymentsRateLimitedError,
  PaymentsServerError,
  PaymentsUnauthorizedError,
  PaymentsUnexpectedResponseError,
  PaymentsValidationError,
} from '../../src/payments/index.js';
import { clientFor, rejectionOf, useSimulator } from './helpers.js';

const shared = useSimulator();

describe('400 validation → PaymentsValidationError', () => {
  it('getWithdrawal with an id that is not a UUID: apiMessage and the field errors of the envelope', async () => {
    const error = await rejectionOf(shared.client.getWithdrawal('not-a-uuid'), PaymentsValidationError);
    expect(error).toBeInstanceOf(PaymentsError);
    expect(error).toMatchObject({
      code: 'validation',
      transient: false,
      status: 400,
      operation: 'getWithdrawal',
      apiMessage: 'Validation failed',
      fieldErrors: [{ field: 'id', messages: ['id must be a UUID'] }],
    });
    expect(error.message).toContain('id must be a UUID');
    expect(error.name).toBe('PaymentsValidationError');
    // Not retried: a 400 will not get better.
    expect(shared.sim.requestCount('getWithdrawal')).toBe(1);
  });

  it("getInvoice of another merchant's invoice: `Invoice not found` in the envelope", async () => {
    const error = await rejectionOf(shared.client.getInvoice(shared.sim.ids.foreign.invoice), PaymentsValidationError);
    expect(error.apiMessage).toBe('Invoice not found');
    expect(error.fieldErrors).toEqual([{ field: 'id', messages: ['Invoice not found'] }]);
  });

  const a = () => shared.sim.ids.assets;
  const ONE = 10n ** 18n;
  it.each([
    [
      'Native currency not supported as target',
      () => ({ assetIdFrom: a().usdtEth, assetIdTo: a().eth, amount: 100_000_000n }),
    ],
    ['Min swap amount is 10 USDT', () => ({ assetIdFrom: a().usdtEth, assetIdTo: a().usdcEth, amount: 1_000_000n })],
    [
      'Asset from not found',
      () => ({ assetIdFrom: shared.sim.ids.foreign.assetUsdt, assetIdTo: a().usdcEth, amount: 100_000_000n }),
    ],
    [
      'Asset to not found',
      () => ({ assetIdFrom: a().usdtEth, assetIdTo: shared.sim.ids.foreign.assetUsdt, amount: 100_000_000n }),
    ],
    ['Unsupported source currency', () => ({ assetIdFrom: a().daiEth, assetIdTo: a().usdcEth, amount: 100n * ONE })],
    ['Unsupported target currency', () => ({ assetIdFrom: a().usdtEth, assetIdTo: a().daiEth, amount: 100_000_000n })],
    [
      'Unsupported source network',
      () => ({ assetIdFrom: a().usdcPolygon, assetIdTo: a().usdtEth, amount: 100_000_000n }),
    ],
    [
      'Unsupported target network',
      () => ({ assetIdFrom: a().usdtEth, assetIdTo: a().usdcPolygon, amount: 100_000_000n }),
    ],
    ['No route found', () => ({ assetIdFrom: a().bnb, assetIdTo: a().usdcEth, amount: ONE })],
  ])('estimateSwap refused with `%s`', async (message, input) => {
    const error = await rejectionOf(shared.client.estimateSwap(input()), PaymentsValidationError);
    expect(error.apiMessage).toBe(message);
    expect(error.fieldErrors).toEqual([]);
    expect(error.operation).toBe('estimateSwap');
    expect(error.message).toBe(`estimateSwap: ${message}`);
  });

  it('createSwap with an unknown estimate: `Estimate not found`', async () => {
    const error = await rejectionOf(shared.client.createSwap(randomUUID()), PaymentsValidationError);
    expect(error.apiMessage).toBe('Estimate not found');
    expect(error.operation).toBe('createSwap');
  });

  it('createSwap with an estimate already used: `Estimate not found`', async () => {
    const estimate = await shared.client.estimateSwap({
      assetIdFrom: shared.sim.ids.assets.usdcEth,
      assetIdTo: shared.sim.ids.assets.usdtEth,
      amount: 20_000_000n,
    });
    await shared.client.createSwap(estimate.id);
    const error = await rejectionOf(shared.client.createSwap(estimate.id), PaymentsValidationError);
    expect(error.apiMessage).toBe('Estimate not found');
  });

  it('createSwap for more than the available balance: `Balance not enough`', async () => {
    const assetId = shared.sim.ids.assets.usdcEth;
    const original = (shared.sim.getRecord('asset', assetId) as { balance: string }).balance;
    const estimate = await shared.client.estimateSwap({
      assetIdFrom: assetId,
      assetIdTo: shared.sim.ids.assets.usdtEth,
      amount: 100_000_000n,
    });
    shared.sim.setAssetBalance(assetId, 50_000_000n);
    try {
      const error = await rejectionOf(shared.client.createSwap(estimate.id), PaymentsValidationError);
      expect(error.apiMessage).toBe('Balance not enough');
      expect(error.status).toBe(400);
    } finally {
      shared.sim.setAssetBalance(assetId, original);
    }
  });

  it("createInvoiceByCrypto with another merchant's asset: `Asset not found` with its field error", async () => {
    const error = await rejectionOf(
      shared.client.createInvoiceByCrypto({ cryptoAmount: 1_000_000n, assetId: shared.sim.ids.foreign.assetUsdt }),
      PaymentsValidationError,
    );
    expect(error.apiMessage).toBe('Asset not found');
    expect(error.fieldErrors).toEqual([{ field: 'assetId', messages: ['Asset not found'] }]);
  });

  it('listPayoutTasks with an invalid status: the field error names `status`', async () => {
    const error = await rejectionOf(shared.client.listPayoutTasks({ status: 'done' }), PaymentsValidationError);
    expect(error.fieldErrors[0]?.field).toBe('status');
  });

  it('a 400 whose body is not the envelope still gives a PaymentsValidationError with a generic message', async () => {
    shared.sim.injectFault('getSwap', { status: 400, body: '<html>Bad Request</html>' });
    const error = await rejectionOf(shared.client.getSwap(shared.sim.ids.swaps.finished[0]!), PaymentsValidationError);
    expect(error.apiMessage).toBe('The payment API rejected the request');
    expect(error.fieldErrors).toEqual([]);
  });
});

describe('401 → PaymentsUnauthorizedError', () => {
  it.each([
    ['getWithdrawal', (c: PaymentsClient) => c.getWithdrawal(shared.sim.ids.withdrawals.all[0]!)],
    ['getDeposit', (c: PaymentsClient) => c.getDeposit(shared.sim.ids.deposits.success[0]!)],
    ['createInvoice', (c: PaymentsClient) => c.createInvoice({ usdAmountInCents: 100n })],
  ] as const)('%s with a key the API does not know, sent once and not retried', async (operation, call) => {
    const wrongKey = clientFor(shared.sim, { apiKey: 'shared.sim-full-0000000000000000' });
    const error = await rejectionOf(call(wrongKey), PaymentsUnauthorizedError);
    expect(error).toMatchObject({ code: 'unauthorized', status: 401, transient: false, operation });
    expect(shared.sim.requestCount(operation)).toBe(1);
  });
});

describe('403 → PaymentsForbiddenError with the missing permission', () => {
  it.each([
    ['getWithdrawal', 'withdrawal', (c: PaymentsClient) => c.getWithdrawal(shared.sim.ids.withdrawals.all[0]!)],
    ['listWithdrawals', 'withdrawal', (c: PaymentsClient) => c.listWithdrawals()],
    ['listPayoutTasks', 'can_payout', (c: PaymentsClient) => c.listPayoutTasks()],
    ['getPayoutTask', 'can_payout', (c: PaymentsClient) => c.getPayoutTask(shared.sim.ids.tasks.all[0]!)],
    ['getDeposit', 'can_invoice', (c: PaymentsClient) => c.getDeposit(shared.sim.ids.deposits.success[0]!)],
    ['listGasDistributions', 'can_invoice', (c: PaymentsClient) => c.listGasDistributions()],
  ] as const)('%s with a key lacking it → permission %s', async (operation, permission, call) => {
    const noPermissions = clientFor(shared.sim, { apiKey: shared.sim.keys.noPermissions });
    const error = await rejectionOf(call(noPermissions), PaymentsForbiddenError);
    expect(error).toMatchObject({ code: 'forbidden', status: 403, transient: false, operation, permission });
    expect(error.message).toContain(permission);
    expect(shared.sim.requestCount(operation)).toBe(1);
  });
});

describe('404 → PaymentsNotFoundError (unknown and foreign ids look the same)', () => {
  const cases = [
    ['getWithdrawal', 'withdrawal', (c: PaymentsClient, id: string) => c.getWithdrawal(id)],
    ['getSwap', 'swap', (c: PaymentsClient, id: string) => c.getSwap(id)],
    ['getPayoutTask', 'task', (c: PaymentsClient, id: string) => c.getPayoutTask(id)],
    ['getDeposit', 'deposit', (c: PaymentsClient, id: string) => c.getDeposit(id)],
  ] as const;

  it.each(cases)("%s of another merchant's record", async (operation, kind, call) => {
    const error = await rejectionOf(call(shared.client, shared.sim.ids.foreign[kind]), PaymentsNotFoundError);
    expect(error).toMatchObject({ code: 'not_found', status: 404, transient: false, operation });
    expect(shared.sim.requestCount(operation)).toBe(1);
  });

  it.each(cases)('%s of a random UUID', async (operation, _kind, call) => {
    const error = await rejectionOf(call(shared.client, randomUUID()), PaymentsNotFoundError);
    expect(error).toMatchObject({ code: 'not_found', status: 404, operation });
  });
});

describe('429 → PaymentsRateLimitedError', () => {
  it('a read answered 429 on every attempt: retried up to maxAttempts, waiting the Retry-After each time, then surfaced', async () => {
    const sleep = vi.fn(async (_ms: number) => {});
    const spied = clientFor(shared.sim, { sleep });
    shared.sim.injectFault('getSwap', { status: 429, headers: { 'Retry-After': '2' } }, 4);
    const error = await rejectionOf(spied.getSwap(shared.sim.ids.swaps.finished[0]!), PaymentsRateLimitedError);
    expect(error).toMatchObject({
      code: 'rate_limited',
      status: 429,
      transient: true,
      retryAfterMs: 2000,
      operation: 'getSwap',
    });
    expect(shared.sim.requestCount('getSwap')).toBe(4);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([2000, 2000, 2000]);
  });

  it('a Retry-After given as an HTTP date becomes milliseconds', async () => {
    const sleep = vi.fn(async (_ms: number) => {});
    const spied = clientFor(shared.sim, { sleep, retry: { maxAttempts: 1 } });
    const inTwentySeconds = new Date(Date.now() + 20_000).toUTCString();
    shared.sim.injectFault('getWithdrawal', { status: 429, headers: { 'Retry-After': inTwentySeconds } });
    const error = await rejectionOf(spied.getWithdrawal(shared.sim.ids.withdrawals.all[0]!), PaymentsRateLimitedError);
    expect(error.retryAfterMs).toBeGreaterThan(15_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(20_000);
  });
});

describe('5xx → PaymentsServerError', () => {
  it.each([500, 503])(
    'a read answered %i on every attempt: retried, then surfaced with the status and API message',
    async (status) => {
      shared.sim.injectFault('getDeposit', { status }, 4);
      const error = await rejectionOf(
        shared.client.getDeposit(shared.sim.ids.deposits.success[0]!),
        PaymentsServerError,
      );
      expect(error).toMatchObject({ code: 'server', status, transient: true, operation: 'getDeposit' });
      expect(error.apiMessage).toBe(status === 500 ? 'Internal server error' : 'Service unavailable');
      expect(error.message).toContain(`HTTP ${status}`);
      expect(shared.sim.requestCount('getDeposit')).toBe(4);
    },
  );

  it('a 5xx with an empty body has no apiMessage', async () => {
    shared.sim.injectFault('listAssets', { status: 502, body: '' }, 4);
    const error = await rejectionOf(shared.client.listAssets(), PaymentsServerError);
    expect(error.status).toBe(502);
    expect(error.apiMessage).toBeUndefined();
  });
});

describe('no HTTP answer → PaymentsNetworkError', () => {
  it('the connection is dropped on every attempt: networkCode ECONNRESET, after all retries', async () => {
    shared.sim.injectFault('getWithdrawal', { destroySocket: true }, 4);
    const error = await rejectionOf(
      shared.client.getWithdrawal(shared.sim.ids.withdrawals.all[0]!),
      PaymentsNetworkError,
    );
    expect(error).toMatchObject({
      code: 'network',
      transient: true,
      networkCode: 'ECONNRESET',
      operation: 'getWithdrawal',
    });
    expect(error.status).toBeUndefined();
    expect(shared.sim.requestCount('getWithdrawal')).toBe(4);
  });

  it('the answer comes later than timeoutMs: networkCode ETIMEDOUT', async () => {
    const impatient = clientFor(shared.sim, { timeoutMs: 200, retry: { maxAttempts: 1 } });
    shared.sim.injectFault('getSwap', { delayMs: 1_500 });
    const started = performance.now();
    const error = await rejectionOf(impatient.getSwap(shared.sim.ids.swaps.finished[0]!), PaymentsNetworkError);
    expect(error.networkCode).toBe('ETIMEDOUT');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('nothing listens at the base URL: networkCode ECONNREFUSED', async () => {
    const closed = await startSimulator({ quiet: true, seed: false });
    const url = closed.url;
    await closed.close();
    const nowhere = clientFor(shared.sim, { baseUrl: url, retry: { maxAttempts: 1 } });
    const error = await rejectionOf(nowhere.listAssets(), PaymentsNetworkError);
    expect(error.networkCode).toBe('ECONNREFUSED');
  });
});

describe("an answer not in the spec's shape → PaymentsUnexpectedResponseError", () => {
  it('a truncated JSON body: field `(body)`, not retried', async () => {
    shared.sim.injectFault('getWithdrawal', { malformedJson: true });
    const error = await rejectionOf(
      shared.client.getWithdrawal(shared.sim.ids.withdrawals.all[0]!),
      PaymentsUnexpectedResponseError,
    );
    expect(error).toMatchObject({
      code: 'unexpected_response',
      field: '(body)',
      status: 200,
      transient: false,
      operation: 'getWithdrawal',
    });
    expect(shared.sim.requestCount('getWithdrawal')).toBe(1);
  });

  it('a withdrawal whose amount is a JSON number: field `amount`, cause is the ZodError', async () => {
    const id = shared.sim.ids.withdrawals.all[0]!;
    shared.sim.injectFault('getWithdrawal', {
      status: 200,
      body: { ...shared.sim.getRaw('withdrawal', id), amount: 12.5 },
    });
    const error = await rejectionOf(shared.client.getWithdrawal(id), PaymentsUnexpectedResponseError);
    expect(error.field).toBe('amount');
    expect(error.cause).toBeInstanceOf(ZodError);
    expect(error.message).toContain('amount');
  });

  it('a nested field of the wrong type is named by its dotted path', async () => {
    const id = shared.sim.ids.deposits.success[0]!;
    const raw = shared.sim.getRaw('deposit', id)!;
    shared.sim.injectFault('getDeposit', {
      status: 200,
      body: { ...raw, fee: { ...(raw.fee as object), service: { amount: '1' } } },
    });
    const error = await rejectionOf(shared.client.getDeposit(id), PaymentsUnexpectedResponseError);
    expect(error.field).toMatch(/^fee\.service\./);
  });

  it('a timestamp in the wrong format is refused at its field', async () => {
    const id = shared.sim.ids.withdrawals.all[0]!;
    shared.sim.injectFault('getWithdrawal', {
      status: 200,
      body: { ...shared.sim.getRaw('withdrawal', id), createdAt: '2026-11-20T10:15:30Z' },
    });
    const error = await rejectionOf(shared.client.getWithdrawal(id), PaymentsUnexpectedResponseError);
    expect(error.field).toBe('createdAt');
  });

  // Date.UTC rolls impossible dates over ("2026-02-31" would become March 3); the parser must refuse them.
  it('an impossible calendar date (February 31) is refused, not rolled over into March', async () => {
    const id = shared.sim.ids.withdrawals.all[0]!;
    shared.sim.injectFault('getWithdrawal', {
      status: 200,
      body: { ...shared.sim.getRaw('withdrawal', id), createdAt: '2026-02-31 10:00:00' },
    });
    const error = await rejectionOf(shared.client.getWithdrawal(id), PaymentsUnexpectedResponseError);
    expect(error.field).toBe('createdAt');
  });

  it('an empty 200 body: field `(body)`', async () => {
    shared.sim.injectFault('getAsset', { status: 200, body: '' });
    const error = await rejectionOf(shared.client.getAsset(shared.sim.ids.assets.eth), PaymentsUnexpectedResponseError);
    expect(error.field).toBe('(body)');
  });
});

describe('input the shared.client refuses before sending', () => {
  it.each([
    ['createInvoice with zero cents', (c: PaymentsClient) => c.createInvoice({ usdAmountInCents: 0n })],
    [
      'createInvoice with paymentDelayTime above 86400',
      (c: PaymentsClient) => c.createInvoice({ usdAmountInCents: 100n, paymentDelayTime: 86_401 }),
    ],
    [
      'createInvoiceByCrypto with a zero amount',
      (c: PaymentsClient) => c.createInvoiceByCrypto({ cryptoAmount: 0n, assetId: shared.sim.ids.assets.eth }),
    ],
  ] as const)('%s: RangeError, nothing sent', async (_name, call) => {
    await expect((async () => call(shared.client))()).rejects.toThrow(RangeError);
    expect(shared.sim.requestCount()).toBe(0);
  });

  // A caller that writes `client.createInvoice(x).catch(handle)` must get a rejection, not a synchronous throw.
  it('an out-of-range input rejects the returned promise rather than throwing synchronously', async () => {
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = shared.client.createInvoice({ usdAmountInCents: 0n });
    }).not.toThrow();
    await expect(promise).rejects.toThrow(RangeError);
  });
});
