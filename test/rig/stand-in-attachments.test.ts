/**
 * Legacy secondary attachments on the Slack stand-in, as Slack takes them: checked on every chat method and
 * response_url (invalid_attachments, too_many_attachments), kept and handed back numbered (`id`), replaced by
 * chat.update only when given; and the driver clicks a button or picks a menu option inside one as Slack reports
 * it (`container.type: 'message_attachment'` with its `attachment_id`, the whole message in `message`).
 */
import { App, type BlockAction, LogLevel, webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createSlackDriver,
  findMessageButtons,
  messageToText,
  type RunningApp,
  type SlackDriver,
  type SlackStandIn,
  type StandInEvent,
  startAppOnFreePort,
  startSlackStandIn,
} from '../support/rig/index.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const token = 'xoxb-attachments';
const signingSecret = 'attachments-secret';
const CHANNEL = 'C_ALERTS';
const plain = (text: string) => ({ type: 'plain_text' as const, text });
const section = (text: string) => ({ type: 'section' as const, text: { type: 'mrkdwn' as const, text } });

/** An alert as the bot draws it: the first word on top, then the facts and controls beside a colour bar. */
function alert(color: string, word: string, controls = true) {
  return {
    text: `${word}: Withdrawal failed`,
    blocks: [section(`*${word}* · *Withdrawal failed · 100 USDT*`)],
    attachments: [
      {
        color,
        fallback: `${word}: Withdrawal failed`,
        blocks: [
          section('*Id* `w-1`'),
          ...(controls
            ? [
                {
                  type: 'actions' as const,
                  block_id: 'alert:1:w-1',
                  elements: [
                    {
                      type: 'button' as const,
                      action_id: 'alert_acknowledge',
                      value: 'ack',
                      text: plain('Acknowledge'),
                    },
                    {
                      type: 'static_select' as const,
                      action_id: 'alert_snooze',
                      placeholder: plain('Snooze'),
                      options: [{ text: plain('1 h'), value: '1h' }],
                    },
                  ],
                },
              ]
            : []),
        ],
      },
    ],
  };
}

let slack: SlackStandIn;
let client: webApi.WebClient;
let app: App;
let running: RunningApp;
let driver: SlackDriver;
const clicks: BlockAction[] = [];
const events: StandInEvent[] = [];

beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: token, botUserId: 'U_BOT', botId: 'B_BOT' });
  slack.onEvent((event) => events.push(event));
  client = new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: silentWebApiLogger,
  });
  app = new App({
    signingSecret,
    token,
    botId: 'B_BOT',
    botUserId: 'U_BOT',
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, logger: silentWebApiLogger },
  });
  // Bolt routes by action_id wherever the control is: in the blocks or in an attachment.
  app.action<BlockAction>(/^alert_/, async ({ ack, body }) => {
    await ack();
    clicks.push(body);
  });
  running = await startAppOnFreePort(app);
  driver = createSlackDriver({ eventsUrl: running.eventsUrl, signingSecret, standIn: slack });
});
afterAll(async () => {
  await running?.stop();
  await slack?.close();
});
beforeEach(() => {
  slack.reset();
  clicks.length = 0;
  events.length = 0;
});

describe('the chat methods take attachments as Slack does', () => {
  it('keeps them, hands them back numbered, and tells the page (events) about them', async () => {
    const posted = await client.chat.postMessage({ channel: CHANNEL, ...alert('#E01E5A', 'OPEN') });
    expect(posted.message?.attachments).toMatchObject([
      { id: 1, color: '#E01E5A', fallback: 'OPEN: Withdrawal failed' },
    ]);
    const [stored] = slack.messages(CHANNEL);
    expect(stored?.attachments).toEqual(alert('#E01E5A', 'OPEN').attachments);
    expect(messageToText(stored!)).toContain('*Id* `w-1`');
    expect(events).toMatchObject([{ type: 'message', attachments: [{ color: '#E01E5A' }] }]);

    // The bot reads a channel it is in.
    await client.conversations.join({ channel: CHANNEL });
    const history = await client.conversations.history({ channel: CHANNEL });
    expect(history.messages?.[0]?.attachments).toMatchObject([{ id: 1, color: '#E01E5A' }]);
  });

  it('chat.update replaces the attachments when given, keeps them when left out, and [] removes them', async () => {
    const posted = await client.chat.postMessage({ channel: CHANNEL, ...alert('#E01E5A', 'OPEN') });
    const ts = posted.ts!;
    await client.chat.update({ channel: CHANNEL, ts, ...alert('#2EB67D', 'RESOLVED', false) });
    expect(slack.messages(CHANNEL)[0]?.attachments).toEqual(alert('#2EB67D', 'RESOLVED', false).attachments);
    expect(events.at(-1)).toMatchObject({ type: 'update', ts, attachments: [{ color: '#2EB67D' }] });

    await client.chat.update({ channel: CHANNEL, ts, text: 'only the text changes' });
    expect(slack.messages(CHANNEL)[0]).toMatchObject({
      text: 'only the text changes',
      attachments: [{ color: '#2EB67D' }],
    });

    await client.chat.update({ channel: CHANNEL, ts, text: 'plain', attachments: [] });
    expect(slack.messages(CHANNEL)[0]?.attachments).toEqual([]);
    expect(slack.messages(CHANNEL)[0]?.history).toHaveLength(4);
  });

  it('refuses a bad colour, a bad block inside, blocks with a legacy field: invalid_attachments, nothing stored', async () => {
    const bad = alert('red', 'OPEN');
    await expect(client.chat.postMessage({ channel: CHANNEL, ...bad })).rejects.toMatchObject({
      data: { ok: false, error: 'invalid_attachments' },
    });
    const longBlock = { color: 'good', blocks: [section('x'.repeat(3001))] };
    await expect(
      client.chat.postMessage({ channel: CHANNEL, text: 'x', attachments: [longBlock] }),
    ).rejects.toMatchObject({ data: { error: 'invalid_attachments' } });
    await expect(
      client.chat.postMessage({ channel: CHANNEL, text: 'x', attachments: [{ blocks: [section('x')], text: '' }] }),
    ).rejects.toMatchObject({ data: { error: 'invalid_attachments' } });
    expect(slack.messages(CHANNEL)).toEqual([]);
    expect(slack.rejections.map((r) => [r.target, r.error, r.problems[0]])).toEqual([
      [
        'chat.postMessage',
        'invalid_attachments',
        'must be good, warning, danger or a hex color code (eg. #439FE0) [json-pointer:/attachments/0/color]',
      ],
      [
        'chat.postMessage',
        'invalid_attachments',
        'must be less than 3001 characters [json-pointer:/attachments/0/blocks/0/text/text]',
      ],
      [
        'chat.postMessage',
        'invalid_attachments',
        'cannot be used together with blocks [json-pointer:/attachments/0/text]',
      ],
    ]);
  });

  it('chat.update and chat.postEphemeral are held to the same rules; an update refused leaves the message as it was', async () => {
    const posted = await client.chat.postMessage({ channel: CHANNEL, ...alert('#E01E5A', 'OPEN') });
    await expect(
      client.chat.update({
        channel: CHANNEL,
        ts: posted.ts!,
        ...alert('#2EB67D', 'RESOLVED'),
        attachments: [7] as never,
      }),
    ).rejects.toMatchObject({ data: { error: 'invalid_attachments' } });
    expect(slack.messages(CHANNEL)[0]?.attachments).toEqual(alert('#E01E5A', 'OPEN').attachments);
    await expect(
      client.chat.postEphemeral({ channel: CHANNEL, user: 'U1', text: 'x', attachments: [{ color: 'pink' }] }),
    ).rejects.toMatchObject({ data: { error: 'invalid_attachments' } });
  });

  it('more than 100 attachments is too_many_attachments; attachments that are not JSON, invalid_attachments', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ fallback: `row ${i}`, text: `row ${i}` }));
    await expect(client.chat.postMessage({ channel: CHANNEL, text: 'x', attachments: many })).rejects.toMatchObject({
      data: { ok: false, error: 'too_many_attachments' },
    });
    await expect(
      client.chat.postMessage({ channel: CHANNEL, text: 'x', attachments: many.slice(0, 100) }),
    ).resolves.toMatchObject({ ok: true });
    const response = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ channel: CHANNEL, text: 'x', attachments: '[{"color":' }).toString(),
    });
    expect(await response.json()).toMatchObject({ ok: false, error: 'invalid_attachments' });
  });

  it('a response_url answers 400 invalid_attachments for bad ones, and replaces the original’s attachments', async () => {
    const posted = await client.chat.postMessage({ channel: CHANNEL, ...alert('#E01E5A', 'OPEN') });
    const url = slack.createResponseUrl({ channel: CHANNEL, ts: posted.ts! });
    const post = (body: Record<string, unknown>) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const refused = await post({ replace_original: true, text: 'x', attachments: [{ color: 'red' }] });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ ok: false, error: 'invalid_attachments' });
    expect((await post({ replace_original: true, ...alert('#ECB22E', 'ACKNOWLEDGED') })).status).toBe(200);
    expect(slack.messages(CHANNEL)[0]?.attachments).toMatchObject([{ color: '#ECB22E' }]);
    expect(slack.responses(url)).toMatchObject([{ attachments: [{ color: '#ECB22E' }] }]);
  });
});

describe('the driver clicks inside an attachment as Slack reports it', () => {
  it('finds the buttons of the attachments too, with the attachment they are in', async () => {
    const posted = await client.chat.postMessage({ channel: CHANNEL, ...alert('#E01E5A', 'OPEN') });
    const [stored] = slack.messages(CHANNEL);
    expect(findMessageButtons(stored!)).toMatchObject([
      { actionId: 'alert_acknowledge', blockId: 'alert:1:w-1', attachmentId: 1 },
    ]);
    expect(posted.ok).toBe(true);
  });

  it('a button: container message_attachment with attachment_id, and the whole message with its attachments', async () => {
    await client.chat.postMessage({ channel: CHANNEL, ...alert('#E01E5A', 'OPEN') });
    const [stored] = slack.messages(CHANNEL);
    expect((await driver.clickButtonIn(stored!, 'alert_acknowledge', { userId: 'U_RILEY' })).status).toBe(200);
    expect(clicks.at(-1)).toMatchObject({
      user: { id: 'U_RILEY' },
      container: {
        type: 'message_attachment',
        message_ts: stored!.ts,
        attachment_id: 1,
        channel_id: CHANNEL,
        is_ephemeral: false,
        is_app_unfurl: false,
      },
      message: {
        ts: stored!.ts,
        blocks: stored!.blocks,
        attachments: [{ id: 1, color: '#E01E5A', blocks: alert('#E01E5A', 'OPEN').attachments[0]!.blocks }],
      },
      actions: [{ type: 'button', action_id: 'alert_acknowledge', block_id: 'alert:1:w-1', value: 'ack' }],
    });
  });

  it('a menu option: the same container, the choice in the action and in state.values', async () => {
    await client.chat.postMessage({ channel: CHANNEL, ...alert('#E01E5A', 'OPEN') });
    const [stored] = slack.messages(CHANNEL);
    await driver.selectOption(stored!, 'alert_snooze', '1h', { userId: 'U_AVERY' });
    expect(clicks.at(-1)).toMatchObject({
      container: { type: 'message_attachment', attachment_id: 1, message_ts: stored!.ts },
      message: { attachments: [{ id: 1, color: '#E01E5A' }] },
      actions: [{ type: 'static_select', action_id: 'alert_snooze', selected_option: { value: '1h' } }],
      state: {
        values: { 'alert:1:w-1': { alert_snooze: { type: 'static_select', selected_option: { value: '1h' } } } },
      },
    });
  });

  it('a control in the message’s own blocks still reports a message container', async () => {
    const { attachments, ...withoutAttachments } = alert('#E01E5A', 'OPEN');
    await client.chat.postMessage({ channel: CHANNEL, ...withoutAttachments, blocks: attachments[0]!.blocks });
    const [stored] = slack.messages(CHANNEL);
    await driver.clickButtonIn(stored!, 'alert_acknowledge');
    expect(clicks.at(-1)?.container).toEqual({
      type: 'message',
      message_ts: stored!.ts,
      channel_id: CHANNEL,
      is_ephemeral: false,
    });
  });
});
