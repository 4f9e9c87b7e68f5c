// @ts-check
/*
 * A modal view → a DOM-free tree (see blocks.js), as Slack's client draws it: the title, the blocks (input blocks
 * as form fields with their label, hint, placeholder and "(optional)"), an error under each input the app named,
 * and Close and Submit. Pure: no browser API, so Node's unit tests load it. The page (app.js) wires Submit and
 * Close, reads the fields back and checks them as Slack's client does before sending anything (checkEntered).
 */
import { blockTree, el, rawTree, selectTree } from './blocks.js';
import { isObject } from './html.js';
import { plainHtml } from './mrkdwn.js';

/** @typedef {import('./blocks.js').Tree} Tree */
/** @typedef {import('./blocks.js').Json} Json */

/**
 * A modal open for the person viewing, as /api/timeline sends it: Slack's view id and hash, and the view.
 * @typedef {{ id: string, hash?: unknown, view: Json }} Modal
 */

/**
 * What was entered, by block_id then action_id: the text typed, or the value of the option chosen ('' for none).
 * @typedef {Record<string, Record<string, string>>} Entered
 */

/**
 * One input of a view, as the page fills it in.
 * @typedef {{
 *   blockId: string, actionId: string, type: string, optional: boolean,
 *   minLength: number | undefined, maxLength: number | undefined, element: Json,
 * }} ModalInput
 */

// What Slack's client says under a required input left empty.
export const REQUIRED_FIELD = 'Please complete this required field.';

/**
 * A plain_text object's text and whether its emoji codes are drawn, or null when it is not one.
 * @param {unknown} obj
 * @returns {{ text: string, emoji: boolean } | null}
 */
function plainText(obj) {
  if (!isObject(obj) || typeof obj.text !== 'string') return null;
  return { text: obj.text, emoji: obj.emoji !== false };
}

/**
 * @param {unknown} obj
 * @param {string} fallback
 * @returns {{ html: string }}
 */
function plainChild(obj, fallback) {
  const text = plainText(obj);
  return { html: text ? plainHtml(text.text, text.emoji) : plainHtml(fallback, false) };
}

/** Input elements the page fills in. */
const FILLABLE = new Set(['plain_text_input', 'number_input', 'static_select', 'users_select', 'conversations_select']);

/** A number as Slack's number input takes it. */
const NUMBER_TEXT = /^-?(\d+(\.\d+)?|\.\d+)$/;

/**
 * What Slack's client says under a number input it will not send, or null: not a number, a decimal where only
 * whole numbers are allowed, below min_value or above max_value.
 * @param {string} text
 * @param {Json} element
 * @returns {string | null}
 */
function numberProblem(text, element) {
  if (!NUMBER_TEXT.test(text)) return 'Please enter a number.';
  if (element.is_decimal_allowed !== true && text.includes('.')) return 'Please enter a whole number.';
  const value = Number(text);
  if (typeof element.min_value === 'string' && value < Number(element.min_value))
    return `Please enter a number of at least ${element.min_value}.`;
  if (typeof element.max_value === 'string' && value > Number(element.max_value))
    return `Please enter a number of at most ${element.max_value}.`;
  return null;
}

/**
 * When an input block sends `block_actions` before the view is submitted: never without `dispatch_action: true`;
 * a menu on each choice; a text or number input on the triggers of its `dispatch_action_config` (Enter pressed
 * unless it lists others).
 * @param {Json} block
 * @returns {string[]}
 */
export function dispatchTriggers(block) {
  if (block.dispatch_action !== true || !isObject(block.element)) return [];
  const { element } = block;
  if (element.type === 'static_select' || element.type === 'users_select') return ['on_choice'];
  const config = isObject(element.dispatch_action_config) ? element.dispatch_action_config : {};
  const triggers = Array.isArray(config.trigger_actions_on) ? config.trigger_actions_on : ['on_enter_pressed'];
  return triggers.filter((trigger) => trigger === 'on_enter_pressed' || trigger === 'on_character_entered');
}

/**
 * The inputs a person can fill in (input blocks holding a plain-text input, a static menu or a user menu, with
 * their ids).
 * @param {Json} view
 * @returns {ModalInput[]}
 */
function modalInputs(view) {
  const blocks = Array.isArray(view.blocks) ? view.blocks : [];
  return blocks.flatMap((block) => {
    if (!isObject(block) || block.type !== 'input' || !isObject(block.element)) return [];
    const { element } = block;
    if (typeof block.block_id !== 'string' || typeof element.action_id !== 'string') return [];
    if (typeof element.type !== 'string' || !FILLABLE.has(element.type)) return [];
    return [
      {
        blockId: block.block_id,
        actionId: element.action_id,
        type: element.type,
        optional: block.optional === true,
        minLength: typeof element.min_length === 'number' ? element.min_length : undefined,
        maxLength: typeof element.max_length === 'number' ? element.max_length : undefined,
        element,
      },
    ];
  });
}

/**
 * What Slack's client refuses before sending a submission, by block_id: a required input left empty, a text
 * shorter than its min_length or longer than its max_length, a number its number input does not take. Empty when
 * the form may be sent.
 * @param {Json} view
 * @param {Entered} entered
 * @returns {Record<string, string>}
 */
export function checkEntered(view, entered) {
  /** @type {Record<string, string>} */
  const errors = {};
  for (const input of modalInputs(view)) {
    const value = entered[input.blockId]?.[input.actionId] ?? '';
    if (value === '') {
      if (!input.optional) errors[input.blockId] = REQUIRED_FIELD;
      continue;
    }
    const notANumber = input.type === 'number_input' ? numberProblem(value, input.element) : null;
    if (notANumber !== null) errors[input.blockId] = notANumber;
    else if (input.minLength !== undefined && value.length < input.minLength)
      errors[input.blockId] = `Please enter at least ${input.minLength} characters.`;
    else if (input.maxLength !== undefined && value.length > input.maxLength)
      errors[input.blockId] = `Please enter no more than ${input.maxLength} characters.`;
  }
  return errors;
}

/**
 * A user menu (`users_select`) as Slack's client draws it: every person of the workspace, by name, the member id
 * as the value (what Slack sends as `selected_user`); the placeholder chosen until someone picks, or the
 * `initial_user` when the view names one.
 * @param {Json} element
 * @param {Record<string, string | undefined>} attrs
 * @param {string | undefined} chosen
 * @param {import('./mrkdwn.js').Directory | undefined} directory
 * @returns {Tree}
 */
function usersSelectTree(element, attrs, chosen, directory) {
  const placeholder = plainText(element.placeholder)?.text ?? 'Select a user';
  const initial = chosen ?? (typeof element.initial_user === 'string' ? element.initial_user : undefined);
  const people = [...(directory?.users ?? new Map()).entries()].sort(([, a], [, b]) =>
    String(a.name).localeCompare(String(b.name)),
  );
  return el(
    'select',
    { class: 'bk-select modal-control', 'aria-label': placeholder, 'data-users-select': '', ...attrs },
    el('option', { value: '', disabled: '', selected: initial === undefined ? '' : undefined }, placeholder),
    ...people.map(([id, user]) =>
      el('option', { value: id, selected: id === initial ? '' : undefined }, String(user.name)),
    ),
  );
}

/**
 * A conversations menu (`conversations_select`) as Slack's client draws it: the workspace's channels by name (its
 * `filter` keeping public and private ones; a DM only when `im` is included), the channel id as the value (what
 * Slack sends as `selected_conversation`).
 * @param {Json} element
 * @param {Record<string, string | undefined>} attrs
 * @param {string | undefined} chosen
 * @param {import('./mrkdwn.js').Directory | undefined} directory
 * @returns {Tree}
 */
function conversationsSelectTree(element, attrs, chosen, directory) {
  const placeholder = plainText(element.placeholder)?.text ?? 'Select a conversation';
  const include =
    isObject(element.filter) && Array.isArray(element.filter.include) ? element.filter.include : undefined;
  const initial =
    chosen ?? (typeof element.initial_conversation === 'string' ? element.initial_conversation : undefined);
  const channels = [...(directory?.channels ?? new Map()).entries()].filter(
    ([id]) => include === undefined || !id.startsWith('D') || include.includes('im'),
  );
  return el(
    'select',
    { class: 'bk-select modal-control', 'aria-label': placeholder, 'data-conversations-select': '', ...attrs },
    el('option', { value: '', disabled: '', selected: initial === undefined ? '' : undefined }, placeholder),
    ...channels.map(([id, channel]) =>
      el('option', { value: id, selected: id === initial ? '' : undefined }, String(channel.name ?? id)),
    ),
  );
}

/**
 * One input block as a form field: label (and "(optional)"), the control, its hint, and the error the app or the
 * client named for it.
 * @param {Json} block
 * @param {string} modalId
 * @param {{ entered: Entered, errors: Record<string, string>, directory?: import('./mrkdwn.js').Directory | undefined }} state
 * @returns {Tree}
 */
function inputTree(block, modalId, { entered, errors, directory }) {
  const element = block.element;
  if (!isObject(element) || typeof block.block_id !== 'string' || typeof element.action_id !== 'string')
    return rawTree(block, 'input without a block_id, or an element without an action_id');
  const blockId = block.block_id;
  const actionId = element.action_id;
  const id = `modal-${modalId}-${blockId}`;
  const error = errors[blockId];
  const typed = entered[blockId]?.[actionId];
  const attrs = {
    id,
    name: blockId,
    'data-testid': `modal-input-${blockId}`,
    'data-block-id': blockId,
    'data-action-id': actionId,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    required: block.optional === true ? undefined : '',
    // The page sends block_actions on these (app.js); none unless the block has dispatch_action: true.
    'data-dispatch': dispatchTriggers(block).join(' ') || undefined,
  };
  /** @type {Tree} */
  let control;
  if (element.type === 'plain_text_input') {
    const placeholder = plainText(element.placeholder)?.text;
    const value = typed ?? (typeof element.initial_value === 'string' ? element.initial_value : '');
    const lengths = {
      maxlength: typeof element.max_length === 'number' ? String(element.max_length) : undefined,
      minlength: typeof element.min_length === 'number' ? String(element.min_length) : undefined,
      placeholder,
    };
    control =
      element.multiline === true
        ? el('textarea', { class: 'modal-control', rows: '4', ...attrs, ...lengths }, value)
        : el('input', { class: 'modal-control', type: 'text', value, ...attrs, ...lengths });
  } else if (element.type === 'number_input') {
    // Slack's number input: a one-line field that takes numbers only (checked on submit, as Slack's client does).
    const placeholder = plainText(element.placeholder)?.text;
    const value = typed ?? (typeof element.initial_value === 'string' ? element.initial_value : '');
    control = el('input', {
      class: 'modal-control',
      type: 'text',
      inputmode: element.is_decimal_allowed === true ? 'decimal' : 'numeric',
      'data-number-input': '',
      value,
      placeholder,
      ...attrs,
    });
  } else if (element.type === 'static_select') {
    try {
      control = selectTree(element, { ...attrs, class: 'bk-select modal-control' }, typed === '' ? undefined : typed);
    } catch (error) {
      return rawTree(block, error instanceof Error ? error.message : String(error));
    }
  } else if (element.type === 'users_select') {
    control = usersSelectTree(element, attrs, typed === '' ? undefined : typed, directory);
  } else if (element.type === 'conversations_select') {
    control = conversationsSelectTree(element, attrs, typed === '' ? undefined : typed, directory);
  } else {
    return rawTree(
      block,
      `this workspace fills in plain-text and number inputs, static, user and conversation menus, not ${String(element.type)}`,
    );
  }
  return el(
    'div',
    { class: `modal-field${error ? ' has-error' : ''}`, 'data-block-id': blockId },
    el(
      'label',
      { class: 'modal-label', for: id },
      plainChild(block.label, blockId),
      block.optional === true ? el('span', { class: 'modal-optional' }, ' (optional)') : null,
    ),
    control,
    block.hint !== undefined ? el('div', { class: 'modal-hint' }, plainChild(block.hint, '')) : null,
    error
      ? el(
          'div',
          { class: 'modal-error', id: `${id}-error`, 'data-testid': `modal-error-${blockId}`, role: 'alert' },
          error,
        )
      : null,
  );
}

/**
 * The modal as Slack's client draws it, over the page. `entered` keeps what the person typed across redraws (an
 * error shown, the view updated with the same input ids); `problem` is a line about the whole form (the bot's
 * answer could not be used, say).
 * @param {Modal} modal
 * @param {{
 *   directory?: import('./mrkdwn.js').Directory | undefined, errors?: Record<string, string> | undefined,
 *   entered?: Entered | undefined, problem?: string | null | undefined, busy?: boolean | undefined,
 * }} [options]
 * @returns {Tree}
 */
export function modalTree(modal, options = {}) {
  const { view } = modal;
  const state = { entered: options.entered ?? {}, errors: options.errors ?? {}, directory: options.directory };
  const blocks = Array.isArray(view.blocks) ? view.blocks : [];
  const body = blocks.map((block) =>
    isObject(block) && block.type === 'input'
      ? inputTree(block, modal.id, state)
      : // Anything else is drawn as in a message (a button there is shown, but this workspace does not send it).
        blockTree(block, { entryId: `view:${modal.id}`, directory: options.directory }),
  );
  const titleId = `modal-title-${modal.id}`;
  const closeLabel = plainText(view.close)?.text ?? 'Cancel';
  return el(
    'div',
    { class: 'modal-backdrop', 'data-testid': 'modal-backdrop' },
    el(
      'form',
      {
        class: 'modal',
        'data-testid': 'modal',
        'data-view-id': modal.id,
        'data-callback-id': typeof view.callback_id === 'string' ? view.callback_id : undefined,
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': titleId,
        'aria-busy': options.busy ? 'true' : undefined,
        novalidate: '',
      },
      el(
        'div',
        { class: 'modal-head' },
        el('h2', { class: 'modal-title', id: titleId, 'data-testid': 'modal-title' }, plainChild(view.title, 'Modal')),
        el('button', { type: 'button', class: 'modal-x', 'data-modal-close': '', 'aria-label': closeLabel }, '×'),
      ),
      el('div', { class: 'modal-body' }, ...body),
      options.problem
        ? el('div', { class: 'modal-problem', 'data-testid': 'modal-problem', role: 'alert' }, options.problem)
        : null,
      el(
        'div',
        { class: 'modal-foot' },
        el(
          'button',
          { type: 'button', class: 'bk-btn', 'data-testid': 'modal-close', 'data-modal-close': '' },
          plainChild(view.close, 'Cancel'),
        ),
        // Slack shows Submit only when the view has one (it requires one when there are inputs).
        view.submit !== undefined
          ? el(
              'button',
              {
                type: 'submit',
                class: 'bk-btn bk-btn-primary',
                'data-testid': 'modal-submit',
                disabled: options.busy ? '' : undefined,
              },
              plainChild(view.submit, 'Submit'),
            )
          : null,
      ),
    ),
  );
}
