import { z } from 'zod';
import { openStore, type Store } from './store.js';
import type { Logger } from '../logger.js';

/**
 * Where a swap quote stands. The order matters for exactly-once: `approving` is written to disk BEFORE the
 * swap/create call, so a second click, a resend, or a restart can see that a create may already be on its way.
 */
export const QUOTE_STATUSES = [
  'pending', // quote posted, waiting for a decision
  'approving', // approved; swap/create sent, answer not yet recorded
  'created', // swap/create answered with a swap id; the bot follows the swap
  'create_failed', // swap/create refused (400/401/403): no swap was made
  'outcome_unknown', // create sent but its answer was lost (crash, timeout, 5xx): a person must check
  'rejected', // a person rejected the quote
  'expired', // approved too late: no create call was made
] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** One entry of the audit trail of a quote. */
export const AuditEntry = z.object({
  at: z.string(),
  event: z.string(),
  by: z.string().optional(),
  detail: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const AssetSnapshot = z.object({
  assetId: z.string(),
  symbol: z.string(),
  networkSymbol: z.string(),
  networkTitle: z.string(),
  decimals: z.number().int(),
});
/** What the quote needs to show an asset without asking the API again. */
export type AssetSnapshot = z.infer<typeof AssetSnapshot>;

/** A swap quote and everything that happened to it. */
export const SwapQuote = z.object({
  id: z.string(),
  estimateId: z.string(),
  /** When we asked for the estimate: its 30-minute validity counts from here, not from any click. */
  estimatedAt: z.string(),
  expiresAt: z.string(),
  requestedBy: z.string(),
  channelId: z.string(),
  /** ts of the quote message, once posted. */
  messageTs: z.string().optional(),
  from: AssetSnapshot,
  to: AssetSnapshot,
  /** Base units of `from`. */
  amountFrom: z.string(),
  /** Estimated base units of `to`. */
  estimatedAmount: z.string(),
  routeType: z.string(),
  serviceId: z.string(),
  status: z.enum(QUOTE_STATUSES),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
  swapId: z.string().optional(),
  swapStatus: z.string().optional(),
  /** Filled from swap/get as the swap progresses. */
  amountTo: z.string().optional(),
  hashFrom: z.string().optional(),
  hashTo: z.string().optional(),
  /** The swap's fee as shown to people, e.g. "1.2 USDT ($1.20)". */
  feeSummary: z.string().optional(),
  failure: z.string().optional(),
  /** Following the swap stopped (final status, or gave up after the bound). */
  followEndedAt: z.string().optional(),
  /** Set when a "New quote" made a successor quote. */
  replacedBy: z.string().optional(),
  replaces: z.string().optional(),
  history: z.array(AuditEntry),
});
export type SwapQuote = z.infer<typeof SwapQuote>;

/** The whole state file. */
export const BotState = z.object({
  version: z.literal(1),
  swapQuotes: z.record(z.string(), SwapQuote),
});
export type BotState = z.infer<typeof BotState>;

/** Empty state for a first start. */
export function emptyState(): BotState {
  return { version: 1, swapQuotes: {} };
}

/** The bot's state store. */
export type BotStore = Store<BotState>;

/** Opens DATA_FILE as the bot's state. */
export function openBotStore(file: string, logger?: Logger, now?: () => Date): Promise<BotStore> {
  return openStore({ file, schema: BotState, empty: emptyState, logger, now });
}
