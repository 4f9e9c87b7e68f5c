import { afterEach, describe, expect, it } from 'vitest';
import { DAY, mentions, type PollerRig, type PollerRigOptions, startPollerRig } from './helpers.js';

let rig: PollerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function startInstalled(options: PollerRigOptions = {}): Promise<PollerRig> {
  rig = await startPollerRig(options);
  await rig.poll();
  return rig;
}

describe('when Slack refuses or fails', () => {
  it('Slack failing for two polls (HTTP 503, then 429 ratelimited), then recovering: the alert arrives once', async () => {
    const r = await startInstalled();
    const w = r.sim.addWithdrawal({ status: 'failed' });
    r.slack.failNext('chat.postMessage', { status: 503 });
    const first = await r.poll();
    expect(first).toMatchObject({ queued: 1, posted: 0, waiting: 1, slackError: 'HTTP 503' });
    // Not recorded as alerted until Slack accepted it.
    expect(r.store.read().alerts.alerted).not.toHaveProperty(`withdrawal:${w.id}`);

    r.slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const second = await r.poll();
    expect(second.slackError).toMatch(/^ratelimited/);
    expect(r.messages()).toHaveLength(0);

    // Within the Retry-After, a poll leaves Slack alone; once it has passed, the alert goes out.
    const held = await r.poll();
    expect(held.slackError).toMatch(/^ratelimited \(waiting 1 s more/);
    expect(r.slack.callsOf('chat.postMessage')).toHaveLength(2);
    r.sim.advanceTime(1_000);
    const third = await r.poll();
    expect(third).toMatchObject({ queued: 0, posted: 1, alerted: 1, waiting: 0 });
    for (let i = 0; i < 3; i++) await r.poll();
    expect(mentions(r, w.id)).toBe(1);
    expect(r.slack.callsOf('chat.postMessage')).toHaveLength(3);
    expect(r.store.read().alerts.alerted[`withdrawal:${w.id}`]?.at).toBeDefined();
  });

  it('an ok:false answer keeps the alert too, and the rest of the outbox waits behind it in order', async () => {
    const r = await startInstalled();
    const a = r.sim.addWithdrawal({ status: 'failed', createdAt: r.sim.now() - 2000 });
    const b = r.sim.addPayoutTask({ status: 'failed' });
    r.slack.failNext('chat.postMessage', { error: 'internal_error' });
    const report = await r.poll();
    expect(report).toMatchObject({ posted: 0, waiting: 2, slackError: 'internal_error' });
    await r.poll();
    expect(r.texts().map((t) => (t.includes(a.id) ? 'a' : t.includes(b.id) ? 'b' : '?'))).toEqual(['a', 'b']);
  });

  it('a summary Slack refused is posted later, once, covering the failures of both polls', async () => {
    const r = await startInstalled();
    for (let i = 0; i < 8; i++) r.sim.addPayoutTask({ status: 'failed' });
    r.slack.failNext('chat.postMessage', { status: 500 });
    await r.poll();
    for (let i = 0; i < 3; i++) r.sim.addPayoutTask({ status: 'failed' });
    await r.poll();
    expect(r.messages()).toHaveLength(1);
    expect(r.texts()[0]).toContain('11 payout tasks failed');
    await r.poll();
    expect(r.messages()).toHaveLength(1);
  });

  it('blocks Slack refuses as invalid are posted as plain text instead of blocking the outbox', async () => {
    const r = await startInstalled();
    const w = r.sim.addWithdrawal({ status: 'failed' });
    r.slack.failNext('chat.postMessage', { error: 'invalid_blocks' });
    await r.poll();
    const [message] = r.messages();
    expect(message?.blocks).toBeUndefined();
    expect(message?.text).toContain(`Withdrawal failed: 100 ETH`);
    expect(message?.text).toContain(w.id);
    expect(r.store.read().alerts.outbox).toEqual([]);
  });
});

describe('when the payment API fails', () => {
  it('5xx, 429 and dropped connections for five polls: one "cannot reach", failures caught up, then it resolves itself', async () => {
    const r = await startInstalled();
    const w = r.sim.addWithdrawal({ status: 'failed' });
    const t = r.sim.addPayoutTask({ status: 'failed' });
    const g = r.sim.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' });
    r.sim.injectFault('listWithdrawals', { status: 503 }, 5);
    r.sim.injectFault('listPayoutTasks', { status: 429, headers: { 'Retry-After': '0' } }, 5);
    r.sim.injectFault('listGasDistributions', { destroySocket: true }, 5);
    for (let poll = 1; poll <= 5; poll++) {
      const report = await r.poll();
      expect(report.sources.withdrawals).toMatchObject({ ok: false, code: 'server' });
      expect(report.sources.tasks).toMatchObject({ ok: false, code: 'rate_limited' });
      expect(report.sources.gas).toMatchObject({ ok: false, code: 'network' });
      expect(r.messages()).toHaveLength(poll < 3 ? 0 : 1);
      r.sim.advanceTime(60_000);
    }
    const down = r.texts()[0]!;
    expect(down).toContain('Cannot reach the payment API');
    expect(down).toMatch(/Withdrawals\*: listWithdrawals: the payment API failed with HTTP 503.* \(3 polls in a row\)/);
    expect(down).toContain('*Payout tasks*: listPayoutTasks: rate limited (429)');
    expect(down).toContain('*Gas top-ups*: listGasDistributions: could not reach the payment API');
    expect(down).not.toContain(r.sim.apiKey);

    await r.poll();
    const texts = r.texts();
    // The outage alert is one people own, so it resolves itself (rewritten, and told in its thread)
    // instead of a second message saying the API answers again.
    expect(texts).toHaveLength(4);
    for (const id of [w.id, t.id, g.id]) expect(mentions(r, id)).toBe(1);
    const outage = Object.values(r.store.read().alerts.owned ?? {}).find((alert) => alert.kind === 'watcher');
    expect(outage?.life).toMatchObject({
      state: 'resolved',
      resolution: { by: 'facts', reason: 'the payment API answers again' },
    });
    for (let i = 0; i < 3; i++) await r.poll();
    expect(r.messages()).toHaveLength(4);
    expect(r.texts().filter((x) => x.includes('Cannot reach'))).toHaveLength(1);
  });

  it('two failed polls are not an outage: no message', async () => {
    const r = await startInstalled();
    r.sim.injectFault('listWithdrawals', { status: 500 }, 2);
    await r.poll();
    await r.poll();
    await r.poll();
    expect(r.messages()).toHaveLength(0);
    expect(r.store.read().alerts.sources.withdrawals.consecutiveFailures).toBe(0);
  });

  it('a rejected key (401) is alerted at once, once, and never shows the key', async () => {
    rig = await startPollerRig({ apiKey: () => 'sim-revoked-key-0123456789' });
    const r = rig;
    await r.poll();
    expect(r.messages()).toHaveLength(1);
    const [text] = r.texts();
    expect(text).toContain("The payment API refuses the bot's key");
    expect(text).toContain('listWithdrawals: the API key was rejected (401)');
    expect(text).toContain('PAYMENTS_API_KEY');
    expect(JSON.stringify(r.messages())).not.toContain('sim-revoked-key');
    for (let i = 0; i < 3; i++) await r.poll();
    expect(r.messages()).toHaveLength(1);
    expect(r.logs.join('\n')).not.toContain('sim-revoked-key');
  });

  it('a key without the permissions (403) names what is missing', async () => {
    rig = await startPollerRig({ apiKey: (sim) => sim.keys.noPermissions });
    await rig.poll();
    const [text] = rig.texts();
    expect(text).toContain('lacks the withdrawal permission (403)');
    expect(text).toContain('lacks the can_payout permission (403)');
    expect(text).toContain('lacks the can_invoice permission (403)');
  });
});

describe('cost and size', () => {
  it('an idle poll reads one page of each list of new rows, plus the pending rows that are due: at most 6 requests', async () => {
    const r = await startInstalled({ seed: true });
    await r.poll();
    const taskQueries: Record<string, string | undefined>[] = [];
    // Twelve idle minutes: the last day of the task pending list is read once in ten (new pending tasks).
    for (let i = 0; i < 12; i++) {
      r.sim.advanceTime(60_000);
      r.sim.resetRequests();
      const report = await r.poll();
      expect(report.queued).toBe(0);
      expect(r.sim.requestCount()).toBeLessThanOrEqual(6);
      expect(r.sim.requestCount('listWithdrawals')).toBe(1);
      expect(r.sim.requestCount('listPayoutTasks')).toBeLessThanOrEqual(2); // status=failed, and status=pending when due
      expect(r.sim.requestCount('getPayoutTask')).toBe(0);
      taskQueries.push(...r.sim.requests.filter((q) => q.operation === 'listPayoutTasks').map((q) => q.query));
    }
    const failedQuery = taskQueries.find((q) => q.status === 'failed')!;
    // Down to the newest failed task seen less 15 minutes, not 30 days back.
    expect(Date.parse(failedQuery.createdAtFrom!)).toBeGreaterThan(r.sim.now() - 2 * DAY);
    const pendingReads = taskQueries.filter((q) => q.status === 'pending');
    expect(pendingReads).toHaveLength(1);
    // Only the last day of it.
    expect(Date.parse(pendingReads[0]!.createdAtFrom!)).toBeGreaterThan(r.sim.now() - DAY - 15 * 60_000);
    const gasQueries = r.sim.requests
      .filter((q) => q.operation === 'listGasDistributions')
      .map((q) => q.query.status ?? '(default)');
    expect(gasQueries).toContain('(default)');
    expect(gasQueries).toContain('cancelled');
  });

  it('the state file stays bounded after thousands of alerts', async () => {
    const r = await startInstalled();
    const sizes: number[] = [];
    for (let day = 1; day <= 45; day++) {
      r.sim.advanceTime(DAY);
      for (let i = 0; i < 60; i++) r.sim.addWithdrawal({ status: 'failed', createdAt: r.sim.now() - i * 60_000 });
      const report = await r.poll();
      // One summary, and its full list of 60 in two thread parts.
      expect(report).toMatchObject({ posted: 3, alerted: 60, waiting: 0 });
      // Each summary is an alert people own, kept until someone resolves it (bounded by
      // OWNED_ALERT_POLICY.maxOpen); the bookkeeping around them must stop growing.
      const { owned = {}, ...bookkeeping } = r.store.read().alerts;
      expect(Object.keys(owned)).toHaveLength(day);
      sizes.push(JSON.stringify(bookkeeping).length);
    }
    expect(r.messages().filter((m) => m.threadTs === undefined)).toHaveLength(45); // 2,700 failures, one summary a day
    expect(r.messages().filter((m) => m.threadTs !== undefined)).toHaveLength(90);
    const alerted = Object.keys(r.store.read().alerts.alerted).length;
    expect(alerted).toBeLessThanOrEqual(32 * 60);
    // After the retention period the file stops growing.
    const atDay35 = sizes[34]!;
    const atDay45 = sizes[44]!;
    expect(atDay45).toBeLessThanOrEqual(atDay35 * 1.02);
    expect(atDay45).toBeLessThan(sizes[14]! * 3);
  });
});
