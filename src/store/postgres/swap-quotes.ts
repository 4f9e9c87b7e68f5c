/**
 * The swap quotes in PostgreSQL: one row per quote, the whole record as JSON plus the columns the queries need.
 * Every change is one transaction that locks the quote's row (SELECT … FOR UPDATE), applies the same change as
 * the lowdb file (swap-quote-changes.ts) and writes the row back: two replicas clicking at once queue on the
 * row, so a claim and its check cannot interleave, and a claim counts only once committed.
 */
import type { SwapQuoteRepository } from '../../features/repositories.js';
import { needsFollowing, QUOTE_TRANSITIONS, SwapQuote } from '../../features/swaps/quote.js';
import { quoteEndedAt } from '../../features/swaps/retention.js';
import { DamagedRecordError, StoreError } from '../../kernel/store-error.js';
import type { Logger } from '../../logger.js';
import { archiveAfterSave, refuseQuoteWhenFrozen, swapQuoteChangeMethods } from '../swap-quote-changes.js';
import type { Database, Transaction } from './database.js';
import { lockFreezeForDecision } from './freeze.js';

/** Text PostgreSQL cannot hold in a text column (NUL, unpaired surrogates): no stored id is such text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL, which PostgreSQL text rejects, is the point.
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const quoteName = (id: string) => JSON.stringify(id).slice(0, 60);

/** A quote the operation expected is not in the database: a programming error, never a user's. */
function missing(id: string): StoreError {
  return new StoreError(`no swap quote ${quoteName(id)} in the database`);
}

/**
 * The stored record, checked against the schema. The record itself is returned, not the parsed copy: fields a
 * newer replica added survive this replica's changes.
 */
function decodeQuote(record: unknown): SwapQuote {
  const parsed = SwapQuote.safeParse(record);
  if (parsed.success) return record as SwapQuote;
  const id = typeof record === 'object' && record !== null && 'id' in record ? String(record.id) : '?';
  const [issue] = parsed.error.issues;
  throw new DamagedRecordError(
    `swap quote ${quoteName(id)}`,
    `${issue?.path.join('.') || 'the record'}: ${issue?.message ?? 'invalid'}`,
  );
}

/** The columns of a quote's row (`ended_at` null while it can change), and the record as JSON. */
function rowValues(quote: SwapQuote): [string, string, string, string, string | null] {
  const parsed = SwapQuote.safeParse(quote);
  if (!parsed.success)
    throw new StoreError(
      `swap quote ${quoteName(String(quote.id))} is not a valid record: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  const ended = quoteEndedAt(quote);
  return [quote.id, quote.status, quote.estimatedAt, JSON.stringify(quote), ended ? ended.toISOString() : null];
}

/** The statuses no change can leave (a quote in one of them may have ended). */
const FINAL_STATUSES = Object.entries(QUOTE_TRANSITIONS)
  .filter(([, to]) => to.length === 0)
  .map(([status]) => status);

/** Quotes moved to the archive per statement (a first archiving of a long history runs in several). */
const ARCHIVE_BATCH = 1_000;

/**
 * The first key of the two-key advisory locks that serialize decisions on one source asset (the second is the
 * asset id's hash). Two-key locks are a key space of their own: the migration and lease locks use one bigint.
 */
const DAILY_LIMIT_LOCK_SPACE = 1_402;

/** As DAILY_LIMIT_LOCK_SPACE, for the decisions on one requester's quotes (their 24-hour window of the tiers). */
const REQUESTER_WINDOW_LOCK_SPACE = 1_403;

/** Runs `apply` on the locked `quote` and writes the row back when it changed. */
async function applyAndWrite<R>(tx: Transaction, quote: SwapQuote, apply: () => R): Promise<R> {
  const before = JSON.stringify(quote);
  const result = apply();
  if (JSON.stringify(quote) !== before) {
    await tx.query(
      'UPDATE swap_quotes SET status = $2, estimated_at = $3, record = $4::json, ended_at = $5 WHERE id = $1',
      rowValues(quote),
    );
  }
  return result;
}

export function swapQuotesOver(db: Database, logger: Logger): SwapQuoteRepository {
  /**
   * The quotes of a listing (`text` selects id, status and record), leaving out (and logging, with the row's id
   * and status column) any damaged one. `onDamaged` says more about what leaving it out costs.
   */
  async function list(
    doing: string,
    text: string,
    values: unknown[],
    onDamaged: (row: { id: string; status: string }, problem: string) => void = (row, problem) =>
      logger.error('a damaged swap quote in the database was left out', { ...row, problem }),
  ): Promise<SwapQuote[]> {
    const { rows } = await db.query<{ id: string; status: string; record: unknown }>(doing, text, values);
    return rows.flatMap((row) => {
      try {
        return [decodeQuote(row.record)];
      } catch (error) {
        onDamaged({ id: row.id, status: row.status }, (error as Error).message);
        return [];
      }
    });
  }

  async function lockQuote(tx: Transaction, id: string): Promise<SwapQuote | undefined> {
    if (UNSTORABLE_TEXT.test(id)) return undefined;
    const { rows } = await tx.query<{ record: unknown }>('SELECT record FROM swap_quotes WHERE id = $1 FOR UPDATE', [
      id,
    ]);
    return rows[0] && decodeQuote(rows[0].record);
  }

  async function archiveEndedQuotes(cutoff: Date): Promise<number> {
    // Rows written before the archive existed (or by a replica of an older version) have no end time yet: the
    // final ones estimated before the cutoff get it now (once: it is then set), so the move below finds them.
    const unset = await list(
      'finding swap quotes with no end time',
      'SELECT id, status, record FROM swap_quotes WHERE ended_at IS NULL AND estimated_at < $1 AND status = ANY($2::text[])',
      [cutoff.toISOString(), FINAL_STATUSES],
    );
    const ends = unset.flatMap((quote) => {
      const ended = quoteEndedAt(quote);
      return ended ? [[quote.id, ended.toISOString()] as const] : [];
    });
    if (ends.length > 0)
      await db.query(
        'recording when swap quotes ended',
        `UPDATE swap_quotes AS q SET ended_at = v.ended
         FROM unnest($1::text[], $2::timestamptz[]) AS v(id, ended) WHERE q.id = v.id AND q.ended_at IS NULL`,
        [ends.map(([id]) => id), ends.map(([, ended]) => ended)],
      );
    let moved = 0;
    for (;;) {
      // One statement: a quote is in the working table or in the archive, never in neither. A row a change holds
      // locked is skipped (SKIP LOCKED) and moves next time.
      const { rowCount } = await db.query(
        'moving old swap quotes to the archive',
        `WITH moved AS (
           DELETE FROM swap_quotes WHERE id IN (
             SELECT id FROM swap_quotes WHERE ended_at < $1 ORDER BY ended_at LIMIT $2 FOR UPDATE SKIP LOCKED
           )
           RETURNING id, status, estimated_at, ended_at, record
         )
         INSERT INTO swap_quotes_archive (id, status, estimated_at, ended_at, record)
         SELECT id, status, estimated_at, ended_at, record FROM moved
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, estimated_at = EXCLUDED.estimated_at,
           ended_at = EXCLUDED.ended_at, record = EXCLUDED.record, archived_at = now()`,
        [cutoff.toISOString(), ARCHIVE_BATCH],
      );
      moved += rowCount ?? 0;
      if ((rowCount ?? 0) < ARCHIVE_BATCH) return moved;
    }
  }

  return {
    async saveQuote(quote) {
      const values = rowValues(quote);
      await db.transaction('saving a swap quote', async (tx) => {
        // The freeze first (FOR SHARE): a freeze under way is waited for, and one pulled after waits for this insert.
        refuseQuoteWhenFrozen(quote, (await lockFreezeForDecision(tx)).current);
        const { rowCount } = await tx.query(
          'INSERT INTO swap_quotes (id, status, estimated_at, record, ended_at) VALUES ($1, $2, $3, $4::json, $5) ON CONFLICT (id) DO NOTHING',
          values,
        );
        if (rowCount === 0) throw new StoreError(`swap quote ${quote.id} already exists`);
      });
      await archiveAfterSave(quote, archiveEndedQuotes, logger, 'the working table');
    },

    archiveEndedQuotes,

    async getQuote(id) {
      if (UNSTORABLE_TEXT.test(id)) return undefined;
      const { rows } = await db.query<{ record: unknown }>(
        'reading a swap quote',
        'SELECT record FROM swap_quotes WHERE id = $1',
        [id],
      );
      return rows[0] && decodeQuote(rows[0].record);
    },

    listRecentQuotes(limit) {
      const count = Math.max(0, Math.floor(limit));
      return list(
        'listing recent swap quotes',
        'SELECT id, status, record FROM swap_quotes ORDER BY estimated_at DESC, id DESC LIMIT $1',
        [count],
      );
    },

    listQuotesByStatus(status) {
      return list(
        'listing swap quotes by status',
        'SELECT id, status, record FROM swap_quotes WHERE status = $1 ORDER BY estimated_at, id',
        [status],
        (row, problem) =>
          status === 'approving'
            ? // The recovery reads these: a damaged one cannot be marked outcome_unknown, and its swap may exist.
              logger.error(
                'a damaged swap quote in the database is approving: it cannot be recovered (never marked outcome_unknown); check the payment dashboard for its swap',
                { ...row, problem },
              )
            : logger.error('a damaged swap quote in the database was left out', { ...row, problem }),
      );
    },

    async listQuotesToFollow() {
      // The SQL narrows to the partial index; needsFollowing stays the rule.
      const quotes = await list(
        'listing swap quotes to follow',
        `SELECT id, status, record FROM swap_quotes WHERE status = 'created' AND (record->>'followEndedAt') IS NULL ORDER BY estimated_at, id`,
        [],
      );
      return quotes.filter(needsFollowing);
    },

    listQuotesSince(since) {
      return list(
        'listing swap quotes since a time',
        'SELECT id, status, record FROM swap_quotes WHERE estimated_at > $1 ORDER BY estimated_at, id',
        [since.toISOString()],
      );
    },

    async listUsageSince(since) {
      // A damaged row counts as the worst case: it refuses, as the decision does (decideQuote decodes every row).
      const { rows } = await db.query<{ record: unknown }>(
        'reading the swap quotes a limit counts',
        'SELECT record FROM swap_quotes WHERE estimated_at > $1 ORDER BY estimated_at, id',
        [since.toISOString()],
      );
      return rows.map((row) => decodeQuote(row.record));
    },

    ...swapQuoteChangeMethods(
      (id, apply) =>
        db.transaction('changing a swap quote', async (tx) => {
          const quote = await lockQuote(tx, id);
          if (!quote) throw missing(id);
          return applyAndWrite(tx, quote, () => apply(quote));
        }),
      (id, since, apply) =>
        db.transaction('deciding a swap quote', async (tx) => {
          if (UNSTORABLE_TEXT.test(id)) throw missing(id);
          // The asset and the requester first (they never change), then the asset's lock, the requester's lock,
          // then the row: every decision takes them in this order, and nothing else takes these locks, so they
          // cannot deadlock (nobody holding a requester's lock waits for an asset's).
          const { rows } = await tx.query<{ asset: string | null; requester: string | null }>(
            `SELECT record->'from'->>'assetId' AS asset, record->>'requestedBy' AS requester FROM swap_quotes WHERE id = $1`,
            [id],
          );
          const asset = rows[0]?.asset;
          const requester = rows[0]?.requester;
          if (asset === undefined || asset === null || requester === undefined || requester === null) throw missing(id);
          await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [DAILY_LIMIT_LOCK_SPACE, asset]);
          await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [REQUESTER_WINDOW_LOCK_SPACE, requester]);
          const quote = await lockQuote(tx, id);
          if (!quote) throw missing(id);
          const others = await tx.query<{ record: unknown }>(
            // A row whose asset or requester cannot be read might be either: it is read too, and refuses below.
            `SELECT record FROM swap_quotes WHERE id <> $1 AND estimated_at > $2
               AND (record->'from'->>'assetId' = $3 OR record->>'requestedBy' = $4
                 OR record->'from'->>'assetId' IS NULL OR record->>'requestedBy' IS NULL)`,
            [id, since.toISOString(), asset, requester],
          );
          const related = others.rows.map((row) => decodeQuote(row.record));
          // Last, FOR SHARE: a freeze (FOR UPDATE of the one row, and nothing else) waits for this decision to
          // commit, and this decision waits for a freeze under way; it takes no other lock, so no deadlock.
          const { current: freeze } = await lockFreezeForDecision(tx);
          return applyAndWrite(tx, quote, () => apply(quote, related, freeze));
        }),
    ),
  };
}
