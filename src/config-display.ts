/**
 * The configuration as people and the log may see it, derived from VARIABLES: describeConfig prints every variable
 * with its secrets masked (start-up's summary), and logSecrets lists the secret values the logger scrubs from any line.
 */
import { type Config, VARIABLES, type VariableName } from './config.js';
import { redact } from './kernel/redact.js';

export { redactDatabaseUrl } from './kernel/redact.js';

/** A variable as the display reads it: its value is whatever its field holds. */
interface Shown {
  field: string;
  secret?: true;
  show?: ((value: never, config: Config) => string) | false;
  shownAs?: string;
}

/** The value of a variable's field (`group.part` reads a part). */
function fieldValue(config: Config, field: string): unknown {
  return field.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], config);
}

/** The configuration as safe-to-print lines: every secret redacted. */
export function describeConfig(config: Config): Record<string, string> {
  const lines: Record<string, string> = {};
  for (const [name, spec] of Object.entries(VARIABLES) as [VariableName, Shown][]) {
    if (spec.show === false) continue;
    const value = fieldValue(config, spec.field);
    lines[spec.shownAs ?? name] = spec.show
      ? spec.show(value as never, config)
      : spec.secret
        ? redact(value as string | undefined)
        : value === undefined
          ? '(unset)'
          : String(value);
  }
  return lines;
}

/**
 * The secret values of a configuration, for the logger to scrub from any line that would carry one: each secret
 * variable's value, a URL's password too (DATABASE_URL's, which may be written percent-encoded), and a key
 * (TOTP_ENCRYPTION_KEY) in its hex and base64 spellings.
 */
export function logSecrets(config: Config): string[] {
  const secrets: string[] = [];
  for (const spec of Object.values(VARIABLES) as Shown[]) {
    if (!spec.secret) continue;
    const value = fieldValue(config, spec.field);
    if (Buffer.isBuffer(value))
      secrets.push(value.toString('hex'), value.toString('base64'), value.toString('base64url'));
    if (typeof value !== 'string') continue;
    secrets.push(value);
    const password = URL.canParse(value) ? new URL(value).password : '';
    if (password) secrets.push(password, decodeURIComponent(password));
  }
  return secrets.filter((secret) => secret !== '');
}
