// Slack's back-pressure: after `ratelimited` with Retry-After, the alert poster leaves that channel alone until
// the time is up (per channel), instead of trying again at every poll. Real WebClient, stand-in over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlackStandIn, type SlackStandIn } from '../support/rig/slack-stand-in.js';
import { createAlertPoster, createAlertSlackClient, describeSlackError } from '../../src/poller/slack.js';

const TOKEN = 'xoxb-retry-after';
let slack: SlackStandIn;
beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: TOKEN });
});
afterAll(() => slack.close());

describe('alert poster and Retry-After', () => {
  it('after ratelimited with Retry-After: 30, no call reaches Slack for 30 s on that channel; other channels post', async () => {
    let clock = 1_000_000;
    const poster = createAlertPoster(createAlertSlackClient({ token: TOKEN, slackApiUrl: slack.apiUrl, timeoutMs: 1_000 }), { nowMs: () => clock });
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 30 });
    const first = await poster.post('C_ALERTS', { text: 'first' }).catch((error: unknown) => error);
    expect(describeSlackError(first)).toBe('ratelimited (retry after 30 s)');
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);

    // Six polls within the next 10 seconds: none of them reaches Slack.
    for (let i = 0; i < 6; i++) {
      clock += 1_600;
      const error = await poster.post('C_ALERTS', { text: `retry ${i}` }).catch((e: unknown) => e);
      expect(describeSlackError(error)).toMatch(/^ratelimited \(waiting \d+ s more, as Slack asked\)$/);
    }
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);

    // Another channel is not held back.
    await poster.post('C_OTHER', { text: 'other channel' });
    expect(slack.callsOf('chat.postMessage')).toHaveLength(2);

    // Once the 30 s have passed, the alert goes out.
    clock += 30_000;
    await poster.post('C_ALERTS', { text: 'after the wait' });
    expect(slack.messages('C_ALERTS').map((m) => m.text)).toEqual(['after the wait']);
  });
});
