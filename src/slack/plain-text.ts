/**
 * A message as plain mrkdwn text, for when Slack refuses its blocks (`invalid_blocks`, `msg_too_long`,
 * `msg_blocks_too_long`, `invalid_attachments`): the notification text, then the words of every block, so the facts
 * reach the person even when the layout does not. Pure: nothing here calls Slack.
 */

/** Slack displays up to 40,000 characters of `text`; a fallback stays far below, where nothing is truncated. */
const PLAIN_TEXT_MAX_CHARS = 3_500;

/** Said at the end of a fallback whose original had buttons: they are gone, and the person should know. */
export const BUTTONS_MISSING_NOTE =
  '_(Slack did not accept this message as designed, so it is shown as plain text and its buttons are missing.)_';

/** What a fallback is made from: the notification text and the blocks as the builders made them. */
export interface MessageForFallback {
  text: string;
  blocks?: readonly unknown[] | undefined;
  /** Attachments' blocks are read after the message's own. */
  attachments?: readonly { blocks?: readonly unknown[] }[] | undefined;
}

/**
 * The whole message as one mrkdwn text within {@link PLAIN_TEXT_MAX_CHARS}: `text` first (the builders put the
 * essential facts there: amounts, ids, status), then each block's words, and a note when buttons were lost.
 */
export function plainTextOf(message: MessageForFallback): string {
  const lines: string[] = [message.text];
  let hadButtons = false;
  const blocks = [...(message.blocks ?? []), ...(message.attachments ?? []).flatMap((a) => a.blocks ?? [])];
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    switch (block.type) {
      case 'header':
        // The notification text restates the header; repeating it would only push facts past the limit.
        break;
      case 'section':
        pushText(lines, block.text);
        if (Array.isArray(block.fields)) for (const field of block.fields) pushText(lines, field);
        if (isRecord(block.accessory) && block.accessory.type === 'button') hadButtons = true;
        break;
      case 'context':
        if (Array.isArray(block.elements)) {
          const parts = block.elements.map(textOf).filter((part): part is string => part !== undefined && part !== '');
          if (parts.length > 0) lines.push(parts.join(' · '));
        }
        break;
      case 'actions':
        if (Array.isArray(block.elements) && block.elements.length > 0) hadButtons = true;
        break;
      default:
        break;
    }
  }
  const unique = lines.filter((line, index) => line.trim() !== '' && lines.indexOf(line) === index);
  const note = hadButtons ? `\n${BUTTONS_MISSING_NOTE}` : '';
  return clip(unique.join('\n'), PLAIN_TEXT_MAX_CHARS - note.length) + note;
}

function pushText(lines: string[], value: unknown): void {
  const text = textOf(value);
  if (text !== undefined && text !== '') lines.push(text);
}

/** A text object's words as mrkdwn: mrkdwn as written, plain_text escaped (it is literal, `text` is not). */
function textOf(value: unknown): string | undefined {
  if (!isRecord(value) || typeof value.text !== 'string') return undefined;
  return value.type === 'plain_text' ? escapeMrkdwn(value.text) : value.text;
}

// slack/ depends on nothing of ours but the logger, so Slack's three control characters are escaped here too.
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  // Cut at a line end when one is near, never inside a `<…>` link or mention.
  let cut = text.slice(0, max - 1);
  const lineEnd = cut.lastIndexOf('\n');
  if (lineEnd > max * 0.8) cut = cut.slice(0, lineEnd);
  const open = cut.lastIndexOf('<');
  if (open > cut.lastIndexOf('>')) cut = cut.slice(0, open);
  return `${cut}…`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
