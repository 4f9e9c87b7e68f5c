// Reading argument values as Slack does: strings, form booleans, JSON-encoded fields and message timestamps.

/** Whether a value is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A scalar argument as text (form bodies carry text, JSON bodies numbers and booleans too); undefined otherwise. */
export function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A boolean argument: JSON bodies carry booleans; form bodies carry "true"/"false". */
export function asBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/** The parsed JSON, or undefined when the text is not JSON. */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The text cut to `max` characters, with an ellipsis when it was cut. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Orders two Slack timestamps ("seconds.micros") by time. */
export function tsCompare(a: string, b: string): number {
  const [aSeconds = '0', aMicros = '0'] = a.split('.');
  const [bSeconds = '0', bMicros = '0'] = b.split('.');
  const bySeconds = Number(aSeconds) - Number(bSeconds);
  return bySeconds !== 0 ? bySeconds : Number(aMicros.padEnd(6, '0')) - Number(bMicros.padEnd(6, '0'));
}
