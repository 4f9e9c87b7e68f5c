// Approvals above SWAP_STEP_UP_USD need a code, end to end: the real app (createTreasuryApp, in this process) on the
// state file and on PostgreSQL, the payment API simulator and the Slack stand-in, every command, click and dialog
// submission sent as Slack sends it (signed HTTP). Approvers enrol through `/treasury 2fa enroll` and read their
// secret from the DM's otpauth:// URI, as a person's authenticator app does. Approve on a large quote opens the code
// dialog; a wrong code is an error under the input; a right one counts the approval "with a second factor" (the
// message, the record and the audit CSV say so); a code works once; five wrong codes lock; a person not enrolled is
// told how to enrol; nothing reaches the decision without a code; a small quote approves as before; a frozen quote
// refuses even a valid code.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../../dev/simulator/index.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger, silentLogger } from '../../../src/logger.js';
import { createPaymentsClient } from '../../../src/payments/index.js';
import { type Replica, type StoreChoice, startReplica } from '../../support/replica.js';
import { blocksToText, findButtons } from '../../support/rig/blocks-text.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../../support/rig/slack-stand-in.js';
import { enrolAndConfirm } from '../../support/second-factor.js';
import { replicaStores } from '../../support/store-backends.js';
import { expectStaysAt, waitUntilAsync } from '../../support/waiting.js';

const TOKEN = 'xoxb-step-up-e2e';
const SECRET = 'step-up-e2e-signing-secret';
const CHANNEL = 'C0TREASURY';
const ALERTS = 'C0ALERTS';
const REQUESTER = 'U0REQUESTER';
const AVERY = 'U0AVERY';
const BLAKE = 'U0BLAKE';
const CASEY = 'U0CASEY'; // an approver who never enrols
const DREW = 'U0DREW'; // an approver who gets locked out
const ELLIS = 'U0ELLIS'; // an approver through the user group NIGHT
const NIGHT = 'S0NIGHT';
const ADMIN = 'U0ADMIN';
const BYSTANDER = 'U0BYSTANDER';
const LEASE_KEY = 0x7374_6570_7570_3139n;
const MODAL = 'swap_step_up_modal';

const stores = replicaStores('step_up_e2e');

describe.each(stores)('approvals with a second factor on $name', ({ name, skip, choice }) => {
  let simulator: PaymentsSimulator;
  let slack: SlackStandIn;
  let replica: Replica;
  let store: StoreChoice;
  let start: (name: string) => Promise<Replica>;
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    if (skip) return;
    store = await choice();
    simulator = await startSimulator({ quiet: true });
    slack = await startSlackStandIn({
      botToken: TOKEN,
      usergroups: [{ id: NIGHT, handle: 'night', name: 'Night shift', users: [ELLIS] }],
    });
    const config = loadConfig({
      PAYMENTS_API_URL: simulator.url,
      PAYMENTS_API_KEY: simulator.apiKey,
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      DATA_FILE: join(mkdtempSync(join(tmpdir(), 'step-up-e2e-')), 'state.json'),
      SWAP_APPROVERS: [AVERY, BLAKE, CASEY, DREW, NIGHT].join(','),
      TREASURY_ADMINS: ADMIN,
      SWAP_POLICY: '0:1',
      SWAP_STEP_UP_USD: '500',
      TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      POLL_SCHEDULE: '0 0 1 1 *',
      ALERT_CHANNEL: ALERTS,
      // /metrics on a port of its own (the Slack port serves it only with METRICS_TOKEN).
      METRICS_PORT: '0',
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
        logger: process.env.STEP_UP_LOG ? createLogger('debug') : silentLogger,
        now: () => new Date(simulator.now()),
        slack,
        signingSecret: SECRET,
        leaseKey: LEASE_KEY,
        app: { alertSleep: async () => undefined, swapFollow: { intervalMs: 50, maxDurationMs: 60_000 } },
      });
    replica = await start('a');
    for (const person of [AVERY, BLAKE, DREW, ELLIS]) secrets.set(person, await enrol(person));
  }, 60_000);
  afterAll(async () => {
    await replica?.close();
    await slack?.close();
    await simulator?.close();
  });

  const now = () => new Date(simulator.now());

  async function ask(text: string, userId = REQUESTER, channelId = CHANNEL): Promise<string> {
    const result = await replica.driver.command(text, { userId, channelId });
    expect(result.status).toBe(200);
    const [reply] = await result.waitForResponses(1, 10_000);
    return reply?.text ?? blocksToText(reply?.blocks ?? []);
  }

  /** The code `userId`'s authenticator shows now, on the bot's clock; a fresh time step first, so it was never used. */
  function freshCode(userId: string): string {
    simulator.advanceTime(31_000);
    return generateSync({ secret: secrets.get(userId)!, epoch: Math.floor(simulator.now() / 1000) });
  }

  /** Enrolled with a code, and confirmed by another admin in ALERT_CHANNEL (the shared rig helper). */
  async function enrol(userId: string): Promise<string> {
    const secret = await enrolAndConfirm(
      {
        slack,
        driver: replica.driver,
        alertChannel: ALERTS,
        botToken: TOKEN,
        channelId: CHANNEL,
        code: (fromDm) => {
          simulator.advanceTime(31_000);
          return generateSync({ secret: fromDm, epoch: Math.floor(simulator.now() / 1000) });
        },
      },
      userId,
      ADMIN,
    );
    secrets.set(userId, secret);
    return secret;
  }

  async function quote(amount = '1,000', requester = REQUESTER): Promise<StoredMessage> {
    const before = slack.messages(CHANNEL).length;
    expect(await ask(`swap ${amount} USDT@ETH to USDC@ETH`, requester)).toContain('Quote posted');
    return slack.waitFor(() => slack.messages(CHANNEL)[before], 10_000, 'the quote message');
  }

  const quoteId = (message: StoredMessage) =>
    findButtons(message.blocks ?? []).find((b) => b.actionId === 'swap_approve')!.value!;
  const record = async (message: StoredMessage) => (await replica.store.swapQuotes.getQuote(quoteId(message)))!;
  const shown = (message: StoredMessage) =>
    blocksToText(slack.messages(CHANNEL).find((m) => m.ts === message.ts)?.blocks ?? []);
  const creates = () => simulator.requestCount('createSwap');

  /** Approve clicked by `userId`: the click's answer (what they were told, if anything) and the dialog it opened. */
  async function clickApprove(message: StoredMessage, userId: string) {
    const opened = slack.views().length;
    const result = await replica.driver.clickButtonIn(
      { channel: CHANNEL, ts: message.ts, blocks: message.blocks ?? [] },
      'swap_approve',
      { userId, channelId: CHANNEL },
    );
    expect(result.status).toBe(200);
    return {
      result,
      told: async () => {
        const [reply] = await result.waitForResponses(1, 10_000);
        return reply?.text ?? blocksToText(reply?.blocks ?? []);
      },
      dialog: () =>
        slack.waitFor(
          () =>
            slack
              .views()
              .slice(opened)
              .find((v) => v.view.callback_id === MODAL),
          10_000,
          'the code dialog',
        ),
      opened: () => slack.views().length - opened,
    };
  }

  /** Opens the code dialog on `message` as `userId`. */
  async function openDialog(message: StoredMessage, userId: string) {
    return (await clickApprove(message, userId)).dialog();
  }

  type Dialog = Awaited<ReturnType<typeof openDialog>>;
  const submit = (dialog: Dialog, userId: string, code: string) =>
    replica.driver.submitView(dialog, { userId, values: { step_up_code: { code } } });

  /** Where the Slack stand-in's record stands now: a private notice after this is new. */
  const mark = () => ({ calls: slack.calls.length, messages: slack.messages().length });

  /** What `userId` was told privately since `since`: an ephemeral in the quote's channel, or a DM if that failed. */
  function toldPrivately(userId: string, pattern: RegExp, since: ReturnType<typeof mark>) {
    return slack.waitFor(
      () =>
        slack.calls
          .slice(since.calls)
          .filter((c) => c.method === 'chat.postEphemeral' && c.args.user === userId)
          .map((c) => String(c.args.text ?? ''))
          .find((text) => pattern.test(text)) ??
        slack
          .messages()
          .slice(since.messages)
          .find((m) => m.channel.startsWith('D') && pattern.test(m.text ?? ''))?.text,
      10_000,
      `a private notice to ${userId} matching ${pattern}`,
    );
  }

  /** `treasury_step_up_failures_total{reason}` as GET /metrics shows it on the replica. */
  async function stepUpFailures(reason: string): Promise<number> {
    const port = replica.treasury.metricsPort();
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`treasury_step_up_failures_total{reason="${reason}"}`));
    return Number(line?.split(' ')[1]);
  }

  it.skipIf(skip)(
    'Approve opens the code dialog; a wrong code is an error under the input; the right one approves with a second factor',
    async () => {
      const waiting = await quote();
      simulator.resetRequests();
      const dialog = await openDialog(waiting, AVERY);
      expect(dialog.view.title).toEqual({ type: 'plain_text', text: 'Approve with a code' });
      const text = blocksToText(dialog.view.blocks as unknown[]);
      expect(text).toContain('1,000 USDT');
      expect(text).toContain('approvals from $500 need a code');
      // The click alone counted nothing.
      expect((await record(waiting)).approvals).toEqual([]);

      const wrongBefore = await stepUpFailures('wrong');
      const wrong = await submit(dialog, AVERY, '000000');
      expect(await stepUpFailures('wrong')).toBe(wrongBefore + 1);
      expect(wrong).toEqual({
        response_action: 'errors',
        errors: { step_up_code: expect.stringContaining('That code is not right') },
      });
      expect((await record(waiting)).approvals).toEqual([]);

      expect(await submit(dialog, AVERY, freshCode(AVERY))).toBeNull();
      const approved = await waitUntilAsync(
        async () => ((await record(waiting)).status === 'created' ? record(waiting) : undefined),
        'the swap created',
      );
      expect(approved.approvals).toEqual([{ userId: AVERY, at: expect.any(String), secondFactor: true }]);
      const entry = approved.history.find((e) => e.event === 'approved')!;
      expect(entry).toMatchObject({ by: AVERY, secondFactor: true });
      expect(entry.detail).toContain('approved with a second factor');
      expect(creates()).toBe(1);
      await slack.waitFor(() => shown(waiting).includes('<@U0AVERY> (with a code)') || undefined, 10_000, 'the mark');

      // The audit CSV: `second_factor` is the last column, "yes" on that approval only.
      const uploads = slack.uploads().length;
      expect(await ask('audit 1d', ADMIN)).toContain('Preparing the audit trail');
      const file = await slack.waitFor(
        () =>
          slack
            .uploads()
            .slice(uploads)
            .find((u) => u.filename.endsWith('.csv') && u.bytes !== undefined && u.shares.length > 0),
        10_000,
        'the audit CSV',
      );
      const rows: Record<string, string>[] = parse(file.bytes!.toString('utf8'), { columns: true });
      const ours = rows.filter((row) => row.subject_id === quoteId(waiting));
      expect(Object.keys(ours[0]!).at(-1)).toBe('second_factor');
      expect(ours.slice(0, 3).map((row) => [row.event, row.second_factor])).toEqual([
        ['requested', ''],
        ['approved', 'yes'],
        ['swap_created', ''],
      ]);
      expect(ours.filter((row) => row.second_factor === 'yes')).toHaveLength(1);
    },
  );

  it.skipIf(skip)('a code works once: the same code on another quote is refused', async () => {
    const first = await quote();
    const second = await quote();
    const code = freshCode(BLAKE);
    expect(await submit(await openDialog(first, BLAKE), BLAKE, code)).toBeNull();
    await waitUntilAsync(
      async () => ((await record(first)).approvals?.length ? true : undefined),
      'the first approval',
    );
    const replayed = await submit(await openDialog(second, BLAKE), BLAKE, code);
    expect(replayed).toEqual({
      response_action: 'errors',
      errors: { step_up_code: expect.stringContaining('That code was used already') },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await record(second)).status).toBe('pending');
  });

  it.skipIf(skip)(
    'five wrong codes lock (a line in ALERT_CHANNEL); a locked approver is told until when, and no dialog opens',
    async () => {
      const waiting = await quote();
      const dialog = await openDialog(waiting, DREW);
      for (let i = 0; i < 4; i++)
        expect(await submit(dialog, DREW, '111111')).toMatchObject({ response_action: 'errors' });
      const fifth = (await submit(dialog, DREW, '111111')) as { errors: Record<string, string> };
      expect(fifth.errors.step_up_code).toMatch(/locked until/);
      const line = await slack.waitFor(
        () => slack.messages(ALERTS).find((m) => (m.text ?? '').includes("<@U0DREW>'s approvals are locked")),
        10_000,
        'the lock line',
      );
      expect(line.text).toContain('locked for 15 minutes after 5 wrong codes');
      // Even the right code is refused while locked.
      expect(await submit(dialog, DREW, freshCode(DREW))).toMatchObject({ response_action: 'errors' });
      const again = await clickApprove(waiting, DREW);
      expect(await again.told()).toMatch(/locked until \d{4}-\d\d-\d\d \d\d:\d\d UTC.*Your approval was not counted/);
      expect(again.opened()).toBe(0);
      expect((await record(waiting)).approvals).toEqual([]);
    },
  );

  it.skipIf(skip)('an approver who is not enrolled is told how to enrol; nothing counts', async () => {
    const waiting = await quote();
    const click = await clickApprove(waiting, CASEY);
    const told = await click.told();
    expect(told).toContain('`/treasury 2fa enroll`');
    expect(told).toContain('the quote waits for an approver who has a code');
    expect(click.opened()).toBe(0);
    expect((await record(waiting)).approvals).toEqual([]);
  });

  it.skipIf(skip)('someone who is not an approver is never asked for a code', async () => {
    const waiting = await quote();
    const click = await clickApprove(waiting, BYSTANDER);
    expect(await click.told()).toContain('Only the swap approvers');
    expect(click.opened()).toBe(0);
  });

  it.skipIf(skip)(
    'nothing counts without a code: a closed dialog, an empty or altered submission, an Approve that reaches the decision without one',
    async () => {
      const waiting = await quote();
      simulator.resetRequests();
      const dialog = await openDialog(waiting, AVERY);
      expect((await replica.driver.closeView(dialog, { userId: AVERY })).status).toBe(200);
      expect(await submit(dialog, AVERY, '')).toMatchObject({ response_action: 'errors' });
      const altered = await replica.driver.submitView(
        { ...dialog, view: { ...dialog.view, private_metadata: '{"q":"x","c":"C0TREASURY","m":"1.1"}' } },
        { userId: AVERY, values: { step_up_code: { code: freshCode(AVERY) } } },
      );
      expect(altered).toMatchObject({ response_action: 'update' });
      expect(JSON.stringify(altered)).toContain('nothing was approved');
      // A click that reaches the decision by another way (a crafted payload, an older listener): refused there.
      const direct = await replica.treasury.swaps.decide(quoteId(waiting), AVERY, 'approve', {
        channelId: CHANNEL,
        messageTs: waiting.ts,
      });
      expect(direct.notice).toContain('needs a code from your authenticator app');
      const stored = await record(waiting);
      expect(stored.status).toBe('pending');
      expect(stored.approvals).toEqual([]);
      expect(stored.history.map((e) => e.event)).toEqual(['quoted']);
      await expectStaysAt(0, () => creates(), 300);
    },
  );

  it.skipIf(skip)('a small quote under the threshold approves as before, with no dialog and no mark', async () => {
    // Asked for by someone with no other swaps of the last 24 hours: REQUESTER's waiting quotes would count with it.
    const waiting = await quote('100', 'U0NEWCOMER');
    const click = await clickApprove(waiting, AVERY);
    await waitUntilAsync(async () => ((await record(waiting)).status === 'created' ? true : undefined), 'the swap');
    expect(click.opened()).toBe(0);
    expect((await record(waiting)).approvals).toEqual([{ userId: AVERY, at: expect.any(String) }]);
  });

  it.skipIf(skip)('a quote whose USD value is unknown needs a code', async () => {
    simulator.setAssetBalance(simulator.ids.assets.usdtEth, 1n); // a dust balance valued at $0.00: no price
    try {
      const waiting = await quote('100');
      expect((await record(waiting)).policy?.value).toMatchObject({ unknown: 'zero_usd' });
      const dialog = await openDialog(waiting, BLAKE);
      expect(blocksToText(dialog.view.blocks as unknown[])).toContain('USD value is unknown');
      expect((await record(waiting)).approvals).toEqual([]);
    } finally {
      // The seeded balance, as test/slack/swap-value-and-window.test.ts restores it.
      simulator.setAssetBalance(simulator.ids.assets.usdtEth, 152_340_250_000n);
    }
  });

  it.skipIf(skip)(
    'a quote frozen while the dialog is open refuses even a valid code (the code is used up); the freeze first',
    async () => {
      const waiting = await quote();
      simulator.resetRequests();
      const dialog = await openDialog(waiting, AVERY);
      await replica.store.freeze.freeze({ by: ADMIN, at: now(), reason: 'leaked token' });
      try {
        const since = mark();
        const code = freshCode(AVERY);
        expect(await submit(dialog, AVERY, code)).toBeNull();
        expect(await toldPrivately(AVERY, /Your approval was not counted; the quote waits/, since)).toContain(
          'Money is frozen',
        );
        expect((await record(waiting)).approvals).toEqual([]);
        // While frozen, Approve refuses at once: no code is asked for.
        const click = await clickApprove(waiting, BLAKE);
        expect(await click.told()).toContain('Money is frozen');
        expect(click.opened()).toBe(0);
        await replica.store.freeze.voteUnfreeze({ by: ADMIN, at: now() }, 1);
        // The code was used up on the refused submission.
        const again = await openDialog(waiting, AVERY);
        expect(await submit(again, AVERY, code)).toMatchObject({
          errors: { step_up_code: expect.stringContaining('used already') },
        });
        expect((await record(waiting)).status).toBe('pending');
        expect(creates()).toBe(0);
      } finally {
        await replica.store.freeze.voteUnfreeze({ by: ADMIN, at: now() }, 1);
      }
    },
  );

  it.skipIf(skip)(
    "a slow group lookup: the dialog opens anyway within the click's 3 s, and the submission judges it fully",
    async () => {
      // Past the group cache's five minutes: this click has to ask Slack, which takes 2.5 s this time.
      simulator.advanceTime(6 * 60_000);
      const waiting = await quote();
      slack.failNext('usergroups.users.list', { delayMs: 2_500 });
      const started = Date.now();
      const dialog = await openDialog(waiting, ELLIS);
      const openedAfterMs = Date.now() - started;
      expect(openedAfterMs).toBeLessThan(2_500);
      expect(await submit(dialog, ELLIS, freshCode(ELLIS))).toBeNull();
      const approved = await waitUntilAsync(
        async () => ((await record(waiting)).status === 'created' ? record(waiting) : undefined),
        'the swap created',
      );
      expect(approved.approvals).toEqual([{ userId: ELLIS, at: expect.any(String), secondFactor: true }]);
    },
  );

  it.skipIf(skip || name !== 'PostgreSQL')(
    'two replicas: a dialog opened by one is submitted to the other; the code then works on neither again',
    async () => {
      const first = await quote();
      const second = await quote();
      const other = await start('b');
      try {
        const dialog = await openDialog(first, BLAKE);
        const code = freshCode(BLAKE);
        // Slack may send the submission to any replica.
        expect(await other.driver.submitView(dialog, { userId: BLAKE, values: { step_up_code: { code } } })).toBeNull();
        const approved = await waitUntilAsync(
          async () => ((await record(first)).status === 'created' ? record(first) : undefined),
          'the swap created',
        );
        expect(approved.approvals).toEqual([{ userId: BLAKE, at: expect.any(String), secondFactor: true }]);
        const again = await openDialog(second, BLAKE);
        for (const target of [replica, other])
          expect(
            await target.driver.submitView(again, { userId: BLAKE, values: { step_up_code: { code } } }),
          ).toMatchObject({ errors: { step_up_code: expect.stringContaining('used already') } });
        expect((await record(second)).approvals).toEqual([]);
      } finally {
        await other.close();
      }
    },
  );
});
