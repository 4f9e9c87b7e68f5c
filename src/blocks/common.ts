import type { types } from '@slack/bolt';
import { clipText } from '../kernel/text.js';

/** A Block Kit block as Slack's own types define it. */
export type Block = types.KnownBlock;
/** A button element. */
export type Button = types.Button;

/** What every builder returns: blocks plus the plain-text fallback Slack shows in notifications. */
export interface SlackMessage {
  text: string;
  blocks: Block[];
  /** Secondary content beside a colour bar (`#RRGGBB`): alerts use it to tell open from handled at a glance. */
  attachments?: { color: string; blocks: Block[]; fallback?: string }[];
}

/** Slack's Block Kit limits (api.slack.com/reference/block-kit): builders stay inside them so a message never fails to post. */
export const LIMITS = {
  blocksPerMessage: 50,
  sectionText: 3000,
  headerText: 150,
  fieldText: 2000,
  fieldsPerSection: 10,
  buttonText: 75,
  buttonValue: 2000,
  contextElements: 10,
  /** Block text of a whole list. Slack refuses a message (`msg_blocks_too_long`) somewhere past ~11k. */
  listText: 8000,
} as const;

/** The one way to cut text, ending with "…" (kernel/text.ts), re-exported for the builders. */
export { clipText };

/** A header block (plain text, at most 150 characters). */
export function header(text: string): Block {
  return { type: 'header', text: { type: 'plain_text', text: clipText(text, LIMITS.headerText), emoji: true } };
}

/** A mrkdwn section; text is clipped to Slack's 3000 characters. */
export function section(text: string, accessory?: Button): Block {
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: clipText(text, LIMITS.sectionText) },
    ...(accessory ? { accessory } : {}),
  };
}

/** A section of label/value fields, two columns; at most 10 fields. */
export function fields(pairs: ReadonlyArray<readonly [label: string, value: string]>): Block {
  return {
    type: 'section',
    fields: pairs.slice(0, LIMITS.fieldsPerSection).map(([label, value]) => ({
      type: 'mrkdwn' as const,
      text: clipText(`*${label}*\n${value}`, LIMITS.fieldText),
    })),
  };
}

/** A grey context line. */
export function context(...texts: string[]): Block {
  return {
    type: 'context',
    elements: texts
      .slice(0, LIMITS.contextElements)
      .map((text) => ({ type: 'mrkdwn' as const, text: clipText(text, LIMITS.sectionText) })),
  };
}

/** A button; the value must fit Slack's 2000 characters (checked, since it carries state such as cursors). */
export function button(
  text: string,
  actionId: string,
  value: string,
  options: { style?: 'primary' | 'danger'; url?: string; confirm?: types.ConfirmationDialog } = {},
): Button {
  if (value.length > LIMITS.buttonValue) throw new RangeError(`button value too long for ${actionId}`);
  return {
    type: 'button',
    text: { type: 'plain_text', text: clipText(text, LIMITS.buttonText), emoji: true },
    action_id: actionId,
    value,
    ...(options.style ? { style: options.style } : {}),
    ...(options.url ? { url: options.url } : {}),
    ...(options.confirm ? { confirm: options.confirm } : {}),
  };
}

/** An actions block, or nothing when there are no buttons. */
export function actions(buttons: Button[], blockId?: string): Block[] {
  if (buttons.length === 0) return [];
  // Slack answers `invalid_blocks` when two elements of one block share an action_id: fail at build time instead.
  const ids = buttons.map((b) => b.action_id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new RangeError(`two buttons share the action_id ${repeated} in one actions block`);
  return [{ type: 'actions', elements: buttons.slice(0, 25), ...(blockId ? { block_id: blockId } : {}) }];
}

/**
 * Packs lines into as few sections as possible, each under Slack's section limit, so a long list becomes
 * several sections instead of a clipped or refused message. Lines past the whole message's budget are
 * counted instead of shown, so even extreme data never makes Slack refuse the message.
 */
export function linesToSections(lines: readonly string[], separator = '\n'): Block[] {
  const blocks: Block[] = [];
  let current = '';
  let total = 0;
  const max = LIMITS.sectionText - 100;
  for (const [index, line] of lines.entries()) {
    if (total + line.length > LIMITS.listText) {
      const rest = `_…and ${lines.length - index} more not shown: the message would be too long for Slack._`;
      if (current) blocks.push(section(current));
      blocks.push(section(rest));
      return blocks;
    }
    total += line.length + separator.length;
    const candidate = current ? `${current}${separator}${line}` : line;
    if (candidate.length > max && current) {
      blocks.push(section(current));
      current = line;
    } else {
      current = candidate;
    }
  }
  if (current) blocks.push(section(current));
  return blocks;
}

/**
 * The state of the "Next page" button for a list whose API page (fixed at 50) is shown in slices:
 * the next slice of the same page, else the first slice of the next cursor page, else nothing.
 */
export function nextSlice<T extends { cursor: string | null; offset: number }>(
  state: T,
  page: { items: readonly unknown[]; cursorNext: string | null },
  sliceSize: number,
): T | undefined {
  const nextOffset = state.offset + sliceSize;
  if (nextOffset < page.items.length) return { ...state, offset: nextOffset };
  if (page.cursorNext) return { ...state, cursor: page.cursorNext, offset: 0 };
  return undefined;
}
