// A channel that refuses alerts for good, as the poller keeps it: recorded in the state file (so a restart, or another
// replica, still shows it), shown by `/treasury alerts` while the configuration sends alerts there, and over once a
// post there is accepted. The real poller over HTTP (simulator, Slack stand-in, state file).
import { afterEach, describe, expect, it } from 'vitest';
import { buildAlertStatus } from '../../../../src/features/alerts/blocks.js';
import { readAlertStatus } from '../../../../src/features/alerts/poller/status.js';
import { blocksToText } from '../../../support/rig/blocks-text.js';
import { CHANNEL, mentions, type PollerRig, type PollerRigOptions, startPollerRig } from './helpers.js';

const OPS = 'C0OPS';

let rig: PollerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** What `/treasury alerts` shows from the state file, with `routes` as the configuration in force. */
function status(r: PollerRig, routes: Parameters<typeof readAlertStatus>[2]['routes'] = {}): string {
  const now = new Date(r.sim.now());
  const view = readAlertStatus(r.store.read().alerts, now, {
    channel: CHANNEL,
    expression: '* * * * *',
    nextRun: null,
    polling: false,
    routes,
  });
  return blocksToText(buildAlertStatus(view, now).blocks);
}

describe('a channel refusing alerts', () => {
  it('ALERT_CHANNEL archived: the alert stays queued across a restart, the refusal is shown after it, and once unarchived the alert is posted once', async () => {
    rig = await startPollerRig();
    const r = rig;
    await r.poll();
    r.slack.addConversation({ id: CHANNEL, kind: 'public', name: 'alerts', members: ['U0OPS'], archived: true });
    const w = r.sim.addWithdrawal({ status: 'failed' });
    const first = await r.poll();
    expect(first).toMatchObject({ posted: 0, waiting: 1, slackError: 'is_archived' });
    expect(r.logs.some((line) => /ERROR.*Slack refuses to post in ALERT_CHANNEL \(C0ALERTS\)/.test(line))).toBe(true);

    await r.restart();
    expect(r.store.read().alerts.refusingChannels?.[CHANNEL]?.error).toBe('is_archived');
    expect(status(r)).toContain('*ALERT_CHANNEL* <#C0ALERTS>: Slack refuses to post there, the channel is archived');
    // Each poll tries again (a post accepted is what shows it is fixed), once.
    await r.poll();
    expect(r.slack.callsOf('chat.postMessage')).toHaveLength(2);

    r.slack.addConversation({ id: CHANNEL, kind: 'public', name: 'alerts', members: ['U0OPS'], archived: false });
    expect(await r.poll()).toMatchObject({ posted: 1, waiting: 0 });
    expect(mentions(r, w.id)).toBe(1);
    expect(r.store.read().alerts.refusingChannels).toBeUndefined();
    expect(status(r)).not.toContain('Channels refusing alerts');
  });

  it('a route no longer configured is not shown, and the next poll forgets it', async () => {
    const options: PollerRigOptions = { routes: { withdrawal_failed: { channel: OPS } } };
    rig = await startPollerRig(options);
    const r = rig;
    await r.poll();
    r.slack.addConversation({ id: OPS, kind: 'public', name: 'ops', members: ['U0OPS'], archived: true });
    const w = r.sim.addWithdrawal({ status: 'failed' });
    await r.poll();
    expect(r.slack.messages(CHANNEL).filter((m) => JSON.stringify(m).includes(w.id))).toHaveLength(1);
    const routes = { withdrawal_failed: { channel: OPS } };
    expect(status(r, routes)).toContain('*ALERT_ROUTES* `withdrawal_failed` → <#C0OPS>');
    // Kept across a restart while the route stands.
    await r.restart();
    expect(r.store.read().alerts.refusingChannels?.[OPS]?.error).toBe('is_archived');
    // ALERT_ROUTES changed (the route removed): not shown, and forgotten at the next poll.
    expect(status(r, {})).not.toContain('Channels refusing alerts');
    delete options.routes;
    await r.poll();
    expect(r.store.read().alerts.refusingChannels).toBeUndefined();
  });
});
