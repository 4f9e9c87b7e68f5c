/**
 * Every periodic job of the bot, registered with the one scheduler (scheduler.ts). Read this table first:
 *
 * | job (its name in the log)                 | every                | runs on                  | source (features/) |
 * |-------------------------------------------|----------------------|--------------------------|--------------------|
 * | alert poll                                | POLL_SCHEDULE (cron) | leader                   | alerts/poller/     |
 * |   then the alert follow-up                | after each poll      | leader (poll's run)      | alerts/service.ts  |
 * |   then the invoice follow-up              | after each poll      | leader (poll's run)      | invoices/follow.ts |
 * |   then the heartbeat (HEARTBEAT_URL)      | after each success   | leader, in background    | jobs/heartbeat.ts  |
 * | sweep of quotes waiting for approval      | 30 s                 | every replica            | swaps/ (sweep)     |
 * | recovery of swaps left by another replica | 15 s, on replicas    | every replica            | swaps/ (recover)   |
 * | daily balance snapshot                    | 60 s and at start    | leader, asked by the job | digest/snapshots.ts|
 * | daily digest                              | 30 s and at start    | leader, asked by the job | digest/service.ts  |
 * | end of freezes whose --for ran out        | 15 s and at start    | every replica            | freeze/service.ts  |
 * | second factor upkeep                      | 30 s and at start    | leader                   | second-factor/     |
 *
 * What each does: the poll reads failed withdrawals, payout tasks and gas top-ups and posts alerts; its follow-ups
 * send the reminders and owed Slack work of the alerts people own, and check invoices that report back. The sweep
 * sends "expires soon" reminders and marks expired quotes. The recovery follows swaps a dead replica left and marks
 * its interrupted approvals (it also runs once at start, on every process). The snapshot keeps one reading of the
 * balances a day (at DIGEST_AT when set, else 00:05 in ALERT_TIME_ZONE; a bot started later takes it at start), which
 * the runway and the digest read. The digest posts DIGEST_AT's digest once a day (registered only when DIGEST_AT is set). The freeze's expiry announces, once across replicas (claimed in the
 * store), that a `--for` ran out: the announcement loses Unfreeze, one line says so, the waiting quotes lose FROZEN.
 * The second factor upkeep clears enrolments not confirmed with a code within 10 minutes and retries the Slack
 * deletions of enrolment DMs queued in the store (each failure logged), so a restart or another leader goes on.
 *
 * The follow-ups ride the poll (they run when, and only when, a poll ran to its end on the leader): with the poller
 * off (ALERT_CHANNEL unset) neither exists, and invoices are not followed.
 */
import type { Config } from '../config.js';
import {
  type AlertPoller,
  createAlertPoller,
  createAlertPoster,
  logPollFailure,
  POLL_SKIPPED_LINE,
  type PollLeadership,
  pollSucceeded,
  prepareAlertChannel,
} from '../features/alerts/poller/index.js';
import { SNAPSHOT_CHECK_EVERY_MS } from '../features/digest/index.js';
import type { BotRepositories } from '../features/repositories.js';
import { errorFields, type Logger } from '../logger.js';
import type { BotMetrics } from '../metrics/index.js';
import type { PaymentsClient } from '../payments/index.js';
import { alertChannels, type FeatureServices } from '../services.js';
import type { SlackGateway } from '../slack/gateway.js';
import { createHeartbeat } from './heartbeat.js';
import { createLeadershipGate } from './leadership.js';
import { createScheduler, type JobDefinition, type Scheduler, type WorkRegister } from './scheduler.js';
import { stopWithinBudget } from './shutdown.js';

export { createLeadershipGate } from './leadership.js';
export type { JobSchedule, Timers } from './schedule.js';
export { createScheduler, type JobDefinition, type RunsOn } from './scheduler.js';

/**
 * Replicas: a quote `approving` this long was left by a replica that died. Between the claim and the create
 * there is one quote-message edit (up to about 2 minutes while Slack rate-limits the channel) and the create
 * itself (its timeout), so 10 minutes leave a wide margin, clock differences between hosts included.
 */
const APPROVING_STUCK_MS = 10 * 60_000;
/** Replicas: how often each looks for swaps another replica left (to follow, or to mark interrupted). */
const RECOVER_EVERY_MS = 15_000;
/**
 * How often waiting quotes are looked at (the "expires soon" reminder, marking expired ones): every replica does
 * it, each step is claimed in the store, so it happens once.
 */
const SWEEP_QUOTES_EVERY_MS = 30_000;
/** How often the daily digest checks whether it is due. */
const DIGEST_CHECK_EVERY_MS = 30_000;
/**
 * How often each replica looks for a freeze whose `--for` ran out (the gate itself ends at `until` exactly; this is
 * how late, at most, people are told). One unlocked read when there is nothing to claim.
 */
const FREEZE_EXPIRY_EVERY_MS = 15_000;
/** How often the second factor's lapsed enrolments and queued Slack deletions are looked at. */
const SECOND_FACTOR_UPKEEP_EVERY_MS = 30_000;

/** The alert poll: leader only; at shutdown a poll still running at three quarters of the budget is cut short. */
export function alertPollJob(
  cron: string,
  poll: (signal: AbortSignal) => Promise<void>,
  logger: Logger,
): JobDefinition {
  return {
    name: 'alert poll',
    period: { cron },
    runsOn: 'leader',
    finishWithin: (budgetMs) => (budgetMs * 3) / 4,
    run: poll,
    onError: (error) => logPollFailure(logger, error),
    skippedLine: POLL_SKIPPED_LINE,
  };
}

/** What the jobs run. */
export interface JobDeps {
  config: Config;
  features: FeatureServices;
  payments: PaymentsClient;
  store: BotRepositories;
  slack: SlackGateway;
  now: () => Date;
  logger: Logger;
  /** Replicated deployments: the PostgreSQL lease; undefined on the state file (this process always leads). */
  lease?: PollLeadership;
  /** How the alert poller waits between posts (a second apart); injectable so tests need not wait. */
  alertSleep?: ((ms: number) => Promise<void>) | undefined;
  /** How often the daily digest checks whether it is due (default 30 s); 0: only when `digest.check()` is called. */
  digestCheckEveryMs?: number | undefined;
  /**
   * How often the daily balance snapshot checks whether it is due (default 60 s, and at start); 0: only when
   * `snapshots.check()` is called.
   */
  snapshotCheckEveryMs?: number | undefined;
  /** After each successful poll (it ran on this replica, the lease holder): the heartbeat, which never waits. */
  afterSuccessfulPoll?: (() => void) | undefined;
  /** Polls, alerts and whether this replica holds the poller lease (the metrics). */
  metrics?: BotMetrics | undefined;
}

/** Registers every job with `scheduler`; returns the alert poller (undefined when ALERT_CHANNEL is unset). */
function registerJobs(scheduler: Scheduler, deps: JobDeps): { alerts: AlertPoller | undefined } {
  const { config, features, logger } = deps;
  const { swaps, alertActions, invoices, digest } = features;

  // After each poll: the alerts people own, then the invoices (even when the alerts' follow-up failed; a failed
  // round is tried at the next poll).
  const followUpAfterPoll = async (): Promise<void> => {
    try {
      await alertActions?.followUp();
    } finally {
      await invoices?.followUp().catch((error: unknown) => {
        logger.warn('invoice follow: a round failed; the next poll tries again', { error: errorFields(error) });
      });
    }
  };
  // Alerts never wait on Slack, so a poll never hangs; an alert Slack did not accept waits in the outbox.
  const alerts = config.alertChannel
    ? createAlertPoller({
        routes: config.alertRoutes,
        timeZone: config.alertTimeZone,
        stuckAfterMs: config.stuckAfterMs,
        followUp: followUpAfterPoll,
        thresholds: () => deps.store.balances.listThresholds(),
        ...(features.runway.watch ? { runway: features.runway.watch } : {}),
        payments: deps.payments,
        store: deps.store,
        slack: createAlertPoster(deps.slack),
        channel: config.alertChannel,
        schedule: config.pollSchedule,
        runOn: (poll) =>
          scheduler.add(
            alertPollJob(
              config.pollSchedule,
              async (signal) => {
                await poll(signal);
                if (pollSucceeded(alerts?.lastReport())) deps.afterSuccessfulPoll?.();
              },
              logger,
            ),
          ),
        lookbackMs: config.alertLookbackMs,
        now: deps.now,
        logger,
        sleep: deps.alertSleep,
        ...(deps.lease ? { leadership: deps.lease } : {}),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
      })
    : undefined;

  scheduler.add({
    name: 'sweep of quotes waiting for approval',
    period: { everyMs: SWEEP_QUOTES_EVERY_MS },
    runsOn: 'every replica',
    run: () => swaps.sweep(),
    onError: (error) =>
      logger.warn('could not look at the quotes waiting for approval; trying again later', {
        error: errorFields(error),
      }),
  });

  // Several processes share the store (PostgreSQL): the swaps of a replica that died are picked up by the others.
  if (deps.lease)
    scheduler.add({
      name: 'recovery of swaps left by another replica',
      period: { everyMs: RECOVER_EVERY_MS },
      runsOn: 'every replica',
      run: () => swaps.recover({ stuckForMs: APPROVING_STUCK_MS }),
      onError: (error) =>
        logger.warn('could not look for swaps left by another replica; trying again later', {
          error: errorFields(error),
        }),
    });

  // Whatever DIGEST_AT says: the runway measures on these. A snapshot missed during a downtime is taken at the first
  // check of the same day, hence the run at start.
  const snapshotEveryMs = deps.snapshotCheckEveryMs ?? SNAPSHOT_CHECK_EVERY_MS;
  if (snapshotEveryMs > 0)
    scheduler.add({
      name: 'daily balance snapshot',
      period: { everyMs: snapshotEveryMs },
      runsOn: 'leader, asked by the job',
      runAtStart: true,
      // check() logs its own failures and never throws.
      run: () => features.snapshots.check(),
    });

  // A digest missed during a downtime is posted at the first check (same day): hence the run at start.
  const digestEveryMs = deps.digestCheckEveryMs ?? DIGEST_CHECK_EVERY_MS;
  if (digest.schedule && digestEveryMs > 0)
    scheduler.add({
      name: 'daily digest',
      period: { everyMs: digestEveryMs },
      runsOn: 'leader, asked by the job',
      runAtStart: true,
      // check() logs its own failures and never throws.
      run: () => digest.check(),
    });

  scheduler.add({
    name: 'end of freezes whose --for ran out',
    period: { everyMs: FREEZE_EXPIRY_EVERY_MS },
    runsOn: 'every replica',
    // A freeze that ran out while the bot was down is announced as soon as it is back.
    runAtStart: true,
    run: async () => {
      await features.freeze.endExpired();
    },
    onError: (error) =>
      logger.warn('could not look for a freeze whose --for ran out; trying again later', {
        error: errorFields(error),
      }),
  });

  scheduler.add({
    name: 'second factor upkeep',
    period: { everyMs: SECOND_FACTOR_UPKEEP_EVERY_MS },
    runsOn: 'leader',
    // A DM left by a process that stopped before deleting it goes as soon as the bot is back.
    runAtStart: true,
    run: () => features.secondFactor.upkeep(),
    onError: (error) =>
      logger.warn('second factor upkeep: a round failed; the next one tries again', { error: errorFields(error) }),
  });

  return { alerts };
}

/** The bot's background work, ready to start. */
export interface Jobs {
  /** The alert poller (its job registered); undefined when ALERT_CHANNEL is unset. */
  alerts: AlertPoller | undefined;
  /**
   * Once the Slack app listens: swaps interrupted by a restart are recovered (awaited), the digest joins its channel,
   * every job starts, and the alert channels are joined and read back in the background.
   */
  start(): Promise<void>;
  /** Shutdown: every job stopped, then the work under way waited for, at most `budgetMs` (see shutdown.ts). */
  stop(budgetMs: number): Promise<void>;
}

/** The scheduler with every job registered (nothing runs before start()). */
export function createJobs(
  deps: JobDeps & { work: WorkRegister & { drain(timeoutMs: number): Promise<string[]> } },
): Jobs {
  const { config, features, logger } = deps;
  const leadership = createLeadershipGate(deps.lease, deps.metrics);
  const scheduler = createScheduler({ logger, leadership, work: deps.work });
  // HEARTBEAT_URL: a GET after each successful poll, counted as work in flight so shutdown waits for it.
  const heartbeat = config.heartbeatUrl
    ? createHeartbeat({ url: config.heartbeatUrl, logger, work: deps.work })
    : undefined;
  const { alerts } = registerJobs(scheduler, {
    ...deps,
    ...(heartbeat ? { afterSuccessfulPoll: () => heartbeat.beat() } : {}),
  });
  return {
    alerts,
    async start() {
      // After listening, so quote messages can be edited: interrupted approvals are marked, swaps followed again.
      // Replicas must not take another replica's work for a leftover (the recovery job then repeats it).
      await features.swaps.recover(leadership.replicated ? { stuckForMs: APPROVING_STUCK_MS } : {});
      features.digest.start();
      scheduler.start();
      // Joining and reading the alert channels only tells a person what to fix; it never blocks start-up. Routed
      // kinds' channels too (ALERT_ROUTES): each is joined and read back once, one at a time.
      if (alerts)
        void (async () => {
          for (const channel of alertChannels(config)) await prepareAlertChannel(deps.slack, channel, logger, deps.now);
        })();
    },
    stop: (budgetMs) =>
      stopWithinBudget({
        scheduler,
        work: deps.work,
        others: [{ name: 'swap follow-up', stop: () => features.swaps.stop() }],
        budgetMs,
        logger,
      }),
  };
}
