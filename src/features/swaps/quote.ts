/**
 * The swap quote: the record of one estimate and everything that happened to it, and the moves its status
 * may make. Plain data and pure functions: the store persists it, the features move it, the views show it.
 */
import { z } from 'zod';
import { Approval, PolicySnapshot, StoredUsdValue } from './policy.js';

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
  'expired', // approved too late (or never posted): no create call was made
] as const;
/** One of QUOTE_STATUSES. */
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** One entry of the audit trail of a quote. */
export const AuditEntry = z.object({
  at: z.string(),
  event: z.string(),
  by: z.string().optional(),
  detail: z.string().optional(),
  /** An approval made with a code from the approver's authenticator app (the audit CSV's `second_factor`). */
  secondFactor: z.literal(true).optional(),
});
/** One entry of the audit trail of a quote. */
export type AuditEntry = z.infer<typeof AuditEntry>;

/** What the quote needs to show an asset without asking the API again. */
export const AssetSnapshot = z.object({
  assetId: z.string(),
  symbol: z.string(),
  networkSymbol: z.string(),
  networkTitle: z.string(),
  decimals: z.number().int(),
});
/** What the quote needs to show an asset without asking the API again. */
export type AssetSnapshot = z.infer<typeof AssetSnapshot>;

/** Why an `outcome_unknown` quote is unknown. */
export const UNKNOWN_CAUSES = ['answer_lost', 'interrupted'] as const;
/** One of UNKNOWN_CAUSES. */
export type UnknownCause = (typeof UNKNOWN_CAUSES)[number];

/** A swap quote and everything that happened to it. */
export const SwapQuote = z.object({
  id: z.string(),
  estimateId: z.string(),
  /** When we asked for the estimate: its 30-minute validity counts from here, not from any click. */
  estimatedAt: z.string(),
  expiresAt: z.string(),
  requestedBy: z.string(),
  channelId: z.string(),
  /** ts of the quote message, once posted. Only a click on this message (in channelId) can decide the quote. */
  messageTs: z.string().optional(),
  from: AssetSnapshot,
  to: AssetSnapshot,
  /** Base units of `from`. */
  amountFrom: z.string(),
  /** Estimated base units of `to`. */
  estimatedAmount: z.string(),
  /**
   * What the swap was worth in USD at quote time: the larger of its two legs (amountFrom and estimatedAmount),
   * each at its asset's own price (balanceInUsd / balance), or why that is unknown (swapValueUsd). Quotes made
   * before the target leg was valued hold the source leg alone; absent on quotes made before it was recorded.
   */
  valueUsd: StoredUsdValue.optional(),
  /**
   * The approval policy that applied when the quote was made (tier, approvals needed, approvers, limits): it alone
   * decides the quote, whatever the configuration says later. Absent on quotes made before it was recorded (they
   * need one approval from the approvers configured now: the rule they were made under).
   */
  policy: PolicySnapshot.optional(),
  /** Each distinct approval so far, in order; the one that reached the quorum is last. */
  approvals: z.array(Approval).optional(),
  /** When the "expires soon" reminder was claimed for posting (once per quote). */
  remindedAt: z.string().optional(),
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
  /**
   * Why an `outcome_unknown` quote is unknown: `answer_lost` (swap/create was sent, its answer was lost: a
   * timeout or a 5xx) or `interrupted` (the bot died while approving: the create may not even have been sent).
   */
  unknownCause: z.enum(UNKNOWN_CAUSES).optional(),
  /** Following the swap stopped (final status, or gave up after the bound). */
  followEndedAt: z.string().optional(),
  /** Set when a "New quote" made a successor quote. */
  replacedBy: z.string().optional(),
  /**
   * The quote this one replaces ("New quote"), and who had asked for that one: `requestedBy` is the person who
   * clicked New quote (the separation of duties, their 24 hours and the requester checks are judged on them).
   */
  replaces: z.string().optional(),
  replacesRequestedBy: z.string().optional(),
  /**
   * Set when, at quote time, other people's quotes waiting out of the same asset added up to this many USD cents
   * and, approved first, could leave this one no room under the daily limit: the quote warns (the limit itself is
   * judged at the approval).
   */
  othersWaitingCents: z.string().regex(/^\d+$/).optional(),
  history: z.array(AuditEntry),
});
/** A swap quote and everything that happened to it. */
export type SwapQuote = z.infer<typeof SwapQuote>;

/** Estimates are held 30 minutes by the payment service (docs/payments-api.md#swaps). */
export const ESTIMATE_VALIDITY_MS = 30 * 60_000;

/** When an estimate made at `estimatedAt` stops being valid. */
function expiryOf(estimatedAt: Date): Date {
  return new Date(estimatedAt.getTime() + ESTIMATE_VALIDITY_MS);
}

/**
 * Which status may move to which. `pending` is the only status a decision can leave; `approving` only the
 * create's answer (or a restart finding it) can leave; every other status is final.
 */
export const QUOTE_TRANSITIONS: Readonly<Record<QuoteStatus, readonly QuoteStatus[]>> = {
  pending: ['approving', 'rejected', 'expired'],
  approving: ['created', 'create_failed', 'outcome_unknown'],
  created: [],
  create_failed: [],
  outcome_unknown: [],
  rejected: [],
  expired: [],
};

/** Whether a quote in status `from` may move to `to`. */
export function canMove(from: QuoteStatus, to: QuoteStatus): boolean {
  return QUOTE_TRANSITIONS[from].includes(to);
}

/** Whether no decision or answer can change this status any more. */
export function isFinalStatus(status: QuoteStatus): boolean {
  return QUOTE_TRANSITIONS[status].length === 0;
}

/** Whether "New quote" may replace this quote: it ended without a swap, and nobody asked for a successor yet. */
export function canRequote(quote: Pick<SwapQuote, 'status' | 'replacedBy'>): boolean {
  return quote.replacedBy === undefined && (quote.status === 'expired' || quote.status === 'create_failed');
}

/** Whether the bot should (still) follow this quote's swap with swap/get. */
export function needsFollowing(quote: Pick<SwapQuote, 'status' | 'swapId' | 'followEndedAt'>): boolean {
  return quote.status === 'created' && quote.swapId !== undefined && quote.followEndedAt === undefined;
}

/** Swap statuses after which nothing changes: following ends. */
const FINAL_SWAP_STATUSES: ReadonlySet<string> = new Set(['finished', 'rejected']);

/** Whether a swap (as the API reports it) has reached its end. */
export function isFinalSwapStatus(status: string | undefined): boolean {
  return status !== undefined && FINAL_SWAP_STATUSES.has(status);
}

/** An audit trail entry; `by` and `detail` are left out when absent (as in files written before). */
export function auditEntry(at: Date, event: string, by?: string, detail?: string): AuditEntry {
  return { at: at.toISOString(), event, ...(by ? { by } : {}), ...(detail ? { detail } : {}) };
}

/**
 * Why an `outcome_unknown` quote is unknown. Records written before `unknownCause` existed are known by their
 * old failure text: the crash case said the bot restarted while waiting.
 */
export function unknownCauseOf(quote: Pick<SwapQuote, 'unknownCause' | 'failure'>): UnknownCause {
  if (quote.unknownCause) return quote.unknownCause;
  return quote.failure === undefined || quote.failure === 'the bot restarted while waiting for the answer'
    ? 'interrupted'
    : 'answer_lost';
}

/** What the swap/get of a followed swap reported, already in the quote's terms. */
export interface SwapProgress {
  swapStatus: string;
  amountTo?: string | undefined;
  hashFrom?: string | undefined;
  hashTo?: string | undefined;
  feeSummary?: string | undefined;
}

/**
 * Applies `progress` to the quote in place (fields the API did not report keep their value) and says whether
 * anything changed. Used inside the store's atomic update.
 */
export function applySwapProgress(quote: SwapQuote, progress: SwapProgress): { changed: boolean } {
  const before = JSON.stringify([quote.swapStatus, quote.amountTo, quote.hashFrom, quote.hashTo, quote.feeSummary]);
  quote.swapStatus = progress.swapStatus;
  if (progress.amountTo !== undefined) quote.amountTo = progress.amountTo;
  if (progress.hashFrom) quote.hashFrom = progress.hashFrom;
  if (progress.hashTo) quote.hashTo = progress.hashTo;
  if (progress.feeSummary) quote.feeSummary = progress.feeSummary;
  const after = JSON.stringify([quote.swapStatus, quote.amountTo, quote.hashFrom, quote.hashTo, quote.feeSummary]);
  return { changed: before !== after };
}

/** What a new quote is made of: the estimate the service gave and who asked, where. */
export interface NewQuoteInput {
  id: string;
  estimateId: string;
  /** When the bot asked for the estimate: validity counts from here. */
  estimatedAt: Date;
  requestedBy: string;
  channelId: string;
  from: AssetSnapshot;
  to: AssetSnapshot;
  /** Base units of `from`. */
  amountFrom: bigint;
  /** Estimated base units of `to`. */
  estimatedAmount: string;
  routeType: string;
  serviceId: string;
  /** The quote this one replaces ("New quote") and who had asked for it; `requestedBy` is who clicked. */
  replaces?: { quoteId: string; requestedBy: string } | undefined;
  /** Other people's waiting quotes out of the asset, when they could take the daily limit's room first. */
  othersWaitingCents?: bigint | undefined;
  /** What the swap was worth in USD at quote time (the larger leg), or why that is unknown. */
  valueUsd?: StoredUsdValue | undefined;
  /** The approval policy fixed for this quote. */
  policy?: PolicySnapshot | undefined;
}

/** A pending quote, valid ESTIMATE_VALIDITY_MS from its estimate, with its first audit entry. */
export function newSwapQuote(input: NewQuoteInput): SwapQuote {
  return {
    id: input.id,
    estimateId: input.estimateId,
    estimatedAt: input.estimatedAt.toISOString(),
    expiresAt: expiryOf(input.estimatedAt).toISOString(),
    requestedBy: input.requestedBy,
    channelId: input.channelId,
    from: input.from,
    to: input.to,
    amountFrom: input.amountFrom.toString(),
    estimatedAmount: input.estimatedAmount,
    routeType: input.routeType,
    serviceId: input.serviceId,
    status: 'pending',
    ...(input.valueUsd ? { valueUsd: input.valueUsd } : {}),
    ...(input.policy ? { policy: input.policy, approvals: [] } : {}),
    ...(input.replaces ? { replaces: input.replaces.quoteId, replacesRequestedBy: input.replaces.requestedBy } : {}),
    ...(input.othersWaitingCents !== undefined ? { othersWaitingCents: input.othersWaitingCents.toString() } : {}),
    history: [
      auditEntry(
        input.estimatedAt,
        'quoted',
        input.requestedBy,
        input.replaces
          ? `estimate ${input.estimateId}; New quote replacing quote ${input.replaces.quoteId} requested by ${input.replaces.requestedBy}`
          : `estimate ${input.estimateId}`,
      ),
    ],
  };
}
