import type { ZodError } from 'zod';
import { CodedError, type ErrorCode } from '../kernel/errors.js';

/** Names of the 15 payment API operations, used in errors, logs and pacing. */
export type PaymentsOperation =
  | 'createInvoice'
  | 'createInvoiceByCrypto'
  | 'getInvoice'
  | 'getAsset'
  | 'listAssets'
  | 'getWithdrawal'
  | 'listWithdrawals'
  | 'estimateSwap'
  | 'createSwap'
  | 'getSwap'
  | 'createPayout'
  | 'listPayoutTasks'
  | 'getPayoutTask'
  | 'getDeposit'
  | 'listGasDistributions';

/** Stable codes a caller can branch on without instanceof (listed with their meaning in ERROR_CODES). */
export type PaymentsErrorCode = Extract<
  ErrorCode,
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'unexpected_response'
>;

/** Base class of every error the payments client throws. Carries no request headers, so no API key. */
export abstract class PaymentsError extends CodedError {
  declare readonly code: PaymentsErrorCode;
  /** True when the same request may succeed later without any change (429, 5xx, network). */
  abstract readonly transient: boolean;

  constructor(
    code: PaymentsErrorCode,
    readonly operation: PaymentsOperation,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(code, message, { ...options, context: { operation, status } });
    this.name = new.target.name;
  }
}

/** One field's messages from the 400 validation envelope. */
export interface FieldError {
  field: string;
  messages: string[];
}

/** 400: the API refused the input; `apiMessage` is its own text (e.g. `Balance not enough`). */
export class PaymentsValidationError extends PaymentsError {
  readonly transient = false;
  constructor(
    operation: PaymentsOperation,
    readonly apiMessage: string,
    readonly fieldErrors: FieldError[],
  ) {
    const details = fieldErrors.map((f) => `${f.field}: ${f.messages.join(', ')}`).join('; ');
    super('validation', operation, `${operation}: ${apiMessage}${details ? ` (${details})` : ''}`, 400);
  }
}

/** 401: the API key is missing or was rejected. */
export class PaymentsUnauthorizedError extends PaymentsError {
  readonly transient = false;
  constructor(operation: PaymentsOperation) {
    super('unauthorized', operation, `${operation}: the API key was rejected (401)`, 401);
  }
}

/** 403: the key is valid but lacks the permission this operation needs. */
export class PaymentsForbiddenError extends PaymentsError {
  readonly transient = false;
  constructor(
    operation: PaymentsOperation,
    /** The permission the operation needs, as docs/payments-api.md#authentication names it; undefined where it names none. */
    readonly permission: string | undefined,
  ) {
    super(
      'forbidden',
      operation,
      `${operation}: the API key lacks ${permission ? `the ${permission} permission` : 'a permission this needs'} (403)`,
      403,
    );
  }
}

/** 404: no such record for this merchant (the API does not distinguish unknown from foreign). */
export class PaymentsNotFoundError extends PaymentsError {
  readonly transient = false;
  constructor(operation: PaymentsOperation) {
    super('not_found', operation, `${operation}: not found for this merchant (404)`, 404);
  }
}

/** 429: too many requests; `retryAfterMs` is the server's Retry-After when it sent one. */
export class PaymentsRateLimitedError extends PaymentsError {
  readonly transient = true;
  constructor(
    operation: PaymentsOperation,
    readonly retryAfterMs: number | undefined,
  ) {
    super('rate_limited', operation, `${operation}: rate limited (429)`, 429);
  }
}

/** 5xx (or any status docs/payments-api.md#errors does not describe): the service failed. */
export class PaymentsServerError extends PaymentsError {
  readonly transient: boolean;
  constructor(
    operation: PaymentsOperation,
    status: number,
    readonly apiMessage: string | undefined,
  ) {
    super(
      'server',
      operation,
      `${operation}: the payment API failed with HTTP ${status}${apiMessage ? `: ${apiMessage}` : ''}`,
      status,
    );
    this.transient = status >= 500;
  }
}

/** The request never got an HTTP answer: timeout, refused connection, reset socket. */
export class PaymentsNetworkError extends PaymentsError {
  readonly transient = true;
  constructor(
    operation: PaymentsOperation,
    /** Node's error code, e.g. ETIMEDOUT, ECONNREFUSED, ECONNRESET. */
    readonly networkCode: string,
  ) {
    super('network', operation, `${operation}: could not reach the payment API (${networkCode})`);
  }
}

/** The API answered, but not in the shape docs/payments-api.md describes; `cause` keeps the ZodError. */
export class PaymentsUnexpectedResponseError extends PaymentsError {
  readonly transient = false;
  constructor(
    operation: PaymentsOperation,
    /** Dotted path of the first offending field, or `(body)` when the body is not JSON at all. */
    readonly field: string,
    status: number,
    cause?: ZodError | Error,
  ) {
    super(
      'unexpected_response',
      operation,
      `${operation}: unexpected response from the payment API at ${field}`,
      status,
      { cause },
    );
  }
}
