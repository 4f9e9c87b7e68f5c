// ---------------------------------------------------------------------------------------------------------
// Where each kind of alert goes (ALERT_ROUTES) and whom it mentions (ALERT_ONCALL, or the route's own mention).
// Pure parsing with every problem reported at once, in plain words, for the start-up check.

import { ALERT_KINDS } from './kinds/index.js';
import { type Mentionable, parseMentionable } from './mentions.js';

export { type Mentionable, mentionText, parseOnCall } from './mentions.js';

/** The route kind of each alert kind: what ALERT_ROUTES, the trail, the metrics and the digest name. */
export type RouteKind = (typeof ALERT_KINDS)[number]['route'];

/** The kinds of alert a route can name, in the table's order. */
export const ROUTE_KINDS = [...new Set(ALERT_KINDS.map((kind) => kind.route))] as [RouteKind, ...RouteKind[]];

export interface AlertRoute {
  channel: string;
  mention?: Mentionable;
}

export type AlertRoutes = Partial<Record<RouteKind, AlertRoute>>;

const CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/;

/**
 * ALERT_ROUTES, e.g. `gas_donor_balance=C0GAS@S0ONCALL,withdrawal_failed=C0OPS`: each kind to a channel id,
 * optionally `@` a person or user group to mention there. Unrouted kinds go to ALERT_CHANNEL.
 */
export function parseAlertRoutes(text: string): { routes: AlertRoutes; problems: string[] } {
  const routes: AlertRoutes = {};
  const problems: string[] = [];
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([a-z_]+)\s*=\s*([^@\s]+)(?:@(\S+))?$/.exec(entry);
    if (!match) {
      problems.push(`ALERT_ROUTES: "${entry}" should look like kind=CHANNEL_ID or kind=CHANNEL_ID@ONCALL_ID`);
      continue;
    }
    const [, kindText = '', channel = '', mentionId] = match;
    const kind = ROUTE_KINDS.find((known) => known === kindText);
    if (!kind) {
      problems.push(`ALERT_ROUTES: "${kindText}" is not a kind of alert (one of ${ROUTE_KINDS.join(', ')})`);
      continue;
    }
    if (routes[kind]) {
      problems.push(`ALERT_ROUTES: ${kind} is routed twice`);
      continue;
    }
    if (!CHANNEL_ID.test(channel)) {
      problems.push(`ALERT_ROUTES: ${kind} goes to "${channel}", which is not a channel id (C… or G…)`);
      continue;
    }
    const mention = mentionId === undefined ? undefined : parseMentionable(mentionId);
    if (mentionId !== undefined && !mention) {
      problems.push(`ALERT_ROUTES: ${kind} mentions "${mentionId}", which is not a user id (U…) or user group id (S…)`);
      continue;
    }
    routes[kind] = { channel, ...(mention ? { mention } : {}) };
  }
  return { routes, problems };
}

/** Where an alert of `kind` goes and whom its reminders mention: its route, else ALERT_CHANNEL and the on-call. */
export function routeFor(
  kind: RouteKind,
  routes: AlertRoutes,
  alertChannel: string,
  oncall: readonly Mentionable[],
): { channel: string; mentions: Mentionable[] } {
  const route = routes[kind];
  if (!route) return { channel: alertChannel, mentions: [...oncall] };
  return { channel: route.channel, mentions: route.mention ? [route.mention] : [...oncall] };
}
