// The invoice repository contract (invoices followed until they leave pending), run against both stores:
// the lowdb state file and a real throwaway PostgreSQL. Two PostgreSQL stores on one database stand for two
// replicas following invoices at once under the bound.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  claimNotice,
  type FollowedInvoice,
  type InvoiceSnapshot,
  newFollowedInvoice,
  noticeSent,
  recordCheck,
  removeCopy,
} from '../../src/features/invoices/followed.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('invoices');

const T0 = new Date('2026-11-24T09:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
let ids = 0;
const snapshot = (status = 'pending'): InvoiceSnapshot => ({
  id: `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
  status,
  usdAmount: '49.99',
  cryptoAmount: null,
  crypto: null,
  network: null,
  paymentPageLink: 'https://pay.example.test/invoice/x',
  productTitle: 'Pro plan, "annual" = =1+1',
  extraData: null,
  address: null,
  expiredAt: at(60).toISOString(),
});
const followed = (minute: number, by = 'U0AVERY'): FollowedInvoice => newFollowedInvoice(snapshot(), by, at(minute));

describe.each(backends)('invoices: $name', (backend) => {
  it.skipIf(backend.skip)(
    'follows, lists oldest first, records copies and checks; a finished record leaves',
    async () => {
      const store = await backend.open();
      try {
        const { invoices } = store;
        const first = followed(0);
        const second = followed(1, 'U0BLAKE');
        expect(await invoices.followInvoice(second, 10, at(1))).toEqual({ followed: true, dropped: [] });
        expect(await invoices.followInvoice(first, 10, at(0))).toEqual({ followed: true, dropped: [] });
        // The same invoice again changes nothing.
        expect(await invoices.followInvoice({ ...first, createdBy: 'U0SAM' }, 10, at(2))).toEqual({
          followed: false,
          dropped: [],
        });
        expect((await invoices.listInvoices()).map((r) => [r.id, r.createdBy])).toEqual([
          [first.id, 'U0AVERY'],
          [second.id, 'U0BLAKE'],
        ]);
        const copy = { channel: 'C0OPS', ts: '1700000000.000100', sharedBy: 'U0BLAKE', sharedAt: at(3).toISOString() };
        expect(await invoices.addSharedCopy(first.id, copy)).toBe(true);
        expect(await invoices.addSharedCopy(first.id, copy)).toBe(true);
        expect(await invoices.addSharedCopy('constructor', copy)).toBe(false);
        expect((await invoices.listInvoices())[0]!.shared).toEqual([copy]);

        // A check that finds it paid settles it: the notice is owed, the copy still to rewrite.
        const paid = { ...first.invoice, status: 'paid', cryptoAmount: '123' };
        const checked = await invoices.changeInvoice(first.id, (r) => recordCheck(r, paid, at(5)));
        expect(checked?.result).toBe('changed');
        expect(checked?.record).toMatchObject({
          status: 'paid',
          invoice: { status: 'paid', cryptoAmount: '123', productTitle: 'Pro plan, "annual" = =1+1' },
          outcome: { kind: 'changed', at: at(5).toISOString() },
          notice: { state: 'owed' },
        });
        expect(await invoices.changeInvoice(first.id, (r) => claimNotice(r, 'D0AVERY', at(6)))).toMatchObject({
          result: true,
        });
        expect((await invoices.changeInvoice(first.id, (r) => claimNotice(r, 'D0AVERY', at(6))))?.result).toBe(false);
        await invoices.changeInvoice(first.id, (r) => noticeSent(r, '1700000001.000200', at(6)));
        expect((await invoices.listInvoices()).map((r) => r.id)).toEqual([first.id, second.id]);
        // Its last copy rewritten, the record's work is done: it leaves.
        await invoices.changeInvoice(first.id, (r) => removeCopy(r, copy.channel, copy.ts));
        expect((await invoices.listInvoices()).map((r) => r.id)).toEqual([second.id]);
        expect(await invoices.changeInvoice(first.id, () => 'x')).toBeUndefined();
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)('over the bound, the oldest open invoices are dropped in the same change', async () => {
    const store = await backend.open();
    try {
      const { invoices } = store;
      const records = [0, 1, 2].map((minute) => followed(minute));
      for (const record of records) await invoices.followInvoice(record, 3, new Date(record.createdAt));
      // A settled one does not count as open.
      await invoices.changeInvoice(records[0]!.id, (r) => recordCheck(r, { ...r.invoice, status: 'expired' }, at(3)));
      const fourth = followed(4);
      expect((await invoices.followInvoice(fourth, 3, at(4))).dropped).toEqual([]);
      const fifth = followed(5);
      const { followed: ok, dropped } = await invoices.followInvoice(fifth, 3, at(5));
      expect(ok).toBe(true);
      expect(dropped.map((r) => [r.id, r.outcome?.kind, r.outcome?.reason, r.notice?.state])).toEqual([
        [records[1]!.id, 'dropped', 'bound', 'owed'],
      ]);
      const open = (await invoices.listInvoices()).filter((r) => !r.outcome).map((r) => r.id);
      expect(open).toEqual([records[2]!.id, fourth.id, fifth.id]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip || backend.name !== 'PostgreSQL')(
    'two replicas following 15 more invoices at once under a bound of 5, while shares change them: 5 stay open, 15 dropped once each',
    async () => {
      const store = await backend.open();
      const other = await store.another!();
      try {
        const first = Array.from({ length: 5 }, (_, i) => followed(i));
        for (const record of first) await store.invoices.followInvoice(record, 5, new Date(record.createdAt));
        const records = [...first, ...Array.from({ length: 15 }, (_, i) => followed(i + 5))];
        // Follows that drop the oldest, while changes (a share) lock those same rows: no deadlock, none lost.
        const [results] = await Promise.all([
          Promise.all(
            records
              .slice(5)
              .map((record, i) =>
                (i % 2 === 0 ? store.invoices : other.invoices).followInvoice(record, 5, new Date(record.createdAt)),
              ),
          ),
          Promise.all(
            records.map((record, i) =>
              (i % 2 === 0 ? other.invoices : store.invoices).addSharedCopy(record.id, {
                channel: 'C0OPS',
                ts: `1700000000.${String(i).padStart(6, '0')}`,
                sharedBy: 'U0BLAKE',
                sharedAt: at(30).toISOString(),
              }),
            ),
          ),
        ]);
        expect(results.every((r) => r.followed)).toBe(true);
        const droppedIds = results.flatMap((r) => r.dropped.map((d) => d.id));
        expect(new Set(droppedIds).size).toBe(droppedIds.length);
        const all = await store.invoices.listInvoices();
        expect(all.filter((r) => !r.outcome)).toHaveLength(5);
        expect(all.filter((r) => r.outcome?.reason === 'bound')).toHaveLength(15);
        expect(droppedIds).toHaveLength(15);
        // Every share of the first five landed (they existed all along), open or dropped.
        for (const record of first) expect(all.find((r) => r.id === record.id)!.shared).toHaveLength(1);
      } finally {
        await other.close();
        await store.close();
      }
    },
  );
});

describe('invoices in the state file', () => {
  it('a file written before followed invoices existed loads with none; a damaged record is set aside, the rest kept', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'invoices-old-')), 'state.json');
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: {} }));
    const old = await openBotStore(file);
    expect(await old.invoices.listInvoices()).toEqual([]);
    const kept = followed(0);
    await old.invoices.followInvoice(kept, 100, at(0));
    await old.close();
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.invoices.broken = { id: 'broken', createdBy: 'U0AVERY' };
    writeFileSync(file, JSON.stringify(raw));
    const reopened = await openBotStore(file);
    expect((await reopened.invoices.listInvoices()).map((r) => r.id)).toEqual([kept.id]);
    expect(reopened.rejectedRecords.map((r) => r.where)).toEqual(['invoices.broken']);
    await reopened.close();
  });
});
