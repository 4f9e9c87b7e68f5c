/**
 * Balance thresholds and their trail, daily snapshots and daily digests in PostgreSQL (migration 2): one row per
 * threshold, trail entry, day's snapshot and day's digest, each record as JSON. Changes of one row lock it
 * (`FOR UPDATE`); the digest's claim is the insert of its day's row, so two replicas claiming at once get one.
 */
import type { z } from 'zod';
import { DailySnapshot, DigestRecord } from '../../features/digest/records.js';
import type { BalanceRepository } from '../../features/repositories.js';
import { StoredThreshold, THRESHOLD_TRAIL_RETENTION_MS, ThresholdChange } from '../../features/thresholds/rules.js';
import { StoreError } from '../../kernel/store-error.js';
import type { Logger } from '../../logger.js';
import { removedEntry, setEntry, snapshotCutoff } from '../balance-changes.js';
import { problemOf } from '../load-alerts.js';
import type { Database, Transaction } from './database.js';

/** A stored record checked against its schema; the record itself is returned, so newer fields survive. */
function decode<T>(schema: z.ZodType<T>, record: unknown, what: string): T {
  const parsed = schema.safeParse(record);
  if (parsed.success) return record as T;
  throw new StoreError(`${what} in the database is damaged: ${problemOf(parsed.error)}`);
}

/** Trail entries past the retention leave. */
async function pruneTrail(tx: Transaction, at: Date): Promise<void> {
  await tx.query('DELETE FROM threshold_changes WHERE at < $1', [
    new Date(at.getTime() - THRESHOLD_TRAIL_RETENTION_MS),
  ]);
}

/** Snapshots and digests of days past the retention (counted from the newest snapshot) leave. */
async function pruneDays(tx: Transaction): Promise<void> {
  const { rows } = await tx.query<{ newest: string }>(
    "SELECT to_char(max(day), 'YYYY-MM-DD') AS newest FROM balance_snapshots",
  );
  const cutoff = snapshotCutoff(rows[0]!.newest);
  await tx.query('DELETE FROM balance_snapshots WHERE day < $1::date', [cutoff]);
  await tx.query('DELETE FROM daily_digests WHERE day < $1::date', [cutoff]);
}

export function balancesOver(db: Database, _logger: Logger): BalanceRepository {
  return {
    async listThresholds() {
      const { rows } = await db.query<{ record: unknown }>(
        'reading the balance thresholds',
        'SELECT record FROM balance_thresholds ORDER BY asset_id',
      );
      return rows.map((row) => decode(StoredThreshold, row.record, 'a balance threshold'));
    },
    async setThreshold(threshold, by, at) {
      return db.transaction('setting a balance threshold', async (tx) => {
        const { rows } = await tx.query<{ record: unknown }>(
          'SELECT record FROM balance_thresholds WHERE asset_id = $1 FOR UPDATE',
          [threshold.assetId],
        );
        const previous = rows[0] ? decode(StoredThreshold, rows[0].record, 'a balance threshold') : undefined;
        const stored: StoredThreshold = { ...threshold, setBy: by, setAt: at.toISOString() };
        await tx.query(
          `INSERT INTO balance_thresholds (asset_id, record) VALUES ($1, $2)
           ON CONFLICT (asset_id) DO UPDATE SET record = EXCLUDED.record`,
          [threshold.assetId, JSON.stringify(stored)],
        );
        await tx.query('INSERT INTO threshold_changes (at, record) VALUES ($1, $2)', [
          at,
          JSON.stringify(setEntry(threshold, previous, by, at)),
        ]);
        await pruneTrail(tx, at);
        return previous ? { previous } : {};
      });
    },
    async removeThreshold(assetId, by, at) {
      return db.transaction('removing a balance threshold', async (tx) => {
        const { rows } = await tx.query<{ record: unknown }>(
          'DELETE FROM balance_thresholds WHERE asset_id = $1 RETURNING record',
          [assetId],
        );
        if (!rows[0]) return {};
        const removed = decode(StoredThreshold, rows[0].record, 'a balance threshold');
        await tx.query('INSERT INTO threshold_changes (at, record) VALUES ($1, $2)', [
          at,
          JSON.stringify(removedEntry(removed, by, at)),
        ]);
        await pruneTrail(tx, at);
        return { removed };
      });
    },
    async listThresholdChanges(since) {
      const { rows } = await db.query<{ record: unknown }>(
        'reading the threshold trail',
        'SELECT record FROM threshold_changes WHERE at >= $1 ORDER BY seq',
        [since],
      );
      return rows.map((row) => decode(ThresholdChange, row.record, 'a threshold change'));
    },
    async saveSnapshot(snapshot) {
      await db.transaction('keeping the daily balance snapshot', async (tx) => {
        await tx.query(
          `INSERT INTO balance_snapshots (day, record) VALUES ($1::date, $2)
           ON CONFLICT (day) DO UPDATE SET record = EXCLUDED.record`,
          [snapshot.day, JSON.stringify(snapshot)],
        );
        await pruneDays(tx);
      });
    },
    async keepSnapshot(snapshot) {
      return db.transaction('keeping the daily balance snapshot', async (tx) => {
        // The insert is the claim: two replicas keeping the same day at once store one snapshot.
        const inserted = await tx.query(
          'INSERT INTO balance_snapshots (day, record) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING',
          [snapshot.day, JSON.stringify(snapshot)],
        );
        if (inserted.rowCount === 1) {
          await pruneDays(tx);
          return { kept: true, snapshot };
        }
        const { rows } = await tx.query<{ record: unknown }>(
          'SELECT record FROM balance_snapshots WHERE day = $1::date',
          [snapshot.day],
        );
        return { kept: false, snapshot: decode(DailySnapshot, rows[0]!.record, 'a daily balance snapshot') };
      });
    },
    async listSnapshots(fromDay) {
      const { rows } = await db.query<{ record: unknown }>(
        'reading the daily balance snapshots',
        'SELECT record FROM balance_snapshots WHERE day >= $1::date ORDER BY day',
        [fromDay],
      );
      return rows.map((row) => decode(DailySnapshot, row.record, 'a daily balance snapshot'));
    },
    async claimDigest(record) {
      return db.transaction("claiming the day's digest", async (tx) => {
        const inserted = await tx.query(
          'INSERT INTO daily_digests (day, record) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING',
          [record.day, JSON.stringify(record)],
        );
        if (inserted.rowCount === 1) return { claimed: true, record };
        const { rows } = await tx.query<{ record: unknown }>('SELECT record FROM daily_digests WHERE day = $1::date', [
          record.day,
        ]);
        return { claimed: false, record: decode(DigestRecord, rows[0]!.record, "a day's digest") };
      });
    },
    async getDigest(day) {
      const { rows } = await db.query<{ record: unknown }>(
        "reading the day's digest",
        'SELECT record FROM daily_digests WHERE day = $1::date',
        [day],
      );
      return rows[0] ? decode(DigestRecord, rows[0].record, "a day's digest") : undefined;
    },
    async changeDigest(day, change) {
      return db.transaction("recording the day's digest", async (tx) => {
        const { rows } = await tx.query<{ record: unknown }>(
          'SELECT record FROM daily_digests WHERE day = $1::date FOR UPDATE',
          [day],
        );
        if (!rows[0]) return undefined;
        const record = decode(DigestRecord, rows[0].record, "a day's digest");
        const before = JSON.stringify(record);
        const result = change(record);
        if (JSON.stringify(record) !== before)
          await tx.query('UPDATE daily_digests SET record = $2 WHERE day = $1::date', [day, JSON.stringify(record)]);
        return { result, record };
      });
    },
  };
}
