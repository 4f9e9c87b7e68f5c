/** Secrets made safe to print: what start-up's summary of the configuration shows of a token or a URL. */

/** Masks a secret, keeping only a recognisable prefix (`xoxb-…`) so people can tell which token is set. */
export function redact(secret: string | undefined): string {
  if (secret === undefined) return '(unset)';
  const prefix = /^(xox[a-z]-|xapp-)/.exec(secret)?.[1] ?? '';
  return `${prefix}[redacted]`;
}

/** A URL safe to print: a user name, password and query values in it are masked. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = 'redacted';
      parsed.password = '';
    }
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, 'redacted');
    return parsed
      .toString()
      .replace('redacted@', '[redacted]@')
      .replace(/=redacted/g, '=[redacted]');
  } catch {
    return '[unparsable URL]';
  }
}

/**
 * A database URL safe to print: everything before the last `@` (user and password, which may hold any
 * character, `/` included) is masked, and query values too.
 */
export function redactDatabaseUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
  const at = url.lastIndexOf('@');
  if (at === -1) return redactUrl(url);
  const rest = url.slice(at + 1).replace(/([?&][^=&]+)=[^&]*/g, '$1=[redacted]');
  return `${scheme}[redacted]@${rest}`;
}

/** A heartbeat URL safe to print: its host only, since the path is the secret (healthchecks.io's ping URLs). */
export function redactHeartbeatUrl(url: string): string {
  try {
    return `${new URL(url).origin}/[redacted]`;
  } catch {
    return '[unparsable URL]';
  }
}
