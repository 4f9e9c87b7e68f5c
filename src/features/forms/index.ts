/**
 * Forms instead of syntax: a modal per write action, opened by its `/treasury` command typed with no arguments, a
 * Home tab button or a global shortcut, that shows what the bot will do before anything is done. This folder holds
 * the kit every form is built with (blocks, values, assets, listeners) and the forms themselves (`<action>-form.ts`,
 * registered in openers.ts with what opens them): a form depends on the feature it drives, and no feature imports
 * this folder, so no circle can form.
 *
 * The contract of a form (a FormDefinition):
 * - `callbackId`: its modal's callback_id, listed in blocks/ids.ts FORM_IDS (the edge lets only those through).
 *   What opens it: its command's `run` calls openForm with the command's trigger and origin (response_url,
 *   channel); a Home button or a shortcut is one line in openers.ts (ids in ACTION_IDS / SHORTCUT_IDS, the
 *   shortcut also in both manifests).
 * - `actionIds`: the inputs whose use recomputes the view; each is its block's block_id too, listed in ACTION_IDS,
 *   and its block says `dispatch_action: true` (the builders here do that: assetMenuBlock, choiceMenuBlock,
 *   amountInputBlock). Keep every input's ids the same from view to view: Slack keeps what was entered only then.
 * - `build(state)`: the whole view from Slack's `state.values`, the origin (private_metadata) and the assets (or
 *   `{ loading }` / `{ failed }` while they cannot be shown). It ends with previewBlocks: what submitting does now,
 *   in exact figures (amounts as base units from the typed decimal, readTokenAmount / readUsdAmount: the typed
 *   command's own parser, never a float).
 * - `submit(state)`: `{ errors }` by block_id (shown under the fields, the form stays), `{ refused }` (the modal
 *   says why), or `{ run }`: the typed command's own service call, the same checks and messages. The form closes
 *   first; the answer goes where the typed command's would (the command's response_url, else a direct message).
 *
 * The plumbing (listeners.ts): openForm opens within the trigger's 3 s and fills the assets in after with
 * views.update when the payment API is slow; each use of an input is acknowledged, rebuilt and put in place with
 * views.update and the view's hash (a hash_conflict means a newer update won: ignored); a submission runs once per
 * view and per process (a Submit sent again runs nothing). formListeners(form) gives its two listener bindings.
 * Only people behind TREASURY_USERS see a form (the menu shows balances): openForm shows anyone else a notice, and
 * every recompute and submission checks again.
 */
export {
  amountInputBlock,
  assetMenuBlock,
  assetOptionGroups,
  choiceMenuBlock,
  formModal,
  type MenuAsset,
  previewBlocks,
  textInputBlock,
} from './blocks.js';
export {
  chosenValue,
  readTokenAmount,
  readUsdAmount,
  typedText,
} from './values.js';
