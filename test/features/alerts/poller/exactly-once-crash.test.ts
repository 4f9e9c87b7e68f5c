// A crash between Slack's post and its answer never puts an alert in the channel twice. Real bot processes
// (dist/src/main.js) poll the payment API simulator and post to the Slack stand-in, which posts the alert and holds
// its answer; the process is killed (SIGKILL) while it waits. With the state file, the restarted process finds
// the alert by the key in its metadata; with PostgreSQL, the replica that takes the lease over finds it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../../../dev/simulator/index.js';
import { type BotProcess, startBotProcess } from '../../../support/bot-process.js';
import { postgresAvailable, postgresSkipReason, testCluster } from '../../../support/postgres.js';
import { blocksToText, messageToText } from '../../../support/rig/blocks-text.js';
import { createSlackDriver } from '../../../support/rig/slack-driver.js';
import { type SlackStandIn, startSlackStandIn } from '../../../support/rig/slack-stand-in.js';
import { expectStaysAt, waitUntil } from '../../../support/waiting.js';

const TOKEN = 'xoxb-exactly-once-crash';
const SECRET = 'exactly-once-crash-secret';
const ALERTS = 'C0ALERTS';
const BOT = 'U_BOT';
/** Longer than the test: the answer to the held post never comes while the poster lives. */
const HELD_MS = 120_000;

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
const running: BotProcess[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
  // The alert channel is public and the bot is not in it yet: it joins at start-up (channels:join), which lets it
  // read the channel's history (channels:history).
  slack = await startSlackStandIn({
    botToken: TOKEN,
    botUserId: BOT,
    conversations: [{ id: ALERTS, kind: 'public', name: 'treasury-alerts', members: ['U0OPS'] }],
  });
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((bot) => bot.stop('SIGKILL')));
  slack.reset();
});
afterAll(async () => {
  await slack?.close();
  await simulator?.close();
});

function botEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    ALERT_CHANNEL: ALERTS,
    POLL_SCHEDULE: '* * * * * *',
    ALERT_LOOKBACK: '1h',
    ...extra,
  };
}

async function start(extra: Record<string, string>): Promise<BotProcess> {
  const bot = await startBotProcess(botEnv(extra));
  running.push(bot);
  return bot;
}

const alertsMentioning = (id: string) => slack.messages(ALERTS).filter((m) => messageToText(m).includes(id));

/** Makes a failure, holds the answer to the post of its alert, and waits until Slack has posted it. */
async function failureWithHeldAnswer(): Promise<{ id: string; postedAt: number }> {
  const failed = simulator.addWithdrawal({ status: 'failed' });
  // Armed in the same tick, before any poll can see the new row, and only for its alert: other failures in the
  // simulator (its seed, earlier tests' rows) go through.
  slack.failNext('chat.postMessage', { lateAnswerMs: HELD_MS }, 1, { channel: ALERTS, textIncludes: failed.id });
  await slack.waitFor(() => alertsMentioning(failed.id).length === 1, 15_000, 'the alert posted, its answer held');
  return { id: failed.id, postedAt: Date.now() };
}

/**
 * The poster gives up waiting for Slack's answer after 10 s and would then settle the alert itself: the kill must
 * come before that, or the test would not show what a crash does.
 */
const killedInTime = (postedAt: number) => expect(Date.now() - postedAt).toBeLessThan(9_000);

describe("a crash between Slack's post and its answer (state file)", () => {
  it('SIGKILL while the answer is held, then restart: the alert is found in the channel and not posted again', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'exactly-once-crash-')), 'state.json');
    const first = await start({ DATA_FILE: dataFile });
    const { id, postedAt } = await failureWithHeldAnswer();
    killedInTime(postedAt);
    first.child.kill('SIGKILL');
    await first.exited;
    await start({ DATA_FILE: dataFile });
    // The restarted bot looks for the alert by its key, finds it, and records it as posted.
    await waitUntil(
      () => {
        const state = JSON.parse(readFileSync(dataFile, 'utf8')) as {
          alerts: { outbox: unknown[]; alerted: Record<string, { at?: string }> };
        };
        return state.alerts.outbox.length === 0 && state.alerts.alerted[`withdrawal:${id}`]?.at !== undefined;
      },
      'the held alert recorded as delivered after the restart',
      15_000,
    );
    await expectStaysAt(1, () => alertsMentioning(id).length, 3_000);
    expect(slack.callsOf('chat.postMessage').filter((c) => JSON.stringify(c.args).includes(id))).toHaveLength(1);
  }, 40_000);
});

const available = postgresAvailable();
if (!available) console.warn(postgresSkipReason);

describe.skipIf(!available)("a crash between Slack's post and its answer (two replicas on PostgreSQL)", () => {
  const postgres = testCluster('treasury_exactly_once', 60_000);
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await postgres.createDatabase();
  });

  it('the polling replica is killed while the answer is held: the other takes the lease, finds the alert, posts nothing', async () => {
    const replicas: Record<string, BotProcess> = {};
    const [a, b] = await Promise.all(
      ['a', 'b'].map((name) => start({ DATABASE_URL: databaseUrl, REPLICA_NAME: name })),
    );
    replicas.a = a!;
    replicas.b = b!;
    const { id, postedAt } = await failureWithHeldAnswer();

    // Which replica polls, as /treasury alerts says.
    const driver = createSlackDriver({ eventsUrl: replicas.a.eventsUrl, signingSecret: SECRET, standIn: slack });
    const asked = await driver.command('alerts', { userId: 'U0OPS', channelId: 'C0DESK' });
    const [reply] = await asked.waitForResponses(1, 10_000);
    const leader = /Polling replica: \*([a-z]+)\*/.exec(blocksToText(reply?.blocks ?? []))?.[1];
    expect(['a', 'b']).toContain(leader);
    const historyBefore = slack.callsOf('conversations.history').length;
    killedInTime(postedAt);
    replicas[leader!]!.child.kill('SIGKILL');
    await replicas[leader!]!.exited;

    // The survivor takes the lease at its next tick and looks for the alert before posting anything.
    await slack.waitFor(
      () => slack.callsOf('conversations.history').length > historyBefore,
      15_000,
      'the survivor looking for the held alert',
    );
    // …and records it as delivered: the outbox is empty and the failure counts as alerted.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      for (const deadline = Date.now() + 15_000; ; ) {
        const waiting = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM alert_outbox');
        if (waiting.rows[0]?.n === '0') break;
        if (Date.now() > deadline) throw new Error('the held alert is still in the outbox 15 s after the leader died');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await db.end();
    }
    await expectStaysAt(1, () => alertsMentioning(id).length, 3_000);
  }, 60_000);
});
