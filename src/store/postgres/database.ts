/**
 * The PostgreSQL plumbing the repositories share: transactions on a pooled client, and database failures turned
 * into StoreError with a plain message that never carries the connection string or its password.
 */
import pg from 'pg';
import { CodedError, STORAGE_UNAVAILABLE } from '../../kernel/errors.js';
import { StoreError } from '../../kernel/store-error.js';

/** Removes the connection string and its password from `text` (pg messages should not hold them; belt and braces). */
export type Redact = (text: string) => string;

/** A redactor for everything secret in this connection configuration. */
export function redactorFor(options: { connectionString?: string | undefined; password?: unknown }): Redact {
  const secrets = new Set<string>();
  const { connectionString, password } = options;
  if (typeof password === 'string' && password) secrets.add(password);
  if (connectionString) {
    secrets.add(connectionString);
    try {
      const url = new URL(connectionString);
      if (url.password) {
        secrets.add(url.password);
        secrets.add(decodeURIComponent(url.password));
      }
    } catch {
      // a key=value connection string: its password is caught below
    }
    for (const match of connectionString.matchAll(/password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)/gi))
      if (match[1]) secrets.add(match[1].replace(/^'|'$/g, ''));
  }
  // Longest first, so a password inside the connection string does not leave the rest of it behind.
  const ordered = [...secrets].filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
  return (text) => ordered.reduce((out, secret) => out.split(secret).join('***'), text);
}

/** The database's complaint in a line: its message and SQLSTATE / errno code, redacted. */
export function describeDatabaseError(error: unknown, redact: Redact): string {
  if (!(error instanceof Error)) return redact(String(error)).slice(0, 300);
  const code = (error as { code?: unknown }).code;
  const message = error.message || error.name;
  return redact(typeof code === 'string' ? `${message} (${code})` : message).slice(0, 300);
}

/** A database failure while `doing` something, as the store reports it. */
export function databaseError(doing: string, error: unknown, redact: Redact): StoreError {
  return new StoreError(
    `the database failed while ${doing}: ${describeDatabaseError(error, redact)}`,
    unreachable(error) ? STORAGE_UNAVAILABLE : 'store',
  );
}

/**
 * The database could not be reached or dropped the connection (as opposed to answering with an SQL error):
 * connection refused or lost, a timeout, a server shutting down or starting (SQLSTATE class 08, 57P01–57P03),
 * too many connections (53300).
 */
function unreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (!(error instanceof pg.DatabaseError)) return true;
  const code = error.code ?? '';
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code);
}

/** Queries inside one transaction; a failing query is a StoreError already. */
export interface Transaction {
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** How one store talks to its pool. */
export interface Database {
  /** One statement, outside any transaction. */
  query<R extends pg.QueryResultRow>(doing: string, text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Errors of the
   * database become StoreError; anything else `work` throws (a business rule, a caller's bug) passes as is.
   */
  transaction<R>(
    doing: string,
    work: (tx: Transaction) => Promise<R>,
    options?: { readOnlySnapshot?: boolean },
  ): Promise<R>;
  readonly redact: Redact;
}

/** BEGIN failed on a broken connection: nothing ran, so the transaction may be tried again. */
class BrokenBeforeBegin extends CodedError {
  constructor(readonly storeError: StoreError) {
    super('store_broken_before_begin', storeError.message);
  }
}

/** The Database over `pool`. */
export function databaseOver(pool: pg.Pool): Database {
  const redact = redactorFor(pool.options);

  async function attempt<R>(doing: string, work: (tx: Transaction) => Promise<R>, begin: string): Promise<R> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw databaseError(doing, error, redact);
    }
    // Set when the connection itself may be broken: the pool must not hand it out again.
    let broken: Error | undefined;
    const run = async <Row extends pg.QueryResultRow>(text: string, values?: unknown[]) => {
      try {
        return await client.query<Row>(text, values);
      } catch (error) {
        if (!(error instanceof pg.DatabaseError)) broken = error instanceof Error ? error : new Error(String(error));
        throw databaseError(doing, error, redact);
      }
    };
    try {
      try {
        await run(begin);
      } catch (error) {
        throw broken ? new BrokenBeforeBegin(error as StoreError) : error;
      }
      const result = await work({ query: run });
      await run('COMMIT');
      return result;
    } catch (error) {
      if (!broken) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  return {
    redact,
    async query(doing, text, values) {
      try {
        return await pool.query(text, values);
      } catch (error) {
        throw databaseError(doing, error, redact);
      }
    },
    async transaction(doing, work, options) {
      const begin = options?.readOnlySnapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN';
      try {
        return await attempt(doing, work, begin);
      } catch (error) {
        if (!(error instanceof BrokenBeforeBegin)) throw error;
      }
      // A pooled connection that died while idle (a database restart, a failover) fails at BEGIN, before
      // anything ran: one more try, on a connection the pool opens anew.
      try {
        return await attempt(doing, work, begin);
      } catch (error) {
        throw error instanceof BrokenBeforeBegin ? error.storeError : error;
      }
    },
  };
}
