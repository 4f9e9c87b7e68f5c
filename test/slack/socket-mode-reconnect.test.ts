import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { createTreasuryApp, StartupError, type TreasuryApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { blocksToText } from '../support/rig/blocks-text.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { type SocketModeStandIn, startSocketModeStandIn } from '../support/rig/socket-mode-stand-in.js';
import { expectStaysAt, waitUntil } from '../support/waiting.js';

const BOT_TOKEN = 'xoxb-reconnect-test';
const APP_TOKEN = 'xapp-1-reconnect-test';
// The real spacing is 1 s doubling to 30 s (see socket-mode-backoff.test.ts); milliseconds keep these tests fast.
const FAST_RECONNECT = { initialMs: 20, maxMs: 100, jitter: 0.2 };

interface Health {
  status: number;
  body: { ok: boolean; socket?: string; since?: string; reconnects?: number; store?: unknown };
}

interface SocketBot {
  slack: SlackStandIn;
  socket: SocketModeStandIn;
  treasury: TreasuryApp;
  started: { port: number; socket?: string };
  /** Every log line, in order. */
  logs: string[];
  /** The lines passed to onFatal. */
  fatal: string[];
  health(): Promise<Health>;
  /** /healthz once it says `socket` (the stand-in counts a connection at its hello, a moment before the bot reads it). */
  healthOnce(socket: string): Promise<Health>;
  reconnectLines(): string[];
}

let simulator: PaymentsSimulator;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await simulator.close();
});

/** A bot in Socket Mode against fresh stand-ins; `prepare` runs before start (to inject a failure). */
async function startSocketBot(
  options: {
    appToken?: string;
    now?: () => Date;
    helloTimeoutMs?: number;
    prepare?: (slack: SlackStandIn, socket: SocketModeStandIn) => void;
  } = {},
): Promise<SocketBot> {
  const slack = await startSlackStandIn({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  cleanups.push(() => slack.close());
  const socket = await startSocketModeStandIn(slack);
  cleanups.push(() => socket.close());
  const config = loadConfig({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_APP_TOKEN: options.appToken ?? APP_TOKEN,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
  });
  const store = await openBotStore(join(mkdtempSync(join(tmpdir(), 'socket-reconnect-')), 'state.json'));
  cleanups.push(() => store.close());
  const logs: string[] = [];
  const fatal: string[] = [];
  const treasury = createTreasuryApp({
    config,
    payments: createPaymentsClient({ baseUrl: config.paymentsApiUrl, apiKey: config.paymentsApiKey }),
    store,
    logger: createLogger('info', (line) => logs.push(line)),
    slackRetries: 0,
    socketMode: {
      reconnect: FAST_RECONNECT,
      ...(options.helloTimeoutMs ? { helloTimeoutMs: options.helloTimeoutMs } : {}),
    },
    onFatal: (problem) => fatal.push(problem),
    ...(options.now ? { now: options.now } : {}),
  });
  options.prepare?.(slack, socket);
  // Stopped also when start fails: its /healthz server may be listening already.
  cleanups.push(() => treasury.stop());
  const started = await treasury.start();
  const health = async (): Promise<Health> => {
    const response = await fetch(`http://127.0.0.1:${started.port}/healthz`);
    return { status: response.status, body: (await response.json()) as Health['body'] };
  };
  return {
    slack,
    socket,
    treasury,
    started,
    logs,
    fatal,
    health,
    async healthOnce(socket) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const answer = await health();
        if (answer.body.socket === socket || Date.now() > deadline) return answer;
        await sleep(10);
      }
    },
    reconnectLines: () => logs.filter((line) => line.includes('Socket Mode: reconnecting')),
  };
}

describe('Socket Mode comes back after a passing failure', () => {
  it('reconnects after a dropped connection through a 500 and a network reset on apps.connections.open, then answers a command over the new socket', async () => {
    const bot = await startSocketBot();
    await bot.socket.waitForConnection(1);

    bot.slack.failNext('apps.connections.open', { status: 500 });
    bot.slack.failNext('apps.connections.open', { reset: true });
    bot.socket.dropConnection();
    await bot.socket.waitForConnection(2);

    // The first open at start, then one per attempt: the dropped socket, the 500, the reset, the one that worked.
    expect(bot.slack.callsOf('apps.connections.open')).toHaveLength(4);
    const causes = bot.reconnectLines();
    expect(causes).toHaveLength(3);
    expect(causes[0]).toMatch(/attempt 1\) because the connection dropped/);
    expect(causes[1]).toMatch(/attempt 2, in [\d.]+ m?s\) because apps\.connections\.open failed: HTTP 500/);
    expect(causes[2]).toMatch(/attempt 3, in [\d.]+ m?s\) because apps\.connections\.open failed: network error/);
    await waitUntil(
      () => bot.logs.some((line) => line.includes('Socket Mode: connected again after 3 attempt(s)')),
      'the reconnected line',
    );

    const result = await bot.socket.command('balances', { userId: 'U0OPS' });
    const [reply] = await result.waitForResponses(1);
    expect(blocksToText(reply?.blocks ?? [])).toContain('Balances ·');

    const health = await bot.healthOnce('connected');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true, socket: 'connected', reconnects: 3 });
    expect(bot.fatal).toEqual([]);
  });

  it.each(['refresh_requested', 'warning'] as const)(
    'reconnects at once when Slack sends a %s disconnect',
    async (reason) => {
      const bot = await startSocketBot();
      await bot.socket.waitForConnection(1);

      bot.socket.sendDisconnect(reason);
      // Slack would close the old connection after 10 s; the bot is on a new one well before.
      await bot.socket.waitForConnection(2, 3_000);

      expect(bot.reconnectLines()).toEqual([
        expect.stringContaining(`attempt 1) because Slack asked to reconnect (${reason})`),
      ]);
      const result = await bot.socket.command('balances', { userId: 'U0OPS' });
      expect(blocksToText((await result.waitForResponses(1))[0]?.blocks ?? [])).toContain('Balances ·');
      expect((await bot.healthOnce('connected')).body).toMatchObject({ ok: true, socket: 'connected', reconnects: 1 });
    },
  );

  it('waits out the Retry-After of a ratelimited apps.connections.open before trying again', async () => {
    const bot = await startSocketBot();
    await bot.socket.waitForConnection(1);

    bot.slack.failNext('apps.connections.open', { status: 429, retryAfter: 1 });
    bot.socket.dropConnection();
    await bot.socket.waitForConnection(2, 5_000);

    const [, limited, next] = bot.slack.callsOf('apps.connections.open');
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(1_000);
    expect(bot.reconnectLines()[1]).toMatch(/because apps\.connections\.open failed: ratelimited/);
  });

  it('opens one connection at a time when the WebSocket itself fails (the client then both rejects and reports the close)', async () => {
    const bot = await startSocketBot();
    await bot.socket.waitForConnection(1);

    // apps.connections.open answers with a URL where nothing listens, twice, then with the stand-in's again.
    bot.slack.setSocketModeUrl('ws://127.0.0.1:9/link');
    bot.socket.dropConnection();
    await bot.slack.waitForCalls('apps.connections.open', 3);
    bot.slack.setSocketModeUrl(bot.socket.url);
    await bot.socket.waitForConnection(2);

    expect(bot.reconnectLines().slice(1)).toEqual(
      expect.arrayContaining([expect.stringContaining('because the WebSocket closed before Slack said hello')]),
    );
    // One reconnect loop: every attempt made one apps.connections.open call, and exactly one connection opened.
    await expectStaysAt({ connections: 2, opens: bot.reconnectLines().length + 1 }, () => ({
      connections: bot.socket.connectionCount(),
      opens: bot.slack.callsOf('apps.connections.open').length,
    }));
    expect(bot.socket.connected()).toBe(true);
  });

  it('gives up on a WebSocket that opens but never says hello, closes it, connects on the next attempt, and reconnects after a later drop too', async () => {
    const bot = await startSocketBot({ helloTimeoutMs: 200 });
    await bot.socket.waitForConnection(1);

    bot.socket.withholdHello(1);
    bot.socket.dropConnection();
    await bot.socket.waitForConnection(2);

    expect(bot.reconnectLines()).toEqual([
      expect.stringMatching(/attempt 1\) because the connection dropped/),
      expect.stringMatching(/attempt 2, in [\d.]+ m?s\) because no hello from Slack within 200 ms/),
    ]);
    await waitUntil(
      () => bot.logs.some((line) => line.includes('Socket Mode: connected again after 2 attempt(s)')),
      'the reconnected line',
    );
    // The silent socket was closed by the bot, not left open beside the new one.
    await waitUntil(() => bot.socket.openSocketCount() === 1, 'one open socket');
    expect(bot.socket.socketCount()).toBe(3);

    // The loop is free again: the next drop is reconnected as well.
    bot.socket.dropConnection();
    await bot.socket.waitForConnection(3);
    expect(bot.reconnectLines()).toHaveLength(3);
    expect((await bot.healthOnce('connected')).body).toMatchObject({ ok: true, socket: 'connected', reconnects: 3 });
    const result = await bot.socket.command('balances', { userId: 'U0OPS' });
    expect(blocksToText((await result.waitForResponses(1))[0]?.blocks ?? [])).toContain('Balances ·');
  });

  it('does not hold start-up when the first WebSocket never says hello: start returns and the bot connects in the background', async () => {
    const bot = await startSocketBot({ helloTimeoutMs: 200, prepare: (_slack, socket) => socket.withholdHello(1) });

    expect(bot.started.socket).toBe('reconnecting');
    expect(
      bot.logs.some((line) =>
        line.includes('Socket Mode: could not connect at start (no hello from Slack within 200 ms)'),
      ),
    ).toBe(true);
    await bot.socket.waitForConnection(1);
    expect((await bot.healthOnce('connected')).body).toMatchObject({ ok: true, socket: 'connected', reconnects: 1 });
    await waitUntil(() => bot.socket.openSocketCount() === 1, 'one open socket');
    expect(bot.socket.socketCount()).toBe(2);
  });

  it('keeps retrying ok:false answers of apps.connections.open it does not know, at error level from the fifth in a row', async () => {
    const bot = await startSocketBot();
    await bot.socket.waitForConnection(1);

    bot.slack.failNext('apps.connections.open', { error: 'an_error_the_bot_does_not_know' }, 6);
    bot.socket.dropConnection();
    await bot.socket.waitForConnection(2);

    const lines = bot.reconnectLines();
    expect(lines).toHaveLength(7);
    expect(
      lines
        .slice(1)
        .every((line) => line.includes('because apps.connections.open failed: an_error_the_bot_does_not_know')),
    ).toBe(true);
    expect(lines.slice(0, 5).map((line) => line.split(' ')[1])).toEqual(['WARN', 'WARN', 'WARN', 'WARN', 'WARN']);
    expect(lines[5]).toMatch(
      / ERROR .*attempt 6,.*Slack has refused apps\.connections\.open 5 times in a row: check the app's Socket Mode settings and SLACK_APP_TOKEN/,
    );
    expect(lines[6]).toMatch(/ ERROR .*attempt 7,.*6 times in a row/);
    expect(bot.fatal).toEqual([]);
  });

  it('keeps the bot up when the first connection fails for a passing reason, and connects in the background', async () => {
    const bot = await startSocketBot({ prepare: (slack) => slack.failNext('apps.connections.open', { status: 503 }) });

    expect(bot.started.socket).toBe('reconnecting');
    expect(
      bot.logs.some((line) =>
        line.includes('Socket Mode: could not connect at start (apps.connections.open failed: HTTP 503)'),
      ),
    ).toBe(true);
    await bot.socket.waitForConnection(1);
    expect((await bot.healthOnce('connected')).body).toMatchObject({ ok: true, socket: 'connected', reconnects: 1 });
  });
});

describe('Socket Mode stops for what no retry fixes', () => {
  it('a link_disabled disconnect ends it with one plain line, and nothing reconnects', async () => {
    const bot = await startSocketBot();
    await bot.socket.waitForConnection(1);

    bot.socket.sendDisconnect('link_disabled');
    await waitUntil(() => bot.fatal.length > 0, 'the fatal line');

    expect(bot.fatal).toEqual([
      expect.stringMatching(
        /^Slack closed the Socket Mode connection because Socket Mode was turned off for this app \(link_disabled\)\. [^\n]+$/,
      ),
    ]);
    await expectStaysAt({ connections: 1, opens: 1 }, () => ({
      connections: bot.socket.connectionCount(),
      opens: bot.slack.callsOf('apps.connections.open').length,
    }));
    expect(bot.reconnectLines()).toEqual([]);
  });

  it('a link_disabled disconnect on the socket a reconnect attempt is opening ends it the same way', async () => {
    const bot = await startSocketBot();
    await bot.socket.waitForConnection(1);

    // The new socket gets Slack's disconnect envelope instead of its hello.
    bot.socket.withholdHello(1);
    bot.socket.dropConnection();
    await bot.socket.waitForSocket(2);
    bot.socket.sendDisconnect('link_disabled');
    await waitUntil(() => bot.fatal.length > 0, 'the fatal line');

    expect(bot.fatal).toEqual([
      expect.stringMatching(
        /^Slack closed the Socket Mode connection because Socket Mode was turned off for this app \(link_disabled\)\. [^\n]+$/,
      ),
    ]);
    await expectStaysAt({ sockets: 2, opens: 2 }, () => ({
      sockets: bot.socket.socketCount(),
      opens: bot.slack.callsOf('apps.connections.open').length,
    }));
  });

  it('a link_disabled disconnect on the first socket, before its hello, is a start-up error', async () => {
    const started = startSocketBot({
      prepare: (_slack, socket) => {
        socket.withholdHello(1);
        void socket.waitForSocket(1).then(() => socket.sendDisconnect('link_disabled'));
      },
    });
    await expect(started).rejects.toThrow(StartupError);
    await expect(started).rejects.toThrow(
      /^Slack closed the Socket Mode connection because Socket Mode was turned off for this app \(link_disabled\)\./,
    );
  });

  it('an app token Slack refuses on reconnect (invalid_auth) ends it with one plain line naming SLACK_APP_TOKEN', async () => {
    const bot = await startSocketBot();
    await bot.socket.waitForConnection(1);

    bot.slack.failNext('apps.connections.open', { error: 'invalid_auth' });
    bot.socket.dropConnection();
    await waitUntil(() => bot.fatal.length > 0, 'the fatal line');

    expect(bot.fatal).toEqual([expect.stringMatching(/^Slack rejected SLACK_APP_TOKEN \(invalid_auth\)\. [^\n]+$/)]);
    await expectStaysAt(2, () => bot.slack.callsOf('apps.connections.open').length);
    expect(bot.socket.connectionCount()).toBe(1);
  });

  it('an app token Slack refuses at start is a start-up error naming SLACK_APP_TOKEN', async () => {
    const started = startSocketBot({ appToken: 'xapp-1-not-the-right-one' });
    await expect(started).rejects.toThrow(StartupError);
    await expect(started).rejects.toThrow(/^Slack rejected SLACK_APP_TOKEN \(invalid_auth\)\./);
  });
});

describe('/healthz and /readyz in Socket Mode', () => {
  it('/readyz answers 503 "slack" from the drop until the bot reconnects; /healthz stays 200 and says disconnected after 30 s', async () => {
    let clock = Date.parse('2026-03-02T10:00:00.000Z');
    const bot = await startSocketBot({ now: () => new Date(clock) });
    await bot.socket.waitForConnection(1);
    const ready = async () => {
      const response = await fetch(`http://127.0.0.1:${bot.started.port}/readyz`);
      return { status: response.status, body: await response.json() };
    };
    expect(await ready()).toEqual({
      status: 200,
      body: { ready: true, checks: { store: 'ok', slack: 'ok', config: 'ok' } },
    });

    // Slack answers 500 until told otherwise.
    bot.slack.failNext('apps.connections.open', { status: 500 }, 1_000_000);
    clock += 5_000;
    const lostAt = new Date(clock).toISOString();
    bot.socket.dropConnection();
    await waitUntil(() => bot.reconnectLines().length >= 2, 'a failed reconnect');

    expect(await ready()).toEqual({
      status: 503,
      body: { ready: false, checks: { store: 'ok', slack: 'disconnected', config: 'ok' } },
    });
    let health = await bot.health();
    expect(health).toEqual({
      status: 200,
      body: { ok: true, socket: 'reconnecting', since: lostAt, reconnects: expect.any(Number) },
    });

    // Liveness never fails on Slack: a process that cannot hear Slack is not ready, yet restarting it helps nothing.
    clock += 30_001;
    health = await bot.health();
    expect(health).toMatchObject({ status: 200, body: { ok: true, socket: 'disconnected', since: lostAt } });
    expect(health.body.reconnects).toBeGreaterThanOrEqual(2);
    expect((await ready()).status).toBe(503);

    bot.slack.reset(); // Slack answers again
    await bot.socket.waitForConnection(2);
    health = await bot.healthOnce('connected');
    expect(health.body).toMatchObject({ ok: true, socket: 'connected', since: new Date(clock).toISOString() });
    expect(await ready()).toEqual({
      status: 200,
      body: { ready: true, checks: { store: 'ok', slack: 'ok', config: 'ok' } },
    });
  });
});
