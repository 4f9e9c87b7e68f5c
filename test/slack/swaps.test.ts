import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../dev/simulator/index.js';
import { formatTokenAmount } from '../../src/blocks/format.js';
import { type BotProcess, startBotProcess } from '../support/bot-process.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../support/rig/local-stack.js';
import { createSlackDriver, type DriverResult } from '../support/rig/slack-driver.js';
import { type StoredMessage, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { ask } from '../support/slack.js';
import { expectStaysAt, watchArrivals } from '../support/waiting.js';

const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const SECOND_APPROVER = 'U0APPROVER2';
const BYSTANDER_APPROVER = 'U0APPROVER3';
const BYSTANDER = 'U0BYSTANDER';
const CHANNEL = 'C0TREASURY';

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(env: Record<string, string> = {}, options: LocalStackOptions = {}): Promise<LocalStack> {
  stack = await startLocalStack({ env: { SWAP_APPROVERS: `${APPROVER},${SECOND_APPROVER}`, ...env }, ...options });
  return stack;
}

/** Requests a quote in the channel and returns the posted quote message. */
async function requestQuote(
  s: LocalStack,
  text = 'swap 1,000 USDT@ETH to USDC@ETH',
  userId = REQUESTER,
): Promise<StoredMessage> {
  const before = s.slack.messages(CHANNEL).length;
  const answer = await ask(s, text, { userId, channelId: CHANNEL });
  expect(answer.text).toContain('Quote posted');
  const messages = await s.slack.waitFor(() =>
    s.slack.messages(CHANNEL).length > before ? s.slack.messages(CHANNEL) : undefined,
  );
  return messages[messages.length - 1]!;
}

function current(s: LocalStack, message: StoredMessage): StoredMessage {
  return s.slack.messages(CHANNEL).find((m) => m.ts === message.ts)!;
}

function textOf(message: StoredMessage): string {
  return blocksToText(message.blocks ?? []);
}

/** Clicks a button as the message looks now. */
async function clickOn(s: LocalStack, message: StoredMessage, actionId: string, userId: string) {
  return clickAsSeen(s, current(s, message), actionId, userId);
}

/** Clicks a button of the message as it looked when given: a stale client, a late double click, a Slack resend. */
async function clickAsSeen(s: LocalStack, message: StoredMessage, actionId: string, userId: string) {
  const result = await s.driver.clickButtonIn({ ...message, channel: CHANNEL }, actionId, {
    userId,
    channelId: CHANNEL,
  });
  expect(result.status).toBe(200);
  return result;
}

async function waitForText(s: LocalStack, message: StoredMessage, pattern: RegExp): Promise<string> {
  const found = await s.slack.waitFor(
    () => {
      const text = textOf(current(s, message));
      return pattern.test(text) ? text : undefined;
    },
    8_000,
    `quote message matching ${pattern}`,
  );
  return found;
}

const createCalls = (s: LocalStack) => s.simulator.requests.filter((r) => r.operation === 'createSwap');

/**
 * The app acks a click before it works, so counts are read only once the click's outcome is in (the message
 * edit, or the private notice), and then must stay put: a second create made after the outcome still fails.
 */
const expectCreatesStayAt = (s: LocalStack, count: number) =>
  expectStaysAt({ creates: count }, () => ({ creates: createCalls(s).length }));

/** Waits for the private notice a click that changed nothing gets, and returns its text. */
async function noticeOf(click: DriverResult): Promise<string> {
  const [notice] = await click.waitForResponses(1);
  expect(notice?.responseType).toBe('ephemeral');
  return notice?.text ?? '';
}

describe('a swap quote', () => {
  it('is posted in the channel with requester, exact amounts, route, expiry and Approve/Reject (Approve confirms the amounts)', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    const text = textOf(quote);
    expect(text).toContain('Swap USDT → USDC');
    expect(text).toContain(`<@${REQUESTER}>`);
    expect(text).toContain('1,000 USDT on Ethereum');
    // Its USD value from the asset's own price (the simulator prices USDT at $1.00).
    expect(text).toContain('1,000 USDT on Ethereum ≈ $1,000.00');
    expect(text).toContain('`1000000000` base units');
    expect(text).toMatch(/about [\d.,]+ USDC on Ethereum/);
    expect(text).toMatch(/\*Quote valid until\*\n.* UTC \(in 30 minutes\)/);
    expect(text).toContain(`Waiting for approval by <@${APPROVER}> or <@${SECOND_APPROVER}>`);
    const buttons = findButtons(quote.blocks ?? []);
    expect(buttons.map((b) => b.text)).toEqual(['Approve', 'Reject']);
    expect(JSON.stringify(buttons[0]!.confirm)).toMatch(/1,000 USDT → about [\d.,]+ USDC/);
    const [estimate] = s.simulator.requests.filter((r) => r.operation === 'estimateSwap');
    expect(estimate?.body).toEqual({
      assetIdFrom: s.simulator.ids.assets.usdtEth,
      assetIdTo: s.simulator.ids.assets.usdcEth,
      amount: '1000000000',
    });
  });

  it('SWAP_MAX_USD: a larger quote is refused in plain words before any estimate or post; one within it is posted', async () => {
    const s = await start({ SWAP_MAX_USD: '$500' });
    const before = s.slack.messages(CHANNEL).length;
    const refused = await ask(s, 'swap 1,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL });
    expect(refused.reply.responseType).toBe('ephemeral');
    expect(refused.text).toContain(
      'No quote was made: this swap is worth about $1,000, above the $500 allowed for one swap (`SWAP_MAX_USD`).',
    );
    expect(s.simulator.requests.filter((r) => r.operation === 'estimateSwap')).toHaveLength(0);
    expect(s.slack.messages(CHANNEL)).toHaveLength(before);
    const quote = await requestQuote(s, 'swap 500 USDT@ETH to USDC@ETH');
    expect(textOf(quote)).toContain('500 USDT on Ethereum ≈ $500.00');
  });

  it('/treasury policy says who approves and the limits in plain words, and what an amount would need', async () => {
    const s = await start({ SWAP_MAX_USD: '250000', TREASURY_USERS: `${REQUESTER},${APPROVER},${SECOND_APPROVER}` });
    const policy = await ask(s, 'policy', { userId: REQUESTER, channelId: CHANNEL });
    expect(policy.reply.responseType).toBe('ephemeral');
    expect(policy.text).toContain(`*Who approves:* <@${APPROVER}>, <@${SECOND_APPROVER}>.`);
    expect(policy.text).toContain('one approval, whatever the amount');
    expect(policy.text).toContain('*Self-approval:* not allowed');
    expect(policy.text).toContain('*Maximum per swap:* $250,000');
    expect(policy.text).toContain('*Quotes:* valid for 30 minutes');
    expect(policy.text).toContain('never something done from Slack');
    expect((await ask(s, 'policy $10,000.50', { userId: REQUESTER, channelId: CHANNEL })).text).toContain(
      'A swap worth $10,000.50 needs *one approval* from an approver other than the requester.',
    );
    expect((await ask(s, 'policy 300000', { userId: REQUESTER, channelId: CHANNEL })).text).toContain(
      'A swap worth $300,000 would be *refused*: it is above the $250,000 allowed for one swap.',
    );
    expect((await ask(s, 'policy lots', { userId: REQUESTER, channelId: CHANNEL })).text).toContain(
      '"lots" is not a USD amount',
    );
  });

  it('says so in the quote when no approvers are configured', async () => {
    const s = await start({ SWAP_APPROVERS: '' });
    const quote = await requestQuote(s);
    expect(textOf(quote)).toContain('No swap approvers are configured');
    const click = await clickOn(s, quote, 'swap_approve', REQUESTER);
    expect(await noticeOf(click)).toContain('nobody can approve swaps. Nothing was done.');
    await expectStaysAt({ creates: 0, updates: 0 }, () => ({
      creates: createCalls(s).length,
      updates: s.slack.callsOf('chat.update').length,
    }));
  });

  it.each([
    ['swap 5 USDT@ETH to USDC@ETH', 'Min swap amount is'],
    ['swap 100 USDT@ETH to BNB', 'Native currency not supported as target'],
    ['swap 100 DAI to USDT@ETH', 'Unsupported source currency'],
  ])('`%s`: the estimate error is shown to the requester and no quote is posted', async (text, message) => {
    const s = await start();
    const answer = await ask(s, text, { userId: REQUESTER, channelId: CHANNEL });
    expect(answer.text).toContain(message);
    expect(answer.reply.responseType).toBe('ephemeral');
    expect(s.slack.messages(CHANNEL)).toHaveLength(0);
  });

  it('bad amounts and unknown assets are refused before any estimate', async () => {
    const s = await start();
    expect((await ask(s, 'swap -1 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL })).text).toContain(
      'negative',
    );
    expect(
      (await ask(s, 'swap 1.0000001 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL })).text,
    ).toContain('at most 6 decimal places');
    expect((await ask(s, 'swap 10 USDT to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL })).text).toContain(
      'Say which',
    );
    expect((await ask(s, 'swap 10 ETH to ETH', { userId: REQUESTER, channelId: CHANNEL })).text).toContain('the same');
    expect(s.simulator.requestCount('estimateSwap')).toBe(0);
  });
});

describe('approval', () => {
  it('happy path: an approver approves, exactly one create, the buttons go, and the message follows the swap to finished', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    await clickOn(s, quote, 'swap_approve', APPROVER);
    const created = await waitForText(s, quote, /Approved by <@U0APPROVER> at .* UTC\.\nSwap `[0-9a-f-]+`/);
    expect(findButtons(current(s, quote).blocks ?? [])).toEqual([]);
    await expectCreatesStayAt(s, 1);
    const swapId = /Swap `([0-9a-f-]+)`/.exec(created)![1]!;

    s.simulator.advanceSwap(swapId, 'finished');
    const finished = await waitForText(s, quote, /finished/);
    const swap = await s.payments.getSwap(swapId);
    expect(finished).toContain(`*Received:* ${formatTokenAmount(swap.amountTo!, 6, 'USDC')}`);
    expect(finished).toContain(`*Tx out:* \`${swap.hashFrom}\``);
    expect(finished).toContain(`*Tx in:* \`${swap.hashTo}\``);
    expect(finished).toContain('*Fee:*');
    expect(createCalls(s)).toHaveLength(1);
  });

  it('reject: the message says who rejected, no create', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    await clickOn(s, quote, 'swap_reject', APPROVER);
    await waitForText(s, quote, /Rejected by <@U0APPROVER> at .*\. No swap was made\./);
    expect(findButtons(current(s, quote).blocks ?? [])).toEqual([]);
    await expectCreatesStayAt(s, 0);
  });

  it('when Slack fails to edit the message, the edit is tried again so the message still tells the truth', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    s.slack.failNext('chat.update', { status: 500 });
    await clickOn(s, quote, 'swap_reject', APPROVER);
    await waitForText(s, quote, /Rejected by <@U0APPROVER>/);
    expect(s.slack.callsOf('chat.update').length).toBeGreaterThanOrEqual(2);
  });

  it('the requester may reject (cancel) their own quote', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    await clickOn(s, quote, 'swap_reject', REQUESTER);
    await waitForText(s, quote, /Rejected by <@U0REQUESTER>/);
  });

  it('a non-approver is told privately why not, and nothing changes', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    const before = JSON.stringify(current(s, quote).blocks);
    const approve = await clickOn(s, quote, 'swap_approve', BYSTANDER);
    const [notice] = await approve.waitForResponses(1);
    expect(notice?.text).toContain('Only the swap approvers');
    expect(notice?.responseType).toBe('ephemeral');
    const reject = await clickOn(s, quote, 'swap_reject', BYSTANDER);
    expect((await reject.waitForResponses(1))[0]?.text).toContain('Only the requester or a swap approver can reject');
    await expectStaysAt({ blocks: before, updates: 0, creates: 0 }, () => ({
      blocks: JSON.stringify(current(s, quote).blocks),
      updates: s.slack.callsOf('chat.update').length,
      creates: createCalls(s).length,
    }));
  });

  it('the requester cannot approve their own swap (separation of duties)…', async () => {
    const s = await start();
    const quote = await requestQuote(s, undefined, APPROVER);
    const click = await clickOn(s, quote, 'swap_approve', APPROVER);
    expect((await click.waitForResponses(1))[0]?.text).toContain('someone else must approve it');
    await expectCreatesStayAt(s, 0);
    // …but another approver can.
    await clickOn(s, quote, 'swap_approve', SECOND_APPROVER);
    await waitForText(s, quote, /Approved by <@U0APPROVER2> at .* UTC\.\nSwap `/);
    await expectCreatesStayAt(s, 1);
  });

  it('…unless ALLOW_SELF_APPROVAL=true', async () => {
    const s = await start({ ALLOW_SELF_APPROVAL: 'true' });
    const quote = await requestQuote(s, undefined, APPROVER);
    await clickOn(s, quote, 'swap_approve', APPROVER);
    await waitForText(s, quote, /Approved by <@U0APPROVER> at .* UTC\.\nSwap `/);
    await expectCreatesStayAt(s, 1);
  });
});

describe('exactly once', () => {
  it('two approvers clicking at once and a double click (plus a Slack resend) make exactly one create; the others are told who decided', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    s.simulator.injectFault('createSwap', { delayMs: 300 });
    const clicks = await Promise.all([
      clickOn(s, quote, 'swap_approve', APPROVER),
      clickOn(s, quote, 'swap_approve', SECOND_APPROVER),
      clickOn(s, quote, 'swap_approve', APPROVER),
      clickOn(s, quote, 'swap_reject', SECOND_APPROVER),
    ]);
    await waitForText(s, quote, /Swap `[0-9a-f-]+`/);
    // The winning click gets no notice; the three others each get one.
    const notices = () => clicks.flatMap((c) => c.responses()).map((r) => r.text ?? '');
    await s.slack.waitFor(() => notices().length >= 3, 8_000, 'a notice for each of the three losing clicks');
    expect(notices().filter((n) => n.startsWith('Already decided: approved by'))).toHaveLength(3);
    await expectStaysAt({ creates: 1, notices: 3 }, () => ({
      creates: createCalls(s).length,
      notices: notices().length,
    }));
  });

  it('expiry (by the estimate\'s own time): no create call; "New quote" re-runs the estimate for a fresh approval', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    s.simulator.advanceTime(31 * 60_000);
    const click = await clickOn(s, quote, 'swap_approve', APPROVER);
    expect((await click.waitForResponses(1))[0]?.text).toContain('expired before it was approved');
    const expired = await waitForText(s, quote, /Expired: the quote was valid until/);
    expect(expired).toContain('No swap was made.');
    await expectCreatesStayAt(s, 0);
    expect(findButtons(current(s, quote).blocks ?? []).map((b) => b.text)).toEqual(['New quote']);

    const estimatesBefore = s.simulator.requestCount('estimateSwap');
    await clickOn(s, quote, 'swap_new_quote', REQUESTER);
    const fresh = await s.slack.waitFor(() => s.slack.messages(CHANNEL).find((m) => m.ts !== quote.ts));
    expect(textOf(fresh)).toContain(`<@${REQUESTER}>`);
    expect(textOf(fresh)).toContain('`1000000000` base units');
    // The last step of "New quote" is the edit of the old message: after it, one estimate and one new message.
    await waitForText(s, quote, /A new quote was requested/);
    await expectStaysAt({ estimates: estimatesBefore + 1, messages: 2 }, () => ({
      estimates: s.simulator.requestCount('estimateSwap'),
      messages: s.slack.messages(CHANNEL).length,
    }));

    await clickOn(s, fresh, 'swap_approve', APPROVER);
    await waitForText(s, fresh, /Swap `[0-9a-f-]+`/);
    await expectCreatesStayAt(s, 1);
  });

  it('"Balance not enough" from create is shown on the message in plain words', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    s.simulator.setAssetBalance(s.simulator.ids.assets.usdtEth, '5');
    await clickOn(s, quote, 'swap_approve', APPROVER);
    const text = await waitForText(s, quote, /refused/);
    expect(text).toContain('Balance not enough — the available USDT balance is below the swap amount.');
    expect(text).toContain('No swap was made.');
    await expectCreatesStayAt(s, 1);
  });

  it('"Estimate not found" from create is shown on the message in plain words', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    s.simulator.injectFault('createSwap', {
      status: 400,
      body: { success: false, message: 'Estimate not found', statusCode: 400, errors: [] },
    });
    await clickOn(s, quote, 'swap_approve', APPROVER);
    const text = await waitForText(s, quote, /refused/);
    expect(text).toContain('Estimate not found — the service no longer holds this quote');
  });

  it('a create whose answer is lost (timeout/5xx) is never resent and the message says a person must check', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    s.simulator.injectFault('createSwap', { status: 502 });
    await clickOn(s, quote, 'swap_approve', APPROVER);
    const text = await waitForText(s, quote, /may or may not exist/);
    expect(text).toContain('Check the payment dashboard');
    await expectCreatesStayAt(s, 1);
    const late = await clickAsSeen(s, quote, 'swap_approve', SECOND_APPROVER);
    expect(await noticeOf(late)).toContain('Already decided: approved by <@U0APPROVER>');
    await expectCreatesStayAt(s, 1);
  });
});

describe('restarts', () => {
  it('a quote still pending over a restart can be approved once afterwards', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    await s.restartBot();
    await clickOn(s, quote, 'swap_approve', APPROVER);
    await waitForText(s, quote, /Swap `[0-9a-f-]+`/);
    const late = await clickAsSeen(s, quote, 'swap_approve', SECOND_APPROVER);
    expect(await noticeOf(late)).toContain('Already decided: approved by <@U0APPROVER>');
    await expectCreatesStayAt(s, 1);
  });

  it('following a swap resumes after a restart and reaches finished', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    await clickOn(s, quote, 'swap_approve', APPROVER);
    const created = await waitForText(s, quote, /Swap `[0-9a-f-]+`/);
    const swapId = /Swap `([0-9a-f-]+)`/.exec(created)![1]!;
    await s.restartBot();
    s.simulator.advanceSwap(swapId, 'finished');
    await waitForText(s, quote, /\*Received:\*/);
  });

  it('following stops after its bound and says so', async () => {
    const s = await start(
      {},
      {
        swapFollow: { intervalMs: 30, maxDurationMs: 60_000 },
        simulator: { swapTimings: { inProgressAfterMs: 1_000, finishedAfterMs: 24 * 3_600_000 } },
      },
    );
    const quote = await requestQuote(s);
    await clickOn(s, quote, 'swap_approve', APPROVER);
    await waitForText(s, quote, /Swap `[0-9a-f-]+`/);
    s.simulator.advanceTime(2 * 60_000);
    await waitForText(s, quote, /Stopped following this swap/);
  });
});

describe('a crash between sending create and recording its answer', () => {
  const TOKEN = 'xoxb-swap-crash-token';
  const SECRET = 'swap-crash-signing-secret';
  const quoteRecord = (file: string) =>
    Object.values((JSON.parse(readFileSync(file, 'utf8')) as { swapQuotes: Record<string, unknown> }).swapQuotes)[0] as
      | { status: string; unknownCause?: string; history: { event: string }[] }
      | undefined;

  it.each([
    { quorum: 'one approval', policy: '0:1', approvers: [APPROVER], late: SECOND_APPROVER },
    // The approval that reaches a quorum of two is the decision; the crash comes after it.
    {
      quorum: 'a quorum of two',
      policy: '0:1,500:2',
      approvers: [SECOND_APPROVER, APPROVER],
      late: BYSTANDER_APPROVER,
    },
  ])(
    'the bot killed (SIGKILL) after the create reached the payment service ($quorum): the restarted bot marks it outcome unknown, never re-sends it, and a later approve is told it was already decided',
    async ({ policy, approvers, late: lateApprover }) => {
      const simulator = await startSimulator({ quiet: true });
      const slack = await startSlackStandIn({ botToken: TOKEN });
      const file = join(mkdtempSync(join(tmpdir(), 'treasury-crash-')), 'state.json');
      const env = {
        PAYMENTS_API_URL: simulator.url,
        PAYMENTS_API_KEY: simulator.apiKey,
        SLACK_BOT_TOKEN: TOKEN,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        DATA_FILE: file,
        SWAP_APPROVERS: `${APPROVER},${SECOND_APPROVER},${BYSTANDER_APPROVER}`,
        SWAP_POLICY: policy,
      };
      const bots: BotProcess[] = [];
      const arrivals = watchArrivals(simulator.url);
      const creates = () => simulator.requests.filter((r) => r.operation === 'createSwap').length;
      const textNow = (ts: string) => blocksToText(slack.messages(CHANNEL).find((m) => m.ts === ts)?.blocks ?? []);
      try {
        const first = await startBotProcess(env);
        bots.push(first);
        const firstDriver = createSlackDriver({ eventsUrl: first.eventsUrl, signingSecret: SECRET, standIn: slack });
        const [note] = await (
          await firstDriver.command('swap 1,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL })
        ).waitForResponses(1);
        expect(note?.text).toContain('Quote posted');
        const quote = await slack.waitFor(() => slack.messages(CHANNEL)[0]);

        simulator.injectFault('createSwap', { delayMs: 1_500 });
        for (const [index, approver] of approvers.entries()) {
          await firstDriver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
            userId: approver,
            channelId: CHANNEL,
          });
          if (index < approvers.length - 1)
            await slack.waitFor(() => /Approved 1 of 2/.test(textNow(quote.ts)), 5_000, 'the first approval shown');
        }
        // The decision is on disk and the create has reached the simulator, which holds its answer for 1.5 s: kill now.
        await slack.waitFor(
          () => quoteRecord(file)?.status === 'approving' && arrivals.count('/2.0/swap/create') === 1,
          5_000,
          'the quote recorded as approving and its create received by the simulator',
        );
        await first.stop('SIGKILL');

        const second = await startBotProcess(env);
        bots.push(second);
        const text = await slack.waitFor(
          () => (/may or may not exist/.test(textNow(quote.ts)) ? textNow(quote.ts) : undefined),
          8_000,
        );
        expect(text).toContain('the create request may not have been sent');
        // The simulator answers the held create to a process that is gone: the swap may exist, nobody heard of it.
        await slack.waitFor(() => creates() === 1, 8_000, 'the held create answered');

        // Nobody can approve again, and the create is never sent a second time.
        const secondDriver = createSlackDriver({ eventsUrl: second.eventsUrl, signingSecret: SECRET, standIn: slack });
        const late = await secondDriver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
          userId: lateApprover,
          channelId: CHANNEL,
        });
        expect(await noticeOf(late)).toContain(
          `Already decided: approved by ${approvers.map((id) => `<@${id}>`).join(' and ')}`,
        );
        await expectStaysAt({ arrived: 1, answered: 1 }, () => ({
          arrived: arrivals.count('/2.0/swap/create'),
          answered: creates(),
        }));
        expect(textNow(quote.ts)).toMatch(/may or may not exist/);
      } finally {
        arrivals.stop();
        for (const bot of bots) await bot.stop('SIGKILL');
        await slack.close();
        await simulator.close();
      }
      const record = quoteRecord(file);
      expect(record).toMatchObject({ status: 'outcome_unknown', unknownCause: 'interrupted' });
      expect(record?.history.map((h) => h.event)).toEqual([
        'quoted',
        ...approvers.map(() => 'approved'),
        'outcome_unknown',
      ]);
    },
  );
});

describe('the audit trail', () => {
  it('`/treasury swaps` lists quotes with requester, decider, amounts, swap id and status, and it survives restarts', async () => {
    const s = await start();
    const approved = await requestQuote(s);
    await clickOn(s, approved, 'swap_approve', APPROVER);
    await waitForText(s, approved, /Swap `[0-9a-f-]+`/);
    const rejected = await requestQuote(s, 'swap 0.5 ETH@ETH to USDT@ETH');
    await clickOn(s, rejected, 'swap_reject', SECOND_APPROVER);
    await waitForText(s, rejected, /Rejected/);
    await s.restartBot();

    const answer = await ask(s, 'swaps', { userId: BYSTANDER });
    expect(answer.text).toContain('*1,000 USDT → USDC*');
    expect(answer.text).toContain(
      `requested by <@${REQUESTER}> · approved by <@${APPROVER}> · *swap created* · swap \``,
    );
    expect(answer.text).toContain(`*0.5 ETH → USDT*`);
    expect(answer.text).toContain(`rejected by <@${SECOND_APPROVER}> · *rejected*`);
    expect(answer.text.indexOf('0.5 ETH')).toBeLessThan(answer.text.indexOf('1,000 USDT'));
  });

  it('`/treasury swap <id>` shows status, amounts, hashes and fee', async () => {
    const s = await start();
    const id = s.simulator.ids.swaps.finished[0]!;
    const swap = await s.payments.getSwap(id);
    const answer = await ask(s, `swap ${id}`);
    expect(answer.text).toContain(':white_check_mark: finished');
    expect(answer.text).toContain(swap.hashFrom!);
    expect(answer.text).toContain('*Fee*');
    expect((await ask(s, `swap ${s.simulator.ids.foreign.swap}`)).text).toContain('No such swap for this merchant.');
  });
});
