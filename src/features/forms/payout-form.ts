/**
 * The payout form: what `/treasury payout create <asset> "<name>"` does, without its syntax. The asset (the menu,
 * with balances) and the container's name. The preview says what submitting does: a proposal for an empty payout
 * container, shown privately with its Create payout and Cancel buttons; nothing reaches the payment service before
 * that is confirmed. Submit runs the typed command's own PayoutService.propose (same checks, same proposal).
 */
import { formatNetwork, formatTokenAmount, formatUsd } from '../../blocks/format.js';
import { ACTION_IDS, FORM_IDS } from '../../blocks/ids.js';
import { escapeText } from '../../kernel/text.js';
import type { Asset } from '../../payments/index.js';
import { checkPayoutName, MAX_PAYOUT_NAME_LENGTH, PAYOUT_PROPOSAL_VALIDITY_MS } from '../payouts/rules.js';
import { assetMenuBlock, formModal, isAssetList, previewBlocks, textInputBlock } from './blocks.js';
import type { FormDefinition, FormState, FormSubmission } from './listeners.js';
import { chosenValue, plainWords, typedText } from './values.js';

/** The payout form's input ids (each its block's id too). */
const PAYOUT_FORM = {
  asset: ACTION_IDS.payoutFormAsset,
  /** Read on submit only (a name needs no recomputed preview). */
  name: 'form_payout_name',
} as const;

/** The preview's lines: the proposal submitting makes, or what is still missing. */
function payoutPreview(asset: Asset | undefined, answerHere: boolean): { lines: string[] } | { missing: string } {
  if (asset === undefined) return { missing: 'Choose the asset the payouts are paid in.' };
  const { symbol, decimals } = asset.crypto;
  const minutes = Math.round(PAYOUT_PROPOSAL_VALIDITY_MS / 60_000);
  return {
    lines: [
      `Proposes an empty payout container in *${escapeText(symbol)}* on ${formatNetwork(asset.network)}, with the name you give`,
      `Balance now: ${escapeText(formatTokenAmount(asset.balance, decimals, symbol))}${asset.balanceInUsd ? ` (${formatUsd(asset.balanceInUsd)})` : ''}; the container starts empty, so no money moves until tasks are added to it`,
      `${answerHere ? 'Here' : 'In your direct message with the bot'} you get the proposal with *Create payout* and *Cancel*: nothing is sent to the payment service until you confirm it (within ${minutes} minutes)`,
    ],
  };
}

/** The payout form as a view, from what is entered and the assets (or that they are still being read). */
function buildPayoutForm(state: FormState): ReturnType<typeof formModal> {
  const assets = isAssetList(state.assets) ? (state.assets as Asset[]) : [];
  const asset = assets.find((candidate) => candidate.id === chosenValue(state.values, PAYOUT_FORM.asset));
  const preview = isAssetList(state.assets)
    ? payoutPreview(asset, state.origin.responseUrl !== undefined)
    : { missing: 'The preview shows once the assets are read.' };
  return formModal({
    callbackId: FORM_IDS.payout,
    title: 'New payout container',
    submit: 'Propose',
    privateMetadata: JSON.stringify(state.origin),
    blocks: [
      assetMenuBlock({ id: PAYOUT_FORM.asset, label: 'Asset', assets: state.assets, chosen: asset?.id }),
      textInputBlock({
        id: PAYOUT_FORM.name,
        label: 'Name',
        placeholder: 'November affiliates',
        maxLength: MAX_PAYOUT_NAME_LENGTH,
      }),
      ...previewBlocks(preview),
    ],
  });
}

/** The payout form: built from what is entered; submitted through the typed command's PayoutService.propose. */
export const payoutForm: FormDefinition = {
  callbackId: FORM_IDS.payout,
  actionIds: [PAYOUT_FORM.asset],
  build: (state) => buildPayoutForm(state),
  async submit(state, deps, userId): Promise<FormSubmission> {
    const chosen = chosenValue(state.values, PAYOUT_FORM.asset);
    const asset = state.assets.find((candidate) => candidate.id === chosen);
    const name = checkPayoutName(typedText(state.values, PAYOUT_FORM.name));
    const errors: Record<string, string> = {};
    if (asset === undefined)
      errors[PAYOUT_FORM.asset] = chosen
        ? 'That asset is no longer enabled for this merchant: choose another.'
        : 'Choose the asset the payouts are paid in.';
    if (!name.ok) errors[PAYOUT_FORM.name] = name.problem;
    if (Object.keys(errors).length > 0 || asset === undefined || !name.ok) return { errors };
    // The typed command's check before any API call (a freeze), under the field.
    const refused = await deps.payouts.proposalRefusal();
    if (refused !== undefined) return { errors: { [PAYOUT_FORM.asset]: plainWords(refused) } };
    const origin = state.origin;
    return {
      run: async () =>
        deps.payouts.propose({
          userId,
          // Where the proposal is recorded as asked: the command's channel, else the direct message it goes to.
          channelId: origin.channelId ?? (await deps.views.openDirectMessage(userId)),
          assetRef: asset.id,
          name: name.name,
        }),
    };
  },
};
