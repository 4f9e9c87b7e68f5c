// The local workspace's people and approver group: Jordan approves through @treasury-leads, a Slack user group that
// SWAP_APPROVERS names (not Jordan), so the bot has to ask Slack's usergroups.users.list who is in it. The page gets
// the group (to show `<!subteam^…>` as @treasury-leads and who is in it) and Jordan is on the treasury team.
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHANNELS,
  type LocalWorkspace,
  startLocalWorkspace,
  USERGROUPS,
  USERS,
} from '../support/rig/local-workspace.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

let workspace: LocalWorkspace;
beforeAll(async () => {
  workspace = await startLocalWorkspace({ port: 0, activityEverySeconds: 0 });
}, 30_000);
afterAll(() => workspace?.close());

describe('the local workspace: a second approver, through a user group', () => {
  it('the page is told about Jordan and @treasury-leads, with who is in it', async () => {
    const page = (await (await fetch(`${workspace.url}api/workspace`)).json()) as {
      users: { id: string; name: string; title: string }[];
      groups: { id: string; handle: string; name: string; members: string[] }[];
    };
    expect(page.users.map((u) => u.name)).toEqual([
      'Riley Chen',
      'Avery Patel',
      'Jordan Kim',
      'Sam Lee',
      'Morgan Diaz',
    ]);
    expect(page.users.find((u) => u.id === 'U0JORDAN')?.title).toBe(
      'Approver via @treasury-leads (SWAP_APPROVERS group)',
    );
    expect(page.groups).toEqual([
      { id: 'S0TREASURYLEADS', handle: 'treasury-leads', name: 'Treasury leads', members: ['U0JORDAN'] },
    ]);
  });

  it("Slack's stand-in lists the group's members to the bot's token, as usergroups.users.list does", async () => {
    const client = new webApi.WebClient(workspace.botToken, {
      slackApiUrl: workspace.slack.apiUrl,
      retryConfig: { retries: 0 },
      logger: silentWebApiLogger,
    });
    expect(await client.usergroups.users.list({ usergroup: USERGROUPS[0].id })).toMatchObject({
      ok: true,
      users: ['U0JORDAN'],
    });
  });

  it('Morgan, of a partner organisation in #treasury (Slack Connect), is refused by the bot and nothing is read', async () => {
    const before = workspace.simulator.requestCount();
    const sent = await fetch(`${workspace.url}api/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'U0MORGAN', channel: 'C0TREASURY', text: '/treasury balances' }),
    });
    expect(sent.status).toBe(200);
    const timeline = async () =>
      JSON.stringify(await (await fetch(`${workspace.url}api/timeline?user=U0MORGAN`)).json());
    await expect
      .poll(timeline, { timeout: 10_000 })
      .toContain('only works for people of the workspace it is installed in');
    expect(workspace.simulator.requestCount()).toBe(before);
  });

  it('Jordan is on the treasury team: in #treasury-ops and in a direct message with the bot', () => {
    expect(USERS.map((u) => u.id)).toContain('U0JORDAN');
    const ops = CHANNELS.find((c) => c.name === 'treasury-ops');
    expect(ops?.members).toContain('U0JORDAN');
    expect(workspace.slack.isMember('C0TREASURYOPS', 'U0JORDAN')).toBe(true);
    expect(workspace.slack.isMember('D0JORDANBOT', 'U0JORDAN')).toBe(true);
    expect(workspace.slack.isMember('D0JORDANBOT', workspace.slack.botUserId)).toBe(true);
  });
});
