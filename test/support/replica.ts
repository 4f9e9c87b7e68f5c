// One bot replica in this process for the end-to-end rigs: the real app (createTreasuryApp) on the state file or on
// PostgreSQL (with the poller's leader lease), started on a free port, and a driver that sends Slack's signed
// requests to it.
import { createTreasuryApp, type TreasuryApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { BotRepositories } from '../../src/features/repositories.js';
import type { Logger } from '../../src/logger.js';
import type { PaymentsClient } from '../../src/payments/index.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { createSlackDriver, type SlackDriver } from './rig/slack-driver.js';
import type { SlackStandIn } from './rig/slack-stand-in.js';

/** Where the replicas keep their state. */
export type StoreChoice = { kind: 'file' } | { kind: 'postgres'; databaseUrl: string };

/** One running bot (a replica on PostgreSQL): its app, its store and a driver that sends Slack's requests to it. */
export interface Replica {
  name: string;
  treasury: TreasuryApp;
  store: BotRepositories & { close(): Promise<void> };
  driver: SlackDriver;
  close(): Promise<void>;
}

type AppOptions = Parameters<typeof createTreasuryApp>[0];

export interface ReplicaOptions {
  name: string;
  store: StoreChoice;
  config: Config;
  payments: PaymentsClient;
  logger: Logger;
  now: () => Date;
  slack: SlackStandIn;
  signingSecret: string;
  /** The advisory lock key of the poller's lease (PostgreSQL). */
  leaseKey: bigint;
  /** Further options of the app (test timings). */
  app?: Partial<Omit<AppOptions, 'config' | 'payments' | 'store' | 'logger' | 'now' | 'leadership'>>;
}

/** Opens the store (and the lease), starts the app and returns the replica. */
export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  const { name, config, logger, now } = options;
  let store: Replica['store'];
  let leadership: AppOptions['leadership'];
  let closeLease = async (): Promise<void> => {};
  if (options.store.kind === 'postgres') {
    const { createLeaderLease, openPostgresStore } = await import('../../src/store/postgres/index.js');
    store = await openPostgresStore(options.store.databaseUrl, { logger, replicaName: name, poolSize: 4 });
    const lease = createLeaderLease(options.store.databaseUrl, { key: options.leaseKey, logger, replicaName: name });
    leadership = {
      replica: name,
      tryLead: () => lease.tryAcquire(),
      leader: async () => (await lease.holderInfo())?.name,
    };
    closeLease = () => lease.close();
  } else {
    store = await openBotStore(config.dataFile, logger, now);
  }
  const treasury = createTreasuryApp({
    config,
    payments: options.payments,
    store,
    logger,
    now,
    host: '127.0.0.1',
    slackRetries: 0,
    // The daily balance snapshot is checked by hand (`treasury.snapshots.check()`) unless a test asks for its timer,
    // so the payment-API requests a test counts, and which replica takes the lease first, are the test's own.
    snapshotCheckEveryMs: 0,
    ...options.app,
    ...(leadership ? { leadership } : {}),
  });
  const { port } = await treasury.start();
  const driver = createSlackDriver({
    eventsUrl: `http://127.0.0.1:${port}/slack/events`,
    signingSecret: options.signingSecret,
    standIn: options.slack,
  });
  return {
    name,
    treasury,
    store,
    driver,
    async close() {
      await treasury.stop();
      await closeLease();
      await store.close();
    },
  };
}
