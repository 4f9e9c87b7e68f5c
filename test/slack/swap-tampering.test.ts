import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import type { ClickButtonOptions, DriverResult } from '../support/rig/slack-driver.js';
import type { StoredMessage } from '../support/rig/slack-stand-in.js';
import { ask } from '../support/slack.js';
import { expectStaysAt } from '../support/waiting.js';

/*
 * A click is a signed request, but what it carries is the client's to choose: the button value can be edited
 * before it is sent. A decision must come only from the quote's own message, and ids from outside must never
 * reach a plain-object lookup.
 */

const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const CHANNEL = 'C0TREASURY';
const OTHER_CHANNEL = 'C0ELSEWHERE';

const NOT_THIS_MESSAGE = "This button does not belong to this quote's message, so nothing was done.";
const NOT_A_QUOTE = 'This button does not name a quote the bot made, so nothing was done.';

let stack: LocalStack | undefined;
let logs: string[] = [];
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  logs = [];
});

async function start(): Promise<LocalStack> {
  stack = await startLocalStack({
    env: { SWAP_APPROVERS: APPROVER },
    logger: createLogger('debug', (line) => logs.push(line)),
  });
  return stack;
}

async function requestQuote(s: LocalStack, text = 'swap 1,000 USDT@ETH to USDC@ETH'): Promise<StoredMessage> {
  const before = s.slack.messages(CHANNEL).length;
  const answer = await ask(s, text, { userId: REQUESTER, channelId: CHANNEL });
  expect(answer.text).toContain('Quote posted');
  const messages = await s.slack.waitFor(() =>
    s.slack.messages(CHANNEL).length > before ? s.slack.messages(CHANNEL) : undefined,
  );
  return messages[messages.length - 1]!;
}

const current = (s: LocalStack, message: StoredMessage) => s.slack.messages(CHANNEL).find((m) => m.ts === message.ts)!;
const quoteIdOf = (message: StoredMessage) => findButtons(message.blocks ?? [])[0]!.value!;
const createCalls = (s: LocalStack) => s.simulator.requests.filter((r) => r.operation === 'createSwap').length;

/** Everything a tampered click could have changed: the messages, the records, the calls. */
function snapshot(s: LocalStack, ...messages: StoredMessage[]) {
  const quotes = s.store.read().swapQuotes;
  return {
    messages: messages.map((m) => JSON.stringify(current(s, m).blocks)),
    records: JSON.stringify(
      Object.values(quotes).map((q) => [q.id, q.status, q.decidedBy ?? null, q.replacedBy ?? null, q.history.length]),
    ),
    updates: s.slack.callsOf('chat.update').length,
    posts: s.slack.callsOf('chat.postMessage').length,
    creates: createCalls(s),
    estimates: s.simulator.requestCount('estimateSwap'),
  };
}

/** A click as a tampering client sends it: any value, in any message (or none), from any channel. */
async function tamperedClick(
  s: LocalStack,
  options: Omit<ClickButtonOptions, 'message'> & { in?: StoredMessage },
): Promise<DriverResult> {
  const { in: message, ...rest } = options;
  const result = await s.driver.clickButton({
    userId: APPROVER,
    channelId: CHANNEL,
    ...rest,
    ...(message ? { message: { ts: message.ts, blocks: current(s, message).blocks ?? [], text: message.text } } : {}),
  });
  expect(result.status).toBe(200);
  return result;
}

/** The private, plain notice a refused click gets (waited for before anything is counted). */
async function noticeOf(click: DriverResult): Promise<string> {
  const [notice] = await click.waitForResponses(1);
  expect(notice?.responseType).toBe('ephemeral');
  expect(notice?.blocks).toBeUndefined(); // plain text, not an error block
  return notice?.text ?? '';
}

describe('a tampered button value', () => {
  it.each(['swap_approve', 'swap_reject'])(
    '%s clicked on quote A with the value changed to quote B: B is not decided, nothing changes, the clicker is told',
    async (actionId) => {
      const s = await start();
      const a = await requestQuote(s);
      const b = await requestQuote(s, 'swap 2,000 USDT@ETH to USDC@ETH');
      const before = snapshot(s, a, b);

      const click = await tamperedClick(s, { actionId, value: quoteIdOf(b), in: a });
      expect(await noticeOf(click)).toBe(`${NOT_THIS_MESSAGE} Use the buttons on the quote message itself.`);
      await expectStaysAt(before, () => snapshot(s, a, b));
      expect(s.store.read().swapQuotes[quoteIdOf(b)]?.status).toBe('pending');
      expect(logs.join('\n')).toMatch(
        new RegExp(`WARN  refused a swap click that does not come from the quote message.*"quoteId":"${quoteIdOf(b)}"`),
      );

      // B's own message still works, once.
      await s.driver.clickButtonIn({ ...current(s, b), channel: CHANNEL }, 'swap_approve', {
        userId: APPROVER,
        channelId: CHANNEL,
      });
      await s.slack.waitFor(
        () => /Approved by <@U0APPROVER>.*\nSwap `/.test(blocksToText(current(s, b).blocks ?? [])),
        8_000,
        "B's message saying it was approved",
      );
      await expectStaysAt({ creates: 1 }, () => ({ creates: createCalls(s) }));
    },
  );

  it("a click from another channel's message, or one that carries no message, is refused", async () => {
    const s = await start();
    const a = await requestQuote(s);
    const before = snapshot(s, a);

    const elsewhere = await tamperedClick(s, {
      actionId: 'swap_approve',
      value: quoteIdOf(a),
      in: a,
      channelId: OTHER_CHANNEL,
    });
    expect(await noticeOf(elsewhere)).toContain(NOT_THIS_MESSAGE);
    const nowhere = await tamperedClick(s, { actionId: 'swap_approve', value: quoteIdOf(a) });
    expect(await noticeOf(nowhere)).toContain(NOT_THIS_MESSAGE);
    await expectStaysAt(before, () => snapshot(s, a));
  });

  it('a quote whose message ts was never recorded (the bot died between posting and recording it) cannot be decided by a click', async () => {
    const s = await start();
    const a = await requestQuote(s);
    // The state a crash right after chat.postMessage leaves: the quote is recorded, its message ts is not.
    await s.store.update((state) => {
      delete state.swapQuotes[quoteIdOf(a)]!.messageTs;
    });
    const before = snapshot(s, a);
    const click = await s.driver.clickButtonIn({ ...current(s, a), channel: CHANNEL }, 'swap_approve', {
      userId: APPROVER,
      channelId: CHANNEL,
    });
    expect(await noticeOf(click)).toBe(
      'The bot never recorded where this quote was posted, so it cannot be decided by a click. Nothing was done; ask for a new quote.',
    );
    await expectStaysAt(before, () => snapshot(s, a));
    expect(s.store.read().swapQuotes[quoteIdOf(a)]?.status).toBe('pending');
  });

  it('"New quote" clicked on another message with the value of an expired quote makes no new quote', async () => {
    const s = await start();
    const a = await requestQuote(s);
    s.simulator.advanceTime(31 * 60_000);
    await s.driver.clickButtonIn({ ...current(s, a), channel: CHANNEL }, 'swap_approve', {
      userId: APPROVER,
      channelId: CHANNEL,
    });
    await s.slack.waitFor(
      () => findButtons(current(s, a).blocks ?? []).some((button) => button.actionId === 'swap_new_quote'),
      8_000,
      'the New quote button',
    );
    const b = await requestQuote(s, 'swap 2,000 USDT@ETH to USDC@ETH');
    const before = snapshot(s, a, b);

    const click = await tamperedClick(s, { actionId: 'swap_new_quote', value: quoteIdOf(a), in: b, userId: REQUESTER });
    expect(await noticeOf(click)).toContain(NOT_THIS_MESSAGE);
    await expectStaysAt(before, () => snapshot(s, a, b));
  });
});

describe('button values that are no quote id', () => {
  it.each([
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['toString', 'toString'],
    ['hasOwnProperty', 'hasOwnProperty'],
    ['an empty string', ''],
    ['a 2,000-character string (the longest value Slack sends)', 'x'.repeat(2_000)],
    ['a quote id with something after it', '6f1c2a34-8b7d-4e21-9c3f-0a1b2c3d4e5f\n'],
  ])(
    '%s: every swap button answers with a plain notice, nothing changes, and the bot carries on',
    async (_name, value) => {
      const s = await start();
      const a = await requestQuote(s);
      const before = snapshot(s, a);

      for (const actionId of ['swap_approve', 'swap_reject', 'swap_new_quote']) {
        const click = await tamperedClick(s, { actionId, value, in: a });
        expect(await noticeOf(click), actionId).toBe(NOT_A_QUOTE);
      }
      await expectStaysAt(before, () => snapshot(s, a));
      expect(
        logs.filter((line) => line.includes('refused a swap click whose button value is not a quote id')),
      ).toHaveLength(3);
      expect(logs.join('\n')).not.toMatch(/ERROR/);
      // The log line is short whatever the value's size.
      expect(Math.max(...logs.map((line) => line.length))).toBeLessThan(2_000);

      // The process is fine: it answers, and the quote can still be decided from its own message.
      expect((await fetch(`${s.botUrl}/healthz`)).status).toBe(200);
      await s.driver.clickButtonIn({ ...current(s, a), channel: CHANNEL }, 'swap_reject', {
        userId: REQUESTER,
        channelId: CHANNEL,
      });
      await s.slack.waitFor(
        () => /Rejected by <@U0REQUESTER>/.test(blocksToText(current(s, a).blocks ?? [])),
        8_000,
        'the quote rejected',
      );
    },
  );
});

it('a 10 kB value (longer than Slack allows) changes nothing, gets at most a plain notice, and the bot carries on', async () => {
  const s = await start();
  const a = await requestQuote(s);
  const before = snapshot(s, a);
  const clicks: DriverResult[] = [];
  for (const actionId of ['swap_approve', 'swap_reject', 'swap_new_quote']) {
    clicks.push(await tamperedClick(s, { actionId, value: 'x'.repeat(10_000), in: a }));
  }
  // The edge middleware (src/listeners/edge.ts) drops a value over 2,000 characters before any listener, and
  // logs it; if it ever lets one through, the swap buttons answer with the plain notice.
  await s.slack.waitFor(
    () =>
      logs.filter((line) => /ignored a malformed button click|button value is not a quote id/.test(line)).length >= 3,
    5_000,
    'each click logged as refused',
  );
  await expectStaysAt(before, () => snapshot(s, a));
  for (const response of clicks.flatMap((click) => click.responses())) {
    expect(response.responseType).toBe('ephemeral');
    expect(response.text).toBe(NOT_A_QUOTE);
  }
  expect(Math.max(...logs.map((line) => line.length))).toBeLessThan(2_000);
  expect((await fetch(`${s.botUrl}/healthz`)).status).toBe(200);
  await s.driver.clickButtonIn({ ...current(s, a), channel: CHANNEL }, 'swap_reject', {
    userId: REQUESTER,
    channelId: CHANNEL,
  });
  await s.slack.waitFor(
    () => /Rejected by <@U0REQUESTER>/.test(blocksToText(current(s, a).blocks ?? [])),
    8_000,
    'the quote rejected',
  );
});
