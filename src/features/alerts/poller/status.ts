import type { AlertStatusView, SourceStatus } from '../blocks.js';
import { type AlertSourceState, type AlertsState, SOURCES } from '../records.js';
import { type AlertRoutes, ROUTE_KINDS } from '../routing.js';

/** Re-exported for poller/index.ts, which hands the view to the listeners. */
export type { AlertStatusView };

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A source's walks in progress, summed: rows read, and the estimate when every walk has one. */
function catchingUpOf(source: AlertSourceState): SourceStatus['catchingUp'] {
  const walks = Object.values(source.lists ?? {}).flatMap((list) => (list.walk ? [list.walk] : []));
  if (walks.length === 0) return null;
  const read = walks.reduce((sum, walk) => sum + walk.read, 0);
  const estimate = walks.every((walk) => walk.estimate !== undefined)
    ? walks.reduce((sum, walk) => sum + (walk.estimate ?? 0), 0)
    : null;
  const since = walks.map((walk) => walk.startedAt).sort()[0]!;
  return { read, estimate, since: new Date(since) };
}

/** Reads the status view from the persisted state (pure). */
export function readAlertStatus(
  state: Readonly<AlertsState>,
  now: Date,
  schedule: {
    channel: string;
    expression: string;
    nextRun: Date | null;
    polling: boolean;
    replicas?: AlertStatusView['replicas'];
    /** ALERT_ROUTES: which channels refusing alerts still matter (a refusal of a channel no longer used is not shown). */
    routes?: AlertRoutes;
  },
): AlertStatusView {
  const sources = SOURCES.map((source): SourceStatus => {
    const s = state.sources[source];
    return {
      source,
      lastSuccessAt: s.lastSuccessAt ? new Date(s.lastSuccessAt) : null,
      consecutiveFailures: s.consecutiveFailures,
      lastError: s.lastError ? { at: new Date(s.lastError.at), message: s.lastError.message } : null,
      catchingUp: catchingUpOf(s),
    };
  });
  const errors: Array<{ where: string; at: Date; message: string }> = sources.flatMap((s) =>
    s.lastError ? [{ where: `payment API (${s.source})`, ...s.lastError }] : [],
  );
  if (state.lastDelivery && !state.lastDelivery.ok) {
    errors.push({
      where: 'Slack',
      at: new Date(state.lastDelivery.at),
      message: state.lastDelivery.error ?? 'refused',
    });
  }
  errors.sort((a, b) => b.at.getTime() - a.at.getTime());
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  // Counted per hour (an hour that ends inside the last 24 h counts whole); a file of the version before
  // the counts has them only in `alerted`.
  const hourStart = new Date(now.getTime() - DAY_MS - HOUR_MS).toISOString();
  const sentLast24h = state.sentPerHour
    ? Object.entries(state.sentPerHour).reduce((sum, [hour, count]) => (hour > hourStart ? sum + count : sum), 0)
    : Object.values(state.alerted).filter((entry) => entry.at !== undefined && entry.at >= since).length;
  return {
    channel: schedule.channel,
    schedule: schedule.expression,
    nextRun: schedule.nextRun,
    polling: schedule.polling,
    sources,
    lastError: errors[0] ?? null,
    sentLast24h,
    waiting: state.outbox.length,
    openAlerts: openAlertCounts(state),
    apiDownSince: state.apiDown ? new Date(state.apiDown.since) : null,
    ...(schedule.replicas ? { replicas: schedule.replicas } : {}),
    refusing: refusingChannels(state, schedule.channel, schedule.routes ?? {}),
    lastSuccessfulPollAt: state.lastSuccessfulPollAt ? new Date(state.lastSuccessfulPollAt) : null,
  };
}

/**
 * The channels refusing alerts that the configuration still sends alerts to, ALERT_CHANNEL first, then by channel:
 * ALERT_CHANNEL itself, or the kinds ALERT_ROUTES sends there.
 */
function refusingChannels(
  state: AlertsState,
  alertChannel: string,
  routes: AlertRoutes,
): NonNullable<AlertStatusView['refusing']> {
  return Object.entries(state.refusingChannels ?? {})
    .map(([channel, entry]) => ({
      channel,
      alertChannel: channel === alertChannel,
      kinds: ROUTE_KINDS.filter((kind) => routes[kind]?.channel === channel),
      error: entry.error,
      since: new Date(entry.since),
      at: new Date(entry.at),
    }))
    .filter((entry) => entry.alertChannel || entry.kinds.length > 0)
    .sort((a, b) => Number(b.alertChannel) - Number(a.alertChannel) || (a.channel < b.channel ? -1 : 1));
}

/** Alerts not resolved yet, and those of them nobody has acknowledged. */
function openAlertCounts(state: AlertsState): { open: number; nobody: number } {
  const open = Object.values(state.owned ?? {}).filter((alert) => alert.life.state !== 'resolved');
  return { open: open.length, nobody: open.filter((alert) => alert.life.state === 'open').length };
}
