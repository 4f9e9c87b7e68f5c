// Only the people who should, end to end through the real app (signed HTTP, the Slack stand-in, the payment
// simulator): a member of another organisation in a Slack Connect channel (their `user.team_id` is not the app's
// team) is refused on every surface before any payment API call or change of state, even with TREASURY_USERS=*;
// TREASURY_USERS takes user groups (and an unknown membership refuses); "New quote" checks TREASURY_USERS; a
// threshold set while the poller is off says no alert will come.
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_A_TREASURY_USER, OUTSIDE_ORGANISATION } from '../../src/features/access/rules.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../support/rig/local-stack.js';
import type { StoredMessage } from '../support/rig/slack-stand-in.js';
import { ask } from '../support/slack.js';
import { expectStaysAt } from '../support/waiting.js';

const RILEY = 'U0RILEY';
const AVERY = 'U0AVERY';
const SAM = 'U0SAM';
/** A partner company's person in the shared channel: their own workspace is T0PARTNER, not the app's T_TEST. */
const PARTNER = 'U0PARTNER';
const PARTNER_TEAM = 'T0PARTNER';
const CHANNEL = 'C0SHARED';

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(env: Record<string, string>, options: LocalStackOptions = {}): Promise<LocalStack> {
  stack = await startLocalStack({ env, ...options });
  return stack;
}

const textOf = (message: StoredMessage) => blocksToText(message.blocks ?? []);
const current = (s: LocalStack, message: StoredMessage) => s.slack.messages(CHANNEL).find((m) => m.ts === message.ts)!;

/** Everything the bot can touch: the payment API, Slack's Web API, and the state (quotes, alerts). */
async function footprint(s: LocalStack) {
  return {
    payments: s.simulator.requestCount(),
    slackCalls: s.slack.calls.filter((call) => call.method !== 'auth.test').length,
    quotes: await quoteStates(s),
  };
}

/** Each quote's id and status, as the store has them. */
async function quoteStates(s: LocalStack): Promise<string[]> {
  return (await s.store.swapQuotes.listQuotesSince(new Date(0))).map((quote) => `${quote.id}:${quote.status}`);
}

async function requestQuote(s: LocalStack, userId = RILEY): Promise<StoredMessage> {
  const before = s.slack.messages(CHANNEL).length;
  const answer = await ask(s, 'swap 1,000 USDT@ETH to USDC@ETH', { userId, channelId: CHANNEL });
  expect(answer.text).toContain('Quote posted');
  return s.slack.waitFor(() => s.slack.messages(CHANNEL)[before], 5_000, 'the quote message');
}

describe('Slack Connect: a member of another organisation', () => {
  it('typing /treasury is refused in the ack, in plain words, with TREASURY_USERS=*: nothing is read or sent', async () => {
    const s = await start({ TREASURY_USERS: '*' });
    const before = await footprint(s);
    for (const text of ['balances', 'invoice 5 Consulting', 'swap 1,000 USDT@ETH to USDC@ETH', 'policy']) {
      const result = await s.driver.command(text, { userId: PARTNER, teamId: PARTNER_TEAM, channelId: CHANNEL });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ response_type: 'ephemeral', text: OUTSIDE_ORGANISATION });
    }
    await expectStaysAt(before, () => ({
      payments: s.simulator.requestCount(),
      slackCalls: s.slack.calls.filter((call) => call.method !== 'auth.test').length,
      quotes: before.quotes,
    }));
    // The same command from the app's own workspace works: `*` is everyone in the installing organisation.
    const ours = await ask(s, 'balances', { userId: SAM, channelId: CHANNEL });
    expect(ours.text).toContain('USDT');
  });

  it('clicking Approve on a quote is refused privately and nothing is created, even when listed as an approver', async () => {
    // The partner's id ended up in SWAP_APPROVERS (a copy-paste from the shared channel): still outside.
    const s = await start({ TREASURY_USERS: '*', SWAP_APPROVERS: `${AVERY},${PARTNER}` });
    const quote = await requestQuote(s);
    const shown = textOf(quote);
    const paymentsBefore = s.simulator.requestCount();
    const click = await s.driver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
      userId: PARTNER,
      teamId: PARTNER_TEAM,
      channelId: CHANNEL,
    });
    expect(click.status).toBe(200);
    const [notice] = await click.waitForResponses(1);
    expect(notice).toMatchObject({ responseType: 'ephemeral', text: OUTSIDE_ORGANISATION });
    await expectStaysAt({ payments: paymentsBefore, text: shown, updates: 0 }, () => ({
      payments: s.simulator.requestCount(),
      text: textOf(current(s, quote)),
      updates: s.slack.callsOf('chat.update').length,
    }));
    expect((await quoteStates(s)).map((state) => state.split(':')[1])).toEqual(['pending']);
  });

  it('opening the Home tab publishes nothing for them, and a click in a Home they hold does nothing', async () => {
    const s = await start({ TREASURY_USERS: '*' });
    // One of ours opens the Home: it is published (the control).
    await s.driver.openHome(RILEY);
    const riley = await s.slack.waitFor(() => s.slack.homeView(RILEY), 5_000, "Riley's Home");
    const before = await footprint(s);

    const opened = await s.driver.openHome(PARTNER, undefined, { teamId: PARTNER_TEAM });
    expect(opened.status).toBe(200);
    const clicked = await s.driver.clickInHome(riley, 'home_refresh', { userId: PARTNER, teamId: PARTNER_TEAM });
    expect(clicked.status).toBe(200);
    await expectStaysAt({ ...before, home: undefined }, () => ({
      payments: s.simulator.requestCount(),
      slackCalls: s.slack.calls.filter((call) => call.method !== 'auth.test').length,
      quotes: before.quotes,
      home: s.slack.homeView(PARTNER),
    }));
  });
});

describe('Enterprise Grid: TREASURY_USERS=* is organisation-wide', () => {
  /** The organisation the app's workspace T_TEST belongs to, and another workspace of it. */
  const ORG = 'E0ORG';
  const OTHER_WORKSPACE = 'T0OTHERWS';
  const GRID_MEMBER = 'U0GRIDMEMBER';

  it('a member of another workspace of the same organisation is admitted by `*`, by command and by click; the printed configuration says organisation-wide', async () => {
    const s = await start(
      { TREASURY_USERS: '*', SWAP_APPROVERS: `${AVERY},${GRID_MEMBER}` },
      { slack: { enterpriseId: ORG } },
    );
    const { describeConfig } = await import('../../src/config-display.js');
    expect(describeConfig(s.config).TREASURY_USERS).toBe(
      '* (everyone in the installing organisation (on Enterprise Grid, every workspace of it))',
    );
    // Typed in their own workspace of the organisation: Slack sends that workspace's team_id and the enterprise_id.
    const typed = await ask(s, 'balances', {
      userId: GRID_MEMBER,
      teamId: OTHER_WORKSPACE,
      enterpriseId: ORG,
      channelId: CHANNEL,
    });
    expect(typed.text).toContain('USDT');
    // A click names the organisation (E…) as the person's team: any workspace of it looks the same.
    const quote = await requestQuote(s);
    const click = await s.driver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
      userId: GRID_MEMBER,
      teamId: ORG,
      channelId: CHANNEL,
    });
    expect(click.status).toBe(200);
    await s.slack.waitFor(
      () => (/approved|created/i.test(textOf(current(s, quote))) ? true : undefined),
      10_000,
      'the quote approved by the Grid member',
    );
    // Another organisation still is not inside, whatever TREASURY_USERS says.
    const outsider = await s.driver.command('balances', {
      userId: PARTNER,
      teamId: 'T0ELSEWHERE',
      enterpriseId: 'E0ELSEWHERE',
      channelId: CHANNEL,
    });
    expect(outsider.body).toEqual({ response_type: 'ephemeral', text: OUTSIDE_ORGANISATION });
  });
});

describe('TREASURY_USERS', () => {
  const group = (users: string[]) => ({
    slack: { usergroups: [{ id: 'S0TREASURY', handle: 'treasury', name: 'Treasury', users }] },
  });

  it('a user group: its members may, others are refused in plain words', async () => {
    const s = await start({ TREASURY_USERS: 'S0TREASURY' }, group([RILEY]));
    expect((await ask(s, 'balances', { userId: RILEY, channelId: CHANNEL })).text).toContain('USDT');
    const paymentsBefore = s.simulator.requestCount();
    const refused = await ask(s, 'balances', { userId: SAM, channelId: CHANNEL });
    expect(refused.reply).toMatchObject({ responseType: 'ephemeral', text: NOT_A_TREASURY_USER });
    await expectStaysAt(paymentsBefore, () => s.simulator.requestCount());
  });

  it('a group Slack cannot list lets nobody in through it, and says why', async () => {
    const s = await start({ TREASURY_USERS: 'S0TREASURY' }, group([RILEY]));
    s.slack.failNext('usergroups.users.list', { error: 'missing_scope' }, 5);
    const refused = await ask(s, 'balances', { userId: RILEY, channelId: CHANNEL });
    expect(refused.text).toBe(
      'Sorry, the bot could not check that you are on the treasury team (the bot lacks the usergroups:read permission), so it does nothing for now. Please try again in a minute.',
    );
    await expectStaysAt(0, () => s.simulator.requestCount());
  });

  it('"New quote" is for TREASURY_USERS too: an approver outside it gets no new estimate', async () => {
    const s = await start({ TREASURY_USERS: RILEY, SWAP_APPROVERS: AVERY });
    const quote = await requestQuote(s);
    s.simulator.advanceTime(31 * 60_000);
    // The expiry is written on the message by a refused approval.
    const late = await s.driver.clickButtonIn({ ...quote, channel: CHANNEL }, 'swap_approve', {
      userId: AVERY,
      channelId: CHANNEL,
    });
    await late.waitForResponses(1);
    const expired = await s.slack.waitFor(
      () =>
        findButtons(current(s, quote).blocks ?? []).some((b) => b.actionId === 'swap_new_quote') ? true : undefined,
      8_000,
      'the New quote button',
    );
    expect(expired).toBe(true);
    const estimates = s.simulator.requestCount('estimateSwap');
    const click = await s.driver.clickButtonIn({ ...current(s, quote), channel: CHANNEL }, 'swap_new_quote', {
      userId: AVERY,
      channelId: CHANNEL,
    });
    const [notice] = await click.waitForResponses(1);
    expect(notice).toMatchObject({ responseType: 'ephemeral', text: NOT_A_TREASURY_USER });
    await expectStaysAt({ estimates, messages: 1 }, () => ({
      estimates: s.simulator.requestCount('estimateSwap'),
      messages: s.slack.messages(CHANNEL).length,
    }));
  });
});

describe('a threshold while the poller is off (ALERT_CHANNEL unset)', () => {
  it('is saved, and the answer, the list and the Home tab say plainly that no alert will come', async () => {
    const s = await start({ TREASURY_ADMINS: AVERY, TREASURY_USERS: '*' });
    const set = await ask(s, 'threshold USDT@ETH below 5,000', { userId: AVERY, channelId: CHANNEL });
    expect(set.text).toContain('threshold saved');
    expect(set.text).toContain('*No alert will come:* the alert poller is off (`ALERT_CHANNEL` is not set)');
    expect(set.text).not.toMatch(/^:white_check_mark:.*an alert opens when/);
    const list = await ask(s, 'thresholds', { userId: AVERY, channelId: CHANNEL });
    expect(list.text).toContain('*No alert will come:*');
    await s.driver.openHome(AVERY);
    const home = await s.slack.waitFor(() => s.slack.homeView(AVERY), 5_000, "Avery's Home");
    expect(blocksToText((home.view.blocks as unknown[]) ?? [])).toContain('*No alert will come:*');
  });
});
