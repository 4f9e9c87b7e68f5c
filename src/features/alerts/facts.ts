import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------
// Alert facts: everything an alert message is built from, kept with the alert so that it can be (re)posted
// without asking the API again. Times are ISO strings from Date.toISOString(), so they also compare as strings.

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

/**
 * A row pending longer than its STUCK_*_AFTER (the poller makes no request for it): only what
 * the poller keeps of a followed row, its id and createdAt.
 */
export const StuckFacts = z.object({
  kind: z.literal('stuck'),
  source: z.enum(['withdrawal', 'task', 'gas']),
  id: z.string(),
  createdAt: z.string(),
  /** The threshold it passed (ms), to say "pending for over 2 h". */
  afterMs: z.number().int().positive(),
  /** When the poller saw it stuck. */
  seenAt: z.string(),
});
export type StuckFacts = z.infer<typeof StuckFacts>;

/**
 * An asset's balance went below its threshold: the threshold as it stood and the reading that crossed
 * it. The alert resolves itself when a later reading reaches the recovery level (balance-thresholds.ts).
 */
export const BalanceLowFacts = z.object({
  kind: z.literal('balance_low'),
  assetId: z.string(),
  symbol: z.string(),
  /** The network's symbol, as in `USDT@BSC`. */
  network: z.string(),
  decimals: z.number().int().nonnegative(),
  measure: z.enum(['units', 'usd']),
  /** Base units (`units`) or USD cents (`usd`). */
  below: z.string(),
  /** The reading that crossed: base units, and the USD value as the API wrote it. */
  balance: z.string(),
  balanceInUsd: z.string().nullable(),
  /** When the poller read it (our clock). */
  createdAt: z.string(),
});
export type BalanceLowFacts = z.infer<typeof BalanceLowFacts>;

/**
 * An asset's runway (days its balance lasts at its recent outflow, features/runway) fell below RUNWAY_ALERT_DAYS:
 * the level as it stood and the forecast that crossed it, as people read them. The alert resolves itself when a
 * later forecast reaches the level plus the margin (poller/runways.ts).
 */
export const RunwayLowFacts = z.object({
  kind: z.literal('runway_low'),
  assetId: z.string(),
  symbol: z.string(),
  /** The network's symbol, as in `USDT@ETH`. */
  network: z.string(),
  decimals: z.number().int().nonnegative(),
  /** RUNWAY_ALERT_DAYS when it crossed (`3`). */
  belowDays: z.string(),
  /** The level that resolves it, in days (`3.3`). */
  recoversAtDays: z.string(),
  /** The forecast that crossed, rounded down as shown (`2.4`), and its outflow (`$4,100.00/day`). */
  days: z.string(),
  outflow: z.string(),
  /** The balance it was counted from: base units, and the USD value as the API wrote it. */
  balance: z.string(),
  balanceInUsd: z.string().nullable(),
  /** When the poller read it (our clock). */
  createdAt: z.string(),
});
export type RunwayLowFacts = z.infer<typeof RunwayLowFacts>;

/** Everything an alert message is built from. */
export const AlertFacts = z.discriminatedUnion('kind', [
  WithdrawalAlertFacts,
  TaskAlertFacts,
  GasAlertFacts,
  StuckFacts,
  ApiDownFacts,
  ApiRecoveredFacts,
  BalanceLowFacts,
  RunwayLowFacts,
]);
export type AlertFacts = z.infer<typeof AlertFacts>;
/** The three kinds of failure the poller watches. */
export type FailureFacts = Extract<AlertFacts, { kind: 'withdrawal' | 'task' | 'gas' }>;
export const FailureFacts = z.discriminatedUnion('kind', [WithdrawalAlertFacts, TaskAlertFacts, GasAlertFacts]);

// ---------------------------------------------------------------------------------------------------------

/**
 * What `/treasury alerts` shows about the alert poller: the poller reads it from its state, the view renders it.
 * It lives here so that the view (blocks) and the poller both depend on it, and not on each other.
 */

/** The sources the poller watches. */
export type AlertSourceName = 'withdrawals' | 'tasks' | 'gas';

/** How one watched source stands, for `/treasury alerts`. */
export interface SourceStatus {
  source: AlertSourceName;
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  lastError: { at: Date; message: string } | null;
  /**
   * A backlog being read over several polls (first run with a long lookback, after an outage, a burst), or
   * null: rows read so far, and about how many in all when the list lets us estimate it.
   */
  catchingUp?: { read: number; estimate: number | null; since: Date } | null;
}

/** Everything `/treasury alerts` shows. */
export interface AlertStatusView {
  channel: string;
  schedule: string;
  nextRun: Date | null;
  /** A poll is running right now. */
  polling: boolean;
  sources: SourceStatus[];
  /** The most recent error of any source, or of posting to Slack. */
  lastError: { where: string; at: Date; message: string } | null;
  /** Failures alerted (accepted by Slack) in the last 24 hours. */
  sentLast24h: number;
  /** Alerts waiting in the outbox for Slack to accept them. */
  waiting: number;
  /** Alerts people own that are not resolved, and how many of them nobody has acknowledged. */
  openAlerts?: { open: number; nobody: number };
  apiDownSince: Date | null;
  /** Replicated deployments: this replica's name, and which replica polls (undefined: none holds the lease now). */
  replicas?: { self: string; poller: string | undefined };
  /**
   * Channels that refuse alerts for good now (archived, not found, the bot not in it…), among those the
   * configuration sends alerts to: ALERT_CHANNEL, or the kinds ALERT_ROUTES sends there.
   */
  refusing?: Array<{ channel: string; alertChannel: boolean; kinds: string[]; error: string; since: Date; at: Date }>;
  /** When the last successful poll (every source read) began, by any replica; null: none recorded yet. */
  lastSuccessfulPollAt?: Date | null;
}
