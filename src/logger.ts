/** Log levels understood by LOG_LEVEL, most verbose first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** One of LOG_LEVELS. */
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** The small logging surface every module receives by injection. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const RANK: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * A line-per-event logger on stderr. Callers pass hand-picked fields only (never whole errors or request
 * options), so secrets such as the API key have no path into the log.
 */
export function createLogger(
  level: LogLevelName = 'info',
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const emit = (at: LogLevelName, message: string, fields?: Record<string, unknown>) => {
    if (RANK[at] < RANK[level]) return;
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    write(`${new Date().toISOString()} ${at.toUpperCase().padEnd(5)} ${message}${extra}`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

/** A logger that drops everything (tests that do not read logs). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

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
