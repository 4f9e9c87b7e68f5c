import { randomUUID } from 'node:crypto';
import type { BlockButtonAction } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { isQuoteId, refuseClickOrigin } from '../src/features/swaps/approval.js';
import { clickOrigin } from '../src/features/swaps/listeners.js';

describe('which button values are quote ids', () => {
  it.each([
    [randomUUID(), true],
    ['6f1c2a34-8b7d-4e21-9c3f-0a1b2c3d4e5f', true],
    ['6F1C2A34-8B7D-4E21-9C3F-0A1B2C3D4E5F', false],
    ['6f1c2a34-8b7d-4e21-9c3f-0a1b2c3d4e5f\n', false],
    [' 6f1c2a34-8b7d-4e21-9c3f-0a1b2c3d4e5f', false],
    ['__proto__', false],
    ['constructor', false],
    ['toString', false],
    ['', false],
    ['x'.repeat(10_000), false],
  ])('%j → %s', (value, expected) => {
    expect(isQuoteId(value)).toBe(expected);
  });
});

describe('which clicks may act on a quote', () => {
  const quote = { channelId: 'C1', messageTs: '1700000000.000100' };
  it.each([
    ['its own message', quote, { channelId: 'C1', messageTs: '1700000000.000100' }, undefined],
    [
      'another message in the channel',
      quote,
      { channelId: 'C1', messageTs: '1700000000.000200' },
      "the click comes from another message than the quote's own",
    ],
    [
      'the same ts in another channel',
      quote,
      { channelId: 'C2', messageTs: '1700000000.000100' },
      "the click comes from another message than the quote's own",
    ],
    ['no message', quote, { channelId: 'C1' }, 'the click carries no message'],
    ['no channel', quote, { messageTs: '1700000000.000100' }, 'the click carries no message'],
    [
      'a quote whose message was never recorded',
      { channelId: 'C1' },
      { channelId: 'C1', messageTs: '1700000000.000100' },
      'the quote has no recorded message',
    ],
  ])('%s', (_name, record, origin, expected) => {
    expect(refuseClickOrigin(record, origin)).toBe(expected);
  });
});

describe('where a click comes from', () => {
  const body = (fields: Record<string, unknown>) => fields as unknown as BlockButtonAction;
  it.each([
    [
      'channel and message',
      { channel: { id: 'C1' }, message: { ts: '1.1' }, container: { channel_id: 'C1', message_ts: '1.1' } },
      { channelId: 'C1', messageTs: '1.1' },
    ],
    [
      'the container alone',
      { container: { channel_id: 'C1', message_ts: '1.1' } },
      { channelId: 'C1', messageTs: '1.1' },
    ],
    [
      'places that disagree name no message',
      { channel: { id: 'C1' }, message: { ts: '1.1' }, container: { channel_id: 'C2', message_ts: '1.2' } },
      { channelId: undefined, messageTs: undefined },
    ],
    ['nothing', {}, { channelId: undefined, messageTs: undefined }],
    [
      'not strings',
      { channel: { id: 5 }, container: { message_ts: ['1.1'] } },
      { channelId: undefined, messageTs: undefined },
    ],
  ])('%s', (_name, fields, expected) => {
    expect(clickOrigin(body(fields))).toEqual(expected);
  });
});
