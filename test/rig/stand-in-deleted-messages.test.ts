/**
 * A message deleted in the Slack stand-in (as a person or an admin deletes it in Slack's client), answered as Slack
 * answers for a deleted message: chat.update and chat.getPermalink say `message_not_found`, conversations.replies
 * `thread_not_found`, and it is gone from the channel's history; its replies stay. Driven through Bolt's WebClient.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/index.js';
import { silentWebApiLogger, slackError } from '../support/rig/web-client.js';

const token = 'xoxb-deleted-messages';
let slack: SlackStandIn;
let client: webApi.WebClient;

beforeAll(async () => {
  slack = await startSlackStandIn({
    botToken: token,
    conversations: [{ id: 'C0ALERTS', name: 'treasury-alerts', kind: 'public', members: ['U_BOT', 'U0RILEY'] }],
  });
  client = new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: silentWebApiLogger,
  });
});
afterAll(() => slack?.close());

describe('a deleted message', () => {
  it('is gone for chat.update, chat.getPermalink, conversations.replies and the history; its replies stay', async () => {
    const parent = (await client.chat.postMessage({ channel: 'C0ALERTS', text: 'Withdrawal failed' })).ts!;
    const reply = (await client.chat.postMessage({ channel: 'C0ALERTS', text: 'on it', thread_ts: parent })).ts!;
    expect(slack.deleteMessage('C0ALERTS', parent)).toBe(true);

    expect(await slackError(client.chat.update({ channel: 'C0ALERTS', ts: parent, text: 'Acknowledged' }))).toBe(
      'message_not_found',
    );
    expect(await slackError(client.chat.getPermalink({ channel: 'C0ALERTS', message_ts: parent }))).toBe(
      'message_not_found',
    );
    expect(await slackError(client.conversations.replies({ channel: 'C0ALERTS', ts: parent }))).toBe(
      'thread_not_found',
    );
    const history = await client.conversations.history({ channel: 'C0ALERTS' });
    expect(history.messages?.map((m) => m.ts)).toEqual([]);
    expect(slack.messages('C0ALERTS').map((m) => m.ts)).toEqual([reply]);
    // Deleting what is not there says so.
    expect(slack.deleteMessage('C0ALERTS', parent)).toBe(false);
  });
});
