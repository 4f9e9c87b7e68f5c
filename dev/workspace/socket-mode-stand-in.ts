/**
 * A stand-in for Slack's Socket Mode WebSocket endpoint (the local workspace in Socket Mode, and the tests):
 * hello, envelopes and acks as Slack speaks them, and what real Slack does to a connection (it drops, it asks the
 * client to go away). The payloads inside the envelopes are the ones slack-requests.ts builds for HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import type { RequestKind } from './slack-requests.js';
import type { SlackStandIn } from './slack-stand-in.js';

/** Why Slack asks a client to go away: a routine refresh, a warning before it closes, or Socket Mode turned off. */
export type DisconnectReason = 'refresh_requested' | 'warning' | 'link_disabled';

/** The kinds of envelope that carry what a person did: a slash command, a click / view submission, an event. */
export type EnvelopeType = RequestKind;

/** The app has no open connection: Slack cannot hand it anything (a person would see `dispatch_failed`). */
class NoSocketConnectionError extends Error {
  readonly code = 'workspace_no_socket_connection';
  constructor() {
    super('the bot has no Socket Mode connection open right now (it is reconnecting); try again in a moment');
    this.name = 'NoSocketConnectionError';
  }
}

/** A local stand-in for Slack's Socket Mode WebSocket endpoint. */
export interface SocketModeStandIn {
  url: string;
  /**
   * The next `times` WebSockets (default 1) are accepted and never get a `hello`, as from a Slack host that hangs
   * after the upgrade; the stand-in still answers pings and close frames on them. They become the newest connection.
   */
  withholdHello(times?: number): void;
  /**
   * Calls `listener` with each WebSocket a client opens, and whether it got its `hello` (see withholdHello);
   * returns the unsubscribe function.
   */
  onSocket(listener: (socket: WebSocket, greeted: boolean) => void): () => void;
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
  standIn: Pick<SlackStandIn, 'setSocketModeUrl'>,
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
  let hellosToWithhold = 0;
  const socketListeners = new Set<(socket: WebSocket, greeted: boolean) => void>();
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
    if (hellosToWithhold > 0) {
      hellosToWithhold -= 1;
      for (const listener of socketListeners) listener(ws, false);
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
    for (const listener of socketListeners) listener(ws, true);
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

  return {
    url,
    onSocket: (listener) => {
      socketListeners.add(listener);
      return () => socketListeners.delete(listener);
    },
    connected: () => socket !== undefined && socket.readyState === socket.OPEN,
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of closeTimers) clearTimeout(timer);
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
