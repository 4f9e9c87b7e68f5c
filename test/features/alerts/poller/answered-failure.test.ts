// Prompt after Slack comes back: when chat.postMessage is answered with a failure (HTTP 5xx, `internal_error`,
// `fatal_error`), Slack is done with the request, so the alert is looked up once at the next poll and, when it is not
// there, posted then, instead of waiting for the settle window that is kept for answers that never came. Still exactly
// once: a post that landed although Slack answered with an error is found by its key and not posted again.
// The real poller over HTTP (simulator, Slack stand-in, state file); the rig's clock does not move between polls.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAlertPoster } from '../../../../src/features/alerts/poller/slack.js';
import {
  answeredWithFailure,
  createSlackGateway,
  createSlackWebClient,
  mayHaveHappened,
} from '../../../../src/slack/index.js';
import { type InjectedFailure, type SlackStandIn, startSlackStandIn } from '../../../support/rig/slack-stand-in.js';
import { CHANNEL, mentions, type PollerRig, startPollerRig } from './helpers.js';

describe('a post Slack answered with a failure: looked up once at the next poll, then posted', () => {
  let rig: PollerRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  /** A rig whose bot is in the alert channel (so it can look for a post there), past its first poll. */
  async function start(): Promise<PollerRig> {
    rig = await startPollerRig();
    rig.slack.setMembers(CHANNEL, [rig.slack.botUserId, 'U0OPS']);
    await rig.poll();
    return rig;
  }

  it.each<[string, InjectedFailure]>([
    ['ok:false internal_error', { error: 'internal_error' }],
    ['ok:false fatal_error', { error: 'fatal_error' }],
    ['HTTP 500', { status: 500 }],
    ['HTTP 503', { status: 503 }],
  ])('%s, the message not posted: posted at the very next poll, not minutes later', async (_name, failure) => {
    const r = await start();
    const w = r.sim.addWithdrawal({ status: 'failed' });
    r.slack.failNext('chat.postMessage', failure);
    const first = await r.poll();
    expect(first).toMatchObject({ posted: 0, waiting: 1 });
    expect(r.store.read().alerts.outbox[0]?.sending).toMatchObject({ key: `withdrawal:${w.id}`, answered: true });

    // The next poll, with no time passed: one lookup finds nothing, so the alert is posted now.
    const second = await r.poll();
    expect(second).toMatchObject({ posted: 1, alerted: 1, waiting: 0 });
    expect(r.slack.callsOf('conversations.history')).toHaveLength(1);
    expect(mentions(r, w.id)).toBe(1);
    await r.poll();
    expect(mentions(r, w.id)).toBe(1);
    expect(r.slack.callsOf('chat.postMessage')).toHaveLength(2);
  });

  it.each<[string, InjectedFailure]>([
    ['HTTP 500 internal_error', { failAfterWork: { status: 500, error: 'internal_error' } }],
    ['ok:false internal_error', { failAfterWork: { error: 'internal_error' } }],
    ['ok:false fatal_error', { failAfterWork: { error: 'fatal_error' } }],
  ])(
    '%s although Slack posted it: found by the lookup at the next poll, never posted twice',
    async (_name, failure) => {
      const r = await start();
      const w = r.sim.addWithdrawal({ status: 'failed' });
      r.slack.failNext('chat.postMessage', failure);
      expect(await r.poll()).toMatchObject({ posted: 0, waiting: 1 });
      expect(mentions(r, w.id)).toBe(1);

      const second = await r.poll();
      expect(second).toMatchObject({ posted: 0, alerted: 1, waiting: 0 });
      expect(r.slack.callsOf('conversations.history')).toHaveLength(1);
      await r.poll();
      expect(mentions(r, w.id)).toBe(1);
      expect(r.slack.callsOf('chat.postMessage')).toHaveLength(1);
      expect(r.logs.join('\n')).toContain('recorded, not posted again');
    },
  );

  it('an answer that never came (a timeout) keeps the settle window: the next poll looks and waits', async () => {
    const r = await start();
    const w = r.sim.addWithdrawal({ status: 'failed' });
    // Slack drops the request after the client gave up (the stand-in's delay outlasts the rig's 500 ms timeout).
    r.slack.failNext('chat.postMessage', { delayMs: 1_500 });
    await r.poll();
    expect(r.store.read().alerts.outbox[0]?.sending?.answered).toBeUndefined();
    await r.slack.waitFor(() => r.slack.callsOf('chat.postMessage').length === 1, 5_000, 'the first attempt');
    expect(await r.poll()).toMatchObject({ posted: 0, waiting: 1 });
    expect(mentions(r, w.id)).toBe(0);
  });
});

describe('answeredWithFailure: which failed posts Slack is done with', () => {
  const TOKEN = 'xoxb-answered';
  let slack: SlackStandIn;
  beforeAll(async () => {
    slack = await startSlackStandIn({ botToken: TOKEN });
  });
  afterAll(() => slack.close());
  beforeEach(() => slack.reset());

  /** The error the poller's poster throws when the stand-in answers a post with `failure`. */
  async function errorOf(failure: InjectedFailure): Promise<unknown> {
    const poster = createAlertPoster(
      createSlackGateway({ client: createSlackWebClient({ token: TOKEN, slackApiUrl: slack.apiUrl, timeoutMs: 300 }) }),
    );
    slack.failNext('chat.postMessage', failure);
    return poster.post('C0ALERTS', { text: 'alert' }, { key: 'k' }).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  it.each<[string, InjectedFailure, { answered: boolean; mayHaveHappened: boolean }]>([
    ['HTTP 500', { status: 500 }, { answered: true, mayHaveHappened: true }],
    ['HTTP 503', { status: 503 }, { answered: true, mayHaveHappened: true }],
    ['ok:false internal_error', { error: 'internal_error' }, { answered: true, mayHaveHappened: true }],
    ['ok:false fatal_error', { error: 'fatal_error' }, { answered: true, mayHaveHappened: true }],
    ['ok:false service_unavailable', { error: 'service_unavailable' }, { answered: true, mayHaveHappened: true }],
    // A gateway's answer for a server that did not answer in time: that server may still be at work.
    ['HTTP 502', { status: 502 }, { answered: false, mayHaveHappened: true }],
    ['HTTP 504', { status: 504 }, { answered: false, mayHaveHappened: true }],
    ['a timeout', { lateAnswerMs: 1_000 }, { answered: false, mayHaveHappened: true }],
    ['a dropped connection', { dropAnswer: true }, { answered: false, mayHaveHappened: true }],
    // Refusals: nothing was posted, nothing to look up.
    ['HTTP 429', { status: 429, retryAfter: 0 }, { answered: false, mayHaveHappened: false }],
    ['ok:false is_archived', { error: 'is_archived' }, { answered: false, mayHaveHappened: false }],
  ])('%s', async (_name, failure, expected) => {
    const error = await errorOf(failure);
    expect(error).toBeDefined();
    expect({ answered: answeredWithFailure(error), mayHaveHappened: mayHaveHappened(error) }).toEqual(expected);
  });
});
