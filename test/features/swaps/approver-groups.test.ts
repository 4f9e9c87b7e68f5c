/**
 * The approver groups' members, as the swap feature reads them: through the real gateway and WebClient to the
 * Slack stand-in's usergroups.users.list over HTTP, with an injected clock. Served from memory for at most five
 * minutes; a group Slack cannot list becomes a reason in plain words (the Slack error goes to the log), is never
 * remembered, and is asked for again at the next lookup; overlapping lookups of one group share one request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  APPROVER_GROUPS_TTL_MS,
  type ApproverGroups,
  createApproverGroups,
} from '../../../src/features/swaps/approver-groups.js';
import { createLogger } from '../../../src/logger.js';
import { createSlackGateway, createSlackWebClient } from '../../../src/slack/index.js';
import {
  type InjectedFailure,
  type SlackStandIn,
  startSlackStandIn,
  type UserGroupSpec,
} from '../../support/rig/slack-stand-in.js';
import { silentWebApiLogger } from '../../support/rig/web-client.js';

const TOKEN = 'xoxb-approver-groups-test';
const LEADS: UserGroupSpec = {
  id: 'S0LEADS',
  handle: 'treasury-leads',
  name: 'Treasury leads',
  users: ['U0JORDAN', 'U0AVERY'],
};
const DESK: UserGroupSpec = { id: 'S0DESK', handle: 'treasury-desk', name: 'Treasury desk', users: ['U0RILEY'] };

let slack: SlackStandIn;
beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: TOKEN, usergroups: [LEADS, DESK] });
});
afterAll(() => slack?.close());
beforeEach(() => slack.reset());

interface Rig {
  groups: ApproverGroups;
  clock: { ms: number };
  logs: string[];
  /** The usergroups.users.list calls the stand-in received, by group id. */
  asked(): string[];
}

function rig(ttlMs?: number): Rig {
  const clock = { ms: Date.parse('2026-11-24T09:00:00Z') };
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  // The gateway's own retry waits take no time here; its clock is the test's.
  const slackGateway = createSlackGateway({
    client: createSlackWebClient({
      token: TOKEN,
      slackApiUrl: slack.apiUrl,
      timeoutMs: 2_000,
      logger: silentWebApiLogger,
    }),
    now: () => clock.ms,
    sleep: async () => {},
    logger,
  });
  const groups = createApproverGroups({
    slack: slackGateway,
    now: () => new Date(clock.ms),
    logger,
    ...(ttlMs !== undefined ? { ttlMs } : {}),
  });
  const asked = () => slack.callsOf('usergroups.users.list').map((call) => String(call.args.usergroup));
  return { groups, clock, logs, asked };
}

describe('approver groups: members from Slack, remembered for five minutes', () => {
  it('maps each group to its members, and serves them from memory until five minutes after Slack was asked', async () => {
    const { groups, clock, asked } = rig();
    expect(APPROVER_GROUPS_TTL_MS).toBe(5 * 60_000);
    expect(await groups.members(['S0LEADS'])).toEqual(new Map([['S0LEADS', ['U0JORDAN', 'U0AVERY']]]));

    // Avery leaves the group in Slack: within five minutes the bot still goes by what Slack said.
    slack.setUsergroup({ ...LEADS, users: ['U0JORDAN'] });
    clock.ms += APPROVER_GROUPS_TTL_MS - 1;
    expect(await groups.members(['S0LEADS'])).toEqual(new Map([['S0LEADS', ['U0JORDAN', 'U0AVERY']]]));
    expect(asked()).toEqual(['S0LEADS']);

    // Five minutes on, it asks again and sees the change.
    clock.ms += 1;
    expect(await groups.members(['S0LEADS'])).toEqual(new Map([['S0LEADS', ['U0JORDAN']]]));
    expect(asked()).toEqual(['S0LEADS', 'S0LEADS']);
  });

  it('the time to live is a setting; each group is remembered on its own clock', async () => {
    const { groups, clock, asked } = rig(60_000);
    await groups.members(['S0LEADS']);
    clock.ms += 30_000;
    await groups.members(['S0LEADS', 'S0DESK']);
    expect(asked()).toEqual(['S0LEADS', 'S0DESK']);
    clock.ms += 30_000;
    expect(await groups.members(['S0LEADS', 'S0DESK'])).toEqual(
      new Map([
        ['S0LEADS', ['U0JORDAN', 'U0AVERY']],
        ['S0DESK', ['U0RILEY']],
      ]),
    );
    expect(asked()).toEqual(['S0LEADS', 'S0DESK', 'S0LEADS']);
  });

  it('a disabled group has nobody in it: an empty list, not a failure', async () => {
    const { groups } = rig();
    slack.setUsergroup({ ...LEADS, disabled: true });
    expect(await groups.members(['S0LEADS'])).toEqual(new Map([['S0LEADS', []]]));
  });

  it('no groups, no question to Slack', async () => {
    const { groups, asked } = rig();
    expect(await groups.members([])).toEqual(new Map());
    expect(asked()).toEqual([]);
  });
});

describe('a group Slack cannot list: a reason in plain words, never remembered', () => {
  it('says why in plain words, logs the Slack error (never the token), and asks again at the next lookup', async () => {
    const { groups, logs, asked } = rig();
    slack.removeUsergroup('S0LEADS');
    expect(await groups.members(['S0LEADS', 'S0DESK'])).toEqual(
      new Map<string, unknown>([
        ['S0LEADS', { error: 'Slack does not know this group' }],
        ['S0DESK', ['U0RILEY']],
      ]),
    );
    const warning = logs.find((line) => line.includes('WARN') && line.includes('S0LEADS'));
    expect(warning).toMatch(/approver group.*"reason":"no_such_subteam"/);
    expect(logs.join('\n')).not.toContain(TOKEN);

    // Not remembered: the group is back in Slack, and the very next lookup (no time passed) asks and sees it.
    slack.setUsergroup(LEADS);
    expect(await groups.members(['S0LEADS', 'S0DESK'])).toEqual(
      new Map([
        ['S0LEADS', ['U0JORDAN', 'U0AVERY']],
        ['S0DESK', ['U0RILEY']],
      ]),
    );
    expect(asked()).toEqual(['S0LEADS', 'S0DESK', 'S0LEADS']);
  });

  it.each<[string, InjectedFailure, number, string]>([
    ['no_such_subteam', { error: 'no_such_subteam' }, 1, 'Slack does not know this group'],
    ['missing_scope', { error: 'missing_scope' }, 1, 'the bot lacks the usergroups:read permission'],
    ['plan_upgrade_required', { error: 'plan_upgrade_required' }, 1, "this Slack workspace's plan has no user groups"],
    ['invalid_auth', { error: 'invalid_auth' }, 1, "Slack refused the bot's token"],
    ['HTTP 503 on every try', { status: 503 }, 3, 'Slack did not answer'],
    ['a reset connection on every try', { reset: true }, 3, 'Slack did not answer'],
    ['an error it does not document', { error: 'fatal_error' }, 1, 'Slack refused to list the members'],
  ])('%s: %j', async (_what, failure, times, reason) => {
    const { groups, logs } = rig();
    slack.failNext('usergroups.users.list', failure, times);
    expect(await groups.members(['S0LEADS'])).toEqual(new Map([['S0LEADS', { error: reason }]]));
    expect(logs.some((line) => line.includes('WARN') && line.includes('S0LEADS'))).toBe(true);
  });

  it('an app installed without usergroups:read gets the same plain reason', async () => {
    const unscoped = await startSlackStandIn({ botToken: TOKEN, usergroups: [LEADS], usergroupsRead: false });
    try {
      const groups = createApproverGroups({
        slack: createSlackGateway({
          client: createSlackWebClient({
            token: TOKEN,
            slackApiUrl: unscoped.apiUrl,
            timeoutMs: 2_000,
            logger: silentWebApiLogger,
          }),
          sleep: async () => {},
        }),
        now: () => new Date(),
        logger: createLogger('error', () => {}),
      });
      expect(await groups.members(['S0LEADS'])).toEqual(
        new Map([['S0LEADS', { error: 'the bot lacks the usergroups:read permission' }]]),
      );
    } finally {
      await unscoped.close();
    }
  });
});

describe('lookups at the same time', () => {
  it('two lookups of one group at once share one request, and both get its members', async () => {
    const { groups, asked } = rig();
    // Slack takes a moment, so the second lookup starts while the first is still waiting.
    slack.failNext('usergroups.users.list', { delayMs: 150 });
    const [first, second] = await Promise.all([groups.members(['S0LEADS']), groups.members(['S0LEADS', 'S0LEADS'])]);
    expect(first).toEqual(new Map([['S0LEADS', ['U0JORDAN', 'U0AVERY']]]));
    expect(second).toEqual(first);
    expect(asked()).toEqual(['S0LEADS']);
  });

  it('a failure seen by lookups at once is shared too, and the next lookup asks again', async () => {
    const { groups, asked } = rig();
    slack.failNext('usergroups.users.list', { error: 'no_such_subteam' });
    const both = await Promise.all([groups.members(['S0LEADS']), groups.members(['S0LEADS'])]);
    expect(both).toEqual([
      new Map([['S0LEADS', { error: 'Slack does not know this group' }]]),
      new Map([['S0LEADS', { error: 'Slack does not know this group' }]]),
    ]);
    expect(asked()).toEqual(['S0LEADS']);
    expect(await groups.members(['S0LEADS'])).toEqual(new Map([['S0LEADS', ['U0JORDAN', 'U0AVERY']]]));
    expect(asked()).toEqual(['S0LEADS', 'S0LEADS']);
  });
});
