/**
 * The Slack stand-in's conversations follow Slack's rules on where a bot may post: chat:write.public covers public
 * channels only; a private channel, DM or group DM the bot is not in is invisible to it (`channel_not_found`);
 * chat.postEphemeral needs the person in the conversation (`user_not_in_channel`); conversations.join works for
 * public channels only. An id nobody declared stays a public channel every person is in and the bot is not.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ConversationSpec, type SlackStandIn, startSlackStandIn } from '../support/rig/index.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const token = 'xoxb-conversations';
const BOT = 'U_BOT';
const RILEY = 'U0RILEY';
const AVERY = 'U0AVERY';
const SAM = 'U0SAM';

const conversations: ConversationSpec[] = [
  { id: 'C0PUBLIC', name: 'treasury', kind: 'public', members: [RILEY, AVERY, SAM] },
  { id: 'C0PUBLICBOT', name: 'treasury-alerts', kind: 'public', members: [RILEY, AVERY, BOT] },
  { id: 'C0PRIVATE', name: 'treasury-ops', kind: 'private', members: [RILEY, AVERY] },
  { id: 'C0PRIVATEBOT', name: 'treasury-desk', kind: 'private', members: [RILEY, AVERY, BOT] },
  { id: 'D0RILEYBOT', kind: 'im', members: [RILEY, BOT] },
  { id: 'D0RILEYAVERY', kind: 'im', members: [RILEY, AVERY] },
  { id: 'G0GROUP', name: 'mpdm-riley--avery--sam-1', kind: 'mpim', members: [RILEY, AVERY, SAM] },
  { id: 'G0GROUPBOT', name: 'mpdm-riley--avery--treasury-1', kind: 'mpim', members: [RILEY, AVERY, BOT] },
  { id: 'C0ARCHIVED', name: 'old-treasury', kind: 'public', members: [RILEY, BOT], archived: true },
];

let slack: SlackStandIn;
let client: webApi.WebClient;

beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: token, botUserId: BOT, conversations });
  client = new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: silentWebApiLogger,
  });
});
afterAll(() => slack?.close());
beforeEach(() => slack.reset());

/** Slack's answer to a call: `ok` for a success, the error code otherwise. */
async function answer(call: Promise<{ ok?: boolean }>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    return (error as { data?: { error?: string } }).data?.error ?? String(error);
  }
}

describe('chat.postMessage: where the bot may post', () => {
  it.each([
    ['a public channel the bot is not in (chat:write.public)', 'C0PUBLIC', 'ok'],
    ['a public channel the bot is in', 'C0PUBLICBOT', 'ok'],
    ['a private channel the bot is in', 'C0PRIVATEBOT', 'ok'],
    ['its own DM with a person', 'D0RILEYBOT', 'ok'],
    ['a group DM it is in', 'G0GROUPBOT', 'ok'],
    ['a private channel the bot is not in: it cannot see it', 'C0PRIVATE', 'channel_not_found'],
    ['a DM between two people', 'D0RILEYAVERY', 'channel_not_found'],
    ['a group DM without the bot', 'G0GROUP', 'channel_not_found'],
    ['an archived channel', 'C0ARCHIVED', 'is_archived'],
    ['an id nobody declared (a public channel)', 'C0ELSEWHERE', 'ok'],
  ])('%s: %s answers %s', async (_what, channel, expected) => {
    expect(await answer(client.chat.postMessage({ channel, text: 'hello' }))).toBe(expected);
    expect(slack.messages(channel)).toHaveLength(expected === 'ok' ? 1 : 0);
  });

  it('without chat:write.public, a public channel the bot is not in answers not_in_channel', async () => {
    const strict = await startSlackStandIn({ botToken: token, botUserId: BOT, conversations, chatWritePublic: false });
    try {
      const strictClient = new webApi.WebClient(token, {
        slackApiUrl: strict.apiUrl,
        retryConfig: { retries: 0 },
        logger: silentWebApiLogger,
      });
      expect(await answer(strictClient.chat.postMessage({ channel: 'C0PUBLIC', text: 'x' }))).toBe('not_in_channel');
      expect(await answer(strictClient.chat.postMessage({ channel: 'C0UNDECLARED', text: 'x' }))).toBe(
        'not_in_channel',
      );
      expect(await answer(strictClient.chat.postMessage({ channel: 'C0PUBLICBOT', text: 'x' }))).toBe('ok');
    } finally {
      await strict.close();
    }
  });

  it('chat.update in a private channel the bot was removed from answers channel_not_found', async () => {
    const posted = await client.chat.postMessage({ channel: 'C0PRIVATEBOT', text: 'v1' });
    slack.setMembers('C0PRIVATEBOT', [RILEY, AVERY]);
    expect(await answer(client.chat.update({ channel: 'C0PRIVATEBOT', ts: posted.ts!, text: 'v2' }))).toBe(
      'channel_not_found',
    );
    expect(slack.messages('C0PRIVATEBOT')[0]?.text).toBe('v1');
  });
});

describe('chat.postEphemeral: the person must be in the conversation', () => {
  it.each([
    ['a member of a public channel the bot is not in', 'C0PUBLIC', SAM, 'ok'],
    ['someone outside a private channel the bot is in', 'C0PRIVATEBOT', SAM, 'user_not_in_channel'],
    ['the person in their DM with the bot', 'D0RILEYBOT', RILEY, 'ok'],
    ['someone else in a DM with the bot', 'D0RILEYBOT', AVERY, 'user_not_in_channel'],
    ['a member of a private channel the bot is not in', 'C0PRIVATE', RILEY, 'channel_not_found'],
    ['a person in a DM the bot is not in', 'D0RILEYAVERY', RILEY, 'channel_not_found'],
    ['anyone in a channel nobody declared', 'C0ELSEWHERE', 'U0ANYONE', 'ok'],
  ])('%s (%s, %s) answers %s', async (_what, channel, user, expected) => {
    expect(await answer(client.chat.postEphemeral({ channel, user, text: 'just for you' }))).toBe(expected);
  });
});

describe('conversations.join and conversations.info', () => {
  it('joining a public channel adds the bot; joining again succeeds with already_in_channel', async () => {
    expect(slack.isMember('C0PUBLIC', BOT)).toBe(false);
    const joined = await client.conversations.join({ channel: 'C0PUBLIC' });
    expect(joined).toMatchObject({
      ok: true,
      channel: { id: 'C0PUBLIC', name: 'treasury', is_channel: true, is_private: false, is_member: true },
    });
    expect(joined.warning).toBeUndefined();
    expect(slack.isMember('C0PUBLIC', BOT)).toBe(true);
    // Everyone who was in it still is.
    expect(slack.isMember('C0PUBLIC', SAM)).toBe(true);
    expect(await client.conversations.join({ channel: 'C0PUBLIC' })).toMatchObject({
      ok: true,
      warning: 'already_in_channel',
    });
  });

  it('an undeclared channel can be joined too: the bot is then a member, and so is everyone else', async () => {
    expect(slack.conversationKind('C0NEW')).toBe('public');
    await client.conversations.join({ channel: 'C0NEW' });
    expect(slack.isMember('C0NEW', BOT)).toBe(true);
    expect(slack.isMember('C0NEW', 'U0ANYONE')).toBe(true);
  });

  it.each([
    ['a private channel the bot is in', 'C0PRIVATEBOT', 'method_not_supported_for_channel_type'],
    ['its own DM', 'D0RILEYBOT', 'method_not_supported_for_channel_type'],
    ['a group DM it is in', 'G0GROUPBOT', 'method_not_supported_for_channel_type'],
    ['a private channel it cannot see', 'C0PRIVATE', 'channel_not_found'],
    ['a DM between two people', 'D0RILEYAVERY', 'channel_not_found'],
    ['an archived channel', 'C0ARCHIVED', 'is_archived'],
  ])('joining %s (%s) answers %s', async (_what, channel, expected) => {
    expect(await answer(client.conversations.join({ channel }))).toBe(expected);
  });

  it('conversations.info describes what the bot can see, and nothing else', async () => {
    expect(await client.conversations.info({ channel: 'C0PRIVATEBOT' })).toMatchObject({
      channel: {
        id: 'C0PRIVATEBOT',
        name: 'treasury-desk',
        is_channel: true,
        is_private: true,
        is_im: false,
        is_member: true,
      },
    });
    expect(await client.conversations.info({ channel: 'D0RILEYBOT' })).toMatchObject({
      channel: { is_im: true, is_private: true, user: RILEY },
    });
    expect(await client.conversations.info({ channel: 'G0GROUPBOT' })).toMatchObject({
      channel: { is_mpim: true, is_channel: false },
    });
    expect(await client.conversations.info({ channel: 'C0PUBLIC' })).toMatchObject({
      channel: { is_channel: true, is_private: false, is_member: false },
    });
    expect(await answer(client.conversations.info({ channel: 'C0PRIVATE' }))).toBe('channel_not_found');
  });

  it('reset() forgets joins and member changes: the declared conversations are back as given', async () => {
    await client.conversations.join({ channel: 'C0PUBLIC' });
    slack.setMembers('C0PRIVATE', [RILEY, BOT]);
    slack.addConversation({ id: 'C0EXTRA', kind: 'private', members: [RILEY] });
    slack.reset();
    expect(slack.isMember('C0PUBLIC', BOT)).toBe(false);
    expect(slack.isMember('C0PRIVATE', BOT)).toBe(false);
    expect(slack.conversationKind('C0EXTRA')).toBe('public');
  });
});
