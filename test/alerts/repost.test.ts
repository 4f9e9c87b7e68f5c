// An alert whose message was deleted in Slack is never lost: the next click or poll that has to rewrite it finds it
// gone (chat.update answers message_not_found), posts it again with its current state, and relinks the record, so
// its thread and later clicks continue on the new message.
import { afterEach, describe, expect, it } from 'vitest';
import { expectStaysAt } from '../support/waiting.js';
import {
  ALERTS,
  type AlertRig,
  AVERY,
  BLAKE,
  controlsOf,
  MINUTE,
  type StoreChoice,
  type StoredMessage,
  startAlertRig,
  textOf,
  usePostgres,
} from './rig.js';

const postgres = usePostgres('alerts_repost');

let rig: AlertRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const topLevel = (r: AlertRig): StoredMessage[] => r.slack.messages(ALERTS).filter((m) => m.threadTs === undefined);

describe('an alert whose message was deleted', () => {
  it('the next click posts it again with the click applied; its thread and later clicks continue there', async () => {
    rig = await startAlertRig({ store: { kind: 'file' } });
    const r = rig;
    const { id, alert } = await r.failedWithdrawal();
    expect(r.slack.deleteMessage(ALERTS, alert.ts)).toBe(true);

    // Blake's client still shows the old message.
    const click = await r.click(alert, 'alert_acknowledge', BLAKE);
    expect(click.status).toBe(200);
    const reposted = await r.slack.waitFor(
      () => topLevel(r).find((m) => m.ts !== alert.ts && textOf(m).includes(id)),
      5_000,
      'the alert posted again',
    );
    expect(textOf(reposted)).toMatch(/^:large_yellow_circle: \*ACKNOWLEDGED\*/);
    expect(textOf(reposted)).toContain('Acknowledged by <@U0BLAKE>');
    expect(controlsOf(reposted)).toEqual(['alert_resolve', 'alert_snooze']);
    // Nothing is lost from the thread: it says who acknowledged, and why the message is new.
    const lines = (await r.waitForThread(reposted.ts, 2)).map(textOf);
    expect(lines).toEqual([
      expect.stringMatching(/^:eyes: <@U0BLAKE> acknowledged this/),
      expect.stringMatching(/^:recycle: This alert's message had been deleted, so it was posted again here\./),
    ]);
    // The clicker was not told anything went wrong: the click worked.
    expect(click.responses()).toEqual([]);

    // Relinked: a click on the new message resolves the alert, and it is rewritten there.
    const resolve = await r.click(reposted, 'alert_resolve', AVERY);
    expect(await r.submitResolve(await r.viewOpenedBy(resolve.triggerId), AVERY, 'refunded the customer')).toBeNull();
    const resolved = await r.waitForMessage(reposted.ts, /RESOLVED/);
    expect(textOf(resolved)).toContain('refunded the customer');
    await r.waitForThread(reposted.ts, 3);
    await expectStaysAt({ alerts: 1, thread: 3 }, () => ({
      alerts: topLevel(r).filter((m) => textOf(m).includes(id)).length,
      thread: r.thread(reposted.ts).length,
    }));
  });

  it('the next poll that rewrites it (a snooze ended) posts it again, with the reminder then due in the new thread', async () => {
    rig = await startAlertRig({
      store: { kind: 'file' },
      env: { ALERT_REMIND_AFTER: '45m', ALERT_ONCALL: 'U0ONCALL' },
    });
    const r = rig;
    const { id, alert } = await r.failedWithdrawal();
    await r.snooze(alert, '1h', AVERY);
    await r.waitForMessage(alert.ts, /SNOOZED/);
    await r.waitForThread(alert.ts, 1);
    expect(r.slack.deleteMessage(ALERTS, alert.ts)).toBe(true);

    r.simulator.advanceTime(61 * MINUTE);
    await r.poll();
    const reposted = await r.slack.waitFor(
      () => topLevel(r).find((m) => textOf(m).includes(id)),
      5_000,
      'the alert posted again by the poll',
    );
    expect(reposted.ts).not.toBe(alert.ts);
    expect(textOf(reposted)).toMatch(/^:red_circle: \*OPEN\*/);
    expect(controlsOf(reposted)).toEqual(['alert_acknowledge', 'alert_resolve', 'alert_snooze']);
    const lines = (await r.waitForThread(reposted.ts, 2)).map(textOf);
    expect(lines).toEqual([
      expect.stringMatching(/^:bell: <@U0ONCALL> Nobody has acknowledged this alert yet.*reminder 1 of 2/),
      expect.stringMatching(/^:recycle: This alert's message had been deleted/),
    ]);
    // The next poll finds Slack up to date: nothing posted again.
    await r.poll();
    await expectStaysAt({ alerts: 1, thread: 2 }, () => ({
      alerts: topLevel(r).length,
      thread: r.thread(reposted.ts).length,
    }));
    // And a click on the new message works.
    await r.click(reposted, 'alert_acknowledge', AVERY);
    await r.waitForMessage(reposted.ts, /ACKNOWLEDGED/);
  });
});

const setups: Array<[string, () => Promise<{ store: StoreChoice; replicas: string[] }>]> = [
  ['the state file', async () => ({ store: { kind: 'file' }, replicas: ['a'] })],
  ...(postgres.available
    ? ([
        [
          'two replicas sharing PostgreSQL, one click to each',
          async () => ({
            store: await postgres.database(),
            replicas: ['a', 'b'],
          }),
        ],
      ] as Array<[string, () => Promise<{ store: StoreChoice; replicas: string[] }>]>)
    : []),
];

describe.each(setups)('an alert whose message was deleted, clicked by two people at once, on %s', (_name, setup) => {
  it('is posted again once, with one acknowledgement and one line saying why in its new thread', async () => {
    rig = await startAlertRig(await setup());
    const r = rig;
    const { id, alert } = await r.failedWithdrawal();
    r.slack.deleteMessage(ALERTS, alert.ts);
    const clicks = await Promise.all([
      r.click(alert, 'alert_acknowledge', AVERY),
      r.click(alert, 'alert_acknowledge', BLAKE, { replica: r.replicas.length - 1 }),
    ]);
    const reposted = await r.slack.waitFor(() => topLevel(r)[0], 5_000, 'the alert posted again');
    const lines = (await r.waitForThread(reposted.ts, 2)).map(textOf);
    expect(lines).toEqual([
      expect.stringMatching(/^:eyes: <@U0(AVERY|BLAKE)> acknowledged this/),
      expect.stringMatching(/^:recycle: This alert's message had been deleted/),
    ]);
    const winner = /<@(U0AVERY|U0BLAKE)>/.exec(lines[0]!)![1];
    const loser = clicks[winner === AVERY ? 1 : 0]!;
    expect((await loser.waitForResponses(1))[0]!.text).toMatch(
      new RegExp(`^Nothing changed: <@${winner}> acknowledged`),
    );
    await r.poll();
    await expectStaysAt({ alerts: 1, thread: 2 }, () => ({
      alerts: topLevel(r).filter((m) => textOf(m).includes(id)).length,
      thread: r.thread(reposted.ts).length,
    }));
    expect(textOf(r.message(reposted.ts)!)).toContain(`Acknowledged by <@${winner}>`);
  });
});
