/**
 * Block Kit validation as Slack does it for messages, so the stand-in refuses what Slack refuses. Pure: blocks in,
 * problems out, each with the JSON pointer Slack puts in `[json-pointer:…]`.
 *
 * Sources (Slack's Block Kit reference unless said otherwise): "Section block", "Header block", "Context block",
 * "Actions block", "Divider block", "Image block", "Button element", "Image element", "Text object",
 * "Confirmation dialog object"; the error names from the "chat.postMessage" / "chat.update" method references.
 * Wording follows what Slack answers where it is known ("must be less than 3001 characters", "no more than 50
 * items allowed", "must be more than 0 characters", "must define either `text` or `fields`", "unsupported type: x").
 */

/** One thing Slack would refuse, located by a JSON pointer into the request (e.g. `/blocks/0/text/text`). */
export interface BlockKitProblem {
  pointer: string;
  message: string;
}

/** Limits of messages (Slack's Block Kit reference and the chat.postMessage reference). */
export const MESSAGE_LIMITS = {
  blocks: 50,
  /** Home tabs and modals take 100. */
  surfaceBlocks: 100,
  blockId: 255,
  actionId: 255,
  textObject: 3000,
  sectionText: 3000,
  sectionFields: 10,
  sectionField: 2000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  accessibilityLabel: 75,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  imageUrl: 3000,
  altText: 2000,
  imageTitle: 2000,
  /** chat.postMessage: longer `text` is refused with `msg_too_long`. */
  messageText: 40_000,
  /**
   * Total text of all blocks past which chat.postMessage answers `msg_blocks_too_long`. Slack does not document
   * it; by this same count (every `text` string in the blocks) bolt-js issue #2867 saw 9,597 accepted and 11,341
   * refused, and Slack staff speak of 12,000 including a buffer for block containers (bolt-js #2509).
   */
  blocksText: 11_000,
} as const;

/** Limits of modals and their inputs ("Modal view object", "Input block", "Plain-text input element", "Select menu element", "Option object"). */
export const MODAL_LIMITS = {
  title: 24,
  submit: 24,
  close: 24,
  blocks: 100,
  privateMetadata: 3000,
  callbackId: 255,
  inputLabel: 2000,
  inputHint: 2000,
  plainTextInputLength: 3000,
  placeholder: 150,
  selectOptions: 100,
  optionText: 75,
  optionValue: 150,
} as const;

/**
 * Limits of legacy secondary attachments ("Legacy secondary message attachments" reference; the chat.postMessage
 * reference for `too_many_attachments`: "A maximum of 100 attachments are allowed on a message").
 */
export const ATTACHMENT_LIMITS = {
  attachments: 100,
  /** Blocks in one attachment, as in a message (past it Slack answers invalid_attachments, appKODE/build-publish-plugin #54). */
  blocks: 50,
} as const;

/** Block types Slack accepts in messages; the ones our builders use are checked field by field. */
const MESSAGE_BLOCK_TYPES = new Set([
  'actions',
  'context',
  'context_actions',
  'divider',
  'file',
  'header',
  'image',
  'input',
  'markdown',
  'plan',
  'rich_text',
  'section',
  'table',
  'task_card',
  'video',
]);
// "Actions block": buttons, select menus, overflow menus, date/time pickers, checkboxes, radio buttons, workflow buttons.
const ACTIONS_ELEMENT_TYPES = new Set([
  'button',
  'checkboxes',
  'datepicker',
  'datetimepicker',
  'overflow',
  'radio_buttons',
  'timepicker',
  'workflow_button',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
]);
// "Input block": the elements an input may hold.
const INPUT_ELEMENT_TYPES = new Set([
  'plain_text_input',
  'static_select',
  'multi_static_select',
  'users_select',
  'multi_users_select',
  'conversations_select',
  'channels_select',
  'datepicker',
  'timepicker',
  'datetimepicker',
  'checkboxes',
  'radio_buttons',
  'number_input',
  'email_text_input',
  'url_text_input',
  'rich_text_input',
  'file_input',
]);
// "Section block": the accessory can be any of those, or an image.
const ACCESSORY_TYPES = new Set([...ACTIONS_ELEMENT_TYPES, 'image']);
const TEXT_TYPES = ['plain_text', 'mrkdwn'] as const;
const STYLES = ['primary', 'danger'];

type Json = Record<string, unknown>;

/** `message [json-pointer:/blocks/0]`: how chat.postMessage lists a problem in `errors`. */
export function describeProblem(problem: BlockKitProblem): string {
  return `${problem.message} [json-pointer:${problem.pointer}]`;
}

/** Options of {@link validateBlocks}. */
export interface ValidateBlocksOptions {
  /** 50 for messages (default), 100 for Home tabs and modals. */
  maxBlocks?: number;
  /** Where the blocks sit in the request (default `/blocks`). */
  pointer?: string;
}

/** Every problem Slack would report for these blocks of a message; empty when Slack would accept them. */
export function validateBlocks(blocks: readonly unknown[], options: ValidateBlocksOptions = {}): BlockKitProblem[] {
  const problems: BlockKitProblem[] = [];
  const root = options.pointer ?? '/blocks';
  const maxBlocks = options.maxBlocks ?? MESSAGE_LIMITS.blocks;
  if (blocks.length > maxBlocks) problems.push({ pointer: root, message: `no more than ${maxBlocks} items allowed` });
  // "block_id should be unique for each message".
  const blockIds = new Map<string, string>();
  blocks.forEach((block, i) => {
    const pointer = `${root}/${i}`;
    checkBlock(block, pointer, problems);
    if (isRecord(block) && typeof block.block_id === 'string') {
      if (blockIds.has(block.block_id)) {
        problems.push({ pointer: `${pointer}/block_id`, message: `duplicate block_id: ${block.block_id}` });
      } else {
        blockIds.set(block.block_id, pointer);
      }
    }
  });
  return problems;
}

/** The sum of every `text` string in the blocks: the count behind `msg_blocks_too_long`. */
export function blocksTextLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + blocksTextLength(item), 0);
  if (!isRecord(value)) return 0;
  let total = 0;
  for (const [key, child] of Object.entries(value)) {
    total += key === 'text' && typeof child === 'string' ? charCount(child) : blocksTextLength(child);
  }
  return total;
}

/** Why Slack refuses a message, as its error name plus the problems it lists (`invalid_blocks`, `invalid_attachments`). */
export interface MessageRefusal {
  error:
    | 'invalid_blocks_format'
    | 'invalid_blocks'
    | 'msg_blocks_too_long'
    | 'msg_too_long'
    | 'invalid_attachments'
    | 'too_many_attachments';
  problems: BlockKitProblem[];
}

// "Legacy secondary message attachments": `color` is good, warning, danger or a hex colour code (eg. #439FE0).
const NAMED_COLORS = ['good', 'warning', 'danger'];
const HEX_COLOR = /^#?(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
// The legacy fields that are text (URLs included); `fields`, `mrkdwn_in` and `ts` are checked on their own.
const LEGACY_TEXT_FIELDS = [
  'pretext',
  'author_name',
  'author_link',
  'author_icon',
  'title',
  'title_link',
  'text',
  'image_url',
  'thumb_url',
  'footer',
  'footer_icon',
];
/*
 * What an attachment with `blocks` may carry besides them: its colour bar and notification text (and the `id`
 * Slack gives it). Slack answers invalid_attachments when blocks come with a legacy field, even an empty `text` or
 * a `false` flag (slack-go/slack #588, #784; slackapi/java-slack-sdk #184, #187).
 */
const WITH_BLOCKS = new Set(['blocks', 'color', 'fallback', 'id']);

/**
 * Every problem Slack would report for a message's `attachments` (pointers start at `/attachments`); empty when it
 * would accept them. The count (at most 100) is {@link checkMessage}'s `too_many_attachments`, not a problem here.
 */
export function validateAttachments(attachments: readonly unknown[]): BlockKitProblem[] {
  const problems: BlockKitProblem[] = [];
  attachments.forEach((attachment, i) => {
    const pointer = `/attachments/${i}`;
    if (!isRecord(attachment)) {
      problems.push({ pointer, message: 'must be an object' });
      return;
    }
    if (attachment.color !== undefined) {
      const color = attachment.color;
      if (typeof color !== 'string' || !(NAMED_COLORS.includes(color) || HEX_COLOR.test(color)))
        problems.push({
          pointer: `${pointer}/color`,
          message: 'must be good, warning, danger or a hex color code (eg. #439FE0)',
        });
    }
    if (attachment.fallback !== undefined && typeof attachment.fallback !== 'string')
      problems.push({ pointer: `${pointer}/fallback`, message: 'must be a string' });
    if (attachment.blocks !== undefined) {
      if (!Array.isArray(attachment.blocks)) {
        problems.push({ pointer: `${pointer}/blocks`, message: 'must be an array' });
      } else {
        problems.push(
          ...validateBlocks(attachment.blocks, { maxBlocks: ATTACHMENT_LIMITS.blocks, pointer: `${pointer}/blocks` }),
        );
      }
      for (const field of Object.keys(attachment)) {
        if (!WITH_BLOCKS.has(field))
          problems.push({ pointer: `${pointer}/${field}`, message: 'cannot be used together with blocks' });
      }
      return;
    }
    for (const field of LEGACY_TEXT_FIELDS) {
      if (attachment[field] !== undefined && typeof attachment[field] !== 'string')
        problems.push({ pointer: `${pointer}/${field}`, message: 'must be a string' });
    }
    if (attachment.fields !== undefined) {
      if (!Array.isArray(attachment.fields))
        problems.push({ pointer: `${pointer}/fields`, message: 'must be an array' });
      else
        attachment.fields.forEach((field, j) => {
          const at = `${pointer}/fields/${j}`;
          if (!isRecord(field)) problems.push({ pointer: at, message: 'must be an object' });
          else
            for (const key of ['title', 'value'] as const)
              if (field[key] !== undefined && typeof field[key] !== 'string')
                problems.push({ pointer: `${at}/${key}`, message: 'must be a string' });
        });
    }
    if (
      attachment.mrkdwn_in !== undefined &&
      !(Array.isArray(attachment.mrkdwn_in) && attachment.mrkdwn_in.every((f) => typeof f === 'string'))
    )
      problems.push({ pointer: `${pointer}/mrkdwn_in`, message: 'must be an array of field names' });
  });
  return problems;
}

/** Options of {@link checkMessage}. */
export interface CheckMessageOptions {
  /** Apply `msg_blocks_too_long` (the Web API does; response_url posts have not been seen to, bolt-js #2867). */
  checkBlocksSize?: boolean;
  maxBlocksTextChars?: number;
  /** Apply `msg_too_long` to the top-level `text` (the Web API's chat methods). */
  checkTextSize?: boolean;
}

/**
 * Checks the `text`, `blocks` and `attachments` of a message as Slack's chat methods do; undefined when Slack would
 * accept it. `blocks` and `attachments` are what the request carried: an array, a JSON string of one, or nothing.
 */
export function checkMessage(
  message: { text?: unknown; blocks?: unknown; attachments?: unknown },
  options: CheckMessageOptions = {},
): MessageRefusal | undefined {
  if (message.attachments !== undefined) {
    const attachments = typeof message.attachments === 'string' ? parseJson(message.attachments) : message.attachments;
    if (!Array.isArray(attachments))
      return { error: 'invalid_attachments', problems: [{ pointer: '/attachments', message: 'must be an array' }] };
    if (attachments.length > ATTACHMENT_LIMITS.attachments) return { error: 'too_many_attachments', problems: [] };
    const problems = validateAttachments(attachments);
    // Slack is not known to list why (its docs give only the name); the stand-in does, as for invalid_blocks.
    // Block text inside attachments is not counted towards msg_blocks_too_long: no limit of Slack's is known there.
    if (problems.length > 0) return { error: 'invalid_attachments', problems };
  }
  if (message.blocks !== undefined) {
    const blocks = typeof message.blocks === 'string' ? parseJson(message.blocks) : message.blocks;
    if (!Array.isArray(blocks)) return { error: 'invalid_blocks_format', problems: [] };
    const problems = validateBlocks(blocks);
    if (problems.length > 0) return { error: 'invalid_blocks', problems };
    const max = options.maxBlocksTextChars ?? MESSAGE_LIMITS.blocksText;
    if (options.checkBlocksSize && blocksTextLength(blocks) > max)
      return { error: 'msg_blocks_too_long', problems: [] };
  }
  if (
    options.checkTextSize &&
    typeof message.text === 'string' &&
    charCount(message.text) > MESSAGE_LIMITS.messageText
  ) {
    return { error: 'msg_too_long', problems: [] };
  }
  return undefined;
}

/** The Web API's answer to a refused message (HTTP 200), e.g. `{ ok: false, error: 'invalid_blocks', errors, response_metadata }`. */
export function refusalBody(refusal: MessageRefusal): Record<string, unknown> & { ok: false; error: string } {
  if (refusal.problems.length === 0) return { ok: false, error: refusal.error };
  const errors = refusal.problems.map(describeProblem);
  return {
    ok: false,
    error: refusal.error,
    errors,
    response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) },
  };
}

// ---------------------------------------------------------------------------------------------------------------

type Problems = BlockKitProblem[];

function checkBlock(block: unknown, pointer: string, problems: Problems): void {
  if (!isRecord(block)) {
    problems.push({ pointer, message: 'must be an object' });
    return;
  }
  if (block.type === undefined) {
    problems.push({ pointer, message: 'missing required field: type' });
    return;
  }
  if (typeof block.type !== 'string' || !MESSAGE_BLOCK_TYPES.has(block.type)) {
    problems.push({ pointer: `${pointer}/type`, message: `unsupported type: ${String(block.type)}` });
    return;
  }
  if (block.block_id !== undefined)
    checkString(block.block_id, `${pointer}/block_id`, MESSAGE_LIMITS.blockId, problems);
  switch (block.type) {
    case 'section':
      checkSection(block, pointer, problems);
      return;
    case 'header':
      checkHeader(block, pointer, problems);
      return;
    case 'context':
      checkContext(block, pointer, problems);
      return;
    case 'actions':
      checkActions(block, pointer, problems);
      return;
    case 'image':
      checkImage(block, pointer, problems, true);
      return;
    case 'input':
      checkInput(block, pointer, problems);
      return;
    default:
      // Divider has nothing more; the other types are not used by our builders and are accepted as they are.
      return;
  }
}

function checkSection(block: Json, pointer: string, problems: Problems): void {
  if (block.text === undefined && block.fields === undefined) {
    problems.push({ pointer: `${pointer}/type`, message: 'must define either `text` or `fields`' });
  }
  if (block.text !== undefined) checkText(block.text, `${pointer}/text`, { max: MESSAGE_LIMITS.sectionText }, problems);
  if (block.fields !== undefined) {
    // Fields are "required if no text is provided": only then must there be at least one.
    const min = block.text === undefined ? 1 : 0;
    const fields = checkArray(block.fields, `${pointer}/fields`, MESSAGE_LIMITS.sectionFields, problems, min);
    fields?.forEach((field, i) => {
      checkText(field, `${pointer}/fields/${i}`, { max: MESSAGE_LIMITS.sectionField }, problems);
    });
  }
  if (block.accessory !== undefined) {
    checkElement(block.accessory, `${pointer}/accessory`, ACCESSORY_TYPES, new Map(), problems);
  }
  if (block.expand !== undefined && typeof block.expand !== 'boolean') {
    problems.push({ pointer: `${pointer}/expand`, message: 'must be a boolean' });
  }
}

function checkHeader(block: Json, pointer: string, problems: Problems): void {
  if (block.text === undefined) {
    problems.push({ pointer, message: 'missing required field: text' });
    return;
  }
  checkText(block.text, `${pointer}/text`, { max: MESSAGE_LIMITS.headerText, plainOnly: true }, problems);
}

function checkContext(block: Json, pointer: string, problems: Problems): void {
  if (block.elements === undefined) {
    problems.push({ pointer, message: 'missing required field: elements' });
    return;
  }
  const elements = checkArray(block.elements, `${pointer}/elements`, MESSAGE_LIMITS.contextElements, problems);
  elements?.forEach((element, i) => {
    const at = `${pointer}/elements/${i}`;
    // "An array of image elements and text objects."
    if (isRecord(element) && element.type === 'image') checkImage(element, at, problems, false);
    else checkText(element, at, { max: MESSAGE_LIMITS.textObject }, problems);
  });
}

function checkActions(block: Json, pointer: string, problems: Problems): void {
  if (block.elements === undefined) {
    problems.push({ pointer, message: 'missing required field: elements' });
    return;
  }
  const elements = checkArray(block.elements, `${pointer}/elements`, MESSAGE_LIMITS.actionsElements, problems);
  // "Button element": action_id "should be unique among all other action_ids in the containing block".
  const actionIds = new Map<string, string>();
  elements?.forEach((element, i) => {
    checkElement(element, `${pointer}/elements/${i}`, ACTIONS_ELEMENT_TYPES, actionIds, problems);
  });
}

/** An interactive element (or an image accessory); `actionIds` collects the ids already used in the block. */
function checkElement(
  element: unknown,
  pointer: string,
  allowed: ReadonlySet<string>,
  actionIds: Map<string, string>,
  problems: Problems,
): void {
  if (!isRecord(element)) {
    problems.push({ pointer, message: 'must be an object' });
    return;
  }
  if (element.type === undefined) {
    problems.push({ pointer, message: 'missing required field: type' });
    return;
  }
  if (typeof element.type !== 'string' || !allowed.has(element.type)) {
    problems.push({ pointer: `${pointer}/type`, message: `unsupported type: ${String(element.type)}` });
    return;
  }
  if (element.type === 'image') {
    checkImage(element, pointer, problems, false);
    return;
  }
  if (element.action_id !== undefined) {
    const ok = checkString(element.action_id, `${pointer}/action_id`, MESSAGE_LIMITS.actionId, problems);
    if (ok && typeof element.action_id === 'string') {
      if (actionIds.has(element.action_id)) {
        problems.push({ pointer: `${pointer}/action_id`, message: `duplicate action_id: ${element.action_id}` });
      } else {
        actionIds.set(element.action_id, pointer);
      }
    }
  }
  if (element.confirm !== undefined) checkConfirm(element.confirm, `${pointer}/confirm`, problems);
  if (element.type === 'button') checkButton(element, pointer, problems);
  if (element.type === 'static_select') checkStaticSelect(element, pointer, problems);
}

/** "Input block": a plain_text label (≤ 2,000), one element, an optional hint and `optional` flag. */
function checkInput(block: Json, pointer: string, problems: Problems): void {
  if (block.label === undefined) problems.push({ pointer, message: 'missing required field: label' });
  else checkText(block.label, `${pointer}/label`, { max: MODAL_LIMITS.inputLabel, plainOnly: true }, problems);
  if (block.hint !== undefined) {
    checkText(block.hint, `${pointer}/hint`, { max: MODAL_LIMITS.inputHint, plainOnly: true }, problems);
  }
  if (block.optional !== undefined && typeof block.optional !== 'boolean') {
    problems.push({ pointer: `${pointer}/optional`, message: 'must be a boolean' });
  }
  if (block.element === undefined) {
    problems.push({ pointer, message: 'missing required field: element' });
    return;
  }
  checkElement(block.element, `${pointer}/element`, INPUT_ELEMENT_TYPES, new Map(), problems);
  if (isRecord(block.element) && block.element.type === 'plain_text_input') {
    checkPlainTextInput(block.element, `${pointer}/element`, problems);
  }
}

/** "Plain-text input element": lengths within 0–3,000, min ≤ max, an initial value and placeholder within them. */
function checkPlainTextInput(input: Json, pointer: string, problems: Problems): void {
  const max = MODAL_LIMITS.plainTextInputLength;
  for (const field of ['min_length', 'max_length'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      problems.push({ pointer: `${pointer}/${field}`, message: 'must be an integer' });
    } else if (value < (field === 'max_length' ? 1 : 0) || value > max) {
      problems.push({
        pointer: `${pointer}/${field}`,
        message: `must be between ${field === 'max_length' ? 1 : 0} and ${max}`,
      });
    }
  }
  if (
    typeof input.min_length === 'number' &&
    typeof input.max_length === 'number' &&
    input.min_length > input.max_length
  ) {
    problems.push({ pointer: `${pointer}/min_length`, message: 'must not be more than max_length' });
  }
  if (input.multiline !== undefined && typeof input.multiline !== 'boolean') {
    problems.push({ pointer: `${pointer}/multiline`, message: 'must be a boolean' });
  }
  if (input.initial_value !== undefined) checkString(input.initial_value, `${pointer}/initial_value`, max, problems);
  if (input.placeholder !== undefined) {
    checkText(
      input.placeholder,
      `${pointer}/placeholder`,
      { max: MODAL_LIMITS.placeholder, plainOnly: true },
      problems,
    );
  }
}

/** "Select menu element" (static): a placeholder and 1–100 options, each plain_text ≤ 75 with a value ≤ 150. */
function checkStaticSelect(select: Json, pointer: string, problems: Problems): void {
  if (select.placeholder !== undefined) {
    checkText(
      select.placeholder,
      `${pointer}/placeholder`,
      { max: MODAL_LIMITS.placeholder, plainOnly: true },
      problems,
    );
  }
  if (select.options === undefined) {
    problems.push({ pointer, message: 'missing required field: options' });
    return;
  }
  const options = checkArray(select.options, `${pointer}/options`, MODAL_LIMITS.selectOptions, problems);
  options?.forEach((option, i) => {
    const at = `${pointer}/options/${i}`;
    if (!isRecord(option)) {
      problems.push({ pointer: at, message: 'must be an object' });
      return;
    }
    if (option.text === undefined) problems.push({ pointer: at, message: 'missing required field: text' });
    else checkText(option.text, `${at}/text`, { max: MODAL_LIMITS.optionText, plainOnly: true }, problems);
    if (option.value === undefined) problems.push({ pointer: at, message: 'missing required field: value' });
    else checkString(option.value, `${at}/value`, MODAL_LIMITS.optionValue, problems, 1);
  });
}

/**
 * Every problem `views.open` / `views.update` would report for a modal view: type, title/submit/close
 * (plain_text ≤ 24), ≤ 100 blocks checked as blocks are, private_metadata ≤ 3,000, callback_id ≤ 255, and a
 * submit button whenever the view has inputs. Pointers start at `/view`.
 */
export function validateModalView(view: unknown): BlockKitProblem[] {
  const problems: Problems = [];
  const root = '/view';
  if (!isRecord(view)) return [{ pointer: root, message: 'must be an object' }];
  if (view.type !== 'modal')
    problems.push({ pointer: `${root}/type`, message: `unsupported type: ${String(view.type)}` });
  if (view.title === undefined) problems.push({ pointer: root, message: 'missing required field: title' });
  else checkText(view.title, `${root}/title`, { max: MODAL_LIMITS.title, plainOnly: true }, problems);
  for (const button of ['submit', 'close'] as const) {
    if (view[button] !== undefined) {
      checkText(view[button], `${root}/${button}`, { max: MODAL_LIMITS[button], plainOnly: true }, problems);
    }
  }
  const blocks = checkArray(view.blocks, `${root}/blocks`, Number.POSITIVE_INFINITY, problems, 0);
  if (blocks) {
    problems.push(...validateBlocks(blocks, { maxBlocks: MODAL_LIMITS.blocks, pointer: `${root}/blocks` }));
    const hasInput = blocks.some((block) => isRecord(block) && block.type === 'input');
    if (hasInput && view.submit === undefined) {
      problems.push({ pointer: root, message: 'submit is required when the view has input blocks' });
    }
  }
  if (view.private_metadata !== undefined) {
    checkString(view.private_metadata, `${root}/private_metadata`, MODAL_LIMITS.privateMetadata, problems);
  }
  if (view.callback_id !== undefined) {
    checkString(view.callback_id, `${root}/callback_id`, MODAL_LIMITS.callbackId, problems);
  }
  return problems;
}

/** Limits of a Home tab view ("App Home" and "View object" references; `views.publish`'s errors). */
export const HOME_LIMITS = {
  blocks: 100,
  privateMetadata: 3000,
  callbackId: 255,
  externalId: 255,
  /** views.publish answers `view_too_large` past 250 kB of view JSON. */
  viewBytes: 250 * 1024,
} as const;

/**
 * Every problem `views.publish` would report for a Home tab view: type `home`, ≤ 100 blocks checked as blocks
 * are, private_metadata ≤ 3,000, callback_id and external_id ≤ 255. A Home tab has no title, submit or close (those
 * are a modal's), so none is required. Pointers start at `/view`. The size (`view_too_large`) is the caller's.
 */
export function validateHomeView(view: unknown): BlockKitProblem[] {
  const problems: Problems = [];
  const root = '/view';
  if (!isRecord(view)) return [{ pointer: root, message: 'must be an object' }];
  if (view.type !== 'home')
    problems.push({ pointer: `${root}/type`, message: `unsupported type: ${String(view.type)}` });
  const blocks = checkArray(view.blocks, `${root}/blocks`, Number.POSITIVE_INFINITY, problems, 0);
  if (blocks) problems.push(...validateBlocks(blocks, { maxBlocks: HOME_LIMITS.blocks, pointer: `${root}/blocks` }));
  if (view.private_metadata !== undefined)
    checkString(view.private_metadata, `${root}/private_metadata`, HOME_LIMITS.privateMetadata, problems);
  if (view.callback_id !== undefined)
    checkString(view.callback_id, `${root}/callback_id`, HOME_LIMITS.callbackId, problems);
  if (view.external_id !== undefined)
    checkString(view.external_id, `${root}/external_id`, HOME_LIMITS.externalId, problems);
  return problems;
}

function checkButton(button: Json, pointer: string, problems: Problems): void {
  if (button.text === undefined) problems.push({ pointer, message: 'missing required field: text' });
  else checkText(button.text, `${pointer}/text`, { max: MESSAGE_LIMITS.buttonText, plainOnly: true }, problems);
  if (button.value !== undefined) checkString(button.value, `${pointer}/value`, MESSAGE_LIMITS.buttonValue, problems);
  if (button.url !== undefined) checkString(button.url, `${pointer}/url`, MESSAGE_LIMITS.buttonUrl, problems);
  if (button.accessibility_label !== undefined) {
    checkString(
      button.accessibility_label,
      `${pointer}/accessibility_label`,
      MESSAGE_LIMITS.accessibilityLabel,
      problems,
    );
  }
  if (button.style !== undefined) checkEnum(button.style, `${pointer}/style`, STYLES, problems);
}

/**
 * "Confirmation dialog object": title, text, confirm and deny are required. The reference now says plain_text for
 * all four; it long said "a text object" for `text`, and mrkdwn there is still accepted, so only title, confirm
 * and deny are held to plain_text.
 */
function checkConfirm(confirm: unknown, pointer: string, problems: Problems): void {
  if (!isRecord(confirm)) {
    problems.push({ pointer, message: 'must be an object' });
    return;
  }
  const parts = [
    ['title', MESSAGE_LIMITS.confirmTitle, true],
    ['text', MESSAGE_LIMITS.confirmText, false],
    ['confirm', MESSAGE_LIMITS.confirmButton, true],
    ['deny', MESSAGE_LIMITS.confirmButton, true],
  ] as const;
  for (const [field, max, plainOnly] of parts) {
    if (confirm[field] === undefined) problems.push({ pointer, message: `missing required field: ${field}` });
    else checkText(confirm[field], `${pointer}/${field}`, { max, plainOnly }, problems);
  }
  if (confirm.style !== undefined) checkEnum(confirm.style, `${pointer}/style`, STYLES, problems);
}

/** "Image block" (with optional title and block_id) or "Image element": image_url or slack_file, and alt_text. */
function checkImage(image: Json, pointer: string, problems: Problems, isBlock: boolean): void {
  if (image.image_url === undefined && image.slack_file === undefined) {
    problems.push({ pointer, message: 'missing required field: image_url' });
  }
  if (image.image_url !== undefined)
    checkString(image.image_url, `${pointer}/image_url`, MESSAGE_LIMITS.imageUrl, problems);
  if (image.alt_text === undefined) problems.push({ pointer, message: 'missing required field: alt_text' });
  else checkString(image.alt_text, `${pointer}/alt_text`, MESSAGE_LIMITS.altText, problems);
  if (isBlock && image.title !== undefined) {
    checkText(image.title, `${pointer}/title`, { max: MESSAGE_LIMITS.imageTitle, plainOnly: true }, problems);
  }
}

/** "Text object": type plain_text or mrkdwn (some places plain_text only), text of 1 to `max` characters. */
function checkText(
  value: unknown,
  pointer: string,
  rule: { max: number; plainOnly?: boolean },
  problems: Problems,
): void {
  if (!isRecord(value)) {
    problems.push({ pointer, message: 'must be an object' });
    return;
  }
  const allowed: readonly string[] = rule.plainOnly ? ['plain_text'] : TEXT_TYPES;
  if (value.type === undefined) problems.push({ pointer, message: 'missing required field: type' });
  else if (typeof value.type !== 'string' || !allowed.includes(value.type)) {
    problems.push({ pointer: `${pointer}/type`, message: `unsupported type: ${String(value.type)}` });
  }
  if (value.text === undefined) problems.push({ pointer, message: 'missing required field: text' });
  else checkString(value.text, `${pointer}/text`, Math.min(rule.max, MESSAGE_LIMITS.textObject), problems, 1);
  for (const flag of ['emoji', 'verbatim'] as const) {
    if (value[flag] !== undefined && typeof value[flag] !== 'boolean') {
      problems.push({ pointer: `${pointer}/${flag}`, message: 'must be a boolean' });
    }
  }
}

/** True when the value is a string within the limits. */
function checkString(value: unknown, pointer: string, max: number, problems: Problems, min = 0): boolean {
  if (typeof value !== 'string') {
    problems.push({ pointer, message: 'must be a string' });
    return false;
  }
  const length = charCount(value);
  if (length < min) {
    problems.push({ pointer, message: `must be more than ${min - 1} characters` });
    return false;
  }
  if (length > max) {
    problems.push({ pointer, message: `must be less than ${max + 1} characters` });
    return false;
  }
  return true;
}

/** The array when it is one with `min` (default 1) to `max` items (the items are checked by the caller). */
function checkArray(
  value: unknown,
  pointer: string,
  max: number,
  problems: Problems,
  min = 1,
): readonly unknown[] | undefined {
  if (!Array.isArray(value)) {
    problems.push({ pointer, message: 'must be an array' });
    return undefined;
  }
  if (value.length < min) problems.push({ pointer, message: `must provide at least ${min} item` });
  if (value.length > max) problems.push({ pointer, message: `no more than ${max} items allowed` });
  return value;
}

function checkEnum(value: unknown, pointer: string, allowed: readonly string[], problems: Problems): void {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    problems.push({ pointer, message: `must be one of: ${allowed.join(', ')}` });
  }
}

// Slack counts characters, not UTF-16 code units: an emoji outside the BMP is one character.
function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
