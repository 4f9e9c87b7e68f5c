/**
 * What the audit export reads from PostgreSQL: the alert trail (migration 5) and the swap quotes, a page
 * at a time by keyset (`(at, seq)`, `(estimated_at, id)`), each page one indexed statement: however long the period,
 * the export holds one page.
 */
import { AlertTrailEntry } from '../../features/alerts/trail.js';
import type { AuditRepository } from '../../features/repositories.js';
import { SwapQuote } from '../../features/swaps/quote.js';
import { StoreError } from '../../kernel/store-error.js';
import type { Logger } from '../../logger.js';
import { problemOf } from '../load-alerts.js';
import type { Database } from './database.js';

function readCursor(after: string | undefined): [string, string] | undefined {
  if (after === undefined) return undefined;
  const key: unknown = JSON.parse(after);
  if (!Array.isArray(key) || typeof key[0] !== 'string' || typeof key[1] !== 'string')
    throw new StoreError('the audit export passed a page cursor this store did not make');
  return key as [string, string];
}

/** The audit repository over the store's database (damaged records are left out of the export, and logged). */
export function auditOver(db: Database, logger: Logger): AuditRepository {
  return {
    async listAlertTrail(since, page) {
      const after = readCursor(page.after);
      const { rows } = await db.query<{ seq: string; at: string; record: unknown }>(
        'reading the alert trail',
        `SELECT seq::text AS seq, to_json(at)#>>'{}' AS at, record FROM alert_trail
         WHERE at >= $1 AND ($2::timestamptz IS NULL OR (at, seq) > ($2::timestamptz, $3::bigint))
         ORDER BY at, seq LIMIT $4`,
        [since, after?.[0] ?? null, after?.[1] ?? null, Math.max(1, page.limit)],
      );
      const items = rows.flatMap((row) => {
        const parsed = AlertTrailEntry.safeParse(row.record);
        if (parsed.success) return [parsed.data];
        // One damaged entry must not stop the export of every other: left out, and said in the log.
        logger.error('a damaged alert trail entry in the database was left out of the export', {
          seq: row.seq,
          problem: problemOf(parsed.error),
        });
        return [];
      });
      const last = rows.at(-1);
      return { items, ...(last && rows.length >= page.limit ? { next: JSON.stringify([last.at, last.seq]) } : {}) };
    },
    async listQuotes(since, page) {
      const after = readCursor(page.after);
      // The working table and the archive (migration 6), each read by its (estimated_at, id) index: a quote is in
      // one of them (it moves in one statement).
      const { rows } = await db.query<{ id: string; at: string; record: unknown }>(
        'reading swap quotes for the audit export',
        `SELECT id, to_json(estimated_at)#>>'{}' AS at, record FROM (
           (SELECT id, estimated_at, record FROM swap_quotes
            WHERE estimated_at > $1 AND ($2::timestamptz IS NULL OR (estimated_at, id) > ($2::timestamptz, $3::text))
            ORDER BY estimated_at, id LIMIT $4)
           UNION ALL
           (SELECT id, estimated_at, record FROM swap_quotes_archive
            WHERE estimated_at > $1 AND ($2::timestamptz IS NULL OR (estimated_at, id) > ($2::timestamptz, $3::text))
            ORDER BY estimated_at, id LIMIT $4)
         ) AS quotes
         ORDER BY estimated_at, id LIMIT $4`,
        [since, after?.[0] ?? null, after?.[1] ?? null, Math.max(1, page.limit)],
      );
      const items = rows.flatMap((row) => {
        const parsed = SwapQuote.safeParse(row.record);
        if (parsed.success) return [row.record as SwapQuote];
        logger.error('a damaged swap quote in the database was left out of the export', {
          id: row.id.slice(0, 80),
          problem: problemOf(parsed.error),
        });
        return [];
      });
      const last = rows.at(-1);
      return { items, ...(last && rows.length >= page.limit ? { next: JSON.stringify([last.at, last.id]) } : {}) };
    },
  };
}
