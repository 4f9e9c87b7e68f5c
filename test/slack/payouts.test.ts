// `/treasury payout create` over signed HTTP against the Slack stand-in and the payment simulator: a private proposal
// with a confirm dialog, one create-payout after the requester confirms (never a second, never a retry), the
// service's unknown answers read as created, refusals in plain words, a lost answer as "the outcome is unknown";
// and `/treasury payouts <payout-id>` listing one container's tasks.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newPayoutRequest, type PayoutRequest } from '../../src/features/payouts/rules.js';
import { createLogger } from '../../src/logger.js';
import { findButtons } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { type Answer, ask as askAs, click as clickAs } from '../support/slack.js';
import { expectStaysAt, waitUntil } from '../support/waiting.js';

const RILEY = 'U0RILEY'; // a treasury user, who asks for the payouts
const AVERY = 'U0AVERY'; // another treasury user
const SAM = 'U0SAM'; // not on the treasury team

let stack: LocalStack;
const logLines: string[] = [];
beforeAll(async () => {
  stack = await startLocalStack({
    env: { TREASURY_USERS: `${RILEY},${AVERY}` },
    logger: createLogger('debug', (line) => logLines.push(line)),
    // A create that hangs is given up after this long ("the outcome is unknown"); reads stay well within it.
    paymentsTimeoutMs: 1_500,
  });
});
afterAll(() => stack.close());
beforeEach(() => {
  stack.simulator.resetRequests();
  stack.simulator.clearFaults();
  stack.simulator.answerCreatePayoutWith('full');
});

/** Riley types `/treasury <text>`. */
const ask = (text: string) => askAs(stack, text, { userId: RILEY });
/** A click on an earlier answer, by Riley unless someone else is named. */
const click = (answer: Answer, actionId: string, options: { userId?: string } = {}) =>
  clickAs(stack, answer, actionId, { userId: options.userId ?? RILEY });
const creates = () => stack.simulator.requestCount('createPayout');
const requestIdOf = (answer: Answer) =>
  findButtons(answer.reply.blocks).find((b) => b.actionId === 'payout_create')!.value!;
const stored = (answer: Answer) => stack.store.payouts.getRequest(requestIdOf(answer));
/** The text of the confirm dialog behind Create payout. */
const dialogText = (answer: Answer) => (answer.buttons[0]!.confirm as { text: { text: string } }).text.text;
const propose = (name = '"November affiliates"', asset = 'USDT@BSC') => ask(`payout create ${asset} ${name}`);

describe('/treasury payout create: the proposal', () => {
  it('answers privately with the asset and the name, Create payout behind a confirm dialog, and Cancel; nothing is sent', async () => {
    const answer = await propose('“November affiliates”');
    expect(answer.reply.responseType).toBe('ephemeral');
    expect(answer.text).toContain('Create a payout container?');
    expect(answer.text).toContain('*Asset:* *USDT* on BNB Smart Chain (BSC)');
    expect(answer.text).toContain('*Name:* November affiliates');
    const [create, cancel] = answer.buttons;
    expect([create?.text, cancel?.text]).toEqual(['Create payout', 'Cancel']);
    expect(create?.confirm).toEqual({
      title: { type: 'plain_text', text: 'Create this payout container?' },
      text: {
        type: 'plain_text',
        text: 'Create an empty payout container for USDT@BSC (BNB Smart Chain) named “November affiliates”. No money moves until tasks are added to it.',
      },
      confirm: { type: 'plain_text', text: 'Create payout' },
      deny: { type: 'plain_text', text: 'Not yet' },
    });
    expect(stack.slack.rejections).toEqual([]);
    expect(creates()).toBe(0);
    expect(await stored(answer)).toMatchObject({
      status: 'proposed',
      requestedBy: RILEY,
      name: 'November affiliates',
      asset: { symbol: 'USDT', networkSymbol: 'BSC' },
    });
  });

  it('a hostile name is escaped in the message, literal in the dialog; a 255-character name is clipped there to fit 300', async () => {
    const hostile = await propose('"<!channel> R&D *pay*"');
    expect(hostile.text).toContain('*Name:* &lt;!channel&gt; R&amp;D *pay*');
    expect(hostile.text).not.toContain('<!channel>');
    expect(dialogText(hostile)).toContain('“<!channel> R&D *pay*”');

    const longName = `Q4 ${'x'.repeat(252)}`;
    const long = await propose(`"${longName}"`);
    const dialog = dialogText(long);
    expect(dialog.length).toBeLessThanOrEqual(300);
    expect(dialog).toMatch(/^Create an empty payout container for USDT@BSC \(BNB Smart Chain\) named “Q4 x+…”/);
    expect((await stored(long))?.name).toBe(longName);
    expect(stack.slack.rejections).toEqual([]);
  });

  it.each([
    ['payout create USDT@BSC ""', 'The payout needs a name'],
    ['payout create USDT@BSC "   "', 'The payout needs a name'],
    ['payout create USDT@BSC', 'Give the asset and a name in quotes'],
    [`payout create USDT@BSC "${'n'.repeat(256)}"`, 'The name is 256 characters long; give at most 255.'],
    ['payout USDT@BSC "Bonuses"', 'say `payout create`'],
  ])('%s is refused in plain words before any API call', async (text, words) => {
    const answer = await ask(text);
    expect(answer.text).toContain(words);
    expect(answer.text).toContain('Usage: `/treasury payout create &lt;asset&gt; "&lt;name&gt;"`');
    expect(stack.simulator.requestCount()).toBe(0);
  });

  it('an unknown asset lists the candidates; help lists the command in its group, and `help payout` its usage', async () => {
    const answer = await propose('"Bonuses"', 'DOGE');
    expect(answer.text).toContain('No asset "DOGE" for this merchant.');
    expect(creates()).toBe(0);
    expect((await ask('help')).text).toContain('*Move money* — `swap` · `swaps` · `policy` · `payout`');
    expect((await ask('help payout')).text).toContain('/treasury payout create &lt;asset&gt; "&lt;name&gt;"');
  });
});

describe('Create payout: one create-payout, its answer read tolerantly', () => {
  it('replaces the proposal with the payout id and where its tasks are listed; one POST, recorded', async () => {
    const proposal = await propose();
    const outcome = await click(proposal, 'payout_create');
    expect(outcome.reply.replaceOriginal).toBe(true);
    const [container] = stack.simulator
      .payoutContainers()
      .filter((p) => p.name === 'November affiliates')
      .slice(-1);
    expect(outcome.text).toContain('Payout container created.');
    expect(outcome.text).toContain(`*Payout id:* \`${container!.id}\``);
    expect(outcome.text).toContain(`\`/treasury payouts ${container!.id}\` lists its tasks`);
    expect(outcome.text).toContain('*Status*\nnew');
    expect(outcome.text).toContain(`Confirmed by <@${RILEY}>`);
    expect(outcome.buttons).toEqual([]);
    expect(stack.simulator.requests.find((r) => r.operation === 'createPayout')?.body).toEqual({
      assetId: stack.simulator.ids.assets.usdtBsc,
      name: 'November affiliates',
    });
    await expectStaysAt(1, creates);
    const record = await stored(proposal);
    expect(record).toMatchObject({ status: 'created', payoutId: container!.id, confirmedBy: RILEY });
    expect(record?.history.map((e) => e.event)).toEqual(['requested', 'confirmed', 'created']);
  });

  it.each([
    ['an empty 200 body', 'empty' as const],
    ['a body without an id', 'no_id' as const],
  ])('%s: "Payout created (the service\'s answer named no id)"', async (_what, answer) => {
    stack.simulator.answerCreatePayoutWith(answer);
    const proposal = await propose('"Year-end bonuses"');
    const outcome = await click(proposal, 'payout_create');
    expect(outcome.text).toContain("Payout created (the service's answer named no id).");
    expect(outcome.text).toContain('*Name:* Year-end bonuses');
    if (answer === 'no_id') expect(outcome.text).toContain('*Status*\nnew');
    expect(outcome.text).not.toContain('/treasury payouts ');
    await expectStaysAt(1, creates);
    expect(await stored(proposal)).toMatchObject({ status: 'created', history: expect.any(Array) });
    expect((await stored(proposal))?.history.at(-1)?.detail).toBe('no id in the answer');
  });

  it('a double click sends one create-payout: the other click is told and sends nothing', async () => {
    const proposal = await propose('"Twice clicked"');
    const message = { ts: '1700000000.000100', blocks: proposal.reply.blocks ?? [] };
    const clicks = await Promise.all([
      stack.driver.clickButtonIn(message, 'payout_create', { userId: RILEY }),
      stack.driver.clickButtonIn(message, 'payout_create', { userId: RILEY }),
    ]);
    const replies = (await Promise.all(clicks.map((c) => c.waitForResponses(1)))).map(([reply]) => reply!);
    expect(replies.filter((r) => r.replaceOriginal === true)).toHaveLength(1);
    const notice = replies.find((r) => r.replaceOriginal !== true);
    expect(notice?.text).toMatch(/being created by an earlier click|was created already/);
    await expectStaysAt(1, creates);
  });

  it('a click by another treasury user, or by someone outside the team, sends nothing', async () => {
    const proposal = await propose('"Not yours"');
    const other = await click(proposal, 'payout_create', { userId: AVERY });
    expect(other.text).toContain('Only the person who asked for this payout container can confirm or cancel it.');
    expect(other.reply.replaceOriginal).toBe(false);
    const outsider = await click(proposal, 'payout_create', { userId: SAM });
    expect(outsider.text).toContain('limited to the treasury team');
    await expectStaysAt(0, creates);
    expect((await stored(proposal))?.status).toBe('proposed');
  });

  it('400: the service’s message in plain words, nothing created; 403: the key lacks can_payout; 401: the key is invalid', async () => {
    stack.simulator.injectFault('createPayout', {
      status: 400,
      body: { success: false, message: 'Asset not found', statusCode: 400, errors: [] },
    });
    const refused = await click(await propose('"Refused"'), 'payout_create');
    expect(refused.text).toContain(':x: No payout was created. The payment service refused it: Asset not found.');

    stack.simulator.injectFault('createPayout', { status: 403 });
    const forbidden = await propose('"Forbidden"');
    const noPermission = await click(forbidden, 'payout_create');
    expect(noPermission.text).toContain('The payment API key lacks the `can_payout` permission.');
    expect((await stored(forbidden))?.status).toBe('refused');

    stack.simulator.injectFault('createPayout', { status: 401 });
    const unauthorized = await click(await propose('"Bad key"'), 'payout_create');
    expect(unauthorized.text).toContain("rejected the bot's API key (it is invalid)");
    await expectStaysAt(3, creates);
  });

  it('no answer (a timeout): "the outcome is unknown", exactly one POST, never retried; the log has the detail, not the key', async () => {
    stack.simulator.answerCreatePayoutWith('hang');
    const proposal = await propose('"Held open"');
    const outcome = await click(proposal, 'payout_create');
    expect(outcome.text).toContain(
      'The outcome is unknown — the service may have created the payout. Check before retrying.',
    );
    expect(outcome.text).toContain('Look for a payout named “Held open” in the payment dashboard');
    expect(await stored(proposal)).toMatchObject({ status: 'outcome_unknown' });
    await expectStaysAt(1, creates);
    // The service did make it: that is why nobody may simply try again.
    expect(stack.simulator.payoutContainers().some((p) => p.name === 'Held open')).toBe(true);
    const again = await click(proposal, 'payout_create');
    expect(again.text).toContain('The outcome of this payout is unknown');
    await expectStaysAt(1, creates);
    const logged = logLines.join('\n');
    expect(logged).toContain('create-payout failed');
    expect(logged).toContain('ETIMEDOUT');
    expect(logged).not.toContain(stack.simulator.apiKey);
  });

  it('a 5xx after sending is "the outcome is unknown" too', async () => {
    stack.simulator.injectFault('createPayout', { status: 502 });
    const proposal = await propose('"Bad gateway"');
    const outcome = await click(proposal, 'payout_create');
    expect(outcome.text).toContain('The outcome is unknown');
    await expectStaysAt(1, creates);
  });
});

describe('Cancel, expiry and a send left unfinished', () => {
  it('Cancel ends the proposal: nothing created, and Create payout afterwards sends nothing', async () => {
    const proposal = await propose('"Changed my mind"');
    const cancelled = await click(proposal, 'payout_cancel');
    expect(cancelled.reply.replaceOriginal).toBe(true);
    expect(cancelled.text).toContain('Cancelled: no payout was created.');
    const late = await click(proposal, 'payout_create');
    expect(late.text).toContain('This payout proposal was cancelled; nothing was created.');
    await expectStaysAt(0, creates);
    expect((await stored(proposal))?.history.map((e) => e.event)).toEqual(['requested', 'cancelled']);
  });

  it('a proposal confirmed after 15 minutes expires: run the command again; nothing is sent', async () => {
    const proposal = await propose('"Too slow"');
    stack.simulator.advanceTime(16 * 60_000);
    const outcome = await click(proposal, 'payout_create');
    expect(outcome.text).toContain('This proposal expired: it was not confirmed within 15 minutes');
    expect(outcome.text).toContain('Run the command again.');
    await expectStaysAt(0, creates);
    expect((await stored(proposal))?.status).toBe('expired');
  });

  it('a request left sending by a bot that stopped mid-call is not clickable: the outcome is unknown, nothing is sent', async () => {
    const confirmedAt = new Date(stack.simulator.now() - 5 * 60_000);
    const left: PayoutRequest = {
      ...newPayoutRequest({
        id: '0f0e0d0c-0b0a-4908-8706-050403020100',
        requestedBy: RILEY,
        requestedAt: new Date(confirmedAt.getTime() - 60_000),
        channelId: 'C_TREASURY',
        asset: { assetId: 'a', symbol: 'USDT', networkSymbol: 'BSC', networkTitle: 'BNB Smart Chain', decimals: 18 },
        name: 'Interrupted',
      }),
      status: 'sending',
      confirmedBy: RILEY,
      confirmedAt: confirmedAt.toISOString(),
    };
    await stack.store.payouts.saveRequest(left);
    const result = await stack.driver.clickButton({
      userId: RILEY,
      actionId: 'payout_create',
      value: left.id,
      message: { ts: '1700000000.000200', blocks: [] },
    });
    const [reply] = await result.waitForResponses(1);
    expect(reply?.replaceOriginal).toBe(true);
    expect(reply?.text).toContain('The outcome is unknown');
    const record = await stack.store.payouts.getRequest(left.id);
    expect(record?.status).toBe('outcome_unknown');
    expect(record?.failure).toContain('The bot stopped while it waited for the payment service');
    await expectStaysAt(0, creates);
  });

  it('a button value that is not a request id is refused in plain words', async () => {
    const result = await stack.driver.clickButton({
      userId: RILEY,
      actionId: 'payout_create',
      value: 'constructor',
    });
    const [reply] = await result.waitForResponses(1);
    expect(reply?.text).toContain('This button carries data the bot cannot use');
    expect(creates()).toBe(0);
  });
});

describe('/treasury payouts <payout-id>', () => {
  it('lists the tasks of one container: none yet, then its tasks, page by page with the filter kept', async () => {
    const outcome = await click(await propose('"Listed"'), 'payout_create');
    const payoutId = /\/treasury payouts ([0-9a-f-]{36})/.exec(outcome.text)![1]!;
    const empty = await ask(`payouts ${payoutId}`);
    expect(empty.text).toContain(`Payout tasks · payout ${payoutId}`);
    expect(empty.text).toContain('No tasks in this payout yet.');
    expect(stack.simulator.requests.find((r) => r.operation === 'listPayoutTasks')?.query).toMatchObject({ payoutId });

    for (let i = 0; i < 30; i++) stack.simulator.addPayoutTask({ payoutId, status: i < 3 ? 'failed' : 'success' });
    const first = await ask(`payouts ${payoutId.toUpperCase()}`);
    expect(first.text).toContain(`Payout tasks · payout ${payoutId}`);
    expect(first.text.match(/targets/g)).toHaveLength(25);
    stack.simulator.resetRequests();
    const next = await click(first, 'payouts_page');
    expect(next.text).toContain(`Payout tasks · payout ${payoutId}`);
    expect(next.text.match(/targets/g)).toHaveLength(5);
    expect(next.text).toContain('That is all.');

    const failed = await ask(`payouts failed ${payoutId} USDT@BSC`);
    expect(failed.text).toContain(`Payout tasks · payout ${payoutId} · failed · USDT@BSC`);
    expect(failed.text.match(/targets/g)).toHaveLength(3);
    const pending = await ask(`payouts pending ${payoutId}`);
    expect(pending.text).toContain('No tasks of this payout match.');
  });

  it('a UUID that is an asset id still filters by that asset', async () => {
    const answer = await ask(`payouts ${stack.simulator.ids.assets.usdtBsc}`);
    expect(answer.text).toContain('Payout tasks · USDT@BSC');
    const query = await waitUntil(
      () => stack.simulator.requests.find((r) => r.operation === 'listPayoutTasks')?.query,
      'the task list request',
    );
    expect(query).toMatchObject({ assetId: stack.simulator.ids.assets.usdtBsc });
    expect(query).not.toHaveProperty('payoutId');
  });
});
