/**
 * Deleting in the Slack stand-in, as Slack's references for chat.delete and files.delete have them. chat.delete
 * (chat:write) takes `channel` and `ts`: a bot token deletes the bot's own messages only (`cant_delete_message`),
 * `message_not_found` for a ts with nothing there, `channel_not_found` where the bot cannot see; replies stay.
 * files.delete (files:write) takes `file`: `file_not_found` for an unknown id, `file_deleted` the second time, and
 * a share with no text of its own leaves the channel with its file. Without the scope, `missing_scope`. Driven
 * through Bolt's own WebClient over HTTP.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { silentWebApiLogger, slackError } from '../support/rig/web-client.js';

const token = 'xoxb-delete';
const CHANNEL = 'C0TREASURY';
const BOT = 'U_BOT';
const conversations = [
  { id: CHANNEL, name: 'treasury', kind: 'public' as const, members: ['U0RILEY', BOT] },
  { id: 'G0SECRET', name: 'board', kind: 'private' as const, members: ['U0RILEY'] },
];
let slack: SlackStandIn;
let client: webApi.WebClient;

const webClient = (stand: SlackStandIn) =>
  new webApi.WebClient(token, { slackApiUrl: stand.apiUrl, retryConfig: { retries: 0 }, logger: silentWebApiLogger });

beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: token, conversations });
  client = webClient(slack);
});
afterAll(() => slack?.close());
beforeEach(() => slack.reset());

/** A PNG signature padded to 64 bytes: enough for the stand-in to take it as an image. */
const pngBytes = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(56)]);

describe('chat.delete in the stand-in', () => {
  it("deletes the bot's own message once; the second time there is no message", async () => {
    const kept = await client.chat.postMessage({ channel: CHANNEL, text: 'stays' });
    const posted = await client.chat.postMessage({ channel: CHANNEL, text: 'the secret' });
    const answer = await client.chat.delete({ channel: CHANNEL, ts: posted.ts! });
    expect(answer).toMatchObject({ ok: true, channel: CHANNEL, ts: posted.ts });
    expect(slack.messages(CHANNEL).map((m) => m.ts)).toEqual([kept.ts]);
    expect(await slackError(client.chat.delete({ channel: CHANNEL, ts: posted.ts! }))).toBe('message_not_found');
    expect(await slackError(client.chat.update({ channel: CHANNEL, ts: posted.ts!, text: 'back?' }))).toBe(
      'message_not_found',
    );
  });

  it("refuses a person's message, an unknown ts and a channel the bot cannot see", async () => {
    const theirs = slack.addPersonMessage(CHANNEL, 'U0RILEY', 'mine');
    expect(await slackError(client.chat.delete({ channel: CHANNEL, ts: theirs }))).toBe('cant_delete_message');
    expect(slack.messages(CHANNEL).map((m) => m.ts)).toEqual([theirs]);
    expect(await slackError(client.chat.delete({ channel: CHANNEL, ts: '1700000000.000001' }))).toBe(
      'message_not_found',
    );
    expect(await slackError(client.chat.delete({ channel: 'G0SECRET', ts: theirs }))).toBe('channel_not_found');
  });

  it('leaves the replies of a deleted message in place', async () => {
    const parent = await client.chat.postMessage({ channel: CHANNEL, text: 'parent' });
    const reply = await client.chat.postMessage({ channel: CHANNEL, thread_ts: parent.ts!, text: 'reply' });
    await client.chat.delete({ channel: CHANNEL, ts: parent.ts! });
    expect(slack.messages(CHANNEL).map((m) => m.ts)).toEqual([reply.ts]);
  });
});

describe('files.delete in the stand-in', () => {
  it('removes a shared file, and its share with it when the share has no text; the second time it is deleted', async () => {
    await client.filesUploadV2({ channel_id: CHANNEL, file: pngBytes(), filename: 'qr.png', title: 'QR code' });
    const [share] = slack.messages(CHANNEL);
    const fileId = share!.files![0]!.id;
    expect(await client.files.delete({ file: fileId })).toMatchObject({ ok: true });
    expect(slack.messages(CHANNEL)).toEqual([]);
    expect(await slackError(client.files.delete({ file: fileId }))).toBe('file_deleted');
    expect(await slackError(client.files.delete({ file: 'F0NOSUCH' }))).toBe('file_not_found');
  });

  it('keeps a share that has words of its own, without the file', async () => {
    await client.filesUploadV2({
      channel_id: CHANNEL,
      file: pngBytes(),
      filename: 'qr.png',
      initial_comment: 'Scan this',
    });
    const [share] = slack.messages(CHANNEL);
    await client.files.delete({ file: share!.files![0]!.id });
    expect(slack.messages(CHANNEL)).toMatchObject([{ ts: share!.ts, text: 'Scan this', files: [] }]);
  });
});

describe('deleting without the scope', () => {
  it('answers missing_scope for chat.delete without chat:write and files.delete without files:write', async () => {
    const scoped = await startSlackStandIn({ botToken: token, conversations, chatWrite: false, filesWrite: false });
    try {
      const scopedClient = webClient(scoped);
      expect(await slackError(scopedClient.chat.delete({ channel: CHANNEL, ts: '1700000000.000001' }))).toBe(
        'missing_scope',
      );
      expect(await slackError(scopedClient.files.delete({ file: 'F0ANY' }))).toBe('missing_scope');
    } finally {
      await scoped.close();
    }
  });
});
