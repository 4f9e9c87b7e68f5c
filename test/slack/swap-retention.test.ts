import { afterEach, describe, expect, it } from 'vitest';
import { CLICK_NOTICES } from '../../src/features/swaps/approval.js';
import { findButtons } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import type { StoredMessage } from '../support/rig/slack-stand-in.js';
import { ask } from '../support/slack.js';
import { expectStaysAt } from '../support/waiting.js';

/*
 * A quote leaves the bot's working state 30 days after it ended (the audit export keeps it). Its message stays in
 * Slack, buttons and all ("New quote" on an expired quote): a click on it must answer in plain words and do nothing.
 */

const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const CHANNEL = 'C0TREASURY';
const DAY = 86_400_000;

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function requestQuote(s: LocalStack, text: string): Promise<StoredMessage> {
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

describe('a click on a quote that left the working state', () => {
  it('"New quote" and Approve on a 31-day-old expired quote answer in plain words, and nothing is estimated, posted or changed; the audit export still has it', async () => {
    stack = await startLocalStack({ env: { SWAP_APPROVERS: APPROVER } });
    const s = stack;
    const old = await requestQuote(s, 'swap 1,000 USDT@ETH to USDC@ETH');
    const oldId = quoteIdOf(old);
    // Approved too late: the quote expires, and its message offers "New quote".
    s.simulator.advanceTime(31 * 60_000);
    await s.driver.clickButtonIn({ ...current(s, old), channel: CHANNEL }, 'swap_approve', {
      userId: APPROVER,
      channelId: CHANNEL,
    });
    await s.slack.waitFor(
      () => findButtons(current(s, old).blocks ?? []).some((button) => button.actionId === 'swap_new_quote'),
      8_000,
      'the New quote button',
    );
    expect(s.store.read().swapQuotes[oldId]?.status).toBe('expired');

    // A month later someone asks for another quote: the old one leaves the working state.
    s.simulator.advanceTime(31 * DAY);
    await requestQuote(s, 'swap 2,000 USDT@ETH to USDC@ETH');
    expect(s.store.read().swapQuotes[oldId]).toBeUndefined();

    const snapshot = () => ({
      quotes: JSON.stringify(s.store.read().swapQuotes),
      posts: s.slack.callsOf('chat.postMessage').length,
      updates: s.slack.callsOf('chat.update').length,
      estimates: s.simulator.requestCount('estimateSwap'),
      creates: s.simulator.requests.filter((r) => r.operation === 'createSwap').length,
      oldMessage: JSON.stringify(current(s, old).blocks),
    });
    const before = snapshot();
    for (const actionId of ['swap_new_quote', 'swap_approve', 'swap_reject']) {
      const click = await s.driver.clickButton({
        actionId,
        value: oldId,
        userId: actionId === 'swap_new_quote' ? REQUESTER : APPROVER,
        channelId: CHANNEL,
        message: { ts: old.ts, blocks: current(s, old).blocks ?? [], text: old.text },
      });
      expect(click.status).toBe(200);
      const [notice] = await click.waitForResponses(1);
      expect(notice?.responseType, actionId).toBe('ephemeral');
      expect(notice?.blocks).toBeUndefined();
      expect(notice?.text, actionId).toBe(CLICK_NOTICES.unknownQuote);
    }
    expect(CLICK_NOTICES.unknownQuote).toMatch(/nothing was done.*more than 30 days ago.*audit export/);
    await expectStaysAt(before, snapshot);

    // The audit trail keeps it, with its events.
    const page = await s.store.audit.listQuotes(new Date(s.simulator.now() - 40 * DAY), { limit: 10 });
    const archived = page.items.find((quote) => quote.id === oldId);
    expect(archived?.status).toBe('expired');
    expect(archived?.history.map((entry) => entry.event)).toEqual(['quoted', 'approve_after_expiry']);
  });
});
