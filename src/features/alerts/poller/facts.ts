/**
 * Turns API records into the facts an alert shows. The facts are stored in the outbox, so an alert that Slack
 * refused can be posted later exactly as it was detected, without asking the API again.
 */

import type { FeeLeg, GasDistribution, PayoutTask, Withdrawal } from '../../../payments/index.js';
import type { FailureFacts } from '../facts.js';

/** The gas sub-status the poller alerts on, whatever the row's status. */
export const NOT_ENOUGH_DONOR_BALANCE = 'not_enough_donor_balance';

/** The three watched sources, in the order they are polled and shown. */
export const SOURCES = ['withdrawals', 'tasks', 'gas'] as const;
export type SourceName = (typeof SOURCES)[number];

/** The outbox / alerted key of a failure: one per record, so it is alerted once. */
export function failureKey(kind: FailureFacts['kind'], id: string): string {
  return `${kind}:${id}`;
}

/** Facts of a failed withdrawal. */
export function withdrawalFacts(w: Withdrawal): FailureFacts {
  return {
    kind: 'withdrawal',
    id: w.id,
    status: w.status,
    createdAt: w.createdAt.toISOString(),
    symbol: w.crypto.symbol,
    decimals: w.crypto.decimals,
    network: { title: w.network.title, symbol: w.network.symbol },
    amount: w.amount,
    amountInUsd: w.amountInUsd,
    address: w.address,
    txHash: w.txHash,
  };
}

/** Facts of a failed payout task. */
export function taskFacts(t: PayoutTask): FailureFacts {
  return {
    kind: 'task',
    id: t.id,
    status: t.status,
    subStatus: t.subStatus,
    createdAt: t.createdAt.toISOString(),
    symbol: t.crypto.symbol,
    decimals: t.crypto.decimals,
    network: { title: t.network.title, symbol: t.network.symbol },
    amount: t.amount,
    amountInUsd: t.amountInUsd,
    type: t.type,
    targetsCount: t.targetsCount,
    payoutId: t.payoutId,
    assetId: t.assetId,
    transferTxHash: t.transferTxHash || null,
    payoutTxHash: t.payoutTxHash || null,
  };
}

const leg = (l: FeeLeg | null) =>
  l ? { amountFormatted: l.amountFormatted, currency: l.currency, amountInUsd: l.amountInUsd } : null;

/** Facts of a gas top-up short of donor balance. */
export function gasFacts(g: GasDistribution): FailureFacts {
  return {
    kind: 'gas',
    id: g.id,
    status: g.status,
    subStatus: g.subStatus,
    createdAt: g.createdAt.toISOString(),
    network: { title: g.network.title, symbol: g.network.symbol },
    targetAddress: g.targetAddress,
    // The API sends "" when nothing was sent on-chain.
    txHash: g.txHash || null,
    charged: leg(g.charged),
    topUp: leg(g.topUp),
    pipelineId: g.pipeline.id,
  };
}
