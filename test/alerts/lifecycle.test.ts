// An alert people own, end to end through the real app on both stores: acknowledged by one person, resolved with a
// note by another (the modal opened with the click's trigger, an empty note refused under the input), snoozed,
// stale clicks refused with the current state, and people outside the treasury team refused politely.
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_A_TREASURY_USER, OUTSIDE_ORGANISATION } from '../../src/features/access/rules.js';
import { ALERT_COLORS } from '../../src/features/alerts/blocks.js';
import { expectStaysAt } from '../support/waiting.js';
import {
  ALERTS,
  type AlertRig,
  AVERY,
  BLAKE,
  colourOf,
  controlsOf,
  HOUR,
  MINUTE,
  SAM,
  startAlertRig,
  storesUnderTest,
  textOf,
  usePostgres,
} from './rig.js';

const postgres = usePostgres('alerts_lifecycle');

const stores = storesUnderTest(postgres);

describe.each(stores)('an alert people own, on %s', (_name, storeChoice) => {
  let rig: AlertRig | undefined;
  const start = async (env: Record<string, string> = {}) => {
    rig = await startAlertRig({ store: await storeChoice(), env });
    return rig;
  };
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('A acknowledges, B resolves with a note: the message says each, the thread has one line for each', async () => {
    const { slack, ...r } = await start();
    const { id, alert } = await r.failedWithdrawal();
    expect(textOf(alert)).toMatch(/^:red_circle: \*OPEN\*/);
    expect(textOf(alert)).toContain('Nobody has acknowledged this yet.');
    expect(controlsOf(alert)).toEqual(['alert_acknowledge', 'alert_resolve', 'alert_snooze']);
    expect(colourOf(alert)).toBe(ALERT_COLORS.open);

    const ack = await r.click(alert, 'alert_acknowledge', AVERY);
    expect(ack.status).toBe(200);
    const acknowledged = await r.waitForMessage(alert.ts, /ACKNOWLEDGED/);
    expect(textOf(acknowledged)).toContain(id);
    expect(textOf(acknowledged)).toMatch(/Acknowledged by <@U0AVERY> <!date\^/);
    expect(controlsOf(acknowledged)).toEqual(['alert_resolve', 'alert_snooze']);
    expect(colourOf(acknowledged)).toBe(ALERT_COLORS.acknowledged);
    const [line] = await r.waitForThread(alert.ts, 1);
    expect(textOf(line!)).toMatch(/^:eyes: <@U0AVERY> acknowledged this/);
    // The clicker hears nothing: the message says it.
    await expectStaysAt(0, () => ack.responses().length);

    const resolveClick = await r.click(acknowledged, 'alert_resolve', BLAKE);
    const modal = await r.viewOpenedBy(resolveClick.triggerId);
    expect(modal.view).toMatchObject({ callback_id: 'alert_resolve_modal', title: { text: 'Resolve alert' } });
    // A note is required: an empty one is refused under the input, and nothing changes.
    expect(await r.submitResolve(modal, BLAKE, null)).toEqual({
      response_action: 'errors',
      errors: { resolve_note: expect.stringMatching(/write a note/) },
    });
    expect(await r.submitResolve(modal, BLAKE, '   ')).toMatchObject({ response_action: 'errors' });
    expect(textOf(r.message(alert.ts)!)).toMatch(/ACKNOWLEDGED/);

    expect(await r.submitResolve(modal, BLAKE, 'Retried from the dashboard <it went through>')).toBeNull();
    const resolved = await r.waitForMessage(alert.ts, /RESOLVED/);
    expect(textOf(resolved)).toMatch(/^:white_check_mark: \*RESOLVED\*/);
    expect(textOf(resolved)).toMatch(
      /Resolved by <@U0BLAKE> <!date\^\d+\^[^>]+>: “Retried from the dashboard &lt;it went through&gt;”/,
    );
    // Who acknowledged it stays on the message.
    expect(textOf(resolved)).toContain('Acknowledged by <@U0AVERY>');
    expect(controlsOf(resolved)).toEqual([]);
    expect(JSON.stringify(resolved.attachments)).not.toContain('"type":"actions"');
    expect(colourOf(resolved)).toBe(ALERT_COLORS.resolved);
    const replies = await r.waitForThread(alert.ts, 2);
    expect(textOf(replies[1]!)).toMatch(/^:white_check_mark: <@U0BLAKE> resolved this: “Retried from the dashboard/);
    await expectStaysAt(2, () => r.thread(alert.ts).length);
    expect(slack.messages(ALERTS).filter((m) => m.threadTs === undefined)).toHaveLength(1);
  });

  it('with ALERT_RESOLVE_NOTE=optional an empty note resolves the alert', async () => {
    const r = await start({ ALERT_RESOLVE_NOTE: 'optional' });
    const { alert } = await r.failedWithdrawal();
    const click = await r.click(alert, 'alert_resolve', BLAKE);
    const modal = await r.viewOpenedBy(click.triggerId);
    expect(JSON.stringify(modal.view)).toContain('What was done? (optional)');
    expect(await r.submitResolve(modal, BLAKE, null)).toBeNull();
    const resolved = await r.waitForMessage(alert.ts, /RESOLVED/);
    expect(textOf(resolved)).toMatch(/Resolved by <@U0BLAKE> .* \(no note\)/);
    expect(controlsOf(resolved)).toEqual([]);
    const [line] = await r.waitForThread(alert.ts, 1);
    expect(textOf(line!)).toMatch(/<@U0BLAKE> resolved this \(no note\)\./);
  });

  it('Resolve with a trigger Slack no longer takes: the clicker is asked to click again, nothing changes', async () => {
    const r = await start();
    const { alert } = await r.failedWithdrawal();
    const click = await r.click(alert, 'alert_resolve', BLAKE, { triggerIssuedAt: Date.now() - 4_000 });
    const [notice] = await click.waitForResponses(1);
    expect(notice!.responseType).toBe('ephemeral');
    expect(notice!.text).toMatch(/did not open the Resolve dialog in time.*click Resolve again/);
    expect(r.slack.views()).toHaveLength(0);
    expect(textOf(r.message(alert.ts)!)).toMatch(/OPEN/);
  });

  it('stale clicks: Resolve and Snooze from the message before it was acknowledged are refused with the current state; Acknowledge never reopens a resolved alert', async () => {
    const r = await start();
    const { alert: before } = await r.failedWithdrawal();
    await r.click(before, 'alert_acknowledge', AVERY);
    const acknowledged = await r.waitForMessage(before.ts, /ACKNOWLEDGED/);
    await r.waitForThread(before.ts, 1);

    // `before` still carries version 0 in its block_id (the copy a person had not refreshed).
    const staleResolve = await r.click(before, 'alert_resolve', BLAKE);
    const [refused] = await staleResolve.waitForResponses(1);
    expect(refused!.responseType).toBe('ephemeral');
    expect(refused!.text).toMatch(/^Nothing changed: the alert changed after your copy of the message was drawn\./);
    expect(refused!.text).toContain('Now: Acknowledged by <@U0AVERY>');
    expect(r.slack.views()).toHaveLength(0);

    const staleSnooze = await r.snooze(before, '1h', BLAKE);
    const [snoozeRefused] = await staleSnooze.waitForResponses(1);
    expect(snoozeRefused!.text).toMatch(/^Nothing changed: the alert changed after your copy/);
    expect(textOf(r.message(before.ts)!)).not.toMatch(/SNOOZED/);

    // Resolved from the current message; then an Acknowledge from the oldest copy changes nothing.
    const resolve = await r.click(acknowledged, 'alert_resolve', BLAKE);
    expect(await r.submitResolve(await r.viewOpenedBy(resolve.triggerId), BLAKE, 'done')).toBeNull();
    const resolved = await r.waitForMessage(before.ts, /RESOLVED/);
    await r.waitForThread(before.ts, 2);
    const lateAck = await r.click(before, 'alert_acknowledge', AVERY);
    const [lateRefused] = await lateAck.waitForResponses(1);
    expect(lateRefused!.text).toMatch(/^Nothing changed: <@U0BLAKE> resolved this alert <!date\^/);
    // A Snooze from the acknowledged copy is told the same.
    const lateSnooze = await r.snooze(acknowledged, '4h', AVERY);
    expect((await lateSnooze.waitForResponses(1))[0]!.text).toMatch(/^Nothing changed: <@U0BLAKE> resolved this/);
    await expectStaysAt(2, () => r.thread(before.ts).length);
    expect(textOf(r.message(before.ts)!)).toBe(textOf(resolved));
    expect(controlsOf(r.message(before.ts)!)).toEqual([]);
  });

  it('someone outside TREASURY_USERS is refused politely on every control, and nothing changes', async () => {
    const r = await start();
    const { alert } = await r.failedWithdrawal();
    const updatesBefore = r.slack.callsOf('chat.update').length;
    const clicks = [
      await r.click(alert, 'alert_acknowledge', SAM),
      await r.click(alert, 'alert_resolve', SAM),
      await r.snooze(alert, '1h', SAM),
    ];
    for (const click of clicks) {
      const [notice] = await click.waitForResponses(1);
      expect(notice!.responseType).toBe('ephemeral');
      expect(notice!.text).toBe(NOT_A_TREASURY_USER);
    }
    await expectStaysAt({ updates: updatesBefore, views: 0, replies: 0 }, () => ({
      updates: r.slack.callsOf('chat.update').length,
      views: r.slack.views().length,
      replies: r.thread(alert.ts).length,
    }));
    expect(textOf(r.message(alert.ts)!)).toMatch(/OPEN/);
  });

  it('a member of another organisation (Slack Connect) is refused on every control and the dialog, even with TREASURY_USERS=*', async () => {
    const r = await start({ TREASURY_USERS: '*' });
    const { alert } = await r.failedWithdrawal();
    // One of ours opens the Resolve dialog; the partner then submits it (the edge refuses any dialog of theirs).
    const opened = await r.click(alert, 'alert_resolve', AVERY);
    const modal = await r.viewOpenedBy(opened.triggerId);
    const alertsBefore = JSON.stringify(await r.replicas[0]!.store.alerts.readAlerts());
    const before = {
      updates: r.slack.callsOf('chat.update').length,
      views: r.slack.views().length,
      replies: r.thread(alert.ts).length,
      payments: r.simulator.requestCount(),
    };
    const partner = { teamId: 'T0PARTNER' };
    const clicks = [
      await r.click(alert, 'alert_acknowledge', 'U0PARTNER', partner),
      await r.click(alert, 'alert_resolve', 'U0PARTNER', partner),
      await r.snooze(alert, '1h', 'U0PARTNER', partner),
    ];
    for (const click of clicks) {
      expect(click.status).toBe(200);
      const [notice] = await click.waitForResponses(1);
      expect(notice).toMatchObject({ responseType: 'ephemeral', text: OUTSIDE_ORGANISATION });
    }
    const answer = await r.submitResolve(modal, 'U0PARTNER', 'fixed it', partner);
    expect(answer).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(answer)).toContain(OUTSIDE_ORGANISATION);
    await expectStaysAt(before, () => ({
      updates: r.slack.callsOf('chat.update').length,
      views: r.slack.views().length,
      replies: r.thread(alert.ts).length,
      payments: r.simulator.requestCount(),
    }));
    expect(JSON.stringify(await r.replicas[0]!.store.alerts.readAlerts())).toBe(alertsBefore);
    expect(textOf(r.message(alert.ts)!)).toMatch(/OPEN/);
  });

  it('Snooze "For 1 hour": the message says until when, one thread line, and no reminder while snoozed', async () => {
    const r = await start({ ALERT_REMIND_AFTER: '30m', ALERT_ONCALL: 'U0ONCALL' });
    const { alert } = await r.failedWithdrawal();
    const snoozedAt = r.simulator.now();
    const choice = await r.snooze(alert, '1h', AVERY);
    expect(choice.status).toBe(200);
    const snoozed = await r.waitForMessage(alert.ts, /SNOOZED/);
    const until = Math.floor((snoozedAt + HOUR) / 1000);
    expect(textOf(snoozed)).toMatch(new RegExp(`Snoozed by <@U0AVERY> until <!date\\^(${until}|${until + 1})\\^`));
    expect(colourOf(snoozed)).toBe(ALERT_COLORS.snoozed);
    // Still open: Acknowledge, Resolve and Snooze stay.
    expect(controlsOf(snoozed)).toEqual(['alert_acknowledge', 'alert_resolve', 'alert_snooze']);
    const [line] = await r.waitForThread(alert.ts, 1);
    expect(textOf(line!)).toMatch(/^:zzz: <@U0AVERY> snoozed this until <!date\^/);

    // 31 and 59 minutes later: the first reminder would be due, but the alert is snoozed.
    r.simulator.advanceTime(31 * MINUTE);
    await r.poll();
    r.simulator.advanceTime(28 * MINUTE);
    await r.poll();
    await expectStaysAt(1, () => r.thread(alert.ts).length);
    expect(textOf(r.message(alert.ts)!)).toMatch(/SNOOZED/);

    // Once the snooze is over, the message stops saying so and the reminder comes.
    r.simulator.advanceTime(2 * MINUTE);
    await r.poll();
    const replies = await r.waitForThread(alert.ts, 2);
    expect(textOf(replies[1]!)).toMatch(/^:bell: <@U0ONCALL> Nobody has acknowledged this alert yet/);
    const after = await r.waitForMessage(alert.ts, /^:red_circle: \*OPEN\*/);
    expect(textOf(after)).not.toContain('Snoozed');
    expect(colourOf(after)).toBe(ALERT_COLORS.open);
  });
});
