import { expect } from 'vitest';
import type { Block, SlackMessage } from '../../src/blocks/common.js';

/** Asserts every limit of Slack's Block Kit (STACK-NOTES' table) on one message. */
export function expectWithinSlackLimits(message: SlackMessage): void {
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  let total = 0;
  for (const block of message.blocks as Array<Block & Record<string, any>>) {
    if (block.type === 'header') expect(block.text.text.length).toBeLessThanOrEqual(150);
    if (block.type === 'section') {
      if (block.text) {
        expect(block.text.text.length).toBeLessThanOrEqual(3000);
        total += block.text.text.length;
      }
      expect((block.fields ?? []).length).toBeLessThanOrEqual(10);
      for (const field of block.fields ?? []) {
        expect(field.text.length).toBeLessThanOrEqual(2000);
        total += field.text.length;
      }
    }
    if (block.type === 'context') expect(block.elements.length).toBeLessThanOrEqual(10);
    if (block.type === 'actions') {
      expect(block.elements.length).toBeLessThanOrEqual(25);
      for (const button of block.elements as Array<{ text: { text: string }; action_id: string; value?: string }>) {
        expect(button.text.text.length).toBeLessThanOrEqual(75);
        expect(button.action_id.length).toBeLessThanOrEqual(255);
        expect((button.value ?? '').length).toBeLessThanOrEqual(2000);
      }
    }
    if (block.block_id) expect(block.block_id.length).toBeLessThanOrEqual(255);
  }
  // Slack refuses messages somewhere around 11-13k characters of block text.
  expect(total).toBeLessThan(10_000);
  expect(message.text.length).toBeLessThan(4_000);
}
