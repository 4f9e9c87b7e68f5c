/**
 * Errors, as bolt-js does them: one list of stable codes (ERROR_CODES), one coded error type carrying context
 * (CodedError, which every error class of the bot extends), and asCodedError to turn anything thrown into one.
 * Tests, logs and callers branch on `code`; a code is never renamed once given.
 */

/**
 * Every stable error code, with what it means. The families keep the codes they had before this list existed
 * (the payments client's, the amount parsers', the store's), so some are bare words; each is unique here.
 */
export const ERROR_CODES = {
  unknown: 'Something was thrown that carries none of these codes: a bug, or a failure nothing classifies.',

  // Told to the person in plain words (UserFacingError and its subclasses).
  user_facing: 'A problem told to the person in plain words, with no code of its own.',
  usage: 'What was typed after /treasury does not parse; the reply shows the usage line.',
  not_admin: 'The person is not a treasury admin, and only an admin may do this.',
  swap_above_maximum: 'The swap asked for is above SWAP_MAX_USD: no quote was made.',
  swap_above_daily_limit: 'The swap would go over SWAP_DAILY_LIMIT_USD in the last 24 hours: no quote was made.',
  frozen:
    'Money is frozen (`/treasury freeze`): no swap is requested or approved, no payout container created, until lifted.',
  quote_in_direct_message: 'A swap quote was asked for where it cannot be approved (a direct message).',
  create_not_recorded: 'The payment service answered a create, but the bot could not record the answer.',
  share_unconfirmed: 'Slack did not confirm the post of a shared copy: it may or may not be in the channel.',
  share_not_posted: 'Slack did not take a shared copy: nothing was posted in the channel.',

  // A rejected amount (AmountError).
  negative: 'The amount is below zero.',
  zero: 'The amount is zero: it must be greater than zero.',
  too_many_decimals: 'The amount has more decimals than the asset (or USD, in cents) allows.',
  exponent: 'The amount is written with an exponent (1e5), which is never guessed at.',
  too_large: 'The amount is larger than the bot accepts (for USD, one trillion dollars).',
  invalid: 'The amount is missing, or not a number.',

  // The payment API (PaymentsError and its subclasses).
  validation: 'The payment API refused the input (400); its own words are kept.',
  unauthorized: 'The payment API rejected the API key (401).',
  forbidden: 'The payment API key lacks a permission the operation needs (403).',
  not_found: 'The payment API has no such record for this merchant (404).',
  rate_limited: 'The payment API is rate limiting the bot (429).',
  server: 'The payment API failed on its side (5xx, or a status its docs do not describe).',
  network: 'The payment API gave no HTTP answer: a timeout, a refused connection or a reset socket.',
  unexpected_response: 'The payment API answered in a shape its docs do not describe; the ZodError is the cause.',

  // Slack: our own errors around the gateway and Socket Mode.
  slack_backoff: 'A call to Slack was not sent because the channel is inside the Retry-After Slack asked for.',
  slack_response_url_error: "A response_url did not take a reply (non-2xx), with Slack's error name when given.",
  slack_file_upload_error: "A file's bytes did not reach Slack's upload URL, or it refused them.",
  slack_socket_mode_refused: 'Slack refused the Socket Mode connection for good (app token, or Socket Mode off).',
  slack_socket_mode_no_hello: 'A Socket Mode attempt got no hello from Slack in time; another attempt follows.',

  // Slack: the codes Slack's own SDK gives its errors (@slack/web-api, Bolt's respond), kept by asCodedError.
  slack_webapi_platform_error: 'Slack answered ok:false; its error name (channel_not_found…) is in the context.',
  slack_webapi_rate_limited_error: 'Slack answered ratelimited, with the Retry-After it asked for.',
  slack_webapi_http_error: 'Slack answered a Web API call with an HTTP error status.',
  slack_webapi_request_error: 'A Web API call got no answer from Slack: a timeout or a network failure.',
  slack_bolt_respond_error: "Bolt's respond() got an HTTP error status from the response_url.",

  // The bot's storage (StoreError and the state file's errors).
  store: 'The store could not do what was asked (closed, locked, a record missing, damaged or already there).',
  storage_unavailable: "The bot's database could not be reached: nothing was written; try again later.",
  store_corrupt_state: 'The state file cannot be read as a whole: the store refuses to open and leaves it as it is.',
  store_damaged_record:
    'A stored record that a limit or a total needs cannot be decoded: the quote or approval it would judge is refused.',
  store_broken_before_begin: 'BEGIN failed on a broken database connection: nothing ran, so it may be tried again.',

  // Start-up and background work.
  config_invalid: 'The environment is unusable; one readable line per variable says why.',
  startup_failed: 'Start-up failed in a way a person can act on (a rejected token, a port in use…).',
  poll_aborted: 'The alert poll was stopped between two requests (shutdown).',

  // Secrets kept encrypted at rest (SecretBox).
  secret_unreadable:
    'A sealed secret could not be opened: another key (TOTP_ENCRYPTION_KEY changed), or the stored text was altered.',
} as const satisfies Record<string, string>;

/** One of the stable codes of ERROR_CODES. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** True when `code` is one of the stable codes of ERROR_CODES. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** What a CodedError carries besides its code and message: facts for the log, never a secret. */
export type ErrorContext = Readonly<Record<string, unknown>>;

/**
 * The one coded error type: a stable `code` from ERROR_CODES, a message, `context` (facts about this failure that
 * are safe to log) and, when it wraps another failure, `cause`. Every error class of the bot extends it.
 */
export class CodedError extends Error {
  /** The stable code, for branching, tests and logs. */
  readonly code: ErrorCode;
  /** Facts about this failure that are safe to log (no tokens, keys or request options). */
  readonly context: ErrorContext;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; context?: ErrorContext }) {
    super(message, options && 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    this.context = options?.context ?? {};
  }
}

/**
 * Turns anything thrown into a CodedError: a CodedError as it is; anything else wrapped, with the thrown value
 * as `cause` and its message as `error instanceof Error ? error.message : String(error)` would give it. A code
 * from ERROR_CODES that the value already carries (Slack's SDK errors, a store error from elsewhere) is kept;
 * otherwise the code is `unknown` and a foreign code (ECONNRESET…) goes into the context.
 */
export function asCodedError(thrown: unknown): CodedError {
  if (thrown instanceof CodedError) return thrown;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  const carried = typeof thrown === 'object' && thrown !== null ? (thrown as { code?: unknown }).code : undefined;
  if (isErrorCode(carried)) return new CodedError(carried, message, { cause: thrown, context: slackContext(thrown) });
  return new CodedError('unknown', message, {
    cause: thrown,
    context: carried === undefined ? {} : { foreignCode: String(carried) },
  });
}

/** The error name of Slack's ok:false answer, when the thrown value is one; the rest of its data stays in `cause`. */
function slackContext(thrown: unknown): ErrorContext {
  const slackError = (thrown as { data?: { error?: unknown } }).data?.error;
  return typeof slackError === 'string' ? { slackError } : {};
}

/**
 * A problem told to the person in plain words, with no technical detail (that goes to the log). Features,
 * parsers and listeners throw it (or a subclass); the failure view shows `mrkdwn` as is. `code` is stable, for
 * tests and logs.
 */
export class UserFacingError extends CodedError {
  constructor(
    /** mrkdwn, already escaped. */
    readonly mrkdwn: string,
    code: ErrorCode = 'user_facing',
    /** The plain message for logs and `toThrow`; the mrkdwn itself when not given. */
    message: string = mrkdwn,
  ) {
    super(code, message);
    this.name = 'UserFacingError';
  }
}

/** Stable machine-readable category of an `AmountError`. */
export type AmountErrorCode = Extract<
  ErrorCode,
  'negative' | 'zero' | 'too_many_decimals' | 'exponent' | 'too_large' | 'invalid'
>;

/**
 * A rejected amount; `reason` is a complete human sentence safe to post in Slack (what the person typed is
 * already quoted and escaped in it). Thrown by the amount parsers and by `toBaseUnits`.
 */
export class AmountError extends UserFacingError {
  /** Stable category, for code paths and tests. */
  declare readonly code: AmountErrorCode;
  /** Human sentence for the Slack user, e.g. "Amount must be greater than zero.". */
  readonly reason: string;

  constructor(code: AmountErrorCode, reason: string) {
    // The reason is mrkdwn already (what the person typed is escaped where it is quoted): never escape it twice.
    super(reason, code, reason);
    this.name = 'AmountError';
    this.reason = reason;
  }
}

/** Start-up failed in a way a person can act on (rejected token, port in use…). */
export class StartupError extends CodedError {
  constructor(message: string) {
    super('startup_failed', message);
    this.name = 'StartupError';
  }
}

/** The code of an error meaning the bot's own storage (its database) could not be reached: nothing was saved. */
export const STORAGE_UNAVAILABLE = 'storage_unavailable' satisfies ErrorCode;

/** True for an error whose `code` says the bot's storage could not be reached. */
export function isStorageUnavailable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === STORAGE_UNAVAILABLE;
}
