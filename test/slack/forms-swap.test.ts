/**
 * The swap form end to end: the real app (createTreasuryApp, in this process), the payment API simulator over HTTP
 * and the Slack stand-in, every command, keystroke and submission sent as Slack sends it (signed HTTP).
 * `/treasury swap` with no arguments opens the form with the command's trigger even when the asset list is slow;
 * the preview shows the tier and approvals the quote will need under the swap policy, whether approving needs a
 * code, and the balance left, and follows the amount as it changes; a too-precise or zero amount is refused under
 * the field with no API call; a submission sent twice makes one quote, posted in the channel with its Approve
 * button and noted on the command's response_url; the Home tab's New swap button opens it with a channel menu; while
 * money is frozen the form opens but its submission is refused under the field in the freeze's words.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksToText } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { currentView, SWAP_FORM, swapFormEntry, viewText, waitForForm } from '../support/rig/swap-form.js';
import { ask, toAnswer } from '../support/slack.js';

const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const CHANNEL = 'C0TREASURY';
const F = SWAP_FORM;

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({
    env: {
      SWAP_APPROVERS: APPROVER,
      SWAP_POLICY: '0:1,10000:2',
      SWAP_STEP_UP_USD: '5000',
      TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
  });
});
afterAll(() => stack?.close());
beforeEach(() => {
  stack.simulator.resetRequests();
  stack.slack.reset();
});

const calls = (operation: 'estimateSwap' | 'createSwap') =>
  stack.simulator.requests.filter((r) => r.operation === operation);
const current = (id: string) => currentView(stack.slack, id);
const formShowing = (id: string, pattern: RegExp) => waitForForm(stack.slack, id, pattern);

/** `/treasury swap` alone, typed in the treasury channel: the command's result and the form opened with its trigger. */
async function openSwapForm() {
  const result = await stack.driver.command('swap', { userId: REQUESTER, channelId: CHANNEL });
  expect(result.status).toBe(200);
  const form = await stack.slack.waitFor(() => stack.slack.views()[0], 5_000, 'the swap form opened');
  return { result, form };
}

const entered = (amount: string) => swapFormEntry(stack.simulator, amount);

describe('the swap form', () => {
  it('opens with the command’s trigger even when the asset list takes 2.5 s, then fills in both menus', async () => {
    stack.simulator.injectFault('listAssets', { delayMs: 2_500 });
    const started = Date.now();
    const { form } = await openSwapForm();
    expect(stack.slack.callsOf('views.open')).toHaveLength(1);
    expect(form.openedAt - started).toBeLessThan(3_000);
    expect(form.view.callback_id).toBe('form_swap');
    expect(viewText(form)).toContain('Reading the merchant’s assets and balances');
    const filled = await formShowing(form.id, /USDT on [^·]+ · [\d,.]+ available/);
    expect(stack.slack.callsOf('views.update')[0]?.args).toMatchObject({ view_id: form.id, hash: form.hash });
    const blocks = filled.view.blocks as Array<{ block_id?: string; element?: { type?: string } }>;
    expect(blocks.filter((b) => b.element?.type === 'static_select').map((b) => b.block_id)).toEqual([F.from, F.to]);
    // Opened from a channel: the quote goes there, so no channel menu.
    expect(blocks.some((b) => b.block_id === F.channel)).toBe(false);
  });

  it('shows the tier, the approvals, the second factor and the balance left, and follows the amount', async () => {
    const { form } = await openSwapForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    await stack.driver.useInView(ready, F.amount, F.amount, {
      values: entered('1,000'),
      trigger: 'on_character_entered',
      userId: REQUESTER,
    });
    const small = viewText(await formShowing(form.id, /Needs \*one approval\*/));
    expect(small).toContain('Asks for a quote to swap *1,000 USDT* on Ethereum (ETH) into USDC on Ethereum (ETH)');
    expect(small).toContain('In base units: `1000000000` (USDT has 6 decimals)');
    expect(small).toContain('Worth about *$1,000*');
    expect(small).toContain('Needs *one approval* from the swap approvers (tier 1 of 2, from $0)');
    expect(small).toContain('Approving it needs no code (codes are asked from $5,000)');
    expect(small).toContain('Balance left of USDT on Ethereum (ETH): 151,340.25 USDT');
    expect(small).toContain(`The quote is posted in <#${CHANNEL}>`);

    await stack.driver.useInView(current(form.id), F.amount, F.amount, {
      values: entered('20,000'),
      trigger: 'on_character_entered',
      userId: REQUESTER,
    });
    const large = viewText(await formShowing(form.id, /Needs \*2 distinct approvals\*/));
    expect(large).toContain('Worth about *$20,000*');
    expect(large).toContain('(tier 2 of 2, from $10,000)');
    expect(large).toContain('Approving it needs a code from an authenticator app (approvals from $5,000 do)');
    expect(large).toContain('Balance left of USDT on Ethereum (ETH): 132,340.25 USDT');
    // Looking estimates nothing.
    expect(calls('estimateSwap')).toHaveLength(0);
  });

  it('says a code is needed when the swap with the requester’s others of the last 24 hours reaches the threshold', async () => {
    const splitter = 'U0SPLITTER';
    const typed = await stack.driver.command('swap 4,000 USDT@ETH to USDC@ETH', {
      userId: splitter,
      channelId: CHANNEL,
    });
    const [note] = await typed.waitForResponses(1, 10_000);
    expect(note?.text).toContain('Quote posted');
    stack.slack.reset();
    const opened = await stack.driver.command('swap', { userId: splitter, channelId: CHANNEL });
    expect(opened.status).toBe(200);
    const form = await stack.slack.waitFor(() => stack.slack.views()[0], 5_000, 'the swap form opened');
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    await stack.driver.useInView(ready, F.amount, F.amount, {
      values: entered('3,000'),
      trigger: 'on_character_entered',
      userId: splitter,
    });
    const text = viewText(await formShowing(form.id, /Approving it needs/));
    // $3,000 alone is under the $5,000 threshold; with the waiting $4,000 quote it is $7,000.
    expect(text).toContain(
      'Approving it needs a code from an authenticator app (approvals from $5,000 do): with your $4,000 swap today this makes $7,000: a code is needed',
    );
    // The waiting quote rejected by its requester: the tests after this one expect no other waiting quote.
    const [waiting] = (await stack.store.swapQuotes.listQuotesByStatus('pending')).filter(
      (quote) => quote.requestedBy === splitter,
    );
    await stack.treasury.swaps.decide(waiting!.id, splitter, 'reject', {
      channelId: waiting!.channelId,
      messageTs: waiting!.messageTs!,
    });
    expect((await stack.store.swapQuotes.getQuote(waiting!.id))?.status).toBe('rejected');
  });

  it.each([
    ['1.1234567', /decimal/],
    ['0', /greater than zero/],
  ])('refuses the amount %j under the field, with no API call', async (amount, reason) => {
    const { form } = await openSwapForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    stack.simulator.resetRequests();
    const answer = await stack.driver.submitView(ready, { values: entered(amount), userId: REQUESTER });
    expect(answer).toMatchObject({ response_action: 'errors', errors: { [F.amount]: expect.stringMatching(reason) } });
    expect(JSON.stringify(answer)).not.toMatch(/&quot;|&amp;|&lt;|`/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls('estimateSwap')).toHaveLength(0);
    expect(stack.slack.messages(CHANNEL)).toHaveLength(0);
  });

  it('refuses the same asset twice under the second menu', async () => {
    const { form } = await openSwapForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    const values = { ...entered('10'), [F.to]: { [F.to]: stack.simulator.ids.assets.usdtEth } };
    expect(await stack.driver.submitView(ready, { values, userId: REQUESTER })).toMatchObject({
      response_action: 'errors',
      errors: { [F.to]: 'The two assets are the same: pick two different assets to swap.' },
    });
  });

  it('makes one quote when Slack sends the submission twice: posted with its Approve button, noted on the response_url', async () => {
    const { result, form } = await openSwapForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    const values = entered('1,000');
    const [first, second] = await Promise.all([
      stack.driver.submitView(ready, { values, userId: REQUESTER }),
      stack.driver.submitView(ready, { values, userId: REQUESTER }),
    ]);
    expect([first, second]).toEqual([null, null]);
    const [reply] = await result.waitForResponses(1);
    expect(toAnswer(result, reply!).text).toContain('Quote posted');
    const quote = await stack.slack.waitFor(() => stack.slack.messages(CHANNEL)[0], 5_000, 'the quote');
    expect(JSON.stringify(quote.blocks)).toContain('"action_id":"swap_approve"');
    expect(blocksToText((quote.blocks as unknown[]) ?? [])).toMatch(/1,000 USDT/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls('estimateSwap')).toHaveLength(1);
    expect(calls('estimateSwap')[0]?.body).toMatchObject({ amount: '1000000000' });
    expect(stack.slack.messages(CHANNEL)).toHaveLength(1);
    expect(result.responses()).toHaveLength(1);
    expect(await stack.store.swapQuotes.listQuotesByStatus('pending')).toHaveLength(1);
  });

  it('the Home tab’s New swap button opens it with a channel menu, and the quote goes to the channel chosen', async () => {
    await stack.driver.openHome(REQUESTER);
    const home = await stack.slack.waitFor(() => stack.slack.homeView(REQUESTER), 5_000, 'the Home tab');
    expect((await stack.driver.clickInHome(home, 'home_new_swap')).status).toBe(200);
    const form = await stack.slack.waitFor(() => stack.slack.views()[0], 5_000, 'the form opened');
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    expect(viewText(ready)).toContain('Post the quote in');
    expect(await stack.driver.submitView(ready, { values: entered('25'), userId: REQUESTER })).toMatchObject({
      response_action: 'errors',
      errors: { [F.channel]: expect.stringContaining('Choose the channel') },
    });
    expect(
      await stack.driver.submitView(ready, {
        values: { ...entered('25'), [F.channel]: { [F.channel]: CHANNEL } },
        userId: REQUESTER,
      }),
    ).toBeNull();
    const quote = await stack.slack.waitFor(() => stack.slack.messages(CHANNEL)[0], 5_000, 'the quote');
    expect(blocksToText((quote.blocks as unknown[]) ?? [])).toMatch(/25 USDT/);
    // The requester's note comes by direct message (a Home click has no response_url).
    await stack.slack.waitFor(
      () => stack.slack.messages().find((m) => m.channel.startsWith('D') && /Quote posted/.test(JSON.stringify(m))),
      5_000,
      'the note in a direct message',
    );
  });

  it('the typed command is unchanged: `swap 1,000 USDT@ETH to USDC@ETH` posts a quote without a form', async () => {
    const answer = await ask(stack, 'swap 1,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL });
    expect(answer.text).toContain('Quote posted');
    expect(stack.slack.callsOf('views.open')).toHaveLength(0);
  });

  it('in a direct message it refuses as the typed command does, without a form', async () => {
    const answer = await ask(stack, 'swap', { userId: REQUESTER, channelId: 'D0REQUESTER' });
    expect(answer.text).toMatch(/this is a direct message/);
    expect(stack.slack.callsOf('views.open')).toHaveLength(0);
  });

  it('while money is frozen the form opens, says so, and its submission is refused under the field', async () => {
    const pulled = await ask(stack, 'freeze testing the swap form', { userId: APPROVER, channelId: CHANNEL });
    expect(pulled.text).toMatch(/frozen/i);
    const { form } = await openSwapForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    await stack.driver.useInView(ready, F.amount, F.amount, {
      values: entered('10'),
      trigger: 'on_character_entered',
      userId: REQUESTER,
    });
    expect(viewText(await formShowing(form.id, /No quote was made/))).toContain('Money is frozen by');
    stack.simulator.resetRequests();
    const answer = await stack.driver.submitView(current(form.id), { values: entered('10'), userId: REQUESTER });
    expect(answer).toMatchObject({
      response_action: 'errors',
      errors: {
        [F.amount]: expect.stringMatching(/^Money is frozen by @U0APPROVER .*testing the swap form.*No quote was made/),
      },
    });
    expect(calls('estimateSwap')).toHaveLength(0);
  });
});
