/**
 * Invoices followed until they leave pending in PostgreSQL (migration 4): one row per invoice, the record
 * as JSON. A change locks its row (`FOR UPDATE`). Following a new invoice first takes a transaction-level advisory
 * lock that only follows take, so two replicas never both find room under the bound; a follow waits for a row lock
 * of a change, never the other way round, so the two cannot deadlock.
 */
import { addCopy, FollowedInvoice, isFinished, isOpen, settle } from '../../features/invoices/followed.js';
import type { InvoiceRepository } from '../../features/repositories.js';
import { asCodedError } from '../../kernel/errors.js';
import { StoreError } from '../../kernel/store-error.js';
import type { Logger } from '../../logger.js';
import { problemOf } from '../load-alerts.js';
import type { Database, Transaction } from './database.js';

/** Advisory lock key of following a new invoice ("inv-bnd!" in ASCII): not the migrations', not a lease's. */
const FOLLOW_LOCK_KEY = 0x696e_762d_626e_6421n;

/** A stored record checked against its schema; the record itself is returned, so newer fields survive. */
function decode(record: unknown): FollowedInvoice {
  const parsed = FollowedInvoice.safeParse(record);
  if (parsed.success) return record as FollowedInvoice;
  throw new StoreError(`a followed invoice in the database is damaged: ${problemOf(parsed.error)}`);
}

/** Writes the record back (or removes it once its work is done). */
async function write(tx: Transaction, record: FollowedInvoice): Promise<void> {
  if (isFinished(record)) {
    await tx.query('DELETE FROM followed_invoices WHERE id = $1', [record.id]);
    return;
  }
  await tx.query('UPDATE followed_invoices SET open = $2, record = $3 WHERE id = $1', [
    record.id,
    isOpen(record),
    JSON.stringify(record),
  ]);
}

export function invoicesOver(db: Database, logger: Logger): InvoiceRepository {
  const changeInvoice: InvoiceRepository['changeInvoice'] = (id, change) =>
    db.transaction('recording a followed invoice', async (tx) => {
      const { rows } = await tx.query<{ record: unknown }>(
        'SELECT record FROM followed_invoices WHERE id = $1 FOR UPDATE',
        [id],
      );
      if (!rows[0]) return undefined;
      const record = decode(rows[0].record);
      const before = JSON.stringify(record);
      const result = change(record);
      if (JSON.stringify(record) !== before || isFinished(record)) await write(tx, record);
      return { result, record };
    });
  return {
    async followInvoice(record, max, at) {
      return db.transaction('following an invoice', async (tx) => {
        // Two follows at once (two replicas) must not both find room under the bound.
        await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [FOLLOW_LOCK_KEY.toString()]);
        const inserted = await tx.query(
          `INSERT INTO followed_invoices (id, created_at, open, record) VALUES ($1, $2, true, $3)
           ON CONFLICT (id) DO NOTHING`,
          [record.id, record.createdAt, JSON.stringify(record)],
        );
        if (inserted.rowCount !== 1) return { followed: false, dropped: [] };
        const { rows } = await tx.query<{ n: string }>('SELECT count(*) AS n FROM followed_invoices WHERE open');
        const excess = Number(rows[0]!.n) - max;
        if (excess <= 0) return { followed: true, dropped: [] };
        const { rows: oldest } = await tx.query<{ record: unknown }>(
          `SELECT record FROM followed_invoices WHERE open AND id <> $1
           ORDER BY created_at, id LIMIT $2 FOR UPDATE`,
          [record.id, excess],
        );
        const dropped = oldest.map((row) => decode(row.record));
        for (const old of dropped) {
          settle(old, 'dropped', at, 'bound');
          await write(tx, old);
        }
        return { followed: true, dropped };
      });
    },
    async addSharedCopy(id, copy) {
      return (await changeInvoice(id, (record) => addCopy(record, copy))) !== undefined;
    },
    async listInvoices() {
      const { rows } = await db.query<{ record: unknown }>(
        'reading the followed invoices',
        'SELECT record FROM followed_invoices ORDER BY created_at, id',
      );
      // A damaged row is left where it is and said in the log; the others are followed.
      return rows.flatMap((row) => {
        try {
          return [decode(row.record)];
        } catch (error) {
          logger.error('a followed invoice in the database is damaged; it is left aside', {
            problem: asCodedError(error).message,
          });
          return [];
        }
      });
    },
    changeInvoice,
  };
}
