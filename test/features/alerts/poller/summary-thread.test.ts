// A flood becomes one summary, and nothing in it is invisible: the full list follows in the summary's thread, in
// parts within Slack's limits, each part posted once even when Slack fails half-way or the bot restarts.
// Delivery is driven directly over a real state file, the Slack gateway and the Slack stand-in (which validates
// like Slack), so these tests do not depend on how failures are detected.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildSummaryThreadPart,
  planSummaryThread,
  SUMMARY_LIST_CAP,
  THREAD_PART_MAX_LINES,
} from '../../../../src/features/alerts/blocks.js';
import type { FailureFacts } from '../../../../src/features/alerts/kinds/index.js';
import { deliverOutbox } from '../../../../src/features/alerts/poller/deliver.js';
import type { PollDeps } from '../../../../src/features/alerts/poller/poll-rules.js';
import { createAlertPoster } from '../../../../src/features/alerts/poller/slack.js';
import type { OutboxItem } from '../../../../src/features/alerts/records.js';
import { silentLogger } from '../../../../src/logger.js';
import { createSlackGateway, createSlackWebClient } from '../../../../src/slack/gateway.js';
import { type BotStore, openBotStore } from '../../../../src/store/lowdb/index.js';
import { expectWithinSlackLimits } from '../../../support/block-limits.js';
import { failedWithdrawalFacts } from '../../../support/fixtures.js';
import { blocksToText, messageToText } from '../../../support/rig/blocks-text.js';
import { type SlackStandIn, startSlackStandIn } from '../../../support/rig/slack-stand-in.js';

const CHANNEL = 'C0ALERTS';
const TOKEN = 'xoxb-summary-thread';
const NOW = new Date('2026-11-22T12:00:00Z');
const HOSTILE = '<!channel> <http://evil.example|click> & '.repeat(20);

const withdrawal = (i: number, extreme = false): FailureFacts =>
  failedWithdrawalFacts(i, NOW, extreme ? { text: HOSTILE, txHash: null } : undefined);
const item = (facts: FailureFacts): OutboxItem => ({
  key: `${facts.kind}:${facts.id}`,
  queuedAt: NOW.toISOString(),
  facts,
});

let slack: SlackStandIn;
let store: BotStore;
let file: string;

beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: TOKEN });
});
afterAll(async () => {
  await slack?.close();
});
beforeEach(async () => {
  slack.reset();
  file = join(mkdtempSync(join(tmpdir(), 'summary-thread-')), 'state.json');
  store = await openBotStore(file, silentLogger, () => NOW);
  return async () => {
    await store.close();
  };
});

/** What a poll's delivery step needs; a fresh gateway each time, as after a restart. */
function deps(): PollDeps {
  const gateway = createSlackGateway({
    client: createSlackWebClient({ token: TOKEN, slackApiUrl: slack.apiUrl, timeoutMs: 2_000 }),
  });
  return {
    payments: undefined as never,
    store,
    slack: createAlertPoster(gateway),
    channel: CHANNEL,
    now: () => NOW,
    lookbackMs: 0,
    logger: silentLogger,
    sleep: async () => undefined,
  };
}

async function queue(failures: FailureFacts[]): Promise<void> {
  await store.alerts.commitPoll((alerts) => {
    alerts.outbox.push(...failures.map(item));
  });
}

/** Every failure id listed in the summary's thread, in order, and the thread's messages. */
function thread() {
  const [summary, ...rest] = slack.messages(CHANNEL);
  const replies = rest.filter((m) => m.threadTs === summary?.ts);
  const ids = replies.flatMap((m) =>
    [...blocksToText(m.blocks).matchAll(/00000000-0000-4000-8000-(\d{12})/g)].map((x) => Number(x[1])),
  );
  return { summary, replies, ids };
}

describe('a summary and its thread', () => {
  it("lists every failure of a burst of 250 in the summary's thread, newest first, in parts within Slack's limits", async () => {
    const failures = Array.from({ length: 250 }, (_, i) => withdrawal(i));
    await queue(failures);
    const report = await deliverOutbox(deps(), NOW);
    const { summary, replies, ids } = thread();
    expect(report.slackError).toBeUndefined();
    expect(messageToText(summary!)).toContain(
      `…and ${250 - SUMMARY_LIST_CAP} more. The full list of 250 is in this message's thread.`,
    );
    expect(summary!.threadTs).toBeUndefined();
    expect(replies.length).toBe(Math.ceil(250 / THREAD_PART_MAX_LINES));
    expect(ids).toEqual(failures.map((_, i) => i));
    expect(slack.rejections).toEqual([]);
    expect(report.posted).toBe(1 + replies.length);
    expect(report.alerted).toBe(250);
    const state = await store.alerts.readAlerts();
    expect(state.outbox).toEqual([]);
    expect(state.threadWork).toBeUndefined();
  });

  it('a summary that lists every failure itself gets no thread', async () => {
    await queue(Array.from({ length: SUMMARY_LIST_CAP }, (_, i) => withdrawal(i)));
    await deliverOutbox(deps(), NOW);
    expect(slack.messages(CHANNEL)).toHaveLength(1);
    expect((await store.alerts.readAlerts()).threadWork).toBeUndefined();
  });

  it('Slack failing after the summary was accepted: the rest of the list waits, survives a restart, and no part is posted twice', async () => {
    const failures = Array.from({ length: 130 }, (_, i) => withdrawal(i));
    await queue(failures);
    // The summary and the first part go through; the second part meets a 500, and so does the next attempt.
    let calls = 0;
    const first = await (async () => {
      // Fail the third post (the summary, the first part, then the second ✗).
      const d = deps();
      const poster = d.slack;
      d.slack = {
        ...poster,
        post: async (channel, message, options) => {
          calls += 1;
          if (calls === 3) slack.failNext('chat.postMessage', { status: 500 });
          return poster.post(channel, message, options);
        },
      };
      return deliverOutbox(d, NOW);
    })();
    expect(first.slackError).toBeDefined();
    expect(thread().replies).toHaveLength(1);
    const waiting = (await store.alerts.readAlerts()).threadWork!;
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.remaining.map((r) => r.part)).toEqual([2, 3, 4]);
    // The summary's items are alerted: they will not be summarized again.
    expect((await store.alerts.readAlerts()).outbox).toEqual([]);

    // Slack fails again on the next poll: nothing moves.
    slack.failNext('chat.postMessage', { error: 'internal_error' });
    expect((await deliverOutbox(deps(), NOW)).slackError).toBe('internal_error');
    expect(thread().replies).toHaveLength(1);

    // A restart reads the same work; the next poll posts the rest, once.
    await store.close();
    store = await openBotStore(file, silentLogger, () => NOW);
    const after = await deliverOutbox(deps(), NOW);
    expect(after.slackError).toBeUndefined();
    expect(after.posted).toBe(3);
    const { replies, ids } = thread();
    expect(replies).toHaveLength(4);
    expect(ids).toEqual(failures.map((_, i) => i));
    expect((await store.alerts.readAlerts()).threadWork).toBeUndefined();
    // And a further poll posts nothing.
    expect((await deliverOutbox(deps(), NOW)).posted).toBe(0);
    expect(slack.messages(CHANNEL)).toHaveLength(5);
  });

  it("new alerts go out before an older summary's remaining list", async () => {
    await queue(Array.from({ length: 60 }, (_, i) => withdrawal(i)));
    let calls = 0;
    const d = deps();
    const poster = d.slack;
    d.slack = {
      ...poster,
      post: async (channel, message, options) => {
        calls += 1;
        if (calls === 2) slack.failNext('chat.postMessage', { status: 503 });
        return poster.post(channel, message, options);
      },
    };
    await deliverOutbox(d, NOW);
    const gasFailure: FailureFacts = {
      kind: 'gas',
      id: 'g-1',
      status: 'pending',
      subStatus: 'not_enough_donor_balance',
      createdAt: NOW.toISOString(),
      network: { title: 'Polygon', symbol: 'POLYGON' },
      targetAddress: '0xabc',
      txHash: null,
      charged: { amountFormatted: '12.34', currency: 'USDC', amountInUsd: '12.34' },
      topUp: null,
      pipelineId: 'p-1',
    };
    await queue([gasFailure]);
    await deliverOutbox(deps(), NOW);
    const messages = slack.messages(CHANNEL);
    expect(messages).toHaveLength(4);
    expect(messages[1]!.text).toContain('Gas top-up');
    expect(messages[2]!.threadTs).toBe(messages[0]!.ts);
    expect(messages[3]!.threadTs).toBe(messages[0]!.ts);
  });
});

describe('thread parts', () => {
  it('with extreme values stay within Slack\'s limits and never cut a line ("not shown")', () => {
    const failures = Array.from({ length: 1_000 }, (_, i) => withdrawal(i, true));
    const parts = planSummaryThread(failures);
    expect(parts.flatMap((p) => p.failures)).toHaveLength(1_000);
    for (const part of parts) {
      const message = buildSummaryThreadPart('withdrawal', part, parts.length, 1_000);
      expectWithinSlackLimits(message);
      expect(blocksToText(message.blocks)).not.toContain('not shown');
      expect(JSON.stringify(message)).not.toContain('<!channel>');
    }
  });

  it('are the same whatever the outbox order', () => {
    const failures = Array.from({ length: 90 }, (_, i) => withdrawal(i));
    const shuffled = [...failures].reverse();
    expect(planSummaryThread(shuffled)).toEqual(planSummaryThread(failures));
  });
});
