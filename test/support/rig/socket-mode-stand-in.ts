import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RecordedResponse, SlackStandIn } from './slack-stand-in.js';

/** What came back for one slash command sent over Socket Mode. */
export interface SocketCommandResult {
  /** The `payload` of the app's acknowledgement (undefined for an empty ack). */
  ackPayload: unknown;
  responseUrl: string;
  waitForResponses(count: number, timeoutMs?: number): Promise<RecordedResponse[]>;
}

/** A local stand-in for Slack's Socket Mode WebSocket endpoint. */
export interface SocketModeStandIn {
  url: string;
  /** Resolves once a client connected and got its `hello`. */
  waitForConnection(timeoutMs?: number): Promise<void>;
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

  let socket: WebSocket | undefined;
  const acks = new Map<string, (payload: unknown) => void>();
  const connected = new Promise<void>((resolve) => {
    server.on('connection', (ws) => {
      socket = ws;
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { envelope_id?: string; payload?: unknown };
        if (message.envelope_id) acks.get(message.envelope_id)?.(message.payload);
      });
      ws.send(JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A_TEST' }, debug_info: { host: 'stand-in' } }));
      resolve();
    });
  });

  return {
    url,
    async waitForConnection(timeoutMs = 5_000) {
      await Promise.race([
        connected,
        new Promise((_, reject) => setTimeout(() => reject(new Error('no Socket Mode client connected')), timeoutMs).unref()),
      ]);
    },
    async command(text, options = {}) {
      if (!socket) throw new Error('no Socket Mode client is connected');
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
            text,
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
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
