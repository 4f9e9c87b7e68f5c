/**
 * usergroups.users.list in the Slack stand-in, as Slack's reference has it: the bot token (scope
 * `usergroups:read`), a required `usergroup`, `{ok, users}` with the members' ids, `no_such_subteam` for an id that
 * names no group, and a disabled group's members only with `include_disabled`. Groups come from the start options;
 * a test changes or deletes one (setUsergroup, removeUsergroup) or makes the method fail (failNext). Driven through
 * Bolt's own WebClient over HTTP.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandIn, startSlackStandIn, type UserGroupSpec } from '../support/rig/slack-stand-in.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const token = 'xoxb-usergroups';
const LEADS: UserGroupSpec = {
  id: 'S0LEADS',
  handle: 'treasury-leads',
  name: 'Treasury leads',
  users: ['U0JORDAN', 'U0AVERY'],
};
const FORMER: UserGroupSpec = {
  id: 'S0FORMER',
  handle: 'former-leads',
  name: 'Former',
  users: ['U0SAM'],
  disabled: true,
};

let slack: SlackStandIn;
let client: webApi.WebClient;

const webClient = (stand: SlackStandIn, bearer = token) =>
  new webApi.WebClient(bearer, { slackApiUrl: stand.apiUrl, retryConfig: { retries: 0 }, logger: silentWebApiLogger });

beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: token, usergroups: [LEADS, FORMER] });
  client = webClient(slack);
});
afterAll(() => slack?.close());
beforeEach(() => slack.reset());

/** Slack's answer to a call: the answer itself, or the error code. */
async function answer(call: Promise<unknown>): Promise<unknown> {
  try {
    return await call;
  } catch (error) {
    return (error as { data?: { error?: string } }).data?.error ?? String(error);
  }
}

describe('usergroups.users.list', () => {
  it("answers the group's member ids", async () => {
    expect(await client.usergroups.users.list({ usergroup: 'S0LEADS' })).toMatchObject({
      ok: true,
      users: ['U0JORDAN', 'U0AVERY'],
    });
    expect(slack.callsOf('usergroups.users.list')[0]?.args).toEqual({ usergroup: 'S0LEADS' });
  });

  it('an id that names no group answers no_such_subteam; no usergroup at all, invalid_arguments naming it', async () => {
    expect(await answer(client.usergroups.users.list({ usergroup: 'S0NOBODY' }))).toBe('no_such_subteam');
    const missing = await client.apiCall('usergroups.users.list', {}).catch((error: unknown) => error);
    expect(missing).toMatchObject({
      data: {
        ok: false,
        error: 'invalid_arguments',
        response_metadata: { messages: ['[ERROR] missing required field: usergroup'] },
      },
    });
  });

  it('a disabled group lists nobody unless asked with include_disabled', async () => {
    expect(await client.usergroups.users.list({ usergroup: 'S0FORMER' })).toMatchObject({ ok: true, users: [] });
    expect(await client.usergroups.users.list({ usergroup: 'S0FORMER', include_disabled: true })).toMatchObject({
      ok: true,
      users: ['U0SAM'],
    });
  });

  it('checks the token like every method: none is not_authed, another is invalid_auth', async () => {
    expect(await answer(webClient(slack, 'xoxb-someone-else').usergroups.users.list({ usergroup: 'S0LEADS' }))).toBe(
      'invalid_auth',
    );
    const anonymous = new webApi.WebClient(undefined, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      logger: silentWebApiLogger,
    });
    expect(await answer(anonymous.usergroups.users.list({ usergroup: 'S0LEADS' }))).toBe('not_authed');
  });

  it('without usergroups:read it answers missing_scope, naming the scope needed', async () => {
    const unscoped = await startSlackStandIn({ botToken: token, usergroups: [LEADS], usergroupsRead: false });
    try {
      const refused = await webClient(unscoped)
        .usergroups.users.list({ usergroup: 'S0LEADS' })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ data: { ok: false, error: 'missing_scope', needed: 'usergroups:read' } });
    } finally {
      await unscoped.close();
    }
  });

  it('a test changes a group (members, disabled), deletes one, or makes the method fail; reset restores the options', async () => {
    slack.setUsergroup({ ...LEADS, users: ['U0RILEY'] });
    expect(await client.usergroups.users.list({ usergroup: 'S0LEADS' })).toMatchObject({ users: ['U0RILEY'] });
    expect(slack.removeUsergroup('S0LEADS')).toBe(true);
    expect(slack.removeUsergroup('S0LEADS')).toBe(false);
    expect(await answer(client.usergroups.users.list({ usergroup: 'S0LEADS' }))).toBe('no_such_subteam');

    slack.reset();
    slack.failNext('usergroups.users.list', { status: 503 }, 2);
    expect(await answer(client.usergroups.users.list({ usergroup: 'S0LEADS' }))).toMatch(/503/);
    expect(await answer(client.usergroups.users.list({ usergroup: 'S0LEADS' }))).toMatch(/503/);
    expect(await client.usergroups.users.list({ usergroup: 'S0LEADS' })).toMatchObject({
      users: ['U0JORDAN', 'U0AVERY'],
    });
  });
});
