/**
 * Recheck planning: which rows still pending are checked again this poll, by their age (POLL_RULES.recheckBands).
 * Tasks and gas are checked by reading their `status=pending` list over a window of createdAt (the last hour,
 * the last day, or all of it), withdrawals by id. A window read whose rows are all due later is skipped, so an
 * idle poll's cost follows what is due, not how many rows stay pending. Pure (no I/O).
 */

import { compareText } from '../../../kernel/compare.js';
import type { AlertSourceState, SourceName } from '../records.js';
import { firstRunSpan, isoMs, listFloor, listOf, SOURCE_LISTS } from './place.js';
import { POLL_RULES } from './poll-rules.js';

/** The windows of a pending list, narrowest first: each covers the age bands up to its own. */
export const RECHECK_WINDOWS = ['hour', 'day', 'all'] as const;
export type RecheckWindow = (typeof RECHECK_WINDOWS)[number];

/** When (our clock) each window of a pending list was last read. */
export type WindowReads = Partial<Record<RecheckWindow, string>>;

type Band = { readonly youngerThanMs: number; readonly everyMs: number };

/** The index of the age band a row of this age falls in (0: under an hour, 1: under a day, 2: older). */
export function bandOf(bands: readonly Band[], ageMs: number): number {
  const index = bands.findIndex((band) => ageMs < band.youngerThanMs);
  return index === -1 ? bands.length - 1 : index;
}

/** The oldest createdAt (epoch ms) a window read covers for sure: rows at its edge are left to a wider read. */
function windowFromMs(window: RecheckWindow, nowMs: number): number {
  const bands = POLL_RULES.recheckBands.lists;
  const index = RECHECK_WINDOWS.indexOf(window);
  return index === RECHECK_WINDOWS.length - 1 ? Number.NEGATIVE_INFINITY : nowMs - bands[index]!.youngerThanMs;
}

/** The createdAtFrom a window read asks for (none for `all`). */
export function windowQueryFrom(window: RecheckWindow, nowMs: number): Date | undefined {
  const from = windowFromMs(window, nowMs);
  return Number.isFinite(from) ? new Date(from) : undefined;
}

/**
 * A row this window read answers for: its createdAt is inside the window with a second to spare (the API
 * compares whole seconds), so a row missing from the read really left the pending list.
 */
export function windowCovers(window: RecheckWindow, createdAtMs: number, nowMs: number): boolean {
  const from = windowFromMs(window, nowMs);
  return !Number.isFinite(from) || createdAtMs >= from + 1_000;
}

/** When the rows of age band `band` were last covered by a read: the latest read of their window or a wider one. */
export function lastCovered(reads: WindowReads | undefined, band: number): number {
  let latest = Number.NEGATIVE_INFINITY;
  for (const window of RECHECK_WINDOWS.slice(band)) {
    const at = reads?.[window];
    if (at !== undefined) latest = Math.max(latest, isoMs(at));
  }
  return latest;
}

/**
 * The floor below which a source's tracked rows need following: rows above it are read at every poll by the
 * reads of new rows. While a list is being walked, nothing is taken as read (the walk reaches rows in its own time).
 */
export function recheckFloor(name: SourceName, source: AlertSourceState, nowMs: number, lookbackMs: number): number {
  const span = firstRunSpan(name, lookbackMs);
  let floor = Number.POSITIVE_INFINITY;
  for (const listName of SOURCE_LISTS[name]) {
    const list = listOf(source, listName);
    if (list.walk) return Number.POSITIVE_INFINITY;
    floor = Math.min(floor, listFloor(source, list, nowMs, span));
  }
  return floor;
}

/**
 * The window of the `status=pending` list that tasks or gas read this poll, or none: the widest window holding a
 * row below the floor whose band is due (its window not read for the band's interval), the whole list at the
 * first poll of this version (`pendingSyncedAt`), the last day of tasks for new pending tasks, and the whole gas
 * list now and then to drop `handledPending` ids that left it.
 */
export function planWindow(
  name: 'tasks' | 'gas',
  source: AlertSourceState,
  nowMs: number,
  lookbackMs: number,
): RecheckWindow | undefined {
  if (source.pendingSyncedAt === undefined) return 'all';
  const bands = POLL_RULES.recheckBands.lists;
  const reads = source.windowReads;
  const due = (band: number, everyMs: number) => nowMs - lastCovered(reads, band) >= everyMs;
  let widest = -1;
  if (name === 'tasks' && due(1, POLL_RULES.taskDiscoveryEveryMs)) widest = 1;
  if (name === 'gas' && (source.handledPending?.length ?? 0) > 0 && due(2, POLL_RULES.handledPendingCleanupEveryMs))
    widest = 2;
  const floor = recheckFloor(name, source, nowMs, lookbackMs);
  for (const createdAt of Object.values(source.tracking)) {
    const at = isoMs(createdAt);
    if (at >= floor) continue;
    const band = bandOf(bands, nowMs - at);
    if (band > widest && due(band, bands[band]!.everyMs)) widest = band;
    if (widest === RECHECK_WINDOWS.length - 1) break;
  }
  return widest === -1 ? undefined : RECHECK_WINDOWS[widest];
}

/**
 * The pending withdrawals to look up by id this poll, at most `limit`: those below the floor (`skip`: seen in
 * this poll's pages) whose band's interval has passed since they were last checked, the most overdue first. A
 * row with no check recorded (a file of the version before) is overdue since forever.
 */
export function dueWithdrawals(
  tracking: Record<string, string>,
  checkedAt: Record<string, string> | undefined,
  skip: ReadonlySet<string>,
  nowMs: number,
  limit: number,
): string[] {
  const bands = POLL_RULES.recheckBands.withdrawals;
  const due: { id: string; dueAt: number }[] = [];
  for (const [id, createdAt] of Object.entries(tracking)) {
    if (skip.has(id)) continue;
    const checked = checkedAt?.[id];
    const dueAt =
      (checked === undefined ? Number.NEGATIVE_INFINITY : isoMs(checked)) +
      bands[bandOf(bands, nowMs - isoMs(createdAt))]!.everyMs;
    if (dueAt <= nowMs) due.push({ id, dueAt });
  }
  due.sort((a, b) => a.dueAt - b.dueAt || compareText(a.id, b.id));
  return due.slice(0, limit).map((row) => row.id);
}

/** What this poll follows up: the task and gas windows to read, and how many withdrawals it may look up. */
export interface RecheckPlan {
  tasks?: RecheckWindow;
  gas?: RecheckWindow;
  withdrawalLookups: number;
}

/** The oldest createdAt (epoch ms) of a followed gas top-up that the gas read rechecks for a turn to failed. */
export function gasRecheckSince(nowMs: number, lookbackMs: number): number {
  return nowMs - Math.min(lookbackMs, POLL_RULES.gasRecheckYoungerThanMs);
}

/**
 * Whether the gas read rechecks `status=failed` this poll (see detectGas): a followed top-up not yet alerted,
 * created within the last hour (and ALERT_LOOKBACK), lies below the floor of the gas reads of new rows (none while one is walked).
 */
export function plansGasRecheck(source: AlertSourceState, nowMs: number, lookbackMs: number): boolean {
  const floor = recheckFloor('gas', source, nowMs, lookbackMs);
  return (
    Number.isFinite(floor) &&
    oldestRecheckedSince(
      source.tracking,
      gasRecheckSince(nowMs, lookbackMs),
      floor,
      new Set(source.handledPending ?? []),
    ) !== undefined
  );
}

/**
 * The poll's follow-ups within POLL_RULES.recheckRequestsPerPoll (window reads and the gas recheck first,
 * withdrawals what is left, at least one).
 */
export function planRechecks(
  sources: Record<SourceName, AlertSourceState>,
  nowMs: number,
  lookbackMs: number,
): RecheckPlan {
  const tasks = planWindow('tasks', sources.tasks, nowMs, lookbackMs);
  const gas = planWindow('gas', sources.gas, nowMs, lookbackMs);
  const windowReads = (tasks ? 1 : 0) + (gas ? 1 : 0) + (plansGasRecheck(sources.gas, nowMs, lookbackMs) ? 1 : 0);
  return {
    ...(tasks ? { tasks } : {}),
    ...(gas ? { gas } : {}),
    withdrawalLookups: Math.max(1, POLL_RULES.recheckRequestsPerPoll - windowReads),
  };
}

/**
 * The createdAt (epoch ms, whole seconds less one: the API compares whole seconds) of the oldest followed row
 * created since `sinceMs` and below the floor, if any: where a read that rechecks followed rows starts.
 */
export function oldestRecheckedSince(
  tracking: Record<string, string>,
  sinceMs: number,
  floorMs: number,
  skip: ReadonlySet<string> = new Set(),
): number | undefined {
  let oldest: number | undefined;
  for (const [id, createdAt] of Object.entries(tracking)) {
    const at = isoMs(createdAt);
    if (skip.has(id) || at < sinceMs || at >= floorMs + 1_000) continue;
    if (oldest === undefined || at < oldest) oldest = at;
  }
  return oldest === undefined ? undefined : Math.floor(oldest / 1_000) * 1_000 - 1_000;
}
