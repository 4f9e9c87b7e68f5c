// The database goes away under a running bot (its connections cut and refused, as a network failure or a
// database restart does) and comes back: lookups keep working, decisions refuse in plain words and change
// nothing, /readyz says so, and once the database is back the same click works. Real PostgreSQL behind a TCP
// proxy the test can cut; the real bot process, the simulator and the Slack stand-in over HTTP.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { type BotProcess, startBotProcess } from '../support/bot-process.js';
import { postgresAvailable, postgresSkipReason, startTestCluster, type TestCluster } from '../support/postgres.js';
import { blocksToText } from '../support/rig/blocks-text.js';
import { createSlackDriver, type SlackDriver } from '../support/rig/slack-driver.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { expectStaysAt } from '../support/waiting.js';

const available = postgresAvailable();
if (!available) console.warn(postgresSkipReason);

const SECRET = 'database-down-secret';
const TOKEN = 'xoxb-database-down';
const CHANNEL = 'C0DESK';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const UNREACHABLE = "The bot's database cannot be reached right now, so nothing was decided or saved.";

/** A TCP proxy to the database that can be cut (every connection dropped, new ones refused) and restored. */
async function startCutableProxy(
  targetPort: number,
): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let cluster: TestCluster;
let proxy: Awaited<ReturnType<typeof startCutableProxy>>;
let simulator: PaymentsSimulator;
let slack: SlackStandIn;
let bot: BotProcess;
let driver: SlackDriver;

async function ask(text: string, userId = REQUESTER): Promise<string> {
  const result = await driver.command(text, { userId, channelId: CHANNEL });
  expect(result.status).toBe(200);
  const [reply] = await result.waitForResponses(1, 15_000);
  return reply!.blocks ? blocksToText(reply!.blocks) : (reply!.text ?? '');
}

describe.skipIf(!available)('the database goes away and comes back', () => {
  beforeAll(async () => {
    cluster = await startTestCluster();
    const url = new URL(await cluster.createDatabase('treasury_down'));
    proxy = await startCutableProxy(Number(url.port));
    url.port = String(proxy.port);
    simulator = await startSimulator({ quiet: true });
    slack = await startSlackStandIn({ botToken: TOKEN });
    bot = await startBotProcess({
      PAYMENTS_API_URL: simulator.url,
      PAYMENTS_API_KEY: simulator.apiKey,
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      DATABASE_URL: url.toString(),
      REPLICA_NAME: 'solo',
      SWAP_APPROVERS: APPROVER,
    });
    driver = createSlackDriver({ eventsUrl: bot.eventsUrl, signingSecret: SECRET, standIn: slack });
  }, 60_000);
  afterAll(async () => {
    await bot?.stop('SIGKILL');
    await proxy?.close();
    await slack?.close();
    await simulator?.close();
    await cluster?.stop();
  });

  it('lookups work, decisions refuse in plain words and change nothing, /readyz says 503 "store" and /healthz stays 200; back up, ready again and the same click creates the swap once', async () => {
    await ask('swap 1,000 USDT@ETH to USDC@ETH');
    const quote = await slack.waitFor(() => slack.messages(CHANNEL)[0], 10_000, 'the quote message');
    const creates = () => simulator.requests.filter((r) => r.operation === 'createSwap').length;
    const ready = async () => {
      const response = await fetch(`${bot.baseUrl}/readyz`);
      return {
        status: response.status,
        body: (await response.json()) as { ready: boolean; checks: Record<string, string> },
      };
    };
    const alive = async () => (await fetch(`${bot.baseUrl}/healthz`)).status;
    expect(await ready()).toEqual({
      status: 200,
      body: { ready: true, checks: { store: 'ok', slack: 'ok', config: 'ok' } },
    });

    proxy.cut();
    expect(await ask('balances')).toContain('USDT');
    expect(await ask('swap 500 USDT@ETH to USDC@ETH')).toContain(UNREACHABLE);
    const click = await driver.clickButtonIn(
      { channel: CHANNEL, ts: quote.ts, blocks: quote.blocks ?? [] },
      'swap_approve',
      { userId: APPROVER, channelId: CHANNEL },
    );
    const [notice] = await click.waitForResponses(1, 15_000);
    expect(notice!.blocks ? blocksToText(notice!.blocks) : notice!.text).toContain(UNREACHABLE);
    await expectStaysAt(0, creates, 500);
    expect(slack.messages(CHANNEL)).toHaveLength(1); // no second quote was posted
    // Not ready (the store's check names it, in one word, within its 1 s bound), yet alive: no restart is asked for.
    const asked = Date.now();
    const down = await ready();
    expect(Date.now() - asked).toBeLessThan(3_000);
    expect(down).toMatchObject({ status: 503, body: { ready: false, checks: { slack: 'ok', config: 'ok' } } });
    expect(['failing', 'timeout']).toContain(down.body.checks.store);
    expect(JSON.stringify(down.body)).not.toContain(String(proxy.port)); // nothing of the connection string
    expect(await alive()).toBe(200);

    proxy.restore();
    const again = await driver.clickButtonIn(
      { channel: CHANNEL, ts: quote.ts, blocks: quote.blocks ?? [] },
      'swap_approve',
      { userId: APPROVER, channelId: CHANNEL },
    );
    expect(again.status).toBe(200);
    await slack.waitFor(
      () =>
        /Approved by <@U0APPROVER> at .* UTC\.\nSwap `/.test(blocksToText(slack.messages(CHANNEL)[0]!.blocks ?? [])),
      15_000,
      'the created swap',
    );
    await expectStaysAt(1, creates, 1_000);
    expect(await ready()).toMatchObject({ status: 200, body: { ready: true } });
  }, 60_000);

  it('the database goes away while swap/create is on its way: the approver is told the swap WAS created, with its id', async () => {
    const before = slack.messages(CHANNEL).length;
    await ask('swap 700 USDT@ETH to USDC@ETH');
    const quote = await slack.waitFor(() => slack.messages(CHANNEL)[before], 10_000, 'the quote message');
    simulator.injectFault('createSwap', { delayMs: 1_500 });
    const click = await driver.clickButtonIn(
      { channel: CHANNEL, ts: quote.ts, blocks: quote.blocks ?? [] },
      'swap_approve',
      { userId: APPROVER, channelId: CHANNEL },
    );
    expect(click.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the approval is written; the create is held
    proxy.cut();
    const [notice] = await click.waitForResponses(1, 20_000);
    const text = notice!.blocks ? blocksToText(notice!.blocks) : (notice!.text ?? '');
    const created = simulator.requests.filter((r) => r.operation === 'createSwap');
    expect(created).toHaveLength(2); // the first test's and this one
    expect(text).toMatch(/The swap was created \(swap `[0-9a-f-]{36}`\)/);
    expect(text).toContain('Do not ask for it again');
    expect(text).not.toContain('nothing was decided');
    proxy.restore();
  }, 40_000);
});
