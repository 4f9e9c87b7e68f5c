// The local workspace's path for modals and menus, from the page's requests (/api/*) to a real Bolt app over
// signed HTTP and back: a click whose listener opens a modal (views.open on the Slack stand-in) shows it to the
// person who clicked and to nobody else; the page's submission reaches the app as Slack's view_submission and the
// app's answer is acted on as Slack does (errors under inputs, update, clear, or closed on an empty answer); Close
// sends view_closed only when the view asked for it; a choice in a static menu, a click in a thread and a control
// inside an attachment reach the app as Slack sends them.
import { App, type BlockAction, LogLevel, SocketModeReceiver } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createInteractions, type Interactions } from '../../dev/workspace/interactions.js';
import { startWorkspaceServer, type WorkspaceServer } from '../../dev/workspace/server.js';
import { postToApp, viewStateValues, viewSubmissionPayload } from '../../dev/workspace/slack-requests.js';
import { createTimeline, type Timeline } from '../../dev/workspace/timeline.js';
import { silentLogger } from '../../src/logger.js';
import { type RunningApp, startAppOnFreePort } from '../support/rig/bolt-server.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { startSocketModeStandIn } from '../support/rig/socket-mode-stand-in.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const SIGNING_SECRET = 'workspace-modals-secret';
const BOT_TOKEN = 'xoxb-workspace-modals';
const TEAM = { id: 'T0LOCAL', domain: 'acme-treasury', appId: 'A0LOCALBOT' };
const RILEY = { id: 'U0RILEY', name: 'riley', displayName: 'Riley Chen' };
const SAM = { id: 'U0SAM', name: 'sam', displayName: 'Sam Lee' };
const ALERTS = { id: 'C0ALERTS', slackName: 'treasury-alerts', members: [RILEY.id, SAM.id, 'U_BOT'] };

const plain = (text: string) => ({ type: 'plain_text' as const, text });

/** The alert's "Resolve" modal: a note (required) and a ticket (optional). */
function resolveView(title = 'Resolve the alert', notifyOnClose = true) {
  return {
    type: 'modal' as const,
    callback_id: 'alert_resolve',
    private_metadata: 'alert-1',
    notify_on_close: notifyOnClose,
    title: plain(title),
    submit: plain('Resolve'),
    close: plain('Cancel'),
    blocks: [
      { type: 'section' as const, block_id: 'what', text: { type: 'mrkdwn' as const, text: '*Withdrawal failed*' } },
      {
        type: 'input' as const,
        block_id: 'note',
        label: plain('What was done'),
        element: { type: 'plain_text_input' as const, action_id: 'note_input', multiline: true },
      },
      {
        type: 'input' as const,
        block_id: 'ticket',
        optional: true,
        label: plain('Ticket'),
        element: { type: 'plain_text_input' as const, action_id: 'ticket_input' },
      },
    ],
  };
}

const ALERT_BLOCKS = [
  { type: 'section', block_id: 'summary', text: { type: 'mrkdwn', text: 'A withdrawal failed' } },
  {
    type: 'actions',
    block_id: 'alert_actions',
    elements: [
      { type: 'button', action_id: 'alert_resolve', value: 'a1', text: plain('Resolve') },
      { type: 'button', action_id: 'alert_info', value: 'a1', text: plain('Details') },
      {
        type: 'static_select',
        action_id: 'alert_snooze',
        placeholder: plain('Snooze'),
        options: [
          { text: plain('1 h'), value: '1h' },
          { text: plain('4 h'), value: '4h' },
        ],
      },
    ],
  },
];

let slack: SlackStandIn;
let app: App;
let running: RunningApp;
let timeline: Timeline;
let interactions: Interactions;
let server: WorkspaceServer;
/** Every payload the app received, oldest first. */
const received: object[] = [];

/** A modal as /api/timeline lists it. */
interface ShownModal {
  id: string;
  hash: string;
  view: Record<string, unknown>;
}

/** What the workspace server answers the page. */
interface PageAnswer {
  ok?: boolean;
  error?: string;
  answer?: unknown;
  modals?: ShownModal[];
}

async function page(path: string, body?: unknown): Promise<{ status: number; body: PageAnswer }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    ...(body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as PageAnswer };
}

const modalsOf = async (userId: string) => (await page(`/api/timeline?user=${userId}`)).body.modals ?? [];

/** Posts the alert as the app would, and returns its entry in the timeline. */
async function postAlert(blocks: unknown[] = ALERT_BLOCKS, threadTs?: string) {
  const posted = await app.client.chat.postMessage({
    channel: ALERTS.id,
    text: 'A withdrawal failed',
    blocks: blocks as never,
    ...(threadTs ? { thread_ts: threadTs } : {}),
  });
  return timeline.visibleTo(RILEY.id).find((entry) => entry.ts === posted.ts)!;
}

/** Clicks "Resolve" as Riley and waits for the modal the app opens with the click's trigger. */
async function openResolveModal(actionId = 'alert_resolve') {
  const alert = await postAlert();
  const click = await page('/api/action', {
    user: RILEY.id,
    entryId: alert.id,
    blockId: 'alert_actions',
    actionId,
    value: 'a1',
  });
  expect(click).toEqual({ status: 200, body: { ok: true } });
  await slack.waitFor(() => timeline.modalsOf(RILEY.id).length > 0, 5_000, 'the modal opened');
  return (await modalsOf(RILEY.id))[0]!;
}

const submit = (viewId: string, note: string | null, user = RILEY.id) =>
  page('/api/view-submission', { user, viewId, values: { note: { note_input: note }, ticket: { ticket_input: '' } } });

describe('modals and menus through the workspace server', () => {
  beforeAll(async () => {
    slack = await startSlackStandIn({
      botToken: BOT_TOKEN,
      botUserId: 'U_BOT',
      teamId: TEAM.id,
      conversations: [{ id: ALERTS.id, name: 'treasury-alerts', kind: 'public', members: [...ALERTS.members] }],
    });
    app = new App({
      signingSecret: SIGNING_SECRET,
      token: BOT_TOKEN,
      botId: 'B_BOT',
      botUserId: 'U_BOT',
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, logger: silentWebApiLogger },
    });
    app.action<BlockAction>(/^alert_(resolve|info)$/, async ({ ack, body, action, client }) => {
      await ack();
      received.push(body);
      const view = resolveView('Resolve the alert', action.action_id === 'alert_resolve');
      await client.views.open({ trigger_id: body.trigger_id, view });
    });
    app.action<BlockAction>(/^(alert_snooze|reply_ack)$/, async ({ ack, body }) => {
      await ack();
      received.push(body);
    });
    app.view('alert_resolve', async ({ ack, body, view }) => {
      received.push(body);
      const note = view.state.values.note?.note_input?.value ?? '';
      if (note === 'short') await ack({ response_action: 'errors', errors: { note: 'Say a little more.' } });
      else if (note === 'update me') await ack({ response_action: 'update', view: resolveView('Resolve: one more') });
      else if (note === 'break the rules') await ack({ response_action: 'update', view: resolveView('x'.repeat(25)) });
      else if (note === 'errors elsewhere') await ack({ response_action: 'errors', errors: { what: 'Not an input' } });
      else if (note === 'clear') await ack({ response_action: 'clear' });
      else await ack();
    });
    app.view({ callback_id: 'alert_resolve', type: 'view_closed' }, async ({ ack, body }) => {
      await ack();
      received.push(body);
    });
    running = await startAppOnFreePort(app);

    timeline = createTimeline();
    interactions = createInteractions({
      team: TEAM,
      people: [RILEY, SAM],
      conversations: [ALERTS],
      slack,
      timeline,
      deliver: (kind, payload) => postToApp(running.eventsUrl, SIGNING_SECRET, kind, payload),
      logger: silentLogger,
    });
    server = await startWorkspaceServer({
      port: 0,
      logger: silentLogger,
      timeline,
      workspace: { users: [RILEY, SAM] },
      command: interactions.command,
      action: interactions.action,
      submitView: interactions.submitView,
      closeView: interactions.closeView,
      controls: [],
    });
  });

  afterAll(async () => {
    await server?.close();
    interactions?.close();
    await running?.stop();
    await slack?.close();
  });

  beforeEach(() => {
    received.length = 0;
    for (const person of [RILEY, SAM]) timeline.closeModalsOf(person.id);
  });

  it('shows the modal a click opened to that person only, as Slack holds it', async () => {
    const modal = await openResolveModal();
    expect(modal.id).toBe(slack.views().at(-1)?.id);
    expect(modal.hash).toBe(slack.views().at(-1)?.hash);
    expect(modal.view).toMatchObject({ callback_id: 'alert_resolve', title: plain('Resolve the alert') });
    expect(await modalsOf(SAM.id)).toEqual([]);
  });

  it('submits what was typed as Slack’s view_submission, and keeps the modal open with the errors the app answered', async () => {
    const modal = await openResolveModal();
    expect(await submit(modal.id, 'short')).toEqual({
      status: 200,
      body: { ok: true, answer: { response_action: 'errors', errors: { note: 'Say a little more.' } } },
    });
    expect(received.at(-1)).toMatchObject({
      type: 'view_submission',
      team: { id: TEAM.id, domain: TEAM.domain },
      user: { id: RILEY.id, name: RILEY.name },
      api_app_id: TEAM.appId,
      trigger_id: expect.stringMatching(/^\d{13}\.\d+\.[0-9a-f]+$/),
      response_urls: [],
      view: {
        id: modal.id,
        hash: modal.hash,
        type: 'modal',
        team_id: TEAM.id,
        callback_id: 'alert_resolve',
        private_metadata: 'alert-1',
        root_view_id: modal.id,
        state: {
          values: {
            note: { note_input: { type: 'plain_text_input', value: 'short' } },
            // Slack sends an empty input as null.
            ticket: { ticket_input: { type: 'plain_text_input', value: null } },
          },
        },
      },
    });
    expect((await modalsOf(RILEY.id)).map((m) => m.id)).toEqual([modal.id]);
  });

  it('replaces the view on an update, closes it on an empty answer, and then takes no second submission', async () => {
    const modal = await openResolveModal();
    expect((await submit(modal.id, 'update me')).body).toMatchObject({
      ok: true,
      answer: { response_action: 'update' },
    });
    const [updated] = await modalsOf(RILEY.id);
    expect(updated).toMatchObject({ id: modal.id, view: { title: plain('Resolve: one more') } });
    expect(updated?.hash).not.toBe(modal.hash);

    expect(await submit(modal.id, 'Refunded by hand')).toEqual({ status: 200, body: { ok: true, answer: null } });
    expect(await modalsOf(RILEY.id)).toEqual([]);
    expect(received.at(-1)).toMatchObject({ view: { hash: updated?.hash } });
    expect(await submit(modal.id, 'again')).toEqual({
      status: 400,
      body: { ok: false, error: 'That form is closed.' },
    });
  });

  it('closes every modal of the person on clear', async () => {
    const modal = await openResolveModal();
    expect((await submit(modal.id, 'clear')).body).toEqual({ ok: true, answer: { response_action: 'clear' } });
    expect(await modalsOf(RILEY.id)).toEqual([]);
  });

  it('refuses, without sending anything, a required input left empty, a value for an input the view lacks, and someone else’s modal', async () => {
    const modal = await openResolveModal();
    received.length = 0;
    expect(await submit(modal.id, '')).toEqual({
      status: 400,
      body: { ok: false, error: 'Please fill in: What was done.' },
    });
    expect(
      (await page('/api/view-submission', { user: RILEY.id, viewId: modal.id, values: { what: { x: 'y' } } })).status,
    ).toBe(400);
    expect(await submit(modal.id, 'mine now', SAM.id)).toEqual({
      status: 400,
      body: { ok: false, error: 'That form is closed.' },
    });
    expect(received).toEqual([]);
    expect(await modalsOf(RILEY.id)).toHaveLength(1);
  });

  it('holds the app’s answer to Slack’s rules: an updated view over the limits, or errors naming no input, leave the modal as it was', async () => {
    const modal = await openResolveModal();
    const tooLong = await submit(modal.id, 'break the rules');
    expect(tooLong.status).toBe(502);
    expect(tooLong.body.error).toContain('We had some trouble connecting');
    expect(tooLong.body.error).toMatch(/\/view\/title/);
    const elsewhere = await submit(modal.id, 'errors elsewhere');
    expect(elsewhere.status).toBe(502);
    expect(elsewhere.body.error).toContain('errors names block "what", which is not an input block of the view');
    expect(await modalsOf(RILEY.id)).toEqual([modal]);
  });

  it('follows views.update from the app, and a closed modal stays closed', async () => {
    const modal = await openResolveModal();
    await app.client.views.update({ view_id: modal.id, view: resolveView('Resolve: changed') });
    expect((await modalsOf(RILEY.id))[0]?.view.title).toEqual(plain('Resolve: changed'));

    expect(await page('/api/view-closed', { user: RILEY.id, viewId: modal.id })).toEqual({
      status: 200,
      body: { ok: true },
    });
    await app.client.views.update({ view_id: modal.id, view: resolveView('Resolve: reopened?') });
    expect(await modalsOf(RILEY.id)).toEqual([]);
  });

  it('sends view_closed with what was typed when the view asked for it (notify_on_close), and nothing otherwise', async () => {
    const notified = await openResolveModal();
    await page('/api/view-closed', { user: RILEY.id, viewId: notified.id, values: { note: { note_input: 'half' } } });
    expect(await modalsOf(RILEY.id)).toEqual([]);
    expect(received.at(-1)).toMatchObject({
      type: 'view_closed',
      is_cleared: false,
      user: { id: RILEY.id },
      view: { id: notified.id, state: { values: { note: { note_input: { value: 'half' } } } } },
    });

    const quiet = await openResolveModal('alert_info');
    received.length = 0;
    expect((await page('/api/view-closed', { user: RILEY.id, viewId: quiet.id })).body).toEqual({ ok: true });
    expect(await modalsOf(RILEY.id)).toEqual([]);
    expect(received).toEqual([]);
  });

  it('sends a choice in a static menu with its selected_option, as Slack does, and refuses an option the menu lacks', async () => {
    const alert = await postAlert();
    const choose = (selectedValue: string) =>
      page('/api/action', {
        user: RILEY.id,
        entryId: alert.id,
        blockId: 'alert_actions',
        actionId: 'alert_snooze',
        selectedValue,
      });
    expect(await choose('4h')).toEqual({ status: 200, body: { ok: true } });
    const body = (received.at(-1) ?? {}) as BlockAction;
    const selected = { text: { type: 'plain_text', text: '4 h', emoji: true }, value: '4h' };
    expect(body.actions).toEqual([
      {
        type: 'static_select',
        action_id: 'alert_snooze',
        block_id: 'alert_actions',
        selected_option: selected,
        placeholder: plain('Snooze'),
        action_ts: expect.stringMatching(/^\d+\.\d{6}$/),
      },
    ]);
    expect(body.state).toEqual({
      values: { alert_actions: { alert_snooze: { type: 'static_select', selected_option: selected } } },
    });
    expect(body.container).toEqual({
      type: 'message',
      message_ts: alert.ts,
      channel_id: ALERTS.id,
      is_ephemeral: false,
    });

    received.length = 0;
    expect(await choose('forever')).toEqual({
      status: 400,
      body: { ok: false, error: 'That option is not in the menu any more.' },
    });
    expect(received).toEqual([]);
  });

  it('names the thread of a message clicked in a thread, as Slack does', async () => {
    const parent = await postAlert();
    const reply = await postAlert(
      [
        {
          type: 'actions',
          block_id: 'reply_actions',
          elements: [{ type: 'button', action_id: 'reply_ack', text: plain('OK') }],
        },
      ],
      parent.ts,
    );
    await page('/api/action', { user: RILEY.id, entryId: reply.id, blockId: 'reply_actions', actionId: 'reply_ack' });
    expect(received.at(-1)).toMatchObject({
      container: { type: 'message', message_ts: reply.ts, channel_id: ALERTS.id, thread_ts: parent.ts },
      message: { ts: reply.ts, thread_ts: parent.ts },
      actions: [{ type: 'button', action_id: 'reply_ack', block_id: 'reply_actions', text: plain('OK') }],
    });
  });

  it('sends a click inside an attachment as Slack does: a message_attachment container naming it, the whole message', async () => {
    const posted = await app.client.chat.postMessage({
      channel: ALERTS.id,
      text: 'Open: A withdrawal failed',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*OPEN* · A withdrawal failed' } }],
      attachments: [{ color: '#E01E5A', fallback: 'Open: A withdrawal failed', blocks: ALERT_BLOCKS as never }],
    });
    const alert = timeline.visibleTo(RILEY.id).find((entry) => entry.ts === posted.ts)!;
    expect(alert.attachments).toMatchObject([{ color: '#E01E5A', blocks: ALERT_BLOCKS }]);
    const choose = (attachmentId?: number) =>
      page('/api/action', {
        user: RILEY.id,
        entryId: alert.id,
        blockId: 'alert_actions',
        actionId: 'alert_snooze',
        selectedValue: '1h',
        ...(attachmentId !== undefined ? { attachmentId } : {}),
      });
    expect(await choose(1)).toEqual({ status: 200, body: { ok: true } });
    expect(received.at(-1)).toMatchObject({
      container: {
        type: 'message_attachment',
        message_ts: alert.ts,
        attachment_id: 1,
        channel_id: ALERTS.id,
        is_ephemeral: false,
        is_app_unfurl: false,
      },
      message: { ts: alert.ts, attachments: [{ id: 1, color: '#E01E5A', blocks: ALERT_BLOCKS }] },
      actions: [{ type: 'static_select', action_id: 'alert_snooze', selected_option: { value: '1h' } }],
    });
    // The menu is in the attachment, not in the message's own blocks; there is no second attachment.
    received.length = 0;
    expect((await choose()).status).toBe(400);
    expect(await choose(2)).toEqual({
      status: 400,
      body: { ok: false, error: 'That part of the message is not there any more.' },
    });
    expect(received).toEqual([]);

    // chat.update replaces the attachment the page shows.
    await app.client.chat.update({
      channel: ALERTS.id,
      ts: posted.ts!,
      text: 'Resolved',
      attachments: [{ color: '#2EB67D', fallback: 'Resolved', blocks: [ALERT_BLOCKS[0]] as never }],
    });
    expect(timeline.find(alert.id)).toMatchObject({ edited: true, attachments: [{ color: '#2EB67D' }] });
  });
});

describe('a view submission over Socket Mode', () => {
  it('is an interactive envelope whose ack carries the app’s answer', async () => {
    const slack = await startSlackStandIn({ botToken: BOT_TOKEN, appToken: 'xapp-1-modals' });
    const socket = await startSocketModeStandIn(slack);
    const app = new App({
      token: BOT_TOKEN,
      botId: 'B_BOT',
      botUserId: 'U_BOT',
      receiver: new SocketModeReceiver({
        appToken: 'xapp-1-modals',
        installerOptions: { clientOptions: { slackApiUrl: slack.apiUrl } },
        // The connection ends when the test does; its client reports that as an error.
        logger: silentWebApiLogger,
      }),
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, logger: silentWebApiLogger },
    });
    app.view('alert_resolve', async ({ ack }) =>
      ack({ response_action: 'errors', errors: { note: 'Say a little more.' } }),
    );
    await app.start();
    try {
      await socket.waitForConnection();
      const view = { id: 'V0SOCKET', hash: '1.abc', view: resolveView() };
      const payload = viewSubmissionPayload(
        TEAM,
        RILEY,
        view,
        viewStateValues(view.view, { note: { note_input: 'x' } }),
        'B_BOT',
      );
      expect(await socket.send('interactive', payload)).toEqual({
        response_action: 'errors',
        errors: { note: 'Say a little more.' },
      });
    } finally {
      await app.stop();
      await socket.close();
      await slack.close();
    }
  });
});

describe('a user menu (users_select) in a modal, as Slack sends its state', () => {
  const picker = {
    type: 'modal',
    title: plain('Reset a second factor'),
    submit: plain('Reset'),
    blocks: [
      {
        type: 'input',
        block_id: 'reset_person',
        label: plain('Whose second factor'),
        element: { type: 'users_select', action_id: 'person', placeholder: plain('Choose a person') },
      },
    ],
  };

  it('carries the member id chosen as selected_user, and null when nobody is chosen', () => {
    expect(viewStateValues(picker, { reset_person: { person: SAM.id } })).toEqual({
      reset_person: { person: { type: 'users_select', selected_user: SAM.id } },
    });
    expect(viewStateValues(picker)).toEqual({
      reset_person: { person: { type: 'users_select', selected_user: null } },
    });
    expect(viewStateValues(picker, { reset_person: { person: '' } })).toEqual({
      reset_person: { person: { type: 'users_select', selected_user: null } },
    });
  });

  it('refuses a choice that is not a member id: the menu lists people only', () => {
    expect(() => viewStateValues(picker, { reset_person: { person: '@sam' } })).toThrow(/not a member id/);
  });
});
