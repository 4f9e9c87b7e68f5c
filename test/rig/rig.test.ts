import { App, LogLevel } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  blocksToText,
  createSlackDriver,
  findButtons,
  type RunningApp,
  type SlackDriver,
  type SlackStandIn,
  startAppOnFreePort,
  startSlackStandIn,
} from '../support/rig/index.js';

const signingSecret = 'rig-test-signing-secret';
const botToken = 'xoxb-test';

// Slack's confirmation dialog object requires all four texts.
const REJECT_CONFIRM = {
  title: { type: 'plain_text', text: 'Sure?' },
  text: { type: 'plain_text', text: 'The swap will not be made.' },
  confirm: { type: 'plain_text', text: 'Reject' },
  deny: { type: 'plain_text', text: 'Keep it' },
};

const swapBlocks = [
  { type: 'header', text: { type: 'plain_text', text: 'Swap request' } },
  {
    type: 'section',
    block_id: 'swap_summary',
    text: { type: 'mrkdwn', text: '*1,000 USDC* → ETH' },
    fields: [
      { type: 'mrkdwn', text: '*Requested by*\n<@U_ALICE>' },
      { type: 'mrkdwn', text: '*Network*\nEthereum' },
    ],
  },
  { type: 'context', elements: [{ type: 'mrkdwn', text: 'Quote valid for 60 s' }] },
  {
    type: 'actions',
    block_id: 'swap_actions',
    elements: [
      {
        type: 'button',
        action_id: 'approve_swap',
        value: 'swap-42',
        style: 'primary',
        text: { type: 'plain_text', text: 'Approve' },
      },
      {
        type: 'button',
        action_id: 'reject_swap',
        value: 'swap-42',
        style: 'danger',
        text: { type: 'plain_text', text: 'Reject' },
        confirm: REJECT_CONFIRM,
      },
    ],
  },
];

describe('Slack test rig driving a real Bolt app', () => {
  let standIn: SlackStandIn;
  let app: App;
  let running: RunningApp;
  let driver: SlackDriver;
  const commandSeen = vi.fn();
  const actionSeen = vi.fn();

  beforeAll(async () => {
    standIn = await startSlackStandIn({ botToken, botUserId: 'U_BOT' });
    app = new App({
      signingSecret,
      token: botToken,
      // Known bot ids skip Bolt's start-up auth.test call.
      botId: 'B1',
      botUserId: 'U_BOT',
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: standIn.apiUrl, retryConfig: { retries: 0 } },
    });

    app.command('/treasury', async ({ command, ack, respond, client }) => {
      commandSeen(command);
      if (command.text === 'ack-with-body') {
        await ack({ response_type: 'ephemeral', text: 'Working on it…' });
        return;
      }
      await ack();
      if (command.text === 'post') {
        await client.chat.postMessage({ channel: command.channel_id, text: 'Swap request', blocks: swapBlocks });
        return;
      }
      await respond({ response_type: 'ephemeral', text: `Balances for <@${command.user_id}>: ${command.text}` });
    });

    app.action('approve_swap', async ({ ack, body, action, respond }) => {
      await ack();
      actionSeen({ user: body.user, value: action.type === 'button' ? action.value : undefined, body });
      await respond({ replace_original: true, text: `Approved by <@${body.user.id}>` });
    });

    app.event('app_home_opened', async ({ event, client }) => {
      await client.views.publish({ user_id: event.user, view: { type: 'home', blocks: swapBlocks } });
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
    commandSeen.mockClear();
    actionSeen.mockClear();
  });

  it('delivers a signed slash command to the listener, which acks and then responds on the response_url', async () => {
    const result = await driver.command('usdc', { userId: 'U_BOB', userName: 'bob', channelId: 'C_OPS' });

    expect(result.status).toBe(200);
    expect(result.body).toBe('');
    expect(commandSeen).toHaveBeenCalledWith(
      expect.objectContaining({
        command: '/treasury',
        text: 'usdc',
        user_id: 'U_BOB',
        user_name: 'bob',
        channel_id: 'C_OPS',
        team_id: 'T_TEST',
        api_app_id: 'A_TEST',
        response_url: result.responseUrl,
      }),
    );
    const [response] = await result.waitForResponses(1);
    expect(response?.text).toBe('Balances for <@U_BOB>: usdc');
    expect(response?.responseType).toBe('ephemeral');
    expect(response?.effect).toBe('new_message');
    expect(result.responses()).toHaveLength(1);
  });

  it('returns the object given to ack() as the HTTP body', async () => {
    const result = await driver.command('ack-with-body');

    expect(result.status).toBe(200);
    expect(result.body).toEqual({ response_type: 'ephemeral', text: 'Working on it…' });
  });

  it('records chat.postMessage with decoded blocks and lets chat.update change the stored message', async () => {
    await driver.command('post', { channelId: 'C_OPS' });
    const [call] = await standIn.waitForCalls('chat.postMessage', 1);
    expect(call?.args.blocks).toEqual(swapBlocks);

    const [posted] = standIn.messages('C_OPS');
    expect(posted?.text).toBe('Swap request');
    expect(blocksToText(posted?.blocks)).toContain('*1,000 USDC* → ETH');

    const updated = await app.client.chat.update({
      channel: 'C_OPS',
      ts: posted?.ts ?? '',
      text: 'Swap approved',
      blocks: [],
    });
    expect(updated).toMatchObject({ ok: true, channel: 'C_OPS', ts: posted?.ts, text: 'Swap approved' });

    const [current] = standIn.messages('C_OPS');
    expect(current?.text).toBe('Swap approved');
    expect(current?.blocks).toEqual([]);
    expect(current?.history.map((v) => v.text)).toEqual(['Swap request', 'Swap approved']);
    // The bot token travels in the Authorization header and must never reach the call log.
    expect(JSON.stringify(standIn.calls)).not.toContain(botToken);
  });

  it('gives each posted message a unique, increasing ts', async () => {
    const first = await app.client.chat.postMessage({ channel: 'C1', text: 'one' });
    const second = await app.client.chat.postMessage({ channel: 'C1', text: 'two' });

    expect(first.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(Number(second.ts)).toBeGreaterThan(Number(first.ts));
  });

  it('delivers a button click to the action listener with the clicking user and the button value', async () => {
    const posted = await app.client.chat.postMessage({ channel: 'C_OPS', text: 'Swap request', blocks: swapBlocks });
    const [message] = standIn.messages('C_OPS');
    expect(message?.ts).toBe(posted.ts);

    const result = await driver.clickButtonIn(message!, 'approve_swap', { userId: 'U_CAROL', userName: 'carol' });

    expect(result.status).toBe(200);
    expect(actionSeen).toHaveBeenCalledTimes(1);
    const seen = actionSeen.mock.calls[0]?.[0] as {
      user: { id: string; username: string };
      value: string;
      body: { container: unknown; actions: unknown[] };
    };
    expect(seen.user).toMatchObject({ id: 'U_CAROL', username: 'carol' });
    expect(seen.value).toBe('swap-42');
    expect(seen.body.container).toMatchObject({ type: 'message', message_ts: posted.ts, channel_id: 'C_OPS' });
    expect(seen.body.actions[0]).toMatchObject({ block_id: 'swap_actions', text: { text: 'Approve' } });
    const [response] = await result.waitForResponses(1);
    expect(response).toMatchObject({
      replaceOriginal: true,
      effect: 'replaced_original',
      text: 'Approved by <@U_CAROL>',
    });
    // The click's response_url belongs to the clicked message, which the stand-in replaced.
    expect(standIn.messages('C_OPS')[0]).toMatchObject({
      ts: posted.ts,
      text: 'Approved by <@U_CAROL>',
      blocks: undefined,
    });
  });

  it('delivers a signed Events API callback, and views.publish reaches the stand-in with the view decoded', async () => {
    const result = await driver.event({ type: 'app_home_opened', user: 'U_ALICE', channel: 'D_ALICE', tab: 'home' });

    expect(result.status).toBe(200);
    const [publish] = await standIn.waitForCalls('views.publish', 1);
    expect(publish?.args).toMatchObject({ user_id: 'U_ALICE', view: { type: 'home', blocks: swapBlocks } });
  });

  it('says which buttons exist when asked to click a missing one', () => {
    expect(() => driver.clickButtonIn({ ts: '1.000100', blocks: swapBlocks }, 'cancel_swap')).toThrow(
      'available: approve_swap, reject_swap',
    );
  });

  it('refuses a forged signature with 401 without calling the listener', async () => {
    const result = await driver.command('usdc', { signature: 'v0=deadbeef' });

    expect(result.status).toBe(401);
    expect(commandSeen).not.toHaveBeenCalled();
  });

  it('refuses a correctly signed but stale (> 5 min) request with 401 without calling the listener', async () => {
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
    const result = await driver.command('usdc', { timestamp: sixMinutesAgo });

    expect(result.status).toBe(401);
    expect(commandSeen).not.toHaveBeenCalled();
  });

  it('gets 400 from Bolt when the form content type carries a charset', async () => {
    const body = new URLSearchParams({ command: '/treasury', text: 'usdc' }).toString();
    const result = await driver.sendRaw(body, {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      ...driver.signatureHeaders(body),
    });

    expect(result.status).toBe(400);
    expect(commandSeen).not.toHaveBeenCalled();
  });

  it('makes the next postMessage fail with an injected Slack error, then recovers', async () => {
    standIn.failNext('chat.postMessage', { error: 'not_in_channel' });

    await expect(app.client.chat.postMessage({ channel: 'C_OPS', text: 'hi' })).rejects.toMatchObject({
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'not_in_channel' },
    });
    await expect(app.client.chat.postMessage({ channel: 'C_OPS', text: 'hi' })).resolves.toMatchObject({ ok: true });
    expect(standIn.callsOf('chat.postMessage')).toHaveLength(2);
    expect(standIn.messages('C_OPS')).toHaveLength(1);
  });

  it("a failure injected for one channel hits only that channel's next call; the others go through", async () => {
    standIn.failNext('chat.postMessage', { error: 'not_in_channel' }, 1, { channel: 'C_ALERTS' });

    await expect(app.client.chat.postMessage({ channel: 'C_OPS', text: 'elsewhere' })).resolves.toMatchObject({
      ok: true,
    });
    await expect(app.client.chat.postMessage({ channel: 'C_ALERTS', text: 'hi' })).rejects.toMatchObject({
      data: { ok: false, error: 'not_in_channel' },
    });
    await expect(app.client.chat.postMessage({ channel: 'C_ALERTS', text: 'hi' })).resolves.toMatchObject({ ok: true });
    expect(standIn.messages('C_ALERTS')).toHaveLength(1);
  });

  it('injects HTTP errors, rate limits with Retry-After, and delays', async () => {
    standIn.failNext('chat.update', { status: 500 });
    await expect(app.client.chat.update({ channel: 'C1', ts: '1.1', text: 'x' })).rejects.toMatchObject({
      code: 'slack_webapi_http_error',
      statusCode: 500,
    });

    standIn.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    const limited = await fetch(`${standIn.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C1', text: 'x' }),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toEqual({ ok: false, error: 'ratelimited' });

    standIn.failNext('auth.test', { delayMs: 150 });
    const started = performance.now();
    await expect(app.client.auth.test()).resolves.toMatchObject({ ok: true, user_id: 'U_BOT' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('answers auth.test for the right token and invalid_auth for a wrong one, so start-up fails clearly', async () => {
    await expect(app.client.auth.test()).resolves.toMatchObject({
      ok: true,
      team_id: 'T_TEST',
      user_id: 'U_BOT',
      bot_id: 'B_BOT',
      is_enterprise_install: false,
    });

    const misconfigured = new App({
      signingSecret,
      token: 'xoxb-revoked',
      deferInitialization: true,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: standIn.apiUrl, retryConfig: { retries: 0 } },
    });
    await expect(misconfigured.init()).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
    expect(JSON.stringify(standIn.calls)).not.toContain('xoxb-revoked');
  });

  it('accepts five posts per response_url and answers 404 used_url after that', async () => {
    const url = standIn.createResponseUrl();
    const post = (text: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });

    for (let i = 1; i <= 5; i += 1) expect((await post(`update ${i}`)).status).toBe(200);
    const sixth = await post('update 6');

    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toMatchObject({ error: 'used_url' });
    expect(standIn.responses(url).map((r) => r.text)).toEqual([
      'update 1',
      'update 2',
      'update 3',
      'update 4',
      'update 5',
    ]);
  });

  it('times out a wait with a message listing what was recorded', async () => {
    await app.client.chat.postMessage({ channel: 'C_OPS', text: 'only one' });

    await expect(standIn.waitForCalls('chat.postMessage', 2, 100)).rejects.toThrow(
      /Timed out after 100 ms waiting for 2 call\(s\) to chat\.postMessage[\s\S]*chat\.postMessage \{"channel":"C_OPS","text":"only one"/,
    );
  });
});

describe('Block Kit readers', () => {
  it('collects the visible text of headers, sections, fields, context and buttons', () => {
    expect(blocksToText(swapBlocks)).toBe(
      [
        'Swap request',
        '*1,000 USDC* → ETH',
        '*Requested by*\n<@U_ALICE>',
        '*Network*\nEthereum',
        'Quote valid for 60 s',
        'Approve',
        'Reject',
      ].join('\n'),
    );
  });

  it('lists buttons with their action_id, value, block_id, label, style and confirm', () => {
    expect(findButtons(swapBlocks)).toEqual([
      {
        actionId: 'approve_swap',
        value: 'swap-42',
        blockId: 'swap_actions',
        text: 'Approve',
        style: 'primary',
        url: undefined,
        confirm: undefined,
      },
      {
        actionId: 'reject_swap',
        value: 'swap-42',
        blockId: 'swap_actions',
        text: 'Reject',
        style: 'danger',
        url: undefined,
        confirm: REJECT_CONFIRM,
      },
    ]);
  });
});

describe('Slack stand-in lifecycle', () => {
  it('close() ends pending waits and calls held by an injected delay', async () => {
    const standIn = await startSlackStandIn();
    standIn.failNext('chat.postMessage', { delayMs: 10_000 });
    const held = fetch(`${standIn.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'channel=C1&text=hi',
    }).then(
      () => 'answered',
      () => 'connection closed',
    );
    const waiting = standIn.waitForCalls('chat.update', 1, 10_000);
    await standIn.waitForCalls('chat.postMessage', 1);

    await standIn.close();

    await expect(waiting).rejects.toThrow('Slack stand-in closed while waiting for 1 call(s) to chat.update');
    expect(await held).toBe('connection closed');
  });
});
