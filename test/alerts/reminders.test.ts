// Reminders, end to end through the real app: an alert nobody acknowledged gets a thread reply mentioning the
// on-call after ALERT_REMIND_AFTER, a second after twice that, never a third; acknowledging stops them; an
// acknowledged alert not resolved after ALERT_STALE_AFTER gets one reminder to whoever acknowledged it. Time is the
// simulator's clock (the bot's too), moved forward between polls.
import { afterEach, describe, expect, it } from 'vitest';
import { expectStaysAt } from '../support/waiting.js';
import { type AlertRig, AVERY, HOUR, MINUTE, startAlertRig, storesUnderTest, textOf, usePostgres } from './rig.js';

const postgres = usePostgres('alerts_reminders');

const stores = storesUnderTest(postgres);

const ENV = { ALERT_REMIND_AFTER: '30m', ALERT_STALE_AFTER: '4h', ALERT_ONCALL: 'U0ONCALL,S0GROUP' };

describe.each(stores)('reminders, on %s', (_name, storeChoice) => {
  let rig: AlertRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  /** Moves the clock `ms` forward and polls (the follow-up after the poll decides and posts reminders). */
  const later = async (r: AlertRig, ms: number) => {
    r.simulator.advanceTime(ms);
    await r.poll();
  };

  it('nobody acknowledges: one reminder after 30 min mentioning the on-call, a second after 60 min, never a third', async () => {
    rig = await startAlertRig({ store: await storeChoice(), env: ENV });
    const r = rig;
    const { alert } = await r.failedWithdrawal();
    await later(r, 29 * MINUTE);
    await expectStaysAt(0, () => r.thread(alert.ts).length);

    await later(r, 2 * MINUTE);
    const [first] = await r.waitForThread(alert.ts, 1);
    expect(textOf(first!)).toMatch(
      /^:bell: <@U0ONCALL> <!subteam\^S0GROUP> Nobody has acknowledged this alert yet \(opened 31 minutes ago\)\..*\(reminder 1 of 2\)\.$/,
    );
    // Polls before the second is due add nothing.
    await later(r, 20 * MINUTE);
    await expectStaysAt(1, () => r.thread(alert.ts).length);

    await later(r, 10 * MINUTE);
    const replies = await r.waitForThread(alert.ts, 2);
    expect(textOf(replies[1]!)).toMatch(
      /^:bell: <@U0ONCALL> <!subteam\^S0GROUP> Nobody has acknowledged.*\(reminder 2 of 2\)/,
    );
    // Never a third, however long nobody answers.
    for (let i = 0; i < 3; i += 1) await later(r, 2 * HOUR);
    await expectStaysAt(2, () => r.thread(alert.ts).length);
    // The message itself is not rewritten by reminders.
    expect(textOf(r.message(alert.ts)!)).toMatch(/^:red_circle: \*OPEN\*/);
  });

  it('acknowledging stops them; after ALERT_STALE_AFTER one reminder to whoever acknowledged it, once', async () => {
    rig = await startAlertRig({ store: await storeChoice(), env: ENV });
    const r = rig;
    const { alert } = await r.failedWithdrawal();
    await later(r, 31 * MINUTE);
    await r.waitForThread(alert.ts, 1);

    await r.click(alert, 'alert_acknowledge', AVERY);
    await r.waitForMessage(alert.ts, /ACKNOWLEDGED/);
    await r.waitForThread(alert.ts, 2);
    // The second "nobody has acknowledged" reminder would be due now: it does not come.
    await later(r, 30 * MINUTE);
    await later(r, 3 * HOUR);
    await expectStaysAt(2, () => r.thread(alert.ts).length);

    // Four hours after the acknowledgement: one reminder to Avery.
    await later(r, 31 * MINUTE);
    const replies = await r.waitForThread(alert.ts, 3);
    expect(textOf(replies[2]!)).toMatch(
      /^:bell: <@U0AVERY>, you acknowledged this 4 hours ago and it is still not resolved\. Resolve it with a note/,
    );
    expect(textOf(replies[2]!)).not.toContain('U0ONCALL');
    for (let i = 0; i < 2; i += 1) await later(r, 24 * HOUR);
    await expectStaysAt(3, () => r.thread(alert.ts).length);
  });
});
