// Invoices that report back, end to end on both stores: `/treasury invoice …` over signed HTTP, the
// simulator moving the invoice out of pending, polls started by hand; the creator's direct message and the shared
// copy as the Slack stand-in holds them. Every count is read after the outcome it guards was waited for.
import { afterEach, describe, expect, it } from 'vitest';
import { storesUnderTest, usePostgres } from '../alerts/rig.js';
import { findButtons } from '../support/rig/blocks-text.js';
import { AVERY, BLAKE, HOUR, type InvoiceRig, MINUTE, OPS, startInvoiceRig, textOf } from './rig.js';

const postgres = usePostgres('invoices_e2e');
const stores = storesUnderTest(postgres);

describe.each(stores)('invoices that report back, on %s', (_name, storeChoice) => {
  let rig: InvoiceRig | undefined;
  const start = async (env: Record<string, string> = {}, slack?: { imHistory?: boolean }) => {
    rig = await startInvoiceRig({ store: await storeChoice(), env, ...(slack ? { slack } : {}) });
    return rig;
  };
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('paid in the simulator: the next due poll sends its creator one direct message with the status and amounts, and rewrites the shared copy', async () => {
    const r = await start();
    const made = await r.invoice('$49.99 Pro plan');
    expect(made.text).toContain('You will get a direct message from the bot when this invoice is paid or expires.');
    const copy = await r.share(made, BLAKE);
    expect(textOf(copy)).toContain(`shared by <@${BLAKE}>`);
    r.simulator.resetRequests(); // the share read the invoice once; count the follower's checks from here

    await r.pollAfter(MINUTE); // not due yet (every 2 minutes while younger than an hour)
    expect(r.checksOf(made.id)).toBe(0);
    r.simulator.setInvoiceStatus(made.id, 'paid', { usdCents: '4999' });
    await r.pollAfter(MINUTE);
    const [dm] = await r.slack.waitFor(() => (r.dms(AVERY).length > 0 ? r.dms(AVERY) : undefined));
    expect(textOf(dm!)).toMatch(/Your invoice \*\$49\.99 — Pro plan\* is now \*paid\*/);
    expect(textOf(dm!)).toContain('$49.99');
    expect(textOf(dm!)).toContain(made.id);
    // Message metadata carries its key: a lost answer is looked for, never posted twice.
    expect(dm!.metadata).toEqual({ event_type: 'treasury_invoice', event_payload: { key: `invoice:${made.id}` } });

    const rewritten = await r.slack.waitFor(() => {
      const now = r.slack.messages(OPS).find((m) => m.ts === copy.ts);
      return now && now.history.length > 1 ? now : undefined;
    });
    expect(textOf(rewritten)).toContain('paid');
    expect(textOf(rewritten)).toContain(`shared by <@${BLAKE}>`);
    expect(findButtons(rewritten.blocks ?? [])).toEqual([]);

    // Following ended: more polls neither check it again nor say it again.
    const checks = r.checksOf(made.id);
    expect(checks).toBe(1);
    for (let i = 0; i < 3; i++) await r.pollAfter(10 * MINUTE);
    expect(r.checksOf(made.id)).toBe(checks);
    expect(r.dms(AVERY)).toHaveLength(1);
    expect(r.slack.messages(OPS).find((m) => m.ts === copy.ts)!.history).toHaveLength(2);
    expect(await r.replica().store.invoices.listInvoices()).toEqual([]);
  });

  it('with the poller off (no ALERT_CHANNEL) nothing follows invoices, and the reply promises nothing', async () => {
    const r = await start({ ALERT_CHANNEL: '' });
    const made = await r.invoice('$49.99 Unfollowed');
    expect(made.text).toContain('Invoice created: $49.99 — Unfollowed');
    expect(made.text).not.toContain('direct message');
    expect(await r.replica().store.invoices.listInvoices()).toEqual([]);
  });

  it('a status the spec never names is shown as the API sends it, with the amounts it gives; a deleted shared copy is dropped quietly', async () => {
    const r = await start();
    const made = await r.invoice('$120 Consulting <&> Q4');
    const copy = await r.share(made, BLAKE);
    expect(r.slack.deleteMessage(OPS, copy.ts)).toBe(true);
    r.simulator.setInvoiceStatus(made.id, 'partially_paid<&>', { usdCents: '6000' });
    await r.pollAfter(2 * MINUTE);
    const [dm] = await r.slack.waitFor(() => (r.dms(AVERY).length > 0 ? r.dms(AVERY) : undefined));
    const text = textOf(dm!);
    expect(text).toContain('is now *partially_paid&lt;&amp;&gt;*');
    expect(text).toContain('$60.00');
    expect(text).toContain('Consulting &lt;&amp;&gt; Q4');
    await r.slack.waitFor(() => (r.slack.callsOf('chat.update').length > 0 ? true : undefined));
    expect(await r.replica().store.invoices.listInvoices()).toEqual([]);

    // A crypto invoice: the crypto amount the API gives after the payment, in token units.
    const crypto = await r.invoice('0.05 ETH Audit');
    r.simulator.setInvoiceStatus(crypto.id, 'overpaid', { cryptoAmount: '60000000000000000' });
    await r.pollAfter(2 * MINUTE);
    const [, second] = await r.slack.waitFor(() => (r.dms(AVERY).length > 1 ? r.dms(AVERY) : undefined));
    expect(textOf(second!)).toMatch(/Your invoice \*0\.06 ETH — Audit\* is now \*overpaid\*/);
    expect(r.logs.filter((line) => / (WARN|ERROR) /.test(line) && line.includes('invoice follow'))).toEqual([]);
    expect(r.logs.some((line) => line.includes('a shared copy is gone from Slack'))).toBe(true);
  });

  it('still pending past expiredAt: one "expired unpaid" message, from a check a minute after expiredAt', async () => {
    const r = await start();
    const made = await r.invoice('$10 Coffee --expires 75m');
    const copy = await r.share(made, AVERY);
    r.simulator.resetRequests(); // the share read the invoice once; count the follower's checks from here
    await r.pollAfter(70 * MINUTE); // overdue: checked now; older than an hour, its next check would be in 10 minutes
    expect(r.checksOf(made.id)).toBe(1);
    for (let i = 0; i < 5; i++) await r.pollAfter(MINUTE);
    expect(r.checksOf(made.id)).toBe(1);
    expect(r.dms(AVERY)).toEqual([]);
    await r.pollAfter(MINUTE); // a minute after expiredAt, before the 10 minutes are up
    const [dm] = await r.slack.waitFor(() => (r.dms(AVERY).length > 0 ? r.dms(AVERY) : undefined));
    expect(textOf(dm!)).toMatch(/Your invoice \*\$10\.00 — Coffee\* expired unpaid at/);
    expect(r.checksOf(made.id)).toBe(2);
    const rewritten = await r.slack.waitFor(() => {
      const now = r.slack.messages(OPS).find((m) => m.ts === copy.ts);
      return now && now.history.length > 1 ? now : undefined;
    });
    expect(textOf(rewritten)).toContain('expired unpaid (the payment service still says pending)');
    await r.pollAfter(HOUR);
    expect(r.dms(AVERY)).toHaveLength(1);
  });

  it('over INVOICE_FOLLOW_MAX the oldest is dropped: its creator is told (with the id) and hears nothing more of it', async () => {
    const r = await start({ INVOICE_FOLLOW_MAX: '2' });
    const oldest = await r.invoice('$1 First', BLAKE);
    const copy = await r.share(oldest, BLAKE);
    const second = await r.invoice('$2 Second');
    const third = await r.invoice('$3 Third');
    r.simulator.resetRequests();
    await r.poll();
    const [note] = await r.slack.waitFor(() => (r.dms(BLAKE).length > 0 ? r.dms(BLAKE) : undefined));
    expect(textOf(note!)).toContain('no longer follows your invoice *$1.00 — First*');
    expect(textOf(note!)).toContain('at most 2 open invoices');
    expect(textOf(note!)).toContain(`/treasury invoice ${oldest.id}`);
    const rewritten = await r.slack.waitFor(() => {
      const now = r.slack.messages(OPS).find((m) => m.ts === copy.ts);
      return now && now.history.length > 1 ? now : undefined;
    });
    expect(textOf(rewritten)).toContain('No longer followed by the bot since');

    for (const made of [oldest, second, third]) r.simulator.setInvoiceStatus(made.id, 'paid');
    await r.pollAfter(2 * MINUTE);
    await r.slack.waitFor(() => (r.dms(AVERY).length === 2 ? true : undefined));
    expect(r.dms(AVERY).map(textOf).join('\n')).toMatch(/Second\* is now \*paid[\s\S]*Third\* is now \*paid/);
    expect(r.dms(BLAKE)).toHaveLength(1);
    expect(r.checksOf(oldest.id)).toBe(0);
  });

  it('backoff by age: a day-old invoice is checked every 10 minutes, not at every poll, while a new one is checked every 2', async () => {
    const r = await start();
    const old = await r.invoice('$5 Old --expires 24h');
    await r.pollAfter(23 * HOUR); // its first check, long overdue
    const young = await r.invoice('$6 Young');
    for (let i = 0; i < 9; i++) await r.pollAfter(MINUTE);
    r.simulator.setInvoiceStatus(old.id, 'paid');
    await r.pollAfter(MINUTE);
    await r.slack.waitFor(() => (r.dms(AVERY).some((m) => textOf(m).includes('Old')) ? true : undefined));
    // One check at +23 h, the next 10 minutes later (which found it paid); the young one every 2 minutes.
    expect(r.checksOf(old.id)).toBe(2);
    expect(r.checksOf(young.id)).toBe(5);
  });

  it('the API failing a check ends the round (the other due invoices wait for the next poll, not its retries); then both are checked', async () => {
    const r = await start();
    const first = await r.invoice('$7 First');
    const second = await r.invoice('$8 Second');
    r.simulator.resetRequests();
    r.simulator.injectFault('getInvoice', { status: 503 }, 20);
    await r.pollAfter(2 * MINUTE);
    // Both were due; one was tried (with the client's retries) and the round ended there.
    const tried = [r.checksOf(first.id), r.checksOf(second.id)];
    expect(tried.filter((n) => n > 0)).toHaveLength(1);
    r.simulator.clearFaults();
    r.simulator.setInvoiceStatus(first.id, 'paid');
    r.simulator.setInvoiceStatus(second.id, 'paid');
    await r.pollAfter(2 * MINUTE);
    await r.slack.waitFor(() => (r.dms(AVERY).length === 2 ? true : undefined));
    expect(
      r
        .dms(AVERY)
        .map((m) => textOf(m).match(/\$(7|8)\.00 — (First|Second)/)?.[2])
        .sort(),
    ).toEqual(['First', 'Second']);
  });

  it('Slack refusing the direct message (rate limited): tried again at the next poll, sent once', async () => {
    const r = await start();
    const made = await r.invoice('$7 Retry');
    r.simulator.setInvoiceStatus(made.id, 'paid');
    r.slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 }, 1, { textIncludes: 'is now paid' });
    await r.pollAfter(2 * MINUTE);
    await r.slack.waitFor(() => r.logs.some((line) => line.includes('trying again at the next poll')) || undefined);
    expect(r.dms(AVERY)).toEqual([]);
    await r.pollAfter(MINUTE);
    await r.slack.waitFor(() => (r.dms(AVERY).length > 0 ? true : undefined));
    await r.pollAfter(MINUTE);
    expect(r.dms(AVERY)).toHaveLength(1);
    expect(r.checksOf(made.id)).toBe(1);
  });

  it('a restart between the commit and the direct message: the message is neither lost nor doubled', async () => {
    const r = await start();
    // (a) the DM could not even be opened: owed after the commit; the restarted bot sends it.
    const owed = await r.invoice('$8 Owed');
    // (b) Slack posted it but its answer was lost: found in the DM after the restart, not posted again.
    const lost = await r.invoice('$9 Lost');
    // (c) the connection failed before Slack posted it: not there; posted once Slack had time to finish.
    const unsent = await r.invoice('$11 Unsent');
    for (const made of [owed, lost, unsent]) r.simulator.setInvoiceStatus(made.id, 'paid');
    r.slack.failNext('conversations.open', { status: 500 }, 1);
    r.slack.failNext('chat.postMessage', { dropAnswer: true }, 1, { textIncludes: 'Lost is now paid' });
    r.slack.failNext('chat.postMessage', { reset: true }, 1, { textIncludes: 'Unsent is now paid' });
    await r.pollAfter(2 * MINUTE);
    await r.slack.waitFor(() => (r.dms(AVERY).length === 1 ? true : undefined));
    expect(textOf(r.dms(AVERY)[0]!)).toContain('Lost* is now *paid*');

    await r.restart();
    await r.poll();
    await r.slack.waitFor(() => (r.dms(AVERY).length === 2 ? true : undefined));
    expect(textOf(r.dms(AVERY)[1]!)).toContain('Owed* is now *paid*');
    expect(r.logs.some((line) => line.includes('is in the DM; recorded, not sent again'))).toBe(true);
    // The unsent one waits until Slack has had two minutes to carry out the first attempt.
    await r.pollAfter(2 * MINUTE);
    await r.slack.waitFor(() => (r.dms(AVERY).length === 3 ? true : undefined));
    expect(r.logs.some((line) => line.includes('is not in the DM; posting it'))).toBe(true);
    await r.pollAfter(5 * MINUTE);
    const texts = r.dms(AVERY).map(textOf);
    expect(texts).toHaveLength(3);
    for (const title of ['Owed', 'Lost', 'Unsent'])
      expect(texts.filter((text) => text.includes(`${title}* is now *paid*`))).toHaveLength(1);
    expect(await r.replica().store.invoices.listInvoices()).toEqual([]);
  });

  it('without im:history a direct message whose answer was lost cannot be checked: it is not sent again, and the log says it may be missing', async () => {
    const r = await start({}, { imHistory: false });
    const made = await r.invoice('$12 Unchecked');
    r.simulator.setInvoiceStatus(made.id, 'paid');
    r.slack.failNext('chat.postMessage', { dropAnswer: true }, 1, { textIncludes: 'is now paid' });
    await r.pollAfter(2 * MINUTE);
    await r.slack.waitFor(() => (r.dms(AVERY).length === 1 ? true : undefined));
    await r.pollAfter(5 * MINUTE);
    await r.slack.waitFor(() => r.logs.some((line) => line.includes('it may be missing')) || undefined);
    await r.pollAfter(5 * MINUTE);
    expect(r.dms(AVERY)).toHaveLength(1);
    expect(r.slack.callsOf('conversations.history').length).toBeGreaterThan(0);
    expect(await r.replica().store.invoices.listInvoices()).toEqual([]);
  });
});
