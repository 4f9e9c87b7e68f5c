/**
 * The typed JSON state file behind lowdb (Store, openStore): one process at a time (lock.ts), every update
 * serialized and fsynced, damage set aside rather than wiped (a corrupt file, or damaged records).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { CodedError } from '../../kernel/errors.js';
import { StoreError } from '../../kernel/store-error.js';
import { type Logger, silentLogger } from '../../logger.js';
import { cloneJson } from '../clone-json.js';
import type { Loaded, RejectedRecord } from '../load-alerts.js';
import { acquireLock } from './lock.js';

/**
 * The file as a whole cannot be used (not JSON, empty, not a state object, unknown version, a top-level part of the
 * wrong kind). Thrown by loaders; openStore turns it into a refusal to start (see StateFileRefusedError).
 */
export class CorruptStateError extends CodedError {
  declare readonly code: 'store_corrupt_state';
  constructor(message: string) {
    super('store_corrupt_state', message);
    this.name = 'CorruptStateError';
  }
}

/**
 * The state file cannot be read as a whole (or is missing where it clearly existed): the store refuses to open and
 * leaves the file exactly as it is. `message` is one line naming the file and what a person can do.
 */
export class StateFileRefusedError extends StoreError {
  constructor(
    message: string,
    /** What is wrong, for the log. */
    readonly problem: string,
  ) {
    super(message, 'store_corrupt_state');
    this.name = 'StateFileRefusedError';
  }
}

/** The command-line flag that accepts starting with empty state when the state file is corrupt. */
export const ACCEPT_EMPTY_STATE_FLAG = '--accept-empty-state';

/** The command-line flag that accepts setting damaged money records (swap quotes, payout requests) aside at start. */
export const SET_ASIDE_DAMAGED_RECORDS_FLAG = '--set-aside-damaged-records';

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
  /** Where a corrupt file was moved at start-up, if it was (only when starting empty was accepted). */
  readonly recoveredCorruptFile: string | undefined;
  /** Where damaged records were set aside at start-up, if any were (the rest of the state was kept). */
  readonly rejectedRecordsFile: string | undefined;
  /** The records set aside at start-up (without their values). */
  readonly rejectedRecords: readonly Omit<RejectedRecord, 'value'>[];
  /** Releases the file (and its lock) after pending writes. */
  close(): Promise<void>;
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

/** `<base><suffix>`, or `<base>-2<suffix>`… if taken: an aside copy never overwrites an earlier one. */
function freePath(base: string, suffix = ''): string {
  for (let n = 1; ; n++) {
    const path = n === 1 ? `${base}${suffix}` : `${base}-${n}${suffix}`;
    if (!existsSync(path)) return path;
  }
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/** Writes the set-aside records next to the state file, flushed, before the state without them is written. */
function writeRejected(path: string, file: string, at: string, rejected: readonly RejectedRecord[]): void {
  const fd = openSync(path, 'wx');
  try {
    writeSync(fd, `${JSON.stringify({ stateFile: file, setAsideAt: at, records: rejected }, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens the state file. Damage is never silently wiped, and state is never reset by accident:
 * - a file that cannot be read as a whole (empty, not JSON, truncated, JSON that is not a state object: `null`, a
 *   list, another version, a top-level part of the wrong kind) refuses the start with StateFileRefusedError and
 *   is left untouched. Only with `acceptEmptyState` (a person chose it) is it renamed to `<file>.corrupt-<time>`
 *   (never over an earlier one), logged, and the store starts empty;
 * - a missing file is a first start (empty state), unless `missingButExpected` says the state existed here (then
 *   it is refused the same way);
 * - records that fail validation one by one (`load` decides) are written to `<file>.rejected-<time>.json`
 *   and each is logged as an error with its id and problem; every other record is kept. A damaged record whose
 *   loss would change a limit, a total or an outcome (`refusesStart`: a swap quote, a payout request) refuses the
 *   start the same way as a corrupt file, unless `setAsideDamagedRecords` (a person chose it).
 */
export async function openStore<T>(options: {
  file: string;
  /** Turns the file's JSON object into the state, setting bad records aside; throws CorruptStateError when nothing is usable. */
  load: (raw: Record<string, unknown>) => Loaded<T>;
  empty: () => T;
  logger?: Logger;
  now?: () => Date;
  /** A person accepted starting empty when the file is corrupt (the file is kept aside, never deleted). */
  acceptEmptyState?: boolean;
  /** For a missing file: why the state clearly existed here (refuse), or undefined (a first start). */
  missingButExpected?: (file: string) => string | undefined;
  /** Whether a damaged record may only be set aside by a person's choice (it counts toward money). */
  refusesStart?: (record: RejectedRecord) => boolean;
  /** A person accepted setting damaged records aside even when `refusesStart` says they count toward money. */
  setAsideDamagedRecords?: boolean;
}): Promise<Store<T>> {
  const file = resolve(options.file);
  const logger = options.logger ?? silentLogger;
  if (openFiles.has(file)) throw new StoreError(`The state file is already open in this process: ${file}`);
  mkdirSync(dirname(file), { recursive: true });
  const lock = acquireLock(`${file}.lock`);
  openFiles.add(file);
  const release = () => {
    openFiles.delete(file);
    lock.release();
  };

  const stamp = () => (options.now?.() ?? new Date()).toISOString();
  let recoveredCorruptFile: string | undefined;
  let rejectedRecordsFile: string | undefined;
  let rejected: RejectedRecord[] = [];
  let data: T;
  try {
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const emptyMeans =
      'failures in ALERT_LOOKBACK are alerted again; pending approvals and the last 24 hours of the daily limit are forgotten';
    function refuse(problem: string, sentence: string): never {
      logger.error('the state file cannot be read as a whole: refusing to start; the file is left as it is', {
        file,
        problem,
      });
      throw new StateFileRefusedError(sentence, problem);
    }
    if (text === undefined) {
      const expected = options.missingButExpected?.(file);
      if (expected !== undefined && !options.acceptEmptyState)
        refuse(
          `missing, but ${expected}`,
          `the state file ${file} (DATA_FILE) is missing, but ${expected}: the state existed here. Restore it from a backup, or start once with ${ACCEPT_EMPTY_STATE_FLAG} to start with empty state (${emptyMeans}).`,
        );
      if (expected !== undefined)
        logger.warn('the state file is missing where it existed before: starting with empty state, as accepted', {
          file,
          problem: expected,
        });
      data = options.empty();
    } else {
      try {
        if (text.trim() === '') throw new CorruptStateError('the file is empty');
        const raw: unknown = JSON.parse(text);
        if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
          throw new CorruptStateError(`the file holds ${describeJson(raw)}, not a state object`);
        }
        ({ data, rejected } = options.load(raw as Record<string, unknown>));
      } catch (error) {
        if (!(error instanceof SyntaxError || error instanceof CorruptStateError)) throw error;
        // A SyntaxError's message quotes the file's text: the log says what kind of damage, not the content.
        const problem =
          error instanceof CorruptStateError ? error.message : 'not valid JSON (truncated, or edited by hand)';
        if (!options.acceptEmptyState)
          refuse(
            problem,
            `the state file ${file} (DATA_FILE) cannot be read as a whole: ${problem}; it was left as it is. Restore it from a backup, or start once with ${ACCEPT_EMPTY_STATE_FLAG} to keep it aside as ${file}.corrupt-<time> and start with empty state (${emptyMeans}).`,
          );
        recoveredCorruptFile = freePath(`${file}.corrupt-${stamp().replace(/[:.]/g, '-')}`);
        renameSync(file, recoveredCorruptFile);
        logger.error(
          `the state file was corrupt: it was kept aside and the bot starts from empty state (${ACCEPT_EMPTY_STATE_FLAG})`,
          {
            keptAs: recoveredCorruptFile,
            problem,
          },
        );
        data = options.empty();
        rejected = [];
      }
    }
    const held = rejected.filter((record) => options.refusesStart?.(record) ?? false);
    if (held.length > 0 && !options.setAsideDamagedRecords) {
      const [first] = held;
      const oneLine = (text: string) => text.replace(/\s+/g, ' ').slice(0, 160);
      const more = held.length > 1 ? ` (and ${held.length - 1} more damaged money record(s); the log names each)` : '';
      for (const record of held)
        logger.error('a damaged money record in the state file: refusing to start; the file is left as it is', {
          file,
          record: record.where,
          problem: record.problem,
        });
      throw new StateFileRefusedError(
        `the state file ${file} (DATA_FILE) has a damaged money record, ${oneLine(first!.where)} (${oneLine(first!.problem)})${more}; it was left as it is. Restore it from a backup, or start once with ${SET_ASIDE_DAMAGED_RECORDS_FLAG} to keep it aside in ${file}.rejected-<time>.json and start without it (a quote that was waiting or being created then no longer counts toward the daily limit and its requester's 24-hour total, and is never marked outcome_unknown: check the payment dashboard for it).`,
        `damaged money record ${oneLine(first!.where)}: ${oneLine(first!.problem)}`,
      );
    }
    if (rejected.length > 0) {
      const at = stamp();
      rejectedRecordsFile = freePath(`${file}.rejected-${at.replace(/[:.]/g, '-')}`, '.json');
      writeRejected(rejectedRecordsFile, file, at, rejected);
      for (const record of rejected) {
        logger.error('a damaged record in the state file was set aside; the rest of the state is kept', {
          record: record.where,
          ...(record.id !== undefined ? { id: record.id } : {}),
          problem: record.problem,
          keptIn: rejectedRecordsFile,
        });
      }
    }
  } catch (error) {
    release();
    throw error;
  }

  const db = new Low<T>(new JSONFile<T>(file), data);
  try {
    await db.write();
    await syncToDisk(file);
  } catch (error) {
    release();
    throw error;
  }

  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  return {
    read: () => db.data,
    update<R>(mutate: (draft: T) => R): Promise<R> {
      if (closed) return Promise.reject(new StoreError('the state store is closed'));
      const run = async () => {
        const before = cloneJson(db.data);
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
    rejectedRecordsFile,
    rejectedRecords: rejected.map(({ value: _value, ...rest }) => rest),
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      release();
    },
  };
}
