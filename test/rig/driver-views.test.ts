// The rig's driver for modals and menus, against a real Bolt app and the Slack stand-in: a click's trigger opens a
// modal (views.open takes it), submitView sends Slack's view_submission and hands back the app's answer, closeView
// sends view_closed, selectOption sends a static menu's choice, and a click in a thread names the thread.
import { App, type BlockAction, LogLevel, type ViewClosedAction, type ViewSubmitAction } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createSlackDriver,
  type RunningApp,
  type SlackDriver,
  type SlackStandIn,
  startAppOnFreePort,
  startSlackStandIn,
} from '../support/rig/index.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const signingSecret = 'driver-views-secret';
const botToken = 'xoxb-driver-views';
const plain = (text: string) => ({ type: 'plain_text' as const, text });

const noteView = {
  type: 'modal' as const,
  callback_id: 'note_modal',
  private_metadata: 'alert-7',
  notify_on_close: true,
  title: plain('Resolve'),
  submit: plain('Resolve'),
  blocks: [
    {
      type: 'input' as const,
      block_id: 'note',
      label: plain('Note'),
      element: { type: 'plain_text_input' as const, action_id: 'note_input' },
    },
    {
      type: 'input' as const,
      block_id: 'reason',
      optional: true,
      label: plain('Reason'),
      element: {
        type: 'static_select' as const,
        action_id: 'reason_select',
        options: [{ text: plain('Refunded'), value: 'refunded' }],
      },
    },
  ],
};

const alertBlocks = [
  {
    type: 'actions',
    block_id: 'alert_actions',
    elements: [
      { type: 'button', action_id: 'resolve', value: 'a7', text: plain('Resolve') },
      {
        type: 'static_select',
        action_id: 'snooze',
        placeholder: plain('Snooze'),
        options: [
          { text: plain('1 h'), value: '1h' },
          { text: plain('Until tomorrow 09:00'), value: 'tomorrow' },
        ],
      },
    ],
  },
];

describe('the driver’s modals and menus', () => {
  let standIn: SlackStandIn;
  let app: App;
  let running: RunningApp;
  let driver: SlackDriver;
  const clicks: BlockAction[] = [];
  const submissions: ViewSubmitAction[] = [];
  const closes: ViewClosedAction[] = [];

  beforeAll(async () => {
    standIn = await startSlackStandIn({ botToken, botUserId: 'U_BOT', botId: 'B_BOT' });
    app = new App({
      signingSecret,
      token: botToken,
      botId: 'B_BOT',
      botUserId: 'U_BOT',
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: standIn.apiUrl, retryConfig: { retries: 0 }, logger: silentWebApiLogger },
    });
    app.action<BlockAction>('resolve', async ({ ack, body, client }) => {
      await ack();
      clicks.push(body);
      await client.views.open({ trigger_id: body.trigger_id, view: noteView });
    });
    app.action<BlockAction>(/^(snooze|thread_ok)$/, async ({ ack, body }) => {
      await ack();
      clicks.push(body);
    });
    app.view('note_modal', async ({ ack, body, view }) => {
      submissions.push(body as ViewSubmitAction);
      const note = view.state.values.note?.note_input?.value;
      await (note === 'x' ? ack({ response_action: 'errors', errors: { note: 'Too short.' } }) : ack());
    });
    app.view({ callback_id: 'note_modal', type: 'view_closed' }, async ({ ack, body }) => {
      await ack();
      closes.push(body as ViewClosedAction);
    });
    running = await startAppOnFreePort(app);
    driver = createSlackDriver({ eventsUrl: running.eventsUrl, signingSecret, standIn });
  });

  afterAll(async () => {
    await running?.stop();
    await standIn?.close();
  });

  beforeEach(() => {
    standIn.reset();
    clicks.length = 0;
    submissions.length = 0;
    closes.length = 0;
  });

  const postAlert = async (threadTs?: string) => {
    const posted = await app.client.chat.postMessage({
      channel: 'C_ALERTS',
      text: 'Withdrawal failed',
      blocks: alertBlocks as never,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
    return standIn.messages('C_ALERTS').find((m) => m.ts === posted.ts)!;
  };

  it('opens a modal with a click’s trigger, submits it, and returns the app’s answer (null when empty)', async () => {
    const alert = await postAlert();
    await driver.clickButtonIn(alert, 'resolve', { userId: 'U_AVERY', userName: 'avery' });
    const [opened] = await standIn.waitFor(() => (standIn.views().length > 0 ? standIn.views() : undefined));

    expect(await driver.submitView(opened!, { userId: 'U_AVERY', values: { note: { note_input: 'x' } } })).toEqual({
      response_action: 'errors',
      errors: { note: 'Too short.' },
    });
    expect(
      await driver.submitView(opened!, {
        userId: 'U_AVERY',
        values: { note: { note_input: 'Refunded by hand' }, reason: { reason_select: 'refunded' } },
      }),
    ).toBeNull();
    expect(submissions.at(-1)).toMatchObject({
      type: 'view_submission',
      user: { id: 'U_AVERY' },
      view: {
        id: opened!.id,
        hash: opened!.hash,
        callback_id: 'note_modal',
        private_metadata: 'alert-7',
        state: {
          values: {
            note: { note_input: { type: 'plain_text_input', value: 'Refunded by hand' } },
            reason: {
              reason_select: {
                type: 'static_select',
                selected_option: { text: { type: 'plain_text', text: 'Refunded', emoji: true }, value: 'refunded' },
              },
            },
          },
        },
      },
    });
    // Only what the view holds can be entered.
    await expect(driver.submitView(opened!, { values: { nowhere: { x: 'y' } } })).rejects.toThrow(
      'the view has no input with block_id "nowhere"',
    );

    expect((await driver.closeView(opened!, { userId: 'U_AVERY' })).status).toBe(200);
    expect(closes).toMatchObject([{ type: 'view_closed', is_cleared: false, view: { id: opened!.id } }]);
  });

  it('chooses an option in a static menu as Slack sends it, and says which menus and options there are', async () => {
    const alert = await postAlert();
    const result = await driver.selectOption(alert, 'snooze', 'tomorrow', { userId: 'U_RILEY', channelId: 'C_ALERTS' });
    expect(result.status).toBe(200);
    expect(clicks.at(-1)).toMatchObject({
      user: { id: 'U_RILEY' },
      container: { message_ts: alert.ts, channel_id: 'C_ALERTS' },
      actions: [
        {
          type: 'static_select',
          action_id: 'snooze',
          block_id: 'alert_actions',
          selected_option: {
            text: { type: 'plain_text', text: 'Until tomorrow 09:00', emoji: true },
            value: 'tomorrow',
          },
        },
      ],
    });
    await expect(driver.selectOption(alert, 'snooze', 'forever')).rejects.toThrow('available: 1h, tomorrow');
    await expect(driver.selectOption(alert, 'remind', '1h')).rejects.toThrow('available: snooze');
  });

  it('names the thread when the clicked message is a reply', async () => {
    const parent = await postAlert();
    const reply = await postAlert(parent.ts);
    await driver.selectOption(reply, 'snooze', '1h');
    expect(clicks.at(-1)).toMatchObject({
      container: { message_ts: reply.ts, thread_ts: parent.ts },
      message: { ts: reply.ts, thread_ts: parent.ts },
    });
    await driver.clickButtonIn({ ...reply, threadTs: parent.ts }, 'resolve');
    expect(clicks.at(-1)).toMatchObject({
      container: { message_ts: reply.ts, thread_ts: parent.ts },
      message: { ts: reply.ts, thread_ts: parent.ts },
    });
    expect(clicks.at(-1)?.message).not.toHaveProperty('threadTs');
    // Its listener opens a modal with the click's trigger, as from any message.
    await standIn.waitFor(() => standIn.views().length > 0);
  });
});
