// `npm run audit -- --since 30d`: the built entry point (dist/src/audit-cli.js) spawned with nothing but an
// environment, on both stores. It writes the CSV to stdout, reads the state file while the bot holds it (without
// the lock) and PostgreSQL read-only, and says what is wrong in plain words on stderr with exit code 1.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../src/features/alerts/records.js';
import { AUDIT_COLUMNS } from '../../src/features/audit/csv-rules.js';
import type { AlertRepository, SwapQuoteRepository } from '../../src/features/repositories.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { failedWithdrawalFacts, swapQuoteRecord } from '../support/fixtures.js';
import { captureChildOutput } from '../support/log-scan/capture.js';
import { testCluster } from '../support/postgres.js';

const CLI = fileURLToPath(new URL('../../dist/src/audit-cli.js', import.meta.url));

/** Runs the export with exactly `env` (plus PATH) in an empty directory, so no .env file is read. */
function runAudit(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: mkdtempSync(join(tmpdir(), 'audit-cli-')),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      captureChildOutput(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

const postgres = testCluster('audit_cli');

/** A quote asked an hour ago and a failed withdrawal alerted now, with text a spreadsheet would run. */
async function seed(store: { swapQuotes: SwapQuoteRepository; alerts: AlertRepository }): Promise<void> {
  const now = Date.now();
  const hourAgo = new Date(now - 3_600_000).toISOString();
  await store.swapQuotes.saveQuote(
    swapQuoteRecord('quote-cli', {
      estimatedAt: hourAgo,
      history: [{ at: hourAgo, event: 'quoted', by: '@U0RILEY', detail: 'line one\nline two, "two"' }],
    }),
  );
  const facts = failedWithdrawalFacts(1, new Date(now));
  const item: OutboxItem = { key: `withdrawal:${facts.id}`, queuedAt: new Date(now).toISOString(), facts };
  await store.alerts.commitPoll((state) => {
    state.outbox.push(item);
  });
  await store.alerts.recordDelivered([item], new Date(now), { key: item.key, channel: 'C0ALERTS', ts: '1.000100' });
}

function rowsOf(stdout: string): Record<string, string>[] {
  const [header, ...records] = parse(stdout, { relax_column_count: false }) as string[][];
  expect(header).toEqual([...AUDIT_COLUMNS]);
  return records.map((cells) => Object.fromEntries(AUDIT_COLUMNS.map((column, i) => [column, cells[i]!])));
}

describe('npm run audit', () => {
  it('writes the CSV of the state file to stdout while the bot holds the file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-cli-state-')), 'state.json');
    const bot = await openBotStore(file);
    try {
      await seed(bot);
      const { code, stdout, stderr } = await runAudit(['--since', '30d'], { DATA_FILE: file });
      expect(stderr).toMatch(/^audit: 2 row\(s\), the last 30d: \S+Z to \S+Z \(UTC\)\n$/);
      expect(code).toBe(0);
      expect(stdout.endsWith('\r\n')).toBe(true);
      expect(rowsOf(stdout).map((row) => [row.category, row.event, row.actor, row.detail])).toEqual([
        ['swap_quote', 'requested', "'@U0RILEY", 'line one\nline two, "two"'],
        ['alert', 'posted', '', expect.stringMatching(/^withdrawal_failed: withdrawal \S+ failed/)],
      ]);
    } finally {
      await bot.close();
    }
  });

  it("`npm run audit -- --since 30d > audit.csv` as the README types it: the file holds the CSV alone, without npm's banner", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-npm-state-'));
    const file = join(dir, 'state.json');
    const bot = await openBotStore(file);
    try {
      await seed(bot);
    } finally {
      await bot.close();
    }
    const out = join(dir, 'audit.csv');
    // Through a shell, as a person types it: the shell creates the file and npm writes its banner into it first.
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('sh', ['-c', 'npm run audit -- --since 30d > "$OUT"'], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DATA_FILE: file, OUT: out },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        captureChildOutput(chunk);
      });
      child.on('error', reject);
      child.on('exit', (exitCode) => resolve({ code: exitCode, stderr: err }));
    });
    expect(code).toBe(0);
    expect(stderr).toMatch(/audit: 2 row\(s\), the last 30d/);
    const csv = readFileSync(out, 'utf8');
    expect(csv.startsWith(`${AUDIT_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(csv).not.toContain('\0');
    expect(rowsOf(csv).map((row) => row.event)).toEqual(['requested', 'posted']);
  }, 30_000);

  it.skipIf(!postgres.available)('reads PostgreSQL (DATABASE_URL) read-only, the same columns', async () => {
    const url = await postgres.createDatabase();
    const store = await openPostgresStore(url);
    try {
      await seed(store);
    } finally {
      await store.close();
    }
    const { code, stdout, stderr } = await runAudit(['--since=7d'], { DATABASE_URL: url });
    expect(stderr).toMatch(/^audit: 2 row\(s\), the last 7d: /);
    expect(code).toBe(0);
    expect(rowsOf(stdout).map((row) => [row.category, row.event])).toEqual([
      ['swap_quote', 'requested'],
      ['alert', 'posted'],
    ]);
  });

  const torn = join(mkdtempSync(join(tmpdir(), 'audit-cli-torn-')), 'state.json');
  writeFileSync(torn, '{"version":1,"swapQuotes":{');
  it.each([
    [
      ['--since', '30d'],
      { DATA_FILE: torn },
      /^audit: the state file \S+ is not JSON: it is damaged \(truncated, or edited by hand\); the bot refuses to start on it: restore it from a backup\n$/,
    ],
    [[], {}, /^audit: say how far back with --since, e\.g\. --since 30d\.\nUsage: npm run audit/],
    [['--since', 'a month'], {}, /^audit: "a month" is not a period: use e\.g\. 30d, 7d or 12h\.\n$/],
    [
      ['--since', '30d'],
      { DATA_FILE: '/nonexistent/state.json' },
      /^audit: there is no state file at \/nonexistent\/state\.json \(DATA_FILE\)/,
    ],
    [
      ['--since', '30d'],
      { DATABASE_URL: 'mysql://nope' },
      /^audit: the configuration has 1 problem\(s\):\n {2}DATABASE_URL: expected a PostgreSQL URL/,
    ],
    [
      ['--since', '30d'],
      { DATABASE_URL: 'postgres://app:s3cret-pw@127.0.0.1:1/treasury' },
      /^audit: the database failed while reading the schema version: /,
    ],
  ] as const)('refuses %j %j in plain words on stderr, exit 1', async (args, env, message) => {
    const { code, stdout, stderr } = await runAudit([...args], { ...env });
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('s3cret-pw');
    expect(stdout).toBe('');
    expect(code).toBe(1);
  });
});
