/** A gas top-up short of donor balance (the gas source). */
import { z } from 'zod';
import { clipText } from '../../../blocks/common.js';
import { formatNetwork, formatStatus, formatUtc } from '../../../blocks/format.js';
import { code, escapeText, shorten } from '../../../blocks/mrkdwn.js';
import type { FeeLeg, GasDistribution } from '../../../payments/index.js';
import { defineFailureKind, legText, summaryLineParts, txText } from './failure.js';
import { AlertLeg, Network, recordFields } from './kind.js';

/** The gas sub-status the poller alerts on, whatever the row's status. */
export const NOT_ENOUGH_DONOR_BALANCE = 'not_enough_donor_balance';

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
export type GasAlertFacts = z.infer<typeof GasAlertFacts>;

const leg = (l: FeeLeg | null) =>
  l ? { amountFormatted: l.amountFormatted, currency: l.currency, amountInUsd: l.amountInUsd } : null;

/** Facts of a gas top-up short of donor balance. */
export function gasFacts(g: GasDistribution): GasAlertFacts {
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

const failed = 'Gas top-up short of donor balance';

export const gas = defineFailureKind({
  facts: GasAlertFacts,
  route: 'gas_donor_balance',
  digest: 'Gas top-ups short of donor balance',
  // The same address failing again is the same incident.
  objects: (f) => [`gas:${f.id}`, `gas-address:${f.network.symbol}:${f.targetAddress}`],
  words: {
    failed,
    many: 'gas top-ups short of donor balance',
    lookup: '`/treasury gas` (and `/treasury gas cancelled`)',
  },
  title: (f) => `${failed} · ${f.network.title}`,
  fallback: (f) =>
    `Gas top-up short of donor balance on ${formatNetwork(f.network)}: could not charge ${legText(f.charged)} (id ${escapeText(f.id)})`,
  fields: (f) => [
    ['Status', formatStatus(f.status, f.subStatus)],
    ['Could not charge', legText(f.charged)],
    ['Network', formatNetwork(f.network)],
    ['Created', formatUtc(new Date(f.createdAt))],
    ['Target address', code(f.targetAddress)],
    ['Top-up wanted', legText(f.topUp)],
    ['Transaction', txText(f.txHash)],
    ['Pipeline', code(f.pipelineId)],
  ],
  advice: (f) =>
    `The gas liquidity address lacks ${escapeText(f.charged?.currency ?? 'its stablecoin')} on ${formatNetwork(f.network)}: top it up, or payments and payouts from this address will stall.`,
  line: (f) => {
    const { created, network, status, id } = summaryLineParts(f, f.subStatus);
    const charged = f.charged ? { ...f.charged, currency: clipText(f.charged.currency, 20) } : null;
    return `• could not charge *${legText(charged)}* on ${network} for ${code(shorten(f.targetAddress, 8))} · ${created} · ${status} · ${id}`;
  },
  update: {
    sameRow: 'Then short of donor balance',
    sameThing: () => ':repeat: The same address is short of donor balance again',
  },
  about: (f) => ({
    about: `gas top-up ${f.id} ${f.status}${f.subStatus ? ` (${f.subStatus})` : ''} for ${f.targetAddress} on ${f.network.symbol}, created ${f.createdAt}`,
    ...(f.charged
      ? {
          asset: `${f.charged.currency}@${f.network.symbol}`,
          amount: f.charged.amountFormatted,
          ...(f.charged.amountInUsd ? { usd: f.charged.amountInUsd } : {}),
        }
      : {}),
  }),
});
