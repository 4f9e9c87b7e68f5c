import { fields, header, type SlackMessage, section } from '../../blocks/common.js';
import {
  formatCryptoAmount,
  formatFeeLeg,
  formatNetwork,
  formatStatus,
  formatTokenAmount,
  formatUsd,
  formatUtc,
} from '../../blocks/format.js';
import { code, escapeText } from '../../blocks/mrkdwn.js';
import { type RecordViewOptions, recordFooter } from '../../blocks/share.js';
import type { Deposit } from '../../payments/index.js';

/** `/treasury deposit <id>`. Old deposits have no USD pricing of their fee: that is said, not hidden. */
export function buildDeposit(deposit: Deposit, options: RecordViewOptions): SlackMessage {
  const amount = formatCryptoAmount(deposit.amount, deposit.crypto);
  const service = deposit.fee.service;
  const fee = service ? formatFeeLeg(service) : 'none';
  const feeUsd =
    deposit.fee.totalInUsd === null ? 'n/a (this deposit predates USD pricing)' : formatUsd(deposit.fee.totalInUsd);
  return {
    text: `Deposit of ${amount}: ${escapeText(deposit.status)} · id ${escapeText(deposit.id)}`,
    blocks: [
      header(`Deposit · ${formatTokenAmount(deposit.amount, deposit.crypto.decimals, deposit.crypto.symbol)}`),
      fields([
        ['Status', formatStatus(deposit.status)],
        ['Amount', amount],
        ['Network', formatNetwork(deposit.network)],
        ['Received', formatUtc(deposit.createdAt)],
        ['Service fee', fee],
        ['Fee total (USD)', feeUsd],
      ]),
      section(
        `*From*\n${deposit.txFrom ? code(deposit.txFrom) : '_unknown_'}\n*Transaction*\n${deposit.txHash ? code(deposit.txHash) : '_none_'}`,
      ),
      ...recordFooter('deposit', 'Deposit', deposit.id, options),
    ],
  };
}
