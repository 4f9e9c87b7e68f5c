// The local workspace's "Post a digest now": through the workspace server as the page uses it, the real bot posts a
// digest marked as on request in #treasury-alerts, with its 30-day chart (a PNG) shared in the thread; the daily
// digest (DIGEST_AT is set there) is untouched: at most one a day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGEST_EVENT_TYPE } from '../../src/features/digest/rules.js';
import { messageToText } from '../support/rig/blocks-text.js';
import { CHANNELS, type LocalWorkspace, startLocalWorkspace } from '../support/rig/local-workspace.js';

let workspace: LocalWorkspace;
beforeAll(async () => {
  workspace = await startLocalWorkspace({ port: 0, activityEverySeconds: 0 });
}, 30_000);
afterAll(() => workspace?.close());

const alertChannel = CHANNELS[1].id;

describe('the local workspace: post a digest now', () => {
  it('offers the control, and posts a digest on request with its chart in the thread', async () => {
    const controls = (await (await fetch(`${workspace.url}api/controls`)).json()) as Array<{
      id: string;
      group: string;
    }>;
    expect(controls.find((control) => control.id === 'digest-now')).toMatchObject({ group: 'Daily digest' });

    const answer = await fetch(`${workspace.url}api/controls/digest-now`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await answer.json()).toMatchObject({ ok: true, message: expect.stringContaining('30-day chart') });

    const digests = () =>
      workspace.slack
        .messages(alertChannel)
        .filter((m) => m.threadTs === undefined && m.metadata?.event_type === DIGEST_EVENT_TYPE);
    const onRequest = digests().filter((m) => messageToText(m).includes('Digest (posted on request)'));
    expect(onRequest).toHaveLength(1);
    expect(messageToText(onRequest[0]!)).toContain('Total balance');
    const chart = workspace.slack
      .uploads()
      .find((file) => file.shares.some((share) => share.threadTs === onRequest[0]!.ts));
    expect(chart?.bytes?.subarray(1, 4).toString('latin1')).toBe('PNG');
    // The daily digest is its own: posted at most once (at start when it is past 09:00 in Berlin).
    expect(digests().filter((m) => messageToText(m).includes('Daily digest'))).toHaveLength(
      digests().length - onRequest.length,
    );
    expect(digests().length - onRequest.length).toBeLessThanOrEqual(1);
  });
});
