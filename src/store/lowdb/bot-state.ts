/**
 * The whole lowdb state file as records (BotState: the swap quotes by id, and the alert bookkeeping) and its
 * loader: the file's JSON, record by record.
 */
import { z } from 'zod';
import { AlertsState, emptyAlertsState, keyedRecord } from '../../domain/alert-records.js';
import { SwapQuote } from '../../domain/swap-quote.js';
import { type Loaded, loadAlertsState, loadKeyed, type RejectedRecord } from '../load-alerts.js';
import { CorruptStateError } from './state-file.js';

/** The whole state file. Files written before the alert poller existed load with empty alert state. */
export const BotState = z.object({
  version: z.literal(1),
  swapQuotes: z.record(z.string(), SwapQuote),
  alerts: AlertsState.default(() => emptyAlertsState()),
});
export type BotState = z.infer<typeof BotState>;

/** Empty state for a first start. */
export function emptyState(): BotState {
  return { version: 1, swapQuotes: keyedRecord(), alerts: emptyAlertsState() };
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
  return { data: { version: 1, swapQuotes, alerts: loadAlertsState(raw.alerts, rejected) }, rejected };
}
