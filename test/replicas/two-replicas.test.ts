// Two bot processes (dist/src/main.js) on one PostgreSQL database, as a rolling update or two replicas run them,
// against the payment API simulator and the Slack stand-in over HTTP. A real server, started by the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { type BotProcess, startBotProcess } from '../support/bot-process.js';
import { postgresAvailable, postgresSkipReason, startTestCluster, type TestCluster } from '../support/postgres.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import { createSlackDriver, type SlackDriver } from '../support/rig/slack-driver.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { expectStaysAt } from '../support/waiting.js';

const available = postgresAvailable();
if (!available) console.warn(postgresSkipReason);

const SECRET = 'two-replicas-signing-secret';
const TOKEN = 'xoxb-two-replicas';
const CHANNEL = 'C0DESK';
const ALERTS = 'C0ALERTS';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const SECOND_APPROVER = 'U0APPROVER2';
const POLL_SECONDS = 2;

let cluster: TestCluster;
let simulator: PaymentsSimulator;
let slack: SlackStandIn;
let databaseUrl: string;
const bots: Record<string, BotProcess> = {};
const drivers: Record<string, SlackDriver> = {};

async function startReplica(name: string): Promise<void> {
  bots[name] = await startBotProcess({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    DATABASE_URL: databaseUrl,
    REPLICA_NAME: name,
    ALERT_CHANNEL: ALERTS,
    POLL_SCHEDULE: `*/${POLL_SECONDS} * * * * *`,
    ALERT_LOOKBACK: '1m',
    SWAP_APPROVERS: `${APPROVER},${SECOND_APPROVER}`,
    // 1,000 USDT (the other tests) needs one approval; the quorum-of-two tests at the end need two, within $100,000 a day.
    SWAP_POLICY: '0:1,5000:2',
    SWAP_DAILY_LIMIT_USD: '100000',
  });
  drivers[name] = createSlackDriver({ eventsUrl: bots[name]!.eventsUrl, signingSecret: SECRET, standIn: slack });
}

const alertsMentioning = (id: string) => slack.messages(ALERTS).filter((m) => JSON.stringify(m).includes(id));
const creates = () => simulator.requests.filter((r) => r.operation === 'createSwap').length;

let killed: string | undefined;
const alive = () => (killed === 'a' ? 'b' : 'a');

async function askOn(name: string, text: string, userId = REQUESTER): Promise<string> {
  const result = await drivers[name]!.command(text, { userId, channelId: CHANNEL });
  expect(result.status).toBe(200);
  const [reply] = await result.waitForResponses(1, 10_000);
  return reply!.blocks ? blocksToText(reply!.blocks) : (reply!.text ?? '');
}

async function quoteOn(name: string, amount = '1,000'): Promise<StoredMessage> {
  const before = slack.messages(CHANNEL).length;
  await askOn(name, `swap ${amount} USDT@ETH to USDC@ETH`);
  return slack.waitFor(() => slack.messages(CHANNEL)[before], 10_000, 'the quote message');
}

/** A click on the quote as first posted (its buttons stay while it waits), on replica `name`. */
function approveOn(name: string, quote: StoredMessage, userId: string) {
  return drivers[name]!.clickButtonIn({ channel: CHANNEL, ts: quote.ts, blocks: quote.blocks ?? [] }, 'swap_approve', {
    userId,
    channelId: CHANNEL,
  });
}

const current = (quote: StoredMessage) => slack.messages(CHANNEL).find((m) => m.ts === quote.ts)!;

/** Which replica polls, as `/treasury alerts` says. */
async function pollerName(): Promise<string> {
  const text = await askOn(alive(), 'alerts');
  return /Polling replica: \*([a-z]+)\*/.exec(text)?.[1] ?? '(none)';
}

describe.skipIf(!available)('two replicas on one PostgreSQL database', () => {
  beforeAll(async () => {
    cluster = await startTestCluster();
    databaseUrl = await cluster.createDatabase('treasury_replicas');
    simulator = await startSimulator({ quiet: true });
    slack = await startSlackStandIn({ botToken: TOKEN });
    // Both start at once: the migrations run once.
    await Promise.all([startReplica('a'), startReplica('b')]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(Object.values(bots).map((bot) => bot.stop('SIGKILL')));
    await slack?.close();
    await simulator?.close();
    await cluster?.stop();
  });

  it('approvals clicked on both replicas at once: exactly one swap/create, and the loser is told who decided', async () => {
    const quote = await quoteOn('a');
    const clicks = await Promise.all(
      ['a', 'b', 'a', 'b'].map((name) =>
        drivers[name]!.clickButtonIn(
          { channel: CHANNEL, ts: quote.ts, ...(quote.text ? { text: quote.text } : {}), blocks: quote.blocks ?? [] },
          'swap_approve',
          { userId: APPROVER, channelId: CHANNEL },
        ),
      ),
    );
    for (const click of clicks) expect(click.status).toBe(200);
    // The one create went out and its answer is on the message.
    await slack.waitFor(
      () => /Approved by <@U0APPROVER> at .* UTC\.\nSwap `/.test(blocksToText(current(quote).blocks ?? [])),
      15_000,
      'the created swap',
    );
    await expectStaysAt(1, creates, 1_500);
    expect(findButtons(current(quote).blocks ?? [])).toEqual([]);
    // The three clicks that lost, on either replica, were each told privately who had decided.
    const notices = await slack.waitFor(
      () => {
        const posts = clicks.flatMap((click) => click.responses()).map((r) => r.text ?? '');
        return posts.filter((text) => text.startsWith('Already decided: approved by <@U0APPROVER>')).length === 3
          ? posts
          : undefined;
      },
      10_000,
      'three already-decided notices',
    );
    expect(notices).toHaveLength(3);
  });

  it('a quote made on one replica is listed and approved on the other', async () => {
    const quote = await quoteOn('a');
    const listed = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
    expect(listed(await askOn('b', 'swaps'), /requested by/g)).toBe(2);
    const before = creates();
    const click = await drivers.b!.clickButtonIn(
      { channel: CHANNEL, ts: quote.ts, blocks: quote.blocks ?? [] },
      'swap_approve',
      { userId: APPROVER, channelId: CHANNEL },
    );
    expect(click.status).toBe(200);
    await slack.waitFor(
      () => /Approved by <@U0APPROVER> at .* UTC\.\nSwap `/.test(blocksToText(current(quote).blocks ?? [])),
      15_000,
      'the swap created from b',
    );
    await expectStaysAt(before + 1, creates, 1_000);
    expect(listed(await askOn('a', 'swaps'), /approved by/g)).toBe(2);
  });

  it('one replica polls; a new failure is alerted once; kill the polling one and the other alerts the next failure within one period', async () => {
    const first = simulator.addWithdrawal({ status: 'failed' });
    await slack.waitFor(() => alertsMentioning(first.id).length > 0, 15_000, 'the first alert');
    await expectStaysAt(1, () => alertsMentioning(first.id).length, 3 * POLL_SECONDS * 1000);

    const leader = await pollerName();
    expect(['a', 'b']).toContain(leader);
    const survivor = leader === 'a' ? 'b' : 'a';
    killed = leader;
    bots[leader]!.child.kill('SIGKILL');
    await bots[leader]!.exited;

    const second = simulator.addWithdrawal({ status: 'failed' });
    const killedAt = Date.now();
    await slack.waitFor(() => alertsMentioning(second.id).length > 0, 15_000, 'the alert posted by the survivor');
    // One period to notice the lease is free, one to poll: well within two periods plus the poll itself.
    expect(Date.now() - killedAt).toBeLessThan(3 * POLL_SECONDS * 1000 + 3_000);
    await expectStaysAt(1, () => alertsMentioning(second.id).length, 2 * POLL_SECONDS * 1000);
    expect(await askOn(survivor, 'alerts')).toContain(`Polling replica: *${survivor}*`);
  }, 40_000);

  it('both restarted: nothing lost, nothing doubled', async () => {
    // The quotes as a count of requests and approvals (their swaps' statuses move on by themselves).
    const tally = (text: string) => [text.match(/requested by/g)?.length ?? 0, text.match(/approved by/g)?.length ?? 0];
    const quotesBefore = tally(await askOn(alive(), 'swaps'));
    const alertsBefore = slack.messages(ALERTS).length;
    await Promise.all(Object.values(bots).map((bot) => bot.stop('SIGTERM')));
    await Promise.all([startReplica('a'), startReplica('b')]);
    killed = undefined;
    const third = simulator.addWithdrawal({ status: 'failed' });
    await slack.waitFor(() => alertsMentioning(third.id).length > 0, 15_000, 'the alert after the restart');
    await expectStaysAt(1, () => alertsMentioning(third.id).length, 3 * POLL_SECONDS * 1000);
    // Only the new failure was posted: the earlier ones were not posted again.
    expect(slack.messages(ALERTS).length).toBe(alertsBefore + 1);
    expect(tally(await askOn('b', 'swaps'))).toEqual(quotesBefore);
    expect(quotesBefore).toEqual([2, 2]);
  }, 60_000);

  it('a replica that restarts while the other is sending a swap/create leaves that create alone', async () => {
    const quote = await quoteOn('a');
    simulator.injectFault('createSwap', { delayMs: 4_000 });
    const click = await drivers.a!.clickButtonIn(
      { channel: CHANNEL, ts: quote.ts, blocks: quote.blocks ?? [] },
      'swap_approve',
      { userId: APPROVER, channelId: CHANNEL },
    );
    expect(click.status).toBe(200);
    // The approval is written at once and the create is held for 4 s by the payment API.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // b restarts (a rolling update) while a waits for the payment API's answer: b must not call it interrupted.
    await bots.b!.stop('SIGTERM');
    await startReplica('b');
    await slack.waitFor(
      () => /Approved by <@U0APPROVER> at .* UTC\.\nSwap `/.test(blocksToText(current(quote).blocks ?? [])),
      15_000,
      'the created swap',
    );
    expect(blocksToText(current(quote).blocks ?? [])).not.toMatch(/may not have been sent|outcome/i);
  }, 40_000);

  it('the swap of a replica that died is followed to the end by the other', async () => {
    const quote = await quoteOn('a');
    await drivers.a!.clickButtonIn({ channel: CHANNEL, ts: quote.ts, blocks: quote.blocks ?? [] }, 'swap_approve', {
      userId: APPROVER,
      channelId: CHANNEL,
    });
    const created = await slack.waitFor(
      () => /Swap `([0-9a-f-]+)`/.exec(blocksToText(current(quote).blocks ?? [])),
      15_000,
      'the created swap',
    );
    killed = 'a';
    bots.a!.child.kill('SIGKILL');
    await bots.a!.exited;
    simulator.advanceSwap(created[1]!, 'finished');
    // b looks for swaps left by others every 15 s.
    await slack.waitFor(
      () => /finished/.test(blocksToText(current(quote).blocks ?? [])),
      25_000,
      'the finished swap, edited by b',
    );
  }, 45_000);

  describe('a quorum of two, on both replicas', () => {
    beforeAll(async () => {
      if (killed) await startReplica(killed);
      killed = undefined;
    }, 30_000);

    it('approvals from two approvers and their double clicks, spread over both replicas at once: exactly one create, both approvals counted', async () => {
      const quote = await quoteOn('a', '10,000');
      expect(blocksToText(quote.blocks ?? [])).toContain('Waiting for *2 approvals*');
      const before = creates();
      simulator.injectFault('createSwap', { delayMs: 300 });
      const clicks = await Promise.all([
        approveOn('a', quote, APPROVER),
        approveOn('b', quote, SECOND_APPROVER),
        approveOn('b', quote, APPROVER),
        approveOn('a', quote, SECOND_APPROVER),
      ]);
      for (const click of clicks) expect(click.status).toBe(200);
      await slack.waitFor(
        () =>
          /Approved by <@U0APPROVER2?> and <@U0APPROVER2?> at .* UTC\.\nSwap `/.test(
            blocksToText(current(quote).blocks ?? []),
          ),
        15_000,
        'the swap created at the quorum',
      );
      await expectStaysAt(before + 1, creates, 1_500);
      expect(await askOn('b', 'swaps')).toMatch(/approved by <@U0APPROVER2?> and <@U0APPROVER2?> \(2 of 2\)/);
    }, 40_000);

    it('the daily limit across replicas: two quotes that both fit when asked for (a race), completed at once on different replicas: one create, the other refused', async () => {
      // Both limit checks run before either quote is saved: the estimates are held.
      simulator.injectFault('estimateSwap', { delayMs: 600 }, 2);
      const before = slack.messages(CHANNEL).length;
      await Promise.all([
        askOn('a', 'swap 60,000 USDT@ETH to USDC@ETH'),
        askOn('b', 'swap 60,000 USDT@ETH to USDC@ETH'),
      ]);
      const quotes = await slack.waitFor(
        () =>
          slack.messages(CHANNEL).length >= before + 2 ? slack.messages(CHANNEL).slice(before, before + 2) : undefined,
        10_000,
        'both quotes',
      );
      // First approvals (not yet at the quorum), then the two that would each create a swap, at once.
      for (const quote of quotes) await approveOn('a', quote, APPROVER);
      for (const quote of quotes)
        await slack.waitFor(
          () => /Approved 1 of 2/.test(blocksToText(current(quote).blocks ?? [])),
          10_000,
          'one approval',
        );
      const createsBefore = creates();
      const [first, second] = await Promise.all([
        approveOn('a', quotes[0]!, SECOND_APPROVER),
        approveOn('b', quotes[1]!, SECOND_APPROVER),
      ]);
      const refusal = await Promise.race([first!.waitForResponses(1, 10_000), second!.waitForResponses(1, 10_000)]);
      expect(refusal[0]?.text).toMatch(/^Approving now would pass the daily limit for swaps out of USDT on Ethereum/);
      await slack.waitFor(() => creates() === createsBefore + 1, 10_000, 'one create');
      await expectStaysAt(createsBefore + 1, creates, 1_500);
      const stillWaiting = quotes.filter((quote) => /Approved 1 of 2/.test(blocksToText(current(quote).blocks ?? [])));
      expect(stillWaiting).toHaveLength(1);
    }, 40_000);
  });
});
