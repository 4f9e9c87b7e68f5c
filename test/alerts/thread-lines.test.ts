// The lines of an alert's thread when Slack refuses one: nothing is lost, the order is kept, and lines that were
// never sent go at the next poll without being looked for first (only a line whose answer was lost is looked for).
import { afterEach, describe, expect, it } from 'vitest';
import { expectStaysAt } from '../support/waiting.js';
import { type AlertRig, AVERY, BLAKE, startAlertRig, textOf } from './rig.js';

let rig: AlertRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('thread lines Slack refused', () => {
  it('a refused line and the one claimed after it both go out at the next poll, in order, with no lookup', async () => {
    rig = await startAlertRig({ store: { kind: 'file' } });
    const r = rig;
    const { alert } = await r.failedWithdrawal();
    const refusedPosts = () =>
      r.slack.callsOf('chat.postMessage').filter((c) => String(c.args.text).includes('acknowledged this')).length;

    // Slack refuses the acknowledgement's line (it is not posted, so it may go again).
    r.slack.failNext('chat.postMessage', { error: 'not_in_channel' }, 1, { textIncludes: 'acknowledged this' });
    await r.click(alert, 'alert_acknowledge', AVERY);
    const acknowledged = await r.waitForMessage(alert.ts, /ACKNOWLEDGED/);
    await r.slack.waitFor(() => refusedPosts() === 1, 5_000, 'the refused line');

    // A snooze: its sync claims both lines; Slack refuses the first again, so the second is not sent either.
    r.slack.failNext('chat.postMessage', { error: 'not_in_channel' }, 1, { textIncludes: 'acknowledged this' });
    await r.snooze(acknowledged, '4h', BLAKE);
    await r.waitForMessage(alert.ts, /SNOOZED/);
    await r.slack.waitFor(() => refusedPosts() === 2, 5_000, 'the line refused again');
    await expectStaysAt(0, () => r.thread(alert.ts).length);

    await r.poll();
    const lines = (await r.waitForThread(alert.ts, 2)).map(textOf);
    expect(lines).toEqual([
      expect.stringMatching(/^:eyes: <@U0AVERY> acknowledged this/),
      expect.stringMatching(/^:zzz: <@U0BLAKE> snoozed this until/),
    ]);
    // Neither was ever possibly posted: no need to read the thread to look for them.
    expect(r.slack.callsOf('conversations.replies')).toEqual([]);
    await expectStaysAt(2, () => r.thread(alert.ts).length);
  });
});
