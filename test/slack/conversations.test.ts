/*
 * Every fallback the bot has, in every kind of conversation, against a Slack stand-in that knows who is in which
 * conversation and refuses as Slack does: quote posting, reply delivery when the response_url fails, and Share in
 * channel; then content Slack refuses (a reply, a quote message, a shared copy), which arrives as plain text.
 * The real app over HTTP with signed requests; the words must fit the place (no "invite the bot" in a DM).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { BUTTONS_MISSING_NOTE } from '../../src/slack/plain-text.js';
import { blocksToText } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import type { ConversationSpec, StoredMessage } from '../support/rig/slack-stand-in.js';
import { type Answer, ask } from '../support/slack.js';
import { expectStaysAt, waitUntil } from '../support/waiting.js';

const BOT = 'U_BOT';
const RILEY = 'U0RILEY';
const AVERY = 'U0AVERY';
const SAM = 'U0SAM';

/** A conversation of each kind, with and without the bot, and how Slack names it in commands and clicks. */
const PLACES = {
  publicWithoutBot: { channelId: 'C0PUBLIC', channelName: 'treasury' },
  privateWithBot: { channelId: 'C0DESK', channelName: 'privategroup' },
  privateWithoutBot: { channelId: 'C0OPS', channelName: 'privategroup' },
  // A private channel Slack names by its own name: the bot cannot tell it from a public one until Slack says no.
  privateNamedWithoutBot: { channelId: 'C0BOARD', channelName: 'board' },
  dmWithBot: { channelId: 'D0RILEYBOT', channelName: 'directmessage' },
  dmWithoutBot: { channelId: 'D0RILEYAVERY', channelName: 'directmessage' },
  groupDmWithBot: { channelId: 'G0GROUPBOT', channelName: 'mpdm-riley--avery--treasury-1' },
  groupDmWithoutBot: { channelId: 'G0GROUP', channelName: 'mpdm-riley--avery--sam-1' },
  archived: { channelId: 'C0OLD', channelName: 'old-treasury' },
} as const;
type PlaceName = keyof typeof PLACES;

const CONVERSATIONS: ConversationSpec[] = [
  { id: 'C0PUBLIC', name: 'treasury', kind: 'public', members: [RILEY, AVERY, SAM] },
  { id: 'C0DESK', name: 'treasury-desk', kind: 'private', members: [RILEY, AVERY, BOT] },
  { id: 'C0OPS', name: 'treasury-ops', kind: 'private', members: [RILEY, AVERY] },
  { id: 'C0BOARD', name: 'board', kind: 'private', members: [RILEY, AVERY] },
  { id: 'D0RILEYBOT', kind: 'im', members: [RILEY, BOT] },
  { id: 'D0RILEYAVERY', kind: 'im', members: [RILEY, AVERY] },
  { id: 'G0GROUPBOT', name: 'mpdm-riley--avery--treasury-1', kind: 'mpim', members: [RILEY, AVERY, BOT] },
  { id: 'G0GROUP', name: 'mpdm-riley--avery--sam-1', kind: 'mpim', members: [RILEY, AVERY, SAM] },
  { id: 'C0OLD', name: 'old-treasury', kind: 'public', members: [RILEY, AVERY, BOT], archived: true },
];

const SWAP = 'swap 1,000 USDT@ETH to USDC@ETH';
const INVITE = '`/invite @treasury`';
const logs: string[] = [];
let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({
    env: { SWAP_APPROVERS: AVERY },
    slack: { conversations: CONVERSATIONS },
    logger: createLogger('warn', (line) => logs.push(line)),
  });
});
afterAll(() => stack.close());
beforeEach(() => {
  stack.slack.reset();
  stack.simulator.resetRequests();
  logs.length = 0;
});

const at = (place: PlaceName, userId = RILEY) => ({ userId, ...PLACES[place] });
const messagesIn = (place: PlaceName): StoredMessage[] => stack.slack.messages(PLACES[place].channelId);

describe('a swap quote, asked for in each kind of conversation', () => {
  // A group DM may hold the bot and an approver: the quote is posted there like in a channel.
  it.each(['publicWithoutBot', 'privateWithBot', 'groupDmWithBot'] as const)(
    '%s: the quote is posted there for the approvers',
    async (place) => {
      const answer = await ask(stack, SWAP, at(place));
      expect(answer.text).toContain('Quote posted');
      const [quote] = await stack.slack.waitFor(() => (messagesIn(place).length > 0 ? messagesIn(place) : undefined));
      expect(blocksToText(quote?.blocks ?? [])).toContain('Waiting for approval by <@U0AVERY>');
    },
  );

  it.each(['dmWithBot', 'dmWithoutBot'] as const)(
    '%s: says where to ask instead, before any API call, and posts nothing',
    async (place) => {
      const answer = await ask(stack, SWAP, at(place));
      expect(answer.text).toContain('this is a direct message, so I cannot post one here');
      expect(answer.text).toContain('Ask for the swap in a channel that you, the approvers and I share');
      expect(answer.text).not.toMatch(/invite me with `\/invite @treasury`, then/);
      expect(answer.reply.responseType).toBe('ephemeral');
      expect(stack.simulator.requestCount()).toBe(0);
      expect(stack.slack.callsOf('chat.postMessage')).toHaveLength(0);
    },
  );

  it.each(['privateWithoutBot', 'privateNamedWithoutBot'] as const)(
    '%s: Slack cannot post it; the person is told to invite the bot',
    async (place) => {
      const answer = await ask(stack, SWAP, at(place));
      expect(answer.text).toContain('this is a private channel I am not in');
      expect(answer.text).toContain(`invite me with ${INVITE}, then ask for the swap again`);
      expect(answer.text).toContain('No swap was made.');
      expect(stack.slack.callsOf('chat.postMessage')).toHaveLength(1);
      expect(messagesIn(place)).toEqual([]);
      expect(stack.simulator.requestCount('createSwap')).toBe(0);
    },
  );

  it('a group DM the bot is not in: Slack cannot post it; the person is told the bot is not part of it, and where to ask', async () => {
    const answer = await ask(stack, SWAP, at('groupDmWithoutBot'));
    expect(answer.text).toContain('I am not part of this direct message, so I cannot post in it. No swap was made.');
    expect(answer.text).toContain('Ask for the swap in a channel where the approvers and I both are.');
    expect(answer.text).not.toContain('/invite');
    expect(stack.slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(messagesIn('groupDmWithoutBot')).toEqual([]);
    expect(stack.simulator.requestCount('createSwap')).toBe(0);
  });

  it('a quote whose post Slack does not confirm is posted once, and the person is told to check the channel, not that nothing was posted', async () => {
    stack.slack.failNext('chat.postMessage', { dropAnswer: true });
    const answer = await ask(stack, SWAP, at('privateWithBot'));
    expect(answer.text).toContain(
      'Slack did not confirm the post of the quote message, so it may or may not be in the channel.',
    );
    expect(answer.text).toContain('Check the channel before trying again.');
    expect(answer.text).not.toContain('Slack did not take the quote message');
    expect(messagesIn('privateWithBot')).toHaveLength(1);
    expect(stack.slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(stack.simulator.requestCount('createSwap')).toBe(0);
  });

  it('an archived channel: says so, and where to ask instead', async () => {
    const answer = await ask(stack, SWAP, at('archived'));
    expect(answer.text).toContain('This channel is archived');
    expect(answer.text).toContain('Ask for the swap in a channel where the approvers and I both are.');
    expect(answer.text).not.toContain('/invite');
  });

  it('a channel that does not let the bot post (restricted_action): says so in plain words', async () => {
    stack.slack.failNext('chat.postMessage', { error: 'restricted_action_read_only_channel' });
    const answer = await ask(stack, SWAP, at('publicWithoutBot'));
    expect(answer.text).toContain('This channel does not let me post here');
    expect(answer.text).toContain('No swap was made.');
  });
});

describe('replies when the response_url fails, in each kind of conversation', () => {
  it.each(['publicWithoutBot', 'privateWithBot', 'dmWithBot', 'groupDmWithBot'] as const)(
    '%s: the answer arrives as a private message in the same conversation',
    async (place) => {
      stack.slack.failNext('response_url', { status: 404, error: 'used_url' });
      const result = await stack.driver.command('balances', at(place));
      const [ephemeral] = await stack.slack.waitForCalls('chat.postEphemeral', 1);
      expect(ephemeral?.args).toMatchObject({ channel: PLACES[place].channelId, user: RILEY });
      expect(JSON.stringify(ephemeral?.args.blocks)).toContain('Balances');
      expect(result.responses()).toEqual([]);
    },
  );

  it.each(['privateWithoutBot', 'dmWithoutBot', 'groupDmWithoutBot'] as const)(
    '%s: the bot cannot see it, so the lost reply is logged with the reason (never a crash, never a wrong place)',
    async (place) => {
      stack.slack.failNext('response_url', { status: 404, error: 'used_url' });
      await stack.driver.command('balances', at(place));
      await waitUntil(
        () => logs.find((line) => line.includes('could not deliver a reply to Slack at all')),
        'the lost reply in the log',
      );
      expect(logs.join('\n')).toContain('channel_not_found');
      expect(stack.slack.messages()).toEqual([]);
      // The bot keeps serving.
      expect((await ask(stack, 'help', at('dmWithBot'))).text).toContain('*Look up* — `balances`');
    },
  );
});

/** Asks for a withdrawal privately, then clicks Share in channel on it, as `userId` in `place`. */
async function shareWithdrawal(place: PlaceName, userId = RILEY) {
  const id = stack.simulator.ids.withdrawals.success[0]!;
  const mine = await ask(stack, `withdrawal ${id}`, at(place, userId));
  const result = await stack.driver.clickButtonIn(
    { ts: '1700000000.000100', blocks: mine.reply.blocks ?? [] },
    'share_in_channel',
    at(place, userId),
  );
  expect(result.status).toBe(200);
  return { id, result };
}

describe('Share in channel, in each kind of conversation', () => {
  it.each(['publicWithoutBot', 'privateWithBot', 'dmWithBot', 'groupDmWithBot'] as const)(
    '%s: the copy is posted there with chat.postMessage, naming who shared it',
    async (place) => {
      const { id, result } = await shareWithdrawal(place);
      const [copy] = await stack.slack.waitFor(() => (messagesIn(place).length > 0 ? messagesIn(place) : undefined));
      const text = blocksToText(copy?.blocks ?? []);
      expect(text).toContain(id);
      expect(text).toContain(`shared by <@${RILEY}>`);
      // Not through the response_url: a reply to an ephemeral message may stay ephemeral.
      await expectStaysAt(0, () => result.responses().length);
    },
  );

  it.each([
    [
      'privateWithoutBot',
      ['this is a private channel I am not in', `invite me with ${INVITE}, then click *Share in channel* again`],
    ],
    ['privateNamedWithoutBot', ['this is a private channel I am not in', `invite me with ${INVITE}`]],
    [
      'dmWithoutBot',
      ['I am not part of this direct message', 'Share it from a channel I am in, or from your direct message with me.'],
    ],
    ['groupDmWithoutBot', ['I am not part of this direct message', 'Share it from a channel I am in']],
    ['archived', ['This channel is archived', 'Share it from a channel I am in']],
  ] as const)('%s: nothing is posted; the clicker alone is told why, in plain words', async (place, words) => {
    const { result } = await shareWithdrawal(place);
    const [notice] = await result.waitForResponses(1);
    expect(notice?.responseType).toBe('ephemeral');
    expect(notice?.replaceOriginal).toBe(false);
    for (const word of words) expect(notice?.text).toContain(word);
    expect(notice?.text).toContain('Nothing was posted.');
    if (place.includes('Dm') || place === 'archived') expect(notice?.text).not.toContain('/invite');
    expect(messagesIn(place)).toEqual([]);
  });

  it('a channel that became read-only: the clicker is told the channel does not let the bot post', async () => {
    stack.slack.failNext('chat.postMessage', { error: 'restricted_action' });
    const { result } = await shareWithdrawal('publicWithoutBot');
    const [notice] = await result.waitForResponses(1);
    expect(notice?.text).toContain('This channel does not let me post here');
  });

  it('Slack refuses the post for now (ratelimited for longer than the bot waits): the clicker is told to try again; nothing was posted', async () => {
    stack.slack.failNext('chat.postMessage', { status: 429, retryAfter: 120 });
    const { result } = await shareWithdrawal('publicWithoutBot');
    const [notice] = await result.waitForResponses(1);
    expect(notice?.text).toContain('Slack did not take the shared copy, so nothing was posted in the channel');
    expect(messagesIn('publicWithoutBot')).toEqual([]);
  });

  // A 503 or a lost answer does not mean Slack did not post: the clicker must not be told that nothing was posted.
  it.each([
    ['a 503', { status: 503 }, 0],
    ['a lost answer', { dropAnswer: true }, 1],
  ] as const)(
    '%s: the copy is not posted again, and the clicker is told to check the channel before sharing again',
    async (_name, failure, posted) => {
      stack.slack.failNext('chat.postMessage', failure);
      const { result } = await shareWithdrawal('privateWithBot');
      const [notice] = await result.waitForResponses(1);
      expect(notice?.text).toContain(
        'Slack did not confirm the post of the shared copy, so it may or may not be in the channel.',
      );
      expect(notice?.text).toContain('Check the channel before sharing again.');
      expect(notice?.text).not.toContain('nothing was posted');
      expect(messagesIn('privateWithBot')).toHaveLength(posted);
      expect(stack.slack.callsOf('chat.postMessage')).toHaveLength(1);
    },
  );
});

describe('content Slack refuses arrives as plain text with the facts', () => {
  it('a reply the response_url refuses (400 invalid_blocks) comes again on the same url as plain text', async () => {
    const id = stack.simulator.ids.withdrawals.success[0]!;
    stack.slack.failNext('response_url', { status: 400, error: 'invalid_blocks' });
    const result = await stack.driver.command(`withdrawal ${id}`, at('privateWithBot'));
    const [reply] = await result.waitForResponses(1);
    expect(reply?.blocks).toBeUndefined();
    expect(reply?.responseType).toBe('ephemeral');
    expect(reply?.text).toContain(`id ${id}`);
    expect(reply?.text).toMatch(/Withdrawal of .+: success/);
    expect(reply?.text).toContain(BUTTONS_MISSING_NOTE);
    expect(stack.slack.callsOf('chat.postEphemeral')).toHaveLength(0);
  });

  it('a reply refused by the response_url and then by Slack as a message still arrives, as plain text', async () => {
    stack.slack.failNext('response_url', { status: 404, error: 'used_url' });
    stack.slack.failNext('chat.postEphemeral', { error: 'msg_blocks_too_long' });
    await stack.driver.command('balances', at('dmWithBot'));
    const calls = await stack.slack.waitForCalls('chat.postEphemeral', 2);
    expect(calls[1]?.args.blocks).toBeUndefined();
    expect(String(calls[1]?.args.text)).toMatch(/^Balances: \$[\d,.]+ in \d+ assets/);
  });

  it('a quote message refused for its blocks is posted as plain text: amounts, status and quote id, and that its buttons are missing', async () => {
    stack.slack.failNext('chat.postMessage', { error: 'invalid_blocks' });
    const answer = await ask(stack, SWAP, at('privateWithBot'));
    expect(answer.text).toContain('Quote posted');
    const [quote] = await stack.slack.waitFor(() =>
      messagesIn('privateWithBot').length > 0 ? messagesIn('privateWithBot') : undefined,
    );
    expect(quote?.blocks).toBeUndefined();
    expect(quote?.text).toMatch(
      /^Swap quote: 1,000 USDT → about [\d,.]+ USDC · waiting for approval · requested by <@U0RILEY> · quote [0-9a-f-]{36}/,
    );
    expect(quote?.text).toContain(BUTTONS_MISSING_NOTE);
  });

  it('a quote edit refused for its blocks replaces the message with plain text and removes the buttons', async () => {
    const answer: Answer = await ask(stack, SWAP, at('privateWithBot'));
    expect(answer.text).toContain('Quote posted');
    const [quote] = await stack.slack.waitFor(() =>
      messagesIn('privateWithBot').length > 0 ? messagesIn('privateWithBot') : undefined,
    );
    stack.slack.failNext('chat.update', { error: 'msg_blocks_too_long' });
    await stack.driver.clickButtonIn(
      { ...quote!, channel: PLACES.privateWithBot.channelId },
      'swap_reject',
      at('privateWithBot', AVERY),
    );
    const edited = await stack.slack.waitFor(() =>
      messagesIn('privateWithBot').find((m) => m.text?.includes('· rejected ·')),
    );
    expect(edited.blocks).toEqual([]);
    expect(edited.text).toContain('Rejected by <@U0AVERY>');
    expect(stack.simulator.requestCount('createSwap')).toBe(0);
  });

  it('a shared copy refused for its blocks is posted as plain text, still naming who shared it', async () => {
    stack.slack.failNext('chat.postMessage', { error: 'invalid_blocks' });
    const { id } = await shareWithdrawal('privateWithBot');
    const [copy] = await stack.slack.waitFor(() =>
      messagesIn('privateWithBot').length > 0 ? messagesIn('privateWithBot') : undefined,
    );
    expect(copy?.blocks).toBeUndefined();
    expect(copy?.text).toContain(`id ${id}`);
    expect(copy?.text).toContain(`shared by <@${RILEY}>`);
  });
});
