// The rules of following an invoice around its expiry: still `pending` just after `expiredAt` is not "expired
// unpaid" yet (a payment in its last seconds, or our clock ahead of the API's); a minute after it, it is.
import { describe, expect, it } from 'vitest';
import {
  INVOICE_FOLLOW,
  type InvoiceSnapshot,
  newFollowedInvoice,
  recordCheck,
} from '../../../src/features/invoices/followed.js';

const CREATED = new Date('2026-11-24T09:00:00.000Z');
const EXPIRES = new Date('2026-11-24T10:00:00.000Z');
const invoice = (status: string): InvoiceSnapshot => ({
  id: '00000000-0000-4000-8000-000000000001',
  status,
  usdAmount: '49.99',
  cryptoAmount: null,
  crypto: null,
  network: null,
  paymentPageLink: 'https://pay.example.test/invoice/1',
  productTitle: 'Pro plan',
  extraData: null,
  address: null,
  expiredAt: EXPIRES.toISOString(),
});
const pastExpiry = (ms: number) => new Date(EXPIRES.getTime() + ms);

describe('an invoice checked around its expiry', () => {
  it('still pending 30 s after expiredAt stays open, and is checked again when the margin has passed', () => {
    const record = newFollowedInvoice(invoice('pending'), 'U0RILEY', CREATED);
    expect(recordCheck(record, invoice('pending'), pastExpiry(30_000))).toBe('open');
    expect(record.outcome).toBeUndefined();
    expect(record.nextCheckAt).toBe(pastExpiry(INVOICE_FOLLOW.afterExpiryMs).toISOString());
  });

  it('paid in its last seconds (seen in the margin) is told as paid, not expired', () => {
    const record = newFollowedInvoice(invoice('pending'), 'U0RILEY', CREATED);
    expect(recordCheck(record, invoice('pending'), pastExpiry(10_000))).toBe('open');
    expect(recordCheck(record, invoice('paid'), pastExpiry(INVOICE_FOLLOW.afterExpiryMs))).toBe('changed');
    expect(record.outcome?.kind).toBe('changed');
  });

  it('still pending once the margin has passed is "expired unpaid"', () => {
    const record = newFollowedInvoice(invoice('pending'), 'U0RILEY', CREATED);
    expect(recordCheck(record, invoice('pending'), pastExpiry(INVOICE_FOLLOW.afterExpiryMs))).toBe('expired');
    expect(record.outcome?.kind).toBe('expired');
  });
});
