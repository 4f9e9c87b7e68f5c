import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, openPage, screenshot } from '../support/rig/browser.js';
import { type LocalWorkspace, startLocalWorkspace } from '../support/rig/local-workspace.js';

const available = chromiumAvailable();

let workspace: LocalWorkspace;
let browser: Browser;
let page: Page;
/** Errors the page raised or logged, at any point of the session. */
const problems: string[] = [];

describe.skipIf(!available)('forms in the local workspace, in Chromium', () => {
  beforeAll(async () => {
    workspace = await startLocalWorkspace({ port: 0, activityEverySeconds: 0 });
    ({ browser, page } = await openPage(workspace.url, problems));
    expect(problems).toEqual([]);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await workspace?.close();
  });

  const messages = () => page.getByTestId('timeline').getByTestId('message');
  const modal = () => page.getByTestId('modal');
  // One test's failure stays its own: a form it left open would cover the page for the next one.
  afterEach(async () => {
    if ((await modal().count()) > 0) await page.getByTestId('modal-close').click();
  });

  it('Riley opens the invoice form from Home, picks an asset, types an amount, watches the preview, submits, and gets the link', async () => {
    await page.getByTestId('user-switcher').selectOption('U0RILEY');
    await page.getByTestId('home-tab').click();
    const newInvoice = page.getByTestId('home-body').getByRole('button', { name: 'New invoice' });
    await newInvoice.waitFor({ timeout: 15_000 });
    await newInvoice.click();

    await modal().waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('modal-title').innerText()).toBe('New invoice');
    const assetMenu = page.getByTestId('modal-input-form_invoice_asset');
    await assetMenu.waitFor({ timeout: 10_000 });
    // The menu is grouped by network, each asset with its network and balance.
    expect(
      await assetMenu.locator('optgroup').evaluateAll((groups) => groups.map((g) => g.getAttribute('label'))),
    ).toContain('Ethereum (ETH)');
    const usdtEth = workspace.simulator.ids.assets.usdtEth;
    expect(await assetMenu.locator(`option[value="${usdtEth}"]`).innerText()).toMatch(
      /^USDT on Ethereum · [\d,.]+ available$/,
    );

    await assetMenu.selectOption(usdtEth);
    // Picked, the closed menu still says which network: USDT on Ethereum does not read like USDT on BSC.
    expect(await assetMenu.locator('option:checked').innerText()).toMatch(/^USDT on Ethereum · /);
    await expect.poll(() => modal().innerText(), { timeout: 10_000 }).toContain('Amount in USDT');
    await expect.poll(() => modal().innerText()).toContain('Type the amount to invoice.');

    const amount = page.getByTestId('modal-input-form_invoice_amount');
    await amount.click();
    await amount.pressSequentially('25.5', { delay: 60 });
    await expect
      .poll(() => modal().innerText(), { timeout: 10_000 })
      .toContain('In base units: 25500000 (USDT has 6 decimals)');
    const shown = await modal().innerText();
    expect(shown).toContain('Creates a crypto invoice for 25.5 USDT on Ethereum (ETH)');
    expect(shown).toMatch(/Worth about \$25\.\d\d at the price of the balance held now/);
    // What was typed survives every update of the view, and the caret stays in the field.
    expect(await amount.inputValue()).toBe('25.5');
    expect(await amount.evaluate((field) => field === field.ownerDocument.activeElement)).toBe(true);

    await page.getByTestId('modal-input-form_invoice_title').fill('Consulting, November');
    await modal().screenshot({ path: screenshot('workspace-invoice-form.png') });

    const before = workspace.simulator.requests.filter((r) => r.operation === 'createInvoiceByCrypto').length;
    await page.getByTestId('modal-submit').click();
    await expect.poll(() => modal().count(), { timeout: 10_000 }).toBe(0);
    await page.getByTestId('dm-treasury').click();
    const invoice = messages().filter({ hasText: 'Consulting, November' }).last();
    await invoice.waitFor({ timeout: 15_000 });
    expect(await invoice.innerText()).toMatch(/Payment page/);
    expect(await invoice.locator('a[href*="pay.example.test/invoice/"]').count()).toBeGreaterThan(0);
    const created = workspace.simulator.requests.filter((r) => r.operation === 'createInvoiceByCrypto');
    expect(created.length - before).toBe(1);
    expect(created.at(-1)?.body).toMatchObject({ assetId: usdtEth, cryptoAmount: '25500000' });
    await invoice.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshot('workspace-invoice-form-done.png') });
  }, 90_000);

  it('a wrong amount is refused under the field, in plain words, and the form stays', async () => {
    await page.getByTestId('home-tab').click();
    await page.getByTestId('home-body').getByRole('button', { name: 'New invoice' }).click();
    const assetMenu = page.getByTestId('modal-input-form_invoice_asset');
    await assetMenu.waitFor({ timeout: 10_000 });
    await assetMenu.selectOption(workspace.simulator.ids.assets.usdtEth);
    await expect.poll(() => modal().innerText(), { timeout: 10_000 }).toContain('Amount in USDT');
    await page.getByTestId('modal-input-form_invoice_amount').fill('1.1234567');
    await page.getByTestId('modal-submit').click();
    const error = page.getByTestId('modal-error-form_invoice_amount');
    await error.waitFor({ timeout: 10_000 });
    expect(await error.innerText()).toMatch(/decimal/);
    expect(await modal().count()).toBe(1);
    await page.getByTestId('modal-close').click();
    await expect.poll(() => modal().count()).toBe(0);
  }, 60_000);

  it('Riley asks for a swap through the form: /treasury swap alone, two menus, an amount, the approvals it needs, then the quote with its Approve button', async () => {
    await page.getByTestId('user-switcher').selectOption('U0RILEY');
    await page.getByTestId('channel-treasury-ops').click();
    const composer = page.getByTestId('composer');
    await composer.fill('/treasury swap');
    await composer.press('Enter');

    await modal().waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('modal-title').innerText()).toBe('New swap');
    const fromMenu = page.getByTestId('modal-input-form_swap_from');
    await fromMenu.waitFor({ timeout: 10_000 });
    const { usdtEth, usdcEth } = workspace.simulator.ids.assets;
    await fromMenu.selectOption(usdtEth);
    await expect.poll(() => modal().innerText(), { timeout: 10_000 }).toContain('Amount of USDT to swap');
    await page.getByTestId('modal-input-form_swap_to').selectOption(usdcEth);

    const amount = page.getByTestId('modal-input-form_swap_amount');
    await amount.click();
    await amount.pressSequentially('20,000', { delay: 60 });
    await expect
      .poll(() => modal().innerText(), { timeout: 10_000 })
      .toContain('In base units: 20000000000 (USDT has 6 decimals)');
    await expect.poll(() => modal().innerText(), { timeout: 10_000 }).toContain('Needs 2 distinct approvals');
    const shown = await modal().innerText();
    expect(shown).toContain('Asks for a quote to swap 20,000 USDT on Ethereum (ETH) into USDC on Ethereum (ETH)');
    expect(shown).toContain('Worth about $20,000');
    expect(shown).toContain('(tier 2 of 2, from $10,000)');
    expect(shown).toContain('Approving it needs no code (codes are asked from $50,000)');
    expect(shown).toMatch(/Balance left of USDT on Ethereum \(ETH\): [\d,.]+ USDT/);
    expect(await amount.inputValue()).toBe('20,000');
    await modal().screenshot({ path: screenshot('workspace-swap-form.png') });

    const before = workspace.simulator.requests.filter((r) => r.operation === 'estimateSwap').length;
    await page.getByTestId('modal-submit').click();
    await expect.poll(() => modal().count(), { timeout: 10_000 }).toBe(0);
    const quote = messages()
      .filter({ has: page.getByRole('button', { name: 'Approve' }) })
      .filter({ hasText: '20,000 USDT' })
      .last();
    await quote.waitFor({ timeout: 15_000 });
    expect(await quote.getAttribute('data-ephemeral')).toBe('false');
    expect(workspace.simulator.requests.filter((r) => r.operation === 'estimateSwap').length - before).toBe(1);
    // The requester's note comes after the quote (the timeline redraws then): wait for it before the picture.
    await messages()
      .filter({ hasText: 'Quote posted in the channel for approval' })
      .last()
      .waitFor({ timeout: 15_000 });
    await page.screenshot({ path: screenshot('workspace-swap-form-quote.png') });
  }, 90_000);

  it('from the Home tab, New swap asks where to post the quote; Riley picks #treasury-ops and the quote is there', async () => {
    await page.getByTestId('home-tab').click();
    await page.getByTestId('home-body').getByRole('button', { name: 'New swap' }).click();
    await modal().waitFor({ timeout: 10_000 });
    const fromMenu = page.getByTestId('modal-input-form_swap_from');
    await fromMenu.waitFor({ timeout: 10_000 });
    const { usdtEth, usdcEth } = workspace.simulator.ids.assets;
    await fromMenu.selectOption(usdtEth);
    await expect.poll(() => modal().innerText(), { timeout: 10_000 }).toContain('Amount of USDT to swap');
    await page.getByTestId('modal-input-form_swap_to').selectOption(usdcEth);
    await page.getByTestId('modal-input-form_swap_amount').pressSequentially('25', { delay: 60 });
    // Counted with Riley's $20,000 swap of the test before, as the quote will be: the second tier.
    await expect
      .poll(() => modal().innerText(), { timeout: 10_000 })
      .toContain('with your $20,000 swap today this makes $20,025: 2 approvals');
    expect(await modal().innerText()).toContain('The quote is posted in the channel you choose');
    await modal().screenshot({ path: screenshot('workspace-swap-form-home.png') });
    await page.getByTestId('modal-input-form_swap_channel').selectOption('C0TREASURYOPS');
    await page.getByTestId('modal-submit').click();
    await expect.poll(() => modal().count(), { timeout: 10_000 }).toBe(0);
    await page.getByTestId('channel-treasury-ops').click();
    const quote = messages()
      .filter({ has: page.getByRole('button', { name: 'Approve' }) })
      .filter({ hasText: '25 USDT' })
      .last();
    await quote.waitFor({ timeout: 15_000 });
  }, 60_000);

  it('raised no error in the page', () => {
    expect(problems).toEqual([]);
  });
});
