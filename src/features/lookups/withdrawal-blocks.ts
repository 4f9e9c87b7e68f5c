import { actions, button, context, fields, header, type SlackMessage, section } from '../../blocks/common.js';
import {
  formatCryptoAmount,
  formatFeeLeg,
  formatNetwork,
  formatStatus,
  formatTokenAmount,
  formatUsd,
  formatUtc,
} from '../../blocks/format.js';
import { ACTION_IDS } from '../../blocks/ids.js';
import { code, escapeText, shorten } from '../../blocks/mrkdwn.js';
import { type RecordViewOptions, recordFooter } from '../../blocks/share.js';
import type { WithdrawalListPage } from '../../payments/client.js';
import type { Withdrawal } from '../../payments/index.js';

/** Withdrawals shown per page of `/treasury withdrawals`. */
export const WITHDRAWALS_PER_PAGE = 10;

/** One line of the withdrawal list. */
function withdrawalLine(w: Withdrawal): string {
  const amount = formatCryptoAmount(w.amount, w.crypto);
  return [
    `${formatStatus(w.status)} *${amount}* on ${formatNetwork(w.network)} (${formatUsd(w.amountInUsd)})`,
    `to ${code(shorten(w.address, 8))} · ${formatUtc(w.createdAt)}${w.txHash ? ` · tx ${code(shorten(w.txHash, 8))}` : ''}`,
    `id ${code(w.id)}`,
  ].join('\n');
}

/** `/treasury withdrawals [page]`: one page, newest first, with Previous/Next buttons. */
export function buildWithdrawalPage(page: WithdrawalListPage, now: Date): SlackMessage {
  const pageCount = Math.max(1, Math.ceil(page.totalCount / page.perPage));
  if (page.items.length === 0) {
    const text =
      page.totalCount === 0
        ? 'No withdrawals yet.'
        : `Page ${page.page} is past the end: there are ${pageCount} pages.`;
    return {
      text,
      blocks: [
        section(text),
        ...actions(page.page > 1 ? [button('First page', ACTION_IDS.withdrawalsFirst, '1')] : []),
      ],
    };
  }
  const buttons = [];
  if (page.page > 1) buttons.push(button('◀ Previous', ACTION_IDS.withdrawalsPrevious, String(page.page - 1)));
  if (page.page < pageCount) buttons.push(button('Next ▶', ACTION_IDS.withdrawalsNext, String(page.page + 1)));
  return {
    text: `Withdrawals, page ${page.page} of ${pageCount}`,
    blocks: [
      header(`Withdrawals · page ${page.page} of ${pageCount}`),
      ...page.items.map((w) => section(withdrawalLine(w))),
      context(`${page.totalCount} withdrawals in all, newest first · as of ${formatUtc(now)}`),
      ...actions(buttons),
    ],
  };
}

/** `/treasury withdrawal <id>`. */
export function buildWithdrawal(w: Withdrawal, options: RecordViewOptions): SlackMessage {
  const amount = formatCryptoAmount(w.amount, w.crypto);
  return {
    // The notification text carries the facts on its own (a plain-text fallback starts with it): amount, status, id.
    text: `Withdrawal of ${amount}: ${escapeText(w.status)} · id ${escapeText(w.id)}`,
    blocks: [
      header(`Withdrawal · ${formatTokenAmount(w.amount, w.crypto.decimals, w.crypto.symbol)}`),
      fields([
        ['Status', formatStatus(w.status)],
        ['Amount', `${amount} (${formatUsd(w.amountInUsd)})`],
        ['Network', formatNetwork(w.network)],
        ['Created', formatUtc(w.createdAt)],
        ['Fee', w.fee.service ? formatFeeLeg(w.fee.service) : 'none'],
        ['Fee total (USD)', formatUsd(w.fee.totalInUsd)],
        ['Payer', escapeText(w.payer)],
        ['Private', w.isPrivate ? 'yes' : 'no'],
      ]),
      section(
        `*Destination*\n${code(w.address)}\n*Transaction*\n${w.txHash ? code(w.txHash) : '_not sent on-chain yet_'}`,
      ),
      ...recordFooter('withdrawal', 'Withdrawal', w.id, options),
    ],
  };
}
