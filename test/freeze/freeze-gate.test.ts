// The freeze stops money moving, end to end: the real app (createTreasuryApp, in this process) on the state file and
// on PostgreSQL, the payment API simulator and the Slack stand-in, every command and click sent as Slack sends it
// (signed HTTP). While frozen no quote is made, a waiting quote's Approve refuses with the reason (Reject still
// works), no payout container is created; a click racing the freeze is judged on one side of it, never both.
// The freeze is pulled through the store where only its effect is tested, and with `/treasury freeze` and Unfreeze
// where the commands are; a `--for` that runs out is announced by the expiry job (run by hand, and at start).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { type Replica, type StoreChoice, startReplica } from '../support/replica.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { type Answer, toAnswer } from '../support/slack.js';
import { replicaStores } from '../support/store-backends.js';
import { expectStaysAt, waitUntilAsync } from '../support/waiting.js';

const TOKEN = 'xoxb-freeze-e2e';
const SECRET = 'freeze-e2e-signing-secret';
const CHANNEL = 'C0TREASURY';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const ADMIN = 'U0ADMIN';
const ADMIN2 = 'U0ADMIN2';
const BYSTANDER = 'U0BYSTANDER';
const ALERTS = 'C0ALERTS';
const LEASE_KEY = 0x6672_6565_7a65_3139n;

/** Checks an async read keeps giving `expected` for `quietMs`. */
async function staysAt<T>(expected: T, read: () => Promise<T>, quietMs = 500): Promise<void> {
  const end = Date.now() + quietMs;
  while (Date.now() < end) {
    expect(await read()).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const stores = replicaStores('freeze_e2e');

describe.each(stores)('the freeze gate on $name', ({ skip, choice }) => {
  let simulator: PaymentsSimulator;
  let slack: SlackStandIn;
  let replica: Replica;
  let store: StoreChoice;
  let start: (name: string) => Promise<Replica>;

  beforeAll(async () => {
    if (skip) return;
    store = await choice();
    simulator = await startSimulator({ quiet: true });
    slack = await startSlackStandIn({ botToken: TOKEN });
    const config = loadConfig({
      PAYMENTS_API_URL: simulator.url,
      PAYMENTS_API_KEY: simulator.apiKey,
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      DATA_FILE: join(mkdtempSync(join(tmpdir(), 'freeze-e2e-')), 'state.json'),
      SWAP_APPROVERS: APPROVER,
      TREASURY_ADMINS: `${ADMIN},${ADMIN2}`,
      POLL_SCHEDULE: '0 0 1 1 *',
      ALERT_CHANNEL: ALERTS,
    });
    const payments = createPaymentsClient({
      baseUrl: config.paymentsApiUrl,
      apiKey: config.paymentsApiKey,
      logger: silentLogger,
      timeoutMs: 2_000,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 },
    });
    start = (name) =>
      startReplica({
        name,
        store,
        config,
        payments,
        logger: silentLogger,
        now: () => new Date(simulator.now()),
        slack,
        signingSecret: SECRET,
        leaseKey: LEASE_KEY,
        app: { alertSleep: async () => undefined, swapFollow: { intervalMs: 50, maxDurationMs: 60_000 } },
      });
    replica = await start('a');
  }, 30_000);
  afterAll(async () => {
    await replica?.close();
    await slack?.close();
    await simulator?.close();
  });
  beforeEach(async () => {
    if (skip) return;
    // Each test starts unfrozen: a frozen state left by the one before is lifted by the two admins.
    const now = new Date(simulator.now());
    await replica.store.freeze.voteUnfreeze({ by: ADMIN, at: now }, 2);
    await replica.store.freeze.voteUnfreeze({ by: ADMIN2, at: now }, 2);
    simulator.resetRequests();
  });

  const now = () => new Date(simulator.now());
  const freeze = (reason = 'leaked token') => replica.store.freeze.freeze({ by: APPROVER, at: now(), reason });
  const count = (operation: 'createSwap' | 'estimateSwap' | 'createPayout') => simulator.requestCount(operation);

  async function ask(text: string, userId = REQUESTER): Promise<Answer> {
    const result = await replica.driver.command(text, { userId, channelId: CHANNEL });
    expect(result.status).toBe(200);
    const [reply] = await result.waitForResponses(1, 10_000);
    return toAnswer(result, reply!);
  }

  async function quote(): Promise<StoredMessage> {
    const before = slack.messages(CHANNEL).length;
    expect((await ask('swap 1,000 USDT@ETH to USDC@ETH')).text).toContain('Quote posted');
    return slack.waitFor(() => slack.messages(CHANNEL)[before], 10_000, 'the quote message');
  }

  /** A click on the quote's button; resolves with what the clicker was told privately (if anything). */
  async function clickQuote(message: StoredMessage, actionId: 'swap_approve' | 'swap_reject', userId = APPROVER) {
    const result = await replica.driver.clickButtonIn(
      { channel: CHANNEL, ts: message.ts, blocks: message.blocks ?? [] },
      actionId,
      { userId, channelId: CHANNEL },
    );
    expect(result.status).toBe(200);
    return result;
  }
  const quoteStatus = async (message: StoredMessage) => {
    const id = findButtons(message.blocks ?? []).find((b) => b.actionId === 'swap_approve')!.value!;
    return (await replica.store.swapQuotes.getQuote(id))?.status;
  };

  it.skipIf(skip)('no quote is made while frozen: refused with who, when and why, before any estimate', async () => {
    await freeze('a <strange> quote & more');
    const answer = await ask('swap 1,000 USDT@ETH to USDC@ETH');
    expect(answer.text).toContain('Money is frozen by <@U0APPROVER>');
    expect(answer.text).toContain('_a &lt;strange&gt; quote &amp; more_');
    expect(answer.text).toContain('No quote was made.');
    expect(count('estimateSwap')).toBe(0);
  });

  it.skipIf(skip)(
    'a waiting quote stays waiting: Approve refuses with the reason, nothing is created; Reject works',
    async () => {
      const waiting = await quote();
      await freeze();
      const approve = await clickQuote(waiting, 'swap_approve');
      const [notice] = await approve.waitForResponses(1, 10_000);
      expect(notice?.text ?? blocksToText(notice?.blocks ?? [])).toContain(
        'Your approval was not counted; the quote waits.',
      );
      expect(await quoteStatus(waiting)).toBe('pending');
      await expectStaysAt(0, () => count('createSwap'), 500);
      await clickQuote(waiting, 'swap_reject');
      await waitUntilAsync(
        async () => ((await quoteStatus(waiting)) === 'rejected' ? true : undefined),
        'the rejection',
      );
    },
  );

  it.skipIf(skip)('after the quorum lifts it, the same quote is approved and created once', async () => {
    const waiting = await quote();
    await freeze();
    await replica.store.freeze.voteUnfreeze({ by: ADMIN, at: now() }, 2);
    const refused = await clickQuote(waiting, 'swap_approve');
    await refused.waitForResponses(1, 10_000);
    expect(await quoteStatus(waiting)).toBe('pending');
    await replica.store.freeze.voteUnfreeze({ by: ADMIN2, at: now() }, 2);
    await clickQuote(waiting, 'swap_approve');
    await waitUntilAsync(async () => ((await quoteStatus(waiting)) === 'created' ? true : undefined), 'the swap');
    expect(count('createSwap')).toBe(1);
  });

  it.skipIf(skip)('no payout container is proposed while frozen, nor created from a proposal made before', async () => {
    const proposal = await ask('payout create USDT@BSC "November affiliates"');
    expect(proposal.buttons.map((b) => b.actionId)).toContain('payout_create');
    await freeze();
    expect((await ask('payout create USDT@BSC "December"')).text).toContain('No payout container was proposed.');
    const confirm = await replica.driver.clickButtonIn(
      { ts: '1700000000.000100', blocks: proposal.reply.blocks ?? [] },
      'payout_create',
      { userId: REQUESTER },
    );
    const [notice] = await confirm.waitForResponses(1, 10_000);
    expect(notice?.text ?? '').toContain('No payout container was created; the proposal stays open.');
    expect(count('createPayout')).toBe(0);
    const id = proposal.buttons.find((b) => b.actionId === 'payout_create')!.value!;
    expect((await replica.store.payouts.getRequest(id))?.status).toBe('proposed');
  });

  it.skipIf(skip)(
    'an Approve racing the freeze: the freeze first, the click waits and is refused; never a create',
    async () => {
      const waiting = await quote();
      if (store.kind === 'postgres') {
        // The freeze is being written (its row locked, not committed) when the click arrives: the decision waits on
        // the row, then sees the freeze.
        const client = new pg.Client({ connectionString: store.databaseUrl });
        await client.connect();
        try {
          await client.query('BEGIN');
          const { rows } = await client.query('SELECT record FROM freeze_state WHERE id = 1 FOR UPDATE');
          const record = rows[0].record;
          record.current = { frozenBy: ADMIN, frozenAt: now().toISOString(), reason: 'race', unfreezeVotes: [] };
          await client.query('UPDATE freeze_state SET record = $1::json WHERE id = 1', [JSON.stringify(record)]);
          const approve = await clickQuote(waiting, 'swap_approve');
          await staysAt('pending', () => quoteStatus(waiting));
          await client.query('COMMIT');
          const [notice] = await approve.waitForResponses(1, 10_000);
          expect(notice?.text ?? '').toContain('Your approval was not counted');
        } finally {
          await client.end();
        }
      } else {
        // One process, one queue of changes: the freeze asked for first is written first, the click judged after.
        const freezing = freeze('race');
        const approve = await clickQuote(waiting, 'swap_approve');
        await freezing;
        const [notice] = await approve.waitForResponses(1, 10_000);
        expect(notice?.text ?? '').toContain('Your approval was not counted');
      }
      expect(await quoteStatus(waiting)).toBe('pending');
      await expectStaysAt(0, () => count('createSwap'), 500);
    },
  );

  it.skipIf(skip)(
    'clicks and a freeze at once, many times: each click is judged wholly before or after it',
    async () => {
      for (let round = 0; round < 4; round++) {
        const waiting = await quote();
        const [clicked] = await Promise.all([clickQuote(waiting, 'swap_approve'), freeze(`round ${round}`)]);
        await clicked.waitForResponses(1, 10_000).catch(() => []);
        const status = await waitUntilAsync(async () => {
          const s = await quoteStatus(waiting);
          return s === 'pending' || s === 'created' ? s : undefined;
        }, 'the quote settled');
        const id = findButtons(waiting.blocks ?? []).find((b) => b.actionId === 'swap_approve')!.value!;
        const history = (await replica.store.swapQuotes.getQuote(id))!.history.map((e) => e.event);
        // Before the freeze: approved and created; after it: nothing recorded, still waiting.
        expect(status === 'created' ? history.includes('approved') : !history.includes('approved')).toBe(true);
        const now = new Date(simulator.now());
        await replica.store.freeze.voteUnfreeze({ by: ADMIN, at: now }, 2);
        await replica.store.freeze.voteUnfreeze({ by: ADMIN2, at: now }, 2);
      }
    },
  );

  /** Clicks Unfreeze on the announcement as `userId`; resolves with what they were told. */
  async function unfreeze(announcement: StoredMessage, userId: string): Promise<string> {
    const result = await replica.driver.clickButtonIn(
      { channel: ALERTS, ts: announcement.ts, blocks: announcement.blocks ?? [] },
      'freeze_unfreeze',
      { userId, channelId: ALERTS },
    );
    expect(result.status).toBe(200);
    const [reply] = await result.waitForResponses(1, 10_000);
    return reply?.text ?? blocksToText(reply?.blocks ?? []);
  }

  it.skipIf(skip)(
    '/treasury freeze: shown to all, pulled by an approver, announced with Unfreeze, lifted by two distinct admins',
    async () => {
      expect((await ask('freeze')).text).toContain('Nothing is frozen');
      expect((await ask('freeze just because', BYSTANDER)).text).toContain('Only swap approvers');
      expect(await replica.store.freeze.currentFreeze(now())).toBeUndefined();

      const before = slack.messages(ALERTS).length;
      const pulled = await ask('freeze leaked <token> & "more" --for 2h', APPROVER);
      expect(pulled.text).toContain('Money is frozen by <@U0APPROVER>');
      expect(pulled.text).toContain('it ends by itself at');
      const announcement = await slack.waitFor(() => slack.messages(ALERTS)[before], 10_000, 'the announcement');
      const announced = blocksToText(announcement.blocks ?? []);
      expect(announced).toContain('frozen by <@U0APPROVER>');
      expect(announced).toContain('leaked &lt;token&gt; &amp; more');
      expect(announced).toContain('needs 2 distinct admins');
      expect(findButtons(announcement.blocks ?? []).map((b) => b.text)).toEqual(['Unfreeze']);
      expect((await ask('freeze')).text).toContain('Money is frozen by <@U0APPROVER>');
      expect((await ask('freeze again', ADMIN)).text).toContain('already frozen');

      expect(await unfreeze(announcement, APPROVER)).toContain('Only treasury admins');
      expect(await unfreeze(announcement, ADMIN)).toContain('Your vote is recorded (1 of 2)');
      const shown = () => blocksToText(slack.messages(ALERTS).find((m) => m.ts === announcement.ts)?.blocks ?? []);
      await slack.waitFor(() => shown().includes('so far: <@U0ADMIN>') || undefined, 10_000, 'the vote on the message');
      expect(await unfreeze(announcement, ADMIN)).toContain('You have voted already (1 of 2)');
      expect((await ask('swap 1,000 USDT@ETH to USDC@ETH')).text).toContain('No quote was made.');
      expect(await unfreeze(announcement, ADMIN2)).toContain('Your vote lifted the freeze (2 of 2)');
      const lifted = await slack.waitFor(() => slack.messages(ALERTS)[before + 1], 10_000, 'the unfreeze line');
      expect(blocksToText(lifted.blocks ?? [])).toContain('The freeze is lifted by <@U0ADMIN>, <@U0ADMIN2>');
      expect((await ask('freeze')).text).toContain('Nothing is frozen');
      expect(await unfreeze(announcement, ADMIN)).toContain('Nothing is frozen now');
      await slack.waitFor(() => shown().includes('Lifted by <@U0ADMIN>, <@U0ADMIN2>') || undefined, 10_000, 'lifted');
      expect(findButtons(slack.messages(ALERTS).find((m) => m.ts === announcement.ts)?.blocks ?? [])).toEqual([]);
      // A new freeze: the old announcement's Unfreeze (still on someone's screen) counts nothing toward it.
      await ask('freeze second thoughts', ADMIN);
      expect(await unfreeze(announcement, ADMIN2)).toContain('belongs to an earlier freeze');
      expect((await replica.store.freeze.currentFreeze(now()))?.unfreezeVotes).toEqual([]);
      await replica.store.freeze.voteUnfreeze({ by: ADMIN, at: now() }, 2);
      await replica.store.freeze.voteUnfreeze({ by: ADMIN2, at: now() }, 2);

      const trail = await replica.store.freeze.listFreezeTrail(new Date(0), now());
      expect(trail.slice(-8, -4).map((e) => [e.event, e.by])).toEqual([
        ['frozen', APPROVER],
        ['unfreeze_vote', ADMIN],
        ['unfreeze_vote', ADMIN2],
        ['unfrozen', ADMIN2],
      ]);
    },
  );

  const homeOf = (userId: string) => blocksToText((slack.homeView(userId)?.view.blocks as unknown[] | undefined) ?? []);
  /** Opens the person's Home tab; resolves with its text once a new view matching `pattern` is published. */
  async function openHome(userId: string, pattern: RegExp): Promise<string> {
    const before = slack.homeView(userId)?.hash;
    expect((await replica.driver.openHome(userId, slack.homeView(userId))).status).toBe(200);
    return slack.waitFor(
      () => (slack.homeView(userId)?.hash !== before && pattern.test(homeOf(userId)) ? homeOf(userId) : undefined),
      10_000,
      `the Home of ${userId}`,
    );
  }

  it.skipIf(skip)(
    'the Home tab shows the freeze on top for every treasury user, and not once it is lifted',
    async () => {
      await freeze('leaked token');
      for (const userId of [REQUESTER, ADMIN, BYSTANDER]) {
        const home = await openHome(userId, /Treasury/);
        expect(home.indexOf('Money is frozen by <@U0APPROVER>')).toBeGreaterThan(-1);
        expect(home.indexOf('Money is frozen')).toBeLessThan(home.indexOf('Balances'));
      }
      await replica.store.freeze.voteUnfreeze({ by: ADMIN, at: now() }, 2);
      await replica.store.freeze.voteUnfreeze({ by: ADMIN2, at: now() }, 2);
      expect(await openHome(REQUESTER, /Balances/)).not.toContain('Money is frozen');
    },
  );

  it.skipIf(skip)(
    'a waiting quote shows FROZEN once the freeze is pulled, and no longer once it is lifted',
    async () => {
      const waiting = await quote();
      const shown = () => blocksToText(slack.messages(CHANNEL).find((m) => m.ts === waiting.ts)?.blocks ?? []);
      expect(shown()).not.toContain('FROZEN');
      await ask('freeze leaked token', APPROVER);
      await slack.waitFor(
        () => shown().includes('*FROZEN*: money is frozen by <@U0APPROVER>') || undefined,
        10_000,
        'FROZEN',
      );
      expect(
        findButtons(slack.messages(CHANNEL).find((m) => m.ts === waiting.ts)?.blocks ?? []).map((b) => b.actionId),
      ).toEqual(expect.arrayContaining(['swap_approve', 'swap_reject']));
      const announcement = slack.messages(ALERTS).at(-1)!;
      await unfreeze(announcement, ADMIN);
      await unfreeze(announcement, ADMIN2);
      await slack.waitFor(() => (!shown().includes('FROZEN') ? true : undefined), 10_000, 'no longer FROZEN');
    },
  );

  it.skipIf(skip)(
    'a freeze survives a restart; on PostgreSQL a second replica refuses at once what the first froze',
    async () => {
      const waiting = await quote();
      await ask('freeze leaked token', APPROVER);
      await replica.close();
      replica = await start('a');
      expect((await ask('freeze')).text).toContain('Money is frozen by <@U0APPROVER>');
      const refused = await clickQuote(waiting, 'swap_approve');
      expect((await refused.waitForResponses(1, 10_000))[0]?.text ?? '').toContain('Your approval was not counted');
      if (store.kind === 'postgres') {
        const other = await start('b');
        try {
          const result = await other.driver.clickButtonIn(
            { channel: CHANNEL, ts: waiting.ts, blocks: waiting.blocks ?? [] },
            'swap_approve',
            { userId: APPROVER, channelId: CHANNEL },
          );
          expect((await result.waitForResponses(1, 10_000))[0]?.text ?? '').toContain('Your approval was not counted');
          const answer = await other.driver.command('payout create USDT@BSC "December"', {
            userId: REQUESTER,
            channelId: CHANNEL,
          });
          const [reply] = await answer.waitForResponses(1, 10_000);
          expect(reply?.text ?? blocksToText(reply?.blocks ?? [])).toContain('No payout container was proposed.');
        } finally {
          await other.close();
        }
      }
      expect(await quoteStatus(waiting)).toBe('pending');
      expect(count('createSwap')).toBe(0);
    },
  );

  it.skipIf(skip)('"New quote" on an expired quote makes no quote while frozen, before any estimate', async () => {
    const old = await quote();
    simulator.advanceTime(31 * 60_000);
    await (await clickQuote(old, 'swap_approve')).waitForResponses(1, 10_000);
    expect(await quoteStatus(old)).toBe('expired');
    const expired = await slack.waitFor(
      () => {
        const message = slack.messages(CHANNEL).find((m) => m.ts === old.ts);
        return findButtons(message?.blocks ?? []).some((b) => b.actionId === 'swap_new_quote') ? message : undefined;
      },
      10_000,
      'the New quote button',
    );
    await freeze();
    simulator.resetRequests();
    const result = await replica.driver.clickButtonIn(
      { channel: CHANNEL, ts: expired.ts, blocks: expired.blocks ?? [] },
      'swap_new_quote',
      { userId: REQUESTER, channelId: CHANNEL },
    );
    const [reply] = await result.waitForResponses(1, 10_000);
    expect(reply?.text ?? blocksToText(reply?.blocks ?? [])).toContain('No quote was made.');
    expect(count('estimateSwap')).toBe(0);
  });

  it.skipIf(skip)(
    '--for runs out: the job edits the announcement (no Unfreeze), posts one line, the quote loses FROZEN and is approved',
    async () => {
      const waiting = await quote();
      const shownQuote = () => blocksToText(slack.messages(CHANNEL).find((m) => m.ts === waiting.ts)?.blocks ?? []);
      const before = slack.messages(ALERTS).length;
      await ask('freeze maintenance window --for 10m', ADMIN);
      const announcement = await slack.waitFor(() => slack.messages(ALERTS)[before], 10_000, 'the announcement');
      expect(findButtons(announcement.blocks ?? []).map((b) => b.text)).toEqual(['Unfreeze']);
      await slack.waitFor(() => shownQuote().includes('*FROZEN*') || undefined, 10_000, 'FROZEN');
      expect(await openHome(REQUESTER, /Balances/)).toContain('Money is frozen by <@U0ADMIN>');

      simulator.advanceTime(11 * 60_000);
      expect(await openHome(REQUESTER, /Balances/)).not.toContain('Money is frozen');
      // The gate ends at `until` exactly, whether or not the job has run yet.
      expect((await ask('freeze')).text).toContain('Nothing is frozen');
      await replica.treasury.freeze.endExpired();
      const shownAnnouncement = () => slack.messages(ALERTS).find((m) => m.ts === announcement.ts);
      const edited = await slack.waitFor(
        () =>
          blocksToText(shownAnnouncement()?.blocks ?? []).includes('ended by itself') ? shownAnnouncement() : undefined,
        10_000,
        'the announcement edited',
      );
      expect(findButtons(edited.blocks ?? [])).toEqual([]);
      const line = await slack.waitFor(() => slack.messages(ALERTS)[before + 1], 10_000, 'the line');
      expect(blocksToText(line.blocks ?? [])).toMatch(
        /^:hourglass: The freeze by <@U0ADMIN> since .* \(_maintenance window_\) ended by itself at .* UTC\. Swaps and payouts may go ahead again\.$/,
      );
      await slack.waitFor(() => (!shownQuote().includes('FROZEN') ? true : undefined), 10_000, 'no longer FROZEN');

      // The next rounds (any replica) find nothing: no second line, one `expired` in the trail.
      await replica.treasury.freeze.endExpired();
      await replica.treasury.freeze.endExpired();
      await expectStaysAt(before + 2, () => slack.messages(ALERTS).length, 300);
      const trail = await replica.store.freeze.listFreezeTrail(new Date(0), now());
      const [frozen, expired] = trail.slice(-2);
      expect([frozen?.event, expired?.event]).toEqual(['frozen', 'expired']);
      // Recorded at the until, not when the job ran; the line says that time.
      expect(expired?.at).toBe(frozen?.until);
      expect(blocksToText(line.blocks ?? [])).toContain(
        `ended by itself at ${expired!.at.slice(0, 16).replace('T', ' ')} UTC`,
      );

      await clickQuote(waiting, 'swap_approve');
      await waitUntilAsync(async () => ((await quoteStatus(waiting)) === 'created' ? true : undefined), 'the swap');
      expect(count('createSwap')).toBe(1);
    },
  );

  it.skipIf(skip)(
    '--for runs out while Slack refuses the edit and the line: logged, the claim holds, nothing posted later',
    async () => {
      const before = slack.messages(ALERTS).length;
      await ask('freeze slack trouble --for 10m', ADMIN);
      const announcement = await slack.waitFor(() => slack.messages(ALERTS)[before], 10_000, 'the announcement');
      slack.failNext('chat.update', { error: 'message_not_found' }, 1, { channel: ALERTS });
      slack.failNext('chat.postMessage', { error: 'channel_not_found' }, 1, {
        channel: ALERTS,
        textIncludes: 'ended by itself',
      });
      simulator.advanceTime(11 * 60_000);
      await replica.treasury.freeze.endExpired();
      const trail = await replica.store.freeze.listFreezeTrail(new Date(0), now());
      expect(trail.at(-1)?.event).toBe('expired');
      await replica.treasury.freeze.endExpired();
      await expectStaysAt(before + 1, () => slack.messages(ALERTS).length, 300);
      expect(findButtons(slack.messages(ALERTS).find((m) => m.ts === announcement.ts)?.blocks ?? [])).toHaveLength(1);
      expect((await ask('freeze')).text).toContain('Nothing is frozen');
    },
  );

  it.skipIf(skip)('--for runs out while the bot is down: announced once as it starts again', async () => {
    const before = slack.messages(ALERTS).length;
    await ask('freeze over the restart --for 10m', ADMIN);
    const announcement = await slack.waitFor(() => slack.messages(ALERTS)[before], 10_000, 'the announcement');
    await replica.close();
    simulator.advanceTime(11 * 60_000);
    replica = await start('a');
    const shown = () => slack.messages(ALERTS).find((m) => m.ts === announcement.ts);
    await slack.waitFor(
      () => (blocksToText(shown()?.blocks ?? []).includes('ended by itself') ? true : undefined),
      10_000,
      'the announcement edited at start',
    );
    const line = await slack.waitFor(() => slack.messages(ALERTS)[before + 1], 10_000, 'the line');
    expect(blocksToText(line.blocks ?? [])).toContain('(_over the restart_) ended by itself at');
    await replica.treasury.freeze.endExpired();
    await expectStaysAt(before + 2, () => slack.messages(ALERTS).length, 300);
  });

  it.skipIf(skip)('--for ends the freeze by itself', async () => {
    await ask('freeze maintenance --for 30m', ADMIN);
    expect((await ask('swap 1,000 USDT@ETH to USDC@ETH')).text).toContain('No quote was made.');
    simulator.advanceTime(31 * 60_000);
    expect((await ask('freeze')).text).toContain('Nothing is frozen');
    await quote();
  });
});
