/**
 * Orders strings by UTF-16 code units: deterministic, and right for what we sort (ISO-8601 timestamps, ids,
 * asset symbols). `localeCompare` would load ICU's collator (about 2 MB of resident memory) for no gain.
 */
export function compareText(a: string, b: string): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}
