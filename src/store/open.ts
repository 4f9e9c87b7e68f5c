/**
 * Opens the bot's store for the product entry point (main.ts): PostgreSQL and the poller's lease when DATABASE_URL
 * is set (replicas), otherwise the state file (one process). A store that cannot be opened is a StoreOpenError whose
 * message main.ts prints after "Cannot start: ".
 */
import type { Config } from '../config.js';
import type { BotRepositories } from '../features/repositories.js';
import type { Logger } from '../logger.js';
import { isMoneyRecord } from './lowdb/bot-state.js';
import { openBotStore } from './lowdb/index.js';
import { ACCEPT_EMPTY_STATE_FLAG, SET_ASIDE_DAMAGED_RECORDS_FLAG, StateFileRefusedError } from './lowdb/state-file.js';

/** The advisory lock key of the poller's lease (ASCII "tr-poll!"; the migrations use another). */
const POLLER_LEASE_KEY = 0x7472_2d70_6f6c_6c21n;

/** The store could not be opened; the message says why, for a person. */
export class StoreOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreOpenError';
  }
}

/** An opened store, the replicas' lease (PostgreSQL only), and lines to warn a person about (the state file's damage). */
export interface OpenedStore {
  store: BotRepositories & { close(): Promise<void> };
  /** The lease that lets one replica run the leader's jobs; closed after the app has stopped. */
  leadership?: {
    replica: string;
    tryLead(): Promise<boolean>;
    leader(): Promise<string | undefined>;
    close(): Promise<void>;
  };
  warnings: string[];
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Opens the store `config` names; `acceptEmptyState` is the start-up flag ACCEPT_EMPTY_STATE_FLAG,
 * `setAsideDamagedRecords` the flag SET_ASIDE_DAMAGED_RECORDS_FLAG.
 */
export async function openStore(
  config: Config,
  logger: Logger,
  options: { acceptEmptyState: boolean; setAsideDamagedRecords?: boolean },
): Promise<OpenedStore> {
  if (config.databaseUrl) {
    // Replicas share the database: one truth for every record, and a lease so that one of them polls.
    // Loaded only here: a deployment on the state file never pays for pg's modules.
    const { createLeaderLease, openPostgresStore } = await import('./postgres/index.js');
    let store: OpenedStore['store'];
    try {
      store = await openPostgresStore(config.databaseUrl, { logger, replicaName: config.replicaName });
    } catch (error) {
      throw new StoreOpenError(`could not open the database at DATABASE_URL: ${messageOf(error)}`);
    }
    const lease = createLeaderLease(config.databaseUrl, {
      key: POLLER_LEASE_KEY,
      logger,
      replicaName: config.replicaName,
    });
    return {
      store,
      leadership: {
        replica: config.replicaName,
        tryLead: () => lease.tryAcquire(),
        leader: async () => (await lease.holderInfo())?.name,
        close: () => lease.close(),
      },
      warnings: [],
    };
  }
  let fileStore: Awaited<ReturnType<typeof openBotStore>>;
  try {
    // Starting empty on a corrupt file is a person's choice, made for this start only: a flag, not a variable
    // that would stay set and accept the next corrupt file too.
    fileStore = await openBotStore(config.dataFile, logger, undefined, {
      acceptEmptyState: options.acceptEmptyState,
      setAsideDamagedRecords: options.setAsideDamagedRecords ?? false,
    });
  } catch (error) {
    if (error instanceof StateFileRefusedError) throw new StoreOpenError(error.message);
    throw new StoreOpenError(`could not open DATA_FILE ${config.dataFile}: ${messageOf(error)}`);
  }
  const warnings: string[] = [];
  if (fileStore.rejectedRecordsFile)
    warnings.push(
      `WARNING: ${config.dataFile} had damaged records. They were set aside in ${fileStore.rejectedRecordsFile}; every other record was kept (see the log).`,
    );
  const moneySetAside = fileStore.rejectedRecords.filter(isMoneyRecord).length;
  if (moneySetAside > 0)
    warnings.push(
      `WARNING: as ${SET_ASIDE_DAMAGED_RECORDS_FLAG} accepted, ${moneySetAside} damaged money record(s) were set aside: they no longer count toward the daily limit or anyone's 24-hour total; check the payment dashboard for them.`,
    );
  if (fileStore.recoveredCorruptFile)
    warnings.push(
      `WARNING: ${config.dataFile} was corrupt. As ${ACCEPT_EMPTY_STATE_FLAG} accepted, it was kept as ${fileStore.recoveredCorruptFile} and the bot starts from empty state.`,
    );
  return { store: fileStore, warnings };
}
