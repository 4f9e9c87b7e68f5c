/**
 * The forms' Block Kit, pure: the asset menu (the merchant's assets grouped by network, each with its balance), an
 * amount input that sends each keystroke, plain and optional inputs, and the "what the bot will do" preview.
 * Held to Slack's rules: option groups plain_text ≤ 75 and 100 options over all groups, option text ≤ 75, a
 * dispatching input's block says `dispatch_action: true`.
 */
import type { types } from '@slack/bolt';
import { type Block, clipText } from '../../blocks/common.js';
import { formatTokenAmount } from '../../blocks/format.js';
import type { Asset } from '../../payments/index.js';

/** A modal view as Slack's types define it. */
export type ModalView = types.ModalView;

/** Slack's limits for what these builders write (Block Kit reference: select menu, option, option group, modal). */
const FORM_LIMITS = {
  /** Options in a static menu, counted over all of its groups. */
  menuOptions: 100,
  optionText: 75,
  optionValue: 150,
  groupLabel: 75,
  title: 24,
  button: 24,
  privateMetadata: 3000,
} as const;

/** The parts of an asset the menu shows. */
export type MenuAsset = Pick<Asset, 'id' | 'balance' | 'crypto' | 'network'>;

const plain = (text: string, limit: number = FORM_LIMITS.optionText) => ({
  type: 'plain_text' as const,
  text: clipText(text, limit),
  emoji: true,
});

/**
 * How one asset reads in the menu: `USDT on Ethereum · 12,400.5 available`. The network is named in the option too,
 * not only by its group: a picked option is all the closed menu shows, and USDT on Ethereum must not read like USDT
 * on BSC. Within Slack's 75 characters the name is clipped, never the amount.
 */
function assetOptionText(asset: MenuAsset): string {
  const amount = ` · ${formatTokenAmount(asset.balance, asset.crypto.decimals)} available`;
  const room = FORM_LIMITS.optionText - amount.length;
  // No room left for a name (an amount of some 60 digits): the amount alone, as whole as Slack allows.
  if (room < 2) return `${formatTokenAmount(asset.balance, asset.crypto.decimals)} available`;
  return `${clipText(`${asset.crypto.symbol} on ${asset.network.title}`, room)}${amount}`;
}

/**
 * The merchant's assets grouped by network (the groups in the order the networks first appear, each network's
 * assets by symbol), as option groups. The option value is the asset's id. Past 100 assets Slack would refuse the
 * menu: the first 100 are offered and `left` says how many were left out.
 */
export function assetOptionGroups(assets: readonly MenuAsset[]): {
  groups: Array<{ label: ReturnType<typeof plain>; options: Array<{ text: ReturnType<typeof plain>; value: string }> }>;
  left: number;
} {
  const byNetwork = new Map<string, MenuAsset[]>();
  for (const asset of assets) {
    const key = `${asset.network.title} (${asset.network.symbol})`;
    byNetwork.set(key, [...(byNetwork.get(key) ?? []), asset]);
  }
  const groups = [];
  let offered = 0;
  for (const [network, members] of byNetwork) {
    const room = FORM_LIMITS.menuOptions - offered;
    if (room <= 0) break;
    const options = [...members]
      .sort((a, b) => a.crypto.symbol.localeCompare(b.crypto.symbol))
      .slice(0, room)
      .map((asset) => ({ text: plain(assetOptionText(asset)), value: asset.id }));
    offered += options.length;
    groups.push({ label: plain(network, FORM_LIMITS.groupLabel), options });
  }
  return { groups, left: assets.length - offered };
}

/** What the asset menu is built from: the assets, or why there are none to choose from yet. */
export type AssetChoices = readonly MenuAsset[] | { loading: true } | { failed: string };

/** Whether the choices are the assets themselves (not loading, not failed). */
export function isAssetList(assets: AssetChoices): assets is readonly MenuAsset[] {
  return Array.isArray(assets);
}

/**
 * The asset menu as an input block whose every choice is sent at once (`dispatch_action`), so the preview follows.
 * `chosen` (an asset id) is kept as the initial option while it is still offered. While the assets are read (or
 * when they could not be), a line says so instead: Slack refuses a menu without options.
 */
export function assetMenuBlock(options: {
  id: string;
  label: string;
  assets: AssetChoices;
  chosen?: string | undefined;
  optional?: boolean;
  hint?: string;
}): Block {
  const { id, assets } = options;
  if (!isAssetList(assets)) {
    const text =
      'loading' in assets
        ? ':hourglass_flowing_sand: Reading the merchant’s assets and balances…'
        : `:warning: ${assets.failed}`;
    return { type: 'section', block_id: `${id}_status`, text: { type: 'mrkdwn', text: clipText(text, 3000) } };
  }
  const list = assets as readonly MenuAsset[];
  if (list.length === 0)
    return {
      type: 'section',
      block_id: `${id}_status`,
      text: { type: 'mrkdwn', text: ':warning: This merchant has no assets enabled at the payment service.' },
    };
  const { groups, left } = assetOptionGroups(list);
  const initial = groups.flatMap((group) => group.options).find((option) => option.value === options.chosen);
  const hint = [options.hint, left > 0 ? `${left} more assets are not in this menu (Slack lists 100).` : undefined]
    .filter(Boolean)
    .join(' ');
  return {
    type: 'input',
    block_id: id,
    dispatch_action: true,
    ...(options.optional ? { optional: true } : {}),
    label: plain(options.label, 2000),
    ...(hint ? { hint: plain(hint, 2000) } : {}),
    element: {
      type: 'static_select',
      action_id: id,
      placeholder: plain('Choose an asset', 150),
      option_groups: groups,
      ...(initial ? { initial_option: initial } : {}),
    },
  } as Block;
}

/** A menu of fixed choices (value → label) that sends each choice at once, so the preview follows. */
export function choiceMenuBlock(options: {
  id: string;
  label: string;
  choices: ReadonlyArray<readonly [value: string, label: string]>;
  chosen?: string | undefined;
}): Block {
  const items = options.choices.map(([value, label]) => ({ text: plain(label), value }));
  const initial = items.find((item) => item.value === options.chosen) ?? items[0];
  return {
    type: 'input',
    block_id: options.id,
    dispatch_action: true,
    label: plain(options.label, 2000),
    element: {
      type: 'static_select',
      action_id: options.id,
      options: items,
      ...(initial ? { initial_option: initial } : {}),
    },
  } as Block;
}

/**
 * The amount as typed text (never a number input: what people type, "12,400.50" or "$49.99", is read exactly by
 * the same parser as the typed command), sent on every character so the preview follows.
 */
export function amountInputBlock(options: { id: string; label: string; hint?: string; placeholder?: string }): Block {
  return {
    type: 'input',
    block_id: options.id,
    dispatch_action: true,
    label: plain(options.label, 2000),
    ...(options.hint ? { hint: plain(options.hint, 2000) } : {}),
    element: {
      type: 'plain_text_input',
      action_id: options.id,
      ...(options.placeholder ? { placeholder: plain(options.placeholder, 150) } : {}),
      dispatch_action_config: { trigger_actions_on: ['on_character_entered'] },
    },
  } as Block;
}

/** A plain text input; optional ones may stay empty. Its value is only read on submit (no dispatch). */
export function textInputBlock(options: {
  id: string;
  label: string;
  optional?: boolean;
  hint?: string;
  placeholder?: string;
  maxLength?: number;
}): Block {
  return {
    type: 'input',
    block_id: options.id,
    ...(options.optional ? { optional: true } : {}),
    label: plain(options.label, 2000),
    ...(options.hint ? { hint: plain(options.hint, 2000) } : {}),
    element: {
      type: 'plain_text_input',
      action_id: options.id,
      ...(options.placeholder ? { placeholder: plain(options.placeholder, 150) } : {}),
      ...(options.maxLength ? { max_length: options.maxLength } : {}),
    },
  } as Block;
}

/** The block_id of the preview section of every form. */
const PREVIEW_BLOCK_ID = 'form_preview';

/**
 * "What the bot will do": the consequence of submitting now, as mrkdwn lines (already escaped by the caller), or
 * what is still missing. One section (≤ 3,000 characters) under a divider, with a fixed block_id.
 */
export function previewBlocks(preview: { lines: readonly string[] } | { missing: string }): Block[] {
  const body = 'lines' in preview ? preview.lines.map((line) => `• ${line}`).join('\n') : `_${preview.missing}_`;
  return [
    { type: 'divider' },
    {
      type: 'section',
      block_id: PREVIEW_BLOCK_ID,
      text: { type: 'mrkdwn', text: clipText(`*What the bot will do*\n${body}`, 3000) },
    },
  ];
}

/** A form's modal: title and buttons within Slack's 24 characters, the callback_id, and what it remembers. */
export function formModal(options: {
  callbackId: string;
  title: string;
  submit: string;
  blocks: readonly Block[];
  privateMetadata: string;
}): ModalView {
  return {
    type: 'modal',
    callback_id: options.callbackId,
    title: plain(options.title, FORM_LIMITS.title),
    submit: plain(options.submit, FORM_LIMITS.button),
    close: plain('Cancel', FORM_LIMITS.button),
    private_metadata: options.privateMetadata.slice(0, FORM_LIMITS.privateMetadata),
    blocks: [...options.blocks],
  };
}

/** A modal with one message and no inputs: what replaces a form whose submission was refused as a whole. */
export function formNoticeModal(options: { callbackId: string; title: string; text: string }): ModalView {
  return {
    type: 'modal',
    callback_id: options.callbackId,
    title: plain(options.title, FORM_LIMITS.title),
    close: plain('Close', FORM_LIMITS.button),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: clipText(options.text, 3000) } }],
  };
}
/** How the menu names an asset in the preview: `USDT@ETH`. */
