// Pagination helpers of the payments client against the simulator: page-number walking for withdrawals, cursor
// following for the task list and the gas manager list, and the filters sent with every page.
import { describe, expect, it } from 'vitest';
import type { CursorPage, GasDistribution, PayoutTask } from '../../src/payments/index.js';
import { useSimulator } from './helpers.js';

const shared = useSimulator();

async function collect<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(page);
  return all;
}

const idsOf = <T extends { id: string }>(pages: Array<{ items: T[] }>): string[] =>
  pages.flatMap((page) => page.items.map((item) => item.id));
const queriesOf = (operation: string) =>
  shared.sim.requests.filter((entry) => entry.operation === operation).map((entry) => entry.query);

describe('withdrawalPages', () => {
  it("walks every page, newest first: the ids equal the merchant's withdrawals, none twice", async () => {
    const pages = await collect(shared.client.withdrawalPages(7));
    const ids = idsOf(pages);
    expect(ids).toEqual(shared.sim.ids.withdrawals.all);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toHaveLength(7);
    expect(pages.at(-1)?.items).toHaveLength(45 - 6 * 7);
    expect(queriesOf('listWithdrawals')).toEqual(
      Array.from({ length: 7 }, (_unused, i) => ({ page: String(i + 1), perPage: '7' })),
    );
  });

  it('stops at the last full page without asking for an empty one', async () => {
    const pages = await collect(shared.client.withdrawalPages(9));
    expect(pages.map((page) => page.items.length)).toEqual([9, 9, 9, 9, 9]);
    expect(shared.sim.requestCount('listWithdrawals')).toBe(5);
  });

  it('with the default page size, one request returns all 45', async () => {
    const pages = await collect(shared.client.withdrawalPages());
    expect(pages).toHaveLength(1);
    expect(pages[0]?.totalCount).toBe(45);
    expect(idsOf(pages)).toEqual(shared.sim.ids.withdrawals.all);
  });

  it('maxPages bounds the walk', async () => {
    const pages = await collect(shared.client.withdrawalPages(10, 2));
    expect(idsOf(pages)).toEqual(shared.sim.ids.withdrawals.all.slice(0, 20));
    expect(shared.sim.requestCount('listWithdrawals')).toBe(2);
  });
});

describe('payoutTaskPages', () => {
  it('follows cursorNext until it is null and yields every task once, newest first', async () => {
    const pages = await collect(shared.client.payoutTaskPages());
    const ids = idsOf(pages);
    expect(ids).toHaveLength(shared.sim.ids.tasks.all.length);
    expect(ids).toEqual(shared.sim.ids.tasks.all);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.map((page) => page.items.length)).toEqual([50, 50, 20]);
    expect(pages.at(-1)?.cursorNext).toBeNull();
    // Each request passes on the previous page's cursorNext.
    const cursors = queriesOf('listPayoutTasks').map((query) => query.cursor);
    expect(cursors).toEqual([undefined, pages[0]?.cursorNext, pages[1]?.cursorNext]);
  });

  it('status filter: sent with every page and honoured', async () => {
    const pages = await collect(shared.client.payoutTaskPages({ status: 'failed' }));
    const tasks = pages.flatMap((page) => page.items);
    expect(tasks.map((task) => task.id)).toEqual(shared.sim.ids.tasks.failed);
    for (const task of tasks) expect(task.status).toBe('failed');
    for (const query of queriesOf('listPayoutTasks')) expect(query.status).toBe('failed');
  });

  it("assetId filter: only that asset's tasks, all of them", async () => {
    const everything = (await collect(shared.client.payoutTaskPages())).flatMap((page) => page.items);
    shared.sim.resetRequests();
    const assetId = shared.sim.ids.assets.usdtEth;
    const pages = await collect(shared.client.payoutTaskPages({ assetId }));
    const tasks = pages.flatMap((page) => page.items);
    expect(tasks.map((task) => task.id)).toEqual(
      everything.filter((task) => task.assetId === assetId).map((task) => task.id),
    );
    // Exactly one full page (40 October + 10 November salaries): no request for an empty second page.
    expect(tasks).toHaveLength(50);
    expect(pages.at(-1)?.cursorNext).toBeNull();
    expect(queriesOf('listPayoutTasks')).toEqual([{ assetId }]);
  });

  it('createdAtFrom / createdAtTo given as Dates: sent as ISO-8601 with +00:00 and honoured (inclusive)', async () => {
    const everything = (await collect(shared.client.payoutTaskPages())).flatMap((page) => page.items);
    shared.sim.resetRequests();
    const from = everything[70]!.createdAt;
    const to = everything[10]!.createdAt;
    const tasks = (await collect(shared.client.payoutTaskPages({ createdAtFrom: from, createdAtTo: to }))).flatMap(
      (page) => page.items,
    );
    const expected = everything.filter((task) => task.createdAt >= from && task.createdAt <= to);
    expect(tasks.map((task) => task.id)).toEqual(expected.map((task) => task.id));
    expect(tasks.length).toBeGreaterThanOrEqual(61);
    const query = queriesOf('listPayoutTasks')[0];
    expect(query?.createdAtFrom).toBe(from.toISOString().replace('Z', '+00:00'));
    expect(query?.createdAtTo).toBe(to.toISOString().replace('Z', '+00:00'));
  });

  it('maxPages bounds the walk', async () => {
    const pages = await collect(shared.client.payoutTaskPages({}, 1));
    expect(pages).toHaveLength(1);
    expect(pages[0]?.cursorNext).not.toBeNull();
    expect(shared.sim.requestCount('listPayoutTasks')).toBe(1);
  });

  it('a cursorNext that comes back again ends the walk instead of looping forever', async () => {
    const stuck = { data: [], cursorPrevious: null, cursorNext: 'c2FtZQ' };
    shared.sim.injectFault('listPayoutTasks', { status: 200, body: stuck }, 5);
    const pages: Array<CursorPage<PayoutTask>> = await collect(shared.client.payoutTaskPages());
    expect(pages).toHaveLength(2);
    expect(shared.sim.requestCount('listPayoutTasks')).toBe(2);
  });
});

describe('gasDistributionPages', () => {
  const cancelled = () => new Set(shared.sim.ids.gas.cancelled);

  it('yields every row that is not cancelled, once', async () => {
    const pages = await collect(shared.client.gasDistributionPages());
    const ids = idsOf(pages);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(shared.sim.ids.gas.all.filter((id) => !cancelled().has(id)).sort());
    for (const row of pages.flatMap((page) => page.items)) expect(row.status).not.toBe('cancelled');
    expect(pages.at(-1)?.cursorNext).toBeNull();
    for (const query of queriesOf('listGasDistributions')) expect(query).not.toHaveProperty('status');
  });

  it('{ status: "cancelled" } yields the cancelled rows only, all of them', async () => {
    const rows = (await collect(shared.client.gasDistributionPages({ status: 'cancelled' }))).flatMap(
      (page) => page.items,
    );
    expect(rows.map((row) => row.id).sort()).toEqual([...shared.sim.ids.gas.cancelled].sort());
    for (const row of rows) expect(row.status).toBe('cancelled');
  });

  it('the not_enough_donor_balance row of the second page is found only on page 2', async () => {
    const target = shared.sim.ids.gas.notEnoughDonorOnSecondPage;
    expect(target).not.toBe('');
    const pages: Array<CursorPage<GasDistribution>> = await collect(shared.client.gasDistributionPages());
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]?.items.some((row) => row.id === target)).toBe(false);
    const onPage2 = pages[1]?.items.find((row) => row.id === target);
    expect(onPage2?.subStatus).toBe('not_enough_donor_balance');
    // A caller reading only the first page would miss it.
    const firstOnly = await collect(shared.client.gasDistributionPages({}, 1));
    expect(idsOf(firstOnly)).not.toContain(target);
  });

  it('networkId and createdAtFrom filters are sent and honoured', async () => {
    const everything = (await collect(shared.client.gasDistributionPages())).flatMap((page) => page.items);
    shared.sim.resetRequests();
    const networkId = shared.sim.ids.networks.bsc;
    const from = new Date(Math.min(...everything.map((row) => row.createdAt.getTime())) + 10 * 24 * 3_600_000);
    const rows = (await collect(shared.client.gasDistributionPages({ networkId, createdAtFrom: from }))).flatMap(
      (page) => page.items,
    );
    const expected = everything.filter((row) => row.network.id === networkId && row.createdAt >= from);
    expect(rows.map((row) => row.id).sort()).toEqual(expected.map((row) => row.id).sort());
    expect(rows.length).toBeGreaterThan(0);
    const query = queriesOf('listGasDistributions')[0];
    expect(query).toEqual({ networkId, createdAtFrom: from.toISOString().replace('Z', '+00:00') });
  });
});

describe('a walk while the list changes', () => {
  it('a task added at the top during the walk neither shifts the pages nor appears twice', async () => {
    const walk = shared.client.payoutTaskPages();
    const first = await walk.next();
    if (first.done) throw new Error('the walk yielded no page');
    const added = shared.sim.addPayoutTask();
    const ids = first.value.items.map((task) => task.id);
    for await (const page of walk) ids.push(...page.items.map((task) => task.id));
    expect(ids).toEqual(shared.sim.ids.tasks.all);
    expect(ids).not.toContain(added.id);
  });
});
