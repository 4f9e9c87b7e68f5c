/**
 * The threshold form: what `/treasury threshold <asset> below <amount | $usd> | off` does, without its syntax. The
 * asset, the level in USD or in the asset's units (or off), and a preview of the balance now against that level.
 * Submit runs the typed command's own ThresholdService (set or remove), so its admin check, words and trail are the
 * same.
 */
import { formatNetwork } from '../../blocks/format.js';
import { ACTION_IDS, FORM_IDS } from '../../blocks/ids.js';
import { code } from '../../blocks/mrkdwn.js';
import { centsToUsd, fromBaseUnits } from '../../kernel/money.js';
import { decodeSlackEntities, escapeText } from '../../kernel/text.js';
import type { Asset } from '../../payments/index.js';
import { refreshHomeAfterAct } from '../../slack/listener-kit.js';
import { balanceLabel, levelLabel, recoveryLabel } from '../thresholds/blocks.js';
import { measuredValue } from '../thresholds/rules.js';
import { amountInputBlock, assetMenuBlock, choiceMenuBlock, formModal, isAssetList, previewBlocks } from './blocks.js';
import type { FormDefinition, FormState, FormSubmission } from './listeners.js';
import { chosenValue, readTokenAmount, readUsdAmount, typedText } from './values.js';

/** The threshold form's input ids (each its block's id too). */
const THRESHOLD_FORM = {
  asset: ACTION_IDS.thresholdFormAsset,
  unit: ACTION_IDS.thresholdFormUnit,
  amount: ACTION_IDS.thresholdFormAmount,
} as const;

type Unit = 'usd' | 'units' | 'off';

/** How long a submission waits to learn whether the person is an admin (Slack wants the ack within 3 s). */
const ADMIN_CHECK_MS = 1_000;

/** Said in the form to someone who is not an admin, in the typed command's words. */
const NOT_AN_ADMIN =
  'Only treasury admins can set or remove balance thresholds (TREASURY_ADMINS; by default the swap approvers). /treasury thresholds shows them to everyone.';

/** What the threshold form's fields say now, read exactly. */
export interface ThresholdDraft {
  unit: Unit;
  asset: Asset | undefined;
  /** Cents (`usd`) or base units (`units`); or why not. */
  level: { empty: true } | { units: bigint } | { refused: string };
}

/** Reads the form's fields against the merchant's assets. */
function readThresholdDraft(values: FormState['values'], assets: readonly Asset[]): ThresholdDraft {
  const chosenUnit = chosenValue(values, THRESHOLD_FORM.unit);
  const unit: Unit = chosenUnit === 'units' || chosenUnit === 'off' ? chosenUnit : 'usd';
  const asset = assets.find((candidate) => candidate.id === chosenValue(values, THRESHOLD_FORM.asset));
  const text = typedText(values, THRESHOLD_FORM.amount);
  const level =
    unit === 'off'
      ? ({ empty: true } as const)
      : unit === 'usd'
        ? readUsdAmount(text)
        : asset === undefined
          ? text === ''
            ? ({ empty: true } as const)
            : ({ refused: 'Choose the asset first: the level is read in its units.' } as const)
          : readTokenAmount(text, asset.crypto);
  return { unit, asset, level };
}

/** The preview: the level, the balance now against it, or what is still missing. */
function thresholdPreview(draft: ThresholdDraft): { lines: string[] } | { missing: string } {
  const { asset, level } = draft;
  if (asset === undefined) return { missing: 'Choose the asset to watch.' };
  const name = `${escapeText(asset.crypto.symbol)} on ${formatNetwork(asset.network)}`;
  if (draft.unit === 'off') return { lines: [`Removes the balance threshold of ${name}, if it has one`] };
  if ('refused' in level) return { lines: [`:warning: ${level.refused}`] };
  if ('empty' in level)
    return { missing: draft.unit === 'usd' ? 'Type the level in US dollars.' : 'Type the level in the asset’s units.' };
  const threshold = {
    measure: draft.unit,
    symbol: asset.crypto.symbol,
    decimals: asset.crypto.decimals,
    below: level.units.toString(),
  } as const;
  const reading = { balance: asset.balance, balanceInUsd: asset.balanceInUsd };
  const now = measuredValue(reading, draft.unit);
  const lines = [
    `Alerts when the balance of ${name} falls below *${levelLabel(threshold, level.units)}* (${code(level.units.toString())} ${draft.unit === 'usd' ? 'cents' : 'base units'})`,
    `Balance now: ${balanceLabel({ ...reading, decimals: asset.crypto.decimals, symbol: asset.crypto.symbol, measure: draft.unit })}`,
    now === undefined
      ? ':grey_question: The balance’s USD value is unknown now, so no judgement is made until it is known'
      : now < level.units
        ? ':warning: That is below the level already: the next poll raises the alert'
        : 'That is above the level: no alert now',
    `It counts as recovered at ${recoveryLabel(threshold)}`,
  ];
  return { lines };
}

/** The threshold form as a view, from what is entered and the assets (or that they are still being read). */
function buildThresholdForm(state: FormState): ReturnType<typeof formModal> {
  const assets = isAssetList(state.assets) ? (state.assets as Asset[]) : [];
  const draft = readThresholdDraft(state.values, assets);
  const preview = isAssetList(state.assets)
    ? thresholdPreview(draft)
    : { missing: 'The preview shows once the assets are read.' };
  return formModal({
    callbackId: FORM_IDS.threshold,
    title: 'Set a threshold',
    submit: draft.unit === 'off' ? 'Remove threshold' : 'Set threshold',
    privateMetadata: JSON.stringify(state.origin),
    blocks: [
      assetMenuBlock({ id: THRESHOLD_FORM.asset, label: 'Asset', assets: state.assets, chosen: draft.asset?.id }),
      choiceMenuBlock({
        id: THRESHOLD_FORM.unit,
        label: 'Alert when the balance falls below',
        choices: [
          ['usd', 'A USD value'],
          ['units', 'An amount of the asset'],
          ['off', 'No threshold (remove it)'],
        ],
        chosen: draft.unit,
      }),
      ...(draft.unit === 'off'
        ? []
        : [
            amountInputBlock({
              id: THRESHOLD_FORM.amount,
              label:
                draft.unit === 'usd'
                  ? 'Level in US dollars'
                  : `Level${draft.asset ? ` in ${draft.asset.crypto.symbol}` : ' in the asset’s units'}`,
              placeholder: draft.unit === 'usd' ? '5,000' : '5,000.5',
            }),
          ]),
      ...previewBlocks(preview),
    ],
  });
}

/** The threshold form: built from what is entered; submitted through the typed command's ThresholdService. */
export const thresholdForm: FormDefinition = {
  callbackId: FORM_IDS.threshold,
  actionIds: [THRESHOLD_FORM.asset, THRESHOLD_FORM.unit, THRESHOLD_FORM.amount],
  build: (state) => buildThresholdForm(state),
  async submit(state, deps, userId): Promise<FormSubmission> {
    const draft = readThresholdDraft(state.values, state.assets);
    const errors: Record<string, string> = {};
    const asset = draft.asset;
    if (asset === undefined)
      errors[THRESHOLD_FORM.asset] = chosenValue(state.values, THRESHOLD_FORM.asset)
        ? 'That asset is no longer enabled for this merchant: choose another.'
        : 'Choose the asset to watch.';
    if (draft.unit !== 'off') {
      if ('empty' in draft.level) errors[THRESHOLD_FORM.amount] = 'Type the level.';
      else if ('refused' in draft.level && asset !== undefined)
        errors[THRESHOLD_FORM.amount] = decodeSlackEntities(draft.level.refused);
    }
    if (Object.keys(errors).length > 0 || asset === undefined) return { errors };
    const thresholds = deps.thresholds;
    // Refused in the form when known in time; otherwise the service checks again and its answer says so.
    const admin = await Promise.race([
      deps.access.isAdmin(userId).catch(() => undefined),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ADMIN_CHECK_MS).unref()),
    ]);
    if (admin === false) return { refused: NOT_AN_ADMIN };
    if (draft.unit === 'off')
      return {
        run: async () => {
          const reply = await thresholds.remove(userId, asset.id);
          refreshHomeAfterAct(deps, userId);
          return reply;
        },
      };
    if (!('units' in draft.level)) return { errors };
    // The typed command's own text for the same level: exact, from what was read.
    const amountText =
      draft.unit === 'usd'
        ? `$${centsToUsd(draft.level.units)}`
        : fromBaseUnits(draft.level.units, asset.crypto.decimals);
    return {
      run: async () => {
        const reply = await thresholds.set(userId, asset.id, amountText, draft.unit === 'usd');
        refreshHomeAfterAct(deps, userId);
        return reply;
      },
    };
  },
};
