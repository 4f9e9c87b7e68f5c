/**
 * The whole lowdb state file as records (BotState: the swap quotes by id, and the alert bookkeeping) and its
 * loader: the file's JSON, record by record.
 */
import { z } from 'zod';
import { AlertsState, emptyAlertsState, keyedRecord } from '../../domain/alert-records.js';
import { StoredThreshold, ThresholdChange } from '../../domain/balance-thresholds.js';
import { DailySnapshot, DigestRecord } from '../../domain/digest-records.js';
import { SwapQuote } from '../../domain/swap-quote.js';
import { type Loaded, loadAlertsState, loadKeyed, problemOf, type RejectedRecord } from '../load-alerts.js';
import { CorruptStateError } from './state-file.js';

/** Balance thresholds (by asset id) and their trail, daily snapshots and digests (by day): part 15. */
export const BalancesState = z.object({
  thresholds: z.record(z.string(), StoredThreshold),
  thresholdChanges: z.array(ThresholdChange),
  snapshots: z.record(z.string(), DailySnapshot),
  digests: z.record(z.string(), DigestRecord),
});
export type BalancesState = z.infer<typeof BalancesState>;

/** The balances part of a new state file (and of one written before part 15). */
export function emptyBalancesState(): BalancesState {
  return { thresholds: keyedRecord(), thresholdChanges: [], snapshots: keyedRecord(), digests: keyedRecord() };
}

/** The whole state file. Files written before the alert poller (or part 15) existed load with empty parts. */
export const BotState = z.object({
  version: z.literal(1),
  swapQuotes: z.record(z.string(), SwapQuote),
  alerts: AlertsState.default(() => emptyAlertsState()),
  balances: BalancesState.default(() => emptyBalancesState()),
});
export type BotState = z.infer<typeof BotState>;

/** Empty state for a first start. */
export function emptyState(): BotState {
  return { version: 1, swapQuotes: keyedRecord(), alerts: emptyAlertsState(), balances: emptyBalancesState() };
}

/** The balances part, record by record: a damaged threshold, trail entry, snapshot or digest is set aside. */
function loadBalances(raw: unknown, rejected: RejectedRecord[]): BalancesState {
  const balances = emptyBalancesState();
  if (raw === undefined) return balances;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    rejected.push({ where: 'balances', problem: 'expected an object', value: raw });
    return balances;
  }
  const part = raw as Record<string, unknown>;
  balances.thresholds = loadKeyed(part.thresholds, 'balances.thresholds', StoredThreshold, rejected, (key, t) =>
    t.assetId === key ? undefined : 'stored under one asset id but its own asset id is another',
  );
  balances.snapshots = loadKeyed(part.snapshots, 'balances.snapshots', DailySnapshot, rejected, (key, s) =>
    s.day === key ? undefined : 'stored under one day but its own day is another',
  );
  balances.digests = loadKeyed(part.digests, 'balances.digests', DigestRecord, rejected, (key, d) =>
    d.day === key ? undefined : 'stored under one day but its own day is another',
  );
  if (Array.isArray(part.thresholdChanges)) {
    part.thresholdChanges.forEach((entry: unknown, index: number) => {
      const parsed = ThresholdChange.safeParse(entry);
      if (parsed.success) balances.thresholdChanges.push(parsed.data);
      else
        rejected.push({
          where: `balances.thresholdChanges[${index}]`,
          problem: problemOf(parsed.error),
          value: entry,
        });
    });
  } else if (part.thresholdChanges !== undefined) {
    rejected.push({ where: 'balances.thresholdChanges', problem: 'expected a list', value: part.thresholdChanges });
  }
  return balances;
}

/**
 * The state file's JSON, record by record: every valid quote and alert record is kept, each damaged one is
 * returned in `rejected` for the store to set aside. Only a file that is not version-1 state at all is corrupt.
 */
export function loadBotState(raw: Record<string, unknown>): Loaded<BotState> {
  if (raw.version !== 1)
    throw new CorruptStateError(`unknown state version ${String(JSON.stringify(raw.version)).slice(0, 40)}`);
  const rejected: RejectedRecord[] = [];
  const swapQuotes = loadKeyed(raw.swapQuotes, 'swapQuotes', SwapQuote, rejected, (key, quote) =>
    quote.id === key
      ? undefined
      : `stored under one id but its own id is another (${JSON.stringify(quote.id).slice(0, 60)})`,
  );
  return {
    data: {
      version: 1,
      swapQuotes,
      alerts: loadAlertsState(raw.alerts, rejected),
      balances: loadBalances(raw.balances, rejected),
    },
    rejected,
  };
}
