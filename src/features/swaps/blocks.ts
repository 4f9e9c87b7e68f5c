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
} from '../../blocks/common.js';
import {
  formatFeeLeg,
  formatRelative,
  formatStatus,
  formatTokenAmount,
  formatUsd,
  formatUtc,
} from '../../blocks/format.js';
import { ACTION_IDS } from '../../blocks/ids.js';
import { code, escapeText, mention } from '../../blocks/mrkdwn.js';
import type { Swap } from '../../payments/index.js';
import { mentionText } from '../alerts/mentions.js';
import type { FreezeRecord } from '../freeze/rules.js';
import { describeFreeze } from '../freeze/words.js';
import { type ApprovalPolicy, approvalsOf, othersWaitingWarning, policyOf } from './decision.js';
import { type PolicySnapshot, snapshotValue, usdLabel, windowText } from './policy.js';
import { type AssetSnapshot, isFinalSwapStatus, type SwapQuote, unknownCauseOf } from './quote.js';
import { quoteStepUp, type StepUpJudgement, stepUpWindowText } from './step-up.js';

export type { ApprovalPolicy } from './decision.js';

/** `1,000 USDT` (escaped). */
export function formatSnapshotAmount(baseUnits: string, asset: AssetSnapshot): string {
  return escapeText(formatTokenAmount(baseUnits, asset.decimals, asset.symbol));
}

function assetLabel(asset: AssetSnapshot): string {
  return escapeText(`${asset.symbol} on ${asset.networkTitle}`);
}

/** "one approval", "2 approvals". */
function approvalsWord(count: number): string {
  return count === 1 ? 'one approval' : `${count} approvals`;
}

/** People (or groups) named on a quote message at most; more are counted (a section holds 3,000 characters). */
const NAMES_SHOWN = 20;

/** `items` joined by `, ` and a last `joiner`, at most NAMES_SHOWN of them, then "and N more". */
function listOf(items: readonly string[], joiner: string): string {
  if (items.length > NAMES_SHOWN)
    return `${items.slice(0, NAMES_SHOWN).join(', ')} and ${items.length - NAMES_SHOWN} more`;
  if (items.length <= 1) return items[0] ?? '';
  return joiner === ',' ? items.join(', ') : `${items.slice(0, -1).join(', ')} ${joiner} ${items.at(-1)}`;
}

/** The quote's approvers who may still act, then its groups: `<@B> or a member of <!subteam^S>`. */
function approverList(snapshot: PolicySnapshot, approvedBy: ReadonlySet<string>): string {
  const people = snapshot.approvers.userIds.filter((id) => !approvedBy.has(id)).map(mention);
  const groups = snapshot.approvers.groupIds.map((id) => `members of ${mentionText({ type: 'group', id })}`);
  return listOf([...people, ...groups], 'or');
}

/** "Approved by <@A> and <@B> at …" (every approval), or who decided as recorded before approvals were. */
function decisionLine(quote: SwapQuote, verb: string): string {
  const approvals = approvalsOf(quote);
  const who =
    verb === 'Approved' && approvals.length > 0
      ? listOf(
          approvals.map((approval) => `${mention(approval.userId)}${approval.secondFactor ? ' (with a code)' : ''}`),
          'and',
        )
      : mention(quote.decidedBy ?? '?');
  return `${verb} by ${who} at ${quote.decidedAt ? formatUtc(new Date(quote.decidedAt)) : '?'}`;
}

/** "It had 1 of 2 approvals (<@A>)." for a quote that ended without its quorum; nothing when it had none. */
function approvalsHad(quote: SwapQuote, snapshot: PolicySnapshot): string {
  const approvals = approvalsOf(quote);
  if (approvals.length === 0) return '';
  return ` It had ${approvals.length} of ${snapshot.needed} approvals (${listOf(
    approvals.map((approval) => mention(approval.userId)),
    'and',
  )}).`;
}

/** The policy fixed on the quote, in one line: what it needs and why, and the day it was fixed. */
function policyLine(quote: SwapQuote, snapshot: PolicySnapshot): string {
  if (!quote.policy) return 'Needs one approval (quoted before approval tiers were recorded).';
  const tierRule = `swaps from ${usdLabel(BigInt(snapshot.tier.minCents))} need ${snapshot.tier.approvals}`;
  const tier =
    snapshot.failClosed !== undefined
      ? ` (${escapeText(snapshot.failClosed)})`
      : snapshot.tiers.length > 1
        ? ` (${snapshot.window ? `${windowText(snapshot.window, snapshot.needed)}; ` : ''}${tierRule})`
        : '';
  const limit =
    snapshot.dailyLimitUsdCents !== undefined
      ? ` · daily limit ${usdLabel(BigInt(snapshot.dailyLimitUsdCents))} for swaps out of ${escapeText(quote.from.symbol)}`
      : '';
  return `Needs ${approvalsWord(snapshot.needed)} from distinct approvers: policy of ${snapshot.fixedAt.slice(0, 10)}${tier}${limit}.`;
}

/** What a waiting quote shows: how many approvals it has and needs, who approved, who may. */
function waitingText(quote: SwapQuote, snapshot: PolicySnapshot): string {
  const approvals = approvalsOf(quote);
  if (snapshot.approvers.userIds.length + snapshot.approvers.groupIds.length === 0)
    return ':no_entry: *No swap approvers are configured* (`SWAP_APPROVERS` is empty), so nobody can approve this quote.';
  const approvedBy = new Set(approvals.map((approval) => approval.userId));
  const left = snapshot.needed - approvals.length;
  const progress =
    approvals.length === 0
      ? `Waiting for ${snapshot.needed === 1 ? 'approval' : `*${snapshot.needed} approvals*`} by ${approverList(snapshot, approvedBy)}.`
      : `*Approved ${approvals.length} of ${snapshot.needed}* — ${listOf(
          approvals.map((approval) => `${mention(approval.userId)} ✓${approval.secondFactor ? ' (with a code)' : ''}`),
          'and',
        )} — waiting for ${left === 1 ? 'one more' : `${left} more`} by ${approverList(snapshot, approvedBy) || 'nobody else: no other approver is configured'}.`;
  const self = snapshot.allowSelfApproval ? '' : ' The requester cannot approve their own swap.';
  const once = snapshot.needed > 1 ? ' Each approver counts once.' : '';
  return `${progress}${self}${once}`;
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
function statusBlocks(quote: SwapQuote, snapshot: PolicySnapshot, now: Date): Block[] {
  const swapId = quote.swapId ? ` (${code(quote.swapId)})` : '';
  switch (quote.status) {
    case 'pending': {
      const who = waitingText(quote, snapshot);
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
        context(policyLine(quote, snapshot)),
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
      return [
        section(
          `:no_entry_sign: ${decisionLine(quote, 'Rejected')}. No swap was made.${approvalsHad(quote, snapshot)}`,
        ),
      ];
    case 'expired':
      return [
        section(
          `:alarm_clock: Expired: the quote was valid until ${formatUtc(new Date(quote.expiresAt))} (${formatRelative(new Date(quote.expiresAt), now)}).` +
            `${quote.decidedBy ? ` ${decisionLine(quote, 'Approve clicked')}.` : ''} No swap was made.${approvalsHad(quote, snapshot)}`,
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
export function buildQuoteMessage(
  quote: SwapQuote,
  policy: ApprovalPolicy,
  now: Date,
  /** The freeze in force: a waiting quote shows FROZEN (its Approve refuses with the reason; Reject still works). */
  freeze?: FreezeRecord,
  /**
   * SWAP_STEP_UP_USD in cents as configured here: a waiting quote that needs a code under the stricter of it and the
   * threshold fixed on the quote (its value with the requester's swaps of the last 24 hours) says Approve asks for one.
   */
  stepUpCents?: bigint,
): SlackMessage {
  const snapshot = policyOf(quote, policy);
  const stepUp = quoteStepUp(snapshot, stepUpCents);
  const frozen =
    freeze && quote.status === 'pending'
      ? [
          section(
            `:ice_cube: *FROZEN*: money is ${describeFreeze(freeze)}. Approve is refused until admins lift the freeze; the quote waits (it still expires at its time).`,
          ),
        ]
      : [];
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
      ...frozen,
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
      ...replacedLine(quote),
      ...statusBlocks(quote, snapshot, now),
      ...(quote.status === 'pending' && quote.othersWaitingCents !== undefined
        ? [context(`:warning: ${othersWaitingWarning(quote.from, BigInt(quote.othersWaitingCents))}`)]
        : []),
      ...(quote.status === 'pending' && stepUp.needed && stepUp.thresholdCents !== undefined
        ? [
            context(
              `:lock: Approve asks for a code from your authenticator app (${codeReason(stepUp)}). Not set up yet? \`/treasury 2fa enroll\``,
            ),
          ]
        : []),
      context(`Quote ${code(quote.id)}${quote.replaces ? ` · replaces ${code(quote.replaces)}` : ''}`),
    ],
  };
}

/** Why a quote needs a code, in the quote message's words: the threshold, and the requester's total when it counts. */
function codeReason(stepUp: StepUpJudgement): string {
  const threshold = usdLabel(stepUp.thresholdCents ?? 0n);
  const total = stepUpWindowText(stepUp, "the requester's");
  return total === undefined
    ? `approvals from ${threshold}, or of unknown value`
    : `approvals from ${threshold}, counting the requester's swaps of the last 24 hours: ${escapeText(total)}`;
}

/** Who asked for a "New quote" and which quote, asked for by whom, it replaces (older records name only the quote). */
function replacedLine(quote: SwapQuote): Block[] {
  if (quote.replaces === undefined || quote.replacesRequestedBy === undefined) return [];
  return [
    context(
      `:repeat: Asked for with New quote by ${mention(quote.requestedBy)}, replacing quote ${code(quote.replaces)} requested by ${mention(quote.replacesRequestedBy)}.`,
    ),
  ];
}

/**
 * What the swap was worth at quote time (the larger leg, each at its asset's own price): ` ≈ $1,000.00`, or why it is not
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

/** Mentions named in one reminder at most; more are counted. */
const REMINDER_MENTIONS = 20;

/**
 * The one reply in a waiting quote's thread ten minutes before it expires: how long is left, how many approvals
 * are missing, and a mention of each approver who has not acted (never those who have).
 */
export function buildQuoteReminder(
  quote: SwapQuote,
  snapshot: PolicySnapshot,
  yetToAct: { userIds: readonly string[]; groupIds: readonly string[] },
  now: Date,
): SlackMessage {
  const expiresAt = new Date(quote.expiresAt);
  const left = snapshot.needed - approvalsOf(quote).length;
  const named = [
    ...yetToAct.userIds.map(mention),
    ...yetToAct.groupIds.map((id) => mentionText({ type: 'group', id })),
  ];
  const shown = named.slice(0, REMINDER_MENTIONS).join(', ');
  const more = named.length > REMINDER_MENTIONS ? ` and ${named.length - REMINDER_MENTIONS} more` : '';
  const who =
    named.length === 0
      ? 'Nobody who has not acted yet can approve it, so it will expire unless the policy allows it.'
      : `${shown}${more}: approve or reject it on the message above.`;
  const text = `:alarm_clock: This quote expires at ${formatUtc(expiresAt)} (${formatRelative(expiresAt, now)}) and still needs ${approvalsWord(left)}. ${who}`;
  return { text, blocks: [section(text)] };
}

/** Why a quote needs what it needs, when it is not its own value's tier: an unknown value, or the requester's window. */
function whyNeeded(snapshot: PolicySnapshot): string {
  if (snapshot.failClosed !== undefined) return ` (${escapeText(snapshot.failClosed)})`;
  if (snapshot.window && snapshot.tiers.length > 1) return ` (${windowText(snapshot.window, snapshot.needed)})`;
  return '';
}

/**
 * The requester's private note once the quote is in the channel: until when it is valid, or that nobody can approve;
 * with SWAP_STEP_UP_USD (`stepUpCents`, as configured here), whether approving it needs a code and, when their swaps
 * of the last 24 hours count, the total.
 */
export function buildQuotePostedNote(quote: SwapQuote, policy: ApprovalPolicy, stepUpCents?: bigint): SlackMessage {
  const snapshot = policyOf(quote, policy);
  const note =
    snapshot.approvers.userIds.length + snapshot.approvers.groupIds.length === 0
      ? 'Quote posted, but no swap approvers are configured (`SWAP_APPROVERS`), so nobody can approve it.'
      : `Quote posted in the channel for approval: it needs ${approvalsWord(snapshot.needed)}${whyNeeded(snapshot)}.${codeNote(snapshot, stepUpCents)} It is valid until ${new Date(quote.expiresAt).toISOString().slice(11, 16)} UTC.${
          quote.othersWaitingCents !== undefined
            ? ` ${othersWaitingWarning(quote.from, BigInt(quote.othersWaitingCents))}`
            : ''
        }`;
  return { text: note, blocks: [section(note)] };
}

/** The requester's note on the second factor: whether approving needs a code and why, or nothing when none applies. */
function codeNote(snapshot: PolicySnapshot, stepUpCents: bigint | undefined): string {
  const stepUp = quoteStepUp(snapshot, stepUpCents);
  if (stepUp.thresholdCents === undefined) return '';
  const total = stepUpWindowText(stepUp);
  const threshold = usdLabel(stepUp.thresholdCents);
  if (total !== undefined)
    return ` Second factor: ${escapeText(total)} (approvals from ${threshold}, counting your swaps of the last 24 hours, need a code from an authenticator app).`;
  if (!stepUp.needed) return '';
  return 'cents' in snapshotValue(snapshot)
    ? ` Approving it needs a code from an authenticator app (approvals from ${threshold} do).`
    : ` Approving it needs a code from an authenticator app: its USD value is unknown (approvals from ${threshold} do).`;
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

/** A quote's status in words (`/treasury swaps`, the Home tab's requests). */
export const OUTCOME_LABELS: Record<SwapQuote['status'], string> = {
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
    const approvals = approvalsOf(quote);
    const needed = quote.policy?.needed;
    const approvedBy =
      approvals.length > 0
        ? listOf(
            approvals.map((approval) => mention(approval.userId)),
            'and',
          )
        : undefined;
    const count = needed !== undefined && needed > 1 ? ` (${approvals.length} of ${needed})` : '';
    const decided =
      quote.status === 'rejected'
        ? ` · rejected by ${mention(quote.decidedBy ?? '?')}${approvedBy ? ` after approvals by ${approvedBy}${count}` : ''}`
        : approvedBy
          ? ` · approved by ${approvedBy}${count}`
          : quote.decidedBy && quote.status !== 'expired'
            ? ` · approved by ${mention(quote.decidedBy)}`
            : needed !== undefined && quote.status === 'pending'
              ? ` · 0 of ${needed} approvals`
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
