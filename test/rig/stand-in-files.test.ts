/**
 * File uploads in the Slack stand-in, as Slack's references for files.getUploadURLExternal and
 * files.completeUploadExternal have them: reserve (`filename`, `length`), POST the bytes to the upload URL (raw or
 * multipart; 200 when taken), complete once (`files` with ids and titles), which shares the files in `channel_id`
 * (and `thread_ts`) as one message carrying a `files` list, `initial_comment` its text. Sharing needs the bot in the
 * channel. The bytes are served at the file's url_private. Driven through Bolt's own WebClient over HTTP, files.uploadV2
 * included.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandIn, type StandInEvent, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { silentWebApiLogger, slackError } from '../support/rig/web-client.js';

const token = 'xoxb-files';
const MEMBER_CHANNEL = 'C0DIGEST';
const BOT = 'U_BOT';
let slack: SlackStandIn;
let client: webApi.WebClient;

const webClient = (stand: SlackStandIn) =>
  new webApi.WebClient(token, { slackApiUrl: stand.apiUrl, retryConfig: { retries: 0 }, logger: silentWebApiLogger });

beforeAll(async () => {
  slack = await startSlackStandIn({
    botToken: token,
    conversations: [
      { id: MEMBER_CHANNEL, name: 'treasury-digest', kind: 'public', members: ['U0RILEY', BOT] },
      { id: 'C0ELSEWHERE', name: 'general', kind: 'public', members: ['U0RILEY'] },
      { id: 'G0SECRET', name: 'board', kind: 'private', members: ['U0RILEY'] },
      { id: 'C0OLD', name: 'old', kind: 'public', members: [BOT], archived: true },
    ],
  });
  client = webClient(slack);
});
afterAll(() => slack?.close());
beforeEach(() => slack.reset());

/** A tiny valid PNG header (8-byte signature, then an IHDR of 3×2 pixels) padded to `size` bytes. */
function pngBytes(size = 64): Buffer {
  const bytes = Buffer.alloc(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(3, 16);
  bytes.writeUInt32BE(2, 20);
  return bytes;
}

async function reserve(filename: string, length: number) {
  const answer = await client.files.getUploadURLExternal({ filename, length });
  return { uploadUrl: answer.upload_url!, fileId: answer.file_id! };
}

const postBytes = (url: string, body: Buffer | FormData, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', body, headers });

describe('files.getUploadURLExternal', () => {
  it('answers an upload URL and a file id for a filename and a length', async () => {
    const answer = await client.files.getUploadURLExternal({ filename: 'chart.png', length: 64 });
    expect(answer).toMatchObject({ ok: true, file_id: expect.stringMatching(/^F[A-Z0-9]{10}$/) });
    expect(answer.upload_url).toMatch(new RegExp(`^${slack.baseUrl}/upload/v1/`));
    expect(slack.uploads()).toMatchObject([
      { id: answer.file_id, filename: 'chart.png', length: 64, completed: false },
    ]);
  });

  it.each<[string, Record<string, unknown>, string, string[] | undefined]>([
    ['no filename', { length: 10 }, 'invalid_arguments', ['[ERROR] missing required field: filename']],
    ['no length', { filename: 'a.png' }, 'invalid_arguments', ['[ERROR] missing required field: length']],
    [
      'a length that is not an integer',
      { filename: 'a.png', length: '1.5' },
      'invalid_arguments',
      ['[ERROR] must be an integer [json-pointer:/length]'],
    ],
    ['a length of 0', { filename: 'a.png', length: 0 }, 'missing_argument', undefined],
    ['a file over 1 GB', { filename: 'a.png', length: 1024 ** 3 + 1 }, 'file_upload_size_restricted', undefined],
    [
      'alt_txt over 1,000 characters',
      { filename: 'a.png', length: 5, alt_txt: 'x'.repeat(1_001) },
      'alt_txt_too_large',
      undefined,
    ],
  ])('refuses %s', async (_name, args, error, messages) => {
    const refused = (await client.apiCall('files.getUploadURLExternal', args).catch((e: unknown) => e)) as {
      data?: { error?: string; response_metadata?: { messages?: string[] } };
    };
    expect(refused.data?.error).toBe(error);
    if (messages) expect(refused.data?.response_metadata?.messages).toEqual(messages);
    expect(slack.uploads()).toEqual([]);
  });

  it('without files:write both methods answer missing_scope, naming the scope', async () => {
    const unscoped = await startSlackStandIn({ botToken: token, filesWrite: false });
    try {
      const refused = await webClient(unscoped)
        .files.getUploadURLExternal({ filename: 'a.png', length: 5 })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ data: { ok: false, error: 'missing_scope', needed: 'files:write' } });
      expect(
        await slackError(webClient(unscoped).files.completeUploadExternal({ files: [{ id: 'F0NOTHING01' }] })),
      ).toBe('missing_scope');
    } finally {
      await unscoped.close();
    }
  });
});

describe('the upload URL', () => {
  it('takes the bytes raw once (200), then refuses a second upload (409)', async () => {
    const { uploadUrl, fileId } = await reserve('chart.png', 64);
    const first = await postBytes(uploadUrl, pngBytes());
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('OK - 64');
    expect((await postBytes(uploadUrl, pngBytes())).status).toBe(409);
    expect(
      slack
        .uploads()
        .find((u) => u.id === fileId)
        ?.bytes?.equals(pngBytes()),
    ).toBe(true);
  });

  it('takes a multipart form (the first file part), as the SDK sends it', async () => {
    const { uploadUrl, fileId } = await reserve('chart.png', 64);
    const form = new FormData();
    form.append('filename', 'chart.png');
    form.append('file', new Blob([new Uint8Array(pngBytes())]), 'chart.png');
    expect((await postBytes(uploadUrl, form)).status).toBe(200);
    expect(slack.uploads().find((u) => u.id === fileId)?.bytes?.length).toBe(64);
  });

  it('refuses bytes of another length than declared (400), and an unknown URL (404)', async () => {
    const { uploadUrl } = await reserve('chart.png', 64);
    const response = await postBytes(uploadUrl, pngBytes(63));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/declared 64 bytes, received 63/);
    expect((await postBytes(`${uploadUrl}x`, pngBytes())).status).toBe(404);
    // The refused upload left the URL usable.
    expect((await postBytes(uploadUrl, pngBytes())).status).toBe(200);
  });

  it("fails as a test asks (failNext('upload_url', …)), then works", async () => {
    const { uploadUrl } = await reserve('chart.png', 64);
    slack.failNext('upload_url', { status: 500 });
    expect((await postBytes(uploadUrl, pngBytes())).status).toBe(500);
    expect((await postBytes(uploadUrl, pngBytes())).status).toBe(200);
  });
});

describe('files.completeUploadExternal', () => {
  it('shares the file in the thread as one message with a files list, its comment as text; url_private serves the bytes', async () => {
    const parent = await client.chat.postMessage({ channel: MEMBER_CHANNEL, text: 'Daily digest' });
    const events: StandInEvent[] = [];
    const stop = slack.onEvent((event) => events.push(event));
    const answer = await client.files.getUploadURLExternal({
      filename: 'balances.png',
      length: 64,
      alt_txt: 'A chart',
    } as {
      filename: string;
      length: number;
    });
    await postBytes(answer.upload_url!, pngBytes());
    const completed = await client.files.completeUploadExternal({
      files: [{ id: answer.file_id!, title: 'Balances, last 30 days' }],
      channel_id: MEMBER_CHANNEL,
      thread_ts: parent.ts!,
      initial_comment: 'The last 30 days',
    });
    stop();

    const file = {
      id: answer.file_id,
      name: 'balances.png',
      title: 'Balances, last 30 days',
      mimetype: 'image/png',
      filetype: 'png',
      size: 64,
      alt_txt: 'A chart',
      original_w: 3,
      original_h: 2,
      url_private: expect.stringMatching(new RegExp(`^${slack.baseUrl}/files-pri/`)),
    };
    expect(completed).toMatchObject({ ok: true, files: [file] });
    const [message] = slack.messages(MEMBER_CHANNEL).filter((m) => m.ts !== parent.ts);
    expect(message).toMatchObject({ threadTs: parent.ts, text: 'The last 30 days', files: [file] });
    expect(events).toMatchObject([
      { type: 'message', channel: MEMBER_CHANNEL, threadTs: parent.ts, text: 'The last 30 days', files: [file] },
    ]);
    expect(slack.uploads()[0]).toMatchObject({
      completed: true,
      shares: [{ channel: MEMBER_CHANNEL, ts: message!.ts, threadTs: parent.ts }],
    });

    // The thread reads back with the file message in it, as conversations.replies lists it.
    const replies = await client.conversations.replies({ channel: MEMBER_CHANNEL, ts: parent.ts! });
    expect(replies.messages?.[1]).toMatchObject({ upload: true, files: [{ id: answer.file_id }] });

    const url = completed.files![0]!.url_private!;
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(pngBytes())).toBe(true);
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(url, { headers: { authorization: 'Bearer xoxb-someone-else' } })).status).toBe(403);
  });

  it('can be called once: completing the same file again answers file_not_found, and so does an unknown id', async () => {
    const { uploadUrl, fileId } = await reserve('chart.png', 64);
    await postBytes(uploadUrl, pngBytes());
    await client.files.completeUploadExternal({ files: [{ id: fileId }], channel_id: MEMBER_CHANNEL });
    expect(
      await slackError(client.files.completeUploadExternal({ files: [{ id: fileId }], channel_id: MEMBER_CHANNEL })),
    ).toBe('file_not_found');
    expect(
      await slackError(
        client.files.completeUploadExternal({ files: [{ id: 'F0UNKNOWN01' }], channel_id: MEMBER_CHANNEL }),
      ),
    ).toBe('file_not_found');
    expect(slack.messages(MEMBER_CHANNEL)).toHaveLength(1);
    // The title defaults to the filename.
    expect(slack.messages(MEMBER_CHANNEL)[0]?.files?.[0]?.title).toBe('chart.png');
  });

  it('a file whose bytes never arrived is not found, and the upload URL is closed once completed', async () => {
    const { uploadUrl, fileId } = await reserve('chart.png', 64);
    expect(
      await slackError(client.files.completeUploadExternal({ files: [{ id: fileId }], channel_id: MEMBER_CHANNEL })),
    ).toBe('file_not_found');
    await postBytes(uploadUrl, pngBytes());
    await client.files.completeUploadExternal({ files: [{ id: fileId }], channel_id: MEMBER_CHANNEL });
    expect((await postBytes(uploadUrl, pngBytes())).status).toBe(404);
  });

  it.each([
    ['a channel the bot cannot see (a private one without it)', 'G0SECRET', 'channel_not_found'],
    ['a public channel the bot is not in: chat:write.public does not cover files', 'C0ELSEWHERE', 'not_in_channel'],
    ['an archived channel', 'C0OLD', 'posting_to_channel_denied'],
  ])('refuses %s', async (_name, channel, error) => {
    const { uploadUrl, fileId } = await reserve('chart.png', 64);
    await postBytes(uploadUrl, pngBytes());
    expect(
      await slackError(client.files.completeUploadExternal({ files: [{ id: fileId }], channel_id: channel })),
    ).toBe(error);
    // Nothing was shared, and the file can still be completed elsewhere.
    expect(slack.messages()).toEqual([]);
    await client.files.completeUploadExternal({ files: [{ id: fileId }], channel_id: MEMBER_CHANNEL });
  });

  it.each<[string, (parentTs: string, replyTs: string) => Record<string, unknown>, string]>([
    ['no files', () => ({ files: undefined, channel_id: MEMBER_CHANNEL }), '[ERROR] missing required field: files'],
    [
      'files that are not a list of ids',
      () => ({ files: JSON.stringify([{ title: 'x' }]), channel_id: MEMBER_CHANNEL }),
      '[ERROR] must be a list of objects with an id [json-pointer:/files]',
    ],
    [
      'a user id as the channel',
      () => ({ channel_id: 'U0RILEY' }),
      '[ERROR] input must match regex pattern: ^[CGDZ][A-Z0-9]{8,}$ [json-pointer:/channel_id]',
    ],
    [
      'a thread_ts that is not a ts',
      () => ({ channel_id: MEMBER_CHANNEL, thread_ts: 'yesterday' }),
      '[ERROR] must be a message ts [json-pointer:/thread_ts]',
    ],
    [
      'a thread_ts without a channel',
      (parentTs) => ({ thread_ts: parentTs }),
      '[ERROR] needs exactly one channel [json-pointer:/thread_ts]',
    ],
    [
      "a reply's ts as thread_ts (Slack: never use a reply's ts, use its parent)",
      (_parentTs, replyTs) => ({ channel_id: MEMBER_CHANNEL, thread_ts: replyTs }),
      "[ERROR] must be the ts of a thread's parent message in the channel [json-pointer:/thread_ts]",
    ],
  ])('refuses %s as invalid_arguments, naming the field', async (_name, extra, message) => {
    const parent = await client.chat.postMessage({ channel: MEMBER_CHANNEL, text: 'parent' });
    const reply = await client.chat.postMessage({ channel: MEMBER_CHANNEL, text: 'reply', thread_ts: parent.ts! });
    const { uploadUrl, fileId } = await reserve('chart.png', 64);
    await postBytes(uploadUrl, pngBytes());
    const refused = (await client
      .apiCall('files.completeUploadExternal', {
        files: JSON.stringify([{ id: fileId }]),
        ...extra(parent.ts!, reply.ts!),
      })
      .catch((e: unknown) => e)) as { data?: { error?: string; response_metadata?: { messages?: string[] } } };
    expect(refused.data?.error).toBe('invalid_arguments');
    expect(refused.data?.response_metadata?.messages).toEqual([message]);
  });

  it('without a channel the file stays private: completed, shared nowhere', async () => {
    const { uploadUrl, fileId } = await reserve('chart.png', 64);
    await postBytes(uploadUrl, pngBytes());
    expect(await client.files.completeUploadExternal({ files: [{ id: fileId }] })).toMatchObject({ ok: true });
    expect(slack.messages()).toEqual([]);
    expect(slack.uploads()[0]).toMatchObject({ completed: true, shares: [] });
  });
});

describe("Bolt's files.uploadV2 against the stand-in", () => {
  it('reserves, uploads (multipart) and completes into the thread in one call', async () => {
    const parent = await client.chat.postMessage({ channel: MEMBER_CHANNEL, text: 'Daily digest' });
    const result = await client.filesUploadV2({
      channel_id: MEMBER_CHANNEL,
      thread_ts: parent.ts!,
      file: pngBytes(),
      filename: 'balances.png',
      title: 'Balances',
    });
    expect(result.ok).toBe(true);
    const [shared] = slack.messages(MEMBER_CHANNEL).filter((m) => m.ts !== parent.ts);
    expect(shared).toMatchObject({
      threadTs: parent.ts,
      files: [{ name: 'balances.png', title: 'Balances', size: 64 }],
    });
  });
});
