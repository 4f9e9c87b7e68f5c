import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { captureChildOutput } from '../support/log-scan/capture.js';
import { NODE_FLAGS } from '../support/node-flags.js';
import { blocksToText } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { createSlackDriver, type SlackDriver } from '../support/rig/slack-driver.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { runBot } from '../support/run-bot.js';
import { ask } from '../support/slack.js';
import { expectStaysAt, waitUntil } from '../support/waiting.js';

/*
 * After approval the bot writes `approving` to disk and only then sends swap/create. What an `outcome_unknown`
 * message may claim depends on how the answer went missing:
 * - the create's answer was lost (a timeout, a 5xx): the request was sent;
 * - the bot died while approving: it may have died just before sending. The restarted bot cannot know, so it
 *   must not say the create "was sent".
 * The crash is a real one: the bot runs as `node dist/src/main.js` and is killed with SIGKILL.
 */

const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));
const TOKEN = 'xoxb-crash-wording-token';
const SECRET = 'crash-wording-signing-secret';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const SECOND_APPROVER = 'U0APPROVER2';
const CHANNEL = 'C0TREASURY';
const MAY_NOT_HAVE_BEEN_SENT =
  /the create request may not have been sent\*.*Check the payment dashboard before approving again/s;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Forwards everything to the simulator except swap/create, which it receives and holds without forwarding:
 * the payment service never sees the create, as when the bot dies before sending it.
 */
async function startHoldingProxy(target: string): Promise<{ url: string; heldCreates: () => number }> {
  let held = 0;
  const waiting: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/2.0/swap/create')) {
      held += 1;
      waiting.push(res);
      req.resume();
      return;
    }
    const upstream = request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    for (const res of waiting) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, heldCreates: () => held };
}

/** `node dist/src/main.js` as a deployment runs it; resolves once it listens. */
async function startBot(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; driver: SlackDriver; stderr: () => string }> {
  const child = spawn(process.execPath, [...NODE_FLAGS, MAIN], {
    cwd: mkdtempSync(join(tmpdir(), 'bot-')),
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    captureChildOutput(chunk);
  });
  const port = await waitUntil(
    () => {
      if (child.exitCode !== null) throw new Error(`the bot exited: ${stderr}`);
      return /listening for Slack on port (\d+)/.exec(stderr)?.[1];
    },
    'the bot to listen',
    15_000,
  );
  return {
    child,
    driver: createSlackDriver({
      eventsUrl: `http://127.0.0.1:${port}/slack/events`,
      signingSecret: SECRET,
      standIn: slack!,
    }),
    stderr: () => stderr,
  };
}

let slack: SlackStandIn | undefined;

async function startWorld(): Promise<{
  sim: PaymentsSimulator;
  slack: SlackStandIn;
  env: Record<string, string>;
  file: string;
  heldCreates: () => number;
}> {
  const sim = await startSimulator({ quiet: true });
  cleanups.push(() => sim.close());
  slack = await startSlackStandIn({ botToken: TOKEN });
  const stand = slack;
  cleanups.push(() => stand.close());
  const proxy = await startHoldingProxy(sim.url);
  const file = join(mkdtempSync(join(tmpdir(), 'crash-wording-')), 'state.json');
  const env = {
    PAYMENTS_API_URL: proxy.url,
    PAYMENTS_API_KEY: sim.apiKey,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    DATA_FILE: file,
    SWAP_APPROVERS: `${APPROVER},${SECOND_APPROVER}`,
  };
  return { sim, slack, env, file, heldCreates: proxy.heldCreates };
}

const textNow = (stand: SlackStandIn, ts: string) =>
  blocksToText(stand.messages(CHANNEL).find((m) => m.ts === ts)?.blocks ?? []);
const quoteRecord = (file: string) =>
  Object.values(JSON.parse(readFileSync(file, 'utf8')).swapQuotes)[0] as Record<string, unknown> & {
    history: { event: string }[];
  };

describe('an approval interrupted by a crash', () => {
  it('killed (SIGKILL) after the approval was written and before the create reached the payment service: the restarted bot says the create may not have been sent, and never sends it', async () => {
    const { sim, slack: stand, env, file, heldCreates } = await startWorld();
    const first = await startBot(env);
    const answer = await first.driver.command('swap 1,000 USDT@ETH to USDC@ETH', {
      userId: REQUESTER,
      channelId: CHANNEL,
    });
    await answer.waitForResponses(1);
    const quote: StoredMessage = await stand.waitFor(() => stand.messages(CHANNEL)[0]);

    await first.driver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
      userId: APPROVER,
      channelId: CHANNEL,
    });
    // The create left the bot but is held before the payment service: the service never saw it. Kill now.
    await waitUntil(() => heldCreates() === 1, 'the create to leave the bot', 8_000);
    expect(quoteRecord(file).status).toBe('approving');
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');

    // The restarted bot takes over the dead bot's lock and marks the quote.
    const second = await startBot(env);
    const text = await waitUntil(
      () => {
        const now = textNow(stand, quote.ts);
        return MAY_NOT_HAVE_BEEN_SENT.test(now) ? now : undefined;
      },
      'the quote message to say what is known',
      8_000,
    );
    expect(text).toContain('Approved by <@U0APPROVER>');
    expect(text).not.toMatch(/create request was sent/);
    expect(text).toContain('the bot will not resend it');
    const record = quoteRecord(file);
    expect(record).toMatchObject({ status: 'outcome_unknown', unknownCause: 'interrupted' });
    expect(record.history.map((h) => h.event)).toEqual(['quoted', 'approved', 'outcome_unknown']);

    // Nobody can approve it again, and the create is never sent by the new bot.
    const late = await second.driver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
      userId: SECOND_APPROVER,
      channelId: CHANNEL,
    });
    const [notice] = await late.waitForResponses(1);
    expect(notice?.text).toContain('Already decided: approved by <@U0APPROVER>');
    await expectStaysAt({ creates: 0, held: 1 }, () => ({
      creates: sim.requestCount('createSwap'),
      held: heldCreates(),
    }));

    // A third bot on the same file, while the second runs, is refused: the lock tells a live bot from a dead one.
    const third = await runBot({ ...env, PORT: '0', HOST: '127.0.0.1' });
    expect(third.code).toBe(1);
    expect(third.stderr).toContain(`in use by another running bot (pid ${second.child.pid})`);
  });
});

describe('a create whose answer was lost', () => {
  it('a 502 from swap/create: the message says the create request was sent (and never claims it may not have been)', async () => {
    const s: LocalStack = await startLocalStack({ env: { SWAP_APPROVERS: APPROVER } });
    cleanups.push(() => s.close());
    const before = s.slack.messages(CHANNEL).length;
    expect((await ask(s, 'swap 1,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL })).text).toContain(
      'Quote posted',
    );
    const quote = await s.slack.waitFor(() => s.slack.messages(CHANNEL)[before]);
    s.simulator.injectFault('createSwap', { status: 502 });
    await s.driver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
      userId: APPROVER,
      channelId: CHANNEL,
    });
    const text = await s.slack.waitFor(() => {
      const now = blocksToText(s.slack.messages(CHANNEL).find((m) => m.ts === quote.ts)?.blocks ?? []);
      return /may or may not exist/.test(now) ? now : undefined;
    }, 8_000);
    expect(text).toContain('and the create request was sent');
    expect(text).not.toMatch(/may not have been sent/);
    expect(Object.values(s.store.read().swapQuotes)[0]).toMatchObject({
      status: 'outcome_unknown',
      unknownCause: 'answer_lost',
    });
  });
});
