/**
 * The freeze in PostgreSQL (migration 7): one row holding the record and its trail. Every change is one
 * transaction that locks the row (FOR UPDATE) and applies the same pure change as the lowdb file
 * (features/freeze/rules.ts). The swap decision and the payout claim read the row FOR SHARE inside their own
 * transaction (lockFreezeForDecision): a freeze waits for the decisions under way, and a decision that starts
 * after waits for the freeze, so no decision is judged on a freeze state that is no longer true.
 */
import {
  activeFreeze,
  applyFreeze,
  applyUnfreezeVote,
  claimExpiredFreezes,
  FreezeState,
  freezeTrailSince,
  hasExpiredToClaim,
  recordAnnouncement,
} from '../../features/freeze/rules.js';
import type { FreezeRepository } from '../../features/repositories.js';
import { StoreError } from '../../kernel/store-error.js';
import type { Logger } from '../../logger.js';
import { problemOf } from '../load-alerts.js';
import type { Database, Transaction } from './database.js';

/** The stored record, checked. A damaged freeze is an error, never "no freeze": that would lift it. */
function decodeFreeze(record: unknown): FreezeState {
  const parsed = FreezeState.safeParse(record);
  if (!parsed.success) throw new StoreError(`the freeze in the database is damaged: ${problemOf(parsed.error)}`);
  return parsed.data;
}

async function readFreezeRow(tx: Transaction | Database, lock: '' | 'FOR SHARE' | 'FOR UPDATE'): Promise<FreezeState> {
  const text = `SELECT record FROM freeze_state WHERE id = 1 ${lock}`;
  const { rows } =
    'transaction' in tx
      ? await tx.query<{ record: unknown }>('reading the freeze', text)
      : await tx.query<{ record: unknown }>(text);
  if (!rows[0]) throw new StoreError('the freeze row is missing from the database (migration 7)');
  return decodeFreeze(rows[0].record);
}

/**
 * The freeze as the decision in `tx` must see it: the row is read FOR SHARE, so a freeze (FOR UPDATE) waits for
 * this transaction to end, and this read waits for a freeze under way.
 */
export async function lockFreezeForDecision(tx: Transaction): Promise<FreezeState> {
  return readFreezeRow(tx, 'FOR SHARE');
}

export function freezeOver(db: Database, _logger: Logger): FreezeRepository {
  async function change<R>(doing: string, apply: (state: FreezeState) => R): Promise<R> {
    return db.transaction(doing, async (tx) => {
      const state = await readFreezeRow(tx, 'FOR UPDATE');
      const before = JSON.stringify(state);
      const result = apply(state);
      if (JSON.stringify(state) !== before)
        await tx.query('UPDATE freeze_state SET record = $1::json WHERE id = 1', [JSON.stringify(state)]);
      return result;
    });
  }
  return {
    async currentFreeze(now) {
      return activeFreeze(await readFreezeRow(db, ''), now);
    },
    freeze: (request) => change('freezing', (state) => applyFreeze(state, request)),
    voteUnfreeze: (vote, quorum) =>
      change('counting an unfreeze vote', (state) => applyUnfreezeVote(state, vote, quorum)),
    async listFreezeTrail(since, now) {
      return freezeTrailSince(await readFreezeRow(db, ''), since, now);
    },
    async claimExpiredFreezes(now) {
      // Every replica asks every few seconds: the row is locked only when there is something to claim, and the
      // claim is judged again under the lock (another replica may have taken it in between).
      if (!hasExpiredToClaim(await readFreezeRow(db, ''), now)) return [];
      return change('claiming an expired freeze', (state) => claimExpiredFreezes(state, now));
    },
    recordFreezeAnnouncement: (frozenAt, announcement) =>
      change('keeping where the freeze was announced', (state) => recordAnnouncement(state, frozenAt, announcement)),
  };
}
