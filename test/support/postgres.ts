// A throwaway PostgreSQL cluster for tests (Debian's server, 15 on bookworm, whatever version is installed):
// its own data directory, port and socket, removed by stop().
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

/** The newest installed server's binaries (`/usr/lib/postgresql/<version>/bin`: not on PATH). */
const BIN = (() => {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return join(root, versions.find((v) => existsSync(join(root, v, 'bin', 'initdb'))) ?? '15', 'bin');
})();
const USER = 'app';

/**
 * Whether the PostgreSQL server binaries are installed (apt-get install postgresql). Under CI (`CI` set, as
 * .ci/run does, after installing the package) their absence is an error, never a quiet skip.
 */
export function postgresAvailable(): boolean {
  const available = existsSync(join(BIN, 'initdb')) && existsSync(join(BIN, 'postgres'));
  if (!available && process.env.CI)
    throw new Error(`CI: the PostgreSQL server binaries are missing (${BIN}); .ci/run should have installed them`);
  return available;
}

/** Why the PostgreSQL tests are skipped, when they are. */
export const postgresSkipReason = `PostgreSQL tests skipped: no server binaries in ${BIN} (apt-get install -y postgresql)`;

export interface TestCluster {
  readonly port: number;
  /** A new, empty database; its connection string. */
  createDatabase(name: string): Promise<string>;
  /** Connection string of an existing database. */
  connectionString(database: string): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

// The server refuses to run as root: then everything runs as the `postgres` system user.
const asRoot = process.getuid?.() === 0;
const command = (program: string, args: string[]): [string, string[]] =>
  asRoot ? ['runuser', ['-u', 'postgres', '--', join(BIN, program), ...args]] : [join(BIN, program), args];

async function waitForServer(port: number, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`postgres exited (${server.exitCode}): ${output().slice(-2000)}`);
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: USER,
      database: 'postgres',
      connectionTimeoutMillis: 1000,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline)
        throw new Error(`postgres did not accept connections in time: ${output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Memory-backed /dev/shm when it has room (every CREATE DATABASE copies a template), else the temp dir. */
function clusterParent(): string {
  try {
    const shm = statfsSync('/dev/shm');
    if (shm.bavail * shm.bsize > 2 ** 30) return '/dev/shm';
  } catch {
    // no /dev/shm here
  }
  return tmpdir();
}

/** Starts a cluster (initdb, then the server on a free port of 127.0.0.1); about a second. */
export async function startTestCluster(): Promise<TestCluster> {
  const dir = mkdtempSync(join(clusterParent(), 'pg-test-'));
  if (asRoot) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }
  const data = join(dir, 'data');
  const [initProgram, initArgs] = command('initdb', [
    '-D',
    data,
    '-U',
    USER,
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const init = spawnSync(initProgram, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }

  // The postmaster's own pid: signalling runuser would not reach it reliably.
  const postmasterPid = (): number | undefined => {
    try {
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return undefined;
    }
  };
  let server: ChildProcess | undefined;
  const killNow = () => {
    const pid = postmasterPid();
    if (pid) {
      try {
        process.kill(pid, 'SIGQUIT'); // immediate shutdown: the data is thrown away anyway
      } catch {
        // already gone
      }
    }
    server?.kill('SIGKILL');
  };
  // A test run that dies must not leave a server behind.
  process.once('exit', killNow);

  // freePort() hands back a port nobody holds, but until postgres binds it another process of the run (tests go
  // two at a time, each opening ports) may take it: then the server exits at once and a fresh port is tried.
  let port = 0;
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort();
    const [program, args] = command('postgres', [
      '-D',
      data,
      '-k',
      dir,
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ]);
    const started = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    server = started;
    let output = '';
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitForServer(port, started, () => output);
      break;
    } catch (error) {
      killNow();
      if (attempt < 3 && /Address already in use/.test(output)) continue;
      process.off('exit', killNow);
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }
  const running = server;

  const connectionString = (database: string) =>
    `postgresql://${USER}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return {
    port,
    connectionString,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: connectionString('postgres') });
      await client.connect();
      try {
        // FILE_COPY: with fsync off, copying the template is faster than logging it page by page.
        await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} STRATEGY = FILE_COPY`);
      } finally {
        await client.end();
      }
      return connectionString(name);
    },
    async stop() {
      process.off('exit', killNow);
      const exited =
        running.exitCode !== null
          ? Promise.resolve()
          : new Promise<void>((resolve) => running.once('exit', () => resolve()));
      const pid = postmasterPid();
      if (pid) {
        try {
          process.kill(pid, 'SIGQUIT');
        } catch {
          // already gone
        }
      } else {
        running.kill('SIGTERM');
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (running.exitCode === null) running.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The calling test file's (or describe block's) cluster, as `testCluster` hands it out. */
export interface TestClusterHandle {
  /** Whether PostgreSQL is installed here: when not (outside CI), no cluster starts and its tests skip. */
  readonly available: boolean;
  /** A new, empty database (no schema yet) on the cluster, named with the prefix and a counter; its connection string. */
  createDatabase(): Promise<string>;
  /** Connection string of an existing database on the cluster (e.g. `postgres`, to drop another). */
  connectionString(database: string): string;
}

/**
 * A throwaway cluster for the tests of one file: call at the top level of a test file (or of a describe block, for
 * that block alone); it registers the cluster's start (when PostgreSQL is available) and stop. `prefix` names the
 * databases; `startTimeoutMs` bounds the start.
 */
export function testCluster(prefix: string, startTimeoutMs = 30_000): TestClusterHandle {
  const available = postgresAvailable();
  let cluster: TestCluster | undefined;
  let databases = 0;
  beforeAll(async () => {
    if (available) cluster = await startTestCluster();
  }, startTimeoutMs);
  afterAll(async () => {
    await cluster?.stop();
  });
  const started = (): TestCluster => {
    if (!cluster) throw new Error(`no PostgreSQL cluster for ${prefix}: not available here, or not started yet`);
    return cluster;
  };
  return {
    available,
    createDatabase: () => started().createDatabase(`${prefix}_${++databases}`),
    connectionString: (database) => started().connectionString(database),
  };
}
