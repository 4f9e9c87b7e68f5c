/**
 * What `/treasury alerts` shows about the alert poller: the poller reads it from its state, the view renders it.
 * It lives here so that the view (blocks) and the poller both depend on it, and not on each other.
 */

/** The sources the poller watches. */
export type AlertSourceName = 'withdrawals' | 'tasks' | 'gas';

/** How one watched source stands, for `/treasury alerts`. */
export interface SourceStatus {
  source: AlertSourceName;
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  lastError: { at: Date; message: string } | null;
}

/** Everything `/treasury alerts` shows. */
export interface AlertStatusView {
  channel: string;
  schedule: string;
  nextRun: Date | null;
  /** A poll is running right now. */
  polling: boolean;
  sources: SourceStatus[];
  /** The most recent error of any source, or of posting to Slack. */
  lastError: { where: string; at: Date; message: string } | null;
  /** Failures alerted (accepted by Slack) in the last 24 hours. */
  sentLast24h: number;
  /** Alerts waiting in the outbox for Slack to accept them. */
  waiting: number;
  apiDownSince: Date | null;
}
