/** A failed withdrawal (the withdrawals source). */
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
import { code, escapeText, shorten } from '../../../blocks/mrkdwn.js';
import type { Withdrawal } from '../../../payments/index.js';
import { amountText, defineFailureKind, summaryLineParts, txText } from './failure.js';
import { amountFields, amountOf, recordAndAmountOf, recordFields } from './kind.js';

/** What an alert about a failed withdrawal shows; kept so the alert can be (re)posted without the API. */
export const WithdrawalAlertFacts = z.object({
  kind: z.literal('withdrawal'),
  ...recordFields,
  ...amountFields,
  address: z.string(),
  txHash: z.string().nullable(),
});
export type WithdrawalAlertFacts = z.infer<typeof WithdrawalAlertFacts>;

/** Facts of a failed withdrawal. */
export function withdrawalFacts(w: Withdrawal): WithdrawalAlertFacts {
  return {
    kind: 'withdrawal',
    ...recordAndAmountOf(w),
    address: w.address,
    txHash: w.txHash,
  };
}

const failed = 'Withdrawal failed';
const title = (f: WithdrawalAlertFacts) => `${failed} · ${formatTokenAmount(f.amount, f.decimals, f.symbol)}`;

export const withdrawal = defineFailureKind({
  facts: WithdrawalAlertFacts,
  route: 'withdrawal_failed',
  digest: 'Failed withdrawals',
  objects: (f) => [`withdrawal:${f.id}`],
  words: { failed, many: 'withdrawals failed', lookup: '`/treasury withdrawal &lt;id&gt;`' },
  title,
  fallback: (f) =>
    `Withdrawal failed: ${amountText(f)} on ${formatNetwork(f.network)} to ${escapeText(shorten(f.address, 8))} (id ${escapeText(f.id)})`,
  fields: (f) => [
    ['Status', formatStatus(f.status)],
    ['Amount', amountText(f)],
    ['Asset', `${escapeText(f.symbol)} on ${formatNetwork(f.network)}`],
    ['Created', formatUtc(new Date(f.createdAt))],
    ['Destination', code(f.address)],
    ['Transaction', txText(f.txHash)],
  ],
  advice: () =>
    'The money did not leave the asset. Check the destination and the balance, then retry the withdrawal if it is still needed.',
  line: (f) => {
    const { created, network, status, id } = summaryLineParts(f, null);
    const amount = formatCryptoAmount(f.amount, { decimals: f.decimals, symbol: clipText(f.symbol, 20) });
    return `• *${amount}* (${formatUsd(f.amountInUsd)}) on ${network} · to ${code(shorten(f.address, 8))} · ${created} · ${status} · ${id}`;
  },
  update: { sameRow: 'Then failed', sameThing: (f) => `:repeat: ${escapeText(title(f))}` },
  about: (f) => ({
    about: `withdrawal ${f.id} ${f.status} (to ${f.address}, created ${f.createdAt})`,
    asset: `${f.symbol}@${f.network.symbol}`,
    ...amountOf(f.amount, f.decimals, f.amountInUsd),
  }),
});
