/**
 * `npm run audit -- --since 30d > audit.csv`: the audit trail of the period as CSV on stdout, read from
 * the store the bot uses (DATA_FILE, or DATABASE_URL), with the same columns as `/treasury audit`. It only reads:
 * the state file without taking the bot's lock (safe: the bot replaces the file whole, by rename), PostgreSQL in
 * read-only sessions without migrating. Problems go to stderr in plain words, with exit code 1.
 */
import { createWriteStream, fstatSync, ftruncateSync, readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { ConfigError, loadStoreConfig } from './config.js';
import { ALERT_TRAIL_RETENTION_MS } from './features/alerts/trail.js';
// Not the feature's index: the Slack side (Bolt) would load for nothing.
import { writeAuditCsv } from './features/audit/csv.js';
import { type AuditSources, auditRows } from './features/audit/rows.js';
import { formatDuration, parseDuration } from './kernel/durations.js';
import { createLogger } from './logger.js';
import { readBotStateFile } from './store/lowdb/read-only.js';

const USAGE = 'Usage: npm run audit -- --since <period> > audit.csv   (a period such as 30d, 7d or 12h; at most 400d)';

/** A problem the person running the command can fix, said in one line. */
class CliProblem extends Error {}

/** The period of `--since 30d` (or `--since=30d`). */
function parsePeriod(args: readonly string[]): { ms: number; text: string } {
  let typed: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--since') typed = args[++i];
    else if (arg.startsWith('--since=')) typed = arg.slice('--since='.length);
    else if (arg === '--help' || arg === '-h') throw new CliProblem(USAGE);
    else throw new CliProblem(`unknown argument "${arg}".\n${USAGE}`);
  }
  if (typed === undefined) throw new CliProblem(`say how far back with --since, e.g. --since 30d.\n${USAGE}`);
  const ms = parseDuration(typed);
  if (ms === undefined) throw new CliProblem(`"${typed}" is not a period: use e.g. 30d, 7d or 12h.`);
  if (ms > ALERT_TRAIL_RETENTION_MS) throw new CliProblem('the trail keeps 400 days: give at most --since 400d.');
  return { ms, text: formatDuration(ms) };
}

/**
 * Where the CSV goes: stdout, from its first byte. `npm run audit … > audit.csv` has a catch: unless npm runs silent
 * (`-s`), it writes its own banner (`> treasury-slack-bot@… audit` and the command) to stdout before starting us, so
 * the file would begin with it. When stdout is a file that holds exactly that banner and nothing else (the shell
 * created it for this command: `>`, or `>>` onto an empty file), it is emptied and the CSV written from its start.
 * Anything else (a pipe, a terminal, a file with other content, no /proc to read it back) is left alone, and a
 * banner that may be in the output is pointed out on stderr.
 */
function csvOutput(): Writable {
  const env = process.env;
  const npmBanner =
    env.npm_lifecycle_event !== undefined && env.npm_config_loglevel !== 'silent' && env.npm_config_json !== 'true';
  if (!npmBanner) return process.stdout;
  try {
    if (fstatSync(1).isFile()) {
      const written = readFileSync('/proc/self/fd/1', 'utf8');
      const script = env.npm_lifecycle_script ?? '';
      if (written.startsWith('\n> ') && written.includes(`\n> ${script}`) && written.length < 4_096) {
        ftruncateSync(1);
        // Positional writes from byte 0: the descriptor's offset is still past the banner npm wrote.
        return createWriteStream('', { fd: 1, start: 0, autoClose: false });
      }
    }
  } catch {
    // Not Linux, or stdout cannot be read back: leave it as it is.
  }
  if (!process.stdout.isTTY)
    process.stderr.write(
      "audit: npm may have written its banner ('> treasury-slack-bot… audit') above the CSV; `npm run -s audit …` or `node dist/src/audit-cli.js …` leaves it out\n",
    );
  return process.stdout;
}

async function main(): Promise<void> {
  const period = parsePeriod(process.argv.slice(2));
  const config = loadStoreConfig();
  const logger = createLogger('warn');
  const until = new Date();
  const since = new Date(until.getTime() - period.ms);
  let sources: AuditSources;
  let close = async () => {};
  if (config.databaseUrl) {
    const { openPostgresStore } = await import('./store/postgres/index.js');
    const store = await openPostgresStore(config.databaseUrl, {
      logger,
      replicaName: 'treasury-audit-export',
      poolSize: 2,
      readOnly: true,
    });
    sources = store;
    close = () => store.close();
  } else {
    const state = await readBotStateFile(config.dataFile);
    if (state.damagedRecords > 0)
      process.stderr.write(
        `audit: ${state.damagedRecords} damaged record(s) in ${config.dataFile} were left out (at its next start the bot sets them aside, or refuses to start on a damaged swap quote or payout request)\n`,
      );
    sources = state;
    const archived = state.damagedArchiveLines;
    close = async () => {
      if (archived() > 0)
        process.stderr.write(
          `audit: ${archived()} damaged line(s) of the swap quote archive beside ${config.dataFile} were left out\n`,
        );
    };
  }
  try {
    const rows = await writeAuditCsv(auditRows(sources, { since, until }), csvOutput());
    process.stderr.write(
      `audit: ${rows} row(s), the last ${period.text}: ${since.toISOString()} to ${until.toISOString()} (UTC)\n`,
    );
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`audit: the configuration has ${error.problems.length} problem(s):\n`);
    for (const problem of error.problems) process.stderr.write(`  ${problem}\n`);
  } else if ((error as NodeJS.ErrnoException).code === 'EPIPE') {
    process.stderr.write('audit: the output was closed before the end; the CSV is incomplete\n');
  } else {
    // Store errors are plain words already (and never hold the database password); anything else is named.
    process.stderr.write(`audit: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
