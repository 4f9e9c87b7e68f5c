/**
 * The second factor in PostgreSQL (migration 8): one row per person in second_factor_enrolments and the trail in
 * second_factor_trail. Every change is one transaction that first takes a per-person advisory lock (a row that does
 * not exist yet cannot be locked FOR UPDATE) and then reads the row FOR UPDATE, applies the same pure change as the
 * lowdb file (features/second-factor/rules.ts) and writes it with its trail lines: two replicas judging the same
 * code run one after the other, and the second sees the time step as used. The Slack deletions of enrolment DMs
 * (migration 10) are queued in the same transaction, in second_factor_slack_deletions.
 */
import type { SecondFactorRepository } from '../../features/repositories.js';
import {
  decodeEnrolment,
  SECOND_FACTOR_TRAIL_RETENTION_MS,
  SecondFactorEvent,
  SlackDeletion,
  type StoredEnrolment,
} from '../../features/second-factor/rules.js';
import type { Logger } from '../../logger.js';
import type { Database } from './database.js';

/** The advisory lock class of the second factor (the two-key form: its own space, apart from the migration lock). */
const SECOND_FACTOR_LOCK_CLASS = 0x3266; // "2f"

function storedOf(rows: { record: unknown }[], userId: string): StoredEnrolment {
  return rows[0] ? decodeEnrolment(rows[0].record, userId) : { kind: 'none' };
}

/** The second-factor repository over the store's database (openPostgresStore shares one pool among them). */
export function secondFactorOver(db: Database, logger: Logger): SecondFactorRepository {
  return {
    async readEnrolment(userId) {
      const { rows } = await db.query<{ record: unknown }>(
        "reading a person's second factor",
        'SELECT record FROM second_factor_enrolments WHERE user_id = $1',
        [userId],
      );
      return storedOf(rows, userId);
    },
    changeEnrolment(userId, change) {
      return db.transaction("changing a person's second factor", async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SECOND_FACTOR_LOCK_CLASS, userId]);
        const { rows } = await tx.query<{ record: unknown }>(
          'SELECT record FROM second_factor_enrolments WHERE user_id = $1 FOR UPDATE',
          [userId],
        );
        const decided = change(storedOf(rows, userId));
        if (decided.next === 'delete')
          await tx.query('DELETE FROM second_factor_enrolments WHERE user_id = $1', [userId]);
        else if (decided.next !== 'keep')
          await tx.query(
            `INSERT INTO second_factor_enrolments (user_id, record, updated_at) VALUES ($1, $2::json, now())
             ON CONFLICT (user_id) DO UPDATE SET record = EXCLUDED.record, updated_at = now()`,
            [userId, JSON.stringify(decided.next)],
          );
        for (const event of decided.events)
          await tx.query('INSERT INTO second_factor_trail (at, user_id, record) VALUES ($1, $2, $3::json)', [
            event.at,
            event.userId,
            JSON.stringify(event),
          ]);
        for (const deletion of decided.deletions ?? [])
          await tx.query(
            `INSERT INTO second_factor_slack_deletions (id, due_at, record) VALUES ($1, $2, $3::json)
             ON CONFLICT (id) DO NOTHING`,
            [deletion.id, deletion.dueAt, JSON.stringify(deletion)],
          );
        const first = decided.events[0];
        if (first)
          await tx.query('DELETE FROM second_factor_trail WHERE at < $1', [
            new Date(Date.parse(first.at) - SECOND_FACTOR_TRAIL_RETENTION_MS).toISOString(),
          ]);
        return decided.result;
      });
    },
    async listSecondFactorTrail(since) {
      const { rows } = await db.query<{ seq: string; record: unknown }>(
        'reading the second factor trail',
        'SELECT seq::text AS seq, record FROM second_factor_trail WHERE at >= $1 ORDER BY at, second_factor_trail.seq',
        [since.toISOString()],
      );
      const trail: SecondFactorEvent[] = [];
      for (const row of rows) {
        const parsed = SecondFactorEvent.safeParse(row.record);
        if (parsed.success) trail.push(parsed.data);
        else logger.error('a damaged line of the second factor trail was left out', { seq: row.seq });
      }
      return trail;
    },
    async listPendingEnrolments() {
      const { rows } = await db.query<{ user_id: string }>(
        'listing the enrolments waiting for a first code',
        "SELECT user_id FROM second_factor_enrolments WHERE json_typeof(record) = 'object' AND record->>'state' = 'pending'",
      );
      return rows.map((row) => row.user_id);
    },
    async listSlackDeletions(now) {
      const { rows } = await db.query<{ id: string; record: unknown }>(
        'reading the queued Slack deletions',
        now === undefined
          ? "SELECT id, record FROM second_factor_slack_deletions ORDER BY record->>'queuedAt', id"
          : "SELECT id, record FROM second_factor_slack_deletions WHERE due_at <= $1 ORDER BY record->>'queuedAt', id",
        now === undefined ? [] : [now.toISOString()],
      );
      const queue: SlackDeletion[] = [];
      for (const row of rows) {
        const parsed = SlackDeletion.safeParse(row.record);
        if (parsed.success) queue.push(parsed.data);
        else logger.error('a damaged queued Slack deletion was left out', { id: row.id });
      }
      return queue;
    },
    async finishSlackDeletion(id) {
      const { rowCount } = await db.query(
        'finishing a Slack deletion',
        'DELETE FROM second_factor_slack_deletions WHERE id = $1',
        [id],
      );
      return (rowCount ?? 0) > 0;
    },
    async postponeSlackDeletion(id, failed) {
      await db.query(
        'postponing a Slack deletion',
        `UPDATE second_factor_slack_deletions
            SET due_at = $2::timestamptz,
                record = (record::jsonb || jsonb_build_object('attempts', $3::int, 'lastError', $4::text, 'dueAt', $5::text))::json
          WHERE id = $1`,
        [id, failed.dueAt, failed.attempts, failed.lastError, failed.dueAt],
      );
    },
  };
}
