/**
 * The Slack stand-in refuses what Slack refuses: invalid blocks and over-long messages on the chat methods, and on
 * response_urls bad blocks, more than 5 posts, posts after 30 minutes, and replacing a message that is not theirs.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/index.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const token = 'xoxb-refusals';
const CHANNEL = 'C_OPS';
const plain = (text: string) => ({ type: 'plain_text', text });
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const button = (actionId: string, value: string) => ({
  type: 'button',
  text: plain(value),
  action_id: actionId,
  value,
});
// Page 2 of the withdrawals list as it was built before the fix: Slack refused it.
const duplicatePager = [
  section('Withdrawals, page 2'),
  { type: 'actions', elements: [button('withdrawals_page', '1'), button('withdrawals_page', '3')] },
];
const DUPLICATE = 'duplicate action_id: withdrawals_page [json-pointer:/blocks/1/elements/1/action_id]';

let now = Date.parse('2026-11-22T12:00:00Z');
let slack: SlackStandIn;
let client: webApi.WebClient;

beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: token, now: () => now });
  client = new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: silentWebApiLogger,
  });
});
afterAll(() => slack?.close());
beforeEach(() => {
  slack.reset();
  now = Date.parse('2026-11-22T12:00:00Z');
});

const post = (url: string, body: Record<string, unknown>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('chat methods', () => {
  it("chat.postMessage answers invalid_blocks with Slack's errors and response_metadata, and stores nothing", async () => {
    await expect(
      client.chat.postMessage({ channel: CHANNEL, text: 'Withdrawals', blocks: duplicatePager }),
    ).rejects.toMatchObject({
      code: 'slack_webapi_platform_error',
      data: {
        ok: false,
        error: 'invalid_blocks',
        errors: [DUPLICATE],
        response_metadata: { messages: [`[ERROR] ${DUPLICATE}`] },
      },
    });
    expect(slack.messages(CHANNEL)).toEqual([]);
    expect(slack.rejections).toMatchObject([
      { target: 'chat.postMessage', error: 'invalid_blocks', problems: [DUPLICATE] },
    ]);
  });

  it('chat.update answers invalid_blocks and leaves the message as it was', async () => {
    const posted = await client.chat.postMessage({
      channel: CHANNEL,
      text: 'Withdrawals',
      blocks: [section('page 1')],
    });
    await expect(
      client.chat.update({ channel: CHANNEL, ts: posted.ts!, text: 'page 2', blocks: duplicatePager }),
    ).rejects.toMatchObject({
      data: { error: 'invalid_blocks', errors: [DUPLICATE] },
    });
    expect(slack.messages(CHANNEL)[0]).toMatchObject({ text: 'Withdrawals', blocks: [section('page 1')] });
    // Removing the blocks with an empty array is what chat.update documents.
    await expect(
      client.chat.update({ channel: CHANNEL, ts: posted.ts!, text: 'plain now', blocks: [] }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('chat.postEphemeral checks blocks too', async () => {
    await expect(
      client.chat.postEphemeral({ channel: CHANNEL, user: 'U1', text: 'x', blocks: duplicatePager }),
    ).rejects.toMatchObject({
      data: { error: 'invalid_blocks' },
    });
  });

  it('msg_blocks_too_long past 11,000 characters of block text; msg_too_long past 40,000 of text', async () => {
    const fourFullSections = Array.from({ length: 4 }, () => section('x'.repeat(2800)));
    await expect(
      client.chat.postMessage({ channel: CHANNEL, text: 'long', blocks: fourFullSections }),
    ).rejects.toMatchObject({
      data: { ok: false, error: 'msg_blocks_too_long' },
    });
    await expect(client.chat.postMessage({ channel: CHANNEL, text: 'x'.repeat(40_001) })).rejects.toMatchObject({
      data: { error: 'msg_too_long' },
    });
    await expect(client.chat.postMessage({ channel: CHANNEL, text: 'x'.repeat(40_000) })).resolves.toMatchObject({
      ok: true,
    });
  });

  it('blocks that are not JSON are invalid_blocks_format', async () => {
    const response = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ channel: CHANNEL, text: 'x', blocks: '[{"type":' }).toString(),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: false, error: 'invalid_blocks_format' });
  });
});

describe('response_url', () => {
  it('answers 400 invalid_blocks for bad blocks, records nothing, and the refused post does not use up the URL', async () => {
    const url = slack.createResponseUrl();
    const refused = await post(url, { text: 'Withdrawals', blocks: duplicatePager });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ ok: false, error: 'invalid_blocks' });
    expect(slack.responses(url)).toEqual([]);
    expect(slack.rejections).toMatchObject([{ target: url, error: 'invalid_blocks', problems: [DUPLICATE] }]);
    for (let i = 1; i <= 5; i += 1) expect((await post(url, { text: `post ${i}` })).status).toBe(200);
  });

  it('is good for 30 minutes: a post after that is refused with 404 expired_url', async () => {
    const url = slack.createResponseUrl();
    now += 30 * 60_000;
    expect((await post(url, { text: 'just in time' })).status).toBe(200);
    now += 1;
    const late = await post(url, { text: 'too late' });
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({ ok: false, error: 'expired_url' });
    expect(slack.responses(url).map((r) => r.text)).toEqual(['just in time']);
  });

  it('answers 400 no_text when there is nothing to post', async () => {
    const url = slack.createResponseUrl();
    const empty = await post(url, { response_type: 'ephemeral' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ ok: false, error: 'no_text' });
  });

  it("a slash command's URL has no original: replace_original posts a new message, delete_original deletes nothing", async () => {
    const url = slack.createResponseUrl();
    expect((await post(url, { text: 'Working on it…' })).status).toBe(200);
    expect((await post(url, { text: 'Done', replace_original: true })).status).toBe(200);
    expect((await post(url, { delete_original: true })).status).toBe(200);
    expect(slack.responses(url).map((r) => r.effect)).toEqual(['new_message', 'new_message', 'none']);
  });

  it("a click's URL replaces or deletes the clicked message, and only that one", async () => {
    const clicked = await client.chat.postMessage({ channel: CHANNEL, text: 'Quote', blocks: [section('Approve?')] });
    const other = await client.chat.postMessage({ channel: CHANNEL, text: 'Other' });
    const url = slack.createResponseUrl({ channel: CHANNEL, ts: clicked.ts! });

    expect(
      (await post(url, { replace_original: true, text: 'Approved', blocks: [section('Approved by <@U1>')] })).status,
    ).toBe(200);
    const [replaced, untouched] = slack.messages(CHANNEL);
    expect(replaced).toMatchObject({ ts: clicked.ts, text: 'Approved', blocks: [section('Approved by <@U1>')] });
    expect(replaced?.history.map((v) => v.text)).toEqual(['Quote', 'Approved']);
    expect(untouched).toMatchObject({ ts: other.ts, text: 'Other' });

    expect(
      (await post(url, { replace_original: false, response_type: 'ephemeral', text: 'Only you see this' })).status,
    ).toBe(200);
    expect((await post(url, { delete_original: true })).status).toBe(200);
    expect(slack.messages(CHANNEL).map((m) => m.ts)).toEqual([other.ts]);
    expect(slack.responses(url).map((r) => r.effect)).toEqual(['replaced_original', 'new_message', 'deleted_original']);
  });

  it('a click in an ephemeral message (not stored) may replace it too', async () => {
    const url = slack.createResponseUrl({ channel: CHANNEL, ts: '1700000000.000100' });
    expect((await post(url, { replace_original: true, text: 'page 2' })).status).toBe(200);
    expect(slack.responses(url)[0]?.effect).toBe('replaced_original');
  });

  it('a timeout report says why a post was refused', async () => {
    const url = slack.createResponseUrl();
    await post(url, { text: 'Withdrawals', blocks: duplicatePager });
    await expect(slack.waitForResponses(url, 1, 100)).rejects.toThrow(
      `refused as Slack would (1):\n  ${url}: invalid_blocks\n    ${DUPLICATE}`,
    );
  });
});
