import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, SocketModeReceiver, type Logger as BoltLogger } from '@slack/bolt';
import type { Config } from './config.js';
import { guardSlackRequests } from './http-guard.js';
import { errorFields, type Logger } from './logger.js';
import { createBackgroundWork } from './listeners/background.js';
import { registerListeners } from './listeners/index.js';
import type { PaymentsClient } from './payments/index.js';
import { createSwapService, type FollowPolicy, type QuoteMessenger, type SwapService } from './features/swaps/index.js';
import { createAlertPoller, createAlertPoster, type AlertPoller } from './poller/index.js';
import { createSlackGateway, slackClientOptions, type SlackGateway } from './slack/gateway.js';
import { describeSlackStartupFailure } from './slack/errors.js';
import type { BotRepositories } from './store/repository.js';
import type { PollLeadership } from './poller/index.js';

/**
 * Replicas: a quote `approving` this long was left by a replica that died. Between the claim and the create
 * there is one quote-message edit (up to about 2 minutes while Slack rate-limits the channel) and the create
 * itself (its timeout), so 10 minutes leave a wide margin, clock differences between hosts included.
 */
const APPROVING_STUCK_MS = 10 * 60_000;
/** Replicas: how often each looks for swaps another replica left (to follow, or to mark interrupted). */
const RECOVER_EVERY_MS = 15_000;

/** How long stop() waits for answers under way (a payment API read times out well within it). */
const ANSWERS_AT_SHUTDOWN_MS = 15_000;

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
  /** Overrides HOST (config.host) for the HTTP server; tests bind loopback. */
  host?: string;
  /** Retries of a transient Slack failure for calls that may wait (quote messages, reply fallbacks); default 2. */
  slackRetries?: number;
  /** How the alert poller waits between posts (a second apart); injectable so tests need not wait. */
  alertSleep?: (ms: number) => Promise<void>;
}

/** Start-up failed in a way a person can act on (rejected token, port in use…). */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** The running app. */
export interface TreasuryApp {
  app: App;
  swaps: SwapService;
  /** The failure-alert poller; undefined when ALERT_CHANNEL is unset (the poller is off). */
  alerts: AlertPoller | undefined;
  /** Checks the token (auth.test), then listens. Resolves with the HTTP port (also in Socket Mode, for /healthz). */
  start(): Promise<{ port: number }>;
  stop(): Promise<void>;
}

/**
 * Bolt logs through our logger, at our level, as plain text. Bolt logs at debug level on every request; below
 * LOG_LEVEL=debug those lines are dropped before anything is formatted.
 */
function toBoltLogger(logger: Logger, debugOn: boolean): BoltLogger {
  const join = (parts: unknown[]) => parts.map((part) => (typeof part === 'string' ? part : part instanceof Error ? part.message : String(part))).join(' ');
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
 * GET /healthz: 200 `{"ok":true,"store":{…}}` while the store can be used, 503 when it cannot (the database is
 * down): a load balancer then routes commands elsewhere, though lookups alone would still work.
 */
function healthRoute(store: BotRepositories, logger: Logger) {
  return {
    path: '/healthz',
    method: ['GET'],
    handler: (_req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const health = store.health ? await store.health().catch((error: unknown) => ({ ok: false, detail: String(error) })) : { ok: true, detail: 'state file' };
        // The endpoint is public: the database's own words (host, user) go to the log only.
        if (!health.ok) logger.warn('health check: the store cannot be used', { detail: health.detail });
        res.writeHead(health.ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: health.ok, store: { kind: store.health ? 'postgresql' : 'file', ok: health.ok } }));
      })();
    },
  };
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
  // In Socket Mode we build the receiver ourselves to learn the port its /healthz server really bound (PORT=0).
  const socketReceiver = socketMode
    ? new SocketModeReceiver({
        appToken: config.slackAppToken!,
        customRoutes: [healthRoute(options.store, logger)],
        installerOptions: { port: config.port, clientOptions },
        logger: boltLogger,
      })
    : undefined;
  const httpReceiver = socketReceiver
    ? undefined
    : new HTTPReceiver({
        signingSecret: config.slackSigningSecret ?? '',
        endpoints: '/slack/events',
        customRoutes: [healthRoute(options.store, logger)],
        // Reply to Slack at ack(), before the slow work: Slack gives up after 3 seconds.
        processBeforeResponse: false,
        // A listener that throws before ack() must not answer 5xx (Slack would retry and the person sees an
        // error page): log it and answer plainly. Listeners ack first, so this is a last resort.
        processEventErrorHandler: async ({ error, response }) => {
          logger.error('a Slack request failed before it was acknowledged', { error: errorFields(error) });
          if (!response.headersSent) {
            response.writeHead(200, { 'content-type': 'application/json' });
            response.end(JSON.stringify({ response_type: 'ephemeral', text: 'Something went wrong inside the bot. It has been logged; please try again.' }));
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
  };
  // Several processes share the store (PostgreSQL): recovery must not take another replica's work for a leftover.
  const replicated = options.leadership !== undefined;
  let recoverTimer: NodeJS.Timeout | undefined;
  const swaps = createSwapService({
    payments: options.payments,
    store: options.store,
    messenger,
    logger,
    now,
    policy: { approvers: config.swapApprovers, allowSelfApproval: config.allowSelfApproval },
    follow: options.swapFollow ?? { intervalMs: 5_000, maxDurationMs: 30 * 60_000 },
  });

  // Alerts never wait on Slack, so a poll never hangs; an alert Slack did not accept waits in the outbox.
  const alerts = config.alertChannel
    ? createAlertPoller({
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

  const background = createBackgroundWork(logger);
  registerListeners(app, { payments: options.payments, now, logger, treasuryUsers: config.treasuryUsers, swaps, alerts, slack, background });
  app.error(async (error) => {
    logger.error('unhandled error in a Slack listener', { error: errorFields(error) });
  });

  let server: Server | undefined;
  return {
    app,
    swaps,
    alerts,
    async start() {
      try {
        // Bolt's token check (auth.test), retried like any call when Slack stumbles; a refused token is final.
        await slack.run('auth.test', () => app.init());
      } catch (error) {
        throw new StartupError(describeSlackStartupFailure(error));
      }
      try {
        let port = config.port;
        if (socketReceiver) {
          await app.start();
          // Bolt keeps the server private; reading its address is the only way to learn the bound port.
          const address = (socketReceiver as unknown as { httpServer?: Server }).httpServer?.address();
          if (address && typeof address === 'object') port = address.port;
        } else {
          // Our own server in front of Bolt's request handler, so a malformed body can never reach it.
          server = await listen(createServer(guardSlackRequests(httpReceiver!.requestListener, logger)), config.port, options.host ?? config.host);
          port = (server.address() as AddressInfo).port;
        }
        // After start, so quote messages can be edited: interrupted approvals are marked, swaps followed again.
        // Replicas do it again and again: the swaps of a replica that died are picked up by the others.
        await swaps.recover(replicated ? { stuckForMs: APPROVING_STUCK_MS } : {});
        if (replicated) {
          recoverTimer = setInterval(() => {
            swaps.recover({ stuckForMs: APPROVING_STUCK_MS }).catch((error: unknown) => logger.warn('could not look for swaps left by another replica; trying again later', { error: errorFields(error) }));
          }, RECOVER_EVERY_MS);
          recoverTimer.unref();
        }
        alerts?.start();
        return { port };
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'EADDRINUSE') throw new StartupError(`Port ${config.port} is already in use: set PORT to a free one.`);
        throw new StartupError(`Could not start the Slack app: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    async stop() {
      // No new requests; keep-alive sockets would otherwise hold the server open until they time out.
      if (server) {
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      } else {
        await app.stop();
      }
      // Answers already acknowledged are still delivered: a person who was told "working on it" gets a reply.
      const left = await background.drain(ANSWERS_AT_SHUTDOWN_MS);
      if (left > 0) logger.warn('stopped with answers still under way; they are not delivered', { left });
      clearInterval(recoverTimer);
      // Then the poller, so a poll in flight ends before the store is closed.
      await alerts?.stop();
      swaps.stop();
    },
  };
}
