// The HTTP side: routing, fault injection, rate limiting, authentication, permissions, JSON bodies and the
// request log. Check order per request: route → injected fault → rate limit → 401 → 403 → handler (400/404/200).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type OperationRoute, ROUTES } from './operations/index.js';
import { errorBody, errorResult, type HandlerResult, validationFailed } from './responses.js';
import type { OperationName } from './types.js';
import type { SimState } from './world.js';

/** A scripted misbehaviour for the next call(s) of an operation. */
export interface Fault {
  /** Status to answer with (default 500, or 200 with malformedJson). */
  status?: number;
  /** Body to send: a string verbatim, an object as JSON; default: the API's error body for the status. */
  body?: string | object;
  headers?: Record<string, string>;
  /** Wait this long first; a fault with only delayMs then answers normally. */
  delayMs?: number;
  /** Answer with a truncated JSON document. */
  malformedJson?: boolean;
  /** Drop the connection without answering. */
  destroySocket?: boolean;
}

/** One logged request (the apiKey header is never stored). */
export interface RequestLogEntry {
  operation: OperationName | null;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  /** Simulator clock (epoch ms) when the request was answered. */
  at: number;
}

/** Per-operation queues of faults, each applying to a number of calls. */
export class FaultQueue {
  private readonly queues = new Map<OperationName, Array<{ fault: Fault; remaining: number }>>();

  /** Queues `fault` for the next `times` calls of `operation`. */
  inject(operation: OperationName, fault: Fault, times = 1): void {
    if (!Number.isInteger(times) || times < 1) throw new RangeError('times must be a positive integer');
    const queue = this.queues.get(operation) ?? [];
    queue.push({ fault, remaining: times });
    this.queues.set(operation, queue);
  }

  private outageUntil = 0;

  /** Every call answers 503 until `untilMs` (real time, performance.now()); 0 ends an outage. */
  setOutage(untilMs: number): void {
    this.outageUntil = untilMs;
  }

  /** Takes the fault for one call of `operation`, if any (an outage first). */
  take(operation: OperationName): Fault | undefined {
    if (performance.now() < this.outageUntil) return { status: 503 };
    const queue = this.queues.get(operation);
    const head = queue?.[0];
    if (!queue || !head) return undefined;
    head.remaining -= 1;
    if (head.remaining === 0) queue.shift();
    return head.fault;
  }

  /** Removes every queued fault. */
  clear(): void {
    this.queues.clear();
    this.outageUntil = 0;
  }
}

/** Sliding one-second window limiter on real monotonic time (not the simulator clock). */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit = 50,
    private readonly windowMs = 1000,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Records a hit for `key` and says whether it is within the limit (refused hits are not counted). */
  allow(key: string): boolean {
    const now = this.clock();
    const recent = (this.hits.get(key) ?? []).filter((at) => now - at < this.windowMs);
    const allowed = recent.length < this.limit;
    if (allowed) recent.push(now);
    this.hits.set(key, recent);
    return allowed;
  }
}

/** What the server needs from the simulator. */
export interface ServerDeps {
  state: SimState;
  faults: FaultQueue;
  rateLimiter: RateLimiter;
  log: RequestLogEntry[];
  /** Where one line per request goes; undefined keeps the server quiet. */
  print?: (line: string) => void;
}

const MAX_BODY_BYTES = 1024 * 1024;
const NOT_FOUND_ROUTE = { success: false, message: 'Not found' };

/** Creates (does not start) the simulator's HTTP server; `dispose` cancels pending fault delays. */
export function createSimulatorServer(deps: ServerDeps): { server: Server; dispose: () => void } {
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const server = createServer((req, res) => {
    handle(deps, sleep, req, res).catch((error: unknown) => {
      deps.print?.(`simulator: unexpected error ${String(error)}`);
      if (!res.headersSent) send(res, errorResult(500));
    });
  });
  const dispose = (): void => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
  return { server, dispose };
}

async function handle(
  deps: ServerDeps,
  sleep: (ms: number) => Promise<void>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const url = new URL(req.url ?? '/', 'http://simulator.local');
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!(name in query)) query[name] = value;
  const raw = await readBody(req);
  const route = ROUTES.find((candidate) => candidate.method === req.method && candidate.path === url.pathname);

  const finish = (result: HandlerResult | 'destroy'): void => {
    // Neither a dropped connection nor one held open has answered: both are logged with status 0.
    const status = result === 'destroy' || result.hang ? 0 : result.status;
    deps.log.push({
      operation: route?.operation ?? null,
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      body: logBody(raw),
      status,
      at: deps.state.now(),
    });
    deps.print?.(
      `${req.method} ${url.pathname} → ${status || (result !== 'destroy' && result.hang ? 'held open, no answer' : 'socket destroyed')} (${Math.round(performance.now() - started)} ms)`,
    );
    if (result === 'destroy') req.socket.destroy();
    else if (!result.hang) send(res, result);
  };

  if (!route) return finish({ status: 404, body: NOT_FOUND_ROUTE });

  const fault = deps.faults.take(route.operation);
  if (fault?.delayMs) await sleep(fault.delayMs);
  if (fault && isAnswering(fault)) return finish(fault.destroySocket ? 'destroy' : faultResult(fault));

  const apiKey = typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined;
  if (route.rateLimited && !deps.rateLimiter.allow(`${route.operation}:${apiKey ?? ''}`))
    return finish(errorResult(429));
  finish(authorizeAndRun(deps.state, route, apiKey, query, raw));
}

/** 401, 403, body parsing, then the handler (its exceptions become 500). */
function authorizeAndRun(
  state: SimState,
  route: OperationRoute,
  apiKey: string | undefined,
  query: Record<string, string>,
  raw: string,
): HandlerResult {
  const key = apiKey === undefined ? undefined : state.apiKeys.get(apiKey);
  if (!key) return errorResult(401);
  if (route.permission && !key.permissions.includes(route.permission)) return errorResult(403);
  let body: unknown;
  if (route.method === 'POST' && raw.trim() !== '') {
    try {
      body = JSON.parse(raw);
    } catch {
      return validationFailed([{ field: 'body', messages: ['body must be valid JSON'] }]);
    }
  }
  try {
    state.advanceSwaps();
    return route.handler({ state, merchantId: key.merchantId, query, body });
  } catch {
    return errorResult(500);
  }
}

/** True when a fault replaces the answer (not only delays it). */
function isAnswering(fault: Fault): boolean {
  return (
    fault.destroySocket === true ||
    fault.malformedJson === true ||
    fault.status !== undefined ||
    fault.body !== undefined
  );
}

function faultResult(fault: Fault): HandlerResult {
  if (fault.malformedJson) {
    // Cut mid-document: valid JSON prefix, then the connection's body simply ends.
    return {
      status: fault.status ?? 200,
      rawBody: '{"id":"8c0b6a54-2f0e-4b7e-9a4c-1f3d2e5b6a7c","status":"succ',
      headers: { 'Content-Type': 'application/json; charset=utf-8', ...fault.headers },
    };
  }
  const status = fault.status ?? 500;
  const base = errorResult(status);
  const headers = { ...base.headers, ...fault.headers };
  if (typeof fault.body === 'string')
    return { status, rawBody: fault.body, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers } };
  return { status, body: fault.body === undefined ? errorBody(status) : fault.body, headers };
}

function send(res: ServerResponse, result: HandlerResult): void {
  const text =
    result.rawBody !== undefined ? result.rawBody : result.body === undefined ? '' : JSON.stringify(result.body);
  const headers: Record<string, string | number> = { 'Content-Length': Buffer.byteLength(text) };
  if (text !== '' && result.rawBody === undefined) headers['Content-Type'] = 'application/json; charset=utf-8';
  res.writeHead(result.status, { ...headers, ...result.headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Oversized bodies are cut; the JSON parse then fails with a 400, like a body-size limit would.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function logBody(raw: string): unknown {
  if (raw === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
