// block_actions from inside a modal, and global shortcuts: what Slack sends when a person uses an element of a view
// (a menu chosen, text typed in an input whose block dispatches) or picks one of the app's shortcuts.
import { menuOptions, slackOption } from './actions.js';
import { type EnteredValues, type HeldView, viewPayloadObject, viewStateValues } from './views.js';
import { isRecord, type Person, slackTs, type Team, teamOf, triggerId } from './wire.js';

/** What a text or number input's `dispatch_action_config` may dispatch on. */
export type InputTrigger = 'on_enter_pressed' | 'on_character_entered';

/** One element used inside a modal. */
export interface ViewElementUse {
  blockId: string;
  actionId: string;
  /**
   * For a text or number input: what the person did (Enter pressed, or a character typed or removed). Slack
   * dispatches only on the triggers the element's `dispatch_action_config` lists (`on_enter_pressed` unless it
   * lists others). Ignored for menus and buttons.
   */
  trigger?: InputTrigger;
}

/**
 * The `block_actions` payload of an element used inside a modal (the block_actions payload reference): the container
 * is the view (`type: 'view'`, its `view_id`), the whole view comes along with its `id`, `hash` and `state.values`
 * (everything entered so far, `entered` included), and there is no channel, message or response_url. Throws what
 * Slack's client would not send: an element the view does not show, an element of an input block without
 * `dispatch_action: true` ("To send this block_actions payload for interactive components used within input blocks,
 * you can set dispatch_action to true in those input blocks"), a text input on a trigger its
 * `dispatch_action_config` does not list, or what {@link viewStateValues} refuses.
 */
export function viewBlockActionsPayload(
  team: Team,
  user: Person,
  held: HeldView,
  use: ViewElementUse,
  entered: EnteredValues,
  botId: string,
  now: number = Date.now(),
): Record<string, unknown> {
  const found = findViewElement(held.view, use.blockId, use.actionId);
  if (found === undefined)
    throw new Error(`the view has no element with block_id "${use.blockId}" and action_id "${use.actionId}"`);
  const { block, element } = found;
  if (block.type === 'input' && block.dispatch_action !== true)
    throw new Error(
      `the input "${use.blockId}" does not dispatch actions (no dispatch_action: true): Slack sends nothing until the view is submitted`,
    );
  const state = viewStateValues(held.view, entered);
  const type = String(element.type);
  let action: Record<string, unknown>;
  if (type === 'button') {
    const label = isRecord(element.text) && typeof element.text.text === 'string' ? element.text.text : use.actionId;
    action = {
      type,
      ...(typeof element.value === 'string' ? { value: element.value } : {}),
      text: { type: 'plain_text', text: label, emoji: true },
    };
  } else if (type === 'static_select') {
    const chosen = block.type === 'input' ? state[use.blockId]?.[use.actionId]?.selected_option : undefined;
    const value = block.type === 'input' ? undefined : entered[use.blockId]?.[use.actionId];
    const option =
      chosen ?? (value ? menuOptions(element).find((candidate) => candidate.value === value) : undefined) ?? null;
    action = {
      type,
      selected_option: option && isRecord(option) ? slackOption(option as never) : null,
      ...(element.placeholder !== undefined ? { placeholder: element.placeholder } : {}),
    };
  } else if (TEXT_INPUTS.has(type)) {
    const config = isRecord(element.dispatch_action_config) ? element.dispatch_action_config : {};
    const triggers = Array.isArray(config.trigger_actions_on) ? config.trigger_actions_on : ['on_enter_pressed'];
    const trigger = use.trigger ?? 'on_enter_pressed';
    if (!triggers.includes(trigger))
      throw new Error(`the input "${use.blockId}" dispatches on ${triggers.join(' and ')}, not on ${trigger}`);
    action = { type, value: state[use.blockId]?.[use.actionId]?.value ?? null };
  } else {
    throw new Error(`a ${type} inside a view is not something this workspace can use`);
  }
  return {
    type: 'block_actions',
    user: { id: user.id, username: user.name, name: user.name, team_id: teamOf(team, user) },
    api_app_id: team.appId,
    token: 'local-workspace-verification-token',
    container: { type: 'view', view_id: held.id },
    trigger_id: triggerId(now),
    team: { id: team.id, domain: team.domain },
    enterprise: null,
    is_enterprise_install: false,
    view: viewPayloadObject(team, botId, held, state),
    actions: [{ ...action, action_id: use.actionId, block_id: use.blockId, action_ts: slackTs(now) }],
  };
}

/** A shortcut as the app's manifest declares it (`features.shortcuts`). */
export interface DeclaredShortcut {
  name: string;
  type: 'global' | 'message';
  callback_id: string;
  description: string;
}

/**
 * The payload of a global shortcut (the shortcuts payload reference, Bolt's GlobalShortcut): `type: 'shortcut'`,
 * the `callback_id` the manifest gave it, a fresh `trigger_id`, the person and the team; no channel and no
 * response_url ("This field will only be included for message shortcuts"). Throws when the manifest declares no
 * global shortcut with that callback_id: Slack only offers the ones it declares.
 */
export function globalShortcutPayload(
  team: Team,
  user: Person,
  callbackId: string,
  declared: readonly DeclaredShortcut[],
  now: number = Date.now(),
): Record<string, unknown> {
  if (!declared.some((shortcut) => shortcut.type === 'global' && shortcut.callback_id === callbackId))
    throw new Error(`the app declares no global shortcut "${callbackId}" (manifest features.shortcuts)`);
  return {
    type: 'shortcut',
    token: 'local-workspace-verification-token',
    action_ts: slackTs(now),
    team: { id: team.id, domain: team.domain },
    user: { id: user.id, username: user.name, team_id: teamOf(team, user) },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: callbackId,
    trigger_id: triggerId(now),
  };
}

/** The global and message shortcuts a manifest declares (`features.shortcuts`), or none. */
export function manifestShortcuts(manifest: unknown): DeclaredShortcut[] {
  const features = isRecord(manifest) && isRecord(manifest.features) ? manifest.features : {};
  return (Array.isArray(features.shortcuts) ? features.shortcuts : []).filter(
    (shortcut): shortcut is DeclaredShortcut =>
      isRecord(shortcut) &&
      (shortcut.type === 'global' || shortcut.type === 'message') &&
      typeof shortcut.callback_id === 'string' &&
      typeof shortcut.name === 'string',
  );
}

const TEXT_INPUTS = new Set(['plain_text_input', 'number_input', 'email_text_input', 'url_text_input']);

/** The element with `actionId` in the block `blockId` of a view: an input's element, an actions element, an accessory. */
function findViewElement(
  view: Record<string, unknown>,
  blockId: string,
  actionId: string,
): { block: Record<string, unknown>; element: Record<string, unknown> } | undefined {
  for (const block of Array.isArray(view.blocks) ? view.blocks : []) {
    if (!isRecord(block) || block.block_id !== blockId) continue;
    const elements = [block.element, block.accessory, ...(Array.isArray(block.elements) ? block.elements : [])];
    const element = elements.find((candidate) => isRecord(candidate) && candidate.action_id === actionId);
    if (isRecord(element)) return { block, element };
  }
  return undefined;
}
