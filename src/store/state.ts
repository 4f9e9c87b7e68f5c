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

// ---------------------------------------------------------------------------------------------------------
// Alert poller. Times are ISO strings from Date.toISOString(), so they also compare as strings.

const Network = z.object({ title: z.string(), symbol: z.string() });

/** A fee leg as an alert shows it (the gas `charged` and `topUp` legs). */
const AlertLeg = z.object({ amountFormatted: z.string(), currency: z.string(), amountInUsd: z.string().nullable() });

/** Fields every failure alert carries. */
const recordFields = { id: z.string(), status: z.string(), createdAt: z.string() };

/** An amount as a withdrawal or task alert shows it: base units of the crypto, with its USD value. */
const amountFields = {
  symbol: z.string(),
  decimals: z.number().int(),
  network: Network,
  /** Base units. */
  amount: z.string(),
  amountInUsd: z.string().nullable(),
};

/** What an alert about a failed withdrawal shows; kept so the alert can be (re)posted without the API. */
export const WithdrawalAlertFacts = z.object({
  kind: z.literal('withdrawal'),
  ...recordFields,
  ...amountFields,
  address: z.string(),
  txHash: z.string().nullable(),
});

/** What an alert about a failed payout task shows. */
export const TaskAlertFacts = z.object({
  kind: z.literal('task'),
  ...recordFields,
  subStatus: z.string().nullable(),
  ...amountFields,
  type: z.string(),
  targetsCount: z.number().int(),
  payoutId: z.string(),
  assetId: z.string(),
  transferTxHash: z.string().nullable(),
  payoutTxHash: z.string().nullable(),
});

/** What an alert about a gas top-up short of donor balance shows. */
export const GasAlertFacts = z.object({
  kind: z.literal('gas'),
  ...recordFields,
  subStatus: z.string().nullable(),
  network: Network,
  targetAddress: z.string(),
  txHash: z.string().nullable(),
  /** What could not be charged to the gas liquidity address, in the donor stablecoin. */
  charged: AlertLeg.nullable(),
  topUp: AlertLeg.nullable(),
  pipelineId: z.string(),
});

/** The poller could not read the payment API (or the key was refused). */
export const ApiDownFacts = z.object({
  kind: z.literal('api_down'),
  since: z.string(),
  problems: z.array(z.object({ source: z.string(), code: z.string(), message: z.string(), polls: z.number().int() })),
});

/** The payment API answers again after an `api_down` alert. */
export const ApiRecoveredFacts = z.object({
  kind: z.literal('api_recovered'),
  since: z.string(),
  recoveredAt: z.string(),
});

/** Everything an alert message is built from. */
export const AlertFacts = z.discriminatedUnion('kind', [WithdrawalAlertFacts, TaskAlertFacts, GasAlertFacts, ApiDownFacts, ApiRecoveredFacts]);
export type AlertFacts = z.infer<typeof AlertFacts>;
/** The three kinds of failure the poller watches. */
export type FailureFacts = Extract<AlertFacts, { kind: 'withdrawal' | 'task' | 'gas' }>;

/** An alert waiting for Slack to accept it. It leaves the outbox only after Slack accepted it. */
export const OutboxItem = z.object({
  /** `withdrawal:<id>`, `task:<id>`, `gas:<id>`, or `api_down:<since>` / `api_recovered:<since>`. */
  key: z.string(),
  queuedAt: z.string(),
  facts: AlertFacts,
});
export type OutboxItem = z.infer<typeof OutboxItem>;

/** Where one watched source stands. */
export const AlertSourceState = z.object({
  /** Set by the first successful poll of this source; before it, ALERT_LOOKBACK applies. */
  initializedAt: z.string().optional(),
  lastSuccessAt: z.string().optional(),
  lastError: z.object({ at: z.string(), message: z.string(), code: z.string() }).optional(),
  consecutiveFailures: z.number().int().default(0),
  /** When the current run of failed polls began. */
  failingSince: z.string().optional(),
  /** Newest createdAt seen (API clock); the next poll reads down to it (less an overlap). */
  watermark: z.string().optional(),
  /** Records seen still pending (id → createdAt): a later failure is caught however far down they moved. */
  tracking: z.record(z.string(), z.string()).default({}),
});
export type AlertSourceState = z.infer<typeof AlertSourceState>;

/** The alert poller's persisted state; bounded by pruning at every poll. */
export const AlertsState = z.object({
  sources: z
    .object({
      withdrawals: AlertSourceState.default(() => ({ consecutiveFailures: 0, tracking: {} })),
      tasks: AlertSourceState.default(() => ({ consecutiveFailures: 0, tracking: {} })),
      gas: AlertSourceState.default(() => ({ consecutiveFailures: 0, tracking: {} })),
    })
    .default(() => emptyAlertsState().sources),
  /**
   * Failures already handled, by key: `at` is when Slack accepted the alert; no `at` means the failure was
   * older than ALERT_LOOKBACK at the first poll (a baseline, never alerted). `createdAt` drives pruning.
   */
  alerted: z.record(z.string(), z.object({ createdAt: z.string(), at: z.string().optional() })).default({}),
  outbox: z.array(OutboxItem).default([]),
  /** Set while an `api_down` alert stands; cleared (and `api_recovered` queued) when every source reads again. */
  apiDown: z.object({ since: z.string() }).optional(),
  /** The last attempt to post to the channel. */
  lastDelivery: z.object({ at: z.string(), ok: z.boolean(), error: z.string().optional() }).optional(),
});
export type AlertsState = z.infer<typeof AlertsState>;

/** The poller's state before its first poll. */
export function emptyAlertsState(): AlertsState {
  const source = (): AlertSourceState => ({ consecutiveFailures: 0, tracking: {} });
  return { sources: { withdrawals: source(), tasks: source(), gas: source() }, alerted: {}, outbox: [] };
}

/** The whole state file. Files written before the alert poller existed load with empty alert state. */
export const BotState = z.object({
  version: z.literal(1),
  swapQuotes: z.record(z.string(), SwapQuote),
  alerts: AlertsState.default(() => emptyAlertsState()),
});
export type BotState = z.infer<typeof BotState>;

/** Empty state for a first start. */
export function emptyState(): BotState {
  return { version: 1, swapQuotes: {}, alerts: emptyAlertsState() };
}

/** The bot's state store. */
export type BotStore = Store<BotState>;

/** Opens DATA_FILE as the bot's state. */
export function openBotStore(file: string, logger?: Logger, now?: () => Date): Promise<BotStore> {
  return openStore({ file, schema: BotState, empty: emptyState, logger, now });
}
