/** A button found in Block Kit, flattened for assertions. */
export interface FoundButton {
  actionId: string;
  value: string | undefined;
  blockId: string | undefined;
  text: string;
  style: string | undefined;
  url: string | undefined;
  confirm: unknown;
}

type Json = Record<string, unknown>;

/** All human-visible text in blocks (headers, sections and fields, context, buttons, rich text), one per line. */
export function blocksToText(blocks: readonly unknown[] | null | undefined): string {
  const lines: string[] = [];
  const push = (text: string | undefined): void => {
    if (text !== undefined && text !== '') lines.push(text);
  };
  for (const block of records(blocks)) {
    switch (block.type) {
      case 'header':
      case 'markdown':
        push(textOf(block.text));
        break;
      case 'section':
        push(textOf(block.text));
        for (const field of records(block.fields)) push(textOf(field));
        push(elementText(block.accessory));
        break;
      case 'context':
        // Images in context carry only alt text, which is not shown.
        for (const element of records(block.elements)) push(textOf(element));
        break;
      case 'actions':
        for (const element of records(block.elements)) push(elementText(element));
        break;
      case 'image':
        push(textOf(block.title));
        break;
      case 'input':
        push(textOf(block.label));
        break;
      case 'rich_text':
        push(richText(block.elements));
        break;
      default:
        break;
    }
  }
  return lines.join('\n');
}

/** Every button in blocks (actions blocks and section accessories), in order. */
export function findButtons(blocks: readonly unknown[] | null | undefined): FoundButton[] {
  const buttons: FoundButton[] = [];
  for (const block of records(blocks)) {
    const blockId = typeof block.block_id === 'string' ? block.block_id : undefined;
    const candidates =
      block.type === 'actions' ? records(block.elements) : block.type === 'section' ? records([block.accessory]) : [];
    for (const element of candidates) {
      if (element.type !== 'button') continue;
      buttons.push({
        actionId: typeof element.action_id === 'string' ? element.action_id : '',
        value: typeof element.value === 'string' ? element.value : undefined,
        blockId,
        text: textOf(element.text) ?? '',
        style: typeof element.style === 'string' ? element.style : undefined,
        url: typeof element.url === 'string' ? element.url : undefined,
        confirm: element.confirm,
      });
    }
  }
  return buttons;
}

// Buttons show their label; selects and pickers show their placeholder until chosen.
function elementText(element: unknown): string | undefined {
  if (!isRecord(element)) return undefined;
  if (element.type === 'button') return textOf(element.text);
  return textOf(element.placeholder);
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isRecord(value) && typeof value.text === 'string') return value.text;
  return undefined;
}

// Rich text nests sections, lists and quotes; leaves are text, links, emoji and mentions.
function richText(elements: unknown): string | undefined {
  const lines: string[] = [];
  for (const element of records(elements)) {
    if (Array.isArray(element.elements)) {
      const inner = records(element.elements).some((e) => Array.isArray(e.elements))
        ? richText(element.elements)
        : records(element.elements).map(richLeaf).join('');
      if (inner !== undefined && inner !== '') lines.push(inner);
    } else {
      lines.push(richLeaf(element));
    }
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

function richLeaf(leaf: Json): string {
  if (typeof leaf.text === 'string') return leaf.text;
  if (typeof leaf.url === 'string') return leaf.url;
  if (leaf.type === 'emoji' && typeof leaf.name === 'string') return `:${leaf.name}:`;
  if (leaf.type === 'user' && typeof leaf.user_id === 'string') return `<@${leaf.user_id}>`;
  if (leaf.type === 'channel' && typeof leaf.channel_id === 'string') return `<#${leaf.channel_id}>`;
  return '';
}

function records(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A button found in a whole message: in its blocks, or in one of its attachments (`attachmentId`, 1 first). */
export interface FoundMessageButton extends FoundButton {
  attachmentId: number | undefined;
}

/** A static menu found in a message (actions blocks and section accessories), with where it is. */
export interface FoundStaticSelect {
  blockId: string | undefined;
  element: Json;
  attachmentId: number | undefined;
}

/** Where a message's controls can be: its own blocks, then each attachment's blocks (numbered as Slack does). */
function blockGroups(message: {
  blocks?: readonly unknown[] | null | undefined;
  attachments?: readonly unknown[] | null | undefined;
}): Array<{ blocks: readonly unknown[] | null | undefined; attachmentId: number | undefined }> {
  const attachments = Array.isArray(message.attachments) ? message.attachments : [];
  return [
    { blocks: message.blocks, attachmentId: undefined },
    ...attachments.map((attachment, i) => ({
      blocks: isRecord(attachment) && Array.isArray(attachment.blocks) ? attachment.blocks : [],
      attachmentId: i + 1,
    })),
  ];
}

/** Every button in a message: its blocks first, then those of each attachment (alert controls live in one). */
export function findMessageButtons(message: {
  blocks?: readonly unknown[] | null | undefined;
  attachments?: readonly unknown[] | null | undefined;
}): FoundMessageButton[] {
  return blockGroups(message).flatMap(({ blocks, attachmentId }) =>
    findButtons(blocks).map((button) => ({ ...button, attachmentId })),
  );
}

/** Every static menu in a message: in its blocks, then in each attachment's. */
export function findMessageStaticSelects(message: {
  blocks?: readonly unknown[] | null | undefined;
  attachments?: readonly unknown[] | null | undefined;
}): FoundStaticSelect[] {
  return blockGroups(message).flatMap(({ blocks, attachmentId }) =>
    records(blocks).flatMap((block) => {
      const elements = block.type === 'actions' ? records(block.elements) : records([block.accessory]);
      return elements
        .filter((element) => element.type === 'static_select')
        .map((element) => ({
          blockId: typeof block.block_id === 'string' ? block.block_id : undefined,
          element,
          attachmentId,
        }));
    }),
  );
}

/** A whole message as a reader sees it: its own blocks, then the blocks of each attachment (alerts' colour bars). */
export function messageToText(message: {
  blocks?: readonly unknown[] | null;
  attachments?: readonly unknown[] | null;
}): string {
  const attachmentBlocks = records(message.attachments).flatMap((attachment) => records(attachment.blocks));
  return [blocksToText(message.blocks), blocksToText(attachmentBlocks)].filter((text) => text !== '').join('\n');
}
