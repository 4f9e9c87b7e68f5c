// The Slack gateway's one retry policy, against the Slack stand-in over real HTTP with a real WebClient: what is
// retried (5xx, timeouts, ratelimited within reason), what never is (refused content, errors a person must fix),
// how Retry-After holds back one channel, and how a reply survives a failing response_url.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { triggerId } from '../../dev/workspace/slack-requests.js';
import { createLogger } from '../../src/logger.js';
import {
  createSlackGateway,
  createSlackWebClient,
  decideAfterFailure,
  describeSlackError,
  isTransient,
  mayHaveHappened,
  needsAPerson,
  refusedContent,
  SLACK_RETRY_POLICY,
  SlackBackoffError,
  type SlackGateway,
  type SlackRetryPolicy,
  triggerRefused,
} from '../../src/slack/index.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';

const TOKEN = 'xoxb-gateway-test';
let slack: SlackStandIn;
beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: TOKEN });
});
afterAll(() => slack.close());
beforeEach(() => slack.reset());

interface Rig {
  gateway: SlackGateway;
  /** Every wait the gateway asked for; waiting moves the clock instead of time passing. */
  sleeps: number[];
  clock: { ms: number };
  logs: string[];
}

function gatewayRig(options: { policy?: Partial<SlackRetryPolicy>; timeoutMs?: number } = {}): Rig {
  const clock = { ms: 1_700_000_000_000 };
  const sleeps: number[] = [];
  const logs: string[] = [];
  const gateway = createSlackGateway({
    client: createSlackWebClient({ token: TOKEN, slackApiUrl: slack.apiUrl, timeoutMs: options.timeoutMs ?? 2_000 }),
    now: () => clock.ms,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.ms += ms;
    },
    logger: createLogger('debug', (line) => logs.push(line)),
    policy: options.policy,
  });
  return { gateway, sleeps, clock, logs };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

describe('the retry policy as a table', () => {
  const platform = (error: string) => ({ code: 'slack_webapi_platform_error', data: { ok: false, error } });
  const http = (statusCode: number) => ({ code: 'slack_webapi_http_error', statusCode });
  const ratelimited = (retryAfter: number) => ({ code: 'slack_webapi_rate_limited_error', retryAfter });
  const timeout = { code: 'slack_webapi_request_error', original: { name: 'TimeoutError', message: 'aborted' } };

  it.each([
    ['HTTP 500', http(500), 0, true, { retry: true, delayMs: 500 }],
    ['HTTP 503, second retry', http(503), 1, true, { retry: true, delayMs: 1_000 }],
    ['HTTP 503, retries used up', http(503), 2, true, { retry: false }],
    ['timeout', timeout, 0, true, { retry: true, delayMs: 500 }],
    ['ok:false internal_error', platform('internal_error'), 0, true, { retry: true, delayMs: 500 }],
    ['ratelimited 5 s', ratelimited(5), 0, true, { retry: true, afterRetryAfter: true }],
    ['ratelimited 120 s (longer than anyone should wait)', ratelimited(120), 0, true, { retry: false }],
    ['invalid_blocks', platform('invalid_blocks'), 0, true, { retry: false }],
    ['msg_too_long', platform('msg_too_long'), 0, true, { retry: false }],
    ['channel_not_found', platform('channel_not_found'), 0, true, { retry: false }],
    ['not_in_channel', platform('not_in_channel'), 0, true, { retry: false }],
    ['invalid_auth', platform('invalid_auth'), 0, true, { retry: false }],
    ['missing_scope', platform('missing_scope'), 0, true, { retry: false }],
    ['HTTP 400', http(400), 0, true, { retry: false }],
    ['HTTP 500 when the caller must not wait', http(500), 0, false, { retry: false }],
    ['ratelimited when the caller must not wait', ratelimited(1), 0, false, { retry: false }],
  ])('%s', (_name, error, attempt, wait, expected) => {
    expect(decideAfterFailure(SLACK_RETRY_POLICY, error, attempt, wait)).toEqual(expected);
  });

  // chat.postMessage: a second post is a second message, so only a failure that certainly posted nothing is retried.
  it.each([
    ['HTTP 500 (Slack may have posted)', http(500), { retry: false }],
    ['timeout (Slack may have posted)', timeout, { retry: false }],
    ['ok:false internal_error (Slack may have posted)', platform('internal_error'), { retry: false }],
    ['ratelimited 5 s (nothing was posted)', ratelimited(5), { retry: true, afterRetryAfter: true }],
    ['our own Retry-After wait (nothing was sent)', new SlackBackoffError('C1', 2_000), { retry: true, delayMs: 500 }],
  ])('a call that must not be repeated, %s', (_name, error, expected) => {
    expect(decideAfterFailure(SLACK_RETRY_POLICY, error, 0, true, false)).toEqual(expected);
  });

  it('reads Slack error codes in one place', () => {
    expect(refusedContent(platform('invalid_blocks'))).toBe(true);
    expect(refusedContent(platform('channel_not_found'))).toBe(false);
    expect(needsAPerson(platform('channel_not_found'))).toBe(true);
    expect(needsAPerson(platform('invalid_blocks'))).toBe(false);
    expect(isTransient(http(502))).toBe(true);
    expect(isTransient({ statusCode: 404 })).toBe(false);
    expect(isTransient(new TypeError('fetch failed'))).toBe(true);
    expect(describeSlackError(timeout)).toBe('timeout');
    expect(describeSlackError(new SlackBackoffError('C1', 2_500))).toBe(
      'ratelimited (waiting 3 s more, as Slack asked)',
    );
  });
});

describe('messages in a channel', () => {
  // A timeout or a 5xx does not mean Slack did not post: a second chat.postMessage could be a second message.
  it("a post that fails with a 5xx is not sent again: one call, and Slack's error says the post may have happened", async () => {
    const { gateway, sleeps } = gatewayRig();
    slack.failNext('chat.postMessage', { status: 500 });
    const error = await failure(gateway.post('C_DESK', { text: 'quote' }));
    expect(describeSlackError(error)).toBe('HTTP 500');
    expect(mayHaveHappened(error)).toBe(true);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a post whose answer comes too late is in the channel once: no retry after the timeout', async () => {
    const { gateway } = gatewayRig({ timeoutMs: 300 });
    slack.failNext('chat.postMessage', { lateAnswerMs: 1_000 });
    const error = await failure(gateway.post('C_DESK', { text: 'quote' }));
    expect(describeSlackError(error)).toBe('timeout');
    expect(mayHaveHappened(error)).toBe(true);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(slack.messages('C_DESK').map((m) => m.text)).toEqual(['quote']);
  });

  it('a post whose answer is lost (the connection is cut after posting) is in the channel once: no retry', async () => {
    const { gateway } = gatewayRig();
    slack.failNext('chat.postMessage', { dropAnswer: true });
    const error = await failure(gateway.post('C_DESK', { text: 'shared copy' }));
    expect(mayHaveHappened(error)).toBe(true);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(slack.messages('C_DESK').map((m) => m.text)).toEqual(['shared copy']);
  });

  it("an edit keeps failing with 503: three attempts with growing pauses, then Slack's error", async () => {
    const { gateway, sleeps } = gatewayRig();
    const ts = await gateway.post('C_DESK', { text: 'v1' });
    slack.failNext('chat.update', { status: 503 }, 3);
    const error = await failure(gateway.update('C_DESK', ts, { text: 'v2' }));
    expect(describeSlackError(error)).toBe('HTTP 503');
    expect(slack.callsOf('chat.update')).toHaveLength(3);
    expect(sleeps).toEqual([500, 1_000]);
    // The next edit goes through.
    await gateway.update('C_DESK', ts, { text: 'v3' });
    expect(slack.messages('C_DESK')[0]?.text).toBe('v3');
  });

  it.each(['invalid_blocks', 'msg_blocks_too_long', 'channel_not_found', 'not_in_channel'])(
    '%s is never retried',
    async (code) => {
      const { gateway, sleeps } = gatewayRig();
      slack.failNext('chat.postMessage', { error: code });
      const error = await failure(gateway.post('C_DESK', { text: 'x' }));
      expect(describeSlackError(error)).toBe(code);
      // The swap feature reads Slack's code from the error: the gateway passes Slack's own error through.
      expect(error).toMatchObject({ data: { error: code } });
      expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
      expect(sleeps).toEqual([]);
    },
  );

  it('an edit that times out is tried again (the same edit twice is one edit); in no-wait mode it fails at once as "timeout"', async () => {
    const { gateway } = gatewayRig({ timeoutMs: 300 });
    const ts = await gateway.post('C_DESK', { text: 'v1' });
    slack.failNext('chat.update', { delayMs: 1_000 });
    await gateway.update('C_DESK', ts, { text: 'after a timeout' });
    expect(slack.callsOf('chat.update')).toHaveLength(2);
    expect(slack.messages('C_DESK').map((m) => m.text)).toEqual(['after a timeout']);

    slack.failNext('chat.update', { delayMs: 1_000 });
    const error = await failure(gateway.update('C_DESK', ts, { text: 'no wait' }, { wait: false }));
    expect(describeSlackError(error)).toBe('timeout');
    expect(slack.callsOf('chat.update')).toHaveLength(3);
  });

  it('a private notice that times out is tried again: seen twice is harmless, lost is not', async () => {
    const { gateway } = gatewayRig({ timeoutMs: 300 });
    slack.failNext('chat.postEphemeral', { delayMs: 1_000 });
    await gateway.postEphemeral('C_DESK', 'U1', { text: 'just for you' });
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(2);
  });

  it('with retries set to 0, a 5xx fails at once', async () => {
    const { gateway } = gatewayRig({ policy: { retries: 0 } });
    slack.failNext('chat.postMessage', { status: 502 });
    expect(describeSlackError(await failure(gateway.post('C_DESK', { text: 'x' })))).toBe('HTTP 502');
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
  });
});

describe('Retry-After, per channel', () => {
  it('a waiting call sits out the Retry-After, then posts; other channels are not held back', async () => {
    const { gateway, sleeps } = gatewayRig();
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 5 });
    await gateway.post('C_BUSY', { text: 'quote' });
    expect(sleeps).toEqual([5_000]);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(2);
    expect(slack.messages('C_BUSY').map((m) => m.text)).toEqual(['quote']);
  });

  it('inside the wait, no call reaches Slack for that channel, whoever asks; after it, calls go out', async () => {
    const { gateway, clock, sleeps } = gatewayRig({ policy: { maxWaitMs: 10_000 } });
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 30 });
    // Longer than a caller should wait: the call fails with Slack's answer.
    expect(describeSlackError(await failure(gateway.post('C_BUSY', { text: 'a' })))).toBe(
      'ratelimited (retry after 30 s)',
    );
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);

    clock.ms += 10_000;
    for (const attempt of [
      gateway.post('C_BUSY', { text: 'b' }, { wait: false }),
      gateway.post('C_BUSY', { text: 'c' }),
    ]) {
      const error = await failure(attempt);
      expect(error).toBeInstanceOf(SlackBackoffError);
      expect(describeSlackError(error)).toBe('ratelimited (waiting 20 s more, as Slack asked)');
    }
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);

    await gateway.post('C_OTHER', { text: 'elsewhere' });
    expect(slack.messages('C_OTHER')).toHaveLength(1);

    // 5 s before the end a waiting call sits out the rest; a no-wait call would still be refused.
    clock.ms += 15_000;
    await gateway.post('C_BUSY', { text: 'e' });
    expect(sleeps).toEqual([5_000]);
    expect(slack.messages('C_BUSY').map((m) => m.text)).toEqual(['e']);
  });

  it('a 429 in no-wait mode fails at once and blocks the channel for waiting callers too', async () => {
    const { gateway, sleeps } = gatewayRig();
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 2 });
    expect(describeSlackError(await failure(gateway.post('C_ALERTS', { text: 'alert' }, { wait: false })))).toBe(
      'ratelimited (retry after 2 s)',
    );
    expect(sleeps).toEqual([]);
    await gateway.post('C_ALERTS', { text: 'quote' });
    expect(sleeps).toEqual([2_000]);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(2);
  });
});

describe('rate limits scoped as Slack scopes them', () => {
  // chat.postMessage is limited per channel; chat.update, chat.postEphemeral and every other method per method for
  // the workspace. A 429 holds back exactly what Slack limited, nothing else.
  it('a 429 on chat.postMessage holds back that channel only: an edit, a private message and other channels go out', async () => {
    const { gateway } = gatewayRig({ policy: { maxWaitMs: 1_000 } });
    const ts = await gateway.post('C_BUSY', { text: 'v1' });
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 30 });
    await failure(gateway.post('C_BUSY', { text: 'too soon' }));
    await gateway.update('C_BUSY', ts, { text: 'v2' });
    await gateway.postEphemeral('C_BUSY', 'U1', { text: 'just for you' });
    await gateway.post('C_OTHER', { text: 'elsewhere' });
    expect(slack.messages('C_BUSY').map((m) => m.text)).toEqual(['v2']);
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(1);
    expect(slack.messages('C_OTHER')).toHaveLength(1);
    expect(await failure(gateway.post('C_BUSY', { text: 'still too soon' }, { wait: false }))).toBeInstanceOf(
      SlackBackoffError,
    );
  });

  it('a 429 on chat.update holds back every edit, in any channel, and nothing else', async () => {
    const { gateway } = gatewayRig({ policy: { maxWaitMs: 1_000 } });
    const a = await gateway.post('C_A', { text: 'a1' });
    const b = await gateway.post('C_B', { text: 'b1' });
    slack.failNext('chat.update', { status: 429, retryAfter: 30 });
    await failure(gateway.update('C_A', a, { text: 'a2' }));
    // Per method for the workspace: an edit elsewhere waits too, and never reaches Slack meanwhile.
    expect(await failure(gateway.update('C_B', b, { text: 'b2' }))).toBeInstanceOf(SlackBackoffError);
    expect(slack.callsOf('chat.update')).toHaveLength(1);
    await gateway.post('C_A', { text: 'a new message' });
    await gateway.postEphemeral('C_A', 'U1', { text: 'private' });
    expect(slack.messages('C_A').map((m) => m.text)).toEqual(['a1', 'a new message']);
  });

  it('a 429 on chat.postEphemeral holds back private messages everywhere, and neither posts nor edits', async () => {
    const { gateway, clock } = gatewayRig({ policy: { maxWaitMs: 1_000 } });
    const ts = await gateway.post('C_A', { text: 'v1' });
    slack.failNext('chat.postEphemeral', { status: 429, retryAfter: 10 });
    await failure(gateway.postEphemeral('C_A', 'U1', { text: 'one' }));
    expect(await failure(gateway.postEphemeral('C_B', 'U2', { text: 'two' }))).toBeInstanceOf(SlackBackoffError);
    await gateway.update('C_A', ts, { text: 'v2' });
    await gateway.post('C_B', { text: 'b' });
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(1);
    clock.ms += 10_000;
    await gateway.postEphemeral('C_B', 'U2', { text: 'two, later' });
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(2);
  });
});

describe('content Slack refuses is sent again as plain text', () => {
  const quote = {
    text: 'Swap quote: 1,000 USDT → about 999.5 USDC · waiting for approval · quote q-1',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: 'Swap USDT → USDC' } },
      { type: 'section', fields: [{ type: 'mrkdwn', text: '*Requested by*\n<@U0RILEY>' }] },
      {
        type: 'actions',
        elements: [
          { type: 'button', text: { type: 'plain_text', text: 'Approve' }, action_id: 'swap_approve', value: 'q-1' },
        ],
      },
    ],
  } as const;

  it.each(['invalid_blocks', 'msg_too_long', 'msg_blocks_too_long', 'invalid_attachments'])(
    'a post refused with %s arrives as plain text with its facts',
    async (code) => {
      const { gateway, logs } = gatewayRig();
      slack.failNext('chat.postMessage', { error: code });
      const ts = await gateway.post('C_DESK', quote as never);
      const [message] = slack.messages('C_DESK');
      expect(message?.ts).toBe(ts);
      expect(message?.blocks).toBeUndefined();
      expect(message?.text).toContain('1,000 USDT → about 999.5 USDC');
      expect(message?.text).toContain('<@U0RILEY>');
      expect(message?.text).toContain('its buttons are missing');
      expect(logs.join('\n')).toContain(code);
    },
  );

  it('an edit refused for its blocks replaces the message with plain text and removes the old blocks (and buttons)', async () => {
    const { gateway } = gatewayRig();
    const ts = await gateway.post('C_DESK', quote as never);
    slack.failNext('chat.update', { error: 'invalid_blocks' });
    await gateway.update('C_DESK', ts, { ...quote, text: 'Swap quote: approved by <@U0AVERY>' } as never);
    const [message] = slack.messages('C_DESK');
    expect(message?.text).toContain('approved by <@U0AVERY>');
    expect(message?.blocks).toEqual([]);
  });

  it('a private message refused for its blocks arrives as plain text', async () => {
    const { gateway } = gatewayRig();
    slack.failNext('chat.postEphemeral', { error: 'invalid_blocks' });
    await gateway.postEphemeral('C_DESK', 'U1', quote as never);
    const calls = slack.callsOf('chat.postEphemeral');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.args.blocks).toBeUndefined();
    expect(calls[1]?.args.text).toContain('quote q-1');
  });

  it("a message that was plain text already is not sent twice: Slack's refusal comes back", async () => {
    const { gateway } = gatewayRig();
    slack.failNext('chat.postMessage', { error: 'msg_too_long' });
    expect(describeSlackError(await failure(gateway.post('C_DESK', { text: 'short' })))).toBe('msg_too_long');
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
  });

  it('a response_url that refuses the blocks (400 invalid_blocks) gets the same reply as plain text, on the same url', async () => {
    const { gateway, logs } = gatewayRig();
    const url = slack.createResponseUrl();
    // Two buttons with one action_id in one actions block: Slack's invalid_blocks.
    const approve = quote.blocks[2].elements[0];
    const refused = {
      response_type: 'ephemeral' as const,
      ...quote,
      blocks: [...quote.blocks.slice(0, 2), { type: 'actions', elements: [approve, approve] }],
    };
    await gateway.respond(url, refused as never, { channelId: 'C_DESK', userId: 'U_CAROL' });
    expect(slack.rejections).toMatchObject([{ target: url, error: 'invalid_blocks' }]);
    const [reply] = slack.responses(url);
    expect(reply?.responseType).toBe('ephemeral');
    expect(reply?.blocks).toBeUndefined();
    expect(reply?.text).toContain('1,000 USDT → about 999.5 USDC');
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(0);
    expect(logs.join('\n')).toContain('HTTP 400 (invalid_blocks)');
  });
});

describe('replies through a response_url', () => {
  const reply = {
    response_type: 'ephemeral' as const,
    text: 'Balances',
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Balances*' } }],
  };

  it('a 500 is retried on the same url; the reply arrives once and no fallback is sent', async () => {
    const { gateway, sleeps } = gatewayRig();
    const url = slack.createResponseUrl();
    slack.failNext('response_url', { status: 500 });
    await gateway.respond(url, reply, { channelId: 'C_DESK', userId: 'U_CAROL' });
    expect(slack.responses(url).map((r) => r.text)).toEqual(['Balances']);
    expect(sleeps).toEqual([500]);
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(0);
  });

  it('a url that keeps failing: three posts, then the reply comes as a private message in the same channel', async () => {
    const { gateway, logs } = gatewayRig();
    const url = slack.createResponseUrl();
    slack.failNext('response_url', { status: 500 }, 3);
    await gateway.respond(url, reply, { channelId: 'C_DESK', userId: 'U_CAROL' });
    expect(slack.responses(url)).toHaveLength(0);
    const [ephemeral] = slack.callsOf('chat.postEphemeral');
    expect(ephemeral?.args).toMatchObject({ channel: 'C_DESK', user: 'U_CAROL', text: 'Balances' });
    expect(JSON.stringify(ephemeral?.args.blocks)).toContain('*Balances*');
    expect(logs.join('\n')).toContain('HTTP 500');
    // The url is never in the log.
    expect(logs.join('\n')).not.toContain(url);
  });

  it('a used-up url (404) is not tried again: the reply goes straight to a private message', async () => {
    const { gateway, sleeps } = gatewayRig();
    const url = slack.createResponseUrl();
    // Only the first post fails: a second try on the url would succeed, so a reply there means a retry.
    slack.failNext('response_url', { status: 404 });
    await gateway.respond(url, reply, { channelId: 'C_DESK', userId: 'U_CAROL' });
    expect(slack.responses(url)).toHaveLength(0);
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a url nobody answers on (connection refused) is a passing failure: tried three times, then a private message', async () => {
    const { gateway, sleeps } = gatewayRig();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await gateway.respond(`http://127.0.0.1:${port}/response/gone`, reply, { channelId: 'C_DESK', userId: 'U_CAROL' });
    expect(sleeps).toHaveLength(2);
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(1);
  });

  it('a shared (in_channel) reply falls back to a message in the channel', async () => {
    const { gateway } = gatewayRig();
    const url = slack.createResponseUrl();
    slack.failNext('response_url', { status: 404 });
    await gateway.respond(url, { ...reply, response_type: 'in_channel' }, { channelId: 'C_DESK', userId: 'U_CAROL' });
    expect(slack.messages('C_DESK').map((m) => m.text)).toEqual(['Balances']);
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(0);
  });

  it("works with Bolt's respond(): its errors carry the status the same way", async () => {
    const { gateway } = gatewayRig();
    const url = slack.createResponseUrl();
    slack.failNext('response_url', { status: 503 });
    let posts = 0;
    const respond = async (message: unknown) => {
      posts += 1;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
      });
      if (!response.ok)
        throw Object.assign(new Error(`Failed to respond: ${response.status}`), {
          code: 'slack_bolt_respond_error',
          statusCode: response.status,
        });
      return response;
    };
    await gateway.respond(respond, reply, { channelId: 'C_DESK', userId: 'U_CAROL' });
    expect(posts).toBe(2);
    expect(slack.responses(url)).toHaveLength(1);
  });

  it('a shared reply whose fallback post Slack does not confirm is posted once, and the person is told to check the channel', async () => {
    const { gateway, logs } = gatewayRig();
    const url = slack.createResponseUrl();
    slack.failNext('response_url', { status: 404 });
    slack.failNext('chat.postMessage', { dropAnswer: true });
    await gateway.respond(url, { ...reply, response_type: 'in_channel' }, { channelId: 'C_DESK', userId: 'U_CAROL' });
    expect(slack.messages('C_DESK').map((m) => m.text)).toEqual(['Balances']);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    const [notice] = slack.callsOf('chat.postEphemeral');
    expect(notice?.args).toMatchObject({ channel: 'C_DESK', user: 'U_CAROL' });
    expect(notice?.args.text).toContain('Slack did not confirm the post');
    expect(notice?.args.text).toContain('Check the channel before trying again');
    expect(logs.join('\n')).toContain('Slack did not confirm a shared reply posted in the channel');
    expect(logs.join('\n')).not.toContain('could not deliver a reply to Slack at all');
  });

  it('when the fallback fails too, the failure is logged and nothing throws', async () => {
    const { gateway, logs } = gatewayRig();
    const url = slack.createResponseUrl();
    slack.failNext('response_url', { status: 404 });
    slack.failNext('chat.postEphemeral', { error: 'channel_not_found' });
    await gateway.respond(url, reply, { channelId: 'C_GONE', userId: 'U_CAROL' });
    expect(slack.callsOf('chat.postEphemeral')).toHaveLength(1);
    expect(logs.join('\n')).toMatch(/could not deliver a reply to Slack at all.*channel_not_found/);
  });
});

describe('other calls', () => {
  it('run() retries a method under the same policy (the start-up token check)', async () => {
    const client = createSlackWebClient({ token: TOKEN, slackApiUrl: slack.apiUrl, timeoutMs: 2_000 });
    const sleeps: number[] = [];
    const gateway = createSlackGateway({ client, sleep: async (ms) => void sleeps.push(ms) });
    slack.failNext('auth.test', { status: 500 });
    await expect(gateway.run('auth.test', () => client.auth.test())).resolves.toMatchObject({ ok: true });
    expect(sleeps).toEqual([500]);

    const wrong = createSlackWebClient({ token: 'xoxb-wrong', slackApiUrl: slack.apiUrl });
    const refused = await failure(gateway.run('auth.test', () => wrong.auth.test()));
    expect(describeSlackError(refused)).toBe('invalid_auth');
    expect(sleeps).toEqual([500]);
  });
});

describe('modals: openView (views.open)', () => {
  // A trigger_id opens one view within 3 s of the click: nothing about views.open is ever retried or waited for.
  const plain = (text: string) => ({ type: 'plain_text', text });
  const modal = (title = 'Resolve alert') => ({
    type: 'modal',
    callback_id: 'alert_resolve',
    title: plain(title),
    submit: plain('Resolve'),
    close: plain('Cancel'),
    blocks: [
      {
        type: 'input',
        block_id: 'note',
        label: plain('What was done'),
        element: { type: 'plain_text_input', action_id: 'note', multiline: true },
      },
    ],
  });

  it("opens the modal with a fresh trigger and answers the new view's id", async () => {
    const { gateway } = gatewayRig();
    const trigger = triggerId();
    const { viewId } = await gateway.openView(trigger, modal());
    expect(slack.views()).toEqual([expect.objectContaining({ id: viewId, triggerId: trigger })]);
    expect(slack.views()[0]?.view).toMatchObject({ callback_id: 'alert_resolve', title: plain('Resolve alert') });
  });

  it.each([
    ['expired_trigger_id', () => triggerId(Date.now() - 5_000), /more than 3 seconds passed since the click/],
    ['invalid_trigger_id', () => 'not-a-trigger', /Slack did not recognise the click/],
  ])('%s: one call, no wait, permanent for that click, nothing opened', async (code, trigger, plainWords) => {
    const { gateway, sleeps } = gatewayRig();
    const error = await failure(gateway.openView(trigger(), modal()));
    expect(error).toMatchObject({ data: { error: code } });
    expect(triggerRefused(error)).toBe(true);
    expect(isTransient(error)).toBe(false);
    expect(mayHaveHappened(error)).toBe(false);
    expect(needsAPerson(error)).toBe(false);
    expect(describeSlackError(error)).toMatch(new RegExp(`^${code} \\(`));
    expect(describeSlackError(error)).toMatch(plainWords);
    expect(slack.callsOf('views.open')).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(slack.views()).toEqual([]);
  });

  it('a trigger that already opened a view is refused as exchanged_trigger_id: one view in all', async () => {
    const { gateway } = gatewayRig();
    const trigger = triggerId();
    await gateway.openView(trigger, modal());
    const error = await failure(gateway.openView(trigger, modal()));
    expect(triggerRefused(error)).toBe(true);
    expect(describeSlackError(error)).toMatch(/^exchanged_trigger_id \(this click already opened a form/);
    expect(slack.views()).toHaveLength(1);
  });

  it.each([
    ['HTTP 500', { status: 500 }, 'HTTP 500'],
    ['HTTP 503', { status: 503 }, 'HTTP 503'],
    ['ratelimited', { status: 429, retryAfter: 1 }, 'ratelimited (retry after 1 s)'],
  ])('%s is not retried either: the trigger would be stale by then', async (_name, injected, described) => {
    const { gateway, sleeps } = gatewayRig();
    slack.failNext('views.open', injected);
    const error = await failure(gateway.openView(triggerId(), modal()));
    expect(describeSlackError(error)).toBe(described);
    expect(triggerRefused(error)).toBe(false);
    expect(slack.callsOf('views.open')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('inside a Retry-After of views.open, the next modal is refused at once without calling Slack', async () => {
    const { gateway, sleeps } = gatewayRig();
    slack.failNext('views.open', { status: 429, retryAfter: 10 });
    await failure(gateway.openView(triggerId(), modal()));
    const error = await failure(gateway.openView(triggerId(), modal()));
    expect(error).toBeInstanceOf(SlackBackoffError);
    expect(slack.callsOf('views.open')).toHaveLength(1);
    expect(sleeps).toEqual([]);
    // Other methods are not held back.
    await gateway.post('C_DESK', { text: 'still posting' });
  });

  it("a modal that breaks Slack's limits is refused as invalid_arguments, naming the field; the trigger is not used up", async () => {
    const { gateway } = gatewayRig();
    const trigger = triggerId();
    const error = await failure(gateway.openView(trigger, modal('A title far too long for a modal')));
    expect(triggerRefused(error)).toBe(false);
    expect(describeSlackError(error)).toBe(
      'invalid_arguments ([ERROR] must be less than 25 characters [json-pointer:/view/title/text])',
    );
    expect(slack.callsOf('views.open')).toHaveLength(1);
    await expect(gateway.openView(trigger, modal())).resolves.toMatchObject({ viewId: expect.any(String) });
  });
});

describe('links to messages: permalink (chat.getPermalink)', () => {
  it('answers the link Slack gives for the message', async () => {
    const { gateway } = gatewayRig();
    const ts = await gateway.post('C_ALERTS', { text: 'Withdrawal failed' });
    expect(await gateway.permalink('C_ALERTS', ts)).toBe(
      `https://${slack.teamDomain}.slack.com/archives/C_ALERTS/p${ts.replace('.', '')}`,
    );
    expect(slack.callsOf('chat.getPermalink')[0]?.args).toMatchObject({ channel: 'C_ALERTS', message_ts: ts });
  });

  it('is a read: a 5xx is tried again under the policy', async () => {
    const { gateway, sleeps } = gatewayRig();
    const ts = await gateway.post('C_ALERTS', { text: 'Withdrawal failed' });
    slack.failNext('chat.getPermalink', { status: 502 });
    await expect(gateway.permalink('C_ALERTS', ts)).resolves.toMatch(/\/archives\/C_ALERTS\//);
    expect(slack.callsOf('chat.getPermalink')).toHaveLength(2);
    expect(sleeps).toEqual([500]);
  });

  it("a message that is gone answers Slack's message_not_found, not retried", async () => {
    const { gateway, sleeps } = gatewayRig();
    const error = await failure(gateway.permalink('C_ALERTS', '1700000000.000100'));
    expect(describeSlackError(error)).toBe('message_not_found');
    expect(error).toMatchObject({ data: { error: 'message_not_found' } });
    expect(slack.callsOf('chat.getPermalink')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('approver groups: groupMembers (usergroups.users.list)', () => {
  const LEADS = { id: 'S0LEADS', handle: 'treasury-leads', name: 'Treasury leads', users: ['U0JORDAN', 'U0AVERY'] };

  it("answers the group's member ids, asking for that group", async () => {
    const { gateway } = gatewayRig();
    slack.setUsergroup(LEADS);
    expect(await gateway.groupMembers('S0LEADS')).toEqual(['U0JORDAN', 'U0AVERY']);
    expect(slack.callsOf('usergroups.users.list').map((c) => c.args)).toEqual([{ usergroup: 'S0LEADS' }]);
  });

  it('a disabled group has nobody in it (include_disabled is never asked for)', async () => {
    const { gateway } = gatewayRig();
    slack.setUsergroup({ ...LEADS, disabled: true });
    expect(await gateway.groupMembers('S0LEADS')).toEqual([]);
  });

  it('is a read: a 5xx is tried again under the policy', async () => {
    const { gateway, sleeps } = gatewayRig();
    slack.setUsergroup(LEADS);
    slack.failNext('usergroups.users.list', { status: 503 });
    expect(await gateway.groupMembers('S0LEADS')).toEqual(['U0JORDAN', 'U0AVERY']);
    expect(slack.callsOf('usergroups.users.list')).toHaveLength(2);
    expect(sleeps).toEqual([500]);
  });

  it("a group Slack does not know throws Slack's no_such_subteam at once, not retried", async () => {
    const { gateway, sleeps } = gatewayRig();
    const error = await failure(gateway.groupMembers('S0GONE'));
    expect(describeSlackError(error)).toBe('no_such_subteam');
    expect(slack.callsOf('usergroups.users.list')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('an app without usergroups:read gets missing_scope, which needs a person: not retried', async () => {
    const { gateway, sleeps } = gatewayRig();
    slack.setUsergroup(LEADS);
    slack.failNext('usergroups.users.list', { error: 'missing_scope' });
    const error = await failure(gateway.groupMembers('S0LEADS'));
    expect(needsAPerson(error)).toBe(true);
    expect(slack.callsOf('usergroups.users.list')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});
