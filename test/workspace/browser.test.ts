import { generateSync } from 'otplib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, openPage, screenshot } from '../support/rig/browser.js';
import { afterTheDailySnapshot, type LocalWorkspace, startLocalWorkspace } from '../support/rig/local-workspace.js';

const available = chromiumAvailable();

let workspace: LocalWorkspace;
let browser: Browser;
let page: Page;
/** Errors the page raised or logged, at any point of the session. */
const problems: string[] = [];

describe.skipIf(!available)('the local workspace in Chromium', () => {
  beforeAll(async () => {
    workspace = await startLocalWorkspace({ port: 0, activityEverySeconds: 0, startAt: afterTheDailySnapshot() });
    ({ browser, page } = await openPage(workspace.url, problems));
    expect(problems).toEqual([]);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await workspace?.close();
  });

  const composer = () => page.getByTestId('composer');
  const messages = () => page.getByTestId('timeline').getByTestId('message');
  const send = async (text: string) => {
    await composer().fill(text);
    await composer().press('Enter');
  };
  const asUser = (userId: string) => page.getByTestId('user-switcher').selectOption(userId);
  const openChannel = (name: string) => page.getByTestId(`channel-${name}`).click();
  const lastMessageWith = (text: string | RegExp): Locator => messages().filter({ hasText: text }).last();
  /** The id prefix of the withdrawal the control panel just made fail. */
  const failWithdrawal = async (): Promise<string> => {
    const status = page.getByTestId('control-status');
    const before = await status.innerText();
    await page.getByTestId('control-withdrawal-fails').click();
    let idPrefix: string | undefined;
    await expect
      .poll(async () => {
        const text = await status.innerText();
        idPrefix = text === before ? undefined : /Withdrawal ([0-9a-f]{8})/.exec(text)?.[1];
        return idPrefix;
      })
      .toBeTruthy();
    return idPrefix!;
  };
  /** The alert about a withdrawal made to fail (the first one, from the alert test, when it ran). */
  let failedWithdrawal: string | undefined;

  it('shows what to type first', async () => {
    await expect.poll(() => page.getByTestId('hints').innerText()).toContain('/treasury balances');
  });

  it('the person switcher offers Jordan, an approver through the @treasury-leads group, and says so', async () => {
    const switcher = page.getByTestId('user-switcher');
    expect(await switcher.locator('option').allInnerTexts()).toEqual([
      'Riley Chen — Treasury operator (requests swaps)',
      'Avery Patel — Approver (SWAP_APPROVERS)',
      'Jordan Kim — Approver via @treasury-leads (SWAP_APPROVERS group)',
      'Sam Lee — Sales, not on the treasury team',
      'Morgan Diaz — Partner Co, another organisation (Slack Connect)',
    ]);
    await asUser('U0JORDAN');
    expect(await page.getByTestId('user-groups').innerText()).toBe('member of @treasury-leads');
    // Jordan is on the treasury team: the private channel and a DM with the bot are in the sidebar.
    await page.getByTestId('channel-treasury-ops').waitFor();
    await asUser('U0RILEY');
    expect(await page.getByTestId('user-groups').count()).toBe(0);
  });

  it('/treasury balances shows the assets, privately', async () => {
    await send('/treasury balances');
    const reply = lastMessageWith('USDC');
    await reply.waitFor({ timeout: 10_000 });
    expect(await reply.innerText()).toMatch(/USDT/);
    expect(await reply.getAttribute('data-ephemeral')).toBe('true');
    expect(await reply.innerText()).toContain('Only visible to you');
  });

  it('a swap requested by Riley is approved by Avery in the dialog, and the same message becomes the finished swap', async () => {
    await send('/treasury swap 1,000 USDT@ETH to USDC@ETH');
    const quote = messages()
      .filter({ has: page.getByRole('button', { name: 'Approve' }) })
      .last();
    await quote.waitFor({ timeout: 10_000 });
    const entryId = await quote.getAttribute('data-entry-id');
    expect(await quote.getAttribute('data-ephemeral')).toBe('false');

    await asUser('U0AVERY');
    await quote.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    // plain_text, shown as written.
    expect(await dialog.innerText()).toMatch(
      /Swap 1,000 USDT → about [\d,.]+ USDC\. The final amount is fixed when the swap runs\./,
    );
    await dialog.getByTestId('confirm-yes').click();
    const same = page.locator(`[data-testid="message"][data-entry-id="${entryId}"]`);
    await expect.poll(() => same.innerText(), { timeout: 30_000, interval: 500 }).toMatch(/finished/i);
    expect(await same.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await page.screenshot({ path: screenshot('workspace-swap.png') });
  }, 45_000);

  it('a $20,000 swap needs two people: Avery approves once (a second click is refused privately), Jordan through @treasury-leads completes it', async () => {
    await asUser('U0RILEY');
    await send('/treasury policy');
    const policy = lastMessageWith('Swap approval policy');
    await policy.waitFor({ timeout: 10_000 });
    expect(await policy.innerText()).toContain('from $10,000: 2 distinct approvals');

    await send('/treasury swap 20,000 USDT@ETH to USDC@ETH');
    const found = messages()
      .filter({ has: page.getByRole('button', { name: 'Approve' }) })
      .last();
    await found.waitFor({ timeout: 10_000 });
    const quote = page.locator(`[data-testid="message"][data-entry-id="${await found.getAttribute('data-entry-id')}"]`);
    expect(await quote.locator('b', { hasText: '2 approvals' }).count()).toBe(1);
    expect(await quote.innerText()).toContain('Needs 2 approvals from distinct approvers');
    const approve = async () => {
      await quote.getByRole('button', { name: 'Approve' }).click();
      await page.getByTestId('confirm-dialog').getByTestId('confirm-yes').click();
    };

    await asUser('U0AVERY');
    await approve();
    await expect.poll(() => quote.innerText(), { timeout: 10_000 }).toMatch(/Approved 1 of 2 — @Avery Patel ✓/);
    expect(await quote.getByRole('button', { name: 'Approve' }).count()).toBe(1);

    await approve();
    const notice = lastMessageWith('You already approved this quote');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.getAttribute('data-ephemeral')).toBe('true');
    await expect.poll(() => quote.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true);
    await page.screenshot({ path: screenshot('workspace-two-approvals.png') });

    // Jordan does not see Avery's notice, and sees the group he is in named as a mention of him.
    await asUser('U0JORDAN');
    expect(await page.getByTestId('timeline').innerText()).not.toContain('You already approved');
    // The page re-renders for the person switched to: wait for it rather than read it mid-render.
    await expect.poll(() => quote.locator('.mention-me', { hasText: '@treasury-leads' }).count()).toBe(1);
    await approve();
    await expect
      .poll(() => quote.innerText(), { timeout: 10_000 })
      .toMatch(/Approved by @Avery Patel and @Jordan Kim at .*\n.*Swap [0-9a-f]{8}/);
    expect(await quote.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  }, 45_000);

  /** Avery's authenticator: the secret she scanned from the enrolment DM (the test reads the URI as a phone would). */
  let averySecret: string | undefined;
  /** The 6-digit code Avery's phone shows now (the workspace's clock has not been moved yet in this session). */
  // Her app's code at the workspace's clock (the bot checks codes on it; it starts after the day's snapshot).
  const averyCode = (stepsAhead = 0) =>
    generateSync({ secret: averySecret!, epoch: Math.floor(workspace.now() / 1000) + 30 * stepsAhead });

  it('Avery enrols her authenticator: the otpauth URI and the QR code image arrive in her DM, a code completes it and both are deleted, Jordan confirms it in #treasury-alerts', async () => {
    await asUser('U0AVERY');
    await page.getByTestId('dm-treasury').click();
    await send('/treasury 2fa enroll');
    await lastMessageWith('I sent you a direct message with a QR code').waitFor({ timeout: 10_000 });
    const dm = lastMessageWith('otpauth://');
    await dm.waitFor({ timeout: 10_000 });
    // Two messages: the secret as text, then the QR code as an image file (both are deleted once confirmed).
    const qr = messages().getByTestId('file-image').last();
    await qr.waitFor({ timeout: 10_000 });
    await expect
      .poll(() => qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    const uri = /otpauth:\/\/totp\/\S+/.exec(await dm.innerText())?.[0] ?? '';
    expect(uri).toMatch(/^otpauth:\/\/totp\/Treasury%20bot:U0AVERY\?secret=[A-Z2-7]+&issuer=Treasury%20bot$/);
    averySecret = new URL(uri).searchParams.get('secret') ?? undefined;
    await dm.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshot('workspace-2fa-enrol.png') });

    await send(`/treasury 2fa confirm ${averyCode()}`);
    await lastMessageWith('You are enrolled.').waitFor({ timeout: 10_000 });
    // The secret leaves Slack once confirmed: the DM with the URI and the QR code is deleted from the page.
    await expect.poll(() => messages().filter({ hasText: 'otpauth://' }).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('file-image').count(), { timeout: 10_000 }).toBe(0);
    await send('/treasury 2fa');
    const waiting = lastMessageWith('waits for another admin to confirm it');
    await waiting.waitFor({ timeout: 10_000 });
    expect(await waiting.innerText()).not.toContain(averySecret);

    // A new enrolment counts once another admin confirms it: Jordan (an admin through @treasury-leads) presses
    // Confirm enrolment on the announcement in #treasury-alerts.
    await asUser('U0JORDAN');
    await openChannel('treasury-alerts');
    const announced = lastMessageWith('enrolled a new second factor');
    await announced.waitFor({ timeout: 10_000 });
    const announcement = page.locator(
      `[data-testid="message"][data-entry-id="${await announced.getAttribute('data-entry-id')}"]`,
    );
    expect(await announcement.innerText()).toContain('@Avery Patel');
    await announcement.getByRole('button', { name: 'Confirm enrolment' }).click();
    // The same message becomes the confirmation, and its button goes.
    await expect.poll(() => announcement.innerText(), { timeout: 10_000 }).toMatch(/confirmed by @Jordan Kim/);
    expect(await announcement.getByRole('button', { name: 'Confirm enrolment' }).count()).toBe(0);
    await page.screenshot({ path: screenshot('workspace-2fa-confirmed.png') });

    await asUser('U0AVERY');
    await page.getByTestId('dm-treasury').click();
    await send('/treasury 2fa');
    const state = lastMessageWith('You are enrolled since');
    await state.waitFor({ timeout: 10_000 });
    // Never shown again after enrolment.
    expect(await state.innerText()).not.toContain(averySecret);
    await asUser('U0RILEY');
    await openChannel('treasury');
  }, 60_000);

  it('a $60,000 swap: Avery approves with a code (a wrong one is shown under the input); Jordan, not enrolled, is told how to enrol', async () => {
    await send('/treasury swap 60,000 USDT@ETH to USDC@ETH');
    const found = messages()
      .filter({ hasText: '60,000 USDT' })
      .filter({ has: page.getByRole('button', { name: 'Approve' }) })
      .last();
    await found.waitFor({ timeout: 10_000 });
    const quote = page.locator(`[data-testid="message"][data-entry-id="${await found.getAttribute('data-entry-id')}"]`);
    // Said on the quote before anyone clicks.
    expect(await quote.innerText()).toContain('Approve asks for a code from your authenticator app');

    await asUser('U0AVERY');
    await quote.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('confirm-dialog').getByTestId('confirm-yes').click();
    const modal = page.getByTestId('modal');
    await modal.waitFor({ timeout: 10_000 });
    expect(await modal.getByTestId('modal-title').innerText()).toBe('Approve with a code');
    expect(await modal.innerText()).toContain('60,000 USDT');
    await modal.getByTestId('modal-input-step_up_code').fill('000000');
    await modal.getByTestId('modal-submit').click();
    await expect
      .poll(() => modal.getByTestId('modal-error-step_up_code').innerText(), { timeout: 10_000 })
      .toContain('That code is not right');
    await page.screenshot({ path: screenshot('workspace-2fa-wrong-code.png') });
    // Enrolment used this 30-second step's code, and each code works once: her app's next code (one step of
    // drift is accepted) is the one she types.
    await modal.getByTestId('modal-input-step_up_code').fill(averyCode(1));
    await modal.getByTestId('modal-submit').click();
    await modal.waitFor({ state: 'detached', timeout: 10_000 });
    await expect
      .poll(() => quote.innerText(), { timeout: 10_000 })
      .toMatch(/Approved 1 of 2 — @Avery Patel ✓ \(with a code\)/);

    await asUser('U0JORDAN');
    await quote.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('confirm-dialog').getByTestId('confirm-yes').click();
    // The quote itself mentions `/treasury 2fa enroll` too: wait for the reply told to Jordan alone.
    const told = lastMessageWith('you have not set one up');
    await told.waitFor({ timeout: 10_000 });
    expect(await told.innerText()).toContain('/treasury 2fa enroll');
    expect(await told.getAttribute('data-ephemeral')).toBe('true');
    expect(await page.getByTestId('modal').count()).toBe(0);
    expect(await quote.innerText()).toMatch(/Approved 1 of 2/);
    await asUser('U0RILEY');
  }, 60_000);

  it('Avery freezes: the quote shows FROZEN and refuses an approval; Avery and Jordan press Unfreeze in #treasury-alerts and it lifts', async () => {
    await asUser('U0AVERY');
    await openChannel('treasury');
    await send('/treasury freeze strange quote, checking --for 2h');
    const quote = messages().filter({ hasText: '60,000 USDT' }).last();
    await expect.poll(() => quote.innerText(), { timeout: 10_000 }).toContain('FROZEN');

    await asUser('U0JORDAN');
    await quote.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('confirm-dialog').getByTestId('confirm-yes').click();
    // Case matters: the quote itself says "FROZEN: money is frozen by…", the refusal "Money is frozen by…".
    const refused = lastMessageWith(/Money is frozen by .*Your approval was not counted/);
    await refused.waitFor({ timeout: 10_000 });
    expect(await refused.getAttribute('data-ephemeral')).toBe('true');
    expect(await refused.innerText()).toContain('strange quote, checking');
    expect(await page.getByTestId('modal').count()).toBe(0);
    await page.screenshot({ path: screenshot('workspace-frozen-quote.png') });

    await openChannel('treasury-alerts');
    const announcement = messages()
      .filter({ has: page.getByRole('button', { name: 'Unfreeze' }) })
      .last();
    await announcement.waitFor({ timeout: 10_000 });
    expect(await announcement.innerText()).toContain('strange quote, checking');
    const entryId = await announcement.getAttribute('data-entry-id');
    const same = page.locator(`[data-testid="message"][data-entry-id="${entryId}"]`);
    await same.getByRole('button', { name: 'Unfreeze' }).click();
    await lastMessageWith('Your vote is recorded (1 of 2)').waitFor({ timeout: 10_000 });
    await asUser('U0AVERY');
    await same.getByRole('button', { name: 'Unfreeze' }).click();
    await lastMessageWith('Your vote lifted the freeze (2 of 2)').waitFor({ timeout: 10_000 });
    await expect.poll(() => same.getByRole('button', { name: 'Unfreeze' }).count(), { timeout: 10_000 }).toBe(0);
    await page.screenshot({ path: screenshot('workspace-unfrozen.png') });

    await openChannel('treasury');
    await expect.poll(() => quote.innerText(), { timeout: 10_000 }).not.toContain('FROZEN');
    await asUser('U0RILEY');
  }, 60_000);

  it('someone outside the treasury team is told politely that the bot is not for them', async () => {
    await asUser('U0SAM');
    await send('/treasury balances');
    await lastMessageWith('limited to the treasury team').waitFor({ timeout: 10_000 });
    await asUser('U0RILEY');
  });

  it('an unknown command gets the help', async () => {
    await send('/treasury frobnicate');
    const reply = lastMessageWith('is not a /treasury command');
    await reply.waitFor({ timeout: 10_000 });
    const text = await reply.innerText();
    expect(text).toContain('"frobnicate"');
    for (const group of ['Look up — balances', 'Move money — swap', 'Alerts — alerts']) expect(text).toContain(group);
  });

  it("the sidebar has the team's private channel and a direct message with the bot; a swap asked for in the DM says where to ask", async () => {
    const dm = page.getByTestId('dm-treasury');
    expect(await page.getByTestId('channel-treasury-ops').getAttribute('data-kind')).toBe('private');
    expect(await dm.getAttribute('data-channel-id')).toBe('D0RILEYBOT');
    await dm.click();
    expect(await page.getByTestId('channel-name').innerText()).toContain('treasury');
    await send('/treasury swap 1,000 USDT@ETH to USDC@ETH');
    const refusal = lastMessageWith('this is a direct message');
    await refusal.waitFor({ timeout: 10_000 });
    expect(await refusal.getAttribute('data-ephemeral')).toBe('true');
    expect(await refusal.innerText()).toContain('Ask for the swap in a channel that you, the approvers and I share');
    // Sam is not in the private channel and has a DM of his own, so the page takes him back to #treasury.
    await asUser('U0SAM');
    expect(await page.getByTestId('channel-treasury-ops').count()).toBe(0);
    expect(await page.getByTestId('dm-treasury').getAttribute('data-channel-id')).toBe('D0SAMBOT');
    expect(await page.getByTestId('timeline').innerText()).not.toContain('this is a direct message');
    await asUser('U0RILEY');
    await openChannel('treasury');
  });

  it('an invoice title typed with `&`, `<`, `>` and a literal `&amp;` reaches the payment API and the page as typed', async () => {
    // The page sends it escaped as Slack does; were it not, the bot's one decode would turn `&amp;` into `&`.
    const title = 'R&D <beta> &amp; 🚀';
    await send(`/treasury invoice $5 ${title}`);
    const reply = lastMessageWith('Invoice created');
    await reply.waitFor({ timeout: 10_000 });
    const created = workspace.simulator.requests.filter((r) => r.operation === 'createInvoice').at(-1);
    expect(created?.body).toMatchObject({ productTitle: title });
    const text = await reply.innerText();
    expect(text).toContain(`Invoice created: $5.00 — ${title}`);
    expect(text).toContain(`Title\n${title}`);
    expect(text).not.toMatch(/&lt;|&gt;|&amp;amp;/);
    expect(await lastMessageWith('/treasury invoice $5').innerText()).toContain(`/treasury invoice $5 ${title}`);
  });

  it('a withdrawal made to fail from the control panel becomes exactly one alert in #treasury-alerts', async () => {
    const idPrefix = await failWithdrawal();
    await openChannel('treasury-alerts');
    const alerts = () => messages().filter({ hasText: idPrefix });
    await expect.poll(() => alerts().count(), { timeout: 30_000, interval: 500 }).toBe(1);
    failedWithdrawal = idPrefix;
    // Another poll (every 10 s here) must not post it again.
    await page.waitForTimeout(11_000);
    expect(await alerts().count()).toBe(1);
    await page.screenshot({ path: screenshot('workspace-alerts.png') });
    await openChannel('treasury');
    await page.screenshot({ path: screenshot('workspace.png') });
  }, 60_000);

  it('an alert is acknowledged by Riley, then resolved with a note by Avery: the message and its thread show both', async () => {
    await asUser('U0RILEY');
    const idPrefix = failedWithdrawal ?? (await failWithdrawal());
    await openChannel('treasury-alerts');
    const found = messages()
      .filter({ hasText: idPrefix })
      .filter({ has: page.getByTestId('attachment') });
    await found.waitFor({ timeout: 30_000 });
    const entryId = await found.getAttribute('data-entry-id');
    const alert = page.locator(`[data-testid="message"][data-entry-id="${entryId}"]`);
    const bar = alert.getByTestId('attachment');
    const group = page.locator('.msg-group').filter({ has: alert });
    const showThread = async () => {
      const toggle = group.getByTestId('thread-toggle');
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      return group.getByTestId('thread-replies');
    };
    // Open: a red bar, the first word, and the three controls.
    expect(await bar.getAttribute('data-color')).toBe('#E01E5A');
    expect(await alert.innerText()).toContain('OPEN');
    expect(await alert.getByTestId('static-select').getAttribute('data-action-id')).toBe('alert_snooze');

    await alert.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => bar.getAttribute('data-color'), { timeout: 10_000 }).toBe('#ECB22E');
    expect(await alert.innerText()).toContain('ACKNOWLEDGED');
    expect(await bar.locator('.mention', { hasText: '@Riley Chen' }).count()).toBe(1);
    expect(await alert.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    await expect.poll(async () => (await showThread()).innerText()).toMatch(/@Riley Chen acknowledged this/);

    await asUser('U0AVERY');
    await alert.getByRole('button', { name: 'Resolve' }).click();
    const modal = page.getByTestId('modal');
    await modal.waitFor();
    expect(await modal.getByTestId('modal-title').innerText()).toBe('Resolve alert');
    // Slack's client keeps a required note from being sent empty.
    await modal.getByTestId('modal-submit').click();
    expect(await modal.getByTestId('modal-error-resolve_note').innerText()).toBe(
      'Please complete this required field.',
    );
    await modal.getByTestId('modal-input-resolve_note').fill('Retried from the hot wallet <ok> & done');
    await modal.getByTestId('modal-submit').click();
    await modal.waitFor({ state: 'detached' });

    await expect.poll(() => bar.getAttribute('data-color'), { timeout: 10_000 }).toBe('#2EB67D');
    const resolved = await alert.innerText();
    expect(resolved).toContain('RESOLVED');
    expect(resolved).toContain('Retried from the hot wallet <ok> & done');
    expect(await bar.locator('.mention', { hasText: '@Avery Patel' }).count()).toBe(1);
    expect(await alert.getByRole('button').count()).toBe(0);
    expect(await alert.getByTestId('static-select').count()).toBe(0);
    const thread = await showThread();
    await expect
      .poll(() => thread.innerText())
      .toMatch(/@Avery Patel resolved this: “Retried from the hot wallet <ok> & done”/);
    expect(await thread.innerText()).toMatch(/@Riley Chen acknowledged this/);
    // The whole story in one picture: the resolved alert and, below it, its thread.
    await group.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await page.screenshot({ path: screenshot('workspace-alert-flow.png') });
    await asUser('U0RILEY');
    await openChannel('treasury');
  }, 60_000);

  it('an alert whose answer Slack lost is in #treasury-alerts once: the bot finds it at the next poll instead of posting it again', async () => {
    const lookups = () => workspace.slack.callsOf('conversations.history').length;
    await page.getByTestId('control-lose-alert-answer').click();
    await expect.poll(() => page.getByTestId('control-status').innerText()).toContain('lose its answer');
    const lookupsBefore = lookups();
    const idPrefix = await failWithdrawal();
    await openChannel('treasury-alerts');
    const alerts = () => messages().filter({ hasText: idPrefix });
    await expect.poll(() => alerts().count(), { timeout: 30_000, interval: 500 }).toBe(1);
    // Slack posted it and the bot never got the answer: at the next poll it looks for it in the channel…
    await expect.poll(lookups, { timeout: 15_000, interval: 200 }).toBeGreaterThan(lookupsBefore);
    // …and once the poll after that has begun reading the API, the one that looked is over.
    const apiReads = workspace.simulator.requestCount('listPayoutTasks');
    await expect
      .poll(() => workspace.simulator.requestCount('listPayoutTasks'), { timeout: 15_000, interval: 200 })
      .toBeGreaterThan(apiReads);
    expect(await alerts().count()).toBe(1);
    const posts = workspace.slack
      .callsOf('chat.postMessage')
      .filter((call) => call.args.channel === 'C0ALERTS' && JSON.stringify(call.args).includes(idPrefix));
    expect(posts).toHaveLength(1);
    await openChannel('treasury');
  }, 60_000);

  it('Avery sets a balance threshold; draining that balance from the panel raises one low-balance alert', async () => {
    await asUser('U0AVERY');
    await openChannel('treasury');
    await send('/treasury threshold USDT@BSC below 5,000');
    await expect
      .poll(() => lastMessageWith('an alert opens when its balance goes below 5,000 USDT').count(), { timeout: 10_000 })
      .toBe(1);
    const choice = page.getByTestId('control-balance-drops-choice');
    const value = await choice.evaluate(
      (select) =>
        Array.from((select as unknown as { options: ArrayLike<{ text: string; value: string }> }).options).find(
          (option) => option.text.startsWith('USDT@BSC'),
        )?.value ?? '',
    );
    expect(value).not.toBe('');
    await choice.selectOption(value);
    await page.getByTestId('control-balance-drops').click();
    await expect.poll(() => page.getByTestId('control-status').innerText()).toMatch(/USDT@BSC dropped to 5 %/);
    await openChannel('treasury-alerts');
    const lowAlerts = () => messages().filter({ hasText: 'USDT@BSC balance is below 5,000 USDT' });
    await expect.poll(() => lowAlerts().count(), { timeout: 30_000, interval: 500 }).toBe(1);
    expect(await lowAlerts().first().innerText()).toContain('OPEN');
    await lowAlerts().first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshot('workspace-balance-low.png') });
    // The next poll (every 10 s here) does not raise it again.
    await page.waitForTimeout(11_000);
    expect(await lowAlerts().count()).toBe(1);
    await asUser('U0RILEY');
    await openChannel('treasury');
  }, 60_000);

  it('a digest posted from the panel reads in words, and its 30-day chart loads in its thread as a PNG', async () => {
    await page.getByTestId('control-digest-now').click();
    await expect.poll(() => page.getByTestId('control-status').innerText(), { timeout: 30_000 }).toMatch(/digest/i);
    await openChannel('treasury-alerts');
    const digest = messages().filter({ hasText: 'Digest (posted on request)' }).last();
    await digest.waitFor({ timeout: 30_000 });
    expect(await digest.innerText()).toMatch(/Total/);
    const entryId = await digest.getAttribute('data-entry-id');
    const group = page.locator('.msg-group').filter({ has: page.locator(`[data-entry-id="${entryId}"]`) });
    const toggle = group.getByTestId('thread-toggle');
    await toggle.waitFor({ timeout: 30_000 });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const image = group.getByTestId('thread-replies').getByTestId('file-image');
    await image.waitFor({ timeout: 30_000 });
    // The browser decoded it (a real image), and the bytes behind it are a non-empty PNG.
    await expect
      .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    // Fetched as Slack's client would, with the bot-free file URL the message carries.
    const source = new URL(String(await image.getAttribute('src')), page.url());
    const bytes = new Uint8Array(await (await fetch(source)).arrayBuffer());
    const png = { size: bytes.length, magic: Array.from(bytes.slice(0, 4)) };
    expect(png.magic).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(png.size).toBeGreaterThan(5_000);
    await image.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshot('workspace-digest.png') });
    await openChannel('treasury');
  }, 60_000);

  it('Avery opens Home and sees the quote Riley asked for, waiting for Avery', async () => {
    await asUser('U0RILEY');
    await openChannel('treasury');
    await send('/treasury swap 1,234 USDT@ETH to USDC@ETH');
    await messages()
      .filter({ hasText: '1,234 USDT' })
      .filter({ has: page.getByRole('button', { name: 'Approve' }) })
      .last()
      .waitFor({ timeout: 15_000 });
    await asUser('U0AVERY');
    await page.getByTestId('home-tab').click();
    const home = page.getByTestId('home-body');
    await expect.poll(() => home.innerText(), { timeout: 15_000 }).toMatch(/Waiting for your approval/);
    expect(await home.innerText()).toMatch(/1,234 USDT/);
    expect(await home.innerText()).toMatch(/requested by @Riley Chen/);
    expect(await home.innerText()).toMatch(/below its threshold|threshold/);
    // The runway, shortest first (USDT@BSC was drained above), from the balance history the workspace keeps.
    expect(await home.innerText()).toMatch(/Runway \(at the outflow of the last 7 days\)\n• USDT@BSC: [^\n]*\/day/);
    expect(await home.innerText()).toMatch(/USDC@POLYGON: about \d\.\d days at \$[\d,.]+\/day \(7-day outflow/);
    await page.screenshot({ path: screenshot('workspace-home.png') });
    await asUser('U0RILEY');
    await openChannel('treasury');
  }, 60_000);

  it('Riley creates a payout container: the confirm dialog restates asset and name, and the proposal becomes the created payout', async () => {
    await asUser('U0RILEY');
    await openChannel('treasury');
    const before = workspace.simulator.payoutContainers().length;
    await send('/treasury payout create USDT@BSC "November affiliates"');
    const proposal = messages()
      .filter({ has: page.getByRole('button', { name: 'Create payout' }) })
      .last();
    await proposal.waitFor({ timeout: 10_000 });
    expect(await proposal.innerText()).toMatch(/November affiliates/);
    const entryId = await proposal.getAttribute('data-entry-id');
    // Nothing reaches the payment service before the dialog is confirmed.
    expect(workspace.simulator.payoutContainers()).toHaveLength(before);
    await proposal.getByRole('button', { name: 'Create payout' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const dialogText = await dialog.innerText();
    expect(dialogText).toContain('November affiliates');
    expect(dialogText).toContain('USDT@BSC');
    await page.screenshot({ path: screenshot('workspace-payout-confirm.png') });
    await dialog.getByTestId('confirm-yes').click();
    const same = page.locator(`[data-testid="message"][data-entry-id="${entryId}"]`);
    await expect.poll(() => same.innerText(), { timeout: 15_000, interval: 300 }).toMatch(/Payout container created/);
    const containers = workspace.simulator.payoutContainers();
    expect(containers).toHaveLength(before + 1);
    const created = containers.at(-1)!;
    expect(created.name).toBe('November affiliates');
    expect(await same.innerText()).toContain(created.id);
    expect(await same.getByRole('button', { name: 'Create payout' }).count()).toBe(0);
  }, 45_000);

  it('an invoice Riley made is paid (a panel control): Riley hears it in a direct message from the bot', async () => {
    await asUser('U0RILEY');
    await openChannel('treasury');
    await send('/treasury invoice $49.99 Annual plan');
    const created = lastMessageWith('Invoice created: $49.99 — Annual plan');
    await created.waitFor({ timeout: 10_000 });
    expect(await created.innerText()).toMatch(/direct message from the bot when this invoice is paid or expires/);
    const invoiceId = workspace.simulator.pendingInvoices().find((i) => i.productTitle === 'Annual plan')?.id;
    expect(invoiceId).toBeTruthy();
    // The menu asks the workspace what is pending when it gets focus, as a person opening it would.
    const menu = page.getByTestId('control-invoice-paid-choice');
    await menu.focus();
    await expect.poll(() => menu.locator(`option[value="${invoiceId}"]`).count()).toBe(1);
    await menu.selectOption(invoiceId!);
    await page.getByTestId('control-invoice-paid').click();
    await expect.poll(() => page.getByTestId('control-status').innerText()).toMatch(/is paid/);
    // A new invoice is checked every 2 minutes: move the clock so the next poll (every 10 s here) checks it.
    await page.getByTestId('control-clock-2m').click();
    await page.getByTestId('dm-treasury').click();
    const notice = messages().filter({ hasText: 'Your invoice $49.99 — Annual plan is now paid' });
    await expect.poll(() => notice.count(), { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    expect(await notice.count()).toBe(1);
    expect(await notice.last().innerText()).toContain(invoiceId!);
    await notice.last().scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshot('workspace-invoice-paid.png') });
    await openChannel('treasury');
  }, 60_000);

  it('Avery (an admin) asks for the audit trail: the CSV arrives in the DM, offered for download, and holds the session', async () => {
    await asUser('U0AVERY');
    await openChannel('treasury');
    await send('/treasury audit 30d');
    await lastMessageWith('Preparing the audit trail of the last 30d').waitFor({ timeout: 10_000 });
    // Slack has the file in Avery's DM with the bot…
    const shared = await workspace.slack.waitFor(
      // Her DM also holds the enrolment QR code: the audit file is the one sent with the trail's words.
      () =>
        workspace.slack
          .messages('D0AVERYBOT')
          .find((m) => m.files !== undefined && (m.text ?? '').startsWith('Audit trail')),
      30_000,
      'the audit file in the DM',
    );
    expect(shared.text).toMatch(/^Audit trail of the last 30d: \d+ events/);
    // …and the page shows it there, as Slack's client does.
    await page.getByTestId('dm-treasury').click();
    const file = messages().filter({ hasText: 'Audit trail of the last 30d' }).last().getByTestId('file');
    await file.waitFor({ timeout: 30_000 });
    expect(await file.innerText()).toMatch(/CSV/);
    const download = file.getByTestId('file-download');
    expect(await download.getAttribute('download')).toMatch(/\.csv$/);
    // The page redraws the timeline when anything arrives (a poll's alert, say): an element found just before the
    // redraw is detached mid-scroll. The locator finds the redrawn one on the next try.
    for (let attempt = 1; ; attempt++) {
      try {
        await file.scrollIntoViewIfNeeded({ timeout: 5_000 });
        break;
      } catch (error) {
        if (attempt >= 5 || !/not attached to the DOM/.test(String(error))) throw error;
      }
    }
    await page.screenshot({ path: screenshot('workspace-audit-csv.png') });
    // The link the page offers, fetched as the browser would: the events of this session, quoted as RFC 4180 says.
    const csv = await (await fetch(new URL(String(await download.getAttribute('href')), page.url()))).text();
    const [header, ...lines] = csv.split('\r\n');
    expect(header).toBe(
      'time,category,event,subject_id,actor,asset,amount,amount_units,usd_value,to_asset,to_amount,policy,status,swap_id,payout_id,detail,second_factor',
    );
    expect(lines.some((line) => /,swap_quote,approved,/.test(line))).toBe(true);
    expect(lines.some((line) => /,threshold,set,/.test(line))).toBe(true);
    expect(lines.some((line) => /,alert,acknowledged,/.test(line))).toBe(true);
    expect(lines.some((line) => /,payout,requested,/.test(line) && line.includes('name: November affiliates'))).toBe(
      true,
    );
    expect(lines.some((line) => /,payout,created,/.test(line))).toBe(true);
    // The money controls of this session: Avery's enrolment, her approval with a code, the freeze and its lifting;
    // never the secret she scanned.
    expect(lines.some((line) => /,second_factor,enrolled,/.test(line) && line.includes('U0AVERY'))).toBe(true);
    expect(lines.some((line) => /,swap_quote,approved,/.test(line) && line.endsWith(',yes'))).toBe(true);
    expect(lines.some((line) => /,freeze,frozen,/.test(line) && line.includes('strange quote'))).toBe(true);
    expect(lines.some((line) => /,freeze,unfrozen,/.test(line))).toBe(true);
    expect(csv).not.toContain(averySecret);
    await asUser('U0RILEY');
    await openChannel('treasury');
  }, 60_000);

  it('renders Block Kit and mrkdwn as Slack does, shows an unknown block raw, and never runs text as HTML', async () => {
    await openChannel('treasury');
    // Posted through the stand-in's Web API with the bot's token, as the bot posts.
    const at = Math.floor(Date.UTC(2026, 1, 18, 12, 0) / 1000); // noon UTC: the same date in every time zone but the extremes
    const text =
      '*bold* _italic_ ~gone~ `inline` <https://example.com/x?a=1&amp;b=2|a link> <@U0AVERY> <#C0ALERTS|treasury-alerts> ' +
      `<!date^${at}^{date_num}|the fallback> &lt;img src=x onerror="window.__pwned=1"&gt;\n>quoted line\n\`\`\`code *not bold*\`\`\``;
    const response = await fetch(`${workspace.slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workspace.botToken}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        channel: 'C0TREASURY',
        text: 'render check',
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: 'Render check' } },
          { type: 'section', text: { type: 'mrkdwn', text }, fields: [{ type: 'mrkdwn', text: '*Field*\nvalue' }] },
          { type: 'divider' },
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'small print' }] },
          {
            type: 'video',
            title: { type: 'plain_text', text: 'a block this page does not draw' },
            video_url: 'https://example.com/v',
            thumbnail_url: 'https://example.com/t.png',
            alt_text: 'v',
          },
        ],
      }),
    });
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
    const message = lastMessageWith('Render check');
    await message.waitFor({ timeout: 10_000 });
    const body = message.getByTestId('message-body');
    expect(await body.locator('b', { hasText: 'bold' }).count()).toBe(1);
    expect(await body.locator('i', { hasText: 'italic' }).count()).toBe(1);
    expect(await body.locator('s', { hasText: 'gone' }).count()).toBe(1);
    expect(await body.locator('code', { hasText: 'inline' }).count()).toBe(1);
    expect(await body.locator('a', { hasText: 'a link' }).getAttribute('href')).toBe('https://example.com/x?a=1&b=2');
    expect(await body.locator('.mention', { hasText: '@Avery Patel' }).count()).toBe(1);
    expect(await body.locator('.mention', { hasText: '#treasury-alerts' }).count()).toBe(1);
    expect(await body.locator('.date').innerText()).toBe('2026-02-18');
    expect(await body.locator('blockquote', { hasText: 'quoted line' }).count()).toBe(1);
    expect(await body.locator('pre', { hasText: 'code *not bold*' }).count()).toBe(1);
    expect(await body.innerText()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await message.getByTestId('raw-block').innerText()).toContain('video');
  });

  it('raised no error in the page during the whole session', () => {
    expect(problems).toEqual([]);
  });
});

describe.skipIf(!available)('the local workspace in Socket Mode, in Chromium', () => {
  let socketWorkspace: LocalWorkspace;
  let socketBrowser: Browser;
  let socketPage: Page;
  const socketProblems: string[] = [];
  beforeAll(async () => {
    socketWorkspace = await startLocalWorkspace({ port: 0, activityEverySeconds: 0, socketMode: true });
    ({ browser: socketBrowser, page: socketPage } = await openPage(socketWorkspace.url, socketProblems));
  }, 30_000);
  afterAll(async () => {
    await socketBrowser?.close();
    await socketWorkspace?.close();
  });

  it('shows the bot connected; after Slack drops the connection the bot reconnects and a command gets its answer', async () => {
    const connection = socketPage.getByTestId('bot-connection');
    await expect.poll(() => connection.innerText()).toBe('Bot connected · 0 reconnects');
    expect(await socketPage.getByTestId('team-sub').innerText()).toContain('Socket Mode');

    await socketPage.getByTestId('control-socket-drop').click();
    await expect.poll(() => connection.innerText(), { timeout: 10_000 }).toBe('Bot connected · 1 reconnect');
    expect(socketWorkspace.socket!.connectionCount()).toBe(2);

    const composer = socketPage.getByTestId('composer');
    await composer.fill('/treasury balances');
    await composer.press('Enter');
    const reply = socketPage.getByTestId('timeline').getByTestId('message').filter({ hasText: 'USDC' }).last();
    await reply.waitFor({ timeout: 10_000 });
    expect(await reply.getAttribute('data-ephemeral')).toBe('true');
    await socketPage.screenshot({ path: screenshot('workspace-socket.png') });
    expect(socketProblems).toEqual([]);
  }, 30_000);
});
