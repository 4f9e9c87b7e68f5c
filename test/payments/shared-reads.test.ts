// Balance reads at the same moment share one request to the API (over real HTTP to the simulator).
import { describe, expect, it } from 'vitest';
import { createPaymentsClient, PaymentsServerError, SHARED_READ_WINDOW_MS } from '../../src/payments/index.js';
import { useSimulator } from './helpers.js';

const shared = useSimulator();

describe('listAssets: reads at the same moment share one request', () => {
  it('twenty reads while one is waiting for the API make one request; each caller gets the same answer', async () => {
    shared.sim.injectFault('listAssets', { delayMs: 300 }, 1);
    const reads = await Promise.all(Array.from({ length: 20 }, () => shared.client.listAssets()));
    expect(shared.sim.requestCount('listAssets')).toBe(1);
    const expected = await shared.client.listAssets(); // after the shared read was answered: a new request
    expect(shared.sim.requestCount('listAssets')).toBe(2);
    for (const assets of reads)
      expect(assets.map((a) => [a.id, a.balance])).toEqual(expected.map((a) => [a.id, a.balance]));
  });

  it('a caller cannot change what another reads: the assets are frozen and each caller has its own list', async () => {
    shared.sim.injectFault('listAssets', { delayMs: 100 }, 1);
    const [first, second] = await Promise.all([shared.client.listAssets(), shared.client.listAssets()]);
    expect(shared.sim.requestCount('listAssets')).toBe(1);
    first.pop();
    expect(second.length).toBe(first.length + 1);
    expect(() => {
      (second[0] as { balance: string }).balance = '0';
    }).toThrow(TypeError);
  });

  it('a read that begins later than the window after the waiting one makes its own request', async () => {
    let clock = 0;
    const client = createPaymentsClient({ baseUrl: shared.sim.url, apiKey: shared.sim.apiKey, clock: () => clock });
    shared.sim.injectFault('listAssets', { delayMs: 400 }, 2);
    const first = client.listAssets();
    clock += SHARED_READ_WINDOW_MS - 1;
    const joined = client.listAssets();
    clock += 1;
    const own = client.listAssets();
    await Promise.all([first, joined, own]);
    expect(shared.sim.requestCount('listAssets')).toBe(2);
  });

  it('a failed read is shared by those waiting on it, and the next read tries again', async () => {
    shared.sim.injectFault('listAssets', { status: 500, delayMs: 100 }, 10);
    const client = createPaymentsClient({
      baseUrl: shared.sim.url,
      apiKey: shared.sim.apiKey,
      retry: { maxAttempts: 1 },
    });
    const results = await Promise.allSettled([client.listAssets(), client.listAssets(), client.listAssets()]);
    for (const result of results)
      expect(result.status === 'rejected' && result.reason).toBeInstanceOf(PaymentsServerError);
    expect(shared.sim.requestCount('listAssets')).toBe(1);
    shared.sim.clearFaults();
    await expect(client.listAssets()).resolves.not.toHaveLength(0);
    expect(shared.sim.requestCount('listAssets')).toBe(2);
  });
});
