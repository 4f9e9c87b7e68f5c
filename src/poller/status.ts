import type { AlertStatusView, SourceStatus } from '../domain/alerts.js';
import type { AlertsState } from '../store/state.js';
import { SOURCES } from './facts.js';

/** Re-exported for poller/index.ts, which hands the view to the listeners. */
export type { AlertStatusView, SourceStatus };

const DAY_MS = 86_400_000;

/** Reads the status view from the persisted state (pure). */
export function readAlertStatus(
  state: Readonly<AlertsState>,
  now: Date,
  schedule: { channel: string; expression: string; nextRun: Date | null; polling: boolean },
): AlertStatusView {
  const sources = SOURCES.map((source): SourceStatus => {
    const s = state.sources[source];
    return {
      source,
      lastSuccessAt: s.lastSuccessAt ? new Date(s.lastSuccessAt) : null,
      consecutiveFailures: s.consecutiveFailures,
      lastError: s.lastError ? { at: new Date(s.lastError.at), message: s.lastError.message } : null,
    };
  });
  const errors: Array<{ where: string; at: Date; message: string }> = sources.flatMap((s) =>
    s.lastError ? [{ where: `payment API (${s.source})`, ...s.lastError }] : [],
  );
  if (state.lastDelivery && !state.lastDelivery.ok) {
    errors.push({ where: 'Slack', at: new Date(state.lastDelivery.at), message: state.lastDelivery.error ?? 'refused' });
  }
  errors.sort((a, b) => b.at.getTime() - a.at.getTime());
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const sentLast24h = Object.values(state.alerted).filter((entry) => entry.at !== undefined && entry.at >= since).length;
  return {
    channel: schedule.channel,
    schedule: schedule.expression,
    nextRun: schedule.nextRun,
    polling: schedule.polling,
    sources,
    lastError: errors[0] ?? null,
    sentLast24h,
    waiting: state.outbox.length,
    apiDownSince: state.apiDown ? new Date(state.apiDown.since) : null,
  };
}
