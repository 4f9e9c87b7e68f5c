// ALERT_ROUTES through the real app: a routed kind goes to its own channel with its own mention (in the message and
// in its reminders), and is acted on there; every other kind stays in ALERT_CHANNEL.
import { afterEach, describe, expect, it } from 'vitest';
import { ALERTS, type AlertRig, AVERY, MINUTE, startAlertRig, textOf } from './rig.js';

let rig: AlertRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const OPS = 'C0OPS';

describe('ALERT_ROUTES', () => {
  it('withdrawal_failed=C0OPS@S0ONCALL: failed withdrawals go to C0OPS mentioning the group, other kinds to ALERT_CHANNEL', async () => {
    rig = await startAlertRig({
      store: { kind: 'file' },
      env: {
        ALERT_ROUTES: 'withdrawal_failed=C0OPS@S0ONCALL',
        ALERT_ONCALL: 'U0ONCALL',
        ALERT_REMIND_AFTER: '30m',
      },
    });
    const r = rig;
    const withdrawal = r.simulator.addWithdrawal({ status: 'failed' });
    const task = r.simulator.addPayoutTask({ status: 'failed' });
    await r.poll();

    const inOps = r.slack.messages(OPS);
    expect(inOps).toHaveLength(1);
    const routed = inOps[0]!;
    expect(textOf(routed)).toContain(withdrawal.id);
    expect(textOf(routed).split('\n')[0]).toMatch(/^:red_circle: \*OPEN\* · \*.*\* <!subteam\^S0ONCALL>$/);
    const inAlerts = r.slack.messages(ALERTS);
    expect(inAlerts).toHaveLength(1);
    expect(textOf(inAlerts[0]!)).toContain(task.id);
    expect(textOf(inAlerts[0]!)).not.toContain('subteam');

    // The routed alert's reminder mentions the route's group, not ALERT_ONCALL; the other's mentions ALERT_ONCALL.
    r.simulator.advanceTime(31 * MINUTE);
    await r.poll();
    const [opsReminder] = await r.waitForThread(routed.ts, 1, OPS);
    expect(textOf(opsReminder!)).toMatch(/^:bell: <!subteam\^S0ONCALL> Nobody has acknowledged/);
    const [alertsReminder] = await r.waitForThread(inAlerts[0]!.ts, 1);
    expect(textOf(alertsReminder!)).toMatch(/^:bell: <@U0ONCALL> Nobody has acknowledged/);

    // Acted on where it is: resolved in C0OPS, the mention is gone from the handled message.
    const click = await r.click(routed, 'alert_resolve', AVERY);
    expect(await r.submitResolve(await r.viewOpenedBy(click.triggerId), AVERY, 'reissued')).toBeNull();
    const resolved = await r.waitForMessage(routed.ts, /RESOLVED/, OPS);
    expect(textOf(resolved)).not.toContain('subteam');
    await r.waitForThread(routed.ts, 2, OPS);
  });
});
