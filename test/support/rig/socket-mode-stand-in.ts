import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { escapeAsSlackDoes } from '../../../src/workspace/slack-requests.js';
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

/** A local stand-in for Slack's Socket Mode WebSocket endpoint. */
export interface SocketModeStandIn {
  url: string;
  /** How many connections clients have opened so far (each got its `hello`). */
  connectionCount(): number;
  /** Resolves once `count` connections in all (default 1) have been opened and got their `hello`. */
  waitForConnection(count?: number, timeoutMs?: number): Promise<void>;
  /** True while the newest connection is open. */
  connected(): boolean;
  /** Cuts the newest connection without a close frame, as a network failure or a Slack host going away does. */
  dropConnection(): void;
  /**
   * Sends Slack's `disconnect` envelope on the newest connection. The client is expected to close it and open a new
   * one; as Slack does, the stand-in closes it itself after `closeAfterMs` (default 10 s) if the client has not.
   */
  sendDisconnect(reason: DisconnectReason, options?: { closeAfterMs?: number }): void;
  /** Sends a `slash_commands` envelope, as Slack does, and waits for the app's ack. */
  command(text: string, options?: { userId?: string; channelId?: string }): Promise<SocketCommandResult>;
  close(): Promise<void>;
}

/**
 * Starts a WebSocket server speaking Slack's Socket Mode protocol (hello, envelopes, acks) and points the
 * Web API stand-in's `apps.connections.open` at it.
 */
export async function startSocketModeStandIn(standIn: SlackStandIn): Promise<SocketModeStandIn> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/link`;
  standIn.setSocketModeUrl(url);

  // Slack lets an app hold several connections at once (a client may open a new one before the old one closes):
  // envelopes go to the newest.
  let socket: WebSocket | undefined;
  let opened = 0;
  const openedListeners = new Set<() => void>();
  const closeTimers = new Set<NodeJS.Timeout>();
  const acks = new Map<string, (payload: unknown) => void>();
  server.on('connection', (ws) => {
    socket = ws;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { envelope_id?: string; payload?: unknown };
      if (message.envelope_id) acks.get(message.envelope_id)?.(message.payload);
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: server.clients.size,
        connection_info: { app_id: 'A_TEST' },
        debug_info: { host: 'applink-stand-in', approximate_connection_time: 18060 },
      }),
    );
    opened += 1;
    for (const listener of openedListeners) listener();
  });
  const current = (): WebSocket => {
    if (!socket || socket.readyState !== socket.OPEN) throw new Error('no Socket Mode client is connected');
    return socket;
  };

  return {
    url,
    connectionCount: () => opened,
    connected: () => socket !== undefined && socket.readyState === socket.OPEN,
    waitForConnection(count = 1, timeoutMs = 5_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (opened < count) return;
          clearTimeout(timer);
          openedListeners.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          openedListeners.delete(check);
          reject(new Error(`Socket Mode: ${opened} connection(s) opened within ${timeoutMs} ms, waited for ${count}`));
        }, timeoutMs);
        openedListeners.add(check);
        check();
      });
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
    async command(text, options = {}) {
      const socket = current();
      const envelopeId = randomUUID();
      const responseUrl = standIn.createResponseUrl();
      const acked = new Promise<unknown>((resolve, reject) => {
        acks.set(envelopeId, resolve);
        setTimeout(() => reject(new Error('the app did not acknowledge within 3 s')), 3_000).unref();
      });
      socket.send(
        JSON.stringify({
          envelope_id: envelopeId,
          type: 'slash_commands',
          accepts_response_payload: true,
          payload: {
            token: 'verification-token',
            team_id: 'T_TEST',
            team_domain: 'treasury-test',
            channel_id: options.channelId ?? 'C_TEST',
            channel_name: 'treasury',
            user_id: options.userId ?? 'U_TEST',
            user_name: 'tester',
            command: '/treasury',
            // What the person typed, escaped as Slack escapes it.
            text: escapeAsSlackDoes(text),
            api_app_id: 'A_TEST',
            is_enterprise_install: 'false',
            response_url: responseUrl,
            trigger_id: `${Date.now()}.trigger`,
          },
        }),
      );
      const ackPayload = await acked;
      return { ackPayload, responseUrl, waitForResponses: (count, timeoutMs) => standIn.waitForResponses(responseUrl, count, timeoutMs) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of closeTimers) clearTimeout(timer);
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
