import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { RESTARTING } from '../../src/listeners/shutdown-gate.js';
import { type BotProcess, startBotProcess } from '../support/bot-process.js';
import { blocksToText } from '../support/rig/blocks-text.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { type SocketModeStandIn, startSocketModeStandIn } from '../support/rig/socket-mode-stand-in.js';
import { runBot } from '../support/run-bot.js';

// The real entry point (`node dist/src/main.js`) in Socket Mode, with the real reconnect spacing (at once, 1 s, 2 s…).
const BOT_TOKEN = 'xoxb-socket-process-test';
const APP_TOKEN = 'xapp-1-socket-process-secret';
/** A log line; anything else on stderr is a plain line meant for a person. */
const LOG_LINE = /^\d{4}-\d\d-\d\dT[\d:.]+Z (DEBUG|INFO |WARN |ERROR) /;

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
let socket: SocketModeStandIn;
let bot: BotProcess | undefined;

beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
});
afterAll(async () => {
  await simulator.close();
});
afterEach(async () => {
  await bot?.stop('SIGKILL');
  bot = undefined;
  await socket?.close();
  await slack?.close();
});

async function standIns(): Promise<void> {
  slack = await startSlackStandIn({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  socket = await startSocketModeStandIn(slack);
}

function env(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_APP_TOKEN: APP_TOKEN,
    SLACK_API_URL: slack.apiUrl,
    ...overrides,
  };
}

const plainLines = (stderr: string) => stderr.split('\n').filter((line) => line !== '' && !LOG_LINE.test(line));

async function health(process: BotProcess): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${process.baseUrl}/healthz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Health once it says `socket`: the stand-in counts a connection at its hello, a moment before the bot reads it. */
async function healthOnce(
  process: BotProcess,
  socketState: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  let last = await health(process);
  const deadline = Date.now() + 5_000;
  while (last.body.socket !== socketState && Date.now() < deadline) last = await health(process);
  return last;
}

/** Nothing a person should not see: no stack, no unhandled rejection, no secret. */
function expectCleanStderr(stderr: string): void {
  expect(stderr).not.toMatch(/unhandled promise rejection|UnhandledPromiseRejection|\n\s+at /i);
  expect(stderr).not.toContain(APP_TOKEN.slice(5));
  expect(stderr).not.toContain(BOT_TOKEN.slice(5));
}

describe('the bot process in Socket Mode', () => {
  it('comes back after a drop through a 500 and a network reset, answers over the new socket; link_disabled then ends it with exit 1 and one plain line', async () => {
    await standIns();
    bot = await startBotProcess(env());
    await socket.waitForConnection(1);
    expect(bot.stderr()).toMatch(/connected to Slack in Socket Mode; \/healthz on port \d+/);

    slack.failNext('apps.connections.open', { status: 500 });
    slack.failNext('apps.connections.open', { reset: true });
    socket.dropConnection();
    // At once (500), about 1 s later (reset), about 2 s after that: connected.
    await socket.waitForConnection(2, 10_000);

    const result = await socket.command('balances', { userId: 'U0OPS' });
    const [reply] = await result.waitForResponses(1);
    expect(blocksToText(reply?.blocks ?? [])).toContain('Balances ·');
    const answer = await healthOnce(bot, 'connected');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, socket: 'connected', reconnects: 3 });
    const reconnects = bot
      .stderr()
      .split('\n')
      .filter((line) => line.includes('Socket Mode: reconnecting'));
    expect(reconnects).toEqual([
      expect.stringContaining('because the connection dropped'),
      expect.stringContaining('because apps.connections.open failed: HTTP 500'),
      expect.stringContaining('because apps.connections.open failed: network error'),
    ]);

    socket.sendDisconnect('link_disabled');
    expect(await bot.exited).toBe(1);
    expect(plainLines(bot.stderr())).toEqual([
      expect.stringMatching(
        /^Stopping: Slack closed the Socket Mode connection because Socket Mode was turned off for this app \(link_disabled\)\./,
      ),
    ]);
    expect(socket.connectionCount()).toBe(2);
    expectCleanStderr(bot.stderr());
  });

  it('ends with exit 1 and one plain line naming SLACK_APP_TOKEN when Slack refuses the app token on reconnect', async () => {
    await standIns();
    bot = await startBotProcess(env());
    await socket.waitForConnection(1);

    slack.failNext('apps.connections.open', { error: 'invalid_auth' });
    socket.dropConnection();
    expect(await bot.exited).toBe(1);
    expect(plainLines(bot.stderr())).toEqual([
      expect.stringMatching(/^Stopping: Slack rejected SLACK_APP_TOKEN \(invalid_auth\)\. /),
    ]);
    expect(bot.stderr()).toContain('Slack refused the Socket Mode connection, shutting down');
    expectCleanStderr(bot.stderr());
  });

  it('does not start when Slack refuses the app token at start: exit 1 and one plain line', async () => {
    await standIns();
    const result = await runBot(env({ SLACK_APP_TOKEN: 'xapp-1-wrong-secret-token' }));
    expect(result.code).toBe(1);
    expect(plainLines(result.stderr)).toEqual([
      expect.stringMatching(/^Cannot start: Slack rejected SLACK_APP_TOKEN \(invalid_auth\)\. /),
    ]);
    expect(result.stderr).not.toContain('wrong-secret-token');
    expectCleanStderr(result.stderr);
  });

  it('does not start when PORT (for /healthz) is taken: exit 1 and one plain line', async () => {
    await standIns();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    try {
      const port = String((blocker.address() as AddressInfo).port);
      const result = await runBot(env({ PORT: port }));
      expect(result.code).toBe(1);
      expect(plainLines(result.stderr)).toEqual([
        `Cannot start: Port ${port} is already in use: set PORT to a free one.`,
      ]);
      expectCleanStderr(result.stderr);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('stays up when the first connection fails for a passing reason, says so, and connects in the background', async () => {
    await standIns();
    slack.failNext('apps.connections.open', { status: 502 });
    bot = await startBotProcess(env());
    expect(bot.stderr()).toMatch(
      /not connected to Slack in Socket Mode yet; reconnecting in the background; \/healthz on port \d+/,
    );

    await socket.waitForConnection(1, 5_000);
    expect((await healthOnce(bot, 'connected')).body).toMatchObject({ ok: true, socket: 'connected', reconnects: 1 });
    await bot.stop('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(plainLines(bot.stderr())).toEqual([]);
    expectCleanStderr(bot.stderr());
  });

  it('SIGTERM while an answer waits on a slow payment API: the socket stays open until it is delivered, a command sent meanwhile gets the plain answer and starts nothing, then exit 0', async () => {
    await standIns();
    bot = await startBotProcess(env());
    await socket.waitForConnection(1);
    simulator.injectFault('listAssets', { delayMs: 2_000 });
    const slow = await socket.command('balances', { userId: 'U0OPS' });
    void bot.stop('SIGTERM');
    const running = bot;
    await expect.poll(() => running.stderr(), { timeout: 5_000 }).toMatch(/received SIGTERM, shutting down/);
    const listAssetsBefore = simulator.requestCount('listAssets');
    const late = await socket.command('balances', { userId: 'U0OPS' });
    expect(late.ackPayload).toMatchObject({ response_type: 'ephemeral', text: RESTARTING });
    const [reply] = await slow.waitForResponses(1, 10_000);
    expect(blocksToText(reply?.blocks ?? [])).toContain('Balances ·');
    expect(await bot.exited).toBe(0);
    // The slow answer's own read completed; the late command read nothing.
    expect(simulator.requestCount('listAssets')).toBe(listAssetsBefore + 1);
    expectCleanStderr(bot.stderr());
  });
});
