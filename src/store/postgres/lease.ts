/**
 * A leader lease: a session-level advisory lock held on a dedicated connection (never a pooled one: the lock
 * belongs to the connection that took it). The database releases it when that connection ends, however it
 * ends, so a replica that dies or loses the database loses the lease and the other one can take it.
 */
import pg from 'pg';
import { asCodedError } from '../../kernel/errors.js';
import { StoreError } from '../../kernel/store-error.js';
import { type Logger, silentLogger } from '../../logger.js';
import { databaseError, redactorFor } from './database.js';

export interface LeaseHolder {
  /** The holder's application_name (its replica name). */
  name: string;
  /** The holder's backend process id. */
  pid: number;
  /** When the holder's connection began. */
  connectedAt: Date | undefined;
}

export interface LeaderLease {
  /** Takes the lease if it is free, (re)connecting first when the connection was lost. True while this process holds it. */
  tryAcquire(): Promise<boolean>;
  /** Whether this process held the lease at its last check (a lost connection clears it at once). */
  isHeld(): boolean;
  /** Who holds the lease now, if anyone. */
  holderInfo(): Promise<LeaseHolder | undefined>;
  /** Gives the lease up, keeping the connection. */
  release(): Promise<void>;
  /** Gives the lease up and closes the connection. */
  close(): Promise<void>;
}

export interface LeaseOptions {
  /** The advisory lock key: one per lease, the same in every replica (not MIGRATION_LOCK_KEY). */
  key: bigint | number;
  logger?: Logger;
  /** This replica's name, shown to the others by holderInfo (the connection's application_name). */
  replicaName?: string;
  connectionTimeoutMillis?: number;
}

/** The lease on `key`. Nothing connects until the first call. */
export function createLeaderLease(connectionString: string, options: LeaseOptions): LeaderLease {
  const logger = options.logger ?? silentLogger;
  if (typeof options.key === 'number' && !Number.isSafeInteger(options.key))
    throw new StoreError('the lease key must be an integer');
  const key = BigInt(options.key);
  if (key < -(2n ** 63n) || key >= 2n ** 63n) throw new StoreError('the lease key must fit a signed 64-bit integer');
  // pg_locks shows a bigint advisory key as its high and low 32 bits (classid, objid), objsubid 1.
  const unsigned = BigInt.asUintN(64, key);
  const classid = (unsigned >> 32n).toString();
  const objid = (unsigned & 0xffff_ffffn).toString();
  const keyText = key.toString();
  const redact = redactorFor({ connectionString });
  const config: pg.ClientConfig = {
    connectionString,
    application_name: options.replicaName ?? 'treasury-bot',
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
    // A dead peer is noticed by the socket, and a hung query cannot hold tryAcquire forever.
    keepAlive: true,
    query_timeout: 10_000,
    // The server keeps a session (and its lock) until it notices the client is gone: a half-open connection
    // after a network split would hold the lease for hours with the defaults. These make it notice in ~30 s.
    options:
      '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3 -c tcp_user_timeout=30000',
  };

  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let held = false;
  let closed = false;

  /** Forgets a connection that failed: its lock, if any, is gone with it. */
  function drop(lost: pg.Client, reason: string): void {
    if (client !== lost) return;
    client = undefined;
    if (held)
      logger.warn('lost the database connection holding the leader lease: the lease is lost', {
        reason: redact(reason).slice(0, 200),
      });
    held = false;
    lost.end().catch(() => {});
  }

  async function connection(): Promise<pg.Client> {
    if (closed) throw new StoreError('the leader lease is closed');
    if (client) return client;
    connecting ??= (async () => {
      const fresh = new pg.Client(config);
      fresh.on('error', (error) => drop(fresh, error.message));
      fresh.on('end', () => drop(fresh, 'the connection ended'));
      try {
        await fresh.connect();
      } catch (error) {
        fresh.end().catch(() => {});
        throw databaseError('connecting for the leader lease', error, redact);
      }
      client = fresh;
      return fresh;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  async function query<R extends pg.QueryResultRow>(doing: string, text: string, values: unknown[]): Promise<R[]> {
    const current = await connection();
    try {
      return (await current.query<R>(text, values)).rows;
    } catch (error) {
      // Any failure but the database's own answer leaves the connection (and so the lock) in doubt.
      if (!(error instanceof pg.DatabaseError)) drop(current, asCodedError(error).message);
      throw databaseError(doing, error, redact);
    }
  }

  // One lease operation at a time: two overlapping pg_try_advisory_lock calls would stack two holds.
  let queue: Promise<unknown> = Promise.resolve();
  function serial<R>(operation: () => Promise<R>): Promise<R> {
    const next = queue.then(operation, operation);
    queue = next.catch(() => undefined);
    return next;
  }

  async function tryAcquire(): Promise<boolean> {
    if (held) {
      // Held as long as the connection lives (taking it again would stack a second hold on it).
      try {
        await query('checking the leader lease', 'SELECT 1', []);
        return held;
      } catch {
        // the connection is gone, and the lock with it: try again on a new one
      }
    }
    try {
      const [row] = await query<{ acquired: boolean }>(
        'taking the leader lease',
        'SELECT pg_try_advisory_lock($1::bigint) AS acquired',
        [keyText],
      );
      held = row?.acquired === true;
      if (held) logger.info('took the leader lease', { replica: config.application_name });
      return held;
    } catch (error) {
      logger.warn('could not check the leader lease', {
        problem: asCodedError(error).message,
      });
      return false;
    }
  }

  return {
    tryAcquire: () => serial(tryAcquire),

    isHeld: () => held,

    async holderInfo() {
      const [row] = await query<{ name: string | null; pid: number; connected_at: Date | null }>(
        'finding the leader lease holder',
        `SELECT a.application_name AS name, l.pid, a.backend_start AS connected_at
           FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
            AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [classid, objid],
      );
      return row && { name: row.name ?? '', pid: row.pid, connectedAt: row.connected_at ?? undefined };
    },

    release: () =>
      serial(async () => {
        if (!held || !client) return;
        held = false;
        await query('releasing the leader lease', 'SELECT pg_advisory_unlock($1::bigint)', [keyText]);
        logger.info('released the leader lease', { replica: config.application_name });
      }),

    async close() {
      if (closed) return;
      closed = true;
      held = false;
      const current = client ?? (await connecting?.catch(() => undefined));
      client = undefined;
      // Ending the session releases the lock.
      await current?.end().catch(() => {});
    },
  };
}
