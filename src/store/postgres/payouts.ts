/**
 * Requests to create a payout container in PostgreSQL (migration 3): one row per request, the record as JSON plus
 * the columns the queries need. Every change is one transaction that locks the request's row (SELECT … FOR
 * UPDATE) and applies the same pure change as the lowdb file (features/payouts/rules.ts): two replicas handling a double
 * click queue on the row, so only one claims the send.
 */
import {
  applyPayoutOutcome,
  cancelPayoutRequest,
  claimPayoutSend,
  frozenForClaim,
  PAYOUT_REQUEST_RETENTION_MS,
  PayoutRequest,
} from '../../features/payouts/rules.js';
import type { PayoutRepository } from '../../features/repositories.js';
import { StoreError } from '../../kernel/store-error.js';
import type { Logger } from '../../logger.js';
import { problemOf } from '../load-alerts.js';
import type { Database, Transaction } from './database.js';
import { lockFreezeForDecision } from './freeze.js';

/** Text PostgreSQL cannot hold in a text column (NUL, unpaired surrogates): no stored id is such text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL, which PostgreSQL text rejects, is the point.
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The stored record checked against its schema; the record itself is returned, so newer fields survive. */
function decodeRequest(record: unknown): PayoutRequest {
  const parsed = PayoutRequest.safeParse(record);
  if (parsed.success) return record as PayoutRequest;
  throw new StoreError(`a payout request in the database is damaged: ${problemOf(parsed.error)}`);
}

/** Locks the request's row and runs `apply` on it, writing the row back when it changed. */
async function changeLocked<R>(
  tx: Transaction,
  id: string,
  apply: (request: PayoutRequest) => R,
): Promise<{ result: R; request: PayoutRequest } | undefined> {
  if (UNSTORABLE_TEXT.test(id)) return undefined;
  const { rows } = await tx.query<{ record: unknown }>('SELECT record FROM payout_requests WHERE id = $1 FOR UPDATE', [
    id,
  ]);
  if (!rows[0]) return undefined;
  const request = decodeRequest(rows[0].record);
  const before = JSON.stringify(request);
  const result = apply(request);
  if (JSON.stringify(request) !== before)
    await tx.query('UPDATE payout_requests SET status = $2, record = $3::json WHERE id = $1', [
      id,
      request.status,
      JSON.stringify(request),
    ]);
  return { result, request };
}

export function payoutsOver(db: Database, logger: Logger): PayoutRepository {
  return {
    async saveRequest(request) {
      const parsed = PayoutRequest.safeParse(request);
      if (!parsed.success) throw new StoreError(`not a valid payout request: ${problemOf(parsed.error)}`);
      await db.transaction('saving a payout request', async (tx) => {
        const { rowCount } = await tx.query(
          `INSERT INTO payout_requests (id, status, requested_at, record) VALUES ($1, $2, $3, $4::json)
           ON CONFLICT (id) DO NOTHING`,
          [request.id, request.status, request.requestedAt, JSON.stringify(request)],
        );
        if (rowCount === 0) throw new StoreError(`payout request ${request.id} already exists`);
        await tx.query('DELETE FROM payout_requests WHERE requested_at < $1', [
          new Date(Date.parse(request.requestedAt) - PAYOUT_REQUEST_RETENTION_MS),
        ]);
      });
    },

    async getRequest(id) {
      if (UNSTORABLE_TEXT.test(id)) return undefined;
      const { rows } = await db.query<{ record: unknown }>(
        'reading a payout request',
        'SELECT record FROM payout_requests WHERE id = $1',
        [id],
      );
      return rows[0] && decodeRequest(rows[0].record);
    },

    async claimSend(id, by, at, maxAgeMs) {
      const changed = await db.transaction('claiming a payout request', async (tx) => {
        // The freeze FOR SHARE, before the row: a freeze under way is waited for, one pulled after waits for this.
        const { current: freeze } = await lockFreezeForDecision(tx);
        return changeLocked(tx, id, (request) => {
          const frozen = frozenForClaim(request, freeze, at);
          return frozen ? { frozen } : claimPayoutSend(request, by, at, maxAgeMs);
        });
      });
      if (!changed) return { claimed: false };
      if (typeof changed.result === 'object')
        return { claimed: false, frozen: changed.result.frozen, request: changed.request };
      return changed.result
        ? { claimed: true, request: changed.request }
        : { claimed: false, request: changed.request };
    },

    async recordOutcome(id, outcome, at) {
      const changed = await db.transaction('recording the outcome of a payout request', (tx) =>
        changeLocked(tx, id, (request) => applyPayoutOutcome(request, outcome, at)),
      );
      return changed ? { recorded: changed.result, request: changed.request } : { recorded: false };
    },

    async cancel(id, by, at) {
      const changed = await db.transaction('cancelling a payout request', (tx) =>
        changeLocked(tx, id, (request) => cancelPayoutRequest(request, by, at)),
      );
      return changed ? { cancelled: changed.result, request: changed.request } : { cancelled: false };
    },

    async listRequestsSince(since) {
      const { rows } = await db.query<{ record: unknown }>(
        'listing payout requests since a time',
        'SELECT record FROM payout_requests WHERE requested_at >= $1 ORDER BY requested_at, id',
        [since],
      );
      return rows.flatMap((row) => {
        try {
          return [decodeRequest(row.record)];
        } catch (error) {
          logger.error('a damaged payout request in the database was left out', { problem: (error as Error).message });
          return [];
        }
      });
    },
  };
}
