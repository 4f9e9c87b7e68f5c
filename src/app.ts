import type { IncomingMessage, ServerResponse, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Config } from './config.js';
import { errorFields, type Logger } from './logger.js';
import { registerListeners } from './listeners/index.js';
import type { PaymentsClient } from './payments/index.js';

/** What the Slack app is built from; everything that varies is injected. */
export interface TreasuryAppOptions {
  config: Config;
  payments: PaymentsClient;
  logger: Logger;
  now?: () => Date;
  /** Interface the HTTP server binds to (HTTP mode); all interfaces by default, loopback in tests. */
  host?: string;
  /** Web API retries; Bolt's default retries for about 30 minutes, which would hide a dead Slack. */
  slackRetries?: number;
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
  /** Checks the token (auth.test), then listens. Resolves with the HTTP port (also in Socket Mode, for /healthz). */
  start(): Promise<{ port: number }>;
  stop(): Promise<void>;
}

/** Bolt logs through our logger, at our level, as plain text. */
function toBoltLogger(logger: Logger): BoltLogger {
  const join = (parts: unknown[]) => parts.map((part) => (typeof part === 'string' ? part : part instanceof Error ? part.message : String(part))).join(' ');
  let level = LogLevel.INFO;
  return {
    debug: (...parts) => logger.debug(`slack: ${join(parts)}`),
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

function healthRoute() {
  return {
    path: '/healthz',
    method: ['GET'],
    handler: (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    },
  };
}

/** Why Slack refused the token, in one line. */
function describeSlackStartupFailure(error: unknown): string {
  const slackError = (error as { data?: { error?: unknown } }).data?.error;
  if (slackError === 'invalid_auth' || slackError === 'not_authed' || slackError === 'account_inactive' || slackError === 'token_revoked') {
    return `Slack rejected SLACK_BOT_TOKEN (${String(slackError)}). Check the bot token of the installed app.`;
  }
  if (typeof slackError === 'string') return `Slack refused to start the app: ${slackError}.`;
  return `Could not reach Slack to check the bot token: ${error instanceof Error ? error.message : String(error)}.`;
}

/**
 * Builds the Bolt app: Socket Mode when SLACK_APP_TOKEN is set (no public URL needed), otherwise HTTP on
 * PORT with Slack's requests at POST /slack/events. GET /healthz answers in both modes.
 */
export function createTreasuryApp(options: TreasuryAppOptions): TreasuryApp {
  const { config, logger } = options;
  const boltLogger = toBoltLogger(logger);
  const clientOptions = {
    ...(config.slackApiUrl ? { slackApiUrl: config.slackApiUrl } : {}),
    retryConfig: { retries: options.slackRetries ?? 2, factor: 2, minTimeout: 500, maxTimeout: 5_000 },
  };
  const socketMode = config.slackAppToken !== undefined;
  const app = socketMode
    ? new App({
        token: config.slackBotToken,
        appToken: config.slackAppToken,
        socketMode: true,
        customRoutes: [healthRoute()],
        installerOptions: { port: config.port },
        deferInitialization: true,
        logger: boltLogger,
        clientOptions,
      })
    : new App({
        token: config.slackBotToken,
        receiver: new HTTPReceiver({
          signingSecret: config.slackSigningSecret ?? '',
          endpoints: '/slack/events',
          customRoutes: [healthRoute()],
          // Reply to Slack at ack(), before the slow work: Slack gives up after 3 seconds.
          processBeforeResponse: false,
          logger: boltLogger,
        }),
        deferInitialization: true,
        logger: boltLogger,
        clientOptions,
      });

  registerListeners(app, {
    payments: options.payments,
    now: options.now ?? (() => new Date()),
    logger,
    treasuryUsers: config.treasuryUsers,
  });
  app.error(async (error) => {
    logger.error('unhandled error in a Slack listener', { error: errorFields(error) });
  });

  let server: Server | undefined;
  return {
    app,
    async start() {
      try {
        await app.init();
      } catch (error) {
        throw new StartupError(describeSlackStartupFailure(error));
      }
      try {
        if (socketMode) {
          await app.start();
          return { port: config.port };
        }
        server = (await app.start({ port: config.port, host: options.host ?? '0.0.0.0' })) as Server;
        return { port: (server.address() as AddressInfo).port };
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'EADDRINUSE') throw new StartupError(`Port ${config.port} is already in use: set PORT to a free one.`);
        throw new StartupError(`Could not start the Slack app: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    async stop() {
      // Keep-alive sockets would otherwise hold stop() open until they time out.
      server?.closeAllConnections();
      await app.stop();
    },
  };
}
