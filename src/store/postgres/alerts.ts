/**
 * The alert poller's bookkeeping in PostgreSQL: the bookkeeping but its outbox in the one `alert_state` row,
 * the outbox one row per item in `alert_outbox` (in `seq` order). Every change is one transaction that first
 * locks the state row, so changes from any replica run one at a time, each on what the previous one committed;
 * it applies the same change as the lowdb file (alert-changes.ts) and writes back only what changed, appending what
 * it did to alerts people own to `alert_trail` in the same transaction.
 */
import { AlertsState, OutboxItem } from '../../features/alerts/records.js';
import { type AlertTrailEntry, alertTrailEntries, trailCutoff, trailMarks } from '../../features/alerts/trail.js';
import type { AlertRepository } from '../../features/repositories.js';
import { StoreError } from '../../kernel/store-error.js';
import type { Logger } from '../../logger.js';
import { alertChangeMethods } from '../alert-changes.js';
import { loadAlertsState, type RejectedRecord } from '../load-alerts.js';
import type { Database, Transaction } from './database.js';

interface OutboxRow {
  seq: string;
  item: unknown;
}

/** The bookkeeping as stored, and which outbox row holds each item handed to the change. */
interface Loaded {
  alerts: AlertsState;
  rows: { seq: string; text: string }[];
  stateText: string;
}

/** The state row without the outbox, as stored. */
function stateText(alerts: AlertsState): string {
  const { outbox: _outbox, ...rest } = alerts;
  return JSON.stringify(rest);
}

/**
 * Makes the outbox rows hold `after`, in order, touching as few rows as it can: rows whose item is unchanged
 * stay (so does their place), the others are deleted, and new items are appended. When that cannot give the
 * order `after` has (an item changed or inserted before one that stays), the outbox is written anew.
 */
async function syncOutbox(tx: Transaction, before: Loaded['rows'], after: readonly OutboxItem[]): Promise<void> {
  const afterTexts = after.map((item) => JSON.stringify(item));
  const kept = new Set<string>();
  const appended: string[] = [];
  let next = 0;
  let inOrder = true;
  for (const text of afterTexts) {
    let at = next;
    while (at < before.length && before[at]!.text !== text) at += 1;
    if (at < before.length) {
      if (appended.length > 0) inOrder = false; // a new item before one that stays: seq order cannot say it
      kept.add(before[at]!.seq);
      next = at + 1;
    } else {
      appended.push(text);
    }
  }
  const removed = inOrder
    ? before.filter((row) => !kept.has(row.seq)).map((row) => row.seq)
    : before.map((row) => row.seq);
  const inserted = inOrder ? appended : afterTexts;
  if (removed.length > 0) await tx.query('DELETE FROM alert_outbox WHERE seq = ANY($1::bigint[])', [removed]);
  if (inserted.length > 0) {
    // The seq values are drawn first and given out in order: INSERT … SELECT … ORDER BY does not promise that
    // the column default is evaluated in the sorted order.
    const drawn = await tx.query<{ seq: string }>(
      `SELECT nextval(pg_get_serial_sequence('alert_outbox', 'seq'))::text AS seq FROM generate_series(1, $1)`,
      [inserted.length],
    );
    const seqs = drawn.rows.map((row) => BigInt(row.seq)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    await tx.query(
      'INSERT INTO alert_outbox (seq, item) SELECT seq, item::json FROM unnest($1::bigint[], $2::text[]) AS t(seq, item)',
      [seqs.map(String), inserted],
    );
  }
}

/**
 * Appends the change's trail entries (migration 5), in this transaction: the trail has an entry exactly when the
 * change was committed. Entries past the retention leave.
 */
async function appendToTrail(tx: Transaction, entries: readonly AlertTrailEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.query(
    'INSERT INTO alert_trail (at, record) SELECT at, record::json FROM unnest($1::timestamptz[], $2::text[]) WITH ORDINALITY AS t(at, record, n) ORDER BY n',
    [entries.map((entry) => entry.at), entries.map((entry) => JSON.stringify(entry))],
  );
  const newest = entries
    .map((entry) => entry.at)
    .sort()
    .at(-1)!;
  const cutoff = trailCutoff(newest);
  if (cutoff !== '') await tx.query('DELETE FROM alert_trail WHERE at < $1', [cutoff]);
}

/**
 * Owned alerts not resolved, by state at $1 (an ISO time), as openAlertCounts counts them: `snoozed` while
 * snoozedUntil is later than $1, else the life's state. Counted inside the database, over the one `alert_state` row
 * the owned alerts live in (no table of alerts, so no index can help; the row is neither sent nor parsed here).
 * The times are ISO strings from toISOString, so they compare as text (byte order: COLLATE "C").
 */
const COUNT_OPEN_ALERTS = `
  SELECT CASE WHEN (alert.value->'life'->>'snoozedUntil') COLLATE "C" > $1::text COLLATE "C" THEN 'snoozed'
              ELSE alert.value->'life'->>'state' END AS state,
         count(*)::int AS count
    FROM alert_state,
         json_each(CASE WHEN json_typeof(alert_state.state->'owned') = 'object' THEN alert_state.state->'owned' END)
           AS alert
   WHERE alert_state.id = 1 AND alert.value->'life'->>'state' IS DISTINCT FROM 'resolved'
   GROUP BY 1`;

export function alertsOver(db: Database, logger: Logger): AlertRepository {
  /**
   * The rows as the bookkeeping, checked part by part by the loader the lowdb file uses too (load-alerts.ts):
   * keyed records come back prototype-free, and a damaged part is left out (and logged) rather than failing every
   * poll. A damaged outbox row stays in the table untouched.
   */
  function assemble(state: unknown, outboxRows: readonly OutboxRow[]): Loaded {
    const raw = typeof state === 'object' && state !== null && !Array.isArray(state) ? { ...state, outbox: [] } : state;
    const rejected: RejectedRecord[] = [];
    const alerts = loadAlertsState(raw, rejected);
    for (const record of rejected)
      logger.error('a damaged part of the alert bookkeeping in the database was left out', {
        record: record.where,
        problem: record.problem,
      });
    const rows: Loaded['rows'] = [];
    for (const row of outboxRows) {
      const parsed = OutboxItem.safeParse(row.item);
      if (!parsed.success) {
        logger.error('a damaged outbox item in the database was left out', {
          seq: row.seq,
          problem: parsed.error.issues[0]?.message ?? 'invalid',
        });
        continue;
      }
      alerts.outbox.push(parsed.data);
      rows.push({ seq: row.seq, text: JSON.stringify(parsed.data) });
    }
    return { alerts, rows, stateText: stateText(alerts) };
  }

  async function load(tx: Transaction, lock: boolean): Promise<Loaded> {
    const { rows } = await tx.query<{ state: unknown }>(
      `SELECT state FROM alert_state WHERE id = 1${lock ? ' FOR UPDATE' : ''}`,
    );
    if (!rows[0]) throw new StoreError('the alert bookkeeping row is missing from the database');
    // After the lock: this statement sees what the previous change committed. (Ordered by the bigint column, not its text.)
    const outbox = await tx.query<OutboxRow>(
      'SELECT seq::text AS seq, item FROM alert_outbox ORDER BY alert_outbox.seq',
    );
    return assemble(rows[0].state, outbox.rows);
  }

  return {
    readAlerts: () =>
      db.transaction('reading the alert bookkeeping', async (tx) => (await load(tx, false)).alerts, {
        readOnlySnapshot: true,
      }),

    countOpenAlerts: async (now) => {
      const { rows } = await db.query<{ state: string; count: number }>('counting the open alerts', COUNT_OPEN_ALERTS, [
        now.toISOString(),
      ]);
      return Object.fromEntries(rows.map((row) => [row.state, row.count]));
    },

    ...alertChangeMethods((apply) =>
      db.transaction('changing the alert bookkeeping', async (tx) => {
        const loaded = await load(tx, true);
        const alerts = loaded.alerts;
        const before = trailMarks(alerts);
        const result = apply(alerts);
        const checked = AlertsState.safeParse(alerts);
        if (!checked.success) {
          const [issue] = checked.error.issues;
          throw new StoreError(
            `the alert bookkeeping would not be valid: ${issue?.path.join('.') || 'the state'}: ${issue?.message ?? 'invalid'}`,
          );
        }
        const text = stateText(alerts);
        if (text !== loaded.stateText) await tx.query('UPDATE alert_state SET state = $1::json WHERE id = 1', [text]);
        await syncOutbox(tx, loaded.rows, alerts.outbox);
        await appendToTrail(tx, alertTrailEntries(before, alerts));
        return result;
      }),
    ),
  };
}
