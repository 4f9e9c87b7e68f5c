// What a handler returns, and the error bodies of the API. `body: undefined` means an empty body (docs/payments-api.md#errors:
// empty-body 404s); `rawBody` is sent verbatim (fault injection).

/** One field error of the validation envelope. */
export interface FieldError {
  field: string;
  messages: string[];
}

/** A response produced by a handler. */
export interface HandlerResult {
  status: number;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Never answer: the request is logged on arrival and its connection held until the simulator closes. */
  hang?: boolean;
}

/** 200 with a JSON body. */
export function ok(body: unknown): HandlerResult {
  return { status: 200, body };
}

/** 400 validation envelope with field errors. */
export function validationFailed(errors: FieldError[]): HandlerResult {
  return { status: 400, body: { success: false, message: 'Validation failed', statusCode: 400, errors } };
}

/** 400 carrying a business message (e.g. `Asset not found`) in the validation envelope. */
export function badRequest(
  message: string,
  options: { statusCode?: boolean; errors?: FieldError[] } = {},
): HandlerResult {
  // statusCode is "present in some responses" (docs/payments-api.md#errors): the swap business errors leave it out.
  const body =
    options.statusCode === false
      ? { success: false, message, errors: options.errors ?? [] }
      : { success: false, message, statusCode: 400, errors: options.errors ?? [] };
  return { status: 400, body };
}

/** 404 with an empty body (unknown or foreign withdrawals, swaps, tasks, deposits). */
export function notFoundEmpty(): HandlerResult {
  return { status: 404 };
}

/** Default error body for a status code (also used by injected faults that give no body). */
export function errorBody(status: number): unknown {
  switch (status) {
    case 400:
      return { success: false, message: 'Validation failed', statusCode: 400, errors: [] };
    case 401:
      return { success: false, message: 'Unauthorized', statusCode: 401 };
    case 403:
      return { success: false, message: 'Forbidden', statusCode: 403 };
    case 404:
      return undefined;
    case 429:
      return { success: false, message: 'Too many requests', statusCode: 429 };
    case 500:
      return { success: false, message: 'Internal server error', statusCode: 500 };
    default:
      return { success: false, message: status >= 500 ? 'Service unavailable' : 'Error', statusCode: status };
  }
}

/** A handler result for an error status with its default body (429 adds Retry-After). */
export function errorResult(status: number): HandlerResult {
  return { status, body: errorBody(status), ...(status === 429 ? { headers: { 'Retry-After': '1' } } : {}) };
}
