/**
 * A form submitted to two replicas on one PostgreSQL database: Slack resends a view submission it thinks failed,
 * and the resend can reach the other replica. The same view submitted to A and then to B makes one quote (one
 * estimate, one stored quote, one reply); B says in its log that it ran elsewhere. When the claim cannot be
 * recorded (the claims table gone), nothing is estimated and the person is told in plain words; a new form then works.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { postgresAvailable, postgresSkipReason, startTestCluster, type TestCluster } from '../support/postgres.js';
import { type Replica, startReplica } from '../support/replica.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { swapFormEntry, waitForForm } from '../support/rig/swap-form.js';
import { toAnswer } from '../support/slack.js';
import { expectStaysAt, waitUntil } from '../support/waiting.js';

const available = postgresAvailable();
if (!available) console.warn(postgresSkipReason);

const TOKEN = 'xoxb-forms-replicas';
const SECRET = 'forms-replicas-signing-secret';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const CHANNEL = 'C0TREASURY';

/** Each replica's log lines (message and fields), to wait for what it says it did. */
function recordingLogger(lines: string[]): Logger {
  const record = (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  return { debug: record, info: record, warn: record, error: record };
}

describe.skipIf(!available)('a form submitted to two replicas', () => {
  let cluster: TestCluster;
  let databaseUrl: string;
  let simulator: PaymentsSimulator;
  let slack: SlackStandIn;
  const replicas: Record<'a' | 'b', Replica> = {} as never;
  const logs: Record<'a' | 'b', string[]> = { a: [], b: [] };

  beforeAll(async () => {
    cluster = await startTestCluster();
    databaseUrl = await cluster.createDatabase('forms_two_replicas');
    simulator = await startSimulator({ quiet: true });
    slack = await startSlackStandIn({ botToken: TOKEN });
    for (const name of ['a', 'b'] as const) {
      const config = loadConfig({
        PAYMENTS_API_URL: simulator.url,
        PAYMENTS_API_KEY: simulator.apiKey,
        SLACK_BOT_TOKEN: TOKEN,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        DATA_FILE: join(mkdtempSync(join(tmpdir(), 'forms-replicas-')), 'state.json'),
        DATABASE_URL: databaseUrl,
        REPLICA_NAME: name,
        SWAP_APPROVERS: APPROVER,
        SWAP_POLICY: '0:1,10000:2',
      });
      const payments = createPaymentsClient({
        baseUrl: config.paymentsApiUrl,
        apiKey: config.paymentsApiKey,
        logger: recordingLogger(logs[name]),
        timeoutMs: 2_000,
        retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 },
      });
      replicas[name] = await startReplica({
        name,
        store: { kind: 'postgres', databaseUrl },
        config,
        payments,
        logger: recordingLogger(logs[name]),
        now: () => new Date(simulator.now()),
        slack,
        signingSecret: SECRET,
        leaseKey: 0x666f_726d_7265_706cn,
        app: { alertSleep: async () => undefined, swapFollow: { intervalMs: 50, maxDurationMs: 60_000 } },
      });
    }
  }, 60_000);
  afterAll(async () => {
    await replicas.b?.close();
    await replicas.a?.close();
    await slack?.close();
    await simulator?.close();
    await cluster?.stop();
  });

  const entered = (amount: string) => swapFormEntry(simulator, amount);
  /** `/treasury swap` typed on replica A: the form, once its asset menus are filled in. */
  const openForm = async () => {
    slack.reset();
    const command = await replicas.a.driver.command('swap', { userId: REQUESTER, channelId: CHANNEL });
    const opened = await slack.waitFor(() => slack.views()[0], 5_000, 'the form');
    const ready = await waitForForm(slack, opened.id, /USDT on [^·]+ · /);
    return { command, view: ready };
  };
  const estimates = () => simulator.requestCount('estimateSwap');
  const withAdmin = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  it('the same view submitted to A and then to B makes one quote', async () => {
    const { command, view } = await openForm();
    const before = estimates();
    expect(await replicas.a.driver.submitView(view, { values: entered('1,000'), userId: REQUESTER })).toBeNull();
    const [reply] = await command.waitForResponses(1, 10_000);
    expect(toAnswer(command, reply!).text).toContain('Quote posted');

    // Slack's resend, to the other replica: acknowledged (the form closes) and nothing runs.
    expect(await replicas.b.driver.submitView(view, { values: entered('1,000'), userId: REQUESTER })).toBeNull();
    await waitUntil(
      () => logs.b.some((line) => line.startsWith('forms: the same submission came again; it ran once')),
      "replica B's word that the submission ran elsewhere",
    );
    await expectStaysAt({ estimates: 1, replies: 1 }, () => ({
      estimates: estimates() - before,
      replies: command.responses().length,
    }));
    const pending = await replicas.b.store.swapQuotes.listQuotesByStatus('pending');
    expect(pending.map((quote) => quote.amountFrom)).toEqual(['1000000000']);
  }, 60_000);

  it('when the claim cannot be recorded nothing is estimated and the person is told; a new form then works', async () => {
    await withAdmin('ALTER TABLE form_submissions RENAME TO form_submissions_away');
    try {
      const { command, view } = await openForm();
      const before = estimates();
      expect(await replicas.b.driver.submitView(view, { values: entered('2,000'), userId: REQUESTER })).toBeNull();
      const [reply] = await command.waitForResponses(1, 10_000);
      expect(toAnswer(command, reply!).text).toBe(
        ':warning: Nothing was done: the bot could not record this submission. Please try again in a moment.',
      );
      expect(
        logs.b.some((line) => line.startsWith('forms: the submission could not be claimed; nothing was run')),
      ).toBe(true);
      await expectStaysAt(0, () => estimates() - before);
    } finally {
      await withAdmin('ALTER TABLE form_submissions_away RENAME TO form_submissions');
    }

    const { command, view } = await openForm();
    expect(await replicas.b.driver.submitView(view, { values: entered('2,000'), userId: REQUESTER })).toBeNull();
    const [reply] = await command.waitForResponses(1, 10_000);
    expect(toAnswer(command, reply!).text).toContain('Quote posted');
    const pending = await replicas.a.store.swapQuotes.listQuotesByStatus('pending');
    expect(pending.map((quote) => quote.amountFrom).sort()).toEqual(['1000000000', '2000000000']);
  }, 60_000);
});
