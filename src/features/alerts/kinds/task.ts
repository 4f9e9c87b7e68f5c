/** A failed payout task (the tasks source). */
import { z } from 'zod';
import { clipText } from '../../../blocks/common.js';
import {
  formatCryptoAmount,
  formatNetwork,
  formatStatus,
  formatTokenAmount,
  formatUsd,
  formatUtc,
} from '../../../blocks/format.js';
import { code, escapeText } from '../../../blocks/mrkdwn.js';
import type { PayoutTask } from '../../../payments/index.js';
import { amountText, defineFailureKind, summaryLineParts, txText } from './failure.js';
import { amountFields, amountOf, recordAndAmountOf, recordFields } from './kind.js';

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
export type TaskAlertFacts = z.infer<typeof TaskAlertFacts>;

/** Facts of a failed payout task. */
export function taskFacts(t: PayoutTask): TaskAlertFacts {
  return {
    kind: 'task',
    ...recordAndAmountOf(t),
    subStatus: t.subStatus,
    type: t.type,
    targetsCount: t.targetsCount,
    payoutId: t.payoutId,
    assetId: t.assetId,
    transferTxHash: t.transferTxHash || null,
    payoutTxHash: t.payoutTxHash || null,
  };
}

const failed = 'Payout task failed';
const title = (f: TaskAlertFacts) => `${failed} · ${formatTokenAmount(f.amount, f.decimals, f.symbol)}`;

export const task = defineFailureKind({
  facts: TaskAlertFacts,
  route: 'task_failed',
  digest: 'Failed payout tasks',
  objects: (f) => [`task:${f.id}`],
  words: {
    failed,
    many: 'payout tasks failed',
    lookup: '`/treasury task &lt;id&gt;` or `/treasury payouts failed`',
  },
  title,
  fallback: (f) => `Payout task failed: ${amountText(f)} on ${formatNetwork(f.network)} (id ${escapeText(f.id)})`,
  fields: (f) => [
    ['Status', formatStatus(f.status, f.subStatus)],
    ['Amount', amountText(f)],
    ['Asset', `${escapeText(f.symbol)} on ${formatNetwork(f.network)}`],
    ['Created', formatUtc(new Date(f.createdAt))],
    ['Targets', `${f.targetsCount} (${escapeText(f.type)}) in payout ${code(f.payoutId)}`],
    ['Transfer tx', txText(f.transferTxHash)],
    ['Payout tx', txText(f.payoutTxHash)],
  ],
  advice: () => 'Some targets of this payout may not have been paid. Check the task before paying again.',
  line: (f) => {
    const { created, network, status, id } = summaryLineParts(f, f.subStatus);
    const amount = formatCryptoAmount(f.amount, { decimals: f.decimals, symbol: clipText(f.symbol, 20) });
    return `• *${amount}* (${formatUsd(f.amountInUsd)}) on ${network} · ${f.targetsCount} targets · ${created} · ${status} · ${id}`;
  },
  update: { sameRow: 'Then failed', sameThing: (f) => `:repeat: ${escapeText(title(f))}` },
  about: (f) => ({
    about: `payout task ${f.id} ${f.status}${f.subStatus ? ` (${f.subStatus})` : ''} in payout ${f.payoutId}, created ${f.createdAt}`,
    asset: `${f.symbol}@${f.network.symbol}`,
    ...amountOf(f.amount, f.decimals, f.amountInUsd),
  }),
});
