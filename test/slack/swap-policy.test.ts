// The approval policy end to end on the state file: signed clicks on the real Bolt app, the Slack stand-in (with user groups)
// and the payment API simulator. Tiers of distinct approvers, partial approvals on the message, groups that
// Slack can or cannot list, a policy changed mid-flight, the rolling daily limit, the reminder and expiry.
// PostgreSQL and two replicas: test/replicas/two-replicas.test.ts; a crash at the quorum: swap-crash-wording.
import { afterEach, describe, expect, it } from 'vitest';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import type { DriverResult } from '../support/rig/slack-driver.js';
import type { StoredMessage } from '../support/rig/slack-stand-in.js';
import { ask } from '../support/slack.js';
import { expectStaysAt } from '../support/waiting.js';

const REQUESTER = 'U0REQUESTER';
const AVERY = 'U0AVERY';
const BLAKE = 'U0BLAKE';
const CASEY = 'U0CASEY';
const JORDAN = 'U0JORDAN';
const LEADS = 'S0LEADS';
const OUTSIDER = 'U0OUTSIDER';
const CHANNEL = 'C0TREASURY';

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** Two approvals from $5,000 (USDT is $1.00 in the simulator); Jordan approves as a member of @leads. */
async function start(env: Record<string, string> = {}): Promise<LocalStack> {
  stack = await startLocalStack({
    env: { SWAP_APPROVERS: `${AVERY},${BLAKE},${CASEY},${LEADS}`, SWAP_POLICY: '0:1,5000:2', ...env },
    slack: { usergroups: [{ id: LEADS, handle: 'leads', name: 'Treasury leads', users: [JORDAN] }] },
  });
  return stack;
}

async function requestQuote(s: LocalStack, text: string): Promise<StoredMessage> {
  const before = s.slack.messages(CHANNEL).length;
  const answer = await ask(s, text, { userId: REQUESTER, channelId: CHANNEL });
  expect(answer.text).toContain('Quote posted');
  return s.slack.waitFor(() => s.slack.messages(CHANNEL)[before], 8_000, 'the quote message');
}

const current = (s: LocalStack, quote: StoredMessage) => s.slack.messages(CHANNEL).find((m) => m.ts === quote.ts)!;
const textOf = (s: LocalStack, quote: StoredMessage) => blocksToText(current(s, quote).blocks ?? []);
const repliesTo = (s: LocalStack, quote: StoredMessage) =>
  s.slack.messages(CHANNEL).filter((m) => m.threadTs === quote.ts && m.ts !== quote.ts);
const creates = (s: LocalStack) => s.simulator.requests.filter((r) => r.operation === 'createSwap').length;

async function click(s: LocalStack, quote: StoredMessage, actionId: string, userId: string): Promise<DriverResult> {
  const result = await s.driver.clickButtonIn({ ...current(s, quote), channel: CHANNEL }, actionId, {
    userId,
    channelId: CHANNEL,
  });
  expect(result.status).toBe(200);
  return result;
}

/** A click on the message as it looked when given (a client that has not refreshed yet). */
async function clickAsSeen(
  s: LocalStack,
  seen: StoredMessage,
  actionId: string,
  userId: string,
): Promise<DriverResult> {
  const result = await s.driver.clickButtonIn({ ...seen, channel: CHANNEL }, actionId, { userId, channelId: CHANNEL });
  expect(result.status).toBe(200);
  return result;
}

async function noticeOf(result: DriverResult): Promise<string> {
  const [notice] = await result.waitForResponses(1);
  expect(notice?.responseType).toBe('ephemeral');
  return notice?.text ?? '';
}

const waitForText = (s: LocalStack, quote: StoredMessage, pattern: RegExp) =>
  s.slack.waitFor(
    () => (pattern.test(textOf(s, quote)) ? textOf(s, quote) : undefined),
    8_000,
    `the quote message matching ${pattern}`,
  );

describe('a swap above a tier needs that many distinct approvers', () => {
  it('one approval shows on the message and creates nothing; the same person again, the requester and an outsider are told why; the second distinct approval creates exactly once', async () => {
    const s = await start();
    const quote = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    const posted = textOf(s, quote);
    expect(posted).toContain('≈ $6,000.00');
    expect(posted).toContain(
      'Waiting for *2 approvals* by <@U0AVERY>, <@U0BLAKE>, <@U0CASEY> or members of <!subteam^S0LEADS>.',
    );
    expect(posted).toMatch(
      /Needs 2 approvals from distinct approvers: policy of \d{4}-\d{2}-\d{2} \(swaps from \$5,000 need 2\)/,
    );

    expect(await noticeOf(await click(s, quote, 'swap_approve', AVERY))).toContain(
      'Your approval is recorded (1 of 2)',
    );
    const partial = await waitForText(s, quote, /Approved 1 of 2/);
    expect(partial).toContain(
      '*Approved 1 of 2* — <@U0AVERY> ✓ — waiting for one more by <@U0BLAKE>, <@U0CASEY> or members of <!subteam^S0LEADS>.',
    );
    expect(findButtons(current(s, quote).blocks ?? []).map((b) => b.text)).toEqual(['Approve', 'Reject']);

    expect(await noticeOf(await click(s, quote, 'swap_approve', AVERY))).toMatch(
      /^You already approved this quote at .* UTC; it is waiting for one more approver\. Nothing was done\./,
    );
    expect(await noticeOf(await click(s, quote, 'swap_approve', REQUESTER))).toContain('Only the swap approvers');
    expect(await noticeOf(await click(s, quote, 'swap_approve', OUTSIDER))).toContain('Only the swap approvers');
    await expectStaysAt(0, () => creates(s));

    await click(s, quote, 'swap_approve', BLAKE);
    const done = await waitForText(s, quote, /Swap `[0-9a-f-]+`/);
    expect(done).toMatch(/Approved by <@U0AVERY> and <@U0BLAKE> at .* UTC\./);
    await expectStaysAt(1, () => creates(s));

    // The audit trail keeps each approval; /treasury swaps shows both.
    const [record] = await s.store.swapQuotes.listRecentQuotes(1);
    expect(
      record?.history.map((entry) => [entry.event, entry.by, entry.detail?.replace(/ of estimate .*$/, '')]),
    ).toEqual([
      ['quoted', REQUESTER, expect.stringMatching(/^estimate /)],
      ['approved', AVERY, 'approval 1 of 2; waiting for one more approval'],
      ['approved', BLAKE, 'approval 2 of 2; swap/create'],
      ['swap_created', undefined, expect.any(String)],
      ...(record?.history.slice(4).map(() => expect.anything()) ?? []),
    ]);
    const history = await ask(s, 'swaps', { userId: REQUESTER, channelId: CHANNEL });
    expect(history.text).toContain('approved by <@U0AVERY> and <@U0BLAKE> (2 of 2)');
  });

  it('three approvers clicking at once on a quote needing two: exactly one create, two approvals counted, the third told', async () => {
    const s = await start();
    const quote = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    s.simulator.injectFault('createSwap', { delayMs: 300 });
    const clicks = await Promise.all([AVERY, BLAKE, CASEY, AVERY].map((who) => click(s, quote, 'swap_approve', who)));
    await waitForText(s, quote, /Swap `[0-9a-f-]+`/);
    const [record] = await s.store.swapQuotes.listRecentQuotes(1);
    expect(record?.approvals).toHaveLength(2);
    // Every click gets a private answer (the counted first one too, the quorum's own click none), then nothing more.
    const notices = () => clicks.flatMap((c) => c.responses()).map((r) => r.text ?? '');
    await s.slack.waitFor(() => notices().length >= 3, 8_000, 'three notices');
    expect(notices().filter((n) => n.startsWith('Your approval is recorded (1 of 2)'))).toHaveLength(1);
    await expectStaysAt({ creates: 1, notices: 3 }, () => ({ creates: creates(s), notices: notices().length }));
  });

  it("one approver's Reject after an approval ends the quote for everyone", async () => {
    const s = await start();
    const quote = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    await click(s, quote, 'swap_approve', AVERY);
    await waitForText(s, quote, /Approved 1 of 2/);
    await click(s, quote, 'swap_reject', CASEY);
    expect(await waitForText(s, quote, /Rejected by/)).toContain('Rejected by <@U0CASEY> at');
    expect(textOf(s, quote)).toContain('It had 1 of 2 approvals (<@U0AVERY>).');
    expect(await noticeOf(await clickAsSeen(s, quote, 'swap_approve', BLAKE))).toContain(
      'Already decided: rejected by <@U0CASEY>',
    );
    await expectStaysAt(0, () => creates(s));
  });

  it('a swap under the tier still needs one approval, as before', async () => {
    const s = await start();
    const quote = await requestQuote(s, 'swap 4,999.99 USDT@ETH to USDC@ETH');
    expect(textOf(s, quote)).toContain('Waiting for approval by');
    await click(s, quote, 'swap_approve', CASEY);
    await waitForText(s, quote, /Approved by <@U0CASEY> at .*\nSwap `/);
    await expectStaysAt(1, () => creates(s));
  });
});

describe('approver groups', () => {
  it('a member of an approver group approves as Slack lists them; when Slack cannot list the group, nobody from it may, and the clicker is told why', async () => {
    const s = await start();
    const quote = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    // Slack fails (no cache yet): Jordan is refused with why, nothing changes.
    s.slack.failNext('usergroups.users.list', { status: 503 }, 1);
    expect(await noticeOf(await click(s, quote, 'swap_approve', JORDAN))).toMatch(
      /^Slack could not say who is in <!subteam\^S0LEADS> \(.+\), so nobody from it can approve right now/,
    );
    expect((await s.store.swapQuotes.listRecentQuotes(1))[0]?.approvals).toEqual([]);
    // Slack answers again (a failure is never cached): Jordan counts.
    await click(s, quote, 'swap_approve', JORDAN);
    await waitForText(s, quote, /Approved 1 of 2\* — <@U0JORDAN> ✓/);
    // Someone outside the group is not an approver.
    expect(await noticeOf(await click(s, quote, 'swap_approve', OUTSIDER))).toContain('Only the swap approvers');
    await click(s, quote, 'swap_approve', AVERY);
    await waitForText(s, quote, /Approved by <@U0JORDAN> and <@U0AVERY>/);
    await expectStaysAt(1, () => creates(s));
  });
  it('the requester rejects their own quote without the bot asking Slack who is in the approver groups', async () => {
    const s = await start();
    const quote = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    s.slack.failNext('usergroups.users.list', { status: 503 }, 1);
    await click(s, quote, 'swap_reject', REQUESTER);
    await waitForText(s, quote, /Rejected by <@U0REQUESTER>/);
    expect(s.slack.callsOf('usergroups.users.list')).toEqual([]);
  });
});

describe('the policy is fixed on the quote', () => {
  it('a quote made when $6,000 needed two still needs two after a redeployment that asks for one', async () => {
    const s = await start();
    const quote = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    await s.restartBot({ SWAP_POLICY: '0:1' });
    await click(s, quote, 'swap_approve', AVERY);
    await waitForText(s, quote, /Approved 1 of 2/);
    await expectStaysAt(0, () => creates(s));
    // A new quote follows the new policy.
    const fresh = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    expect(textOf(s, fresh)).toContain('Waiting for approval by');
  });
});

describe('the rolling daily limit', () => {
  it('a quote past the limit is refused saying what is left today; an approval past it is refused and not recorded; /treasury policy shows the use', async () => {
    const s = await start({ SWAP_POLICY: '0:1', SWAP_DAILY_LIMIT_USD: '10,000' });
    const first = await requestQuote(s, 'swap 7,000 USDT@ETH to USDC@ETH');
    const refused = await ask(s, 'swap 3,000.01 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL });
    expect(refused.text).toContain(
      'No quote was made: swaps out of USDT on Ethereum are limited to $10,000 in any 24 hours; $7,000 is used ($7,000 of it in your own quotes waiting for approval), so $3,000 is left today',
    );
    const policy = await ask(s, 'policy', { userId: REQUESTER, channelId: CHANNEL });
    expect(policy.text).toContain(
      'USDT on Ethereum: $0 of $10,000 swapped, $10,000 left; $7,000 more in quotes waiting for approval',
    );

    // Two quotes that both fit when asked for (their checks race, the estimate held): only one can be approved.
    s.simulator.injectFault('estimateSwap', { delayMs: 400 }, 2);
    await click(s, first, 'swap_reject', REQUESTER);
    await waitForText(s, first, /Rejected by/);
    const [a, b] = await Promise.all([
      ask(s, 'swap 6,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL }),
      ask(s, 'swap 6,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL }),
    ]);
    expect([a.text, b.text].every((text) => text.includes('Quote posted'))).toBe(true);
    const quotes = await s.slack.waitFor(
      () => (s.slack.messages(CHANNEL).length >= 3 ? s.slack.messages(CHANNEL).slice(1, 3) : undefined),
      8_000,
      'both quotes',
    );
    const clicks = await Promise.all(quotes.map((quote) => click(s, quote, 'swap_approve', AVERY)));
    await s.slack.waitFor(() => creates(s) === 1, 8_000, 'one create');
    const [notice] = await Promise.race(clicks.map((c) => c.waitForResponses(1)));
    expect(notice?.text).toMatch(
      /^Approving now would pass the daily limit for swaps out of USDT on Ethereum: \$6,000 of \$10,000 was swapped in the last 24 hours, so \$4,000 is left/,
    );
    expect(notice?.text).toContain('Your approval was not recorded; the quote stays open');
    await expectStaysAt(1, () => creates(s));
    const waiting = quotes.find((quote) => !/Swap `/.test(textOf(s, quote)))!;
    expect(textOf(s, waiting)).toContain('Waiting for approval by');
  });
});

describe('the reminder ten minutes before expiry, and expiry', () => {
  it('one thread reply names only the approvers who have not acted; at expiry the message says so with the approvals it had', async () => {
    const s = await start({ SWAP_APPROVERS: `${AVERY},${BLAKE},${LEADS}` });
    const quote = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    await click(s, quote, 'swap_approve', AVERY);
    await waitForText(s, quote, /Approved 1 of 2/);

    await s.treasury.swaps.sweep();
    expect(repliesTo(s, quote)).toEqual([]);
    s.simulator.advanceTime(20 * 60_000 + 1_000);
    await Promise.all([s.treasury.swaps.sweep(), s.treasury.swaps.sweep()]);
    const [reminder, ...more] = repliesTo(s, quote);
    expect(more).toEqual([]);
    expect(reminder?.text).toMatch(
      /^:alarm_clock: This quote expires at .* and still needs one approval\. <@U0BLAKE>, <@U0JORDAN>: approve or reject it/,
    );
    expect(reminder?.text).not.toContain('U0AVERY');
    await s.treasury.swaps.sweep();
    expect(repliesTo(s, quote)).toHaveLength(1);

    s.simulator.advanceTime(10 * 60_000);
    await s.treasury.swaps.sweep();
    const expired = await waitForText(s, quote, /Expired: the quote was valid until/);
    expect(expired).toContain('No swap was made. It had 1 of 2 approvals (<@U0AVERY>).');
    expect(findButtons(current(s, quote).blocks ?? []).map((b) => b.text)).toEqual(['New quote']);
    expect(await noticeOf(await clickAsSeen(s, quote, 'swap_approve', BLAKE))).toContain('This quote has expired');
    await expectStaysAt(0, () => creates(s));
  });

  it('a quote that lapsed while the bot was down for hours is marked expired at the first sweep, with no reminder', async () => {
    const s = await start();
    const quote = await requestQuote(s, 'swap 6,000 USDT@ETH to USDC@ETH');
    s.simulator.advanceTime(3 * 60 * 60_000);
    await s.treasury.swaps.sweep();
    expect(await waitForText(s, quote, /Expired: the quote was valid until/)).toContain('No swap was made.');
    expect(repliesTo(s, quote)).toEqual([]);
  });
});
