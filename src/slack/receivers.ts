/**
 * How Slack's requests reach the bot: the Bolt app on its receiver, Socket Mode when SLACK_APP_TOKEN is set (no
 * public URL needed, the connection supervised), otherwise HTTP on PORT with Slack's requests at POST /slack/events
 * behind our own guard (http-guard.ts). GET /healthz (liveness) and GET /readyz (readiness) answer in both modes.
 * Bolt logs through our logger.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type Logger as BoltLogger, HTTPReceiver, LogLevel, SocketModeReceiver } from '@slack/bolt';
import { errorFields, type Logger, type LogLevelName } from '../logger.js';
import { describeSlackStartupFailure } from './errors.js';
import { type SlackGateway, slackClientOptions } from './gateway.js';
import { guardSlackRequests } from './http-guard.js';
import {
  type ReconnectPolicy,
  SocketModeRefusedError,
  type SocketModeStatus,
  type SocketModeSupervisor,
  socketModeClientOptions,
  superviseSocketMode,
} from './socket-mode.js';

/**
 * Bolt logs through our logger, at our level, as plain text. Bolt logs at debug level on every request; below
 * LOG_LEVEL=debug those lines are dropped before anything is formatted.
 */
function toBoltLogger(logger: Logger, debugOn: boolean): BoltLogger {
  // At debug level Slack's client logs each request body: the one that shares the second factor's enrolment DM
  // carries an otpauth:// URI, whose secret never goes to the log.
  const join = (parts: unknown[]) =>
    parts
      .map((part) => (typeof part === 'string' ? part : part instanceof Error ? part.message : String(part)))
      .join(' ')
      .replace(/otpauth:\/\/[^\s"'`\\<>]*/gi, 'otpauth://[REDACTED]');
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
 * reports each one already, in one line with its cause (socket-mode.ts), so these go to debug.
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
 * GET /healthz, liveness: the process answers. No dependency is asked (a database outage must not make Kubernetes
 * restart every replica), so it is 200 while the process runs; in Socket Mode it also says how the connection stands
 * (`socket`, `since`, `reconnects`), read from memory, for people. Readiness is /readyz.
 */
function livenessRoute(socket?: () => SocketModeStatus) {
  return {
    path: '/healthz',
    method: ['GET'],
    handler: (_req: IncomingMessage, res: ServerResponse) => {
      const link = socket?.();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ok: true,
          ...(link ? { socket: link.socket, since: link.since.toISOString(), reconnects: link.reconnects } : {}),
        }),
      );
    },
  };
}

/** How long /readyz waits for the store: a hanging database answers "timeout", never a hanging probe. */
const READY_CHECK_TIMEOUT_MS = 1_000;

/** What /readyz says of each check: `ok`, or one short word for what fails (detail goes to the log). */
export type ReadinessChecks = { store: string; slack: string; config: 'ok' };

/**
 * The store's check, bounded: `ok`, `failing` (it answered no) or `timeout` (no answer within `timeoutMs`). A check
 * still under way is joined, not repeated: probes every few seconds against a hung database hold one query, not one
 * pool connection each.
 */
function storeChecker(store: StoreHealth, logger: Logger, timeoutMs: number): () => Promise<string> {
  let underWay: Promise<{ ok: boolean; detail: string }> | undefined;
  return async () => {
    if (!store.health) return 'ok';
    underWay ??= store
      .health()
      .catch((error: unknown) => ({ ok: false, detail: String(error) }))
      .finally(() => {
        underWay = undefined;
      });
    return checkWithin(underWay, logger, timeoutMs);
  };
}

async function checkWithin(
  answer: Promise<{ ok: boolean; detail: string }>,
  logger: Logger,
  timeoutMs: number,
): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const result = await Promise.race([answer, timedOut]);
  clearTimeout(timer);
  if (result === 'timeout') {
    logger.warn('readiness: the store did not answer in time', { timeoutMs });
    return 'timeout';
  }
  // The endpoint is public: the database's own words (host, user) go to the log only.
  if (!result.ok) logger.warn('readiness: the store cannot be used', { detail: result.detail });
  return result.ok ? 'ok' : 'failing';
}

/**
 * GET /readyz, readiness: 200 `{"ready":true,"checks":{"store":"ok","slack":"ok","config":"ok"}}` when the store
 * answers (PostgreSQL: SELECT 1 within READY_CHECK_TIMEOUT_MS; the state file: readable and writable), Socket Mode is
 * connected (HTTP mode: always ok) and the configuration is loaded (it is, once this server listens). Otherwise 503
 * with the failing check's word; while shutting down 503 with `stopping: true` (send nothing new here).
 */
function readinessRoute(
  store: StoreHealth,
  logger: Logger,
  stopping: () => boolean,
  timeoutMs: number,
  socket?: () => SocketModeStatus,
) {
  const checkStore = storeChecker(store, logger, timeoutMs);
  return {
    path: '/readyz',
    method: ['GET'],
    handler: (_req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const link = socket?.();
        const checks: ReadinessChecks = {
          store: await checkStore(),
          slack: !link || link.socket === 'connected' ? 'ok' : 'disconnected',
          config: 'ok',
        };
        const down = stopping();
        const ready = !down && Object.values(checks).every((check) => check === 'ok');
        res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ready, ...(down ? { stopping: true } : {}), checks }));
      })().catch((error: unknown) => {
        logger.error('readiness: the check failed', { error: errorFields(error) });
        if (!res.headersSent) res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ready: false }));
      });
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

/** The installing workspace (and Grid organisation) from an auth.test answer; undefined when it names none. */
function readInstallingOrg(answer: {
  team_id?: unknown;
  enterprise_id?: unknown;
}): { teamId: string; enterpriseId?: string } | undefined {
  const teamId = typeof answer.team_id === 'string' && answer.team_id !== '' ? answer.team_id : undefined;
  if (teamId === undefined) return undefined;
  const enterpriseId =
    typeof answer.enterprise_id === 'string' && answer.enterprise_id !== '' ? answer.enterprise_id : undefined;
  return { teamId, ...(enterpriseId ? { enterpriseId } : {}) };
}

/**
 * Bolt's token check (auth.test, retried like any call when Slack stumbles; a refused token is final), then the
 * workspace (and Grid organisation) the token belongs to: Bolt keeps its own answer to itself. Requests from any
 * other organisation are refused at the edge. Resolves with the organisation, or the problem in a person's words.
 */
export async function identifyInstallingOrg(
  app: App,
  slack: Pick<SlackGateway, 'run'>,
): Promise<{ org: { teamId: string; enterpriseId?: string } } | { problem: string }> {
  let org: ReturnType<typeof readInstallingOrg>;
  try {
    await slack.run('auth.test', () => app.init());
    org = readInstallingOrg(await slack.run('auth.test', () => app.client.auth.test()));
  } catch (error) {
    return { problem: describeSlackStartupFailure(error) };
  }
  if (org === undefined)
    return {
      problem:
        "Slack's auth.test named no workspace (team_id) for SLACK_BOT_TOKEN, so the bot cannot tell its own people from others'; check the token.",
    };
  return { org };
}

/** Why listening (or what start-up does right after) failed, for a person. */
export function describeListenFailure(error: unknown, port: number): string {
  if (error instanceof SocketModeRefusedError) return error.message;
  if ((error as { code?: string }).code === 'EADDRINUSE')
    return `Port ${port} is already in use: set PORT to a free one.`;
  return `Could not start the Slack app: ${error instanceof Error ? error.message : String(error)}`;
}
/** What /readyz asks the store (the repositories' `health`: PostgreSQL answers SELECT 1, the state file is usable). */
export interface StoreHealth {
  health?(): Promise<{ ok: boolean; detail: string }>;
}

/** The settings the receivers read (a slice of the configuration, so that slack/ does not depend on config.ts). */
export interface ReceiverSettings {
  slackBotToken: string;
  slackAppToken: string | undefined;
  slackSigningSecret: string | undefined;
  slackApiUrl: string | undefined;
  port: number;
  host: string;
  logLevel: LogLevelName;
}

/** What the receivers are built from. */
export interface ReceiverOptions {
  config: ReceiverSettings;
  logger: Logger;
  store: StoreHealth;
  now: () => Date;
  /** True once shutdown has begun: /readyz answers 503. */
  stopping: () => boolean;
  /** How long /readyz waits for the store (default READY_CHECK_TIMEOUT_MS). */
  readyCheckTimeoutMs?: number | undefined;
  /** Overrides HOST for the HTTP server (tests bind loopback); in Socket Mode it binds the /healthz server. */
  host?: string | undefined;
  /** Socket Mode: reconnect spacing, when /healthz says disconnected, how long an attempt waits for hello. */
  socketMode?: { reconnect?: ReconnectPolicy; disconnectedAfterMs?: number; helloTimeoutMs?: number } | undefined;
  /** Socket Mode: Slack refused the connection for good after start. */
  onFatal?: ((problem: string) => void) | undefined;
  /** More GET routes beside /healthz on the same server (GET /metrics). */
  routes?: ExtraRoute[] | undefined;
}

/** A GET route served beside /healthz. */
export interface ExtraRoute {
  path: string;
  method: string[];
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/** The Bolt app and the way it listens. */
export interface SlackReceivers {
  app: App;
  /**
   * Listens: HTTP, or /healthz and the Socket Mode connection (a passing failure retried in the background). Resolves
   * with the HTTP port and, in Socket Mode, whether the first connection opened; rejects with SocketModeRefusedError
   * when Slack refuses it for good, or the listen error.
   */
  listen(): Promise<{ port: number; socket?: 'connected' | 'reconnecting' }>;
  /** No more requests: closes the server (keep-alive sockets too) or the Socket Mode connection. */
  close(): Promise<void>;
}

/** Builds the Bolt app on its receiver (nothing listens until listen()). */
export function createSlackReceivers(options: ReceiverOptions): SlackReceivers {
  const { config, logger } = options;
  const boltLogger = toBoltLogger(logger, config.logLevel === 'debug');
  const readyTimeoutMs = options.readyCheckTimeoutMs ?? READY_CHECK_TIMEOUT_MS;
  let supervisor: SocketModeSupervisor | undefined;
  // In Socket Mode we build the receiver ourselves to learn the port its /healthz server really bound (PORT=0).
  // Its client does not reconnect by itself (it would give up for good on one failed apps.connections.open):
  // the supervisor below does, with its own client options (the gateway's are for messages, not for this).
  const socketReceiver =
    config.slackAppToken !== undefined
      ? new SocketModeReceiver({
          appToken: config.slackAppToken,
          autoReconnectEnabled: false,
          customRoutes: [
            livenessRoute(() => supervisor!.status()),
            readinessRoute(options.store, logger, options.stopping, readyTimeoutMs, () => supervisor!.status()),
            ...(options.routes ?? []),
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
        customRoutes: [
          livenessRoute(),
          readinessRoute(options.store, logger, options.stopping, readyTimeoutMs),
          ...(options.routes ?? []),
        ],
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
    // Bolt's client never retries or waits by itself: the Slack gateway decides, for every call (see gateway.ts).
    clientOptions: slackClientOptions({ slackApiUrl: config.slackApiUrl }),
    // The ack path carries nothing it does not use. Bolt's conversation store loads per-channel state on every
    // request (its memory store builds an Error for each miss); no listener reads it. ignoreSelf drops the
    // bot's own message events; the bot has no event listeners (the edge gate acknowledges every event).
    convoStore: false,
    ignoreSelf: false,
  });
  if (socketReceiver) {
    supervisor = superviseSocketMode({
      client: socketReceiver.client,
      logger,
      now: () => options.now().getTime(),
      policy: options.socketMode?.reconnect,
      disconnectedAfterMs: options.socketMode?.disconnectedAfterMs,
      helloTimeoutMs: options.socketMode?.helloTimeoutMs,
      onFatal: (error) => options.onFatal?.(error.message),
    });
  }

  let server: Server | undefined;
  return {
    app,
    async listen() {
      if (!socketReceiver) {
        // Our own server in front of Bolt's request handler, so a malformed body can never reach it.
        server = await listen(
          createServer(guardSlackRequests(httpReceiver!.requestListener, logger)),
          config.port,
          options.host ?? config.host,
        );
        return { port: (server.address() as AddressInfo).port };
      }
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
      const host = options.host;
      if (host !== undefined) {
        // Bolt calls listen(port) with no host; hand it ours.
        const listenOn = healthServer.listen.bind(healthServer) as (port: number, host: string) => Server;
        healthServer.listen = ((port: number) => listenOn(port, host)) as Server['listen'];
      }
      // Bolt's start listens for /healthz and opens the connection; a passing failure is retried in the background.
      const socket = await supervisor!.start(() => app.start());
      await listening;
      return { port: (healthServer.address() as AddressInfo).port, socket };
    },
    async close() {
      // Keep-alive sockets would otherwise hold the server open until they time out.
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
