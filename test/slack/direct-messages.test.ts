// The gateway's direct messages (an invoice's creator told it changed, an admin's audit file), against the Slack
// stand-in over real HTTP with a real WebClient: conversations.open finds the DM or opens one, posts and files go in
// it, and Slack's refusals come back as its error codes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createSlackGateway, createSlackWebClient, slackErrorCode } from '../../src/slack/index.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const TOKEN = 'xoxb-dm-test';
let slack: SlackStandIn;
beforeAll(async () => {
  slack = await startSlackStandIn({
    botToken: TOKEN,
    botUserId: 'U_BOT',
    users: ['U0RILEY', 'U0AVERY'],
    conversations: [{ id: 'D0RILEYBOT', name: undefined, kind: 'im', members: ['U0RILEY', 'U_BOT'] }],
  });
});
afterAll(() => slack.close());
beforeEach(() => slack.reset());

const gateway = () =>
  createSlackGateway({
    client: createSlackWebClient({
      token: TOKEN,
      slackApiUrl: slack.apiUrl,
      timeoutMs: 2_000,
      logger: silentWebApiLogger,
    }),
    sleep: async () => undefined,
    logger: createLogger('error', () => undefined),
  });

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => slackErrorCode(error),
  );

describe('openDirectMessage', () => {
  it('finds the DM a person already has with the bot, and a message posted there reaches only that DM', async () => {
    const slackGateway = gateway();
    const channel = await slackGateway.openDirectMessage('U0RILEY');
    expect(channel).toBe('D0RILEYBOT');
    const ts = await slackGateway.post(channel, { text: 'Invoice paid' });
    expect(slack.messages('D0RILEYBOT').map((m) => [m.ts, m.text])).toEqual([[ts, 'Invoice paid']]);
  });

  it('opens a new DM once, then finds the same one; a file can be shared in it', async () => {
    const slackGateway = gateway();
    const first = await slackGateway.openDirectMessage('U0AVERY');
    expect(first).toMatch(/^D/);
    expect(await slackGateway.openDirectMessage('U0AVERY')).toBe(first);
    const { fileId } = await slackGateway.uploadFile({
      channel: first,
      filename: 'audit.csv',
      title: 'Audit',
      bytes: Buffer.from('time,event\r\n'),
    });
    expect(fileId).toBeTruthy();
    expect(slack.callsOf('conversations.open').map((c) => c.args.users)).toEqual(['U0AVERY', 'U0AVERY']);
  });

  it("answers Slack's refusals: the bot itself, someone not in the workspace", async () => {
    const slackGateway = gateway();
    expect(await errorOf(slackGateway.openDirectMessage('U_BOT'))).toBe('cannot_dm_bot');
    expect(await errorOf(slackGateway.openDirectMessage('U0STRANGER'))).toBe('user_not_found');
  });
});
