/**
 * GET /metrics: the Prometheus text exposition, on the app's HTTP server beside /healthz or on its own port
 * (METRICS_PORT). With METRICS_TOKEN set, a scrape without `Authorization: Bearer <token>` is refused (401). In
 * HTTP mode the app's port is Slack's, so public: /metrics is served there only with METRICS_TOKEN (app.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppMetrics } from './index.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries the bearer token; compared in constant time (over digests, so lengths do not leak). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!.trim()), digest(token));
}

/** The handler of GET /metrics. */
function metricsHandler(metrics: Pick<AppMetrics, 'scrape'>, token: string | undefined) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' });
      res.end('unauthorized\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(body);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('metrics could not be collected\n');
      },
    );
  };
}

/** The /metrics route for Bolt's customRoutes. */
function metricsRoute(metrics: Pick<AppMetrics, 'scrape'>, token: string | undefined) {
  return { path: '/metrics', method: ['GET'], handler: metricsHandler(metrics, token) };
}

/**
 * GET /metrics where it is not served (the public Slack port in HTTP mode without METRICS_TOKEN): a plain 404, as
 * for any path that is not there (Bolt would answer a bare GET of an unknown path with a 400).
 */
function metricsOffRoute() {
  return {
    path: '/metrics',
    method: ['GET'],
    handler: (_req: IncomingMessage, res: ServerResponse): void => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
    },
  };
}

/** A small server of its own for /metrics (METRICS_PORT); close() ends it with its keep-alive sockets. */
async function startMetricsServer(
  metrics: Pick<AppMetrics, 'scrape'>,
  options: { port: number; host: string; token: string | undefined },
): Promise<{ port: number; close(): Promise<void> }> {
  const handle = metricsHandler(metrics, options.token);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') return handle(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}

/**
 * Where GET /metrics is served: beside /healthz, unless METRICS_PORT gives it a server of its own (started with the
 * app). In HTTP mode that port is Slack's, so public: the metrics (the freeze, the quotes waiting) are served there
 * only to a scraper with METRICS_TOKEN. Socket Mode's port serves /healthz only, never Slack: served there.
 */
export function metricsServing(
  metrics: Pick<AppMetrics, 'scrape'>,
  options: {
    port: number | undefined;
    token: string | undefined;
    socketMode: boolean;
    logger: { warn(line: string): void };
  },
) {
  const onAppPort = options.port === undefined && (options.socketMode || options.token !== undefined);
  let server: { port: number; close(): Promise<void> } | undefined;
  let appPort: number | undefined;
  return {
    /** The app's own port's route (Bolt's customRoutes): the metrics, or a plain 404. */
    route: onAppPort ? metricsRoute(metrics, options.token) : metricsOffRoute(),
    /** Once the app listens on `listeningPort`: METRICS_PORT's server starts on `host`, or a line says it is off. */
    async start(listeningPort: number, host: string): Promise<void> {
      appPort = listeningPort;
      if (options.port !== undefined)
        server = await startMetricsServer(metrics, { port: options.port, host, token: options.token });
      else if (!onAppPort)
        options.logger.warn(
          'GET /metrics is off: the Slack port is public in HTTP mode. Set METRICS_PORT to serve it on a port of its own (for a cluster-internal scrape), or METRICS_TOKEN to serve it on this port to a scraper sending Authorization: Bearer <token>',
        );
    },
    /** The port GET /metrics answers on once started; undefined when it is off. */
    port: (): number | undefined => server?.port ?? (onAppPort ? appPort : undefined),
    close: async (): Promise<void> => server?.close(),
  };
}
