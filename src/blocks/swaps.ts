import type { ApprovalPolicy } from '../domain/approval.js';
import { type AssetSnapshot, isFinalSwapStatus, type SwapQuote, unknownCauseOf } from '../domain/swap-quote.js';
import type { Swap } from '../payments/index.js';
import {
  actions,
  type Block,
  button,
  context,
  fields,
  header,
  linesToSections,
  type SlackMessage,
  section,
} from './common.js';
import { formatFeeLeg, formatRelative, formatStatus, formatTokenAmount, formatUsd, formatUtc } from './format.js';
import { ACTION_IDS } from './ids.js';
import { code, escapeText, mention } from './mrkdwn.js';

export type { ApprovalPolicy } from '../domain/approval.js';

/** `1,000 USDT` (escaped). */
export function formatSnapshotAmount(baseUnits: string, asset: AssetSnapshot): string {
  return escapeText(formatTokenAmount(baseUnits, asset.decimals, asset.symbol));
}

function assetLabel(asset: AssetSnapshot): string {
  return escapeText(`${asset.symbol} on ${asset.networkTitle}`);
}

function approverList(policy: ApprovalPolicy): string {
  return policy.approvers.map(mention).join(', ');
}

function decisionLine(quote: SwapQuote, verb: string): string {
  return `${verb} by ${mention(quote.decidedBy ?? '?')} at ${quote.decidedAt ? formatUtc(new Date(quote.decidedAt)) : '?'}`;
}

function swapProgress(quote: SwapQuote): string[] {
  const lines = [`Swap ${code(quote.swapId ?? '?')} · ${formatStatus(quote.swapStatus ?? 'new')}`];
  if (quote.amountTo) lines.push(`*Received:* ${formatSnapshotAmount(quote.amountTo, quote.to)}`);
  if (quote.hashFrom) lines.push(`*Tx out:* ${code(quote.hashFrom)}`);
  if (quote.hashTo) lines.push(`*Tx in:* ${code(quote.hashTo)}`);
  if (quote.feeSummary) lines.push(`*Fee:* ${escapeText(quote.feeSummary)}`);
  return lines;
}

/**
 * Slack's confirm dialog text holds 300 characters: restate the amounts when they fit, never a clipped amount. It
 * is plain_text, so literal: Slack accepts mrkdwn there but shows it as typed (`*bold*`, `&amp;`), so nothing in it
 * is escaped.
 */
function confirmText(amounts: string): string {
  const full = `Swap ${amounts}. The final amount is fixed when the swap runs.`;
  return full.length <= 300
    ? full
    : 'Swap the amounts shown on the quote. The final amount is fixed when the swap runs.';
}

/** The status part of the quote message: what happened, derived from the record alone. */
function statusBlocks(quote: SwapQuote, policy: ApprovalPolicy, now: Date): Block[] {
  const swapId = quote.swapId ? ` (${code(quote.swapId)})` : '';
  switch (quote.status) {
    case 'pending': {
      const who =
        policy.approvers.length === 0
          ? ':no_entry: *No swap approvers are configured* (`SWAP_APPROVERS` is empty), so nobody can approve this quote.'
          : `Waiting for approval by ${approverList(policy)}.${policy.allowSelfApproval ? '' : ' The requester cannot approve their own swap.'}`;
      const literal = (baseUnits: string, asset: AssetSnapshot) =>
        formatTokenAmount(baseUnits, asset.decimals, asset.symbol);
      const amounts = `${literal(quote.amountFrom, quote.from)} → about ${literal(quote.estimatedAmount, quote.to)}`;
      return [
        section(who),
        ...actions(
          [
            button('Approve', ACTION_IDS.swapApprove, quote.id, {
              style: 'primary',
              confirm: {
                title: { type: 'plain_text', text: 'Approve this swap?' },
                text: { type: 'plain_text', text: confirmText(amounts) },
                confirm: { type: 'plain_text', text: 'Approve swap' },
                deny: { type: 'plain_text', text: 'Cancel' },
              },
            }),
            button('Reject', ACTION_IDS.swapReject, quote.id, { style: 'danger' }),
          ],
          `swap_quote_${quote.id}`,
        ),
      ];
    }
    case 'approving':
      return [section(`:hourglass_flowing_sand: ${decisionLine(quote, 'Approved')}. Creating the swap…`)];
    case 'created': {
      const ended =
        quote.followEndedAt && !isFinalSwapStatus(quote.swapStatus)
          ? [
              context(
                `Stopped following this swap at ${formatUtc(new Date(quote.followEndedAt))}; check it with \`/treasury swap ${quote.swapId}\`.`,
              ),
            ]
          : [];
      return [
        section(`:white_check_mark: ${decisionLine(quote, 'Approved')}.\n${swapProgress(quote).join('\n')}`),
        ...ended,
      ];
    }
    case 'create_failed':
      return [
        section(
          `:x: ${decisionLine(quote, 'Approved')}, but the payment service refused: *${escapeText(quote.failure ?? 'unknown reason')}* No swap was made.`,
        ),
        ...newQuoteActions(quote),
      ];
    case 'outcome_unknown': {
      // Only a lost answer (timeout, 5xx) proves the create went out. A crash while approving may have come
      // just before sending it: say only what is known.
      if (unknownCauseOf(quote) === 'answer_lost') {
        return [
          section(
            `:warning: ${decisionLine(quote, 'Approved')}, and the create request was sent${swapId}, but the bot never got the payment service's answer` +
              `${quote.failure ? ` (${escapeText(quote.failure)})` : ''}. *The swap may or may not exist.* Check the payment dashboard before trying again; the bot will not resend it.`,
          ),
        ];
      }
      return [
        section(
          `:warning: ${decisionLine(quote, 'Approved')}, but the bot stopped while approving, before it recorded the outcome: ` +
            '*the create request may not have been sent* — or it was, and the swap may or may not exist. ' +
            'Check the payment dashboard before approving again; the bot will not resend it.',
        ),
      ];
    }
    case 'rejected':
      return [section(`:no_entry_sign: ${decisionLine(quote, 'Rejected')}. No swap was made.`)];
    case 'expired':
      return [
        section(
          `:alarm_clock: Expired: the quote was valid until ${formatUtc(new Date(quote.expiresAt))} (${formatRelative(new Date(quote.expiresAt), now)}).` +
            `${quote.decidedBy ? ` ${decisionLine(quote, 'Approve clicked')}.` : ''} No swap was made.`,
        ),
        ...newQuoteActions(quote),
      ];
  }
}

function newQuoteActions(quote: SwapQuote): Block[] {
  if (quote.replacedBy)
    return [context(`A new quote was requested: see the message below (quote ${code(quote.replacedBy)}).`)];
  return actions([button('New quote', ACTION_IDS.swapNewQuote, quote.id)]);
}

/** The in-channel quote message, in whatever state the quote is: the message always tells the truth. */
export function buildQuoteMessage(quote: SwapQuote, policy: ApprovalPolicy, now: Date): SlackMessage {
  const fromAmount = formatSnapshotAmount(quote.amountFrom, quote.from);
  const toAmount = formatSnapshotAmount(quote.estimatedAmount, quote.to);
  const expiresAt = new Date(quote.expiresAt);
  // The notification text says the whole quote in one line (amounts, status, ids): a plain-text fallback starts with it.
  const swap = quote.swapId
    ? ` · swap ${escapeText(quote.swapId)}${quote.swapStatus ? ` ${escapeText(quote.swapStatus)}` : ''}`
    : '';
  const received = quote.amountTo ? ` · received ${formatSnapshotAmount(quote.amountTo, quote.to)}` : '';
  return {
    text: `Swap quote: ${fromAmount} → about ${toAmount} · ${OUTCOME_LABELS[quote.status]}${swap}${received} · requested by ${mention(quote.requestedBy)} · quote ${escapeText(quote.id)}`,
    blocks: [
      header(`Swap ${quote.from.symbol} → ${quote.to.symbol}`),
      fields([
        ['Requested by', mention(quote.requestedBy)],
        ['Route', escapeText(quote.routeType)],
        [
          'From',
          `${fromAmount} on ${escapeText(quote.from.networkTitle)}${valueText(quote)}\n${code(quote.amountFrom)} base units`,
        ],
        ['Estimated to receive', `about ${toAmount} on ${escapeText(quote.to.networkTitle)}`],
        [
          'Quote valid until',
          `${formatUtc(expiresAt)}${quote.status === 'pending' ? ` (${formatRelative(expiresAt, now)})` : ''}`,
        ],
      ]),
      ...statusBlocks(quote, policy, now),
      context(`Quote ${code(quote.id)}${quote.replaces ? ` · replaces ${code(quote.replaces)}` : ''}`),
    ],
  };
}

/**
 * What the source amount was worth at quote time, from the asset's own price: ` ≈ $1,000.00`, or why it is not
 * known (quotes made before it was recorded show nothing).
 */
function valueText(quote: Pick<SwapQuote, 'valueUsd'>): string {
  const value = quote.valueUsd;
  if (value === undefined) return '';
  if ('cents' in value) return ` ≈ ${formatUsd(centsToDollars(BigInt(value.cents)))}`;
  return `\n_USD value unknown: ${escapeText(value.reason)}_`;
}

/** Cents as the USD decimal string formatUsd reads (`123456` → `1234.56`). */
function centsToDollars(cents: bigint): string {
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** The requester's private note once the quote is in the channel: until when it is valid, or that nobody can approve. */
export function buildQuotePostedNote(quote: Pick<SwapQuote, 'expiresAt'>, policy: ApprovalPolicy): SlackMessage {
  const note =
    policy.approvers.length === 0
      ? 'Quote posted, but no swap approvers are configured (`SWAP_APPROVERS`), so nobody can approve it.'
      : `Quote posted in the channel for approval. It is valid until ${new Date(quote.expiresAt).toISOString().slice(11, 16)} UTC.`;
  return { text: note, blocks: [section(note)] };
}

/** `/treasury swap <swap-id>`: a swap as the API has it. */
export function buildSwapDetail(swap: Swap, assets: { from?: AssetSnapshot; to?: AssetSnapshot }): SlackMessage {
  const amount = (baseUnits: string | null, asset: AssetSnapshot | undefined) =>
    baseUnits === null ? '—' : asset ? formatSnapshotAmount(baseUnits, asset) : `${code(baseUnits)} base units`;
  const fee = swap.fee
    ? [...swap.fee.network.map(formatFeeLeg), ...(swap.fee.service ? [formatFeeLeg(swap.fee.service)] : [])].join(
        ' + ',
      ) || 'none'
    : 'not reported yet';
  return {
    text: `Swap ${escapeText(swap.id)}: ${escapeText(swap.status)} · ${amount(swap.amountFrom, assets.from)} → ${swap.amountTo === null ? 'not received yet' : amount(swap.amountTo, assets.to)}`,
    blocks: [
      header(`Swap ${assets.from?.symbol ?? ''} → ${assets.to?.symbol ?? ''}`.trim()),
      fields([
        ['Status', formatStatus(swap.status)],
        ['Created', formatUtc(swap.createdAt)],
        ['From', `${amount(swap.amountFrom, assets.from)} (${formatUsd(swap.amountFromInUsd)})`],
        [
          'Received',
          swap.amountTo === null
            ? '_not yet_'
            : `${amount(swap.amountTo, assets.to)} (${formatUsd(swap.amountToInUsd)})`,
        ],
        ['Fee', `${fee}${swap.fee?.totalInUsd ? ` · total ${formatUsd(swap.fee.totalInUsd)}` : ''}`],
      ]),
      section(
        `*Tx out*\n${swap.hashFrom ? code(swap.hashFrom) : '_not yet_'}\n*Tx in*\n${swap.hashTo ? code(swap.hashTo) : '_not yet_'}`,
      ),
      context(`Swap id ${code(swap.id)}`),
    ],
  };
}

const OUTCOME_LABELS: Record<SwapQuote['status'], string> = {
  pending: 'waiting for approval',
  approving: 'creating the swap',
  created: 'swap created',
  create_failed: 'refused by the payment service',
  outcome_unknown: 'outcome unknown: check the dashboard',
  rejected: 'rejected',
  expired: 'expired',
};

/** `/treasury swaps`: the recent quotes and their outcome, newest first. */
export function buildSwapHistory(quotes: readonly SwapQuote[]): SlackMessage {
  if (quotes.length === 0)
    return {
      text: 'No swap quotes yet',
      blocks: [
        section('No swap quotes yet. Ask for one with `/treasury swap &lt;amount&gt; &lt;from&gt; to &lt;to&gt;`.'),
      ],
    };
  const lines = quotes.map((quote) => {
    const decided =
      quote.decidedBy && quote.status !== 'expired'
        ? ` · ${quote.status === 'rejected' ? 'rejected' : 'approved'} by ${mention(quote.decidedBy)}`
        : '';
    const swap = quote.swapId ? ` · swap ${code(quote.swapId)} ${escapeText(quote.swapStatus ?? '')}` : '';
    const received = quote.amountTo ? ` · received ${formatSnapshotAmount(quote.amountTo, quote.to)}` : '';
    return (
      `*${formatSnapshotAmount(quote.amountFrom, quote.from)} → ${escapeText(quote.to.symbol)}* (${assetLabel(quote.from)} → ${assetLabel(quote.to)})\n` +
      `${formatUtc(new Date(quote.estimatedAt))} · requested by ${mention(quote.requestedBy)}${decided} · *${OUTCOME_LABELS[quote.status]}*${swap}${received}`
    );
  });
  return {
    text: `${quotes.length} recent swap quotes`,
    blocks: [header('Recent swap quotes'), ...linesToSections(lines, '\n\n')],
  };
}
