/**
 * chat.getPermalink in the Slack stand-in, as Slack answers it: `{ok, channel, permalink}` for a message of a
 * conversation the bot can see (`/archives/<channel>/p<ts digits>`, and for a thread reply
 * `?thread_ts=<parent>&cid=<channel>`), `channel_not_found` for one it cannot, `message_not_found` for a ts with no
 * message. On the local workspace's page the same path is the fragment of the page's URL. Driven through Bolt's own
 * WebClient over HTTP.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/index.js';
import { silentWebApiLogger, slackError } from '../support/rig/web-client.js';

const token = 'xoxb-permalinks';
let slack: SlackStandIn;
let client: webApi.WebClient;

beforeAll(async () => {
  slack = await startSlackStandIn({
    botToken: token,
    teamDomain: 'acme-treasury',
    conversations: [
      { id: 'G0SECRET', name: 'board', kind: 'private', members: ['U0RILEY'] },
      { id: 'G0OPS', name: 'treasury-ops', kind: 'private', members: ['U0RILEY', 'U_BOT'] },
    ],
  });
  client = new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: silentWebApiLogger,
  });
});
afterAll(() => slack?.close());
beforeEach(() => slack.reset());

const digits = (ts: string) => ts.replace('.', '');

describe('chat.getPermalink', () => {
  it("links a message as Slack does: the team's host, /archives/<channel>/p<ts without its dot>", async () => {
    const posted = await client.chat.postMessage({ channel: 'C0ALERTS', text: 'Withdrawal failed' });
    const ts = posted.ts!;
    const answer = await client.chat.getPermalink({ channel: 'C0ALERTS', message_ts: ts });
    expect(answer).toMatchObject({
      ok: true,
      channel: 'C0ALERTS',
      permalink: `https://acme-treasury.slack.com/archives/C0ALERTS/p${digits(ts)}`,
    });
    expect(ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(answer.permalink).toMatch(/\/p\d{16}$/);
  });

  it("links a thread reply into its thread (thread_ts and cid), and the thread's parent plainly", async () => {
    const parent = (await client.chat.postMessage({ channel: 'G0OPS', text: 'Stuck withdrawal' })).ts!;
    const reply = (await client.chat.postMessage({ channel: 'G0OPS', text: 'Acknowledged', thread_ts: parent })).ts!;
    expect((await client.chat.getPermalink({ channel: 'G0OPS', message_ts: reply })).permalink).toBe(
      `https://acme-treasury.slack.com/archives/G0OPS/p${digits(reply)}?thread_ts=${parent}&cid=G0OPS`,
    );
    expect((await client.chat.getPermalink({ channel: 'G0OPS', message_ts: parent })).permalink).toBe(
      `https://acme-treasury.slack.com/archives/G0OPS/p${digits(parent)}`,
    );
  });

  it('needs no membership in a public channel (the bot posted there with chat:write.public)', async () => {
    const ts = (await client.chat.postMessage({ channel: 'C0ELSEWHERE', text: 'x' })).ts!;
    expect(slack.isMember('C0ELSEWHERE', slack.botUserId)).toBe(false);
    expect(await slackError(client.chat.getPermalink({ channel: 'C0ELSEWHERE', message_ts: ts }))).toBe('ok');
  });

  it('answers channel_not_found for a conversation the bot cannot see, or none named', async () => {
    expect(await slackError(client.chat.getPermalink({ channel: 'G0SECRET', message_ts: '1700000000.000100' }))).toBe(
      'channel_not_found',
    );
    expect(await slackError(client.chat.getPermalink({ channel: '', message_ts: '1700000000.000100' }))).toBe(
      'channel_not_found',
    );
  });

  it('answers message_not_found for a ts with no message there: unknown, another channel, or an ephemeral', async () => {
    const ts = (await client.chat.postMessage({ channel: 'C0ALERTS', text: 'x' })).ts!;
    expect(await slackError(client.chat.getPermalink({ channel: 'C0ALERTS', message_ts: '1.000001' }))).toBe(
      'message_not_found',
    );
    expect(await slackError(client.chat.getPermalink({ channel: 'C0OTHER', message_ts: ts }))).toBe(
      'message_not_found',
    );
    const ephemeral = await client.chat.postEphemeral({ channel: 'C0ALERTS', user: 'U0RILEY', text: 'only you' });
    expect(await slackError(client.chat.getPermalink({ channel: 'C0ALERTS', message_ts: ephemeral.message_ts! }))).toBe(
      'message_not_found',
    );
  });

  it("on the local workspace's page: the same path in the page's fragment, so the page can open the message", async () => {
    const fresh = await startSlackStandIn({ botToken: token, teamDomain: 'acme-treasury' });
    try {
      fresh.setPermalinkPage('http://localhost:3000/');
      const local = new webApi.WebClient(token, {
        slackApiUrl: fresh.apiUrl,
        retryConfig: { retries: 0 },
        logger: silentWebApiLogger,
      });
      const parent = (await local.chat.postMessage({ channel: 'C0ALERTS', text: 'Withdrawal failed' })).ts!;
      const reply = (await local.chat.postMessage({ channel: 'C0ALERTS', text: 'Resolved', thread_ts: parent })).ts!;
      expect((await local.chat.getPermalink({ channel: 'C0ALERTS', message_ts: parent })).permalink).toBe(
        `http://localhost:3000/#archives/C0ALERTS/p${digits(parent)}`,
      );
      expect((await local.chat.getPermalink({ channel: 'C0ALERTS', message_ts: reply })).permalink).toBe(
        `http://localhost:3000/#archives/C0ALERTS/p${digits(reply)}?thread_ts=${parent}&cid=C0ALERTS`,
      );
    } finally {
      await fresh.close();
    }
  });
});
