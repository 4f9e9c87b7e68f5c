import type { AddressInfo } from 'node:net';
import type { App } from '@slack/bolt';

/** A Bolt app listening on a local port. */
export interface RunningApp {
  port: number;
  /** `http://host:port`, for custom routes such as `/healthz`. */
  baseUrl: string;
  /** The request URL to give the driver (Bolt's default endpoint). */
  eventsUrl: string;
  stop(): Promise<void>;
}

/** Starts an HTTPReceiver-based Bolt app on a free port (127.0.0.1 unless given) and says where it listens. */
export async function startAppOnFreePort(
  app: App,
  options: { host?: string; port?: number; eventsPath?: string } = {},
): Promise<RunningApp> {
  const host = options.host ?? '127.0.0.1';
  // A ListenOptions object lets us bind to loopback only; a bare port number would listen on every interface.
  const server = await app.start({ port: options.port ?? 0, host });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    port,
    baseUrl,
    eventsUrl: `${baseUrl}${options.eventsPath ?? '/slack/events'}`,
    stop: async () => {
      // Drop fetch's keep-alive sockets so stop() does not wait for them to time out.
      server.closeAllConnections();
      await app.stop();
    },
  };
}
