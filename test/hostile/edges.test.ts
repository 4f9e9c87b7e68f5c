// One request must never take the bot down. The bot runs as its own process (a crash is a real exit), Slack
// is the stand-in, the payment API the simulator; every request here is signed, as Slack's are, and hostile.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { type BotProcess, startBotProcess } from '../support/bot-process.js';
import { createSlackDriver, type SlackDriver } from '../support/rig/slack-driver.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';

const SIGNING_SECRET = 'hostile-input-signing-secret';
const BOT_TOKEN = 'xoxb-hostile-input';
const FORM = 'application/x-www-form-urlencoded';

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
let bot: BotProcess;
let driver: SlackDriver;

beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
  slack = await startSlackStandIn({ botToken: BOT_TOKEN });
  bot = await startBotProcess({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    SWAP_APPROVERS: 'U0APPROVER',
    DATA_FILE: join(mkdtempSync(join(tmpdir(), 'hostile-')), 'state.json'),
  });
  driver = createSlackDriver({ eventsUrl: bot.eventsUrl, signingSecret: SIGNING_SECRET, standIn: slack });
}, 30_000);
afterAll(async () => {
  await bot?.stop();
  await slack?.close();
  await simulator?.close();
});
beforeEach(() => simulator.resetRequests());

/** Sends `body` signed with the app's secret, as Slack would. */
const sendSigned = (body: string, contentType = FORM) =>
  driver.sendRaw(body, { 'content-type': contentType, ...driver.signatureHeaders(body) });

/** The process is up and still answers: /healthz and a real command. */
async function expectStillServing(): Promise<void> {
  expect(bot.alive()).toBe(true);
  expect((await fetch(`${bot.baseUrl}/healthz`)).status).toBe(200);
  const answer = await driver.command('help');
  const [reply] = await answer.waitForResponses(1);
  expect(JSON.stringify(reply?.blocks)).toContain('*Look up* — `balances`');
}

/** A block_actions payload as Slack sends it, with `overrides` merged over the top level. */
function clickPayload(
  overrides: Record<string, unknown>,
  action: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'block_actions',
    user: { id: 'U0ALICE', username: 'alice', team_id: 'T_TEST' },
    api_app_id: 'A_TEST',
    container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C_TREASURY', is_ephemeral: true },
    channel: { id: 'C_TREASURY', name: 'treasury' },
    team: { id: 'T_TEST', domain: 'treasury-test' },
    response_url: slack.createResponseUrl(),
    actions: [{ action_id: 'payouts_page', block_id: 'b1', type: 'button', action_ts: '1700000000.1', ...action }],
    ...overrides,
  };
}
const asForm = (payload: unknown) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

describe('bodies Bolt cannot read', () => {
  it.each([
    ['payload=null', FORM],
    ['payload=5', FORM],
    ['payload=%5B%5D', FORM],
    ['payload=%22text%22', FORM],
    ['null', 'application/json'],
    ['[1,2]', 'application/json'],
    ['"just a string"', 'application/json'],
  ])('signed %s (%s) gets a plain 400 and the bot keeps serving', async (body, type) => {
    const result = await sendSigned(body, type);
    expect(result.status).toBe(400);
    await expectStillServing();
  });
});

describe('malformed commands', () => {
  it('a command with no `text` field is answered like `/treasury` alone: the help', async () => {
    const responseUrl = slack.createResponseUrl();
    const body = new URLSearchParams({
      team_id: 'T_TEST',
      channel_id: 'C_TREASURY',
      user_id: 'U0ALICE',
      command: '/treasury',
      response_url: responseUrl,
    }).toString();
    const result = await sendSigned(body);
    expect(result.status).toBe(200);
    const [reply] = await slack.waitForResponses(responseUrl, 1);
    expect(JSON.stringify(reply?.blocks)).toContain('*Look up* — `balances`');
  });

  it('a command without a user or response_url is acknowledged with a plain line, and nothing else happens', async () => {
    const body = new URLSearchParams({ command: '/treasury', text: 'balances', channel_id: 'C_TREASURY' }).toString();
    const result = await sendSigned(body);
    expect(result.status).toBe(200);
    expect(JSON.stringify(result.body)).toContain('could not read this command');
    expect(simulator.requestCount()).toBe(0);
  });
});

describe('malformed clicks', () => {
  it('a click without `user` is answered 200 at once, not 500, and calls nothing', async () => {
    const { user: _, ...payload } = clickPayload({});
    const result = await sendSigned(asForm(payload));
    expect(result.status).toBe(200);
    expect(simulator.requestCount()).toBe(0);
    await expectStillServing();
  });

  it('a click without `response_url` is answered 200, logged plainly, and calls nothing', async () => {
    const { response_url: _, ...payload } = clickPayload({});
    const result = await sendSigned(asForm(payload));
    expect(result.status).toBe(200);
    await expectStillServing();
    expect(bot.stderr()).toContain('ignored a malformed button click');
    expect(bot.stderr()).not.toContain('respond is not a function');
    expect(simulator.requestCount('listPayoutTasks')).toBe(0);
  });

  it('an unknown button is answered at once and the clicker is told it is no longer supported', async () => {
    const payload = clickPayload({}, { action_id: 'launch_rockets', value: '1' });
    const result = await sendSigned(asForm(payload));
    expect(result.status).toBe(200);
    expect(result.elapsedMs).toBeLessThan(1_000);
    const [reply] = await slack.waitForResponses(payload.response_url as string, 1);
    expect(reply?.text).toBe('This button is no longer supported. Run the command again for a fresh message.');
    expect(reply?.replaceOriginal).toBe(false);
  });
});

describe('malformed shortcuts and forms', () => {
  const shortcut = (overrides: Record<string, unknown>) => ({
    type: 'shortcut',
    token: 'x',
    action_ts: '1700000000.1',
    team: { id: 'T_TEST', domain: 'treasury-test' },
    user: { id: 'U0ALICE', username: 'alice', team_id: 'T_TEST' },
    callback_id: 'new_invoice',
    trigger_id: `${Date.now()}.1.abcdef`,
    ...overrides,
  });

  it('a shortcut without a trigger, or one the app does not declare, is answered 200 and opens nothing', async () => {
    slack.reset();
    const { trigger_id: _, ...noTrigger } = shortcut({});
    for (const payload of [noTrigger, shortcut({ callback_id: 'delete_everything' }), shortcut({ user: 'U0ALICE' })]) {
      const result = await sendSigned(asForm(payload));
      expect(result.status).toBe(200);
    }
    await expectStillServing();
    expect(slack.callsOf('views.open')).toHaveLength(0);
    expect(bot.stderr()).toContain('ignored a shortcut the bot does not know');
  });

  it('a form input used from a message, and a form submitted with garbage state, change nothing', async () => {
    const fromMessage = clickPayload({}, { action_id: 'form_invoice_amount', type: 'plain_text_input', value: '5' });
    expect((await sendSigned(asForm(fromMessage))).status).toBe(200);
    const submission = {
      type: 'view_submission',
      user: { id: 'U0ALICE', username: 'alice', team_id: 'T_TEST' },
      team: { id: 'T_TEST', domain: 'treasury-test' },
      api_app_id: 'A_TEST',
      view: {
        id: 'V0FORGED',
        callback_id: 'form_invoice',
        private_metadata: '{"responseUrl":"javascript:alert(1)"}',
        hash: 'h',
        state: { values: { form_invoice_amount: { form_invoice_amount: { value: { nested: true } } } } },
      },
    };
    const result = await sendSigned(asForm(submission));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ response_action: 'errors' });
    await expectStillServing();
    expect(simulator.requestCount('createInvoice') + simulator.requestCount('createInvoiceByCrypto')).toBe(0);
  });
});

describe('tampered button values change nothing', () => {
  const INVALID = 'This button carries data the bot cannot use';
  it.each([
    ['payouts_page', '{"cursor":null,"offset":"5"}', 'listPayoutTasks'],
    ['payouts_page', 'null', 'listPayoutTasks'],
    ['payouts_page', '{"cursor":null,"offset":-1}', 'listPayoutTasks'],
    ['gas_page', '{"cursor":null,"offset":5,"status":"everything"}', 'listGasDistributions'],
    ['withdrawals_page_next', 'abc', 'listWithdrawals'],
    ['withdrawals_page_next', '0', 'listWithdrawals'],
    ['share_in_channel', '{"kind":"bogus","id":"3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f"}', 'getWithdrawal'],
    ['share_in_channel', '{"kind":"withdrawal","id":"../../etc"}', 'getWithdrawal'],
  ] as const)(
    '%s with value %s: a private notice, no API call, nothing posted in the channel',
    async (actionId, value, operation) => {
      const payload = clickPayload({}, { action_id: actionId, value });
      const posted = slack.callsOf('chat.postMessage').length;
      await sendSigned(asForm(payload));
      const [reply] = await slack.waitForResponses(payload.response_url as string, 1);
      expect(reply?.text).toContain(INVALID);
      expect(reply?.responseType).toBe('ephemeral');
      expect(reply?.replaceOriginal).toBe(false);
      expect(simulator.requestCount(operation)).toBe(0);
      expect(slack.callsOf('chat.postMessage')).toHaveLength(posted);
    },
  );
});

describe('a generated corpus of hostile requests', () => {
  const knownActions = [
    'withdrawals_page',
    'withdrawals_page_next',
    'payouts_page',
    'gas_page',
    'share_in_channel',
    'swap_approve',
    'swap_reject',
    'swap_new_quote',
  ];
  const anyValue = fc.oneof(
    fc.string(),
    fc.json(),
    fc.constantFrom(
      'null',
      '{}',
      '[]',
      '__proto__',
      'constructor',
      '{"__proto__":{"x":1}}',
      '{"cursor":null,"offset":"5"}',
    ),
  );
  const junk = fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.constant([]), fc.object());

  // A click with each field either right, missing or of the wrong type.
  const click = fc
    .record({
      action: fc.record(
        {
          action_id: fc.oneof(fc.constantFrom(...knownActions), fc.string({ maxLength: 300 }), junk),
          value: fc.oneof(anyValue, junk),
        },
        { requiredKeys: [] },
      ),
      user: fc.oneof(fc.constant({ id: 'U0ALICE' }), fc.constant({ id: 'U0APPROVER' }), junk),
      channel: fc.oneof(fc.constant({ id: 'C_TREASURY' }), junk),
      dropResponseUrl: fc.boolean(),
      extraActions: fc.nat({ max: 2 }),
    })
    .map(({ action, user, channel, dropResponseUrl, extraActions }) => {
      const payload: Record<string, unknown> = clickPayload({ user, channel }, action);
      payload.actions = [...(payload.actions as unknown[]), ...Array.from({ length: extraActions }, () => action)];
      if (dropResponseUrl) delete payload.response_url;
      return asForm(payload);
    });

  // A slash command whose fields are missing, junk or hostile; never text that creates something.
  const command = fc
    .record({
      text: fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.constantFrom(
          'balance __proto__',
          'task constructor',
          'withdrawals 99999999999',
          'gas everything',
          'payouts toString',
        ),
      ),
      user_id: fc.oneof(fc.constant('U0ALICE'), fc.string({ maxLength: 40 })),
      command: fc.oneof(fc.constant('/treasury'), fc.string({ maxLength: 20 })),
      dropText: fc.boolean(),
    })
    .filter(({ text }) => !/^\s*(invoice|swap)\b/i.test(text))
    .map(({ text, user_id, command, dropText }) => {
      const fields: Record<string, string> = {
        team_id: 'T_TEST',
        channel_id: 'C_TREASURY',
        user_id,
        command,
        response_url: slack.createResponseUrl(),
      };
      if (!dropText) fields.text = text;
      return new URLSearchParams(fields).toString();
    });

  // Other kinds of request: events, views, JSON of any shape.
  const other = fc.oneof(
    fc.json().map((json) => ({ body: json, type: 'application/json' })),
    fc
      .constantFrom(
        '{"type":"event_callback","event":{"type":"app_home_opened","user":"U0ALICE"}}',
        '{"type":"view_submission"}',
        '{"type":"shortcut"}',
      )
      .map((body) => ({ body, type: 'application/json' })),
    fc.string().map((text) => ({ body: `payload=${encodeURIComponent(text)}`, type: FORM })),
  );

  const request = fc.oneof(
    { weight: 5, arbitrary: click.map((body) => ({ body, type: FORM })) },
    { weight: 3, arbitrary: command.map((body) => ({ body, type: FORM })) },
    { weight: 2, arbitrary: other },
  );

  it('1,200 signed hostile requests: each answered without a 5xx, the process stays up, nothing is created', async () => {
    const corpus = fc.sample(request, { numRuns: 1_200, seed: 20261123 });
    const statuses = new Map<number, number>();
    for (let i = 0; i < corpus.length; i += 25) {
      const batch = corpus.slice(i, i + 25);
      const results = await Promise.all(batch.map(({ body, type }) => sendSigned(body, type)));
      for (const result of results) statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      // Every signed request was answered (sendRaw would have thrown on a timeout or a dropped socket).
      expect(results.filter((r) => r.status >= 500)).toEqual([]);
      // …and promptly: Bolt's own answer to a request nobody handles comes only after 3 s.
      expect(results.filter((r) => r.elapsedMs > 2_000)).toEqual([]);
    }
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(1_200);
    await expectStillServing();
    for (const create of [
      'createSwap',
      'estimateSwap',
      'createInvoice',
      'createInvoiceByCrypto',
      'createPayout',
    ] as const) {
      expect(simulator.requestCount(create), create).toBe(0);
    }
    expect(bot.stderr()).not.toContain('unhandled promise rejection');
  }, 120_000);
});
