/**
 * The Slack app, composed: config → clients (Bolt on its receiver, the Slack gateway) → features → jobs → listeners.
 * Receivers live in slack/receivers.ts, the feature services in services.ts, the periodic jobs in jobs/index.ts.
 */

import type { App } from '@slack/bolt';
import type { Config } from './config.js';
import type { InstallingOrg } from './features/access/rules.js';
import type { AlertPoller, PollLeadership } from './features/alerts/poller/index.js';
import { ROUTE_KINDS } from './features/alerts/routing.js';
import type { BalanceSnapshots, DigestService } from './features/digest/index.js';
import type { FreezeService } from './features/freeze/service.js';
import type { BotRepositories } from './features/repositories.js';
import type { FollowPolicy, SwapService } from './features/swaps/index.js';
import { createJobs } from './jobs/index.js';
import { StartupError } from './kernel/errors.js';
import { createBackgroundWork } from './listeners/background.js';
import { registerListeners } from './listeners/index.js';
import { errorFields, type Logger } from './logger.js';
import { metricsServing } from './metrics/http.js';
import { type AppMetrics, createAppMetrics } from './metrics/index.js';
import type { PaymentsClient } from './payments/index.js';
import { createFeatureServices } from './services.js';
import { createSlackGateway } from './slack/gateway.js';
import { createSlackReceivers, describeListenFailure, identifyInstallingOrg } from './slack/receivers.js';
import type { ReconnectPolicy } from './slack/socket-mode.js';

/**
 * How long stop() waits for the work under way (decisions and their swap/create, payout and invoice creates, answers
 * to clicks and commands, alert posts, a poll or sweep running): 20 s, within Kubernetes' default grace of 30 s
 * before SIGKILL, and twice a payment API call's own timeout (10 s), so a create sent just before SIGTERM has its
 * answer recorded. What is still running after it is logged by name.
 */
const SHUTDOWN_BUDGET_MS = 20_000;

/** What the Slack app is built from; everything that varies is injected. */
export interface TreasuryAppOptions {
  config: Config;
  payments: PaymentsClient;
  store: BotRepositories;
  logger: Logger;
  /** Replicated deployments: the lease that lets one replica poll at a time (see src/store/postgres/lease.ts). */
  leadership?: PollLeadership;
  now?: () => Date;
  /** How swaps are followed after approval; default every 5 s for up to 30 minutes. */
  swapFollow?: FollowPolicy;
  /**
   * Overrides HOST (config.host) for the HTTP server; tests bind loopback. In Socket Mode it binds the /healthz
   * server, which otherwise listens on every interface (Bolt's choice); the local workspace keeps it on loopback.
   */
  host?: string;
  /** Retries of a transient Slack failure for calls that may wait (quote messages, reply fallbacks); default 2. */
  slackRetries?: number;
  /** How the alert poller waits between posts (a second apart); injectable so tests need not wait. */
  alertSleep?: (ms: number) => Promise<void>;
  /** How often the daily digest checks whether it is due (default 30 s); 0: only when `digest.check()` is called. */
  digestCheckEveryMs?: number;
  /**
   * How often the daily balance snapshot checks whether it is due (default 60 s, and at start); 0: only when
   * `snapshots.check()` is called.
   */
  snapshotCheckEveryMs?: number;
  /**
   * Socket Mode: Slack refused the connection for good after start (the app token was revoked, Socket Mode was
   * turned off). The process should stop with this one line; default: logged only.
   */
  onFatal?: (problem: string) => void;
  /**
   * Socket Mode: reconnect spacing (default 1 s doubling to 30 s, ±20 %), when /healthz says disconnected (30 s),
   * and how long an attempt waits for Slack's hello (30 s).
   */
  socketMode?: { reconnect?: ReconnectPolicy; disconnectedAfterMs?: number; helloTimeoutMs?: number };
  /** How long stop() waits for work under way (default SHUTDOWN_BUDGET_MS). */
  shutdownBudgetMs?: number;
  /** The app's metrics (default: a registry of its own, never prom-client's global one). */
  metrics?: AppMetrics;
}

/** Start-up failed in a way a person can act on; defined with the other coded errors in kernel/errors.ts. */
export { StartupError };

/** The running app. */
export interface TreasuryApp {
  app: App;
  swaps: SwapService;
  /** The failure-alert poller; undefined when ALERT_CHANNEL is unset (the poller is off). */
  alerts: AlertPoller | undefined;
  /** The daily digest (DIGEST_AT); `/treasury digest` answers whether or not it is set. */
  digest: DigestService;
  /** The daily balance snapshot (its job's check runs it; tests run it by hand). */
  snapshots: BalanceSnapshots;
  /** The freeze (its expiry round, `endExpired`, is a job; tests run it by hand). */
  freeze: FreezeService;
  /** The app's Prometheus metrics (GET /metrics). */
  metrics: AppMetrics;
  /**
   * The port of GET /metrics once started: METRICS_PORT's server, else the app's HTTP port when it is served there
   * (Socket Mode, or HTTP mode with METRICS_TOKEN); undefined when it is off.
   */
  metricsPort(): number | undefined;
  /**
   * Checks the token (auth.test), then listens. Resolves with the HTTP port (also in Socket Mode, for /healthz)
   * and, in Socket Mode, whether the first connection opened or is being retried in the background.
   */
  start(): Promise<{ port: number; socket?: 'connected' | 'reconnecting' }>;
  stop(): Promise<void>;
}

/** Builds the Bolt app, the features and the jobs; start() listens and starts the jobs, stop() ends them all. */
export function createTreasuryApp(options: TreasuryAppOptions): TreasuryApp {
  const { config, logger, store, payments } = options;
  const now = options.now ?? (() => new Date());
  // The register of work in flight: requests, answers after their ack, job runs (see listeners/background.ts).
  const background = createBackgroundWork(logger);
  const appMetrics = options.metrics ?? createAppMetrics({ alertKinds: ROUTE_KINDS });
  const { metrics } = appMetrics;
  // GET /metrics: beside /healthz, or on METRICS_PORT, or off (the public Slack port without METRICS_TOKEN).
  const metricsAt = metricsServing(appMetrics, {
    ...{ port: config.metricsPort, token: config.metricsToken, logger },
    socketMode: config.slackAppToken !== undefined,
  });
  const receivers = createSlackReceivers({
    ...options,
    now,
    routes: [metricsAt.route],
    stopping: () => background.stopping,
  });
  const { app } = receivers;
  // One gateway for the whole app, on Bolt's client: quote messages, replies and alerts share one retry policy
  // and one record of which channels Slack asked us to leave alone.
  const slack = createSlackGateway({
    client: app.client,
    now: () => now().getTime(),
    logger,
    policy: { retries: options.slackRetries ?? 2 },
    metrics,
  });
  const lease = options.leadership;
  const features = createFeatureServices({
    ...{ config, payments, store, slack, now, logger, lease, metrics },
    swapFollow: options.swapFollow,
  });
  const jobs = createJobs({
    ...{ config, features, payments, store, slack, now, logger, work: background, lease },
    alertSleep: options.alertSleep,
    digestCheckEveryMs: options.digestCheckEveryMs,
    snapshotCheckEveryMs: options.snapshotCheckEveryMs,
    metrics,
  });
  const { alerts } = jobs;
  // Read at scrape time from the shared store, so every replica reports the same figures.
  appMetrics.readAtScrape({
    alertsOpen: () => store.alerts.countOpenAlerts(now()),
    quotesWaiting: async () => (await store.swapQuotes.listQuotesByStatus('pending')).length,
    frozen: async () => (await store.freeze.currentFreeze(now())) !== undefined,
    storeUp: async () => (store.health ? (await store.health()).ok : true),
  });
  // The workspace the bot is installed in (auth.test at start): until then every request is refused at the edge.
  let installingOrg: InstallingOrg | undefined;
  // Every feature service and the platform, as they are; the forms open modals through the same gateway.
  const platform = { payments, now, logger, slack, views: slack, background };
  registerListeners(app, { ...features, ...platform, alerts, installingOrg: () => installingOrg });
  app.error(async (error) => {
    logger.error('unhandled error in a Slack listener', { error: errorFields(error) });
  });

  return {
    ...{ app, alerts, swaps: features.swaps, digest: features.digest },
    ...{ snapshots: features.snapshots, freeze: features.freeze },
    metrics: appMetrics,
    metricsPort: metricsAt.port,
    async start() {
      const identity = await identifyInstallingOrg(app, slack);
      if ('problem' in identity) throw new StartupError(identity.problem);
      installingOrg = identity.org;
      try {
        const listening = await receivers.listen();
        await metricsAt.start(listening.port, options.host ?? config.host);
        await jobs.start();
        return listening;
      } catch (error) {
        throw new StartupError(describeListenFailure(error, config.port));
      }
    },
    async stop() {
      // From now on nothing new starts: a request gets "the bot is restarting" (and /healthz 503), the jobs start
      // no new run, no swap starts being followed.
      background.stop();
      // The receivers stay open meanwhile, so a person who clicks now is told plainly rather than left unanswered.
      // What was started is finished, within the budget: requests and their listeners (an Approve's swap/create and
      // the record of its answer), answers after an ack, job runs (a poll and its alert posts, a sweep, the digest).
      await jobs.stop(options.shutdownBudgetMs ?? SHUTDOWN_BUDGET_MS);
      // Then no more requests.
      await receivers.close();
      await metricsAt.close();
    },
  };
}
