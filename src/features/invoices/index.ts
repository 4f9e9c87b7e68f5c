/** Invoices that report back: follow.ts follows them; snapshot.ts keeps what the API gave. */
export {
  createInvoiceFollower,
  type InvoiceFollower,
} from './follow.js';
