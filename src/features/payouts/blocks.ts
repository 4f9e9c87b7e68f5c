import {
  actions,
  button,
  clipText,
  context,
  fields,
  header,
  linesToSections,
  nextSlice,
  type SlackMessage,
  section,
} from '../../blocks/common.js';
import {
  formatCryptoAmount,
  formatFeeLeg,
  formatNetwork,
  formatStatus,
  formatTokenAmount,
  formatUsd,
  formatUtc,
} from '../../blocks/format.js';
import { ACTION_IDS, type PayoutsPageValue } from '../../blocks/ids.js';
import { code, escapeText, mention } from '../../blocks/mrkdwn.js';
import { type RecordViewOptions, recordFooter } from '../../blocks/share.js';
import { isUuid } from '../../kernel/ids.js';
import type { CursorPage, PayoutTask } from '../../payments/index.js';
import type { AssetSnapshot } from '../swaps/quote.js';
import { PAYOUT_PROPOSAL_VALIDITY_MS, type PayoutRequest } from './rules.js';

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
    // A container starts empty: its tasks come later, so "none" is not "no match".
    const none =
      request.payoutId === undefined
        ? 'No payout tasks match.'
        : request.status === undefined && request.assetId === undefined
          ? 'No tasks in this payout yet.'
          : 'No tasks of this payout match.';
    return { text: `${escapeText(title)}: none`, blocks: [header(title), section(none)] };
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

/** `USDT on BNB Smart Chain (BSC)`, escaped. */
function assetLine(asset: AssetSnapshot): string {
  const network =
    asset.networkTitle === asset.networkSymbol ? asset.networkTitle : `${asset.networkTitle} (${asset.networkSymbol})`;
  return `*${escapeText(asset.symbol)}* on ${escapeText(network)}`;
}

/** `USDT@BSC`: literal (for plain text). */
function assetReferenceOf(asset: AssetSnapshot): string {
  return `${asset.symbol}@${asset.networkSymbol}`;
}

/** What the request is for: the asset and the name, as the proposal showed them. */
function restatement(request: PayoutRequest): string {
  return `*Asset:* ${assetLine(request.asset)}\n*Name:* ${escapeText(request.name)}`;
}

/** Slack's confirm dialog text holds 300 characters. */
const CONFIRM_TEXT_LIMIT = 300;

/**
 * The dialog's text restates the asset and the name; the name is clipped so the whole fits Slack's 300 characters.
 * plain_text, so literal: Slack shows it as typed (an escaped `&amp;` would show as such: see features/swaps/blocks.ts).
 */
export function payoutConfirmText(request: Pick<PayoutRequest, 'asset' | 'name'>): string {
  const before = `Create an empty payout container for ${assetReferenceOf(request.asset)} (${request.asset.networkTitle}) named “`;
  const after = '”. No money moves until tasks are added to it.';
  const room = CONFIRM_TEXT_LIMIT - before.length - after.length;
  if (room < 20) return clipText(`Create an empty payout container named “${request.name}”.`, CONFIRM_TEXT_LIMIT);
  return `${before}${clipText(request.name, room)}${after}`;
}

/**
 * The private proposal of `/treasury payout create`: the asset and the name, "Create payout" behind a confirm
 * dialog that restates both, and "Cancel". Nothing is sent to the payment service until the dialog is confirmed.
 */
export function buildPayoutProposal(request: PayoutRequest): SlackMessage {
  const minutes = Math.round(PAYOUT_PROPOSAL_VALIDITY_MS / 60_000);
  return {
    text: `Create the payout container “${escapeText(request.name)}” for ${escapeText(assetReferenceOf(request.asset))}?`,
    blocks: [
      header('Create a payout container?'),
      section(restatement(request)),
      context(
        `It starts empty: no money moves until tasks are added to it. Confirm within ${minutes} minutes; nothing is sent before.`,
      ),
      ...actions(
        [
          button('Create payout', ACTION_IDS.payoutCreate, request.id, {
            style: 'primary',
            confirm: {
              title: { type: 'plain_text', text: 'Create this payout container?' },
              text: { type: 'plain_text', text: payoutConfirmText(request) },
              confirm: { type: 'plain_text', text: 'Create payout' },
              deny: { type: 'plain_text', text: 'Not yet' },
            },
          }),
          button('Cancel', ACTION_IDS.payoutCancel, request.id),
        ],
        `payout_request_${request.id}`,
      ),
    ],
  };
}

/** Who confirmed, and when, for the outcome's footer. */
function confirmedLine(request: PayoutRequest): string[] {
  if (request.confirmedBy === undefined || request.confirmedAt === undefined) return [];
  return [`Confirmed by ${mention(request.confirmedBy)} at ${formatUtc(new Date(request.confirmedAt))}.`];
}

/** What became of a request, replacing its proposal: created (with the id when named), refused, unknown, ended. */
export function buildPayoutOutcome(request: PayoutRequest): SlackMessage {
  const what = restatement(request);
  const name = escapeText(request.name);
  switch (request.status) {
    case 'proposed':
      return buildPayoutProposal(request);
    case 'sending':
      return {
        text: `Creating the payout container “${name}”…`,
        blocks: [section(`:hourglass_flowing_sand: Creating the payout container…\n${what}`)],
      };
    case 'created': {
      const id = request.payoutId;
      const shown = (request.shown ?? []).map(([label, value]) => [escapeText(label), escapeText(value)] as const);
      const hint =
        id === undefined
          ? 'The payment dashboard shows it; its tasks appear in `/treasury payouts` once there are some.'
          : isUuid(id)
            ? `It is empty: \`/treasury payouts ${escapeText(id)}\` lists its tasks once there are some.`
            : 'It is empty: its tasks appear in `/treasury payouts` once there are some.';
      return {
        text:
          id === undefined
            ? `Payout created: “${name}” (no id in the answer)`
            : `Payout created: “${name}”, id ${escapeText(id)}`,
        blocks: [
          section(
            id === undefined
              ? `:white_check_mark: Payout created (the service's answer named no id).\n${what}`
              : `:white_check_mark: Payout container created.\n${what}\n*Payout id:* ${code(id)}`,
          ),
          ...(shown.length > 0 ? [fields(shown)] : []),
          context(hint, ...confirmedLine(request)),
        ],
      };
    }
    case 'refused':
      return {
        text: `No payout was created: ${escapeText(request.failure ?? 'the payment service refused it')}`,
        blocks: [
          section(
            `:x: No payout was created. ${escapeText(request.failure ?? 'The payment service refused it.')}\n${what}`,
          ),
          ...(confirmedLine(request).length > 0 ? [context(...confirmedLine(request))] : []),
        ],
      };
    case 'outcome_unknown':
      return {
        text: 'The outcome is unknown — the service may have created the payout. Check before retrying.',
        blocks: [
          section(
            `:warning: *The outcome is unknown — the service may have created the payout. Check before retrying.*\n${what}`,
          ),
          context(
            `Look for a payout named “${name}” in the payment dashboard before you run the command again: the bot never sends it twice.`,
            ...confirmedLine(request),
          ),
        ],
      };
    case 'expired': {
      const minutes = Math.round(PAYOUT_PROPOSAL_VALIDITY_MS / 60_000);
      return {
        text: 'This payout proposal expired; no payout was created. Run the command again.',
        blocks: [
          section(
            `:hourglass: This proposal expired: it was not confirmed within ${minutes} minutes, so no payout was created. Run the command again.\n${what}`,
          ),
        ],
      };
    }
    case 'cancelled':
      return {
        text: 'Cancelled: no payout was created.',
        blocks: [section(`Cancelled: no payout was created.\n${what}`)],
      };
  }
}
