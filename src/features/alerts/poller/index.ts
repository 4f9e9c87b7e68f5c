/**
 * The alert poller: failed withdrawals, failed payout tasks and gas top-ups short of donor balance, posted to
 * ALERT_CHANNEL once each. `pollOnce` is one poll; `createAlertPoller` hands it to the scheduler's "alert poll" job
 * (src/jobs), which runs it on POLL_SCHEDULE.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { isStorageUnavailable } from '../../../kernel/errors.js';
import { errorFields, type Logger } from '../../../logger.js';
import type { BotMetrics } from '../../../metrics/index.js';
import type { PaymentsClient } from '../../../payments/index.js';
import type { BotRepositories } from '../../repositories.js';
import { type ChannelPacing, type PollDeps, type PollReport, pollOnce } from './poll.js';
import type { AlertPoster } from './slack.js';
import { type AlertStatusView, readAlertStatus } from './status.js';

export { prepareAlertChannel } from './channel.js';
export { type ChannelPacing, POLL_RULES, type PollDeps, type PollReport, planDeliveries, pollOnce } from './poll.js';
export { type AlertPoster, createAlertPoster } from './slack.js';
export { type AlertStatusView, readAlertStatus } from './status.js';

/** A running alert poller. */
export interface AlertPoller {
  readonly channel: string;
  start(): void;
  /**
   * No new poll starts; a poll under way may finish for up to `finishWithinMs` (default 0), then it is aborted
   * between two requests.
   */
  stop(options?: { finishWithinMs?: number }): Promise<void>;
  /** One poll now, unless one is running (then false). */
  runNow(): Promise<boolean>;
  /** What `/treasury alerts` shows. */
  status(): Promise<AlertStatusView>;
  /** The report of the last finished poll. */
  lastReport(): PollReport | undefined;
}

/** The schedule a poll runs on: the scheduler's "alert poll" job (src/jobs), which asks the lease first. */
export interface PollRunner {
  start(): void;
  stop(graceMs?: number, finishWithinMs?: number): Promise<void>;
  runNow(): Promise<boolean>;
  status(): { nextRun: Date | null; polling: boolean };
}

/** Everything the poller needs; `sleep` is injectable so tests need not wait a second between posts. */
export interface AlertPollerOptions {
  payments: PaymentsClient;
  store: Pick<BotRepositories, 'alerts'>;
  slack: AlertPoster;
  channel: string;
  /** POLL_SCHEDULE, as `/treasury alerts` shows it. */
  schedule: string;
  /** Puts the poll on its schedule (the scheduler's "alert poll" job). */
  runOn: (poll: (signal: AbortSignal) => Promise<void>) => PollRunner;
  lookbackMs: number;
  now: () => Date;
  logger: Logger;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Replicated deployments: only the replica holding the lease polls (the scheduler asks before each tick); a poll
   * asks again before it writes, and `/treasury alerts` names the polling replica.
   */
  leadership?: PollLeadership;
  /** ALERT_ROUTES, ALERT_TIME_ZONE and STUCK_*_AFTER (see PollDeps). */
  routes?: PollDeps['routes'];
  timeZone?: string;
  stuckAfterMs?: PollDeps['stuckAfterMs'];
  /** After each poll: the alerts people own (reminders, owed Slack work); see features/alerts. */
  followUp?: () => Promise<void>;
  /** Polls run and their duration, the last successful poll, alerts posted and failed, their latency. */
  metrics?: Pick<BotMetrics, 'pollRun' | 'alertPosted' | 'alertFailed' | 'alertLatency'>;
  /** The balance thresholds (see PollDeps.thresholds). */
  thresholds?: PollDeps['thresholds'];
  /** RUNWAY_ALERT_DAYS (see PollDeps.runway). */
  runway?: PollDeps['runway'];
}

/** One replica of several polls at a time (a lease in the shared database). */
export interface PollLeadership {
  /** This replica's name. */
  replica: string;
  /** Takes (or keeps) the lease; true while this replica holds it. */
  tryLead(): Promise<boolean>;
  /** The replica holding the lease now, if any. */
  leader(): Promise<string | undefined>;
}

/** Whether a poll succeeded: it ran to its end and read every source (what the heartbeat reports). */
export function pollSucceeded(report: PollReport | undefined): boolean {
  return report !== undefined && !report.aborted && Object.values(report.sources).every((source) => source.ok);
}

/** Said at debug level when a tick comes while the previous poll is still running. */
export const POLL_SKIPPED_LINE = 'alert poller: the previous poll is still running; this tick is skipped';

/** A poll that threw: pollOnce handles API and Slack failures itself; what is left is the store (or a bug). */
export function logPollFailure(logger: Logger, error: unknown): void {
  if (isStorageUnavailable(error))
    logger.warn(
      'alert poller: the database cannot be reached; nothing was recorded or posted, the next poll tries again',
      { error: errorFields(error) },
    );
  else logger.error('alert poller: a poll failed unexpectedly', { error: errorFields(error) });
}

/** Builds the poller: `pollOnce` on its schedule, with posts paced across polls. */
export function createAlertPoller(options: AlertPollerOptions): AlertPoller {
  const pacing: ChannelPacing = { lastPostMs: undefined };
  let last: PollReport | undefined;
  const schedule = options.runOn(async (signal) => {
    const leadership = options.leadership;
    const started = performance.now();
    const counted = (outcome: 'ok' | 'error') =>
      options.metrics?.pollRun(outcome, (performance.now() - started) / 1000, options.now());
    try {
      last = await measuredPoll(signal, leadership);
    } catch (error) {
      counted('error');
      throw error;
    }
    // A poll that was cut short, or whose sources could not be read, is not a successful one.
    counted(last.aborted || Object.values(last.sources).some((source) => !source.ok) ? 'error' : 'ok');
  });
  const measuredPoll = (signal: AbortSignal, leadership: PollLeadership | undefined) =>
    pollOnce({
      ...(leadership ? { stillLeading: () => leadership.tryLead() } : {}),
      payments: options.payments,
      store: options.store,
      slack: options.slack,
      channel: options.channel,
      now: options.now,
      lookbackMs: options.lookbackMs,
      logger: options.logger,
      ...(options.routes ? { routes: options.routes } : {}),
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
      ...(options.stuckAfterMs ? { stuckAfterMs: options.stuckAfterMs } : {}),
      ...(options.followUp ? { followUp: options.followUp } : {}),
      ...(options.thresholds ? { thresholds: options.thresholds } : {}),
      ...(options.runway ? { runway: options.runway } : {}),
      sleep: options.sleep ?? ((ms) => sleepFor(ms)),
      pacing,
      signal,
      ...(options.metrics ? { metrics: options.metrics } : {}),
    });
  return {
    channel: options.channel,
    start: () => schedule.start(),
    stop: (stopOptions) => schedule.stop(undefined, stopOptions?.finishWithinMs),
    runNow: () => schedule.runNow(),
    lastReport: () => last,
    status: async () => {
      const s = schedule.status();
      return readAlertStatus(await options.store.alerts.readAlerts(), options.now(), {
        channel: options.channel,
        expression: options.schedule,
        nextRun: s.nextRun,
        polling: s.polling,
        ...(options.routes ? { routes: options.routes } : {}),
        ...(options.leadership
          ? {
              replicas: {
                self: options.leadership.replica,
                poller: await options.leadership.leader().catch(() => undefined),
              },
            }
          : {}),
      });
    },
  };
}
