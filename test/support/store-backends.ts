// The two stores a repository contract runs against: the lowdb state file and a real throwaway PostgreSQL (one
// cluster per test file, a new database per store). Call at the top level of a test file: it registers the
// cluster's start and stop.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BotRepositories } from '../../src/features/repositories.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { testCluster } from './postgres.js';
import type { StoreChoice } from './replica.js';

/** A store opened for one test, and closed by it. */
export interface OpenedStore extends BotRepositories {
  close(): Promise<void>;
  /** PostgreSQL only: a second store on the same database, as another replica sees it. */
  another?: () => Promise<BotRepositories & { close(): Promise<void> }>;
}

export interface StoreBackend {
  name: 'lowdb state file' | 'PostgreSQL';
  /** PostgreSQL is not installed here (outside CI, where its absence fails the run instead). */
  skip: boolean;
  open(): Promise<OpenedStore>;
  /** PostgreSQL only: the connection string of a new, empty database (no schema yet), for upgrade tests. */
  emptyDatabase?: () => Promise<string>;
}

/** The two backends, each `open()` a fresh, empty store; `prefix` names the temp files and databases. */
export function storeBackends(prefix: string): StoreBackend[] {
  const postgres = testCluster(prefix);
  return [
    {
      name: 'lowdb state file',
      skip: false,
      open: async () => openBotStore(join(mkdtempSync(join(tmpdir(), `${prefix}-`)), 'state.json')),
    },
    {
      name: 'PostgreSQL',
      skip: !postgres.available,
      open: async () => {
        const url = await postgres.createDatabase();
        return Object.assign(await openPostgresStore(url), { another: () => openPostgresStore(url) });
      },
      emptyDatabase: () => postgres.createDatabase(),
    },
  ];
}

/** Where a whole bot (test/support/replica.ts) keeps its state, for a test that runs once on each store. */
export interface ReplicaStore {
  name: 'the state file' | 'PostgreSQL';
  /** PostgreSQL is not installed here (outside CI, where its absence fails the run instead). */
  skip: boolean;
  /** A fresh store for one test: the replica's own state file, or a new database on the file's cluster. */
  choice(): Promise<StoreChoice>;
}

/**
 * The two stores a bot runs on, each `choice()` a fresh, empty one; `prefix` names the databases. Call at the top
 * level of a test file, as `storeBackends`: it registers the cluster's start and stop.
 */
export function replicaStores(prefix: string): ReplicaStore[] {
  const postgres = testCluster(prefix);
  return [
    { name: 'the state file', skip: false, choice: async () => ({ kind: 'file' }) },
    {
      name: 'PostgreSQL',
      skip: !postgres.available,
      choice: async () => ({ kind: 'postgres', databaseUrl: await postgres.createDatabase() }),
    },
  ];
}
