// The bulk-history generator: counts, spread over the span, failure rate, and that the indexed lists give
// exactly the pages the plain filter-and-sort gives (correctness only; speed is the benchmark's business).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';

const DAY = 86_400_000;
let sim: PaymentsSimulator;
const NOW = Date.UTC(2025, 0, 31);

/** The fields of a listed row these tests read. */
interface WireRow {
  id: string;
  createdAt: string;
}

/** A list page as the wire sends it (page lists have totalCount, cursor lists have the cursors). */
interface WirePage {
  data: WireRow[];
  totalCount?: number;
  cursorNext?: string | null;
  cursorPrevious?: string | null;
}

async function list(path: string): Promise<WirePage> {
  const response = await fetch(`${sim.url}${path}`, { headers: { apiKey: sim.apiKey } });
  expect(response.status).toBe(200);
  return (await response.json()) as WirePage;
}

/** Every row of a cursor list, following cursorNext. */
async function walk(path: string): Promise<WireRow[]> {
  const rows: WireRow[] = [];
  let page = await list(path);
  rows.push(...page.data);
  while (page.cursorNext) {
    page = await list(`${path}${path.includes('?') ? '&' : '?'}cursor=${page.cursorNext}`);
    rows.push(...page.data);
  }
  return rows;
}

describe('bulk history', () => {
  beforeAll(async () => {
    sim = await startSimulator({ seed: true, now: () => NOW });
  });
  afterAll(() => sim.close());

  it('makes N rows of each kind over 30 days, about 5 % failed, a few pending in the last day', () => {
    const summary = sim.loadBulkHistory({ rowsPerKind: 20_000, now: NOW });
    for (const counts of [summary.withdrawals, summary.tasks]) {
      expect(counts.success + counts.failed + counts.pending).toBe(20_000);
      expect(counts.pending).toBe(5);
      expect(counts.failed / 20_000).toBeGreaterThan(0.04);
      expect(counts.failed / 20_000).toBeLessThan(0.06);
    }
    const gas = summary.gas;
    expect(gas.success + gas.failed + gas.pending + gas.cancelled).toBe(20_000);
    expect(gas.failed / 20_000).toBeGreaterThan(0.04);
    expect(gas.notEnoughDonorBalance).toBeGreaterThan(0);
    expect(summary.from).toBe(NOW - 30 * DAY);
  });

  it('spreads rows over the span, newest first, ties broken by id; get by id finds bulk rows', async () => {
    const newest = await list('/1.0/merchant/asset-withdrawals?perPage=100');
    const oldest = await list(
      `/1.0/merchant/asset-withdrawals?perPage=100&page=${Math.ceil(newest.totalCount! / 100)}`,
    );
    const times = [...newest.data, ...oldest.data].map((w) => Date.parse(`${w.createdAt.replace(' ', 'T')}Z`));
    expect(times[0]).toBeLessThan(NOW);
    expect(times[0]).toBeGreaterThan(NOW - DAY);
    expect(times.at(-1)).toBeGreaterThanOrEqual(NOW - 30 * DAY - DAY);
    expect(newest.data.map((w) => Date.parse(`${w.createdAt.replace(' ', 'T')}Z`))).toEqual(
      [...times.slice(0, 100)].sort((a, b) => b - a),
    );
    for (const id of [newest.data[0]!.id, oldest.data[0]!.id]) {
      const one = await fetch(`${sim.url}/1.0/merchant/asset-withdrawal-info?id=${id}`, {
        headers: { apiKey: sim.apiKey },
      });
      expect(((await one.json()) as WireRow).id).toBe(id);
    }
    const tasks = await list(
      `/2.0/mass-payout/tasks?createdAtFrom=${encodeURIComponent(new Date(NOW - 15 * DAY).toISOString())}&createdAtTo=${encodeURIComponent(new Date(NOW - 14 * DAY).toISOString())}`,
    );
    expect(tasks.data.length).toBe(50);
    const task = tasks.data[0]!;
    const one = await fetch(`${sim.url}/2.0/mass-payout/task?id=${task.id}`, { headers: { apiKey: sim.apiKey } });
    expect(((await one.json()) as WireRow).id).toBe(task.id);
  });

  it('the indexed walk gives the same pages as filtering and sorting every row', async () => {
    const from = encodeURIComponent(new Date(NOW - 2 * DAY).toISOString());
    const paths = [
      '/2.0/mass-payout/tasks?status=failed',
      `/2.0/mass-payout/tasks?createdAtFrom=${from}`,
      '/2.0/mass-payout/tasks?status=pending',
      `/2.0/gas-manager/list?createdAtFrom=${from}`,
      '/2.0/gas-manager/list?status=cancelled',
      '/2.0/gas-manager/list?status=failed',
    ];
    // The simulator's internal state: its scan limit picks the plain path (no limit) or the indexed one (0).
    const state = (sim as unknown as { state: { listScanLimit: number } }).state;
    for (const path of paths) {
      state.listScanLimit = Number.MAX_SAFE_INTEGER;
      const firstPlain = await list(path);
      state.listScanLimit = 0;
      const firstIndexed = await list(path);
      expect(firstIndexed, path).toEqual(firstPlain);
      if (firstPlain.cursorNext) {
        const back = `${path}${path.includes('?') ? '&' : '?'}cursor=`;
        state.listScanLimit = Number.MAX_SAFE_INTEGER;
        const second = await list(back + firstPlain.cursorNext);
        const prevPlain = second.cursorPrevious ? await list(back + second.cursorPrevious) : null;
        state.listScanLimit = 0;
        expect(await list(back + firstPlain.cursorNext), path).toEqual(second);
        if (prevPlain) expect(await list(back + second.cursorPrevious), path).toEqual(prevPlain);
      }
    }
    state.listScanLimit = 2000;
  });

  it('updates move rows between status lists; new rows join at the top', async () => {
    const failed = await list('/2.0/mass-payout/tasks?status=pending');
    const id = failed.data.at(-1)!.id;
    sim.updatePayoutTask(id, { status: 'failed', subStatus: 'payout_failed' });
    const pending = await list('/2.0/mass-payout/tasks?status=pending');
    expect(pending.data.map((t) => t.id)).not.toContain(id);
    const at = encodeURIComponent(failed.data.at(-1)!.createdAt);
    const nowFailed = await walk(`/2.0/mass-payout/tasks?status=failed&createdAtFrom=${at}&createdAtTo=${at}`);
    expect(nowFailed.map((t) => t.id)).toContain(id);
    const added = sim.addWithdrawal({ status: 'failed', createdAt: NOW });
    expect((await list('/1.0/merchant/asset-withdrawals?perPage=1')).data[0]!.id).toBe(added.id);
  });
});
