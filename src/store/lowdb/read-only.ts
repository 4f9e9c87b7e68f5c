/**
 * The state file read without its lock, for tools that only read (`npm run audit`) while the bot runs. Safe because
 * every write of the file is a complete new file renamed over the old one (lowdb writes a temporary file and
 * renames it; the store then fsyncs): a reader sees the file before a write or after it, never half of one. The
 * bot's lock stays the bot's. Damaged records are left out (and counted), as the bot would set them aside.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type {
  AuditRepository,
  BalanceRepository,
  FreezeRepository,
  PayoutRepository,
  SecondFactorRepository,
} from '../../features/repositories.js';
import { StoreError } from '../../kernel/store-error.js';
import { createLowdbAuditRepository } from './audit.js';
import { createLowdbBalanceRepository } from './balances.js';
import { type BotState, loadBotState } from './bot-state.js';
import { createLowdbFreezeRepository } from './freeze.js';
import { createLowdbPayoutRepository } from './payouts.js';
import { quoteArchiveBeside } from './quote-archive.js';
import { createLowdbSecondFactorRepository } from './second-factor.js';
import type { Store } from './state-file.js';

/** The readers over one snapshot of the file, and how many damaged records were left out of it. */
export interface ReadOnlyBotState {
  readonly audit: AuditRepository;
  readonly balances: Pick<BalanceRepository, 'listThresholdChanges'>;
  readonly payouts: Pick<PayoutRepository, 'listRequestsSince'>;
  readonly freeze: Pick<FreezeRepository, 'listFreezeTrail'>;
  readonly secondFactor: Pick<SecondFactorRepository, 'listSecondFactorTrail'>;
  readonly damagedRecords: number;
  /** Damaged lines of the quote archive left out of what was read so far (counted as months are read). */
  readonly damagedArchiveLines: () => number;
}

/** Reads `file` once, as it is now. Throws StoreError in plain words when it is missing or not state at all. */
export async function readBotStateFile(file: string): Promise<ReadOnlyBotState> {
  const path = resolve(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StoreError(
      code === 'ENOENT'
        ? `there is no state file at ${path} (DATA_FILE): has the bot run here?`
        : `the state file ${path} could not be read (${code ?? String(error)})`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new StoreError(
      `the state file ${path} is not JSON: it is damaged (truncated, or edited by hand); the bot refuses to start on it: restore it from a backup`,
    );
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new StoreError(`the state file ${path} holds no bot state`);
  let loaded: ReturnType<typeof loadBotState>;
  try {
    loaded = loadBotState(raw as Record<string, unknown>);
  } catch (error) {
    throw new StoreError(`the state file ${path} holds no bot state this version reads: ${(error as Error).message}`);
  }
  const data = loaded.data;
  const store: Store<BotState> = {
    read: () => data,
    update: () => Promise.reject(new StoreError('the state file is open read-only')),
    recoveredCorruptFile: undefined,
    rejectedRecordsFile: undefined,
    rejectedRecords: [],
    close: async () => undefined,
  };
  let damagedArchiveLines = 0;
  return {
    audit: createLowdbAuditRepository(store, quoteArchiveBeside(path), (_month, lines) => {
      damagedArchiveLines += lines;
    }),
    damagedArchiveLines: () => damagedArchiveLines,
    balances: createLowdbBalanceRepository(store),
    payouts: createLowdbPayoutRepository(store),
    freeze: createLowdbFreezeRepository(store),
    secondFactor: createLowdbSecondFactorRepository(store),
    damagedRecords: loaded.rejected.length,
  };
}
