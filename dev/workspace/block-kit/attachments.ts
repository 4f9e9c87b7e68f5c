// Legacy secondary attachments, as chat.postMessage checks them.
import { validateBlocks } from './blocks.js';
import { ATTACHMENT_LIMITS, type BlockKitProblem } from './limits.js';
import { isRecord } from './primitives.js';

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
