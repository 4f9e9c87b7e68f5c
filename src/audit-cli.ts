/**
 * `npm run audit -- --since 30d > audit.csv` (part 16): the audit trail of the period as CSV on stdout, read from
 * the store the bot uses (DATA_FILE, or DATABASE_URL), with the same columns as `/treasury audit`. It only reads:
 * the state file without taking the bot's lock (safe: the bot replaces the file whole, by rename), PostgreSQL in
 * read-only sessions without migrating. Problems go to stderr in plain words, with exit code 1.
 */
import { ConfigError, formatDuration, loadStoreConfig, parseDuration } from './config.js';
import { ALERT_TRAIL_RETENTION_MS } from './domain/alert-trail.js';
// Not the feature's index: the Slack side (Bolt) would load for nothing.
import { writeAuditCsv } from './features/audit/csv.js';
import { type AuditSources, auditRows } from './features/audit/rows.js';
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
        `audit: ${state.damagedRecords} damaged record(s) in ${config.dataFile} were left out (the bot sets them aside at its next start)\n`,
      );
    sources = state;
  }
  try {
    const rows = await writeAuditCsv(auditRows(sources, { since, until }), process.stdout);
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
