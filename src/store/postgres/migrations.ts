/**
 * The schema, as versioned steps applied in order at open. Each step runs once per database: the versions
 * applied are in `schema_migrations`, and the whole run is one transaction under a transaction-level advisory
 * lock, so replicas starting at once apply each step once (the later one waits, then finds nothing to do).
 * Released steps are never edited: a change of schema is a new step.
 */
import type { Logger } from '../../logger.js';
import type { Database } from './database.js';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** Advisory lock key of the migration run: "treasury" in ASCII. Other advisory lock users must pick another. */
const MIGRATION_LOCK_KEY = 0x7472_6561_7375_7279n;

// Records are `json`, not `jsonb`: jsonb refuses \u0000 and unpaired surrogates, which text from the payment
// API (or a clipped emoji) can hold; json keeps the text as JSON.stringify wrote it.
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'swap quotes and alert bookkeeping',
    sql: `
      CREATE TABLE swap_quotes (
        id text PRIMARY KEY,
        status text NOT NULL,
        estimated_at timestamptz NOT NULL,
        record json NOT NULL
      );
      CREATE INDEX swap_quotes_by_estimate ON swap_quotes (estimated_at DESC, id DESC);
      CREATE INDEX swap_quotes_by_status ON swap_quotes (status);
      CREATE INDEX swap_quotes_to_follow ON swap_quotes (id) WHERE status = 'created' AND (record->>'followEndedAt') IS NULL;

      -- The alert bookkeeping but its outbox: one row, locked by every change of the bookkeeping.
      CREATE TABLE alert_state (
        id int PRIMARY KEY CHECK (id = 1),
        state json NOT NULL
      );
      INSERT INTO alert_state (id, state) VALUES (1, '{}');

      -- One row per outbox item, in outbox order (the item's key is inside it: keys are API text).
      CREATE TABLE alert_outbox (
        seq bigserial PRIMARY KEY,
        item json NOT NULL
      );
    `,
  },
  {
    version: 2,
    description: 'balance thresholds and their trail, daily balance snapshots, daily digests',
    sql: `
      CREATE TABLE balance_thresholds (
        asset_id text PRIMARY KEY,
        record json NOT NULL
      );
      -- The trail of threshold changes: appended, never changed (the audit export reads it).
      CREATE TABLE threshold_changes (
        seq bigserial PRIMARY KEY,
        at timestamptz NOT NULL,
        record json NOT NULL
      );
      CREATE INDEX threshold_changes_by_time ON threshold_changes (at);
      CREATE TABLE balance_snapshots (
        day date PRIMARY KEY,
        record json NOT NULL
      );
      -- One row per day: inserting it is the claim that makes one digest a day across replicas.
      CREATE TABLE daily_digests (
        day date PRIMARY KEY,
        record json NOT NULL
      );
    `,
  },
  {
    version: 3,
    description: 'requests to create a payout container',
    sql: `
      -- One row per request; a claim locks it (FOR UPDATE), so two replicas never both send create-payout.
      CREATE TABLE payout_requests (
        id text PRIMARY KEY,
        status text NOT NULL,
        requested_at timestamptz NOT NULL,
        record json NOT NULL
      );
      CREATE INDEX payout_requests_by_time ON payout_requests (requested_at, id);
    `,
  },
  {
    version: 4,
    description: 'invoices followed until they leave pending',
    sql: `
      -- One row per invoice, kept while it is open and until Slack heard its outcome; changes lock it (FOR UPDATE).
      -- open: no outcome yet (the bound counts these, oldest first by created_at).
      CREATE TABLE followed_invoices (
        id text PRIMARY KEY,
        created_at timestamptz NOT NULL,
        open boolean NOT NULL,
        record json NOT NULL
      );
      CREATE INDEX followed_invoices_open ON followed_invoices (created_at, id) WHERE open;
    `,
  },
  {
    version: 5,
    description: 'the alert trail: what happened to each alert people own, kept after the alert leaves',
    sql: `
      -- Appended in the same transaction as the alert change, never changed; 400 days kept (the audit export reads it).
      CREATE TABLE alert_trail (
        seq bigserial PRIMARY KEY,
        at timestamptz NOT NULL,
        record json NOT NULL
      );
      CREATE INDEX alert_trail_by_time ON alert_trail (at, seq);
    `,
  },
  {
    version: 6,
    description: 'swap quotes leave the working table 30 days after they ended, into an archive the audit export reads',
    sql: `
      -- When the quote ended (final, not followed; its last recorded time): written with every change of the row.
      -- NULL while it can still change, and on rows written before this step (filled in by the first archiving).
      ALTER TABLE swap_quotes ADD COLUMN ended_at timestamptz;
      CREATE INDEX swap_quotes_by_end ON swap_quotes (ended_at) WHERE ended_at IS NOT NULL;
      CREATE INDEX swap_quotes_not_ended ON swap_quotes (estimated_at) WHERE ended_at IS NULL;
      -- Quotes past the retention, moved here in one statement with their delete: never changed again, read only by
      -- the audit export (by estimate time, as the working table).
      CREATE TABLE swap_quotes_archive (
        id text PRIMARY KEY,
        status text NOT NULL,
        estimated_at timestamptz NOT NULL,
        ended_at timestamptz NOT NULL,
        archived_at timestamptz NOT NULL DEFAULT now(),
        record json NOT NULL
      );
      CREATE INDEX swap_quotes_archive_by_estimate ON swap_quotes_archive (estimated_at, id);
    `,
  },
  {
    version: 7,
    description:
      'the freeze: one row, locked by every change of it and read (FOR SHARE) by every swap or payout decision',
    sql: `
      -- The freeze in force (if any) and its trail, as one record: a freeze changes rarely, and every decision that
      -- moves money reads this row inside its own transaction, so a click racing a freeze waits for it.
      CREATE TABLE freeze_state (
        id int PRIMARY KEY CHECK (id = 1),
        record json NOT NULL
      );
      INSERT INTO freeze_state (id, record) VALUES (1, '{"trail":[]}');
    `,
  },
  {
    version: 8,
    description:
      'the second factor: one row per enrolled person (its TOTP secret sealed), changed under FOR UPDATE, and its trail',
    sql: `
      -- Each person's enrolment as one record (the secret in it is sealed with TOTP_ENCRYPTION_KEY): every code is
      -- judged in a transaction holding this row, so two replicas never accept the same code twice.
      CREATE TABLE second_factor_enrolments (
        user_id text PRIMARY KEY,
        record json NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- What happened to enrolments (started, enrolled, reset, wrong codes, locks): never a secret or a code.
      CREATE TABLE second_factor_trail (
        seq bigserial PRIMARY KEY,
        at timestamptz NOT NULL,
        user_id text NOT NULL,
        record json NOT NULL
      );
      CREATE INDEX second_factor_trail_by_time ON second_factor_trail (at, seq);
    `,
  },
  {
    version: 9,
    description: 'forms: each submitted view claimed once across replicas (kept a day)',
    sql: `
      CREATE TABLE form_submissions (
        view_id text PRIMARY KEY,
        claimed_at timestamptz NOT NULL
      );
      CREATE INDEX form_submissions_by_time ON form_submissions (claimed_at);
    `,
  },
  {
    version: 10,
    description:
      'the second factor: enrolments count once another admin confirmed them (earlier ones stay valid), and the queue of Slack deletions of enrolment DMs',
    sql: `
      -- From now on a new enrolment counts for approvals only once another admin confirmed it in ALERT_CHANNEL.
      -- Enrolments confirmed with a code before this step were valid under the rule of their time and stay valid:
      -- they are marked confirmed (without an admin: carried over), at the time they were enrolled.
      UPDATE second_factor_enrolments
         SET record = (record::jsonb || jsonb_build_object('adminConfirmation',
               jsonb_build_object('at', coalesce(record->>'enrolledAt', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))))::json,
             updated_at = now()
       WHERE json_typeof(record) = 'object'
         AND record->>'state' = 'enrolled'
         AND record->'adminConfirmation' IS NULL;
      -- Enrolment DMs (the message showing the secret, the QR code's file) to delete in Slack: queued in the
      -- transaction that confirms, lapses, replaces or resets the enrolment, kept until Slack confirms the deletion.
      CREATE TABLE second_factor_slack_deletions (
        id text PRIMARY KEY,
        due_at timestamptz NOT NULL,
        record json NOT NULL
      );
      CREATE INDEX second_factor_slack_deletions_due ON second_factor_slack_deletions (due_at);
    `,
  },
];

/** Applies the steps this database lacks; returns the versions it applied. */
export async function migrate(
  db: Database,
  logger: Logger,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const { applied, ahead, newest } = await db.transaction('applying the schema migrations', async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((row) => row.version));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await tx.query(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, now())', [migration.version]);
      applied.push(migration.version);
    }
    const newest = Math.max(0, ...migrations.map((m) => m.version));
    return { applied, newest, ahead: [...done].filter((version) => version > newest) };
  });
  for (const version of applied)
    logger.info('applied a database schema migration', {
      version,
      description: migrations.find((m) => m.version === version)?.description,
    });
  // A newer replica already migrated (a rolling upgrade): its steps only add, so this version keeps working.
  if (ahead.length > 0)
    logger.warn('the database schema is newer than this version of the bot', {
      newestKnown: newest,
      newestApplied: Math.max(...ahead),
    });
  return applied;
}

/** The steps of `migrations` this database has not applied (all of them when it was never migrated). Reads only. */
export async function missingMigrations(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const { rows } = await db.query<{ table: string | null }>(
    'reading the schema version',
    "SELECT to_regclass('schema_migrations')::text AS table",
  );
  const done = new Set<number>();
  if (rows[0]?.table) {
    const applied = await db.query<{ version: number }>(
      'reading the schema version',
      'SELECT version FROM schema_migrations',
    );
    for (const row of applied.rows) done.add(row.version);
  }
  return migrations
    .map((migration) => migration.version)
    .filter((version) => !done.has(version))
    .sort((a, b) => a - b);
}
