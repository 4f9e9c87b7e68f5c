// "New quote" and the daily limit, end to end on the state file and on PostgreSQL: the real app (createTreasuryApp, in
// this process), the payment API simulator and the Slack stand-in, every command and click sent as Slack sends it
// (signed HTTP).
// - Whoever clicks New quote is the new quote's requester: the separation of duties, TREASURY_USERS and their
//   24 hours are judged on them; the quote it replaces, and who asked for that, stay on record and on the message.
// - At quote time the daily limit counts the swaps created and the requester's OWN waiting quotes: other people's
//   waiting quotes only warn. The approval that would create a swap past the limit is still refused.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { type Replica, startReplica } from '../support/replica.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import type { DriverResult } from '../support/rig/slack-driver.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { type Answer, toAnswer } from '../support/slack.js';
import { replicaStores } from '../support/store-backends.js';
import { expectStaysAt } from '../support/waiting.js';

const TOKEN = 'xoxb-requote-e2e';
const SECRET = 'requote-e2e-signing-secret';
const CHANNEL = 'C0TREASURY';
const RILEY = 'U0RILEY'; // asks for swaps
const YARA = 'U0YARA'; // asks for swaps too
const AVERY = 'U0AVERY'; // approver
const BLAKE = 'U0BLAKE'; // approver
const OLLIE = 'U0OLLIE'; // approver, but not in TREASURY_USERS
const LEASE_KEY = 0x7265_7175_6f74_6531n;

const stores = replicaStores('requote_e2e');

describe.each(stores)('New quote and the daily limit on $name', ({ skip, choice }) => {
  let simulator: PaymentsSimulator | undefined;
  let slack: SlackStandIn | undefined;
  let replica: Replica | undefined;
  afterEach(async () => {
    await replica?.close();
    await slack?.close();
    await simulator?.close();
    replica = undefined;
    slack = undefined;
    simulator = undefined;
  });

  /** A fresh simulator, Slack and store; `restart` starts the bot again on the same store with other settings. */
  async function start(env: Record<string, string>) {
    const store = await choice();
    const sim = await startSimulator({ quiet: true });
    const stand = await startSlackStandIn({ botToken: TOKEN });
    simulator = sim;
    slack = stand;
    const dataFile = join(mkdtempSync(join(tmpdir(), 'requote-e2e-')), 'state.json');
    const payments = createPaymentsClient({
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      logger: silentLogger,
      timeoutMs: 2_000,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 },
    });
    const boot = (more: Record<string, string>) =>
      startReplica({
        name: 'a',
        store,
        config: loadConfig({
          PAYMENTS_API_URL: sim.url,
          PAYMENTS_API_KEY: sim.apiKey,
          SLACK_BOT_TOKEN: TOKEN,
          SLACK_SIGNING_SECRET: SECRET,
          SLACK_API_URL: stand.apiUrl,
          PORT: '0',
          DATA_FILE: dataFile,
          SWAP_APPROVERS: `${AVERY},${BLAKE},${OLLIE}`,
          TREASURY_USERS: `${RILEY},${YARA},${AVERY},${BLAKE}`,
          SWAP_POLICY: '0:1',
          POLL_SCHEDULE: '0 0 1 1 *',
          ...env,
          ...more,
        }),
        payments,
        logger: silentLogger,
        now: () => new Date(sim.now()),
        slack: stand,
        signingSecret: SECRET,
        leaseKey: LEASE_KEY,
        app: { alertSleep: async () => undefined, swapFollow: { intervalMs: 50, maxDurationMs: 60_000 } },
      });
    replica = await boot({});
    return {
      sim,
      stand,
      payments,
      async restart(more: Record<string, string>) {
        await replica?.close();
        replica = await boot(more);
      },
    };
  }

  const bot = () => replica!;
  const messages = () => slack!.messages(CHANNEL);
  const current = (message: StoredMessage) => messages().find((m) => m.ts === message.ts)!;
  const textOf = (message: StoredMessage) => blocksToText(current(message).blocks ?? []);
  const quoteIdOf = (message: StoredMessage) =>
    findButtons(current(message).blocks ?? []).find(
      (b) => b.actionId === 'swap_approve' || b.actionId === 'swap_new_quote',
    )!.value!;
  const creates = () => simulator!.requestCount('createSwap');

  async function ask(text: string, userId: string): Promise<Answer> {
    const result = await bot().driver.command(text, { userId, channelId: CHANNEL });
    expect(result.status).toBe(200);
    const [reply] = await result.waitForResponses(1, 10_000);
    return toAnswer(result, reply!);
  }

  async function quote(text: string, userId: string): Promise<{ message: StoredMessage; note: string }> {
    const before = messages().length;
    const answer = await ask(text, userId);
    expect(answer.text).toContain('Quote posted');
    const message = await slack!.waitFor(() => messages()[before], 10_000, 'the quote message');
    return { message, note: answer.text };
  }

  async function click(message: StoredMessage, actionId: string, userId: string): Promise<DriverResult> {
    const result = await bot().driver.clickButtonIn({ ...current(message), channel: CHANNEL }, actionId, {
      userId,
      channelId: CHANNEL,
    });
    expect(result.status).toBe(200);
    return result;
  }

  async function noticeOf(result: DriverResult): Promise<string> {
    const [notice] = await result.waitForResponses(1, 10_000);
    expect(notice?.responseType).toBe('ephemeral');
    return notice?.text ?? blocksToText(notice?.blocks ?? []);
  }

  const waitForText = (message: StoredMessage, pattern: RegExp) =>
    slack!.waitFor(
      () => (pattern.test(textOf(message)) ? textOf(message) : undefined),
      10_000,
      `the quote message matching ${pattern}`,
    );

  /** "New quote" clicked by `userId`: the new quote's message, and what the clicker was told. */
  async function newQuote(old: StoredMessage, userId: string): Promise<{ message: StoredMessage; notice: string }> {
    const before = messages().length;
    const result = await click(old, 'swap_new_quote', userId);
    const message = await slack!.waitFor(() => messages()[before], 10_000, 'the new quote message');
    await waitForText(old, /A new quote was requested/);
    return { message, notice: await noticeOf(result) };
  }

  it.skipIf(skip)(
    "R's quote fails; approver A's New quote is A's request: A's own Approve is refused as self-approval, another approver creates it",
    async () => {
      const { sim } = await start({});
      const { message: old } = await quote('swap 1,000 USDT@ETH to USDC@ETH', RILEY);
      const oldId = quoteIdOf(old);
      sim.setAssetBalance(sim.ids.assets.usdtEth, '5');
      await click(old, 'swap_approve', AVERY);
      expect(await waitForText(old, /refused/)).toContain('Balance not enough');
      sim.setAssetBalance(sim.ids.assets.usdtEth, '50000000000');
      const createsBefore = creates();

      const { message: fresh, notice } = await newQuote(old, AVERY);
      expect(notice).toContain('Quote posted in the channel for approval');
      const freshId = quoteIdOf(fresh);
      const text = textOf(fresh);
      expect(text).toContain(`*Requested by*\n<@${AVERY}>`);
      expect(text).toContain(
        `Asked for with New quote by <@${AVERY}>, replacing quote \`${oldId}\` requested by <@${RILEY}>.`,
      );
      const record = await bot().store.swapQuotes.getQuote(freshId);
      expect(record).toMatchObject({ requestedBy: AVERY, replaces: oldId, replacesRequestedBy: RILEY });
      expect(record?.history[0]).toMatchObject({
        event: 'quoted',
        by: AVERY,
        detail: expect.stringContaining(`New quote replacing quote ${oldId} requested by ${RILEY}`),
      });
      const oldRecord = await bot().store.swapQuotes.getQuote(oldId);
      expect(oldRecord?.requestedBy).toBe(RILEY);
      expect(oldRecord?.history.map((entry) => [entry.event, entry.by])).toContainEqual(['requoted', AVERY]);

      // A asked for it: A's approval is self-approval, refused and not recorded.
      expect(await noticeOf(await click(fresh, 'swap_approve', AVERY))).toContain(
        'You requested this swap, so someone else must approve it',
      );
      expect((await bot().store.swapQuotes.getQuote(freshId))?.approvals).toEqual([]);
      await expectStaysAt(createsBefore, () => creates(), 400);
      // Another approver's approval creates it (one approval under this policy).
      await click(fresh, 'swap_approve', BLAKE);
      await waitForText(fresh, /Swap `[0-9a-f-]+`/);
      await expectStaysAt(createsBefore + 1, () => creates(), 300);
      expect((await bot().store.swapQuotes.getQuote(freshId))?.approvals?.map((a) => a.userId)).toEqual([BLAKE]);
    },
  );

  it.skipIf(skip)(
    'R left TREASURY_USERS after the quote expired: an approver outside TREASURY_USERS is refused New quote; a treasury approver asks for it as theirs, and may approve it only with ALLOW_SELF_APPROVAL',
    async () => {
      const { sim, restart } = await start({});
      const { message: old } = await quote('swap 1,000 USDT@ETH to USDC@ETH', RILEY);
      sim.advanceTime(31 * 60_000);
      await bot().treasury.swaps.sweep();
      await waitForText(old, /Expired: the quote was valid until/);
      await restart({ TREASURY_USERS: `${YARA},${AVERY},${BLAKE}`, ALLOW_SELF_APPROVAL: 'true' });
      const estimates = sim.requestCount('estimateSwap');

      // Ollie approves swaps but may not ask for them: New quote is a request.
      const refused = await noticeOf(await click(old, 'swap_new_quote', OLLIE));
      expect(refused).toContain('limited to the treasury team');
      // Riley is no longer a treasury user: their own New quote is refused too.
      expect(await noticeOf(await click(old, 'swap_new_quote', RILEY))).toContain('limited to the treasury team');
      await expectStaysAt(estimates, () => sim.requestCount('estimateSwap'), 300);

      const { message: fresh } = await newQuote(old, AVERY);
      expect(textOf(fresh)).toContain(`*Requested by*\n<@${AVERY}>`);
      expect((await bot().store.swapQuotes.getQuote(quoteIdOf(fresh)))?.requestedBy).toBe(AVERY);
      // Self-approval is allowed in this deployment: Avery's own approval counts, as for any quote Avery asked for.
      const createsBefore = creates();
      await click(fresh, 'swap_approve', AVERY);
      await waitForText(fresh, /Swap `[0-9a-f-]+`/);
      await expectStaysAt(createsBefore + 1, () => creates(), 300);
    },
  );

  it.skipIf(skip)(
    "X's waiting quotes filling the limit do not refuse Y's quote, which warns; X's own next quote is refused; approval past the limit is still refused",
    async () => {
      const { payments } = await start({ SWAP_DAILY_LIMIT_USD: '10,000' });
      const { message: x6 } = await quote('swap 6,000 USDT@ETH to USDC@ETH', RILEY);
      const { message: x4 } = await quote('swap 4,000 USDT@ETH to USDC@ETH', RILEY);
      // The form's preview for Yara says what the quote will: it fits, with the warning.
      const usdt = (await payments.listAssets()).find((asset) => asset.id === simulator!.ids.assets.usdtEth)!;
      const preview = await bot().treasury.swaps.previewQuote({ userId: YARA, from: usdt, amountFrom: 5_000_000_000n });
      const warning =
        "Other waiting quotes out of USDT on Ethereum add up to $10,000: if they are approved first, this one may not fit today's limit";
      expect(preview).toMatchObject({ limitWarning: expect.stringContaining(warning) });

      const { message: y5, note } = await quote('swap 5,000 USDT@ETH to USDC@ETH', YARA);
      expect(note).toContain(warning);
      expect(textOf(y5)).toContain(warning);
      // Riley's own waiting quotes hold Riley's room: one more dollar is refused.
      const own = await ask('swap 1 USDT@ETH to USDC@ETH', RILEY);
      expect(own.text).toContain(
        'No quote was made: swaps out of USDT on Ethereum are limited to $10,000 in any 24 hours; $10,000 is used ($10,000 of it in your own quotes waiting for approval), so $0 is left today',
      );

      const policy = await ask('policy', YARA);
      expect(policy.text).toContain(
        'USDT on Ethereum: $0 of $10,000 swapped, $10,000 left; $15,000 more in quotes waiting for approval',
      );
      expect(policy.text).toContain("other people's waiting quotes do not refuse it");

      // At approval only what was created counts, exactly: $6,000 created, Yara's $5,000 does not fit.
      await click(x6, 'swap_approve', AVERY);
      await waitForText(x6, /Swap `[0-9a-f-]+`/);
      const createsBefore = creates();
      const refused = await noticeOf(await click(y5, 'swap_approve', AVERY));
      expect(refused).toMatch(
        /^Approving now would pass the daily limit for swaps out of USDT on Ethereum: \$6,000 of \$10,000 was swapped in the last 24 hours, so \$4,000 is left/,
      );
      expect((await bot().store.swapQuotes.getQuote(quoteIdOf(y5)))?.approvals).toEqual([]);
      await expectStaysAt(createsBefore, () => creates(), 300);
      // Riley's $4,000 reaches the limit exactly: created.
      await click(x4, 'swap_approve', BLAKE);
      await waitForText(x4, /Swap `[0-9a-f-]+`/);
      // The warning goes with the waiting: a decided quote no longer shows it.
      await click(y5, 'swap_reject', YARA);
      await waitForText(y5, /Rejected by/);
      expect(textOf(y5)).not.toContain('Other waiting quotes');
    },
  );
});
