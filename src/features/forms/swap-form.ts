/**
 * The swap form: what `/treasury swap <amount> <from> to <to>` does, without its syntax. The asset to swap from, the
 * asset to swap into, the amount, and (opened from the Home tab, where no channel is at hand) the channel the quote
 * is posted in. The preview says what asking now leads to, by the swap feature's own policy functions: the amount in
 * base units against the asset's decimals, its USD value, the tier and approvals the quote will need (unknown value:
 * the strictest tier), whether approving needs a code (SWAP_STEP_UP_USD), the balance left, or why no quote would be
 * made (a freeze, SWAP_MAX_USD, the daily limit). Submit runs the typed command's own requestQuote.
 */
import type { Block } from '../../blocks/common.js';
import { formatNetwork, formatTokenAmount } from '../../blocks/format.js';
import { ACTION_IDS, FORM_IDS } from '../../blocks/ids.js';
import { code } from '../../blocks/mrkdwn.js';
import { fromBaseUnits } from '../../kernel/money.js';
import { escapeText } from '../../kernel/text.js';
import type { Asset } from '../../payments/index.js';
import { conversationKindOf } from '../../slack/conversations.js';
import { quotePlaceProblem } from '../places.js';
import type { QuotePreview } from '../swaps/index.js';
import { snapshotTiers, usdLabel, windowText } from '../swaps/policy.js';
import { quoteStepUp, stepUpWindowText } from '../swaps/step-up.js';
import { amountInputBlock, assetMenuBlock, formModal, isAssetList, previewBlocks } from './blocks.js';
import type { FormDefinition, FormDeps, FormState, FormSubmission } from './listeners.js';
import { type AmountReading, chosenValue, plainWords, readTokenAmount, typedText } from './values.js';

/** The swap form's input ids (each its block's id too). */
const SWAP_FORM = {
  from: ACTION_IDS.swapFormFrom,
  to: ACTION_IDS.swapFormTo,
  amount: ACTION_IDS.swapFormAmount,
  /** Only when the form has no channel of its own (opened from Home): where the quote is posted. */
  channel: 'form_swap_channel',
} as const;

/** What the swap form's fields say now, read exactly against the merchant's assets. */
export interface SwapDraft {
  from: Asset | undefined;
  to: Asset | undefined;
  amount: AmountReading;
  /** The channel the quote goes to: the command's, or the one chosen. */
  channelId: string | undefined;
}

/** A conversation id as Slack gives it (C…, G…, D…): anything else is not taken (it would go into mrkdwn). */
const CONVERSATION_ID = /^[CGD][A-Z0-9]{2,30}$/;

/** The channel chosen in the conversations menu, if any (and well-formed). */
function chosenConversation(values: FormState['values'], id: string): string | undefined {
  const state = values[id]?.[id] as { selected_conversation?: unknown } | undefined;
  const chosen = state?.selected_conversation;
  return typeof chosen === 'string' && CONVERSATION_ID.test(chosen) ? chosen : undefined;
}

/** Reads the form's fields against the merchant's assets. */
export function readSwapDraft(state: Pick<FormState, 'values' | 'origin'>, assets: readonly Asset[]): SwapDraft {
  const { values } = state;
  const from = assets.find((asset) => asset.id === chosenValue(values, SWAP_FORM.from));
  const to = assets.find((asset) => asset.id === chosenValue(values, SWAP_FORM.to));
  const text = typedText(values, SWAP_FORM.amount);
  const amount: AmountReading =
    from === undefined
      ? text === ''
        ? { empty: true }
        : { refused: 'Choose the asset to swap from first: the amount is read in its units.' }
      : readTokenAmount(text, from.crypto);
  return { from, to, amount, channelId: state.origin.channelId ?? chosenConversation(values, SWAP_FORM.channel) };
}

const approvalsWords = (count: number) => (count === 1 ? 'one approval' : `${count} distinct approvals`);

/**
 * The preview's lines: the swap asked for, exactly, and what the policy makes of it now (`judged`: the swap feature's
 * previewQuote), or what is still missing. `answerHere`: the requester's note comes where the command was typed.
 */
export function swapPreview(
  draft: SwapDraft,
  judged: QuotePreview | undefined,
  options: { answerHere: boolean; stepUpCents?: bigint | undefined },
): { lines: string[] } | { missing: string } {
  const { from, to, amount } = draft;
  if ('refused' in amount) return { lines: [`:warning: ${amount.refused}`] };
  if (from === undefined) return { missing: 'Choose the asset to swap from.' };
  if ('empty' in amount) return { missing: 'Type the amount to swap.' };
  const { symbol, decimals } = from.crypto;
  const into =
    to === undefined ? 'the asset you choose' : `${escapeText(to.crypto.symbol)} on ${formatNetwork(to.network)}`;
  const lines = [
    `Asks for a quote to swap *${escapeText(formatTokenAmount(amount.units, decimals, symbol))}* on ${formatNetwork(from.network)} into ${into}`,
    `In base units: ${code(amount.units.toString())} (${escapeText(symbol)} has ${decimals} decimals)`,
  ];
  if (to !== undefined && to.id === from.id)
    lines.push(':warning: The two assets are the same: pick two different assets to swap.');
  if (judged !== undefined && 'refused' in judged) {
    lines.push(`:no_entry: ${judged.refused}`);
  } else if (judged !== undefined) {
    const { policy, valueUsd } = judged;
    lines.push(
      'cents' in valueUsd
        ? `Worth about *${usdLabel(BigInt(valueUsd.cents))}* at the price of the balance held now (the estimate may add to it: the larger leg counts)`
        : `USD value unknown: ${escapeText(valueUsd.reason)}`,
    );
    const tiers = snapshotTiers(policy);
    const tierAt = tiers.findIndex((tier) => tier.minCents === BigInt(policy.tier.minCents)) + 1;
    const tierName =
      tiers.length === 1
        ? 'the only tier'
        : `tier ${tierAt} of ${tiers.length}, from ${usdLabel(BigInt(policy.tier.minCents))}`;
    lines.push(
      policy.failClosed !== undefined
        ? `Needs *${approvalsWords(policy.needed)}* (${tierName}, the strictest): ${escapeText(policy.failClosed)}`
        : `Needs *${approvalsWords(policy.needed)}* from the swap approvers (${tierName})`,
    );
    if (policy.window !== undefined && policy.failClosed === undefined)
      lines.push(`Counted with your swaps of the last 24 hours: ${windowText(policy.window, policy.needed)}`);
    if (judged.limitWarning !== undefined) lines.push(`:warning: ${judged.limitWarning}`);
    if (options.stepUpCents !== undefined) {
      // The same total as the quote and the decision: with the requester's swaps of the last 24 hours.
      const total = stepUpWindowText(quoteStepUp(policy, options.stepUpCents));
      lines.push(
        (judged.secondFactor
          ? `Approving it needs a code from an authenticator app (approvals from ${usdLabel(options.stepUpCents)} do)`
          : `Approving it needs no code (codes are asked from ${usdLabel(options.stepUpCents)})`) +
          (total === undefined ? '' : `: ${escapeText(total)}`),
      );
    }
  }
  const left = BigInt(from.balance) - amount.units;
  lines.push(
    left >= 0n
      ? `Balance left of ${escapeText(symbol)} on ${formatNetwork(from.network)}: ${escapeText(formatTokenAmount(left, decimals, symbol))}`
      : `:warning: That is more than the balance of ${escapeText(formatTokenAmount(from.balance, decimals, symbol))}: the payment service will refuse the swap`,
  );
  lines.push(
    draft.channelId === undefined
      ? 'The quote is posted in the channel you choose, for the approvers to approve or reject'
      : `The quote is posted in <#${draft.channelId}> for the approvers to approve or reject`,
  );
  lines.push(
    options.answerHere ? 'You get a note here when it is posted' : 'You get a note in your direct message with the bot',
  );
  return { lines };
}

/** The channel menu of a form opened without a channel (from Home): where the quote goes. */
function channelMenuBlock(): Block {
  return {
    type: 'input',
    block_id: SWAP_FORM.channel,
    label: { type: 'plain_text', text: 'Post the quote in' },
    hint: { type: 'plain_text', text: 'A channel the approvers and the bot are in: they approve it there.' },
    element: {
      type: 'conversations_select',
      action_id: SWAP_FORM.channel,
      placeholder: { type: 'plain_text', text: 'Choose a channel' },
      filter: { include: ['public', 'private'], exclude_bot_users: true },
    },
  } as Block;
}

/** What the swap feature makes of the draft now, or undefined while the amount or the asset is missing. */
async function judge(draft: SwapDraft, deps: FormDeps, userId: string): Promise<QuotePreview | undefined> {
  if (draft.from === undefined || !('units' in draft.amount)) return undefined;
  return deps.swaps.previewQuote({ userId, from: draft.from, amountFrom: draft.amount.units });
}

/** The swap form as a view, from what is entered and the assets (or that they are still being read). */
export async function buildSwapForm(state: FormState, deps: FormDeps, userId: string) {
  const assets = isAssetList(state.assets) ? (state.assets as Asset[]) : [];
  const draft = readSwapDraft(state, assets);
  const preview = isAssetList(state.assets)
    ? swapPreview(draft, await judge(draft, deps, userId), {
        answerHere: state.origin.responseUrl !== undefined,
        stepUpCents: deps.swaps.stepUpCents,
      })
    : { missing: 'The preview shows once the assets are read.' };
  return formModal({
    callbackId: FORM_IDS.swap,
    title: 'New swap',
    submit: 'Ask for a quote',
    privateMetadata: JSON.stringify(state.origin),
    blocks: [
      assetMenuBlock({ id: SWAP_FORM.from, label: 'Swap from', assets: state.assets, chosen: draft.from?.id }),
      assetMenuBlock({ id: SWAP_FORM.to, label: 'Into', assets: state.assets, chosen: draft.to?.id }),
      amountInputBlock({
        id: SWAP_FORM.amount,
        label: `Amount${draft.from ? ` of ${draft.from.crypto.symbol}` : ''} to swap`,
        placeholder: '20,000',
      }),
      ...(state.origin.channelId === undefined ? [channelMenuBlock()] : []),
      ...previewBlocks(preview),
    ],
  });
}

/** The swap form: built from what is entered; submitted through the typed command's requestQuote. */
export const swapForm: FormDefinition = {
  callbackId: FORM_IDS.swap,
  actionIds: [SWAP_FORM.from, SWAP_FORM.to, SWAP_FORM.amount],
  build: (state, deps, userId) => buildSwapForm(state, deps, userId),
  async submit(state, deps, userId): Promise<FormSubmission> {
    const draft = readSwapDraft(state, state.assets);
    const errors: Record<string, string> = {};
    const gone = 'That asset is no longer enabled for this merchant: choose another.';
    if (draft.from === undefined)
      errors[SWAP_FORM.from] = chosenValue(state.values, SWAP_FORM.from) ? gone : 'Choose the asset to swap from.';
    if (draft.to === undefined)
      errors[SWAP_FORM.to] = chosenValue(state.values, SWAP_FORM.to) ? gone : 'Choose the asset to swap into.';
    else if (draft.to.id === draft.from?.id)
      errors[SWAP_FORM.to] = 'The two assets are the same: pick two different assets to swap.';
    if ('empty' in draft.amount) errors[SWAP_FORM.amount] = 'Type the amount to swap.';
    else if ('refused' in draft.amount && draft.from !== undefined)
      errors[SWAP_FORM.amount] = plainWords(draft.amount.refused);
    const channelId = draft.channelId;
    const conversation = conversationKindOf({ channelId });
    if (channelId === undefined)
      errors[SWAP_FORM.channel] = 'Choose the channel the quote is posted in, for the approvers to see.';
    else if (state.origin.channelId === undefined && quotePlaceProblem(conversation) !== undefined)
      errors[SWAP_FORM.channel] = plainWords(quotePlaceProblem(conversation)!);
    const { from, to, amount } = draft;
    if (Object.keys(errors).length > 0 || !from || !to || !('units' in amount) || channelId === undefined)
      return { errors };
    // The typed path's checks that need no estimate (the freeze, SWAP_MAX_USD, the daily limit), under the amount.
    const judged = await deps.swaps.previewQuote({ userId, from, amountFrom: amount.units });
    if ('refused' in judged) return { errors: { [SWAP_FORM.amount]: plainWords(judged.refused) } };
    return {
      // The typed command's own words for the same swap: the exact amount, the assets by id.
      run: () =>
        deps.swaps.requestQuote({
          userId,
          channelId,
          conversation,
          amountText: fromBaseUnits(amount.units, from.crypto.decimals),
          fromRef: from.id,
          toRef: to.id,
        }),
    };
  },
};
