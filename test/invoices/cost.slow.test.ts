// What following invoices costs an idle poll, measured by the requests the simulator answered: with 100
// open invoices, each poll makes at most INVOICE_FOLLOW.checksPerPoll invoice-info requests on top of the alert
// poller's own reads, so an hour of polls a minute apart makes at most 300, however many invoices are open.
import { afterEach, describe, expect, it } from 'vitest';
import { INVOICE_FOLLOW } from '../../src/features/invoices/followed.js';
import { HOUR, type InvoiceRig, MINUTE, startInvoiceRig } from './rig.js';

let rig: InvoiceRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Idle polls a minute apart: requests per poll (most, and of invoice-info), and each invoice's checks. */
async function idlePolls(r: InvoiceRig, ids: readonly string[], polls = 60) {
  r.simulator.resetRequests();
  let most = 0;
  let mostChecks = 0;
  for (let i = 0; i < polls; i++) {
    const before = r.simulator.requestCount();
    const checksBefore = r.simulator.requestCount('getInvoice');
    await r.pollAfter(MINUTE);
    most = Math.max(most, r.simulator.requestCount() - before);
    mostChecks = Math.max(mostChecks, r.simulator.requestCount('getInvoice') - checksBefore);
  }
  const perInvoice = ids.map((id) => r.checksOf(id));
  return {
    most,
    mostChecks,
    checks: r.simulator.requestCount('getInvoice'),
    otherRequests: r.simulator.requestCount() - r.simulator.requestCount('getInvoice'),
    fewestChecksOfOne: Math.min(...perInvoice),
  };
}

describe('an idle poll with 100 open invoices', () => {
  it('100 invoices younger than an hour: 5 checks a poll at most, 300 an hour, each invoice checked about every 20 minutes', async () => {
    rig = await startInvoiceRig({ store: { kind: 'file' } });
    const r = rig;
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push((await r.invoice(`$${i + 1} Burst ${i} --expires 24h`)).id);
    const cost = await idlePolls(r, ids);
    console.log('100 young open invoices, an hour of idle polls:', cost);
    expect(cost.mostChecks).toBe(INVOICE_FOLLOW.checksPerPoll);
    // The first poll, a minute after they were made, finds none due (every 2 minutes): 59 polls of 5.
    expect(cost.checks).toBe(59 * INVOICE_FOLLOW.checksPerPoll);
    // The alert poller's idle reads (4 a poll) plus the checks.
    expect(cost.most).toBeLessThanOrEqual(4 + 2 + INVOICE_FOLLOW.checksPerPoll);
    expect(cost.fewestChecksOfOne).toBeGreaterThanOrEqual(2);
    expect(await r.replica().store.invoices.listInvoices()).toHaveLength(100);
  }, 60_000);

  it('100 invoices made over the last 23 hours: still 5 checks a poll at most', async () => {
    rig = await startInvoiceRig({ store: { kind: 'file' } });
    const r = rig;
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      ids.push((await r.invoice(`$${i + 1} Spread ${i} --expires 24h`)).id);
      r.simulator.advanceTime((23 * HOUR) / 100);
    }
    await idlePolls(r, ids, 20); // 100 overdue at 5 a poll: the backlog is checked in 20 polls
    const cost = await idlePolls(r, ids, 30);
    console.log('100 open invoices made over 23 hours, half an hour of idle polls:', cost);
    expect(cost.mostChecks).toBeLessThanOrEqual(INVOICE_FOLLOW.checksPerPoll);
    expect(cost.checks).toBeLessThanOrEqual(30 * INVOICE_FOLLOW.checksPerPoll);
    expect(cost.most).toBeLessThanOrEqual(4 + 2 + INVOICE_FOLLOW.checksPerPoll);
  }, 60_000);
});
