import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { z } from 'zod';
import { silentLogger, type Logger } from '../logger.js';

/** The state file could not be used at all (locked by another process, unreadable directory…). */
export class StoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreError';
  }
}

/** A typed JSON state file behind lowdb. Nothing else in the code touches the file. */
export interface Store<T> {
  /** The current state. Treat it as read-only: every change goes through `update`. */
  read(): Readonly<T>;
  /**
   * Applies `mutate` to the state and resolves once the change is on disk (flushed with fsync). Updates run one at a time, in call
   * order, so two read-modify-write cycles never overwrite each other. When the write fails the change is
   * rolled back in memory and the error is thrown.
   */
  update<R>(mutate: (draft: T) => R): Promise<R>;
  /** Where a corrupt file was moved at start-up, if it was. */
  readonly recoveredCorruptFile: string | undefined;
  /** Releases the file (and its lock) after pending writes. */
  close(): Promise<void>;
  /**
   * Releases the file at once without waiting for pending updates, which then fail: what a crash does.
   * For tests of crash recovery.
   */
  abandon(): Promise<void>;
}

const openFiles = new Set<string>();

/**
 * lowdb replaces the file atomically (temp file + rename) but does not fsync. A swap decision must survive a
 * power cut, not just a process crash, or a restart could offer an approved quote again: so every update is
 * flushed, file and directory, before it counts as written.
 */
async function syncToDisk(file: string): Promise<void> {
  for (const path of [file, dirname(file)]) {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<file>.lock` so two processes never share one state file (lowdb loses writes when they do).
 * A lock left by a process that no longer exists is taken over.
 */
function acquireLock(lockFile: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processIsAlive(holder)) {
        throw new StoreError(`The state file is in use by another running bot (pid ${holder}): ${lockFile}`);
      }
      unlinkSync(lockFile);
    }
  }
  throw new StoreError(`Could not lock the state file: ${lockFile}`);
}

/**
 * Opens the state file. A file that is not JSON, or JSON of the wrong shape, is never silently wiped: it is
 * renamed to `<file>.corrupt-<time>`, reported loudly, and the bot starts from empty state.
 */
export async function openStore<T>(options: {
  file: string;
  schema: z.ZodType<T>;
  empty: () => T;
  logger?: Logger;
  now?: () => Date;
}): Promise<Store<T>> {
  const file = resolve(options.file);
  const logger = options.logger ?? silentLogger;
  if (openFiles.has(file)) throw new StoreError(`The state file is already open in this process: ${file}`);
  mkdirSync(dirname(file), { recursive: true });
  const lockFile = `${file}.lock`;
  acquireLock(lockFile);
  openFiles.add(file);

  let recoveredCorruptFile: string | undefined;
  const db = new Low<T>(new JSONFile<T>(file), options.empty());
  try {
    await db.read();
    const parsed = options.schema.safeParse(db.data);
    if (!parsed.success) throw new SyntaxError(`unexpected shape at ${parsed.error.issues[0]?.path.join('.') || '(root)'}`);
    db.data = parsed.data;
  } catch (error) {
    if (!(error instanceof SyntaxError) || !existsSync(file)) {
      openFiles.delete(file);
      unlinkSync(lockFile);
      throw error;
    }
    const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
    recoveredCorruptFile = `${file}.corrupt-${stamp}`;
    renameSync(file, recoveredCorruptFile);
    logger.error('the state file was corrupt: it was kept aside and the bot starts from empty state', {
      keptAs: recoveredCorruptFile,
      problem: error.message,
    });
    db.data = options.empty();
  }
  await db.write();

  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  let abandoned = false;
  const release = () => {
    openFiles.delete(file);
    if (existsSync(lockFile)) unlinkSync(lockFile);
  };
  return {
    read: () => db.data,
    update<R>(mutate: (draft: T) => R): Promise<R> {
      if (closed) return Promise.reject(new StoreError('the state store is closed'));
      const run = async () => {
        if (closed && abandoned) throw new StoreError('the state store was abandoned');
        const before = structuredClone(db.data);
        try {
          const result = mutate(db.data);
          await db.write();
          await syncToDisk(file);
          return result;
        } catch (error) {
          // A failed mutation or write leaves no half-applied change behind.
          db.data = before;
          throw error;
        }
      };
      const next = queue.then(run, run);
      queue = next.catch(() => undefined);
      return next;
    },
    recoveredCorruptFile,
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      release();
    },
    async abandon() {
      closed = true;
      abandoned = true;
      release();
    },
  };
}
