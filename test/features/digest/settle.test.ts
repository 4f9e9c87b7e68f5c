// A digest post whose answer was lost: recorded when found in the channel, posted again only when it is still not
// there once Slack has had 2 minutes to carry the first attempt out, or when the channel cannot be read.
import { describe, expect, it } from 'vitest';
import { settleDigestPost } from '../../../src/features/digest/service.js';

const MINUTE = 60_000;

describe('settling a digest whose answer was lost', () => {
  it.each([
    [{ ts: '1.1' }, 0, { record: '1.1' }, 'found: recorded, never posted again'],
    ['absent', 1.9 * MINUTE, 'wait', 'not there yet: Slack may still be carrying it out'],
    ['absent', 2 * MINUTE, 'post_again', 'still not there after 2 minutes'],
    ['unreadable', 0, 'post_again', 'the channel cannot be read: a rare duplicate rather than no digest'],
    ['failed', 14 * MINUTE, 'wait', 'Slack cannot answer the lookup now'],
    ['failed', 15 * MINUTE, 'post_again', 'nor for 15 minutes'],
  ] as const)('%j after %d ms → %j (%s)', (found, age, decision, _why) => {
    expect(settleDigestPost(found, age)).toEqual(decision);
  });
});
