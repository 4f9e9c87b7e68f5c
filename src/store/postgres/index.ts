/**
 * The bot's store in PostgreSQL, for replicated deployments (several bot processes on one database): the same
 * repositories as the lowdb file, each change one transaction. Opening applies the schema migrations first.
 */
import pg from 'pg';
import type {
  AlertRepository,
  AuditRepository,
  BalanceRepository,
  FormSubmissionRepository,
  FreezeRepository,
  InvoiceRepository,
  PayoutRepository,
  SecondFactorRepository,
  SwapQuoteRepository,
} from '../../features/repositories.js';
import { StoreError } from '../../kernel/store-error.js';
import { type Logger, silentLogger } from '../../logger.js';
import { alertsOver } from './alerts.js';
import { auditOver } from './audit.js';
import { balancesOver } from './balances.js';
import { databaseError, databaseOver, describeDatabaseError } from './database.js';
import { formSubmissionsOver } from './form-submissions.js';
import { freezeOver } from './freeze.js';
import { invoicesOver } from './invoices.js';
import { migrate, missingMigrations } from './migrations.js';
import { payoutsOver } from './payouts.js';
import { secondFactorOver } from './second-factor.js';
import { swapQuotesOver } from './swap-quotes.js';

export { createLeaderLease, type LeaderLease } from './lease.js';
export { MIGRATIONS } from './migrations.js';

export interface PostgresStore {
  readonly swapQuotes: SwapQuoteRepository;
  readonly alerts: AlertRepository;
  readonly balances: BalanceRepository;
  readonly payouts: PayoutRepository;
  readonly invoices: InvoiceRepository;
  readonly freeze: FreezeRepository;
  readonly audit: AuditRepository;
  readonly secondFactor: SecondFactorRepository;
  readonly formSubmissions: FormSubmissionRepository;
  /** Whether the database answers now, and a line saying so. */
  health(): Promise<{ ok: boolean; detail: string }>;
  /** Ends the pool's connections once their queries are done. */
  close(): Promise<void>;
}

export interface PostgresStoreOptions {
  logger?: Logger;
  /** This replica's name, shown in pg_stat_activity (application_name). */
  replicaName?: string;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  connectionTimeoutMillis?: number;
  /**
   * For tools that only read (`npm run audit`): no migration is applied, every session is read-only
   * (`default_transaction_read_only`), and a database that lacks a schema step of this version is refused.
   */
  readOnly?: boolean;
}

/** Opens the database at `connectionString` (it may hold a password: it appears in no message) and migrates it. */
export async function openPostgresStore(
  connectionString: string,
  options: PostgresStoreOptions = {},
): Promise<PostgresStore> {
  const logger = options.logger ?? silentLogger;
  const pool = new pg.Pool({
    connectionString,
    application_name: options.replicaName ?? 'treasury-bot',
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    // A replica that stalls (or loses the network) inside a transaction must not hold a row lock for long.
    idle_in_transaction_session_timeout: 60_000,
    statement_timeout: 60_000,
    ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
  });
  const db = databaseOver(pool);
  // An idle connection that drops (a database restart, a failover) is an event, not a crash: the pool replaces it.
  pool.on('error', (error) =>
    logger.warn('an idle database connection failed; the pool will open another', {
      problem: describeDatabaseError(error, db.redact),
    }),
  );

  try {
    if (!options.readOnly) await migrate(db, logger);
    else {
      const missing = await missingMigrations(db);
      if (missing.length > 0)
        throw new StoreError(
          `the database lacks schema step(s) ${missing.join(', ')} of this version: start the bot of this version once (it applies them), then try again`,
        );
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }

  let closed = false;
  return {
    swapQuotes: swapQuotesOver(db, logger),
    alerts: alertsOver(db, logger),
    balances: balancesOver(db, logger),
    payouts: payoutsOver(db, logger),
    invoices: invoicesOver(db, logger),
    freeze: freezeOver(db, logger),
    audit: auditOver(db, logger),
    secondFactor: secondFactorOver(db, logger),
    formSubmissions: formSubmissionsOver(db),
    async health() {
      try {
        await db.query('checking the database', 'SELECT 1');
        return {
          ok: true,
          detail: `database answers (${pool.totalCount} connection(s), ${pool.waitingCount} waiting)`,
        };
      } catch (error) {
        return { ok: false, detail: error instanceof Error ? error.message : describeDatabaseError(error, db.redact) };
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await pool.end();
      } catch (error) {
        throw databaseError('closing the connections', error, db.redact);
      }
    },
  };
}
