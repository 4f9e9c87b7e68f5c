import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type Logger as BoltLogger, HTTPReceiver, LogLevel, SocketModeReceiver } from '@slack/bolt';
import type { Config } from './config.js';
import type { InstallingOrg } from './features/access/rules.js';
import { createTreasuryAccess } from './features/access/service.js';
import { createAlertService } from './features/alerts/index.js';
import type { PollLeadership } from './features/alerts/poller/index.js';
import {
  type AlertPoller,
  createAlertPoller,
  createAlertPoster,
  POLL_POLICY,
  prepareAlertChannel,
} from './features/alerts/poller/index.js';
import { createAuditExport } from './features/audit/index.js';
import { createDigestService, type DigestService } from './features/digest/index.js';
import { createHomeTab } from './features/home/index.js';
import { createInvoiceFollower } from './features/invoices/index.js';
import { createPayoutService } from './features/payouts/service.js';
import type { BotRepositories } from './features/repositories.js';
import {
  createApproverGroups,
  createSwapService,
  type FollowPolicy,
  type QuoteMessenger,
  type SwapService,
} from './features/swaps/index.js';
import { createThresholdService } from './features/thresholds/service.js';
import { StartupError } from './kernel/errors.js';
import { createBackgroundWork } from './listeners/background.js';
import { registerListeners } from './listeners/index.js';
import { errorFields, type Logger } from './logger.js';
import type { PaymentsClient } from './payments/index.js';
import { describeSlackStartupFailure } from './slack/errors.js';
import { createSlackGateway, type SlackGateway, slackClientOptions } from './slack/gateway.js';
import { guardSlackRequests } from './slack/http-guard.js';
import {
  type ReconnectPolicy,
  SocketModeRefusedError,
  type SocketModeStatus,
  type SocketModeSupervisor,
  socketModeClientOptions,
  superviseSocketMode,
} from './slack/socket-mode.js';

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

/**
 * How long stop() waits for the work under way (decisions and their swap/create, payout and invoice creates, answers
 * to clicks and commands, alert posts, a poll or sweep running): 20 s, within Kubernetes' default grace of 30 s
 * before SIGKILL, and twice a payment API call's own timeout (10 s), so a create sent just before SIGTERM has its
 * answer recorded. What is still running after it is logged by name.
 */
export const SHUTDOWN_BUDGET_MS = 20_000;

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
  /**
   * Checks the token (auth.test), then listens. Resolves with the HTTP port (also in Socket Mode, for /healthz)
   * and, in Socket Mode, whether the first connection opened or is being retried in the background.
   */
  start(): Promise<{ port: number; socket?: 'connected' | 'reconnecting' }>;
  stop(): Promise<void>;
}

/**
 * Bolt logs through our logger, at our level, as plain text. Bolt logs at debug level on every request; below
 * LOG_LEVEL=debug those lines are dropped before anything is formatted.
 */
function toBoltLogger(logger: Logger, debugOn: boolean): BoltLogger {
  const join = (parts: unknown[]) =>
    parts
      .map((part) => (typeof part === 'string' ? part : part instanceof Error ? part.message : String(part)))
      .join(' ');
  let level = debugOn ? LogLevel.DEBUG : LogLevel.INFO;
  return {
    debug: debugOn ? (...parts) => logger.debug(`slack: ${join(parts)}`) : () => undefined,
    info: (...parts) => logger.info(`slack: ${join(parts)}`),
    warn: (...parts) => logger.warn(`slack: ${join(parts)}`),
    error: (...parts) => logger.error(`slack: ${join(parts)}`),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * The Socket Mode client logs every failed connection attempt at error level, several lines each. The supervisor
 * reports each one already, in one line with its cause (src/slack/socket-mode.ts), so these go to debug.
 */
const REPORTED_BY_THE_SUPERVISOR = /^(WebSocket error|Failed to retrieve a new WSS URL|http request failed)/;

function socketModeLogger(logger: BoltLogger): BoltLogger {
  const reported = (parts: unknown[]) => typeof parts[0] === 'string' && REPORTED_BY_THE_SUPERVISOR.test(parts[0]);
  return {
    ...logger,
    warn: (...parts) => (reported(parts) ? logger.debug(...parts) : logger.warn(...parts)),
    error: (...parts) => (reported(parts) ? logger.debug(...parts) : logger.error(...parts)),
  };
}

/**
 * GET /healthz: 200 `{"ok":true,"store":{…}}` while the store can be used, 503 when it cannot (the database is
 * down): a load balancer then routes commands elsewhere, though lookups alone would still work. In Socket Mode
 * it also says whether the connection to Slack is open (`socket`, `since`, `reconnects`), and answers 503 once
 * none has been open for 30 s: a bot that cannot hear Slack is not healthy.
 */
function healthRoute(store: BotRepositories, logger: Logger, stopping: () => boolean, socket?: () => SocketModeStatus) {
  return {
    path: '/healthz',
    method: ['GET'],
    handler: (_req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const health = store.health
          ? await store.health().catch((error: unknown) => ({ ok: false, detail: String(error) }))
          : { ok: true, detail: 'state file' };
        // The endpoint is public: the database's own words (host, user) go to the log only.
        if (!health.ok) logger.warn('health check: the store cannot be used', { detail: health.detail });
        const link = socket?.();
        // Shutting down: a load balancer should send nothing new here (requests are answered "restarting").
        const down = stopping();
        const ok = health.ok && link?.socket !== 'disconnected' && !down;
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ok,
            ...(down ? { stopping: true } : {}),
            ...(link ? { socket: link.socket, since: link.since.toISOString(), reconnects: link.reconnects } : {}),
            store: { kind: store.health ? 'postgresql' : 'file', ok: health.ok },
          }),
        );
      })();
    },
  };
}

/** The installing workspace from an auth.test answer; undefined when it names none. */
function readInstallingOrg(answer: { team_id?: unknown; enterprise_id?: unknown }): InstallingOrg | undefined {
  const teamId = typeof answer.team_id === 'string' && answer.team_id !== '' ? answer.team_id : undefined;
  if (teamId === undefined) return undefined;
  const enterpriseId =
    typeof answer.enterprise_id === 'string' && answer.enterprise_id !== '' ? answer.enterprise_id : undefined;
  return { teamId, ...(enterpriseId ? { enterpriseId } : {}) };
}

/** Starts `server` on host:port; rejects with the listen error (EADDRINUSE…). */
function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/**
 * Builds the Bolt app: Socket Mode when SLACK_APP_TOKEN is set (no public URL needed), otherwise HTTP on
 * PORT with Slack's requests at POST /slack/events. GET /healthz answers in both modes.
 */
export function createTreasuryApp(options: TreasuryAppOptions): TreasuryApp {
  const { config, logger } = options;
  const boltLogger = toBoltLogger(logger, config.logLevel === 'debug');
  // Bolt's client never retries or waits by itself: the Slack gateway decides, for every call (see src/slack/).
  const clientOptions = slackClientOptions({ slackApiUrl: config.slackApiUrl });
  const socketMode = config.slackAppToken !== undefined;
  let supervisor: SocketModeSupervisor | undefined;
  // The register of work in flight: requests, answers after their ack, timer ticks (see listeners/background.ts).
  const background = createBackgroundWork(logger);
  // In Socket Mode we build the receiver ourselves to learn the port its /healthz server really bound (PORT=0).
  // Its client does not reconnect by itself (it would give up for good on one failed apps.connections.open):
  // the supervisor below does, with its own client options (the gateway's are for messages, not for this).
  const socketReceiver = socketMode
    ? new SocketModeReceiver({
        appToken: config.slackAppToken!,
        autoReconnectEnabled: false,
        customRoutes: [
          healthRoute(
            options.store,
            logger,
            () => background.stopping,
            () => supervisor!.status(),
          ),
        ],
        installerOptions: {
          port: config.port,
          clientOptions: socketModeClientOptions({ slackApiUrl: config.slackApiUrl }),
        },
        logger: socketModeLogger(boltLogger),
      })
    : undefined;
  const httpReceiver = socketReceiver
    ? undefined
    : new HTTPReceiver({
        signingSecret: config.slackSigningSecret ?? '',
        endpoints: '/slack/events',
        customRoutes: [healthRoute(options.store, logger, () => background.stopping)],
        // Reply to Slack at ack(), before the slow work: Slack gives up after 3 seconds.
        processBeforeResponse: false,
        // A listener that throws before ack() must not answer 5xx (Slack would retry and the person sees an
        // error page): log it and answer plainly. Listeners ack first, so this is a last resort.
        processEventErrorHandler: async ({ error, response }) => {
          logger.error('a Slack request failed before it was acknowledged', { error: errorFields(error) });
          if (!response.headersSent) {
            response.writeHead(200, { 'content-type': 'application/json' });
            response.end(
              JSON.stringify({
                response_type: 'ephemeral',
                text: 'Something went wrong inside the bot. It has been logged; please try again.',
              }),
            );
          }
          return false;
        },
        logger: boltLogger,
      });
  const app = new App({
    token: config.slackBotToken,
    receiver: socketReceiver ?? httpReceiver,
    deferInitialization: true,
    logger: boltLogger,
    clientOptions,
    // The ack path carries nothing it does not use. Bolt's conversation store loads per-channel state on every
    // request (its memory store builds an Error for each miss); no listener reads it. ignoreSelf drops the
    // bot's own message events; the bot has no event listeners (the edge middleware acknowledges every event).
    convoStore: false,
    ignoreSelf: false,
  });

  const now = options.now ?? (() => new Date());
  if (socketReceiver) {
    supervisor = superviseSocketMode({
      client: socketReceiver.client,
      logger,
      now: () => now().getTime(),
      policy: options.socketMode?.reconnect,
      disconnectedAfterMs: options.socketMode?.disconnectedAfterMs,
      helloTimeoutMs: options.socketMode?.helloTimeoutMs,
      onFatal: (error) => options.onFatal?.(error.message),
    });
  }
  // One gateway for the whole app, on Bolt's client: quote messages, replies and alerts share one retry policy
  // and one record of which channels Slack asked us to leave alone.
  const slack: SlackGateway = createSlackGateway({
    client: app.client,
    now: () => now().getTime(),
    logger,
    policy: { retries: options.slackRetries ?? 2 },
  });
  // Quote messages may wait and retry a little: a person is looking at them.
  const messenger: QuoteMessenger = {
    post: (channel, message) => slack.post(channel, message),
    update: (channel, ts, message) => slack.update(channel, ts, message),
    reply: async (channel, threadTs, message) => {
      await slack.post(channel, message, { threadTs });
    },
  };
  // Several processes share the store (PostgreSQL): recovery must not take another replica's work for a leftover.
  const replicated = options.leadership !== undefined;
  let recoverTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  // Members of user groups (SWAP_APPROVERS, TREASURY_ADMINS S… ids), from Slack, at most five minutes old.
  const groups = createApproverGroups({ slack, now, logger });
  // TREASURY_USERS (people, groups through the same cache, or `*`), and the workspace the bot is installed in
  // (auth.test at start: until then every request is refused at the edge).
  const access = createTreasuryAccess({ treasuryUsers: config.treasuryUsers, groups });
  let installingOrg: InstallingOrg | undefined;
  const swaps = createSwapService({
    payments: options.payments,
    store: options.store,
    messenger,
    logger,
    now,
    policy: {
      tiers: config.swapPolicyTiers,
      approvers: config.swapApprovers,
      allowSelfApproval: config.allowSelfApproval,
      maxUsdCents: config.swapMaxUsdCents,
      dailyLimitUsdCents: config.swapDailyLimitUsdCents,
    },
    approverGroups: groups,
    follow: options.swapFollow ?? { intervalMs: 5_000, maxDurationMs: 30 * 60_000 },
  });

  // Balance thresholds: set by TREASURY_ADMINS (people and groups, listed through the same cache as approvers).
  const thresholds = createThresholdService({
    payments: options.payments,
    store: options.store,
    now,
    logger,
    admins: config.treasuryAdmins,
    groups,
    pollerOn: config.alertChannel !== undefined,
  });

  // Alerts people own: clicks on any replica, reminders and owed Slack work from the polling one (followUp).
  const alertActions = config.alertChannel
    ? createAlertService({
        store: options.store,
        slack,
        now,
        logger,
        alertChannel: config.alertChannel,
        routes: config.alertRoutes,
        oncall: config.alertOnCall,
        timeZone: config.alertTimeZone,
        noteRequired: config.alertResolveNoteRequired,
        reminders: { remindAfterMs: config.alertRemindAfterMs, staleAfterMs: config.alertStaleAfterMs },
        settleAfterMs: POLL_POLICY.uncertainSettleMs,
      })
    : undefined;

  // Invoices that report back (part 16): followed while the poller runs, by the polling replica after each poll.
  const leadership = options.leadership;
  const invoices = config.alertChannel
    ? createInvoiceFollower({
        store: options.store,
        payments: options.payments,
        slack,
        now,
        logger,
        max: config.invoiceFollowMax,
        ...(leadership ? { stillLeading: () => leadership.tryLead() } : {}),
      })
    : undefined;
  const afterPoll = async (): Promise<void> => {
    try {
      await alertActions?.followUp();
    } finally {
      // Invoices are followed even when the alerts' follow-up failed; a failed round is tried at the next poll.
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
        followUp: afterPoll,
        thresholds: () => options.store.balances.listThresholds(),
        payments: options.payments,
        store: options.store,
        slack: createAlertPoster(slack),
        channel: config.alertChannel,
        schedule: config.pollSchedule,
        lookbackMs: config.alertLookbackMs,
        now,
        logger,
        sleep: options.alertSleep,
        ...(options.leadership ? { leadership: options.leadership } : {}),
      })
    : undefined;

  // Each person's Home tab: balances and thresholds, open alerts, quotes waiting for them, their requests.
  const home = createHomeTab({
    store: options.store,
    payments: options.payments,
    slack,
    approvalPolicy: { approvers: config.swapApprovers, allowSelfApproval: config.allowSelfApproval },
    approverGroups: groups,
    access,
    alertsOff: config.alertChannel === undefined,
    now,
    logger,
  });
  // The daily digest: from the replica holding the poller's lease, at DIGEST_AT, once a day; its chart in its thread.
  const digest = createDigestService({
    store: options.store,
    payments: options.payments,
    slack,
    now,
    logger,
    schedule:
      config.digestAt && config.digestChannel ? { at: config.digestAt, channel: config.digestChannel } : undefined,
    timeZone: config.alertTimeZone,
    dailyLimitUsdCents: config.swapDailyLimitUsdCents,
    ...(options.leadership ? { leadership: options.leadership } : {}),
    ...(options.digestCheckEveryMs !== undefined ? { checkEveryMs: options.digestCheckEveryMs } : {}),
    // The poller joins its channels at start; joining again only makes Slack answer already_in_channel.
    joinAtStart: !(
      alerts &&
      (config.digestChannel === config.alertChannel ||
        Object.values(config.alertRoutes).some((route) => route.channel === config.digestChannel))
    ),
  });
  // Payout containers: proposed by a command, created once after the requester confirms.
  const payouts = createPayoutService({ payments: options.payments, store: options.store, now, logger });
  // The audit trail as a CSV file for TREASURY_ADMINS (part 16), sent to the requester's DM with the bot.
  const audit = createAuditExport({
    store: options.store,
    slack,
    now,
    logger,
    isAdmin: (userId) => thresholds.isAdmin(userId),
  });
  registerListeners(app, {
    payments: options.payments,
    now,
    logger,
    access,
    installingOrg: () => installingOrg,
    swaps,
    thresholds,
    payouts,
    audit,
    digest,
    alerts,
    ...(alertActions ? { alertActions } : {}),
    ...(invoices ? { invoices } : {}),
    slack,
    background,
    home,
  });
  app.error(async (error) => {
    logger.error('unhandled error in a Slack listener', { error: errorFields(error) });
  });

  let server: Server | undefined;
  return {
    app,
    swaps,
    alerts,
    digest,
    async start() {
      try {
        // Bolt's token check (auth.test), retried like any call when Slack stumbles; a refused token is final.
        await slack.run('auth.test', () => app.init());
        // Bolt keeps its auth.test answer to itself: ask once more for the workspace (and Grid organisation) the
        // token belongs to. Requests from any other organisation are refused at the edge.
        const identity = await slack.run('auth.test', () => app.client.auth.test());
        installingOrg = readInstallingOrg(identity);
      } catch (error) {
        throw new StartupError(describeSlackStartupFailure(error));
      }
      if (installingOrg === undefined)
        throw new StartupError(
          "Slack's auth.test named no workspace (team_id) for SLACK_BOT_TOKEN, so the bot cannot tell its own people from others'; check the token.",
        );
      try {
        let port = config.port;
        let socket: 'connected' | 'reconnecting' | undefined;
        if (socketReceiver) {
          // Bolt keeps the /healthz server private: reading it is the only way to learn the bound port or a listen error.
          const healthServer = (socketReceiver as unknown as { httpServer: Server }).httpServer;
          const listening = new Promise<void>((resolve, reject) => {
            healthServer.once('error', reject);
            healthServer.once('listening', () => {
              healthServer.off('error', reject);
              resolve();
            });
          });
          listening.catch(() => undefined); // awaited below, once the connection attempt is over
          if (options.host !== undefined) {
            // Bolt calls listen(port) with no host; hand it ours.
            const listenOn = healthServer.listen.bind(healthServer) as (port: number, host: string) => Server;
            healthServer.listen = ((port: number) => listenOn(port, options.host!)) as Server['listen'];
          }
          try {
            // Bolt's start listens for /healthz and opens the connection; a passing failure is retried in the background.
            socket = await supervisor!.start(() => app.start());
          } catch (error) {
            if (error instanceof SocketModeRefusedError) throw new StartupError(error.message);
            throw error;
          }
          await listening;
          port = (healthServer.address() as AddressInfo).port;
        } else {
          // Our own server in front of Bolt's request handler, so a malformed body can never reach it.
          server = await listen(
            createServer(guardSlackRequests(httpReceiver!.requestListener, logger)),
            config.port,
            options.host ?? config.host,
          );
          port = (server.address() as AddressInfo).port;
        }
        // After start, so quote messages can be edited: interrupted approvals are marked, swaps followed again.
        // Replicas do it again and again: the swaps of a replica that died are picked up by the others.
        await swaps.recover(replicated ? { stuckForMs: APPROVING_STUCK_MS } : {});
        if (replicated) {
          recoverTimer = setInterval(() => {
            if (background.stopping) return;
            background
              .track('recovery of swaps left by another replica', () =>
                swaps.recover({ stuckForMs: APPROVING_STUCK_MS }),
              )
              .catch((error: unknown) =>
                logger.warn('could not look for swaps left by another replica; trying again later', {
                  error: errorFields(error),
                }),
              );
          }, RECOVER_EVERY_MS);
          recoverTimer.unref();
        }
        sweepTimer = setInterval(() => {
          if (background.stopping) return;
          background
            .track('sweep of quotes waiting for approval', () => swaps.sweep())
            .catch((error: unknown) =>
              logger.warn('could not look at the quotes waiting for approval; trying again later', {
                error: errorFields(error),
              }),
            );
        }, SWEEP_QUOTES_EVERY_MS);
        sweepTimer.unref();
        alerts?.start();
        // After start, like the poller: a digest missed during a downtime is posted at the first check (same day).
        digest.start();
        // In the background: joining and reading the alert channel only tells a person what to fix; it never blocks start-up.
        // Routed kinds' channels too (ALERT_ROUTES): each is joined and read back once, one at a time.
        if (alerts) {
          const channels = [alerts.channel, ...Object.values(config.alertRoutes).map((route) => route.channel)].filter(
            (channel, index, all) => all.indexOf(channel) === index,
          );
          void (async () => {
            for (const channel of channels) await prepareAlertChannel(slack, channel, logger, now);
          })();
        }
        return { port, ...(socket ? { socket } : {}) };
      } catch (error) {
        if (error instanceof StartupError) throw error;
        const code = (error as { code?: string }).code;
        if (code === 'EADDRINUSE')
          throw new StartupError(`Port ${config.port} is already in use: set PORT to a free one.`);
        throw new StartupError(
          `Could not start the Slack app: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    async stop() {
      // From now on nothing new starts: a request gets "the bot is restarting" (and /healthz 503), timers skip
      // their ticks, the poller and the digest start no new run, no swap starts being followed.
      background.stop();
      clearInterval(recoverTimer);
      clearInterval(sweepTimer);
      const budgetMs = options.shutdownBudgetMs ?? SHUTDOWN_BUDGET_MS;
      const deadline = Date.now() + budgetMs;
      const bounded = async (name: string, work: Promise<unknown>): Promise<string[]> => {
        let timer: NodeJS.Timeout | undefined;
        const ended = await Promise.race([
          work.then(
            () => true,
            () => true,
          ),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), deadline - Date.now()))),
        ]);
        clearTimeout(timer);
        return ended ? [] : [name];
      };
      // The receivers stay open meanwhile, so a person who clicks now is told plainly rather than left unanswered.
      // What was started is finished, within the budget: requests and their listeners (an Approve's swap/create and
      // the record of its answer), answers after an ack, a running poll (its alert posts) or sweep, the digest.
      const left = (
        await Promise.all([
          background.drain(budgetMs),
          // A poll still running at three quarters of the budget is cut short between two requests, in time.
          bounded('alert poll', alerts?.stop({ finishWithinMs: (budgetMs * 3) / 4 }) ?? Promise.resolve()),
          bounded('daily digest', digest.stop()),
          bounded('swap follow-up', swaps.stop()),
        ])
      ).flat();
      if (left.length > 0)
        logger.warn('stopped after the shutdown budget with work still running; it is cut off', {
          budgetMs,
          left: left.length,
          running: [...new Set(left)].join(', '),
        });
      // Then no more requests; keep-alive sockets would otherwise hold the server open until they time out.
      if (server) {
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      } else {
        supervisor?.stop();
        await app.stop();
      }
    },
  };
}
