import { AsyncLocalStorage } from 'node:async_hooks';
import { hostname } from 'node:os';
import { pino } from 'pino';

/** Log levels understood by LOG_LEVEL, most verbose first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** One of LOG_LEVELS. */
export type LogLevelName = (typeof LOG_LEVELS)[number];
/** Formats understood by LOG_FORMAT: readable lines for people, or one JSON object per line (pino's). */
export const LOG_FORMATS = ['text', 'json'] as const;
/** One of LOG_FORMATS. */
export type LogFormatName = (typeof LOG_FORMATS)[number];

/** The small logging surface every module receives by injection. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const RANK: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** What the lines logged in one async flow are about (a command, a click, a dialog, a job run). */
export type LogContext = Readonly<Record<string, string>>;

const contextStore = new AsyncLocalStorage<LogContext>();
// Only JSON lines show the context. Until a JSON logger exists no context is kept: in Node 20 the first run() of an
// AsyncLocalStorage turns on promise hooks for the whole process, a cost the text format need not pay.
let contextShown = false;

/**
 * Runs `work` with `fields` added to every JSON line logged inside it, in its async flow too (work started after
 * an ack included). Set at the edges (the request pipeline, the job scheduler), so feature code stays as is. `fields`
 * may be a function: it is then only called when the context is shown (a JSON logger exists).
 */
export function withLogContext<T>(fields: LogContext | (() => LogContext), work: () => T): T {
  if (!contextShown) return work();
  const own = typeof fields === 'function' ? fields() : fields;
  const outer = contextStore.getStore();
  return contextStore.run(outer ? { ...outer, ...own } : own, work);
}

/** Field names whose values are secrets, wherever they sit (pino removes their values from JSON lines). */
const REDACTED_FIELDS = [
  'token',
  'botToken',
  'appToken',
  'slackBotToken',
  'slackAppToken',
  'signingSecret',
  'slackSigningSecret',
  'apiKey',
  'paymentsApiKey',
  'authorization',
  'Authorization',
  'password',
  'databaseUrl',
  'secret',
  'totpEncryptionKey',
  'totpCode',
  'otpauth',
  'metricsToken',
] as const;

// The same names at the top of a line and up to three objects down (`error.options.headers.authorization`).
const REDACT_PATHS = REDACTED_FIELDS.flatMap((name) => [name, `*.${name}`, `*.*.${name}`, `*.*.*.${name}`]);

/** How a logger is built beyond its level and where its lines go. */
export interface LoggerOptions {
  /** `text` (default): readable lines; `json`: one pino JSON object per line. */
  format?: LogFormatName;
  /** This process's name among the replicas (REPLICA_NAME), on every JSON line. */
  replica?: string;
  /**
   * Secret values (tokens, keys, a password) that must never be written: a line that holds one has it replaced by
   * `[REDACTED]`, whatever field or message carried it. The last guard behind hand-picked fields and redact paths.
   */
  secrets?: readonly (string | undefined)[];
}

/** Replaces every occurrence of the given secrets (and any otpauth:// URI) in a finished line. */
function secretScrubber(secrets: readonly (string | undefined)[] | undefined): (line: string) => string {
  // Short values would match ordinary words; every real secret here is far longer.
  const values = [...new Set((secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= 8))];
  return (line) => {
    let out = line;
    for (const value of values) if (out.includes(value)) out = out.split(value).join('[REDACTED]');
    return out.includes('otpauth://') ? out.replace(/otpauth:\/\/[^\s"'`\\<>]*/gi, 'otpauth://[REDACTED]') : out;
  };
}

/**
 * A line-per-event logger on stderr. Callers pass hand-picked fields only (never whole errors or request
 * options), so secrets such as the API key have no path into the log. `text` (the default) writes readable lines;
 * `json` writes pino's JSON (level, time, msg, pid, hostname, replica, the context of the flow, then the fields),
 * with token-like fields redacted.
 */
export function createLogger(
  level: LogLevelName = 'info',
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  options: LoggerOptions = {},
): Logger {
  const scrub = secretScrubber(options.secrets);
  if (options.format === 'json') return createJsonLogger(level, (line) => write(scrub(line)), options, scrub);
  const emit = (at: LogLevelName, message: string, fields?: Record<string, unknown>) => {
    const shown = RANK[at] >= RANK[level];
    if (!shown && lineTap === undefined) return;
    const line = scrub(textLine(at, message, fields));
    if (shown) write(line);
    lineTap?.(line);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

function createJsonLogger(
  level: LogLevelName,
  write: (line: string) => void,
  options: LoggerOptions,
  scrub: (line: string) => string,
): Logger {
  contextShown = true;
  // With a tap, pino formats every level and only the lines at LOG_LEVEL or above are written.
  const tap = lineTap;
  const destination = {
    // pino hands over each line with its newline; `write` adds its own.
    write: (chunk: string) => {
      const line = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
      if (tap === undefined) return write(line);
      if ((Number(/"level":(\d+)/.exec(line)?.[1]) || 0) >= PINO_LEVEL[level]) write(line);
      tap(scrub(line));
    },
  };
  const base: Record<string, unknown> = { pid: process.pid, hostname: hostname() };
  if (options.replica !== undefined) base.replica = options.replica;
  const log = pino(
    {
      level: tap === undefined ? level : 'debug',
      base,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      // A copy: pino merges each line's fields into what mixin returns.
      mixin: () => ({ ...contextStore.getStore() }),
    },
    destination,
  );
  return {
    debug: (m, f) => (f ? log.debug(f, m) : log.debug(m)),
    info: (m, f) => (f ? log.info(f, m) : log.info(m)),
    warn: (m, f) => (f ? log.warn(f, m) : log.warn(m)),
    error: (m, f) => (f ? log.error(f, m) : log.error(m)),
  };
}

/** A logger that drops everything (tests that do not read logs); a tap still sees each line it was asked to log. */
export const silentLogger: Logger = {
  debug: (m, f) => lineTap?.(textLine('debug', m, f)),
  info: (m, f) => lineTap?.(textLine('info', m, f)),
  warn: (m, f) => lineTap?.(textLine('warn', m, f)),
  error: (m, f) => lineTap?.(textLine('error', m, f)),
};

/** A readable log line: time, level, message, then the fields as JSON. */
function textLine(at: LogLevelName, message: string, fields?: Record<string, unknown>): string {
  const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
  return `${new Date().toISOString()} ${at.toUpperCase().padEnd(5)} ${message}${extra}`;
}

const PINO_LEVEL: Record<LogLevelName, number> = { debug: 20, info: 30, warn: 40, error: 50 };

let lineTap: ((line: string) => void) | undefined;

/**
 * Gives every line any logger of this process is asked to log, at every level and the silent logger's included, to
 * `tap` as well (after the same scrubbing). The test suite installs one before any logger is made and greps all of
 * it for secrets at the end of a run (test/support/log-scan). Nothing in the product sets it.
 */
export function tapLogLines(tap: ((line: string) => void) | undefined): void {
  lineTap = tap;
}

/**
 * Hand-picked fields of an error for the log: name, code, status and message, and for payment API errors the
 * operation, the offending field and the service's field errors. Never request options.
 */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { value: String(error) };
  const picked: Record<string, unknown> = { name: error.name, message: error.message };
  const { code, status, operation, field, fieldErrors } = error as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries({ code, status, operation, field, fieldErrors })) {
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}
