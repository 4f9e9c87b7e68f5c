import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { appHomeOpenedPayload } from '../../dev/workspace/slack-requests.js';
import { createTreasuryApp, type TreasuryApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { type BotStore, openBotStore } from '../../src/store/lowdb/index.js';
import { blocksToText } from '../support/rig/blocks-text.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { type SocketModeStandIn, startSocketModeStandIn } from '../support/rig/socket-mode-stand-in.js';

const BOT_TOKEN = 'xoxb-socket-test';
const APP_TOKEN = 'xapp-1-socket-test';

describe('Socket Mode (SLACK_APP_TOKEN set)', () => {
  let simulator: PaymentsSimulator;
  let slack: SlackStandIn;
  let socket: SocketModeStandIn;
  let store: BotStore;
  let treasury: TreasuryApp;
  let port: number;

  beforeAll(async () => {
    simulator = await startSimulator({ quiet: true });
    slack = await startSlackStandIn({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
    socket = await startSocketModeStandIn(slack);
    const config = loadConfig({
      PAYMENTS_API_URL: simulator.url,
      PAYMENTS_API_KEY: simulator.apiKey,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
    });
    store = await openBotStore(join(mkdtempSync(join(tmpdir(), 'socket-')), 'state.json'));
    const payments = createPaymentsClient({ baseUrl: config.paymentsApiUrl, apiKey: config.paymentsApiKey });
    treasury = createTreasuryApp({ config, payments, store, logger: silentLogger, slackRetries: 0 });
    ({ port } = await treasury.start());
    await socket.waitForConnection();
  });

  afterAll(async () => {
    await treasury.stop();
    await store.close();
    await socket.close();
    await slack.close();
    await simulator.close();
  });

  it('connects with the app-level token, needs no signing secret, and answers a command over the socket', async () => {
    expect(slack.callsOf('apps.connections.open')).toHaveLength(1);
    const result = await socket.command('balances', { userId: 'U0OPS' });
    const [reply] = await result.waitForResponses(1);
    expect(blocksToText(reply?.blocks ?? [])).toContain('Balances ·');
    expect(reply?.responseType).toBe('ephemeral');
  });

  it('takes app_home_opened as an events_api envelope: acknowledged with nothing in it, then the Home tab is published', async () => {
    const payload = appHomeOpenedPayload(
      { id: 'T_TEST', domain: 'treasury-test', appId: 'A_TEST' },
      { id: 'U0OPS' },
      { channel: 'D0OPS', botUserId: slack.botUserId, botId: slack.botId },
    );
    // Bolt acknowledges an event at once, with nothing in it (Socket Mode: an empty payload or none).
    expect((await socket.send('events_api', payload)) ?? {}).toEqual({});
    const home = await slack.waitFor(() => slack.homeView('U0OPS'), 5_000, 'the Home tab of U0OPS');
    expect(blocksToText(home.view.blocks as unknown[])).toContain('Balances ·');
  });

  it('serves GET /healthz on PORT in Socket Mode too, saying the connection is open', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { since: string };
    expect(body).toEqual({
      ok: true,
      socket: 'connected',
      since: expect.any(String),
      reconnects: 0,
    });
    expect(new Date(body.since).toISOString()).toBe(body.since);
  });

  it('serves GET /metrics beside /healthz in Socket Mode: the command over the socket moved the counters', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^treasury_slack_calls_total\{method="auth.test",outcome="ok"\} [1-9]/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });
});
