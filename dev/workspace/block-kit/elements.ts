// Block elements: buttons and their confirmation dialogs, images, plain-text inputs and static selects.
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
}

/** "User select menu element": a plain_text placeholder ≤ 150; `initial_user`, when given, a member id. */
export function checkUsersSelect(select: Json, pointer: string, problems: Problems): void {
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

/** "Select menu element" (static): a placeholder and 1–100 options, each plain_text ≤ 75 with a value ≤ 150. */
export function checkStaticSelect(select: Json, pointer: string, problems: Problems): void {
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

/** "Button element": plain_text text, value, url, style, accessibility label and confirmation dialog. */
export function checkButton(button: Json, pointer: string, problems: Problems): void {
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
export function checkConfirm(confirm: unknown, pointer: string, problems: Problems): void {
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
