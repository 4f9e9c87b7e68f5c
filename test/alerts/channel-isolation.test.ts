// One channel's fault never silences the others, through the real app on both stores: a route (ALERT_ROUTES) whose
// channel refuses for good sends its alerts to ALERT_CHANNEL with a line naming the route, `/treasury alerts` shows
// the route until a post there is accepted again, and a rate limit in one channel never holds back another's alerts.
// When ALERT_CHANNEL itself refuses, its alerts stay queued (never lost) while the routes that work go on.
import { afterEach, describe, expect, it } from 'vitest';
import { blocksToText } from '../support/rig/blocks-text.js';
import {
  ALERTS,
  type AlertRig,
  AVERY,
  BLAKE,
  SAM,
  type StoredMessage,
  startAlertRig,
  storesUnderTest,
  textOf,
  usePostgres,
} from './rig.js';

const postgres = usePostgres('channel_isolation');
const stores = storesUnderTest(postgres);

const OPS = 'C0OPS';
const PAY = 'C0PAY';
const ROUTES = `withdrawal_failed=${OPS},task_failed=${PAY}`;

/** Top-level messages of a channel (thread replies left out). */
const topLevel = (r: AlertRig, channel: string): StoredMessage[] =>
  r.slack.messages(channel).filter((m) => m.threadTs === undefined || m.threadTs === m.ts);

/** Top-level messages anywhere that mention `id`: an alert posted twice would show up twice. */
const alertsAbout = (r: AlertRig, id: string): StoredMessage[] =>
  r.slack.messages().filter((m) => (m.threadTs === undefined || m.threadTs === m.ts) && textOf(m).includes(id));

const setOps = (r: AlertRig, archived: boolean) =>
  r.slack.addConversation({ id: OPS, kind: 'public', name: 'ops', members: [AVERY, BLAKE, SAM], archived });

const statusText = async (r: AlertRig) => blocksToText((await r.command('alerts', AVERY)).blocks);

describe.each(stores)('one channel never holds back the others, on %s', (_name, storeChoice) => {
  let rig: AlertRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('a routed channel that is archived: its alert comes to ALERT_CHANNEL with a line naming the route, the other route posts in the same poll, and /treasury alerts shows the route until it works again', async () => {
    rig = await startAlertRig({ store: await storeChoice(), env: { ALERT_ROUTES: ROUTES } });
    const r = rig;
    setOps(r, true);
    // The withdrawal is older, so it is first in the outbox: before, its refusal stopped every later alert.
    const withdrawal = r.simulator.addWithdrawal({ status: 'failed', createdAt: r.simulator.now() - 60_000 });
    const task = r.simulator.addPayoutTask({ status: 'failed' });
    await r.poll();

    expect(r.slack.messages(OPS)).toEqual([]);
    const [taskAlert, ...moreInPay] = topLevel(r, PAY);
    expect(moreInPay).toEqual([]);
    expect(textOf(taskAlert!)).toContain(task.id);
    const [moved, ...moreInAlerts] = topLevel(r, ALERTS);
    expect(moreInAlerts).toEqual([]);
    expect(textOf(moved!)).toContain(withdrawal.id);
    expect(textOf(moved!)).toContain(
      'Posted here instead of <#C0OPS> (ALERT_ROUTES `withdrawal_failed`): Slack refuses to post there, the channel is archived (`is_archived`). To fix: unarchive it, or route `withdrawal_failed` to another channel in ALERT_ROUTES.',
    );
    // The log names the channel that refused, not ALERT_CHANNEL.
    const refusals = r.logs.filter((line) => line.includes('Slack refuses to post in'));
    expect(refusals.length).toBeGreaterThan(0);
    for (const line of refusals) {
      expect(line).toContain('ALERT_ROUTES withdrawal_failed (C0OPS)');
      expect(line).toContain('is_archived');
      expect(line).not.toContain('ALERT_CHANNEL');
    }

    const status = await statusText(r);
    expect(status).toContain('Channels refusing alerts');
    expect(status).toContain(
      'ALERT_ROUTES* `withdrawal_failed` → <#C0OPS>: Slack refuses to post there, the channel is archived (`is_archived`)',
    );
    expect(status).toContain('These alerts go to ALERT_CHANNEL instead until a post there is accepted.');
    expect(status).not.toContain(PAY);

    // The line stays on the alert when its message is rewritten (acknowledged).
    await r.click(moved!, 'alert_acknowledge', AVERY);
    expect(textOf(await r.waitForMessage(moved!.ts, /ACKNOWLEDGED/))).toContain('Posted here instead of <#C0OPS>');

    // Still archived at the next poll: the route is tried again, and the new alert comes to ALERT_CHANNEL too.
    const second = r.simulator.addWithdrawal({ status: 'failed' });
    await r.poll();
    expect(alertsAbout(r, second.id).map((m) => m.channel)).toEqual([ALERTS]);
    expect(await statusText(r)).toContain('Channels refusing alerts');

    // Unarchived: the next alert goes to its route again, and the route is no longer shown as refusing.
    setOps(r, false);
    const third = r.simulator.addWithdrawal({ status: 'failed' });
    await r.poll();
    expect(alertsAbout(r, third.id).map((m) => m.channel)).toEqual([OPS]);
    expect(await statusText(r)).not.toContain('Channels refusing alerts');
    // Every alert once.
    for (const id of [withdrawal.id, task.id, second.id, third.id]) expect(alertsAbout(r, id)).toHaveLength(1);
  });

  it('a rate limit (429) in one routed channel does not hold back another channel: that alert waits for the Retry-After, the others go out in the same poll', async () => {
    rig = await startAlertRig({ store: await storeChoice(), env: { ALERT_ROUTES: ROUTES } });
    const r = rig;
    const withdrawal = r.simulator.addWithdrawal({ status: 'failed', createdAt: r.simulator.now() - 60_000 });
    const task = r.simulator.addPayoutTask({ status: 'failed' });
    const gas = r.simulator.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' });
    r.slack.failNext('chat.postMessage', { status: 429, retryAfter: 30 }, 1, { channel: OPS });
    await r.poll();

    expect(alertsAbout(r, withdrawal.id)).toEqual([]);
    expect(alertsAbout(r, task.id).map((m) => m.channel)).toEqual([PAY]);
    expect(alertsAbout(r, gas.id).map((m) => m.channel)).toEqual([ALERTS]);
    // A rate limit passes by itself: nothing is shown as refusing.
    expect(await statusText(r)).not.toContain('Channels refusing alerts');

    // Within the Retry-After the channel is left alone; after it, the alert goes to its own channel, once.
    await r.poll();
    expect(r.slack.callsOf('chat.postMessage').filter((c) => c.args.channel === OPS)).toHaveLength(1);
    r.simulator.advanceTime(31_000);
    await r.poll();
    expect(alertsAbout(r, withdrawal.id).map((m) => m.channel)).toEqual([OPS]);
  });

  it('ALERT_CHANNEL itself refuses (the bot was removed from a private channel): its alerts stay queued and the log and /treasury alerts say so, the routes that work go on; once the bot is back, they are posted once', async () => {
    rig = await startAlertRig({ store: await storeChoice(), env: { ALERT_ROUTES: `task_failed=${PAY}` } });
    const r = rig;
    r.slack.addConversation({ id: ALERTS, kind: 'private', name: 'treasury-alerts', members: [AVERY, BLAKE] });
    const withdrawal = r.simulator.addWithdrawal({ status: 'failed', createdAt: r.simulator.now() - 60_000 });
    const task = r.simulator.addPayoutTask({ status: 'failed' });
    await r.poll();

    expect(alertsAbout(r, withdrawal.id)).toEqual([]);
    expect(alertsAbout(r, task.id).map((m) => m.channel)).toEqual([PAY]);
    expect(r.logs.some((line) => /ERROR.*Slack refuses to post in ALERT_CHANNEL \(C0ALERTS\)/.test(line))).toBe(true);
    const status = await statusText(r);
    expect(status).toContain('*ALERT_CHANNEL* <#C0ALERTS>: Slack refuses to post there');
    expect(status).toContain('channel_not_found');
    expect(status).toContain('Its alerts wait in the outbox (1 waiting, none lost)');

    r.slack.addConversation({
      id: ALERTS,
      kind: 'private',
      name: 'treasury-alerts',
      members: [AVERY, BLAKE, r.slack.botUserId],
    });
    await r.poll();
    expect(alertsAbout(r, withdrawal.id).map((m) => m.channel)).toEqual([ALERTS]);
    expect(await statusText(r)).not.toContain('Channels refusing alerts');
  });
});
