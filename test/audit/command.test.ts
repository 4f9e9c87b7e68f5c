// `/treasury audit <period>` end to end: the real app over signed HTTP, the Slack stand-in and the payment
// simulator. An admin is answered at once and gets the CSV in their direct messages through Slack's upload flow (read
// back from the stand-in with the bot token, then by a real CSV parser); anyone else is refused and nothing is read
// or sent; a refused upload is told in plain words.
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_COLUMNS } from '../../src/features/audit/csv-rules.js';
import { newPayoutRequest } from '../../src/features/payouts/rules.js';
import { swapQuoteRecord } from '../support/fixtures.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { ask } from '../support/slack.js';
import { expectStaysAt, waitUntil } from '../support/waiting.js';

const ADMIN = 'U0ADMIN';
const SAM = 'U0SAM';
const HOSTILE = '=HYPERLINK("http://x","click"), "quoted"\r\nnext line';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({ env: { TREASURY_ADMINS: ADMIN } });
  const now = stack.simulator.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
  // A threshold set by the admin through the command, as it happens in Slack.
  await ask(stack, 'threshold USDT@BSC below 5,000', { userId: ADMIN });
  // A quote with hostile text where people's words and the API's go.
  await stack.store.swapQuotes.saveQuote(
    swapQuoteRecord('quote-1', {
      estimatedAt: at(120).toISOString(),
      requestedBy: 'U0RILEY',
      amountFrom: '1500000',
      estimatedAmount: '1499000',
      status: 'rejected',
      history: [
        { at: at(120).toISOString(), event: 'quoted', by: 'U0RILEY', detail: 'estimate e' },
        { at: at(110).toISOString(), event: 'rejected', by: 'U0BLAKE', detail: HOSTILE },
      ],
    }),
  );
  await stack.store.payouts.saveRequest(
    newPayoutRequest({
      id: 'payout-request-1',
      requestedBy: ADMIN,
      requestedAt: at(60),
      channelId: 'C_TREASURY',
      asset: { assetId: 'a1', symbol: 'USDT', networkSymbol: 'BSC', networkTitle: 'BNB Chain', decimals: 18 },
      name: '-November affiliates',
    }),
  );
}, 60_000);
afterAll(() => stack?.close());

/** The CSV the admin received in their DM with the bot, downloaded as an app would (url_private, bot token). */
async function receivedCsv(): Promise<{ channel: string; comment: string; text: string }> {
  const shared = await stack.slack.waitFor(
    () => stack.slack.messages().find((message) => message.channel.startsWith('D') && message.files !== undefined),
    10_000,
    'the audit file shared in a DM',
  );
  const file = shared.files![0]!;
  expect(file.name).toMatch(/^treasury-audit-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const response = await fetch(file.url_private_download, {
    headers: { authorization: `Bearer ${stack.config.slackBotToken}` },
  });
  expect(response.status).toBe(200);
  return { channel: shared.channel, comment: shared.text ?? '', text: await response.text() };
}

describe('/treasury audit', () => {
  it('refuses anyone but an admin, plainly, and sends nothing', async () => {
    const answer = await ask(stack, 'audit 30d', { userId: SAM });
    expect(answer.text).toBe(
      'Only treasury admins can export the audit trail (`TREASURY_ADMINS`; by default the swap approvers).',
    );
    await expectStaysAt({ uploads: 0, opened: 0 }, () => ({
      uploads: stack.slack.uploads().length,
      opened: stack.slack.callsOf('conversations.open').length,
    }));
  });

  it('answers a period it cannot take with the usage', async () => {
    const answer = await ask(stack, 'audit 401d', { userId: ADMIN });
    expect(answer.text).toContain('The trail keeps 400 days: give at most 400d.');
    expect(answer.text).toContain('/treasury audit &lt;period&gt;');
  });

  it("answers an admin at once and sends the period's trail as a CSV file to their DM with the bot", async () => {
    const answer = await ask(stack, 'audit 30d', { userId: ADMIN });
    expect(answer.text).toMatch(
      /^:page_facing_up: Preparing the audit trail of the last 30d \(since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)\. The CSV file will arrive in your direct messages with the bot in a moment\.$/,
    );
    const { channel, comment, text } = await receivedCsv();
    // The DM the bot opened with the admin (conversations.open), not a channel.
    expect(stack.slack.callsOf('conversations.open').map((call) => call.args.users)).toEqual([ADMIN]);
    expect(channel).toMatch(/^D/);
    expect(comment).toMatch(/^Audit trail of the last 30d: 4 events from .* UTC to .* UTC, one row each/);

    const records: string[][] = parse(text, { relax_column_count: false });
    expect(records[0]).toEqual([...AUDIT_COLUMNS]);
    const rows = records.slice(1).map((cells) => Object.fromEntries(AUDIT_COLUMNS.map((c, i) => [c, cells[i]!])));
    expect(rows.map((row) => [row.category, row.event, row.actor])).toEqual([
      ['swap_quote', 'requested', 'U0RILEY'],
      ['swap_quote', 'rejected', 'U0BLAKE'],
      ['payout', 'requested', ADMIN],
      ['threshold', 'set', ADMIN],
    ]);
    // Sorted by time, ISO-8601 UTC.
    const times = rows.map((row) => row.time!);
    expect([...times].sort()).toEqual(times);
    for (const time of times) expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // Hostile text read back whole and neutralised; amounts exact numbers.
    const rejected = rows.find((row) => row.event === 'rejected')!;
    expect(rejected.detail).toBe(`'${HOSTILE}`);
    expect(rejected).toMatchObject({ amount: '1.5', amount_units: '1500000', to_amount: '1.499', status: 'rejected' });
    const threshold = rows.find((row) => row.category === 'threshold')!;
    expect(threshold).toMatchObject({ asset: 'USDT@BSC', amount: '5000', detail: 'below 5000 USDT' });
    const payout = rows.find((row) => row.category === 'payout')!;
    expect(payout).toMatchObject({ subject_id: 'payout-request-1', detail: 'name: -November affiliates' });
    // The temporary file it was written to is gone once it was sent.
    await waitUntil(
      () => readdirSync(tmpdir()).every((name) => !name.startsWith('treasury-audit-')),
      'the temporary audit file removed',
    );
  });

  it('tells the admin in plain words when Slack refuses the file, and shares nothing', async () => {
    const sharedBefore = stack.slack.messages().filter((message) => message.files !== undefined).length;
    stack.slack.failNext('files.completeUploadExternal', { error: 'not_in_channel' });
    const result = await stack.driver.command('audit 7d', { userId: ADMIN });
    const [accepted, failed] = await result.waitForResponses(2, 10_000);
    expect(JSON.stringify(accepted)).toContain('The CSV file will arrive in your direct messages');
    expect(failed!.text).toMatch(
      /^:warning: The audit file could not be sent: .*not_in_channel.*\. Nothing was shared;/,
    );
    expect(stack.slack.messages().filter((message) => message.files !== undefined)).toHaveLength(sharedBefore);
  });

  it('when Slack shared the file but its answer was lost, says it may be in the DM instead of inviting a second copy', async () => {
    const sharedBefore = stack.slack.messages().filter((message) => message.files !== undefined).length;
    stack.slack.failNext('files.completeUploadExternal', { dropAnswer: true });
    const result = await stack.driver.command('audit 7d', { userId: ADMIN });
    const [, unconfirmed] = await result.waitForResponses(2, 15_000);
    expect(unconfirmed!.text).toBe(
      ':warning: Slack did not confirm that the audit file was shared, so it may already be in your direct messages with the bot. Look there before asking for it again.',
    );
    // It was shared once (Slack did the work) and not sent again.
    expect(stack.slack.messages().filter((message) => message.files !== undefined)).toHaveLength(sharedBefore + 1);
    expect(stack.slack.callsOf('files.completeUploadExternal').length).toBeGreaterThan(0);
  });
});
