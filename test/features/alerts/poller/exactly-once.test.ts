// Each alert is in the channel once, even when Slack's answer is lost: the post carries its key in Slack message
// metadata, the key is written to the state before the post, and an attempt whose outcome is unknown is looked
// for in the channel (conversations.history / conversations.replies) before anything is posted again.
// Delivery is driven directly over a real state file, the Slack gateway on a real WebClient and the Slack
// stand-in, which carries a post out and then answers late or never, as a lost answer looks to a client.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUMMARY_LIST_CAP } from '../../../../src/features/alerts/blocks.js';
import type { FailureFacts } from '../../../../src/features/alerts/kinds/index.js';
import { prepareAlertChannel } from '../../../../src/features/alerts/poller/channel.js';
import { deliverOutbox, settleDecision } from '../../../../src/features/alerts/poller/deliver.js';
import { type ChannelPacing, POLL_RULES, type PollDeps } from '../../../../src/features/alerts/poller/poll-rules.js';
import { ALERT_EVENT_TYPE, createAlertPoster } from '../../../../src/features/alerts/poller/slack.js';
import type { OutboxItem } from '../../../../src/features/alerts/records.js';
import { createLogger } from '../../../../src/logger.js';
import { createSlackGateway, createSlackWebClient } from '../../../../src/slack/gateway.js';
import { type BotStore, openBotStore } from '../../../../src/store/lowdb/index.js';
import { failedWithdrawalFacts } from '../../../support/fixtures.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../../../support/rig/slack-stand-in.js';

const CHANNEL = 'C0ALERTS';
const PRIVATE_CHANNEL = 'G0SECRET';
const TOKEN = 'xoxb-exactly-once';
const BOT = 'U_BOT';
/** The WebClient gives up on a call after this long; the stand-in's late answers come after it. */
const CLIENT_TIMEOUT_MS = 400;
const LATE_MS = 1_500;

let now = new Date();
let slack: SlackStandIn;
let store: BotStore;
let file: string;
let logs: string[];
let pacing: ChannelPacing;

const withdrawal = (i: number): FailureFacts => failedWithdrawalFacts(i, now);
const item = (facts: FailureFacts): OutboxItem => ({
  key: `${facts.kind}:${facts.id}`,
  queuedAt: now.toISOString(),
  facts,
});

beforeAll(async () => {
  slack = await startSlackStandIn({
    botToken: TOKEN,
    botUserId: BOT,
    now: () => now.getTime(),
    conversations: [
      { id: CHANNEL, kind: 'public', name: 'treasury-alerts', members: [BOT, 'U0OPS'] },
      // A private channel that invited the bot, but the app lacks groups:history in the tests that say so.
      { id: PRIVATE_CHANNEL, kind: 'private', name: 'secret-alerts', members: [BOT, 'U0OPS'] },
    ],
  });
});
afterAll(async () => {
  await slack?.close();
});
beforeEach(async () => {
  slack.reset();
  now = new Date();
  logs = [];
  pacing = { lastPostMs: undefined };
  file = join(mkdtempSync(join(tmpdir(), 'exactly-once-')), 'state.json');
  store = await openBotStore(
    file,
    createLogger('debug', (line) => logs.push(line)),
    () => now,
  );
  return async () => {
    await store.close();
  };
});

/** What a poll's delivery step needs; `fresh` builds a new gateway and pacing, as a restarted process would. */
function deps(channel = CHANNEL): PollDeps {
  const gateway = createSlackGateway({
    client: createSlackWebClient({ token: TOKEN, slackApiUrl: slack.apiUrl, timeoutMs: CLIENT_TIMEOUT_MS }),
  });
  return {
    payments: undefined as never,
    store,
    slack: createAlertPoster(gateway),
    channel,
    now: () => now,
    lookbackMs: 0,
    logger: createLogger('debug', (line) => logs.push(line)),
    sleep: async () => undefined,
    pacing,
  };
}

async function queue(failures: FailureFacts[]): Promise<void> {
  await store.alerts.commitPoll((alerts) => {
    alerts.outbox.push(...failures.map(item));
  });
}

/** Messages in `channel` that carry `key` in their metadata. */
const keyed = (key: string, channel = CHANNEL): StoredMessage[] =>
  slack
    .messages(channel)
    .filter((m) => m.metadata?.event_type === ALERT_EVENT_TYPE && m.metadata.event_payload.key === key);

/** Closes the state file and opens it again: what a restart does. */
async function restart(): Promise<void> {
  await store.close();
  store = await openBotStore(
    file,
    createLogger('debug', (line) => logs.push(line)),
    () => now,
  );
  pacing = { lastPostMs: undefined };
}

describe("exactly once when Slack's answer is lost", () => {
  it('every alert carries its key in Slack message metadata', async () => {
    const facts = withdrawal(1);
    await queue([facts]);
    const report = await deliverOutbox(deps(), now);
    expect(report).toMatchObject({ posted: 1, alerted: 1 });
    expect(keyed(`withdrawal:${facts.id}`)).toHaveLength(1);
    // Nothing was in doubt, so nothing was looked up.
    expect(slack.callsOf('conversations.history')).toHaveLength(0);
  });

  it('Slack posts the alert but answers after the client gave up: the next poll finds it and posts nothing', async () => {
    const facts = withdrawal(2);
    const key = `withdrawal:${facts.id}`;
    await queue([facts]);
    slack.failNext('chat.postMessage', { lateAnswerMs: LATE_MS });
    const first = await deliverOutbox(deps(), now);
    expect(first.slackError).toMatch(/timeout/);
    expect(keyed(key)).toHaveLength(1);
    // The outcome is unknown: the item stays, marked as possibly posted.
    const waiting = (await store.alerts.readAlerts()).outbox;
    expect(waiting.map((i) => i.sending?.key)).toEqual([key]);

    now = new Date(now.getTime() + 60_000);
    const second = await deliverOutbox(deps(), now);
    expect(second).toMatchObject({ posted: 0, alerted: 1 });
    expect(second.slackError).toBeUndefined();
    expect(slack.callsOf('conversations.history')).toHaveLength(1);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(keyed(key)).toHaveLength(1);
    const state = await store.alerts.readAlerts();
    expect(state.outbox).toEqual([]);
    expect(state.alerted[key]?.at).toBeDefined();
    expect(logs.join('\n')).toContain('recorded, not posted again');

    // Later polls have nothing to do.
    await deliverOutbox(deps(), now);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
  });

  it('the connection drops after Slack posted, and the process restarts before the next poll: posted once', async () => {
    const facts = withdrawal(3);
    const key = `withdrawal:${facts.id}`;
    await queue([facts]);
    slack.failNext('chat.postMessage', { dropAnswer: true });
    const first = await deliverOutbox(deps(), now);
    expect(first.slackError).toMatch(/network error|timeout/);
    await restart();
    const second = await deliverOutbox(deps(), now);
    expect(second).toMatchObject({ posted: 0, alerted: 1 });
    expect(keyed(key)).toHaveLength(1);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
  });

  it('a post that never reached Slack is posted again, but only once Slack has had time to finish the first', async () => {
    const facts = withdrawal(4);
    const key = `withdrawal:${facts.id}`;
    await queue([facts]);
    // A delay before Slack handles the call: the client gives up, and the stand-in then drops it, as Slack would a
    // request whose connection closed before it was read.
    slack.failNext('chat.postMessage', { delayMs: LATE_MS });
    const first = await deliverOutbox(deps(), now);
    expect(first.slackError).toMatch(/timeout/);
    await slack.waitFor(() => slack.callsOf('chat.postMessage').length === 1, 5_000, 'the first attempt');
    // At once, the lookup finds nothing, but Slack may still be at work: nothing is posted yet.
    const early = await deliverOutbox(deps(), now);
    expect(early).toMatchObject({ posted: 0, alerted: 0 });
    expect(slack.callsOf('conversations.history')).toHaveLength(1);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    // Past the settle window, absent means absent: posted once more, under the same key.
    now = new Date(now.getTime() + POLL_RULES.uncertainSettleMs);
    const second = await deliverOutbox(deps(), now);
    expect(second).toMatchObject({ posted: 1, alerted: 1 });
    expect(keyed(key)).toHaveLength(1);
    const keys = slack
      .callsOf('chat.postMessage')
      .map((c) => (c.args.metadata as { event_payload: { key: string } }).event_payload.key);
    expect(keys).toEqual([key, key]);
  });

  it('Slack carries the post out after the client gave up: the lookup that finds nothing at first does not post it again', async () => {
    const facts = withdrawal(40);
    const key = `withdrawal:${facts.id}`;
    await queue([facts]);
    slack.failNext('chat.postMessage', { slowWorkMs: LATE_MS });
    const first = await deliverOutbox(deps(), now);
    expect(first.slackError).toMatch(/timeout/);
    expect(keyed(key)).toHaveLength(0);
    // The next poll comes before Slack is done: nothing there yet, and nothing is posted.
    now = new Date(now.getTime() + 10_000);
    expect(await deliverOutbox(deps(), now)).toMatchObject({ posted: 0, alerted: 0 });
    // Slack finishes the first post; the poll after that finds it.
    await slack.waitFor(() => keyed(key).length === 1, 5_000, 'the slow post to land');
    now = new Date(now.getTime() + 10_000);
    expect(await deliverOutbox(deps(), now)).toMatchObject({ posted: 0, alerted: 1 });
    now = new Date(now.getTime() + POLL_RULES.uncertainSettleMs);
    await deliverOutbox(deps(), now);
    expect(keyed(key)).toHaveLength(1);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
  });

  it('a refusal leaves nothing in doubt: no lookup, the next poll posts once', async () => {
    const facts = withdrawal(5);
    await queue([facts]);
    slack.failNext('chat.postMessage', { error: 'restricted_action' });
    const first = await deliverOutbox(deps(), now);
    expect(first.slackError).toBe('restricted_action');
    expect((await store.alerts.readAlerts()).outbox[0]?.sending).toBeUndefined();
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 0 });
    await deliverOutbox(deps(), now);
    expect((await store.alerts.readAlerts()).outbox[0]?.sending).toBeUndefined();
    const third = await deliverOutbox(deps(), now);
    expect(third).toMatchObject({ posted: 1, alerted: 1 });
    expect(slack.callsOf('conversations.history')).toHaveLength(0);
    expect(keyed(`withdrawal:${facts.id}`)).toHaveLength(1);
  });

  it('a lookup Slack cannot answer now holds back that alert only; the others go out, and the next poll finds it', async () => {
    const facts = withdrawal(6);
    const key = `withdrawal:${facts.id}`;
    await queue([facts]);
    slack.failNext('chat.postMessage', { lateAnswerMs: LATE_MS });
    await deliverOutbox(deps(), now);
    const other = withdrawal(60);
    await queue([other]);
    slack.failNext('conversations.history', { status: 503 });
    const second = await deliverOutbox(deps(), now);
    expect(second).toMatchObject({ posted: 1, alerted: 1, slackError: 'HTTP 503' });
    expect(keyed(`withdrawal:${other.id}`)).toHaveLength(1);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(2);
    const third = await deliverOutbox(deps(), now);
    expect(third).toMatchObject({ posted: 0, alerted: 1 });
    expect(keyed(key)).toHaveLength(1);
    expect((await store.alerts.readAlerts()).outbox).toEqual([]);
  });

  it('lookups that keep failing hold the alert for a bounded time, then it is posted again rather than held for good', async () => {
    const facts = withdrawal(61);
    const key = `withdrawal:${facts.id}`;
    await queue([facts]);
    slack.failNext('chat.postMessage', { delayMs: LATE_MS });
    await deliverOutbox(deps(), now);
    slack.failNext('conversations.history', { status: 500 }, 2);
    now = new Date(now.getTime() + POLL_RULES.lookupGiveUpMs - 1_000);
    expect(await deliverOutbox(deps(), now)).toMatchObject({ posted: 0, alerted: 0 });
    now = new Date(now.getTime() + 1_000);
    expect(await deliverOutbox(deps(), now)).toMatchObject({ posted: 1, alerted: 1 });
    expect(keyed(key)).toHaveLength(1);
    expect(logs.join('\n')).toContain('Slack could not answer the lookup for too long');
  });

  it('an alert whose blocks Slack refuses goes out as plain text, still keyed in its metadata', async () => {
    const facts = withdrawal(62);
    await queue([facts]);
    slack.failNext('chat.postMessage', { error: 'invalid_blocks' });
    expect(await deliverOutbox(deps(), now)).toMatchObject({ posted: 1, alerted: 1 });
    const [message] = keyed(`withdrawal:${facts.id}`);
    expect(message?.blocks).toBeUndefined();
    expect(message?.text).toContain(facts.id);
  });

  it("a channel the bot may not read (a missing history scope) gets today's behaviour: posted again, said once in the log", async () => {
    const facts = withdrawal(7);
    const key = `withdrawal:${facts.id}`;
    await queue([facts]);
    slack.failNext('chat.postMessage', { lateAnswerMs: LATE_MS });
    await deliverOutbox(deps(PRIVATE_CHANNEL), now);
    slack.failNext('conversations.history', { error: 'missing_scope' });
    const second = await deliverOutbox(deps(PRIVATE_CHANNEL), now);
    expect(second).toMatchObject({ posted: 1, alerted: 1 });
    // The rare duplicate, rather than a lost alert.
    expect(keyed(key, PRIVATE_CHANNEL)).toHaveLength(2);
    expect(logs.filter((line) => line.includes('cannot read ALERT_CHANNEL'))).toHaveLength(1);
  });

  it('a flood summary and its thread parts: each found after a lost answer, the list in the thread once', async () => {
    const failures = Array.from({ length: SUMMARY_LIST_CAP + 60 }, (_, i) => withdrawal(100 + i));
    await queue(failures);
    // The summary is posted but its answer never comes.
    slack.failNext('chat.postMessage', { dropAnswer: true });
    const first = await deliverOutbox(deps(), now);
    expect(first.slackError).toBeDefined();
    const summaryKey = (await store.alerts.readAlerts()).outbox[0]!.sending!.key;
    expect(summaryKey).toMatch(/^summary:withdrawal:/);
    expect(new Set((await store.alerts.readAlerts()).outbox.map((i) => i.sending?.key))).toEqual(new Set([summaryKey]));
    const [summary] = keyed(summaryKey);
    expect(summary).toBeDefined();

    // Found at the next poll; its thread's first part is posted and its answer is late.
    await restart();
    slack.failNext('chat.postMessage', { lateAnswerMs: LATE_MS });
    const second = await deliverOutbox(deps(), now);
    expect(second.slackError).toMatch(/timeout/);
    expect((await store.alerts.readAlerts()).outbox).toEqual([]);
    const work = (await store.alerts.readAlerts()).threadWork!;
    expect(work).toHaveLength(1);
    expect(work[0]!.threadTs).toBe(summary!.ts);
    expect(work[0]!.remaining[0]!.sending?.key).toBe(`thread:${summary!.ts}:1`);

    // The part is found in the thread (conversations.replies), the rest is posted, each part once.
    const third = await deliverOutbox(deps(), now);
    expect(third.slackError).toBeUndefined();
    expect(slack.callsOf('conversations.replies')).toHaveLength(1);
    const replies = slack.messages(CHANNEL).filter((m) => m.threadTs === summary!.ts);
    const partKeys = replies.map((m) => m.metadata?.event_payload.key);
    expect(new Set(partKeys).size).toBe(partKeys.length);
    expect(partKeys[0]).toBe(`thread:${summary!.ts}:1`);
    expect(keyed(summaryKey)).toHaveLength(1);
    expect((await store.alerts.readAlerts()).threadWork).toBeUndefined();
  });
});

describe('start-up: the bot joins ALERT_CHANNEL and checks it can read it back', () => {
  const gateway = () =>
    createSlackGateway({ client: createSlackWebClient({ token: TOKEN, slackApiUrl: slack.apiUrl, timeoutMs: 2_000 }) });
  const logger = () => createLogger('debug', (line) => logs.push(line));

  it('a public channel it is not in: joined (channels:join), then readable', async () => {
    slack.addConversation({ id: 'C0NEWALERTS', kind: 'public', name: 'new-alerts', members: ['U0OPS'] });
    expect(slack.isMember('C0NEWALERTS', BOT)).toBe(false);
    expect(await prepareAlertChannel(gateway(), 'C0NEWALERTS', logger(), () => now)).toBe('readable');
    expect(slack.isMember('C0NEWALERTS', BOT)).toBe(true);
    expect(slack.callsOf('conversations.join')).toHaveLength(1);
  });

  it('a private channel that did not invite the bot: start-up says to invite it', async () => {
    slack.addConversation({ id: 'G0NOTINVITED', kind: 'private', name: 'closed-alerts', members: ['U0OPS'] });
    expect(await prepareAlertChannel(gateway(), 'G0NOTINVITED', logger(), () => now)).toBe('not_readable');
    expect(logs.join('\n')).toMatch(/invite the bot there/);
  });

  it('a workspace that refused the new scopes: start-up says so once, and alerts still post', async () => {
    slack.failNext('conversations.join', { error: 'missing_scope' });
    slack.failNext('conversations.history', { error: 'missing_scope' });
    expect(await prepareAlertChannel(gateway(), CHANNEL, logger(), () => now)).toBe('not_readable');
    expect(logs.filter((line) => line.includes('channels:history'))).toHaveLength(1);
    expect(logs.filter((line) => line.includes('channels:join'))).toHaveLength(1);
    await queue([withdrawal(900)]);
    expect(await deliverOutbox(deps(), now)).toMatchObject({ posted: 1, alerted: 1 });
  });
});

describe('settleDecision: what to do with a post that may have been made', () => {
  const settle = POLL_RULES.uncertainSettleMs;
  const giveUp = POLL_RULES.lookupGiveUpMs;
  it.each([
    ['found: record it, however young', { ts: '1.2' }, 0, false, { record: '1.2' }],
    ['found after an answer: record it', { ts: '1.2' }, 0, true, { record: '1.2' }],
    ['absent, young, no answer came: wait (Slack may still be at work)', { absent: true }, settle - 1, false, 'wait'],
    ['absent, settled: post again', { absent: true }, settle, false, 'post_again'],
    ['absent after Slack answered with a failure: post again at once', { absent: true }, 0, true, 'post_again'],
    ['cannot read the channel: post again at once', { unreadable: true }, 0, false, 'post_again'],
    ['lookup failed, young: wait', { failed: 'HTTP 503' }, giveUp - 1, false, 'wait'],
    ['lookup failed after an answer, young: wait (it may be there)', { failed: 'HTTP 503' }, 0, true, 'wait'],
    ['lookup failed for too long: post again', { failed: 'HTTP 503' }, giveUp, false, 'post_again'],
  ] as const)('%s', (_name, found, age, answered, expected) => {
    expect(settleDecision(found, age, answered)).toEqual(expected);
  });
});
