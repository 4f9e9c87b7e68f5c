import { expect } from 'vitest';
import type { SlackMessage } from '../../src/blocks/common.js';
import { blocksTextLength, describeProblem, validateBlocks } from './rig/block-kit-validation.js';

/**
 * Asserts a message passes Slack's Block Kit rules (the stand-in's validator: block, element and text limits,
 * unique ids) and keeps a margin under the undocumented whole-message limit (`msg_blocks_too_long`).
 */
export function expectWithinSlackLimits(message: SlackMessage): void {
  expect(validateBlocks(message.blocks).map(describeProblem)).toEqual([]);
  // The blocks of attachments (alerts' colour bars) follow the same rules, and count towards the same total.
  const attached = (message.attachments ?? []).flatMap((attachment) => attachment.blocks);
  for (const attachment of message.attachments ?? []) {
    expect(validateBlocks(attachment.blocks).map(describeProblem)).toEqual([]);
    expect(attachment.color).toMatch(/^#[0-9A-F]{6}$/i);
  }
  // Slack refuses messages somewhere around 11-13k characters of block text: builders keep under 10k.
  expect(blocksTextLength([...message.blocks, ...attached])).toBeLessThan(10_000);
  // chat.postMessage: "limit the number of characters in the text field to 4,000 characters".
  expect(message.text.length).toBeLessThan(4_000);
}
