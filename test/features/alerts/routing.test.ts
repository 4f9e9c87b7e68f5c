import { describe, expect, it } from 'vitest';
import { mentionText, parseAlertRoutes, parseOnCall, routeFor } from '../../../src/features/alerts/routing.js';

describe('parseAlertRoutes', () => {
  it('reads kinds to channels, with an optional person or user group to mention', () => {
    expect(parseAlertRoutes('gas_donor_balance=C0GAS@S0ONCALL, withdrawal_failed=C0OPS,stuck=G0PRIV@U0AVERY')).toEqual({
      routes: {
        gas_donor_balance: { channel: 'C0GAS', mention: { type: 'group', id: 'S0ONCALL' } },
        withdrawal_failed: { channel: 'C0OPS' },
        stuck: { channel: 'G0PRIV', mention: { type: 'user', id: 'U0AVERY' } },
      },
      problems: [],
    });
    expect(parseAlertRoutes('')).toEqual({ routes: {}, problems: [] });
  });

  it.each([
    [
      'gas=C0GAS',
      'ALERT_ROUTES: "gas" is not a kind of alert (one of withdrawal_failed, task_failed, gas_donor_balance, stuck, watcher, balance_low, runway_low)',
    ],
    ['stuck=#ops', 'ALERT_ROUTES: stuck goes to "#ops", which is not a channel id (C… or G…)'],
    ['stuck=C0OPS@avery', 'ALERT_ROUTES: stuck mentions "avery", which is not a user id (U…) or user group id (S…)'],
    ['stuck=C0A,stuck=C0B', 'ALERT_ROUTES: stuck is routed twice'],
    ['stuck', 'ALERT_ROUTES: "stuck" should look like kind=CHANNEL_ID or kind=CHANNEL_ID@ONCALL_ID'],
  ])('%j → one plain problem', (text, problem) => {
    expect(parseAlertRoutes(text).problems).toEqual([problem]);
  });

  it('reports every problem at once and keeps the good routes', () => {
    const { routes, problems } = parseAlertRoutes('nope=C0A,task_failed=C0TASKS,stuck=x');
    expect(routes).toEqual({ task_failed: { channel: 'C0TASKS' } });
    expect(problems).toHaveLength(2);
  });
});

describe('parseOnCall and mentions', () => {
  it('reads people and user groups, separated by commas or spaces', () => {
    expect(parseOnCall('U0AVERY, S0ONCALL W0ENT')).toEqual({
      oncall: [
        { type: 'user', id: 'U0AVERY' },
        { type: 'group', id: 'S0ONCALL' },
        { type: 'user', id: 'W0ENT' },
      ],
      problems: [],
    });
    expect(parseOnCall('@avery').problems).toEqual([
      'ALERT_ONCALL: "@avery" is not a Slack user id (U…) or user group id (S…)',
    ]);
  });

  it('writes mentions as Slack does', () => {
    expect(mentionText({ type: 'user', id: 'U0AVERY' })).toBe('<@U0AVERY>');
    expect(mentionText({ type: 'group', id: 'S0ONCALL' })).toBe('<!subteam^S0ONCALL>');
  });
});

describe('routeFor', () => {
  const oncall = [{ type: 'group' as const, id: 'S0ONCALL' }];
  const routes = parseAlertRoutes('gas_donor_balance=C0GAS@U0GAS,withdrawal_failed=C0OPS').routes;
  it.each([
    ['gas_donor_balance', { channel: 'C0GAS', mentions: [{ type: 'user', id: 'U0GAS' }] }],
    ['withdrawal_failed', { channel: 'C0OPS', mentions: oncall }],
    ['task_failed', { channel: 'C0ALERTS', mentions: oncall }],
  ] as const)('%s → %j', (kind, expected) => {
    expect(routeFor(kind, routes, 'C0ALERTS', oncall)).toEqual(expected);
  });
});
