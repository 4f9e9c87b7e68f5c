// Slack's back-pressure as the poller meets it: after `ratelimited` with Retry-After, the alert poster (the
// gateway in its no-wait mode) leaves that channel alone until the time is up, per channel, instead of trying
// again at every poll, and never waits itself. Real WebClient, stand-in over HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAlertPoster } from '../../../../src/features/alerts/poller/slack.js';
import { createSlackGateway, createSlackWebClient, describeSlackError } from '../../../../src/slack/index.js';
import { type SlackStandIn, startSlackStandIn } from '../../../support/rig/slack-stand-in.js';

const TOKEN = 'xoxb-retry-after';
let slack: SlackStandIn;
beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: TOKEN });
});
afterAll(() => slack.close());
beforeEach(() => slack.reset());

/** The poster as the app builds it, on a clock the test moves; any wait the gateway asks for is recorded. */
function poster(clock: { ms: number }) {
  const sleeps: number[] = [];
  const gateway = createSlackGateway({
    client: createSlackWebClient({ token: TOKEN, slackApiUrl: slack.apiUrl, timeoutMs: 1_000 }),
    now: () => clock.ms,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  return { poster: createAlertPoster(gateway), sleeps };
}

describe('alert poster and Retry-After', () => {
  it('after ratelimited with Retry-After: 30, no call reaches Slack for 30 s on that channel; other channels post', async () => {
    const clock = { ms: 1_000_000 };
    const { poster: alerts, sleeps } = poster(clock);
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 30 });
    const first = await alerts.post('C_ALERTS', { text: 'first' }, { key: 'k' }).catch((error: unknown) => error);
    expect(describeSlackError(first)).toBe('ratelimited (retry after 30 s)');
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);

    // Six polls within the next 10 seconds: none of them reaches Slack.
    for (let i = 0; i < 6; i++) {
      clock.ms += 1_600;
      const error = await alerts.post('C_ALERTS', { text: `retry ${i}` }, { key: 'k' }).catch((e: unknown) => e);
      expect(describeSlackError(error)).toMatch(/^ratelimited \(waiting \d+ s more, as Slack asked\)$/);
    }
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);

    // Another channel is not held back.
    await alerts.post('C_OTHER', { text: 'other channel' }, { key: 'k' });
    expect(slack.callsOf('chat.postMessage')).toHaveLength(2);

    // Once the 30 s have passed, the alert goes out.
    clock.ms += 30_000;
    await alerts.post('C_ALERTS', { text: 'after the wait' }, { key: 'k' });
    expect(slack.messages('C_ALERTS').map((m) => m.text)).toEqual(['after the wait']);
    // The poller never waits on Slack: the next poll is its retry.
    expect(sleeps).toEqual([]);
  });

  it('a 503 or a timeout fails the post at once, with one call, and link previews are off', async () => {
    const { poster: alerts, sleeps } = poster({ ms: 0 });
    slack.failNext('chat.postMessage', { status: 503 });
    expect(
      describeSlackError(await alerts.post('C_ALERTS', { text: 'a' }, { key: 'k' }).catch((e: unknown) => e)),
    ).toBe('HTTP 503');
    slack.failNext('chat.postMessage', { delayMs: 3_000 });
    expect(
      describeSlackError(await alerts.post('C_ALERTS', { text: 'b' }, { key: 'k' }).catch((e: unknown) => e)),
    ).toBe('timeout');
    expect(slack.callsOf('chat.postMessage')).toHaveLength(2);
    expect(sleeps).toEqual([]);

    await alerts.post('C_ALERTS', { text: 'c' }, { key: 'k' });
    expect(slack.callsOf('chat.postMessage')[2]?.args).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });
    // Every alert carries its key in Slack message metadata, so a post whose answer is lost can be found.
    expect(slack.callsOf('chat.postMessage')[2]?.args.metadata).toEqual({
      event_type: 'treasury_alert',
      event_payload: { key: 'k' },
    });
  });
});
