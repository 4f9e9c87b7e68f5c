// Block elements: buttons and their confirmation dialogs, images, plain-text and number inputs, static selects
// (with option groups) and when an input dispatches actions.
import { MESSAGE_LIMITS, MODAL_LIMITS } from './limits.js';
import { checkArray, checkEnum, checkString, checkText, isRecord, type Json, type Problems } from './primitives.js';

/** "Actions block": buttons, select menus, overflow menus, date/time pickers, checkboxes, radio buttons, workflow buttons. */
export const ACTIONS_ELEMENT_TYPES = new Set([
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
/** "Input block": the elements an input may hold. */
export const INPUT_ELEMENT_TYPES = new Set([
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
/** "Section block": the accessory can be any of those, or an image. */
export const ACCESSORY_TYPES = new Set([...ACTIONS_ELEMENT_TYPES, 'image']);
const STYLES = ['primary', 'danger'];

/** An interactive element (or an image accessory); `actionIds` collects the ids already used in the block. */
export function checkElement(
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
  if (element.type === 'users_select') checkUsersSelect(element, pointer, problems);
  if (element.type === 'number_input') checkNumberInput(element, pointer, problems);
  checkDispatchActionConfig(element, pointer, problems);
}

/** "User select menu element": a plain_text placeholder ≤ 150; `initial_user`, when given, a member id. */
function checkUsersSelect(select: Json, pointer: string, problems: Problems): void {
  if (select.placeholder !== undefined) {
    checkText(
      select.placeholder,
      `${pointer}/placeholder`,
      { max: MODAL_LIMITS.placeholder, plainOnly: true },
      problems,
    );
  }
  if (
    select.initial_user !== undefined &&
    (typeof select.initial_user !== 'string' || !/^[UW][A-Z0-9]{2,}$/.test(select.initial_user))
  )
    problems.push({ pointer: `${pointer}/initial_user`, message: 'must be a user ID' });
}

/** "Plain-text input element": lengths within 0–3,000, min ≤ max, an initial value and placeholder within them. */
export function checkPlainTextInput(input: Json, pointer: string, problems: Problems): void {
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

/**
 * "Select menu element" (static): a placeholder, and either `options` (1–100) or `option_groups` (never both). "Option
 * group object": a plain_text label ≤ 75 and 1–100 options; "an option_groups array can have a maximum number of 100
 * option groups with a maximum of 100 options" (counted over all groups). Each option plain_text ≤ 75 with a value
 * ≤ 150, values unique in the menu; an `initial_option` must be one of them.
 */
function checkStaticSelect(select: Json, pointer: string, problems: Problems): void {
  if (select.placeholder !== undefined) {
    checkText(
      select.placeholder,
      `${pointer}/placeholder`,
      { max: MODAL_LIMITS.placeholder, plainOnly: true },
      problems,
    );
  }
  if (select.options !== undefined && select.option_groups !== undefined) {
    problems.push({ pointer, message: 'must provide either options or option_groups, not both' });
    return;
  }
  const all: Array<{ option: unknown; at: string }> = [];
  if (select.option_groups !== undefined) {
    const groups = checkArray(select.option_groups, `${pointer}/option_groups`, MODAL_LIMITS.optionGroups, problems);
    groups?.forEach((group, g) => {
      const at = `${pointer}/option_groups/${g}`;
      if (!isRecord(group)) {
        problems.push({ pointer: at, message: 'must be an object' });
        return;
      }
      if (group.label === undefined) problems.push({ pointer: at, message: 'missing required field: label' });
      else checkText(group.label, `${at}/label`, { max: MODAL_LIMITS.optionGroupLabel, plainOnly: true }, problems);
      if (group.options === undefined) {
        problems.push({ pointer: at, message: 'missing required field: options' });
        return;
      }
      const options = checkArray(group.options, `${at}/options`, MODAL_LIMITS.selectOptions, problems);
      for (const [i, option] of (options ?? []).entries()) all.push({ option, at: `${at}/options/${i}` });
    });
    if (all.length > MODAL_LIMITS.selectOptions)
      problems.push({
        pointer: `${pointer}/option_groups`,
        message: `no more than ${MODAL_LIMITS.selectOptions} options allowed across all option groups`,
      });
  } else {
    if (select.options === undefined) {
      problems.push({ pointer, message: 'missing required field: options' });
      return;
    }
    const options = checkArray(select.options, `${pointer}/options`, MODAL_LIMITS.selectOptions, problems);
    for (const [i, option] of (options ?? []).entries()) all.push({ option, at: `${pointer}/options/${i}` });
  }
  const values = new Set<string>();
  for (const { option, at } of all) {
    checkOption(option, at, problems);
    if (isRecord(option) && typeof option.value === 'string') {
      if (values.has(option.value))
        problems.push({ pointer: `${at}/value`, message: `duplicate option value: ${option.value}` });
      values.add(option.value);
    }
  }
  if (select.initial_option !== undefined) {
    const initial = select.initial_option;
    checkOption(initial, `${pointer}/initial_option`, problems);
    if (isRecord(initial) && typeof initial.value === 'string' && !values.has(initial.value))
      problems.push({ pointer: `${pointer}/initial_option`, message: 'must match one of the options' });
  }
}

/** "Option object": a plain_text text ≤ 75 and a value of 1–150 characters. */
function checkOption(option: unknown, at: string, problems: Problems): void {
  if (!isRecord(option)) {
    problems.push({ pointer: at, message: 'must be an object' });
    return;
  }
  if (option.text === undefined) problems.push({ pointer: at, message: 'missing required field: text' });
  else checkText(option.text, `${at}/text`, { max: MODAL_LIMITS.optionText, plainOnly: true }, problems);
  if (option.value === undefined) problems.push({ pointer: at, message: 'missing required field: value' });
  else checkString(option.value, `${at}/value`, MODAL_LIMITS.optionValue, problems, 1);
}

/** A decimal number as Slack's number input takes it in `min_value`, `max_value`, `initial_value` and typed text. */
const NUMBER_TEXT = /^-?(\d+(\.\d+)?|\.\d+)$/;

/**
 * "Number input element": `is_decimal_allowed` (required, a boolean); `initial_value`, `min_value`, `max_value` are
 * strings holding numbers (whole unless decimals are allowed); min "cannot be greater than max_value"; the initial
 * value within them; a plain_text placeholder ≤ 150.
 */
function checkNumberInput(input: Json, pointer: string, problems: Problems): void {
  if (input.is_decimal_allowed === undefined)
    problems.push({ pointer, message: 'missing required field: is_decimal_allowed' });
  else if (typeof input.is_decimal_allowed !== 'boolean')
    problems.push({ pointer: `${pointer}/is_decimal_allowed`, message: 'must be a boolean' });
  const decimals = input.is_decimal_allowed === true;
  const read = (field: 'initial_value' | 'min_value' | 'max_value'): number | undefined => {
    const value = input[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      problems.push({ pointer: `${pointer}/${field}`, message: 'must be a string' });
      return undefined;
    }
    const problem = numberInputProblem(value, { decimals });
    if (problem !== undefined) {
      problems.push({ pointer: `${pointer}/${field}`, message: problem });
      return undefined;
    }
    return Number(value);
  };
  const min = read('min_value');
  const max = read('max_value');
  const initial = read('initial_value');
  if (min !== undefined && max !== undefined && min > max)
    problems.push({ pointer: `${pointer}/min_value`, message: 'must not be greater than max_value' });
  if (initial !== undefined && ((min !== undefined && initial < min) || (max !== undefined && initial > max)))
    problems.push({ pointer: `${pointer}/initial_value`, message: 'must be between min_value and max_value' });
  if (input.placeholder !== undefined)
    checkText(
      input.placeholder,
      `${pointer}/placeholder`,
      { max: MODAL_LIMITS.placeholder, plainOnly: true },
      problems,
    );
}

/**
 * Why Slack's number input would not take `text` (not a number, a decimal where only whole numbers are allowed,
 * outside min/max), or undefined when it would. Slack's client shows this under the field and does not submit.
 */
export function numberInputProblem(
  text: string,
  rule: { decimals: boolean; min?: string | undefined; max?: string | undefined },
): string | undefined {
  if (!NUMBER_TEXT.test(text)) return 'must be a number';
  if (!rule.decimals && text.includes('.')) return 'must be a whole number';
  const value = Number(text);
  if (rule.min !== undefined && NUMBER_TEXT.test(rule.min) && value < Number(rule.min))
    return `must be at least ${rule.min}`;
  if (rule.max !== undefined && NUMBER_TEXT.test(rule.max) && value > Number(rule.max))
    return `must be at most ${rule.max}`;
  return undefined;
}

/** Inputs that take `dispatch_action_config` ("Dispatch action configuration object"; the number, email and URL inputs list it too). */
const DISPATCHING_TEXT_INPUTS = new Set([
  'plain_text_input',
  'rich_text_input',
  'number_input',
  'email_text_input',
  'url_text_input',
]);
/** `trigger_actions_on`: "one or both of" these. */
const DISPATCH_TRIGGERS = ['on_enter_pressed', 'on_character_entered'] as const;

/** "Dispatch action configuration object", on an element that takes it: one or both triggers, each once. */
function checkDispatchActionConfig(element: Json, pointer: string, problems: Problems): void {
  if (element.dispatch_action_config === undefined) return;
  const at = `${pointer}/dispatch_action_config`;
  if (typeof element.type === 'string' && !DISPATCHING_TEXT_INPUTS.has(element.type)) {
    problems.push({ pointer: at, message: `not allowed on ${element.type}` });
    return;
  }
  const config = element.dispatch_action_config;
  if (!isRecord(config)) {
    problems.push({ pointer: at, message: 'must be an object' });
    return;
  }
  if (config.trigger_actions_on === undefined) return;
  const triggers = checkArray(
    config.trigger_actions_on,
    `${at}/trigger_actions_on`,
    DISPATCH_TRIGGERS.length,
    problems,
  );
  const seen = new Set<unknown>();
  triggers?.forEach((trigger, i) => {
    checkEnum(trigger, `${at}/trigger_actions_on/${i}`, DISPATCH_TRIGGERS, problems);
    if (seen.has(trigger))
      problems.push({ pointer: `${at}/trigger_actions_on/${i}`, message: `duplicate trigger: ${String(trigger)}` });
    seen.add(trigger);
  });
}

/** "Button element": plain_text text, value, url, style, accessibility label and confirmation dialog. */
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
export function checkImage(image: Json, pointer: string, problems: Problems, isBlock: boolean): void {
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
