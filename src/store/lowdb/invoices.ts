/**
 * Invoices followed until they leave pending in the lowdb state file (`invoices`, by invoice id). Each
 * change is one serialized, fsynced `update` of the store.
 */

import { addCopy, type FollowedInvoice, isFinished, overBound, settle } from '../../features/invoices/followed.js';
import type { InvoiceRepository } from '../../features/repositories.js';
import { compareText } from '../../kernel/compare.js';
import { cloneJson } from '../clone-json.js';
import type { Store } from './state-file.js';

const own = <V>(record: Record<string, V>, key: string): V | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

const oldestFirst = (a: FollowedInvoice, b: FollowedInvoice) =>
  compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id);

/** The invoice repository over the lowdb store that holds `invoices`. */
export function createLowdbInvoiceRepository(
  store: Store<{ invoices: Record<string, FollowedInvoice> }>,
): InvoiceRepository {
  return {
    async followInvoice(record, max, at) {
      return store.update((state) => {
        if (own(state.invoices, record.id)) return { followed: false, dropped: [] };
        const dropped = overBound(Object.values(state.invoices), max, record.id);
        for (const old of dropped) settle(old, 'dropped', at, 'bound');
        state.invoices[record.id] = cloneJson(record);
        return { followed: true, dropped: cloneJson(dropped) };
      });
    },
    async addSharedCopy(id, copy) {
      return store.update((state) => {
        const record = own(state.invoices, id);
        if (!record) return false;
        addCopy(record, cloneJson(copy));
        return true;
      });
    },
    listInvoices: async () => cloneJson(Object.values(store.read().invoices)).sort(oldestFirst),
    async changeInvoice(id, change) {
      return store.update((state) => {
        const record = own(state.invoices, id);
        if (!record) return undefined;
        const result = change(record);
        if (isFinished(record)) delete state.invoices[id];
        return { result, record: cloneJson(record) };
      });
    },
  };
}
