// A restart between a reminder's decision and its post never sends it twice nor loses it. Real bot processes
// (dist/src/main.js) poll the payment API simulator every second; the Slack stand-in posts the reminder in the alert's
// thread and holds its answer, and the process is killed (SIGKILL) while it waits. With the state file the restarted
// process finds the reminder by the key in its metadata; with PostgreSQL the replica that takes the lease over does.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { type BotProcess, startBotProcess } from '../support/bot-process.js';
import { postgresAvailable, postgresSkipReason, testCluster } from '../support/postgres.js';
import { blocksToText, messageToText } from '../support/rig/blocks-text.js';
import { createSlackDriver } from '../support/rig/slack-driver.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { expectStaysAt } from '../support/waiting.js';

const TOKEN = 'xoxb-reminder-crash';
const SECRET = 'reminder-crash-secret';
const ALERTS = 'C0ALERTS';
/** Longer than the test: the answer to the held post never comes while the poster lives. */
const HELD_MS = 120_000;

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
const running: BotProcess[] = [];

beforeAll(async () => {
  slack = await startSlackStandIn({
    botToken: TOKEN,
    conversations: [{ id: ALERTS, kind: 'public', name: 'treasury-alerts', members: ['U0OPS'] }],
  });
});
// A fresh payment API for each test: a failure of an earlier test would be alerted (and reminded) again.
beforeEach(async () => {
  simulator = await startSimulator({ quiet: true, seed: false });
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((bot) => bot.stop('SIGKILL')));
  slack.reset();
  await simulator.close();
});
afterAll(async () => {
  await slack?.close();
});

async function start(extra: Record<string, string>): Promise<BotProcess> {
  const bot = await startBotProcess({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    ALERT_CHANNEL: ALERTS,
    POLL_SCHEDULE: '* * * * * *',
    ALERT_LOOKBACK: '1h',
    ALERT_REMIND_AFTER: '3s',
    ALERT_ONCALL: 'U0ONCALL',
    ...extra,
  });
  running.push(bot);
  return bot;
}

const reminders = (alert: StoredMessage, number: 1 | 2) =>
  slack
    .messages(ALERTS)
    .filter((m) => m.threadTs === alert.ts && m.ts !== alert.ts)
    .filter((m) => (m.text ?? '').includes(`reminder ${number} of 2`));

/**
 * A failure whose alert is posted, and the first reminder in its thread posted by Slack with its answer held: the
 * bot decided it and sent it, and does not know yet that Slack took it.
 */
async function reminderWithHeldAnswer(): Promise<StoredMessage> {
  slack.failNext('chat.postMessage', { lateAnswerMs: HELD_MS }, 1, {
    channel: ALERTS,
    textIncludes: 'reminder 1 of 2',
  });
  const failed = simulator.addWithdrawal({ status: 'failed' });
  const alert = await slack.waitFor(
    () => slack.messages(ALERTS).find((m) => m.threadTs === undefined && messageToText(m).includes(failed.id)),
    15_000,
    'the alert',
  );
  await slack.waitFor(() => reminders(alert, 1).length === 1, 15_000, 'the first reminder posted, its answer held');
  return alert;
}

/** After the restart: the first reminder is there once, the second comes once, and nothing more. */
async function expectEachReminderOnce(alert: StoredMessage, held: number): Promise<void> {
  await slack.waitFor(() => reminders(alert, 2).length === 1, 15_000, 'the second reminder');
  await expectStaysAt(
    { first: 1, second: 1 },
    () => ({
      first: reminders(alert, 1).length,
      second: reminders(alert, 2).length,
    }),
    3_000,
  );
  // The first one was sent once (the held post) and found after the restart, not posted again.
  const firstPosts = slack
    .callsOf('chat.postMessage')
    .filter((c) => c.args.thread_ts === alert.ts && String(c.args.text).includes('reminder 1 of 2'));
  expect(firstPosts).toHaveLength(1);
  expect(slack.callsOf('conversations.replies').length).toBeGreaterThan(held);
  expect(reminders(alert, 1)[0]!.text).toMatch(/^:bell: <@U0ONCALL> Nobody has acknowledged this alert yet/);
}

describe("a crash between a reminder's post and its answer (state file)", () => {
  it('SIGKILL while the answer is held, then restart: the reminder is found in the thread, not posted again', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'reminder-crash-')), 'state.json');
    const first = await start({ DATA_FILE: dataFile });
    const alert = await reminderWithHeldAnswer();
    const lookups = slack.callsOf('conversations.replies').length;
    first.child.kill('SIGKILL');
    await first.exited;
    await start({ DATA_FILE: dataFile });
    await expectEachReminderOnce(alert, lookups);
  }, 60_000);
});

const available = postgresAvailable();
if (!available) console.warn(postgresSkipReason);

describe.skipIf(!available)("a crash between a reminder's post and its answer (two replicas on PostgreSQL)", () => {
  const postgres = testCluster('treasury_reminder_crash', 60_000);
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await postgres.createDatabase();
  });

  it('the polling replica is killed while the answer is held: the other takes the lease, finds the reminder, posts it no more', async () => {
    const replicas: Record<string, BotProcess> = {};
    const [a, b] = await Promise.all(
      ['a', 'b'].map((name) => start({ DATABASE_URL: databaseUrl, REPLICA_NAME: name })),
    );
    replicas.a = a!;
    replicas.b = b!;
    const alert = await reminderWithHeldAnswer();

    // Which replica polls, as /treasury alerts says.
    const driver = createSlackDriver({ eventsUrl: replicas.a.eventsUrl, signingSecret: SECRET, standIn: slack });
    const asked = await driver.command('alerts', { userId: 'U0OPS', channelId: 'C0DESK' });
    const [reply] = await asked.waitForResponses(1, 10_000);
    const leader = /Polling replica: \*([a-z]+)\*/.exec(blocksToText(reply?.blocks ?? []))?.[1];
    expect(['a', 'b']).toContain(leader);
    const lookups = slack.callsOf('conversations.replies').length;
    replicas[leader!]!.child.kill('SIGKILL');
    await replicas[leader!]!.exited;
    await expectEachReminderOnce(alert, lookups);
  }, 60_000);
});
