// The simulator's control that moves an invoice out of pending, read back over real HTTP as the bot reads
// invoices: any status, the amounts given, nothing else changed; bad input is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, SimulatorStateError, startSimulator } from '../../dev/simulator/index.js';

let sim: PaymentsSimulator;
beforeAll(async () => {
  sim = await startSimulator({ quiet: true, seed: false });
});
afterAll(async () => {
  await sim.close();
});

async function invoiceInfo(id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${sim.url}/1.0/merchant/invoice-info?id=${id}`, { headers: { apiKey: sim.apiKey } });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('setInvoiceStatus', () => {
  it('any status, with the amounts given, as invoice-info answers it; pendingInvoices lists only pending ones', async () => {
    const paid = sim.addInvoice({ productTitle: 'Pro plan' });
    const other = sim.addInvoice({ productTitle: 'Other' });
    const before = await invoiceInfo(paid.id);
    expect(sim.pendingInvoices().map((i) => i.id)).toEqual(expect.arrayContaining([paid.id, other.id]));

    sim.setInvoiceStatus(paid.id, 'partially_paid', { usdCents: '2500' });
    const after = await invoiceInfo(paid.id);
    expect(after).toEqual({ ...before, status: 'partially_paid', usdAmount: '25.00' });
    sim.setInvoiceStatus(paid.id, 'something the spec never names');
    expect((await invoiceInfo(paid.id)).status).toBe('something the spec never names');
    expect(sim.pendingInvoices().map((i) => i.id)).toEqual([other.id]);
    expect(sim.pendingInvoices()[0]).toMatchObject({ productTitle: 'Other', usdAmount: '49.99' });
  });

  it('refuses an unknown invoice, an empty status and amounts that are not whole numbers', () => {
    const invoice = sim.addInvoice();
    expect(() => sim.setInvoiceStatus('00000000-0000-4000-8000-000000000000', 'paid')).toThrow(SimulatorStateError);
    expect(() => sim.setInvoiceStatus(invoice.id, ' ')).toThrow(/cannot be empty/);
    expect(() => sim.setInvoiceStatus(invoice.id, 'paid', { usdCents: '1.5' })).toThrow(/cents/);
    expect(() => sim.setInvoiceStatus(invoice.id, 'paid', { cryptoAmount: '-1' })).toThrow(/base units/);
    expect(invoice.status).toBe('pending');
  });
});
