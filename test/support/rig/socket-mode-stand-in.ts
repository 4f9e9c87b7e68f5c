// The Socket Mode stand-in of dev/workspace, with the tests' hooks: counting and awaiting connections, and a
// shortcut for sending a slash command over one.
import type { WebSocket } from 'ws';
import { slashCommandPayload } from '../../../dev/workspace/slack-requests.js';
import {
  type SocketModeStandIn as DevSocketModeStandIn,
  type SocketModeStandInOptions,
  startSocketModeStandIn as startDevSocketModeStandIn,
} from '../../../dev/workspace/socket-mode-stand-in.js';
import type { RecordedResponse, SlackStandIn } from './slack-stand-in.js';

export * from '../../../dev/workspace/socket-mode-stand-in.js';

/** What came back for one slash command sent over Socket Mode. */
export interface SocketCommandResult {
  /** The `payload` of the app's acknowledgement (undefined for an empty ack). */
  ackPayload: unknown;
  responseUrl: string;
  waitForResponses(count: number, timeoutMs?: number): Promise<RecordedResponse[]>;
}

/** The Socket Mode stand-in with the tests' hooks. */
export interface SocketModeStandIn extends DevSocketModeStandIn {
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
  /** Sends a `slash_commands` envelope for `/treasury <text>` (a test's person and channel), and waits for the ack. */
  command(text: string, options?: { userId?: string; channelId?: string }): Promise<SocketCommandResult>;
}

/** Starts the Socket Mode stand-in (see dev/workspace/socket-mode-stand-in.ts) for the tests' Slack stand-in. */
export async function startSocketModeStandIn(
  standIn: Pick<SlackStandIn, 'setSocketModeUrl' | 'createResponseUrl' | 'waitForResponses'>,
  options: SocketModeStandInOptions = {},
): Promise<SocketModeStandIn> {
  const socket = await startDevSocketModeStandIn(standIn, options);
  const appId = options.appId ?? 'A_TEST';
  let opened = 0;
  let accepted = 0;
  const sockets = new Set<WebSocket>();
  const openedListeners = new Set<() => void>();
  socket.onSocket((ws, greeted) => {
    sockets.add(ws);
    ws.once('close', () => sockets.delete(ws));
    accepted += 1;
    if (greeted) opened += 1;
    for (const listener of openedListeners) listener();
  });
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
    ...socket,
    connectionCount: () => opened,
    waitForConnection: (count = 1, timeoutMs = 5_000) => waitFor('connection(s)', () => opened, count, timeoutMs),
    socketCount: () => accepted,
    waitForSocket: (count, timeoutMs = 5_000) => waitFor('WebSocket(s)', () => accepted, count, timeoutMs),
    openSocketCount: () => [...sockets].filter((ws) => ws.readyState === ws.OPEN).length,
    async command(text, commandOptions = {}) {
      const responseUrl = standIn.createResponseUrl();
      const payload = slashCommandPayload(
        { id: 'T_TEST', domain: 'treasury-test', appId },
        { id: commandOptions.userId ?? 'U_TEST', name: 'tester' },
        { id: commandOptions.channelId ?? 'C_TEST', name: 'treasury' },
        '/treasury',
        // What the person typed, escaped as Slack escapes it (slashCommandPayload does).
        text,
        responseUrl,
      );
      const ackPayload = await socket.send('slash_commands', payload);
      return {
        ackPayload,
        responseUrl,
        waitForResponses: (count, timeoutMs) => standIn.waitForResponses(responseUrl, count, timeoutMs),
      };
    },
  };
}
