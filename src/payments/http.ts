import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { setTimeout as sleepFor } from 'node:timers/promises';
import got, { type Got, RequestError, type Response } from 'got';
import type { z } from 'zod';
import { type Logger, silentLogger } from '../logger.js';
import { type BotMetrics, statusClassOf } from '../metrics/index.js';
import {
  PaymentsError,
  PaymentsForbiddenError,
  PaymentsNetworkError,
  PaymentsNotFoundError,
  type PaymentsOperation,
  PaymentsRateLimitedError,
  PaymentsServerError,
  PaymentsUnauthorizedError,
  PaymentsUnexpectedResponseError,
  PaymentsValidationError,
} from './errors.js';
import { createPacer, type Pacer } from './pacer.js';
import { ValidationEnvelope } from './schemas.js';

/** What one endpoint function declares; `request()` does the rest. */
export interface RequestSpec<T> {
  operation: PaymentsOperation;
  method: 'GET' | 'POST';
  /** Path under the base URL, e.g. `2.0/swap/get`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: Record<string, unknown>;
  schema: z.ZodType<T, unknown>;
  /**
   * The spec does not show this response (create-payout): a 2xx body that is empty or not JSON reaches `schema`
   * as undefined instead of being an unexpected response, so the schema alone decides how to read it.
   */
  anyBody?: boolean;
}

/** Retry settings for reads; creates are never retried. */
export interface RetryPolicy {
  /** Total attempts for a read, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the rate-limit error is surfaced instead. */
  maxRetryAfterMs: number;
}

/** Options of the payments HTTP layer. */
export interface PaymentsHttpOptions {
  baseUrl: string;
  apiKey: string;
  /** Per-attempt timeout. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Shared by the rate-limited endpoints (task get, deposit get, gas list). */
  pacer?: Pacer;
  logger?: Logger;
  sleep?: (ms: number) => Promise<void>;
  /** Counts each attempt by operation and status class. */
  metrics?: Pick<BotMetrics, 'paymentsRequest'>;
}

/** Sends one declared request: pacing, retries for reads, error mapping and response validation. */
export type PaymentsRequest = <T>(spec: RequestSpec<T>) => Promise<T>;

const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 300, maxDelayMs: 5_000, maxRetryAfterMs: 30_000 };

/** The vendor's rate limit (50 req/s) applies to these three operations (docs/payments-api.md#rate-limits). */
const RATE_LIMITED_OPERATIONS = new Set<PaymentsOperation>(['getPayoutTask', 'getDeposit', 'listGasDistributions']);

/** The permission each operation needs, as docs/payments-api.md#authentication names it, for 403 messages. */
const REQUIRED_PERMISSION: Partial<Record<PaymentsOperation, string>> = {
  getWithdrawal: 'withdrawal',
  listWithdrawals: 'withdrawal',
  listPayoutTasks: 'can_payout',
  getPayoutTask: 'can_payout',
  createPayout: 'can_payout',
  getDeposit: 'can_invoice',
  listGasDistributions: 'can_invoice',
};

/**
 * How long to wait before retrying, or undefined to give up. Pure, so the policy is testable on its own.
 * Only reads are retried: a retried create-invoice, create-swap or create-payout could make two.
 */
export function paymentsRetryDelayMs(
  error: PaymentsError,
  method: 'GET' | 'POST',
  attempt: number,
  policy: RetryPolicy,
): number | undefined {
  if (method !== 'GET' || !error.transient || attempt >= policy.maxAttempts) return undefined;
  if (error instanceof PaymentsRateLimitedError && error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= policy.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
}

/** Parses a Retry-After header (whole seconds or an HTTP date) into milliseconds; anything else is ignored. */
export function parseRetryAfter(header: string | undefined, nowMs = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Only the HTTP date form (IMF-fixdate): Date.parse alone reads "1.5" or "-1" as dates long past.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function apiMessageOf(text: string): string | undefined {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const message = (parsed.value as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}

/** Turns a non-2xx answer into the typed error a caller can branch on. */
function errorForStatus(
  operation: PaymentsOperation,
  status: number,
  body: string,
  retryAfter: string | undefined,
): PaymentsError {
  switch (status) {
    case 400: {
      const parsed = parseJson(body);
      const envelope = ValidationEnvelope.safeParse(parsed.ok ? parsed.value : {});
      const message = (envelope.success && envelope.data.message) || 'The payment API rejected the request';
      return new PaymentsValidationError(operation, message, (envelope.success && envelope.data.errors) || []);
    }
    case 401:
      return new PaymentsUnauthorizedError(operation);
    case 403:
      return new PaymentsForbiddenError(operation, REQUIRED_PERMISSION[operation]);
    case 404:
      return new PaymentsNotFoundError(operation);
    case 429:
      return new PaymentsRateLimitedError(operation, parseRetryAfter(retryAfter));
    default:
      return new PaymentsServerError(operation, status, apiMessageOf(body));
  }
}

function validateBody<T>(spec: RequestSpec<T>, status: number, body: string): T {
  const parsed = parseJson(body);
  if (!parsed.ok && !spec.anyBody) {
    throw new PaymentsUnexpectedResponseError(spec.operation, '(body)', status, new Error('the body is not JSON'));
  }
  const result = spec.schema.safeParse(parsed.ok ? parsed.value : undefined);
  if (!result.success) {
    const first = result.error.issues[0];
    const field = first && first.path.length > 0 ? first.path.join('.') : '(root)';
    throw new PaymentsUnexpectedResponseError(spec.operation, field, status, result.error);
  }
  return result.data;
}

/**
 * got keeps the request options (and so the apiKey header) on its errors as an enumerable property that
 * util.inspect and JSON.stringify print. We never pass got errors on, but hide the options anyway in case
 * one escapes through a code path nobody foresaw.
 */
function hideRequestOptions(error: RequestError): RequestError {
  for (const key of ['options', 'request', 'response', 'timings'] as const) {
    if (Object.hasOwn(error, key)) {
      Object.defineProperty(error, key, { enumerable: false });
    }
  }
  return error;
}

/** Creates the one function through which every payment API call goes. */
export function createPaymentsRequest(options: PaymentsHttpOptions): PaymentsRequest {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const pacer = options.pacer ?? createPacer();
  const logger = options.logger ?? silentLogger;
  const sleep = options.sleep ?? ((ms: number) => sleepFor(ms));

  // Reads reuse connections to the API: a lookup costs one request, not a TCP (and TLS) handshake as well.
  // An idle socket is closed before the server would drop it: a second before the server's Keep-Alive
  // `timeout=` hint, after 15 s without one (longer than a request's own timeout, so it never cuts a request
  // short). A read that still meets a socket the server just closed fails as a network error and is retried.
  // Creates (POST) are never retried, so they always open a fresh connection: a stale socket must never turn a
  // create into "outcome unknown".
  const keepAlive = { keepAlive: true, keepAliveMsecs: 1_000, timeout: 15_000 };
  const readAgents = { http: new HttpAgent(keepAlive), https: new HttpsAgent(keepAlive) };
  const createAgents = { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };
  const http: Got = got.extend({
    prefixUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { apiKey: options.apiKey, accept: 'application/json', 'user-agent': 'treasury-slack-bot' },
    responseType: 'text',
    throwHttpErrors: false,
    // Retries are ours (paymentsRetryDelayMs): they know our error classes, pace each attempt, never touch creates.
    retry: { limit: 0 },
    timeout: { request: options.timeoutMs ?? 10_000 },
    hooks: { beforeError: [hideRequestOptions] },
  });

  const attemptOnce = async <T>(spec: RequestSpec<T>): Promise<T> => {
    const release = RATE_LIMITED_OPERATIONS.has(spec.operation) ? await pacer.acquire() : undefined;
    try {
      return await sendOnce(spec);
    } finally {
      release?.();
    }
  };

  const sendOnce = async <T>(spec: RequestSpec<T>): Promise<T> => {
    const searchParams = Object.fromEntries(
      Object.entries(spec.query ?? {}).filter((entry): entry is [string, string | number] => entry[1] !== undefined),
    );
    let response: Response<string>;
    try {
      response = await http<string>(spec.path, {
        method: spec.method,
        agent: spec.method === 'GET' ? readAgents : createAgents,
        searchParams,
        ...(spec.body === undefined ? {} : { json: spec.body }),
      });
    } catch (error) {
      const code = error instanceof RequestError ? error.code : 'EUNKNOWN';
      options.metrics?.paymentsRequest(spec.operation, 'network');
      throw new PaymentsNetworkError(spec.operation, code || 'EUNKNOWN');
    }
    const status = response.statusCode;
    options.metrics?.paymentsRequest(spec.operation, statusClassOf(status));
    if (status >= 200 && status < 300) return validateBody(spec, status, response.body);
    const retryAfter = response.headers['retry-after'];
    throw errorForStatus(spec.operation, status, response.body, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  };

  return async <T>(spec: RequestSpec<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      try {
        const result = await attemptOnce(spec);
        logger.debug('payments api call', {
          operation: spec.operation,
          attempt,
          ms: Math.round(performance.now() - started),
        });
        return result;
      } catch (error) {
        if (!(error instanceof PaymentsError)) throw error;
        const delay = paymentsRetryDelayMs(error, spec.method, attempt, policy);
        logger.debug('payments api call failed', {
          operation: spec.operation,
          attempt,
          code: error.code,
          status: error.status,
          retryInMs: delay,
        });
        if (delay === undefined) throw error;
        await sleep(delay);
      }
    }
  };
}
