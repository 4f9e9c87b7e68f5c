/**
 * The bot's store in PostgreSQL, for replicated deployments (several bot processes on one database): the same
 * repositories as the lowdb file, each change one transaction. Opening applies the schema migrations first.
 */
import pg from 'pg';
import { type Logger, silentLogger } from '../../logger.js';
import type { AlertRepository, BalanceRepository, SwapQuoteRepository } from '../repository.js';
import { alertsOver } from './alerts.js';
import { balancesOver } from './balances.js';
import { databaseError, databaseOver, describeDatabaseError } from './database.js';
import { migrate } from './migrations.js';
import { swapQuotesOver } from './swap-quotes.js';

export { createPostgresAlertRepository } from './alerts.js';
export { createPostgresBalanceRepository } from './balances.js';
export { createLeaderLease, type LeaderLease, type LeaseHolder, type LeaseOptions } from './lease.js';
export { MIGRATION_LOCK_KEY, MIGRATIONS } from './migrations.js';
export { createPostgresSwapQuoteRepository } from './swap-quotes.js';

export interface PostgresStore {
  readonly swapQuotes: SwapQuoteRepository;
  readonly alerts: AlertRepository;
  readonly balances: BalanceRepository;
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
  });
  const db = databaseOver(pool);
  // An idle connection that drops (a database restart, a failover) is an event, not a crash: the pool replaces it.
  pool.on('error', (error) =>
    logger.warn('an idle database connection failed; the pool will open another', {
      problem: describeDatabaseError(error, db.redact),
    }),
  );

  try {
    await migrate(db, logger);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }

  let closed = false;
  return {
    swapQuotes: swapQuotesOver(db, logger),
    alerts: alertsOver(db, logger),
    balances: balancesOver(db, logger),
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
