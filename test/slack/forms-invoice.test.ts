/**
 * The invoice and threshold forms end to end: the real app (createTreasuryApp, in this process), the payment API
 * simulator over HTTP and the Slack stand-in, every command, click, keystroke and submission sent as Slack sends
 * it (signed HTTP). `/treasury invoice` with no arguments opens the form with the command's trigger even when the
 * asset list is slow (filled in after with views.update); choosing and typing update the preview (views.update with
 * the view's hash); a wrong amount is refused under the field in plain words with no API call; a submission creates
 * exactly one invoice even when Slack sends it twice; the Home tab's New invoice button and the global shortcut open
 * the same form; `/treasury threshold` opens the threshold form, whose preview weighs the balance now against the
 * level and whose submission sets it through the typed command's service.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksToText } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import type { OpenedView } from '../support/rig/slack-stand-in.js';
import { toAnswer } from '../support/slack.js';

const ALICE = 'U_ALICE';
/** A treasury admin (TREASURY_ADMINS): only admins set thresholds. */
const ADMIN = 'U0ADMIN';
const F = {
  pricing: 'form_invoice_pricing',
  asset: 'form_invoice_asset',
  amount: 'form_invoice_amount',
  title: 'form_invoice_title',
};

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({ env: { TREASURY_ADMINS: ADMIN } });
});
afterAll(() => stack?.close());
beforeEach(() => {
  stack.simulator.resetRequests();
  stack.slack.reset();
});

const createCalls = (operation: 'createInvoice' | 'createInvoiceByCrypto') =>
  stack.simulator.requests.filter((r) => r.operation === operation);
/** The form's text as a person reads it, and its menus' options (which blocksToText leaves out). */
const viewText = (view: OpenedView | undefined) =>
  `${blocksToText((view?.view.blocks as unknown[]) ?? [])}\n${JSON.stringify(view?.view ?? {})}`;
/** The form as Slack holds it now (after every update). */
const current = (id: string) => stack.slack.views().find((v) => v.id === id)!;
/** Waits until the form's text matches, and returns it as Slack holds it. */
const formShowing = (id: string, pattern: RegExp) =>
  stack.slack.waitFor(
    () => (pattern.test(viewText(current(id))) ? current(id) : undefined),
    10_000,
    `the form showing ${pattern}`,
  );

/** `/treasury invoice` alone: resolves with the command's result and the form opened with its trigger. */
async function openInvoiceForm() {
  const result = await stack.driver.command('invoice');
  expect(result.status).toBe(200);
  const opened = await stack.slack.waitFor(() => stack.slack.views()[0], 5_000, 'the invoice form opened');
  return { result, form: opened };
}

describe('the invoice form', () => {
  it('opens with the command’s trigger even when the asset list takes 2.5 s, then fills in the assets', async () => {
    stack.simulator.injectFault('listAssets', { delayMs: 2_500 });
    const started = Date.now();
    const { form } = await openInvoiceForm();
    // The stand-in takes a trigger for 3 s only: opening at all is opening in time.
    expect(stack.slack.callsOf('views.open')).toHaveLength(1);
    expect(form.openedAt - started).toBeLessThan(3_000);
    expect(viewText(form)).toContain('Reading the merchant’s assets and balances');
    const filled = await formShowing(form.id, /USDT on [^·]+ · [\d,.]+ available/);
    expect(stack.slack.callsOf('views.update')[0]?.args).toMatchObject({ view_id: form.id, hash: form.hash });
    const menu = JSON.stringify(filled.view);
    expect(menu).toContain('"option_groups"');
    expect(menu).toMatch(/"label":\{"type":"plain_text","text":"Ethereum \(ETH\)"/);
  });

  it('shows what the bot will do as the person chooses and types: base units against the decimals, the USD value', async () => {
    const { form } = await openInvoiceForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    const usdtEth = stack.simulator.ids.assets.usdtEth;
    await stack.driver.useInView(ready, F.asset, F.asset, { values: { [F.asset]: { [F.asset]: usdtEth } } });
    const chosen = await formShowing(form.id, /Type the amount to invoice/);
    expect(viewText(chosen)).toContain('Amount in USDT');
    await stack.driver.useInView(chosen, F.amount, F.amount, {
      values: { [F.asset]: { [F.asset]: usdtEth }, [F.amount]: { [F.amount]: '12,400.50' } },
      trigger: 'on_character_entered',
    });
    const typed = await formShowing(form.id, /Creates a crypto invoice/);
    const text = viewText(typed);
    expect(text).toContain('Creates a crypto invoice for *12,400.5 USDT* on Ethereum (ETH)');
    expect(text).toContain('In base units: `12400500000` (USDT has 6 decimals)');
    expect(text).toMatch(/Worth about \*\$12,4\d\d\.\d\d\* at the price of the balance held now/);
    // Nothing was created by looking.
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(0);
  });

  it.each([
    ['1.1234567', /USDT.*6 decimal|decimal places/],
    ['0', /greater than zero/],
    ['abc', /"abc" is not a number/],
  ])('refuses the amount %j under the field in plain words, and creates nothing', async (amount, reason) => {
    const { form } = await openInvoiceForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    const answer = await stack.driver.submitView(ready, {
      values: { [F.asset]: { [F.asset]: stack.simulator.ids.assets.usdtEth }, [F.amount]: { [F.amount]: amount } },
    });
    expect(answer).toMatchObject({ response_action: 'errors', errors: { [F.amount]: expect.stringMatching(reason) } });
    expect(JSON.stringify(answer)).not.toMatch(/&quot;|&amp;|&lt;/);
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(0);
  });

  it('creates exactly one invoice when Slack sends the submission twice, and answers on the command’s response_url', async () => {
    const { result, form } = await openInvoiceForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    const values = {
      [F.asset]: { [F.asset]: stack.simulator.ids.assets.usdtEth },
      [F.amount]: { [F.amount]: '25.5' },
      [F.title]: { [F.title]: 'Pro plan' },
    };
    const [first, second] = await Promise.all([
      stack.driver.submitView(ready, { values }),
      stack.driver.submitView(ready, { values }),
    ]);
    expect([first, second]).toEqual([null, null]);
    const [reply] = await result.waitForResponses(1);
    const answer = toAnswer(result, reply!);
    expect(answer.text).toMatch(/\*Payment page:\* <https:\/\/pay\.example\.test\/invoice\/[0-9a-f-]+\|/);
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(1);
    expect(createCalls('createInvoiceByCrypto')[0]?.body).toMatchObject({
      assetId: stack.simulator.ids.assets.usdtEth,
      cryptoAmount: '25500000',
      productTitle: 'Pro plan',
    });
    // And no more later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(1);
    expect(result.responses()).toHaveLength(1);
  });

  it('the global shortcut opens the same form; a USD invoice made there is answered by direct message', async () => {
    const opened = await stack.driver.shortcut('new_invoice');
    expect(opened.status).toBe(200);
    const form = await stack.slack.waitFor(() => stack.slack.views()[0], 5_000, 'the form opened');
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    await stack.driver.useInView(ready, F.pricing, F.pricing, { values: { [F.pricing]: { [F.pricing]: 'usd' } } });
    const usd = await formShowing(form.id, /Amount in US dollars/);
    expect(
      await stack.driver.submitView(usd, {
        values: { [F.pricing]: { [F.pricing]: 'usd' }, [F.amount]: { [F.amount]: '49.99' } },
      }),
    ).toBeNull();
    const dm = await stack.slack.waitFor(
      () => stack.slack.messages().find((m) => /Payment page/.test(blocksToText((m.blocks as unknown[]) ?? []))),
      5_000,
      'the invoice in a direct message',
    );
    expect(dm.channel).toMatch(/^D/);
    expect(createCalls('createInvoice')).toHaveLength(1);
    expect(createCalls('createInvoice')[0]?.body).toMatchObject({ usdAmountInCents: 4999 });
  });

  it('two keystrokes racing on one view: the later update meets hash_conflict and is dropped quietly, the form stays', async () => {
    const { form } = await openInvoiceForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    const usdtEth = stack.simulator.ids.assets.usdtEth;
    const typed = (amount: string) => ({
      values: { [F.asset]: { [F.asset]: usdtEth }, [F.amount]: { [F.amount]: amount } },
      trigger: 'on_character_entered' as const,
    });
    // Both carry the hash of the same view, as two keystrokes sent before the first update arrived.
    await stack.driver.useInView(ready, F.amount, F.amount, typed('1'));
    await formShowing(form.id, /In base units: `1000000`/);
    await stack.driver.useInView(ready, F.amount, F.amount, typed('12'));
    await stack.slack.waitFor(() => stack.slack.callsOf('views.update').length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(viewText(current(form.id))).toContain('In base units: `1000000`');
    expect(stack.slack.views()).toHaveLength(1);
  });

  it('keystrokes that come together are rebuilt once, from the last: the preview ends on what is typed', async () => {
    const { form } = await openInvoiceForm();
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    const updatesBefore = stack.slack.callsOf('views.update').length;
    const usdtEth = stack.simulator.ids.assets.usdtEth;
    for (const amount of ['7', '70', '700']) {
      await stack.driver.useInView(ready, F.amount, F.amount, {
        values: { [F.asset]: { [F.asset]: usdtEth }, [F.amount]: { [F.amount]: amount } },
        trigger: 'on_character_entered',
      });
    }
    await formShowing(form.id, /In base units: `700000000`/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stack.slack.callsOf('views.update').length - updatesBefore).toBe(1);
    expect(viewText(current(form.id))).toContain('In base units: `700000000`');
  });

  it('someone of another organisation (Slack Connect) picking the shortcut gets no form', async () => {
    const picked = await stack.driver.shortcut('new_invoice', { userId: 'U0PARTNER', teamId: 'T0PARTNER' });
    expect(picked.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stack.slack.callsOf('views.open')).toHaveLength(0);
  });

  it('the Home tab’s New invoice button opens it', async () => {
    await stack.driver.openHome(ALICE);
    const home = await stack.slack.waitFor(() => stack.slack.homeView(ALICE), 5_000, 'the Home tab');
    expect((await stack.driver.clickInHome(home, 'home_new_invoice')).status).toBe(200);
    const form = await stack.slack.waitFor(() => stack.slack.views()[0], 5_000, 'the form opened');
    expect(form.view.callback_id).toBe('form_invoice');
  });

  it('the typed command is unchanged: `invoice 0.05 ETH Consulting` still answers at once without a form', async () => {
    const result = await stack.driver.command('invoice 0.05 ETH Consulting');
    const [reply] = await result.waitForResponses(1);
    expect(toAnswer(result, reply!).text).toMatch(/Payment page/);
    expect(stack.slack.callsOf('views.open')).toHaveLength(0);
  });
});

describe('the threshold form', () => {
  const T = { asset: 'form_threshold_asset', unit: 'form_threshold_unit', amount: 'form_threshold_amount' };

  it('someone who is not an admin is told so in the form, and nothing is set', async () => {
    await stack.driver.command('threshold');
    const form = await stack.slack.waitFor(() => stack.slack.views()[0], 5_000, 'the threshold form opened');
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    const values = {
      [T.asset]: { [T.asset]: stack.simulator.ids.assets.usdtBsc },
      [T.unit]: { [T.unit]: 'usd' },
      [T.amount]: { [T.amount]: '100' },
    };
    const answer = await stack.driver.submitView(ready, { values });
    expect(answer).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(answer)).toContain('Only treasury admins can set or remove balance thresholds');
    const thresholds = await stack.store.balances.listThresholds();
    expect(thresholds.find((t) => t.assetId === stack.simulator.ids.assets.usdtBsc)).toBeUndefined();
  });

  it('previews the balance now against the level, and sets it through the typed command’s service', async () => {
    const result = await stack.driver.command('threshold', { userId: ADMIN });
    const form = await stack.slack.waitFor(() => stack.slack.views()[0], 5_000, 'the threshold form opened');
    const ready = await formShowing(form.id, /USDT on [^·]+ · /);
    const usdtEth = stack.simulator.ids.assets.usdtEth;
    const values = {
      [T.asset]: { [T.asset]: usdtEth },
      [T.unit]: { [T.unit]: 'usd' },
      [T.amount]: { [T.amount]: '5,000' },
    };
    await stack.driver.useInView(ready, T.amount, T.amount, { values, trigger: 'on_character_entered', userId: ADMIN });
    const previewed = await formShowing(form.id, /Alerts when the balance/);
    const text = viewText(previewed);
    expect(text).toContain('falls below *$5,000* (`500000` cents)');
    expect(text).toContain('Balance now: 152,340.25 USDT ($152,340.25)');
    expect(text).toContain('It counts as recovered at $5,500');
    expect(text).toContain('That is above the level: no alert now');

    expect(
      await stack.driver.submitView(previewed, {
        values: { ...values, [T.amount]: { [T.amount]: '-5' } },
        userId: ADMIN,
      }),
    ).toMatchObject({ response_action: 'errors', errors: { [T.amount]: 'Amount cannot be negative.' } });
    expect(await stack.driver.submitView(previewed, { values, userId: ADMIN })).toBeNull();
    const [reply] = await result.waitForResponses(1);
    expect(toAnswer(result, reply!).text).toMatch(/below \$5,000/);
    const thresholds = await stack.store.balances.listThresholds();
    expect(thresholds).toContainEqual(expect.objectContaining({ assetId: usdtEth, measure: 'usd', below: '500000' }));
  });
});
