/** Durations as people write them in variables and commands: `90s`, `30m`, `24h`, `7d`. */
const DURATION_UNITS_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `90s`, `30m`, `24h`, `7d` into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})\s*([smhd])$/i.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * DURATION_UNITS_MS[match[2]!.toLowerCase()]!;
  return ms > 0 ? ms : undefined;
}

/** Writes milliseconds in the largest unit that divides them (`30m`, `2h`, `1d`), as the duration variables are written. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = DURATION_UNITS_MS[unit]!;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
