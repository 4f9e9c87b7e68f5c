// Blocks as Slack checks them in a message, a modal or a Home tab: sections, headers, context, actions, inputs.
import {
  ACCESSORY_TYPES,
  ACTIONS_ELEMENT_TYPES,
  checkElement,
  checkImage,
  checkPlainTextInput,
  INPUT_ELEMENT_TYPES,
} from './elements.js';
import { type BlockKitProblem, MESSAGE_LIMITS, MODAL_LIMITS } from './limits.js';
import { charCount, checkArray, checkString, checkText, isRecord, type Json, type Problems } from './primitives.js';

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

/** "Input block": a plain_text label (≤ 2,000), one element, an optional hint, `optional` and `dispatch_action` flags. */
function checkInput(block: Json, pointer: string, problems: Problems): void {
  if (block.label === undefined) problems.push({ pointer, message: 'missing required field: label' });
  else checkText(block.label, `${pointer}/label`, { max: MODAL_LIMITS.inputLabel, plainOnly: true }, problems);
  if (block.hint !== undefined) {
    checkText(block.hint, `${pointer}/hint`, { max: MODAL_LIMITS.inputHint, plainOnly: true }, problems);
  }
  if (block.optional !== undefined && typeof block.optional !== 'boolean') {
    problems.push({ pointer: `${pointer}/optional`, message: 'must be a boolean' });
  }
  // "dispatch_action: A boolean that indicates whether or not the use of elements in this block should dispatch a
  // block_actions payload. Defaults to false."
  if (block.dispatch_action !== undefined && typeof block.dispatch_action !== 'boolean') {
    problems.push({ pointer: `${pointer}/dispatch_action`, message: 'must be a boolean' });
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
