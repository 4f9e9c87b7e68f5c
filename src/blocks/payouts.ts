import type { CursorPage, PayoutTask } from '../payments/index.js';
import {
  actions,
  button,
  context,
  fields,
  header,
  linesToSections,
  nextSlice,
  type SlackMessage,
  section,
} from './common.js';
import {
  formatCryptoAmount,
  formatFeeLeg,
  formatNetwork,
  formatStatus,
  formatTokenAmount,
  formatUsd,
  formatUtc,
} from './format.js';
import { ACTION_IDS, type PayoutsPageValue } from './ids.js';
import { code, escapeText } from './mrkdwn.js';
import { type RecordViewOptions, recordFooter } from './share.js';

/** Tasks shown per message; the API's fixed page of 50 is shown in slices of this size. */
export const TASKS_PER_MESSAGE = 25;

function taskLine(task: PayoutTask): string {
  const amount = formatCryptoAmount(task.amount, task.crypto);
  return (
    `${formatStatus(task.status, task.subStatus)} *${amount}* on ${formatNetwork(task.network)} (${formatUsd(task.amountInUsd)}) · ` +
    `${task.targetsCount} targets · ${formatUtc(task.createdAt)} · ${code(task.id)}`
  );
}

/**
 * `/treasury payouts …`: a slice of one API page, newest first, with "Next page" while there is more.
 * `filterLabel` is plain text (e.g. `failed · USDT@BSC`): literal in the header, escaped in the notification.
 */
export function buildPayoutTaskList(
  page: CursorPage<PayoutTask>,
  request: PayoutsPageValue,
  filterLabel: string,
): SlackMessage {
  const slice = page.items.slice(request.offset, request.offset + TASKS_PER_MESSAGE);
  const title = `Payout tasks${filterLabel ? ` · ${filterLabel}` : ''}`;
  if (slice.length === 0) {
    return { text: `${escapeText(title)}: none`, blocks: [header(title), section('No payout tasks match.')] };
  }
  const next = nextSlice(request, page, TASKS_PER_MESSAGE);
  return {
    text: `${escapeText(title)}: ${slice.length} shown`,
    blocks: [
      header(title),
      ...linesToSections(slice.map(taskLine)),
      context(next ? 'Newest first. More on the next page.' : 'Newest first. That is all.'),
      ...actions(next ? [button('Next page ▶', ACTION_IDS.payoutsPage, JSON.stringify(next))] : []),
    ],
  };
}

/** `/treasury task <id>`: one task with its gas (fee.network). */
export function buildPayoutTask(task: PayoutTask, options: RecordViewOptions): SlackMessage {
  const amount = formatCryptoAmount(task.amount, task.crypto);
  const gas = task.fee.network.length > 0 ? task.fee.network.map(formatFeeLeg).join(' + ') : 'none reported';
  return {
    text: `Payout task ${amount}: ${escapeText(task.status)} · id ${escapeText(task.id)}`,
    blocks: [
      header(`Payout task · ${formatTokenAmount(task.amount, task.crypto.decimals, task.crypto.symbol)}`),
      fields([
        ['Status', formatStatus(task.status, task.subStatus)],
        ['Type', escapeText(task.type)],
        ['Amount', `${amount} (${formatUsd(task.amountInUsd)})`],
        ['Network', formatNetwork(task.network)],
        ['Targets', String(task.targetsCount)],
        ['Created', formatUtc(task.createdAt)],
        ['Gas (network fee)', `${gas}\n_paid from the merchant's payment address, not in the USD total_`],
        ['Service fee', task.fee.service ? formatFeeLeg(task.fee.service) : 'none'],
        ['Fee total (USD)', formatUsd(task.fee.totalInUsd)],
        ['Payout', code(task.payoutId)],
      ]),
      section(
        `*Transfer tx*\n${task.transferTxHash ? code(task.transferTxHash) : '_none yet_'}\n*Payout tx*\n${task.payoutTxHash ? code(task.payoutTxHash) : '_none yet_'}`,
      ),
      ...recordFooter('task', 'Task', task.id, options),
    ],
  };
}
