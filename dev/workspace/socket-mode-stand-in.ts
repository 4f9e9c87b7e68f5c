/**
 * A stand-in for Slack's Socket Mode WebSocket endpoint (the local workspace in Socket Mode, and the tests):
 * hello, envelopes and acks as Slack speaks them, and what real Slack does to a connection (it drops, it asks the
 * client to go away). The payloads inside the envelopes are the ones slack-requests.ts builds for HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { type RequestKind, slashCommandPayload } from './slack-requests.js';
import type { RecordedResponse, SlackStandIn } from './slack-stand-in.js';

/** What came back for one slash command sent over Socket Mode. */
export interface SocketCommandResult {
  /** The `payload` of the app's acknowledgement (undefined for an empty ack). */
  ackPayload: unknown;
  responseUrl: string;
  waitForResponses(count: number, timeoutMs?: number): Promise<RecordedResponse[]>;
}

/** Why Slack asks a client to go away: a routine refresh, a warning before it closes, or Socket Mode turned off. */
export type DisconnectReason = 'refresh_requested' | 'warning' | 'link_disabled';

/** The kinds of envelope that carry what a person did: a slash command, a click / view submission, an event. */
export type EnvelopeType = RequestKind;

/** The app has no open connection: Slack cannot hand it anything (a person would see `dispatch_failed`). */
export class NoSocketConnectionError extends Error {
  readonly code = 'workspace_no_socket_connection';
  constructor() {
    super('the bot has no Socket Mode connection open right now (it is reconnecting); try again in a moment');
    this.name = 'NoSocketConnectionError';
  }
}

/** A local stand-in for Slack's Socket Mode WebSocket endpoint. */
export interface SocketModeStandIn {
  url: string;
  /** How many connections clients have opened so far (each got its `hello`). */
  connectionCount(): number;
  /** Resolves once `count` connections in all (default 1) have been opened and got their `hello`. */
  waitForConnection(count?: number, timeoutMs?: number): Promise<void>;
  /** How many WebSockets clients have opened so far, with or without a `hello`. */
  socketCount(): number;
  /** Resolves once `count` WebSockets in all have been opened, with or without a `hello`. */
  waitForSocket(count: number, timeoutMs?: number): Promise<void>;
  /** How many WebSockets are open right now (with or without a `hello`). */
  openSocketCount(): number;
  /**
   * The next `times` WebSockets (default 1) are accepted and never get a `hello`, as from a Slack host that hangs
   * after the upgrade; the stand-in still answers pings and close frames on them. They become the newest connection.
   */
  withholdHello(times?: number): void;
  /** True while the newest connection is open. */
  connected(): boolean;
  /** Cuts the newest connection without a close frame, as a network failure or a Slack host going away does. */
  dropConnection(): void;
  /**
   * Sends Slack's `disconnect` envelope on the newest connection. The client is expected to close it and open a new
   * one; as Slack does, the stand-in closes it itself after `closeAfterMs` (default 10 s) if the client has not.
   */
  sendDisconnect(reason: DisconnectReason, options?: { closeAfterMs?: number }): void;
  /**
   * Sends an envelope carrying `payload` on the newest connection and resolves with the `payload` of the app's ack
   * (undefined for an empty ack). Rejects with {@link NoSocketConnectionError} when no connection is open, and
   * when the app does not acknowledge within 3 s (Slack's limit).
   */
  send(type: EnvelopeType, payload: Record<string, unknown>): Promise<unknown>;
  /** Sends a `slash_commands` envelope for `/treasury <text>` (a test's person and channel), and waits for the ack. */
  command(text: string, options?: { userId?: string; channelId?: string }): Promise<SocketCommandResult>;
  close(): Promise<void>;
}

export interface SocketModeStandInOptions {
  /** The app id Slack names in its `hello` (default `A_TEST`). */
  appId?: string;
}

/** Slack's limit for acknowledging an envelope. */
const ACK_WITHIN_MS = 3_000;

/**
 * Starts a WebSocket server speaking Slack's Socket Mode protocol (hello, envelopes, acks) on the loopback
 * interface and points the Web API stand-in's `apps.connections.open` at it.
 */
export async function startSocketModeStandIn(
  standIn: SlackStandIn,
  options: SocketModeStandInOptions = {},
): Promise<SocketModeStandIn> {
  const appId = options.appId ?? 'A_TEST';
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/link`;
  standIn.setSocketModeUrl(url);

  // Slack lets an app hold several connections at once (a client may open a new one before the old one closes):
  // envelopes go to the newest.
  let socket: WebSocket | undefined;
  let opened = 0;
  let accepted = 0;
  let hellosToWithhold = 0;
  const openedListeners = new Set<() => void>();
  const closeTimers = new Set<NodeJS.Timeout>();
  const acks = new Map<string, (payload: unknown) => void>();
  server.on('connection', (ws) => {
    socket = ws;
    ws.on('message', (data) => {
      let message: { envelope_id?: string; payload?: unknown };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        return; // Slack ignores what it cannot read
      }
      if (message.envelope_id) acks.get(message.envelope_id)?.(message.payload);
    });
    accepted += 1;
    if (hellosToWithhold > 0) {
      hellosToWithhold -= 1;
      for (const listener of openedListeners) listener();
      return;
    }
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: server.clients.size,
        connection_info: { app_id: appId },
        debug_info: { host: 'applink-stand-in', approximate_connection_time: 18060 },
      }),
    );
    opened += 1;
    for (const listener of openedListeners) listener();
  });
  const current = (): WebSocket => {
    if (!socket || socket.readyState !== socket.OPEN) throw new NoSocketConnectionError();
    return socket;
  };

  const send = (type: EnvelopeType, payload: Record<string, unknown>): Promise<unknown> => {
    const ws = current();
    const envelopeId = randomUUID();
    const acked = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        acks.delete(envelopeId);
        reject(new Error(`the app did not acknowledge within ${ACK_WITHIN_MS / 1000} s`));
      }, ACK_WITHIN_MS);
      timer.unref();
      acks.set(envelopeId, (ackPayload) => {
        clearTimeout(timer);
        acks.delete(envelopeId);
        resolve(ackPayload);
      });
    });
    // Slack waits for a response payload with slash commands (it is shown to the person) and view submissions
    // (errors, update, push, clear), not with clicks.
    const acceptsResponsePayload = type === 'slash_commands' || payload.type === 'view_submission';
    // An event comes with the delivery attempt it is (Slack retries events it saw no ack for).
    const retry = type === 'events_api' ? { retry_attempt: 0, retry_reason: '' } : {};
    ws.send(
      JSON.stringify({
        envelope_id: envelopeId,
        type,
        accepts_response_payload: acceptsResponsePayload,
        ...retry,
        payload,
      }),
    );
    return acked;
  };

  const waitFor = (what: string, reached: () => number, count: number, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (reached() < count) return;
        clearTimeout(timer);
        openedListeners.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        openedListeners.delete(check);
        reject(new Error(`Socket Mode: ${reached()} ${what} opened within ${timeoutMs} ms, waited for ${count}`));
      }, timeoutMs);
      openedListeners.add(check);
      check();
    });

  return {
    url,
    connectionCount: () => opened,
    connected: () => socket !== undefined && socket.readyState === socket.OPEN,
    waitForConnection: (count = 1, timeoutMs = 5_000) => waitFor('connection(s)', () => opened, count, timeoutMs),
    socketCount: () => accepted,
    waitForSocket: (count, timeoutMs = 5_000) => waitFor('WebSocket(s)', () => accepted, count, timeoutMs),
    openSocketCount: () => [...server.clients].filter((client) => client.readyState === client.OPEN).length,
    withholdHello(times = 1) {
      hellosToWithhold += times;
    },
    dropConnection() {
      current().terminate();
    },
    sendDisconnect(reason, options = {}) {
      const ws = current();
      ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-stand-in' } }));
      const timer = setTimeout(() => {
        closeTimers.delete(timer);
        if (ws.readyState === ws.OPEN) ws.close(1000);
      }, options.closeAfterMs ?? 10_000);
      closeTimers.add(timer);
    },
    send,
    async command(text, options = {}) {
      const responseUrl = standIn.createResponseUrl();
      const payload = slashCommandPayload(
        { id: 'T_TEST', domain: 'treasury-test', appId },
        { id: options.userId ?? 'U_TEST', name: 'tester' },
        { id: options.channelId ?? 'C_TEST', name: 'treasury' },
        '/treasury',
        // What the person typed, escaped as Slack escapes it (slashCommandPayload does).
        text,
        responseUrl,
      );
      const ackPayload = await send('slash_commands', payload);
      return {
        ackPayload,
        responseUrl,
        waitForResponses: (count, timeoutMs) => standIn.waitForResponses(responseUrl, count, timeoutMs),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of closeTimers) clearTimeout(timer);
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
