// Timestamp rendering. The API uses two formats: "YYYY-MM-DD HH:MM:SS" (UTC, no zone) for invoices, assets and
// withdrawals, and RFC 3339 with an offset for swaps, tasks, deposits and the gas manager. The real service mixes
// RFC 3339 spellings, so each record gets one spelling picked from its id: "+00:00", "Z", or fractional seconds.

/** The three RFC 3339 spellings seen on the wire. */
export type Rfc3339Style = 'offset' | 'zulu' | 'fraction';

const pad = (n: number, width = 2): string => n.toString().padStart(width, '0');

/** Formats epoch ms as "YYYY-MM-DD HH:MM:SS" in UTC. */
export function formatSqlTime(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

/** Picks the RFC 3339 spelling of a record from its id so the same record always renders the same way. */
function styleFor(id: string): Rfc3339Style {
  const last = Number.parseInt(id.slice(-1), 16);
  const styles: readonly Rfc3339Style[] = ['offset', 'zulu', 'fraction'];
  return styles[(Number.isNaN(last) ? 0 : last) % 3] ?? 'offset';
}

/** The instant the rendered string denotes (sub-second part dropped for whole-second spellings), for filters. */
export function effectiveMs(id: string, ms: number): number {
  return styleFor(id) === 'fraction' ? ms : Math.floor(ms / 1000) * 1000;
}

/** Formats epoch ms as RFC 3339 in UTC with the spelling chosen for `id`. */
export function formatRfc3339(ms: number, id: string): string {
  const d = new Date(ms);
  const base =
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  switch (styleFor(id)) {
    case 'zulu':
      return `${base}Z`;
    case 'fraction': {
      // Microseconds: the real milliseconds plus three stable digits taken from the id.
      const micros = pad(Number.parseInt(id.replace(/-/g, '').slice(0, 3), 16) % 1000, 3);
      return `${base}.${pad(d.getUTCMilliseconds(), 3)}${micros}+00:00`;
    }
    default:
      return `${base}+00:00`;
  }
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** Parses an ISO-8601 timestamp that carries an offset (or Z); returns null when malformed. */
export function parseIsoWithOffset(value: string): number | null {
  if (!ISO_WITH_OFFSET.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}
