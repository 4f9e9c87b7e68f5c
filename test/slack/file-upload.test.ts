// The gateway's file upload (the digest's chart), against the Slack stand-in over real HTTP with a real WebClient:
// Slack's three steps in order, what is retried (a failed upload starts again with a new URL) and what never is
// (completing, which shares the file), and Slack's refusals in plain words.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import {
  createSlackGateway,
  createSlackWebClient,
  describeUploadFailure,
  mayHaveHappened,
  needsAPerson,
  type SlackGateway,
} from '../../src/slack/index.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const TOKEN = 'xoxb-upload-test';
const CHANNEL = 'C0DIGEST';
let slack: SlackStandIn;
beforeAll(async () => {
  slack = await startSlackStandIn({
    botToken: TOKEN,
    conversations: [
      { id: CHANNEL, name: 'treasury-digest', kind: 'public', members: ['U0RILEY', 'U_BOT'] },
      { id: 'C0ELSEWHERE', name: 'general', kind: 'public', members: ['U0RILEY'] },
    ],
  });
});
afterAll(() => slack.close());
beforeEach(() => slack.reset());

function gatewayRig(stand = slack): { gateway: SlackGateway; sleeps: number[]; logs: string[] } {
  const sleeps: number[] = [];
  const logs: string[] = [];
  const gateway = createSlackGateway({
    // Silent: a lost answer makes the WebClient warn by itself.
    client: createSlackWebClient({
      token: TOKEN,
      slackApiUrl: stand.apiUrl,
      timeoutMs: 2_000,
      logger: silentWebApiLogger,
    }),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    logger: createLogger('debug', (line) => logs.push(line)),
  });
  return { gateway, sleeps, logs };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the upload to fail');
    },
    (error: unknown) => error,
  );

const chart = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);

describe('uploadFile', () => {
  it("uploads the bytes and shares them in the digest's thread: reserve, upload, complete, in that order", async () => {
    const { gateway } = gatewayRig();
    const parent = await gateway.post(CHANNEL, { text: 'Daily digest' });
    const { fileId } = await gateway.uploadFile({
      channel: CHANNEL,
      threadTs: parent,
      filename: 'balances-2025-03-04.png',
      title: 'Balances, last 30 days',
      bytes: chart,
      altText: 'Total balance over 30 days',
      initialComment: 'Balances over the last 30 days',
    });

    expect(slack.callsOf('files.getUploadURLExternal').map((c) => c.args)).toEqual([
      { filename: 'balances-2025-03-04.png', length: String(chart.length), alt_txt: 'Total balance over 30 days' },
    ]);
    const [complete] = slack.callsOf('files.completeUploadExternal');
    expect(complete?.args).toMatchObject({
      channel_id: CHANNEL,
      thread_ts: parent,
      initial_comment: expect.any(String),
    });
    expect(JSON.parse(String(complete?.args.files))).toEqual([{ id: fileId, title: 'Balances, last 30 days' }]);
    expect(slack.calls.map((c) => c.method)).toEqual([
      'chat.postMessage',
      'files.getUploadURLExternal',
      'files.completeUploadExternal',
    ]);

    const [upload] = slack.uploads();
    expect(upload).toMatchObject({ id: fileId, completed: true, shares: [{ channel: CHANNEL, threadTs: parent }] });
    expect(upload?.bytes?.equals(chart)).toBe(true);
    const [shared] = slack.messages(CHANNEL).filter((m) => m.ts !== parent);
    expect(shared).toMatchObject({
      threadTs: parent,
      text: 'Balances over the last 30 days',
      files: [{ id: fileId, mimetype: 'image/png', title: 'Balances, last 30 days' }],
    });
  });

  it('bytes the upload URL refuses with a 5xx are sent again to a new URL; the file is shared once', async () => {
    const { gateway, sleeps } = gatewayRig();
    slack.failNext('upload_url', { status: 503 });
    const { fileId } = await gateway.uploadFile({ channel: CHANNEL, filename: 'a.png', title: 'A', bytes: chart });
    expect(slack.callsOf('files.getUploadURLExternal')).toHaveLength(2);
    expect(slack.callsOf('files.completeUploadExternal')).toHaveLength(1);
    expect(sleeps).toEqual([500]);
    // The first reservation is left unfinished (Slack discards it); the second is the one shared.
    expect(slack.uploads().map((u) => u.completed)).toEqual([false, true]);
    expect(slack.uploads()[1]?.id).toBe(fileId);
    expect(slack.messages(CHANNEL)).toHaveLength(1);
  });

  it('a file on disk (the audit CSV) is streamed with its length, and read again from disk for a new URL', async () => {
    const { gateway } = gatewayRig();
    const path = join(mkdtempSync(join(tmpdir(), 'upload-')), 'audit.csv');
    const csv = Buffer.from(`time,detail\r\n${'2026-11-24T09:00:00.000Z,"a ""b"", c"\r\n'.repeat(2_000)}`);
    writeFileSync(path, csv);
    slack.failNext('upload_url', { status: 503 });
    const { fileId } = await gateway.uploadFile({
      channel: CHANNEL,
      filename: 'audit.csv',
      title: 'Audit',
      bytes: { path, length: csv.length },
    });
    expect(slack.callsOf('files.getUploadURLExternal').map((c) => c.args.length)).toEqual([
      String(csv.length),
      String(csv.length),
    ]);
    const shared = slack.uploads().find((upload) => upload.id === fileId);
    expect(shared?.completed).toBe(true);
    expect(shared?.bytes?.equals(csv)).toBe(true);
  });

  it('bytes lost on the way (the connection reset) are sent again to a new URL', async () => {
    const { gateway } = gatewayRig();
    slack.failNext('upload_url', { reset: true });
    await gateway.uploadFile({ channel: CHANNEL, filename: 'a.png', title: 'A', bytes: chart });
    expect(slack.callsOf('files.getUploadURLExternal')).toHaveLength(2);
    expect(slack.messages(CHANNEL)).toHaveLength(1);
  });

  it('completing is never sent twice: after a 5xx it fails with one call, and the error says it may have been shared', async () => {
    const { gateway } = gatewayRig();
    slack.failNext('files.completeUploadExternal', { status: 500 });
    const error = await failure(gateway.uploadFile({ channel: CHANNEL, filename: 'a.png', title: 'A', bytes: chart }));
    expect(slack.callsOf('files.completeUploadExternal')).toHaveLength(1);
    expect(mayHaveHappened(error)).toBe(true);
  });

  it('completing whose answer is lost is not sent again either: the file is in the channel once', async () => {
    const { gateway } = gatewayRig();
    slack.failNext('files.completeUploadExternal', { dropAnswer: true });
    const error = await failure(gateway.uploadFile({ channel: CHANNEL, filename: 'a.png', title: 'A', bytes: chart }));
    expect(mayHaveHappened(error)).toBe(true);
    expect(slack.callsOf('files.completeUploadExternal')).toHaveLength(1);
    expect(slack.messages(CHANNEL)).toHaveLength(1);
  });

  it('a channel the bot is not in: not_in_channel, not retried, worded for a person (invite the bot)', async () => {
    const { gateway } = gatewayRig();
    const error = await failure(
      gateway.uploadFile({ channel: 'C0ELSEWHERE', filename: 'a.png', title: 'A', bytes: chart }),
    );
    expect(needsAPerson(error)).toBe(true);
    expect(describeUploadFailure(error)).toBe(
      'the bot is not in the channel, and sharing a file needs it there; invite it (/invite @treasury) (not_in_channel)',
    );
    expect(slack.callsOf('files.completeUploadExternal')).toHaveLength(1);
    expect(slack.messages()).toEqual([]);
  });

  it('an app without files:write: missing_scope at the first step, worded for a person', async () => {
    const unscoped = await startSlackStandIn({ botToken: TOKEN, filesWrite: false });
    try {
      const error = await failure(
        gatewayRig(unscoped).gateway.uploadFile({ channel: CHANNEL, filename: 'a.png', title: 'A', bytes: chart }),
      );
      expect(describeUploadFailure(error)).toBe(
        'the Slack app lacks the files:write scope; reinstall it with the current manifest (missing_scope)',
      );
      expect(unscoped.callsOf('files.getUploadURLExternal')).toHaveLength(1);
    } finally {
      await unscoped.close();
    }
  });

  it('an upload URL that keeps failing: three tries, then the failure in words', async () => {
    const { gateway } = gatewayRig();
    slack.failNext('upload_url', { status: 500 }, 3);
    const error = await failure(gateway.uploadFile({ channel: CHANNEL, filename: 'a.png', title: 'A', bytes: chart }));
    expect(describeUploadFailure(error)).toBe("Slack's upload URL refused the file's bytes (HTTP 500)");
    expect(slack.callsOf('files.getUploadURLExternal')).toHaveLength(3);
    expect(slack.callsOf('files.completeUploadExternal')).toHaveLength(0);
  });
});
