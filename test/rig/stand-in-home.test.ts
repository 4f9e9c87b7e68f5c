/**
 * The Home tab in the Slack stand-in, held to Slack's rules for `views.publish`: `user_id` must name a person of the
 * workspace and `view` is required (`invalid_arguments`), the view must be a valid `home` view (≤ 100 blocks, block
 * rules as in messages, private_metadata ≤ 3,000, callback_id ≤ 255, no title/submit/close needed), a Home tab the
 * app has not enabled answers `not_enabled`, a `hash` that is not the current one `hash_conflict`, and past a
 * person's burst the method answers `ratelimited` (429 with Retry-After). Each publish is kept per person with a new
 * hash and told as a `home` event. Driven through Bolt's own WebClient and through the gateway.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSlackGateway } from '../../src/slack/gateway.js';
import { HOME_LIMITS, validateHomeView } from '../support/rig/block-kit-validation.js';
import { type SlackStandIn, type StandInEvent, startSlackStandIn } from '../support/rig/index.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const token = 'xoxb-home';
const section = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'section',
  text: { type: 'mrkdwn', text },
  ...extra,
});
const home = (extra: Record<string, unknown> = {}) => ({
  type: 'home',
  callback_id: 'treasury_home',
  blocks: [section('*Balances* $1.00')],
  ...extra,
});

let clock = Date.parse('2026-11-24T09:00:00.000Z');
let slack: SlackStandIn;
let client: webApi.WebClient;

beforeAll(async () => {
  slack = await startSlackStandIn({
    botToken: token,
    now: () => clock,
    users: ['U0AVERY', 'U0RILEY'],
    homePublishesPerMinute: 5,
  });
  client = new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: silentWebApiLogger,
  });
});
afterAll(() => slack?.close());
beforeEach(() => {
  slack.reset();
  clock += 5 * 60_000;
});

async function answer(call: Promise<unknown>): Promise<{ error: string; messages?: string[]; retryAfter?: number }> {
  try {
    await call;
    return { error: 'ok' };
  } catch (error) {
    const e = error as {
      data?: { error?: string; response_metadata?: { messages?: string[] } };
      retryAfter?: number;
      code?: string;
    };
    if (e.code === 'slack_webapi_rate_limited_error') return { error: 'ratelimited', retryAfter: e.retryAfter };
    return {
      error: e.data?.error ?? String(error),
      ...(e.data?.response_metadata?.messages ? { messages: e.data.response_metadata.messages } : {}),
    };
  }
}

const publish = (args: Record<string, unknown>) => answer(client.apiCall('views.publish', args));

describe('views.publish', () => {
  it('publishes a Home view for a person: Slack’s view object with a new hash, kept per person, told as an event', async () => {
    const events: StandInEvent[] = [];
    const stop = slack.onEvent((event) => events.push(event));
    const first = (await client.views.publish({ user_id: 'U0AVERY', view: home() as never })) as unknown as {
      view: Record<string, unknown>;
    };
    expect(first.view).toMatchObject({
      type: 'home',
      team_id: slack.teamId,
      callback_id: 'treasury_home',
      blocks: home().blocks,
      close: null,
      submit: null,
      state: { values: {} },
      bot_id: slack.botId,
    });
    expect(first.view.hash).toMatch(/^\d+\.[0-9a-f]+$/);
    expect(slack.homeView('U0AVERY')).toMatchObject({ user: 'U0AVERY', hash: first.view.hash, view: home() });
    expect(slack.homeView('U0RILEY')).toBeUndefined();

    // A publish with the current hash replaces it: the same Home (same id), a new hash.
    const second = (await client.views.publish({
      user_id: 'U0AVERY',
      hash: String(first.view.hash),
      view: home({ blocks: [section('updated')] }) as never,
    })) as unknown as { view: Record<string, unknown> };
    expect(second.view.id).toBe(first.view.id);
    expect(second.view.hash).not.toBe(first.view.hash);
    expect(slack.homeView('U0AVERY')?.view.blocks).toEqual([section('updated')]);
    stop();
    expect(events.filter((e) => e.type === 'home').map((e) => (e as { user: string }).user)).toEqual([
      'U0AVERY',
      'U0AVERY',
    ]);
  });

  it('refuses a stale hash with hash_conflict and keeps the newer view; a hash before any view conflicts too', async () => {
    const first = (await client.views.publish({ user_id: 'U0AVERY', view: home() as never })) as unknown as {
      view: { hash: string };
    };
    await client.views.publish({ user_id: 'U0AVERY', view: home({ blocks: [section('newer')] }) as never });
    expect(
      await publish({ user_id: 'U0AVERY', hash: first.view.hash, view: home({ blocks: [section('older')] }) }),
    ).toEqual({
      error: 'hash_conflict',
    });
    expect(slack.homeView('U0AVERY')?.view.blocks).toEqual([section('newer')]);
    expect(await publish({ user_id: 'U0RILEY', hash: '1.abc', view: home() })).toEqual({ error: 'hash_conflict' });
  });

  it('needs a known user_id and a view', async () => {
    const invalidUser = { error: 'invalid_arguments', messages: ['invalid `user_id`'] };
    expect(await publish({ view: home() })).toEqual(invalidUser);
    expect(await publish({ user_id: 'U0NOBODY', view: home() })).toEqual(invalidUser);
    expect(await publish({ user_id: 'C0TREASURY', view: home() })).toEqual(invalidUser);
    expect(await publish({ user_id: 'U0AVERY' })).toEqual({
      error: 'invalid_arguments',
      messages: ['[ERROR] missing required field: view'],
    });
  });

  it('holds the view to a Home tab’s rules, with Slack’s [ERROR] lines', async () => {
    expect(await publish({ user_id: 'U0AVERY', view: home({ type: 'modal' }) })).toMatchObject({
      error: 'invalid_arguments',
      messages: ['[ERROR] unsupported type: modal [json-pointer:/view/type]'],
    });
    const tooMany = Array.from({ length: HOME_LIMITS.blocks + 1 }, (_, i) => section(`line ${i}`));
    expect((await publish({ user_id: 'U0AVERY', view: home({ blocks: tooMany }) })).messages).toEqual([
      '[ERROR] no more than 100 items allowed [json-pointer:/view/blocks]',
    ]);
    expect(
      (
        await publish({
          user_id: 'U0AVERY',
          view: home({ private_metadata: 'x'.repeat(3001), callback_id: 'y'.repeat(256) }),
        })
      ).messages,
    ).toEqual([
      '[ERROR] must be less than 3001 characters [json-pointer:/view/private_metadata]',
      '[ERROR] must be less than 256 characters [json-pointer:/view/callback_id]',
    ]);
    // Blocks are checked as a message's are: duplicate block ids, a button's text, a section without text.
    const broken = [
      section('a', { block_id: 'same' }),
      section('b', { block_id: 'same' }),
      { type: 'actions', elements: [{ type: 'button', action_id: 'x', text: { type: 'plain_text', text: '' } }] },
      { type: 'section' },
    ];
    expect((await publish({ user_id: 'U0AVERY', view: home({ blocks: broken }) })).messages).toEqual([
      '[ERROR] duplicate block_id: same [json-pointer:/view/blocks/1/block_id]',
      '[ERROR] must be more than 0 characters [json-pointer:/view/blocks/2/elements/0/text/text]',
      '[ERROR] must define either `text` or `fields` [json-pointer:/view/blocks/3/type]',
    ]);
    // Exactly 100 blocks, and no title, submit or close: a valid Home tab.
    const hundred = Array.from({ length: HOME_LIMITS.blocks }, (_, i) => section(`line ${i}`));
    expect(await publish({ user_id: 'U0AVERY', view: home({ blocks: hundred }) })).toEqual({ error: 'ok' });
    expect(validateHomeView(home())).toEqual([]);
    expect(slack.rejections.map((r) => r.target)).toContain('views.publish');
  });

  it('answers view_too_large past 250 kB', async () => {
    const big = Array.from({ length: 100 }, (_, i) => section(`${i} ${'x'.repeat(2_900)}`));
    expect(await publish({ user_id: 'U0AVERY', view: home({ blocks: big }) })).toEqual({ error: 'view_too_large' });
  });

  it('answers not_enabled when the app has no Home tab', async () => {
    const disabled = await startSlackStandIn({ botToken: token, homeTabEnabled: false });
    try {
      const other = new webApi.WebClient(token, {
        slackApiUrl: disabled.apiUrl,
        retryConfig: { retries: 0 },
        logger: silentWebApiLogger,
      });
      expect(await answer(other.apiCall('views.publish', { user_id: 'U0AVERY', view: home() }))).toEqual({
        error: 'not_enabled',
      });
    } finally {
      await disabled.close();
    }
  });

  it('rates publishes per person: past the burst 429 ratelimited with Retry-After, others unaffected, a minute later again', async () => {
    for (let i = 0; i < 5; i += 1) expect(await publish({ user_id: 'U0AVERY', view: home() })).toEqual({ error: 'ok' });
    const limited = await publish({ user_id: 'U0AVERY', view: home() });
    expect(limited.error).toBe('ratelimited');
    expect(limited.retryAfter).toBeGreaterThanOrEqual(1);
    expect(limited.retryAfter).toBeLessThanOrEqual(60);
    expect(await publish({ user_id: 'U0RILEY', view: home() })).toEqual({ error: 'ok' });
    clock += 61_000;
    expect(await publish({ user_id: 'U0AVERY', view: home() })).toEqual({ error: 'ok' });
  });
});

describe('the gateway’s publishHome', () => {
  it('resolves with the new hash, and with { conflict: true } for a stale one instead of throwing', async () => {
    const gateway = createSlackGateway({ client, policy: { retries: 0 } });
    const first = await gateway.publishHome('U0RILEY', home());
    expect(first).toEqual({ hash: slack.homeView('U0RILEY')?.hash });
    const second = await gateway.publishHome('U0RILEY', home({ blocks: [section('two')] }), {
      hash: (first as { hash: string }).hash,
    });
    expect(second).toEqual({ hash: slack.homeView('U0RILEY')?.hash });
    expect(await gateway.publishHome('U0RILEY', home(), { hash: (first as { hash: string }).hash })).toEqual({
      conflict: true,
    });
    await expect(gateway.publishHome('U0NOBODY', home())).rejects.toMatchObject({
      data: { error: 'invalid_arguments' },
    });
  });
});
