// Forms in the local workspace, from the page's requests (/api/*) to a real Bolt app over signed HTTP and back: a
// global shortcut the manifest declares opens a modal for the person who picked it; choosing in a menu or typing
// in an input whose block dispatches reaches the app as Slack's block_actions from the view (its id, hash and
// state), and the app's views.update is what the page then shows; what Slack's client would not send is refused.
// The page's modal renderer draws number inputs and marks the inputs that dispatch.
import { App, type BlockAction, LogLevel, type SlackShortcut } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createInteractions, type Interactions } from '../../dev/workspace/interactions.js';
import { toHtml } from '../../dev/workspace/page/blocks.js';
import { checkEntered, dispatchTriggers, modalTree } from '../../dev/workspace/page/modal.js';
import { startWorkspaceServer, type WorkspaceServer } from '../../dev/workspace/server.js';
import { postToApp } from '../../dev/workspace/slack-requests.js';
import { createTimeline, type Timeline } from '../../dev/workspace/timeline.js';
import { silentLogger } from '../../src/logger.js';
import { type RunningApp, startAppOnFreePort } from '../support/rig/bolt-server.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const SIGNING_SECRET = 'workspace-forms-secret';
const BOT_TOKEN = 'xoxb-workspace-forms';
const TEAM = { id: 'T0LOCAL', domain: 'acme-treasury', appId: 'A0LOCALBOT' };
const RILEY = { id: 'U0RILEY', name: 'riley', displayName: 'Riley Chen' };
const SAM = { id: 'U0SAM', name: 'sam', displayName: 'Sam Lee' };
const plain = (text: string) => ({ type: 'plain_text' as const, text });

/** A form like the invoice form: a menu grouped by network, an amount typed, a preview of what the app will do. */
function formView(preview: string, quietNote = false) {
  return {
    type: 'modal' as const,
    callback_id: 'test_form',
    title: plain('New invoice'),
    submit: plain('Create'),
    blocks: [
      {
        type: 'input',
        block_id: 'asset',
        dispatch_action: true,
        label: plain('Asset'),
        element: {
          type: 'static_select',
          action_id: 'asset',
          option_groups: [
            {
              label: plain('ETH'),
              options: [{ text: plain('USDT on Ethereum · 12,400.50 available'), value: 'USDT@ETH' }],
            },
            { label: plain('BSC'), options: [{ text: plain('USDT on BSC · 80.00 available'), value: 'USDT@BSC' }] },
          ],
        },
      },
      {
        type: 'input',
        block_id: 'amount',
        dispatch_action: true,
        label: plain('Amount'),
        element: {
          type: 'plain_text_input',
          action_id: 'amount',
          dispatch_action_config: { trigger_actions_on: ['on_character_entered'] },
        },
      },
      {
        type: 'input',
        block_id: 'note',
        optional: true,
        dispatch_action: !quietNote ? undefined : false,
        label: plain('Note'),
        element: { type: 'plain_text_input', action_id: 'note' },
      },
      { type: 'section', block_id: 'preview', text: { type: 'mrkdwn', text: preview } },
    ].map((block) => JSON.parse(JSON.stringify(block))),
  };
}

let slack: SlackStandIn;
let app: App;
let running: RunningApp;
let timeline: Timeline;
let interactions: Interactions;
let server: WorkspaceServer;
const actions: BlockAction[] = [];
const shortcuts: SlackShortcut[] = [];

async function page(path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    ...(body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const modalsOf = async (userId: string) =>
  ((await page(`/api/timeline?user=${userId}`)).body.modals ?? []) as Array<{
    id: string;
    hash: string;
    view: Record<string, unknown>;
  }>;

describe('forms through the workspace server', () => {
  beforeAll(async () => {
    slack = await startSlackStandIn({ botToken: BOT_TOKEN, botUserId: 'U_BOT', teamId: TEAM.id });
    app = new App({
      signingSecret: SIGNING_SECRET,
      token: BOT_TOKEN,
      botId: 'B_BOT',
      botUserId: 'U_BOT',
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, logger: silentWebApiLogger },
    });
    app.shortcut('new_invoice', async ({ ack, shortcut, client }) => {
      await ack();
      shortcuts.push(shortcut);
      await client.views.open({ trigger_id: shortcut.trigger_id, view: formView('Choose an asset') as never });
    });
    app.action<BlockAction>(/^(asset|amount)$/, async ({ ack, body, client }) => {
      await ack();
      actions.push(body);
      const values = body.view?.state.values;
      const asset = values?.asset?.asset?.selected_option?.value ?? 'no asset';
      const amount = values?.amount?.amount?.value ?? 'no amount';
      await client.views.update({
        view_id: body.view!.id,
        hash: body.view!.hash,
        view: formView(`${amount} of ${asset}`) as never,
      });
    });
    running = await startAppOnFreePort(app);
    timeline = createTimeline();
    interactions = createInteractions({
      team: TEAM,
      people: [RILEY, SAM],
      conversations: [],
      slack,
      timeline,
      deliver: (kind, payload) => postToApp(running.eventsUrl, SIGNING_SECRET, kind, payload),
      logger: silentLogger,
      shortcuts: [{ name: 'Treasury: new invoice', type: 'global', callback_id: 'new_invoice', description: 'd' }],
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
      viewAction: interactions.viewAction,
      shortcut: interactions.shortcut,
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
    actions.length = 0;
    shortcuts.length = 0;
    for (const person of [RILEY, SAM]) timeline.closeModalsOf(person.id);
  });

  const openForm = async () => {
    expect(await page('/api/shortcut', { user: RILEY.id, callbackId: 'new_invoice' })).toEqual({
      status: 200,
      body: { ok: true },
    });
    await slack.waitFor(() => timeline.modalsOf(RILEY.id).length > 0, 5_000, 'the form opened');
    return (await modalsOf(RILEY.id))[0]!;
  };

  it('a declared global shortcut opens the form for the person who picked it, and nobody else', async () => {
    const form = await openForm();
    expect(shortcuts[0]).toMatchObject({ type: 'shortcut', callback_id: 'new_invoice', user: { id: RILEY.id } });
    expect(form.view).toMatchObject({ callback_id: 'test_form' });
    expect(await modalsOf(SAM.id)).toEqual([]);
    expect(await page('/api/shortcut', { user: RILEY.id, callbackId: 'not_declared' })).toMatchObject({
      status: 400,
      body: { ok: false, error: expect.stringMatching(/declares no global shortcut/) },
    });
  });

  it('a choice, then typing, reach the app from the view with its id, hash and state; its update is what the page shows', async () => {
    const form = await openForm();
    const chose = await page('/api/view-action', {
      user: RILEY.id,
      viewId: form.id,
      blockId: 'asset',
      actionId: 'asset',
      values: { asset: { asset: 'USDT@BSC' }, amount: { amount: '' }, note: { note: '' } },
    });
    expect(chose).toEqual({ status: 200, body: { ok: true } });
    await slack.waitFor(() => actions.length === 1);
    expect(actions[0]).toMatchObject({
      container: { type: 'view', view_id: form.id },
      view: { id: form.id, hash: form.hash },
    });
    await slack.waitFor(() => timeline.findModal(form.id)?.hash !== form.hash, 5_000, 'the view updated');
    const updated = (await modalsOf(RILEY.id))[0]!;
    expect(JSON.stringify(updated.view)).toContain('no amount of USDT@BSC');

    await page('/api/view-action', {
      user: RILEY.id,
      viewId: form.id,
      blockId: 'amount',
      actionId: 'amount',
      trigger: 'on_character_entered',
      values: { asset: { asset: 'USDT@BSC' }, amount: { amount: '12.5' }, note: { note: '' } },
    });
    await slack.waitFor(() => actions.length === 2);
    // The second use carries the hash of the view as the first update left it.
    expect(actions[1]?.view?.hash).toBe(updated.hash);
    await slack.waitFor(() => timeline.findModal(form.id)?.hash !== updated.hash);
    expect(JSON.stringify((await modalsOf(RILEY.id))[0]?.view)).toContain('12.5 of USDT@BSC');
  });

  it('refuses what Slack’s client would not send: an input that does not dispatch, a trigger it does not list, someone else’s form', async () => {
    const form = await openForm();
    const use = (body: Record<string, unknown>) =>
      page('/api/view-action', { user: RILEY.id, viewId: form.id, values: {}, ...body });
    expect(await use({ blockId: 'note', actionId: 'note', trigger: 'on_enter_pressed' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/does not dispatch actions/) },
    });
    expect(await use({ blockId: 'amount', actionId: 'amount', trigger: 'on_enter_pressed' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/not on on_enter_pressed/) },
    });
    expect(await use({ user: SAM.id, blockId: 'asset', actionId: 'asset' })).toMatchObject({
      status: 400,
      body: { error: 'That form is closed.' },
    });
    expect(actions).toHaveLength(0);
  });
});

describe('the page’s modal renderer: number inputs and inputs that dispatch', () => {
  const numberBlock = (element: Record<string, unknown> = {}, block: Record<string, unknown> = {}) => ({
    type: 'input',
    block_id: 'count',
    label: plain('How many'),
    element: {
      type: 'number_input',
      action_id: 'count',
      is_decimal_allowed: false,
      min_value: '1',
      max_value: '10',
      ...element,
    },
    ...block,
  });
  const view = (blocks: unknown[]) => ({ type: 'modal', title: plain('Form'), submit: plain('Go'), blocks });

  it('draws a number input as a one-line field, and marks only the inputs whose block dispatches', () => {
    const html = toHtml(
      modalTree({ id: 'V1', view: view([numberBlock({}, { dispatch_action: true }), ...formView('p').blocks]) }),
    );
    expect(html).toMatch(/<input class="modal-control" type="text" inputmode="numeric" data-number-input="" value="" /);
    expect(html).toContain('data-block-id="count" data-action-id="count" required="" data-dispatch="on_enter_pressed"');
    expect(html).toContain('data-block-id="asset" data-action-id="asset" required="" data-dispatch="on_choice"');
    expect(html).toContain('data-dispatch="on_character_entered"');
    expect(html).toMatch(/data-block-id="note" data-action-id="note"(?! [^>]*data-dispatch)/);
  });

  it('dispatchTriggers: none without dispatch_action: true; Enter unless the config lists others', () => {
    expect(dispatchTriggers(numberBlock())).toEqual([]);
    expect(dispatchTriggers(numberBlock({}, { dispatch_action: false }))).toEqual([]);
    expect(dispatchTriggers(numberBlock({}, { dispatch_action: true }))).toEqual(['on_enter_pressed']);
    expect(
      dispatchTriggers(
        numberBlock(
          { dispatch_action_config: { trigger_actions_on: ['on_enter_pressed', 'on_character_entered'] } },
          { dispatch_action: true },
        ),
      ),
    ).toEqual(['on_enter_pressed', 'on_character_entered']);
  });

  it('refuses to send a number its input does not take, as Slack’s client does', () => {
    const v = view([numberBlock()]);
    expect(checkEntered(v, { count: { count: 'ten' } })).toEqual({ count: 'Please enter a number.' });
    expect(checkEntered(v, { count: { count: '2.5' } })).toEqual({ count: 'Please enter a whole number.' });
    expect(checkEntered(v, { count: { count: '11' } })).toEqual({ count: 'Please enter a number of at most 10.' });
    expect(checkEntered(v, { count: { count: '0' } })).toEqual({ count: 'Please enter a number of at least 1.' });
    expect(checkEntered(v, { count: { count: '7' } })).toEqual({});
  });
});
