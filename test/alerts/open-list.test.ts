// `/treasury alerts open` through the real app: "who has what", oldest first, with the owner (or nobody yet), the
// snooze, and a link to each message (chat.getPermalink); resolved alerts are not listed.
import { afterEach, describe, expect, it } from 'vitest';
import { blocksToText } from '../support/rig/blocks-text.js';
import { ALERTS, type AlertRig, AVERY, BLAKE, HOUR, MINUTE, startAlertRig, textOf } from './rig.js';

let rig: AlertRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Slack's link to a message of the alert channel, as chat.getPermalink writes it. */
const linkTo = (ts: string) => `https://treasury-test.slack.com/archives/${ALERTS}/p${ts.replace('.', '')}`;

describe('/treasury alerts open', () => {
  it('lists the open alerts oldest first: what, age, owner or nobody yet, snoozed until, a link to each', async () => {
    rig = await startAlertRig({ store: { kind: 'file' } });
    const r = rig;
    expect(blocksToText((await r.command('alerts open', AVERY)).blocks)).toContain('No open alerts.');

    const oldest = await r.failedWithdrawal();
    await r.click(oldest.alert, 'alert_acknowledge', AVERY);
    await r.waitForMessage(oldest.alert.ts, /ACKNOWLEDGED/);

    r.simulator.advanceTime(10 * MINUTE);
    const task = r.simulator.addPayoutTask({ status: 'failed' });
    await r.poll();
    const taskAlert = r.slack.messages(ALERTS).find((m) => m.threadTs === undefined && textOf(m).includes(task.id))!;
    const snoozedAt = r.simulator.now();
    await r.snooze(taskAlert, '4h', BLAKE);
    await r.waitForMessage(taskAlert.ts, /SNOOZED/);

    r.simulator.advanceTime(10 * MINUTE);
    const resolvedOne = await r.failedWithdrawal();
    const resolve = await r.click(resolvedOne.alert, 'alert_resolve', BLAKE);
    expect(await r.submitResolve(await r.viewOpenedBy(resolve.triggerId), BLAKE, 'duplicate')).toBeNull();
    await r.waitForMessage(resolvedOne.alert.ts, /RESOLVED/);

    r.simulator.advanceTime(5 * MINUTE);
    const newest = await r.failedWithdrawal();

    const reply = await r.command('alerts open', BLAKE);
    expect(reply.responseType).toBe('ephemeral');
    const text = blocksToText(reply.blocks);
    const rows = text.split('\n').filter((line) => line.startsWith('• '));
    expect(text).toMatch(/^\*3 open alerts\*, 2 with nobody on them, oldest first/);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/withdrawal failed · 25 min old · <@U0AVERY> · </);
    expect(rows[0]).toContain(`<${linkTo(oldest.alert.ts)}|open>`);
    const until = Math.floor((snoozedAt + 4 * HOUR) / 1000);
    expect(rows[1]).toMatch(
      new RegExp(`task failed · 15 min old · _nobody yet_ · snoozed until <!date\\^(${until}|${until + 1})\\^`),
    );
    expect(rows[1]).toContain(`<${linkTo(taskAlert.ts)}|open>`);
    expect(rows[2]).toMatch(/withdrawal failed · 0 min old · _nobody yet_ · </);
    expect(rows[2]).toContain(`<${linkTo(newest.alert.ts)}|open>`);
    expect(text).not.toContain(resolvedOne.id);
    // One link asked of Slack per alert listed.
    expect(
      r.slack
        .callsOf('chat.getPermalink')
        .slice(-3)
        .map((c) => c.args.message_ts),
    ).toEqual(expect.arrayContaining([oldest.alert.ts, taskAlert.ts, newest.alert.ts]));

    // `/treasury alerts` keeps its watcher status and says how many are open.
    expect(blocksToText((await r.command('alerts', AVERY)).blocks)).toMatch(
      /\*Open alerts\*\n3 \(2 with nobody on them\) · `\/treasury alerts open`\n\*Payment API\*\nreachable/,
    );
  });
});
