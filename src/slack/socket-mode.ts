/**
 * Keeps the Socket Mode connection up. Slack closes Socket Mode connections routinely (`refresh_requested`,
 * `warning`, server rotation) and the network drops them; each time, the client must open a new one through
 * `apps.connections.open`, which can fail like any call. @slack/socket-mode's own reconnection gives up for
 * good on the first HTTP or network error of that call, so the client runs with it turned off and this
 * supervisor reconnects instead: with backoff and jitter, without end for a passing failure, and never for
 * what no retry fixes (a refused app token, Socket Mode turned off), which ends the process with one plain line.
 * The client waits for Slack's `hello` without a limit (its ping timers start only after Slack's first ping), so a
 * WebSocket that opens and never says hello would hold an attempt forever: each attempt here has a hello timeout.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { webApi } from '@slack/bolt';
import { CodedError } from '../kernel/errors.js';
import type { Logger } from '../logger.js';
import { describeSlackError, retryAfterSeconds, slackErrorCode } from './errors.js';

/** The part of @slack/socket-mode's SocketModeClient the supervisor drives (Bolt's `receiver.client`). */
export interface SocketModeConnection {
  /** `connecting`: start() has the WebSocket URL and opens the socket now; `connected`: Slack said hello. */
  on(event: 'connecting' | 'connected' | 'disconnected', listener: () => void): unknown;
  /** Every frame Slack sends, before the client acts on it: the only place a `disconnect` envelope's reason shows. */
  on(event: 'ws_message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  /** Opens a connection (`apps.connections.open`, then the WebSocket); resolves once Slack said hello. */
  start(): Promise<unknown>;
  /** Closes the connection (and keeps the client from opening one it was about to). */
  disconnect(): Promise<void>;
  /**
   * The socket of the latest start() (@slack/socket-mode's SlackWebSocket): `disconnect()` sends a close frame and
   * waits up to 30 s for the peer's; called again while the socket is closing, it cuts the socket at once.
   */
  readonly websocket?: { readonly readyState: number | undefined; disconnect(): void };
}

/** Answers of `apps.connections.open` that no retry cures: the app-level token itself is refused. */
const APP_TOKEN_REFUSED = new Set([
  'invalid_auth',
  'not_authed',
  'not_allowed_token_type',
  'token_revoked',
  'token_expired',
  'account_inactive',
  'team_disabled',
  'user_removed_from_team',
  // The token lacks `connections:write`: a person must add the scope and make a new token.
  'missing_scope',
]);

/** The `disconnect` envelope Slack sends when Socket Mode was turned off for the app: no new connection will be taken. */
const LINK_DISABLED = 'link_disabled';

/** How reconnect attempts are spaced: the first at once, then `initialMs` doubling up to `maxMs`, each ± `jitter`. */
export interface ReconnectPolicy {
  initialMs: number;
  maxMs: number;
  /** A fraction: 0.2 spreads each delay over ±20 %, so many bots dropped together do not call Slack in step. */
  jitter: number;
}

/** 1 s doubling to 30 s, ±20 %. */
export const SOCKET_RECONNECT_POLICY: ReconnectPolicy = { initialMs: 1_000, maxMs: 30_000, jitter: 0.2 };

/** How long without an open connection before `/healthz` says "disconnected" (a routine refresh takes a second or two). */
const DISCONNECTED_AFTER_MS = 30_000;

/** How long an attempt waits for Slack's `hello` once its WebSocket starts opening. */
const HELLO_TIMEOUT_MS = 30_000;

/**
 * Unexplained ok:false answers of `apps.connections.open` in a row after which each further attempt is logged at
 * error level: retrying stays right (Slack may be stumbling), but something may need a person.
 */
const REFUSALS_BEFORE_ERROR = 5;

/** WebSocket readyState CLOSING: a close frame went out and the peer's has not come back. */
const SOCKET_CLOSING = 2;

/**
 * The wait before reconnect attempt `attempt` (1-based). The first is immediate: Slack asked for it, or the
 * socket just dropped. Then `initialMs`, doubling, at most `maxMs`, spread by ± `jitter` with `random()` in [0, 1).
 */
export function reconnectDelayMs(
  attempt: number,
  policy: ReconnectPolicy = SOCKET_RECONNECT_POLICY,
  random: () => number = Math.random,
): number {
  if (attempt <= 1) return 0;
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt - 2, 30));
  return Math.max(0, Math.round(base * (1 + policy.jitter * (2 * random() - 1))));
}

/**
 * Options of the WebClient inside the Socket Mode client, which only calls `apps.connections.open`: one attempt
 * per call with a timeout (the supervisor retries), and a `ratelimited` answer as an error carrying Retry-After.
 */
export function socketModeClientOptions(
  options: { slackApiUrl?: string; timeoutMs?: number } = {},
): webApi.WebClientOptions {
  return {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 10_000,
  };
}

/** Slack refused the Socket Mode connection for good; `message` is one plain line a person can act on. */
export class SocketModeRefusedError extends CodedError {
  declare readonly code: 'slack_socket_mode_refused';
  constructor(
    /** The Slack error (`invalid_auth`…) or `link_disabled`. */
    readonly reason: string,
    message: string,
  ) {
    super('slack_socket_mode_refused', message, { context: { reason } });
    this.name = 'SocketModeRefusedError';
  }
}

function refusal(reason: string): SocketModeRefusedError {
  if (reason === LINK_DISABLED) {
    return new SocketModeRefusedError(
      reason,
      'Slack closed the Socket Mode connection because Socket Mode was turned off for this app (link_disabled). Turn it on again under Settings → Socket Mode, or run the bot in HTTP mode (leave SLACK_APP_TOKEN empty).',
    );
  }
  return new SocketModeRefusedError(
    reason,
    `Slack rejected SLACK_APP_TOKEN (${reason}). Check the app-level token (xapp-…) under Basic Information → App-Level Tokens; it needs the connections:write scope.`,
  );
}

/** The refusal behind a failed `apps.connections.open`, or undefined when the failure may pass. */
function refusalOf(error: unknown): SocketModeRefusedError | undefined {
  const code = slackErrorCode(error);
  return code !== undefined && APP_TOKEN_REFUSED.has(code) ? refusal(code) : undefined;
}

/** An attempt given up because Slack sent no `hello` in time on its WebSocket. */
class NoHelloError extends CodedError {
  constructor(timeoutMs: number) {
    super(
      'slack_socket_mode_no_hello',
      `no hello from Slack within ${timeoutMs % 1_000 === 0 || timeoutMs > 10_000 ? `${Math.round(timeoutMs / 1_000)} s` : `${timeoutMs} ms`}`,
    );
    this.name = 'NoHelloError';
  }
}

/** Why an attempt failed, for the log: Slack's error or HTTP status, or the network cause. Never a token. */
function describeAttemptFailure(error: unknown): string {
  // The client rejects start() with nothing when the WebSocket closes before Slack's hello.
  if (error === undefined) return 'the WebSocket closed before Slack said hello';
  if (error instanceof NoHelloError) return error.message;
  return `apps.connections.open failed: ${describeSlackError(error)}`;
}

/** What `/healthz` reports about the connection. */
export interface SocketModeStatus {
  /**
   * `connected`; `reconnecting` while a connection has been missing for at most `disconnectedAfterMs`;
   * `disconnected` after that (also before the first connection, once that long has passed since start).
   */
  socket: 'connected' | 'reconnecting' | 'disconnected';
  /** When the current state began: the connection opened, or was lost. */
  since: Date;
  /** Reconnect attempts since start (each is one log line). */
  reconnects: number;
}

/** Keeps the connection up; see the module comment. */
export interface SocketModeSupervisor {
  /**
   * The first connection, made by `connect` (Bolt's app.start(): the /healthz server, then the client). Resolves
   * `connected`, or `reconnecting` when a passing failure left it to the background (the process stays up and
   * /healthz tells). Rejects with SocketModeRefusedError when Slack refuses the app token.
   */
  start(connect?: () => Promise<unknown>): Promise<'connected' | 'reconnecting'>;
  status(): SocketModeStatus;
  /** No more reconnecting (the app is stopping); a connection opened meanwhile is not kept by us. */
  stop(): void;
}

export interface SocketModeSupervisorOptions {
  client: SocketModeConnection;
  logger: Logger;
  /** Called once when Slack refuses the connection for good after start; the process should stop. */
  onFatal: (error: SocketModeRefusedError) => void;
  policy?: ReconnectPolicy;
  disconnectedAfterMs?: number;
  /** How long an attempt waits for Slack's hello once its WebSocket opens (default 30 s). */
  helloTimeoutMs?: number;
  now?: () => number;
  random?: () => number;
  /** Waits `ms`; rejects (or resolves early) when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Supervises `client`, which must run with Bolt's `autoReconnectEnabled: false`. */
export function superviseSocketMode(options: SocketModeSupervisorOptions): SocketModeSupervisor {
  const { client, logger } = options;
  const policy = options.policy ?? SOCKET_RECONNECT_POLICY;
  const disconnectedAfterMs = options.disconnectedAfterMs ?? DISCONNECTED_AFTER_MS;
  const helloTimeoutMs = options.helloTimeoutMs ?? HELLO_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number, signal: AbortSignal) => sleepFor(ms, undefined, { signal }));
  const stopping = new AbortController();

  let connected = false;
  let since = now();
  let reconnects = 0;
  // True while an attempt of ours is under way (the first start, or the reconnect loop): a failed WebSocket
  // both emits 'disconnected' and rejects start(), and only the loop may act on it.
  let busy = false;
  // True during the first start: a refusal then is start()'s to throw, not onFatal's.
  let starting = false;
  let finished = false;
  // The attempt under way; its hello timer starts when its WebSocket starts opening.
  let underWay: { onConnecting(): void; cancel(): void } | undefined;
  // An attempt was given up and its socket cut: until the next attempt opens one, a `connected` is not ours to keep.
  let abandoned = false;
  // The reason of the last `disconnect` envelope on the current connection, so the close that follows is explained.
  let envelopeReason: string | undefined;

  client.on('connecting', () => {
    abandoned = false;
    underWay?.onConnecting();
  });

  client.on('connected', () => {
    if (abandoned) return;
    if (!connected) since = now();
    connected = true;
    envelopeReason = undefined;
  });

  client.on('ws_message', (data, isBinary) => {
    if (isBinary) return;
    try {
      const frame = JSON.parse(typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer).toString('utf8')) as {
        type?: unknown;
        reason?: unknown;
      };
      if (frame.type === 'disconnect') envelopeReason = typeof frame.reason === 'string' ? frame.reason : 'unknown';
    } catch {
      // Not JSON: the client ignores such frames too.
    }
  });

  client.on('disconnected', () => {
    if (connected) since = now();
    connected = false;
    if (finished) return;
    // Socket Mode turned off is final whenever it comes, also on the socket a reconnect attempt was opening.
    if (envelopeReason === LINK_DISABLED && !starting) return fail(refusal(LINK_DISABLED));
    if (busy) return;
    const reason = envelopeReason;
    envelopeReason = undefined;
    void reconnect(reason === undefined ? 'the connection dropped' : `Slack asked to reconnect (${reason})`, 1);
  });

  const fail = (error: SocketModeRefusedError): void => {
    if (finished) return;
    finished = true;
    stopping.abort();
    logger.error('Socket Mode: Slack refused the connection for good; stopping', { reason: error.reason });
    options.onFatal(error);
  };

  /**
   * Cuts the socket of an attempt given up on. Its first disconnect() sends a close frame; a host that never said
   * hello may never answer it either, and the client would then wait 30 s and report that close into whichever
   * attempt is under way by then, so a second disconnect() (the socket is closing) cuts it at once. Either way the
   * client emits `disconnected` (ignored: an attempt is under way) and rejects that start(), which connectOnce has
   * settled already.
   */
  const cutAbandonedSocket = (): void => {
    const socket = client.websocket;
    if (!socket) return void client.disconnect().catch(() => undefined);
    socket.disconnect();
    if (socket.readyState === SOCKET_CLOSING) socket.disconnect();
  };

  /** One attempt: `start` (the client's start()), given up when Slack sends no hello within helloTimeoutMs. */
  const connectOnce = (start: () => Promise<unknown>): Promise<unknown> =>
    new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const mine = {
        onConnecting() {
          clearTimeout(timer);
          timer = setTimeout(() => {
            done();
            abandoned = true;
            // Rejected first, so the rejection of start() that cutting the socket causes comes second and is ignored.
            reject(new NoHelloError(helloTimeoutMs));
            cutAbandonedSocket();
          }, helloTimeoutMs);
        },
        cancel: () => clearTimeout(timer),
      };
      const done = (): void => {
        clearTimeout(timer);
        if (underWay === mine) underWay = undefined;
      };
      underWay = mine;
      let started: Promise<unknown>;
      try {
        started = start();
      } catch (error) {
        done();
        return reject(error);
      }
      started.then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });

  // Reconnects until connected, refused or stopped. `cause` is why the previous connection or attempt ended;
  // `refusedInARow` counts the unexplained ok:false answers of apps.connections.open so far.
  const reconnect = async (cause: string, firstAttempt: number, refusedInARow = 0): Promise<void> => {
    busy = true;
    try {
      let retryAfterMs = 0;
      for (let attempt = firstAttempt; !finished; attempt += 1) {
        const delayMs = Math.max(reconnectDelayMs(attempt, policy, random), retryAfterMs);
        reconnects += 1;
        const wait =
          delayMs === 0 ? '' : delayMs < 1_000 ? `, in ${delayMs} ms` : `, in ${(delayMs / 1_000).toFixed(1)} s`;
        const line = `Socket Mode: reconnecting (attempt ${attempt}${wait}) because ${cause}`;
        if (refusedInARow >= REFUSALS_BEFORE_ERROR) {
          logger.error(
            `${line}; Slack has refused apps.connections.open ${refusedInARow} times in a row: check the app's Socket Mode settings and SLACK_APP_TOKEN`,
            { reconnects },
          );
        } else {
          logger.warn(line, { reconnects });
        }
        try {
          if (delayMs > 0) await sleep(delayMs, stopping.signal);
        } catch {
          return; // stopped while waiting
        }
        if (finished) return;
        try {
          await connectOnce(() => client.start());
          // Stopped while this attempt was under way: the app is shutting down and wants no connection.
          if (finished) return void client.disconnect().catch(() => undefined);
          // Lost again before this loop saw it (its 'disconnected' came while we were busy): go on.
          if (!connected) {
            cause = 'the connection closed right after it opened';
            retryAfterMs = 0;
            refusedInARow = 0;
            continue;
          }
          logger.info(`Socket Mode: connected again after ${attempt - firstAttempt + 1} attempt(s)`);
          return;
        } catch (error) {
          const refused = refusalOf(error);
          if (refused) return fail(refused);
          cause = describeAttemptFailure(error);
          refusedInARow = slackErrorCode(error) === undefined ? 0 : refusedInARow + 1;
          const retryAfter = retryAfterSeconds(error);
          retryAfterMs = retryAfter === undefined ? 0 : retryAfter * 1000;
        }
      }
    } finally {
      busy = false;
    }
  };

  return {
    async start(connect = () => client.start()) {
      busy = true;
      starting = true;
      let cause: string;
      let refusedInARow = 0;
      try {
        // A hello that never comes is a passing failure like any other: the background loop takes it from here.
        await connectOnce(connect);
        if (connected) return 'connected';
        cause = 'the connection closed right after it opened';
      } catch (error) {
        const refused = refusalOf(error);
        if (refused) {
          finished = true;
          throw refused;
        }
        cause = describeAttemptFailure(error);
        if (slackErrorCode(error) !== undefined) refusedInARow = 1;
      } finally {
        busy = false;
        starting = false;
      }
      if (envelopeReason === LINK_DISABLED) {
        finished = true;
        throw refusal(LINK_DISABLED);
      }
      logger.warn(`Socket Mode: could not connect at start (${cause}); the bot keeps trying in the background`);
      // The first attempt has just failed: the loop goes on from the second, after a pause.
      void reconnect(cause, 2, refusedInARow);
      return 'reconnecting';
    },
    status() {
      if (connected) return { socket: 'connected', since: new Date(since), reconnects };
      return {
        socket: now() - since > disconnectedAfterMs ? 'disconnected' : 'reconnecting',
        since: new Date(since),
        reconnects,
      };
    },
    stop() {
      finished = true;
      stopping.abort();
      // The app's stop closes the client, which ends the attempt; no hello timer outlives the app.
      underWay?.cancel();
    },
  };
}
