/**
 * Slack's answers, read in one place: what an error means (our content, a setting a person must fix, a
 * passing fault, a rate limit) and how to name it in a log line. Nothing here calls Slack.
 */
import { asCodedError, CodedError, type ErrorCode } from '../kernel/errors.js';

/** Thrown without calling Slack while a channel is still inside the Retry-After that Slack asked for. */
export class SlackBackoffError extends CodedError {
  declare readonly code: 'slack_backoff';
  constructor(
    readonly channel: string,
    readonly waitMs: number,
  ) {
    super('slack_backoff', `ratelimited (waiting ${Math.ceil(waitMs / 1000)} s more, as Slack asked)`, {
      context: { channel, waitMs },
    });
    this.name = 'SlackBackoffError';
  }
}

/** A response_url post that Slack did not take (non-2xx), with its HTTP status and Slack's error name when it gave one. */
export class ResponseUrlError extends CodedError {
  declare readonly code: 'slack_response_url_error';
  constructor(
    readonly statusCode: number,
    readonly slackError?: string,
  ) {
    super(
      'slack_response_url_error',
      `the response_url answered HTTP ${statusCode}${slackError ? ` (${slackError})` : ''}`,
      {
        context: { statusCode, slackError },
      },
    );
    this.name = 'ResponseUrlError';
  }
}

/**
 * A file's bytes that Slack's upload URL did not take: its HTTP status (anything but 200 is a failure, says Slack),
 * or no answer at all (a network failure or timeout, the `cause`). Either way that upload is over; a new one starts
 * with a new upload URL.
 */
export class FileUploadError extends CodedError {
  declare readonly code: 'slack_file_upload_error';
  constructor(
    readonly statusCode: number | undefined,
    cause?: unknown,
  ) {
    super(
      'slack_file_upload_error',
      statusCode === undefined
        ? `the file's bytes did not reach Slack's upload URL (${describeSlackError(cause)})`
        : `Slack's upload URL refused the file's bytes (HTTP ${statusCode})`,
      { cause, context: { statusCode } },
    );
    this.name = 'FileUploadError';
  }
}

// The WebClient's error codes (@slack/web-api ErrorCode), and Bolt's for respond().
const PLATFORM = 'slack_webapi_platform_error' satisfies ErrorCode;
const RATE_LIMITED = 'slack_webapi_rate_limited_error' satisfies ErrorCode;
const HTTP = 'slack_webapi_http_error' satisfies ErrorCode;
const REQUEST = 'slack_webapi_request_error' satisfies ErrorCode;
const RESPOND = 'slack_bolt_respond_error' satisfies ErrorCode;

/** Slack errors that refuse this message's blocks (our fault, not Slack's state): no retry helps, plain text may. */
const REFUSED_CONTENT = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'msg_blocks_too_long',
  'invalid_attachments',
  'too_many_attachments',
]);

/** Slack errors no retry will cure: a person must fix the channel, the token or the scopes. */
const NEEDS_A_PERSON = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'user_not_in_channel',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'missing_scope',
  'restricted_action',
  'not_allowed_token_type',
  // chat.postMessage: channels that take no posts from the bot (a setting, an admin, or the channel's kind).
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'ekm_access_denied',
  'no_permission',
  'access_denied',
  'enterprise_is_restricted',
  // Files (files.getUploadURLExternal, files.completeUploadExternal).
  'posting_to_channel_denied',
  'file_uploads_disabled',
  'file_uploads_except_images_disabled',
  'file_upload_size_restricted',
  'storage_limit_reached',
]);

/**
 * Why chat.postMessage refuses a channel for good, in plain words, and what a person does about it (keyed by Slack's
 * error code). Every code here is in NEEDS_A_PERSON: no retry fixes it.
 */
const POST_REFUSALS: Record<string, { what: string; fix: string }> = {
  is_archived: { what: 'the channel is archived', fix: 'unarchive it' },
  channel_not_found: {
    what: 'the channel does not exist, or it is private and the bot was not invited',
    fix: 'check the channel id, or invite the bot there (/invite @treasury)',
  },
  not_in_channel: { what: 'the bot is not in the channel', fix: 'invite the bot there (/invite @treasury)' },
  missing_scope: {
    what: 'the Slack app lacks a scope it needs to post there (chat:write, or chat:write.public)',
    fix: 'reinstall the app with the current manifest',
  },
  not_allowed_token_type: {
    what: 'SLACK_BOT_TOKEN is not a bot token',
    fix: "set SLACK_BOT_TOKEN to the installed app's bot token (xoxb-…)",
  },
  invalid_auth: { what: 'Slack rejects the bot token', fix: 'check SLACK_BOT_TOKEN' },
  not_authed: { what: 'Slack received no bot token', fix: 'check SLACK_BOT_TOKEN' },
  account_inactive: { what: 'the bot token belongs to a deleted app or workspace', fix: 'reinstall the app' },
  token_revoked: { what: 'the bot token was revoked (the app was removed)', fix: 'reinstall the app' },
  token_expired: { what: 'the bot token expired', fix: 'reinstall the app, or refresh its token' },
  restricted_action: {
    what: 'a workspace setting keeps the bot from posting there',
    fix: 'ask a Slack admin to let the app post there',
  },
  restricted_action_read_only_channel: {
    what: 'the channel is read-only',
    fix: 'let the app post there (channel settings)',
  },
  restricted_action_thread_only_channel: {
    what: 'the channel takes replies in threads only',
    fix: 'let the app post there (channel settings)',
  },
  restricted_action_non_threadable_channel: {
    what: 'the channel takes no thread replies',
    fix: 'let the app post there (channel settings)',
  },
  ekm_access_denied: {
    what: 'administrators have suspended posting there',
    fix: 'ask a Slack admin to restore it',
  },
  no_permission: { what: 'the app may not post there', fix: 'invite the bot there (/invite @treasury)' },
  access_denied: { what: 'Slack denies the app access to the channel', fix: 'ask a Slack admin to allow it' },
  enterprise_is_restricted: {
    what: 'the Enterprise organisation keeps the app from posting there',
    fix: 'ask a Slack admin to allow it',
  },
  user_not_in_channel: { what: 'the person is not in the channel', fix: 'invite them, or post elsewhere' },
};

/**
 * A refusal to post no retry fixes, in plain words with what a person does about it: `what` and `fix` for a code
 * Slack documents, the bare code otherwise (`what`, with no fix to offer).
 */
export function describePostRefusal(code: string): { what: string; fix?: string } {
  return Object.hasOwn(POST_REFUSALS, code) ? POST_REFUSALS[code]! : { what: `Slack answered ${code}` };
}

/** Why Slack refused to take or share a file, in words a person can act on (keyed by Slack's error code). */
const UPLOAD_REFUSALS: Record<string, string> = {
  missing_scope: 'the Slack app lacks the files:write scope; reinstall it with the current manifest',
  not_in_channel: 'the bot is not in the channel, and sharing a file needs it there; invite it (/invite @treasury)',
  channel_not_found: 'the channel does not exist, or it is private and the bot was not invited',
  posting_to_channel_denied: 'the bot may not post in the channel (archived, or posting restricted)',
  file_uploads_disabled: 'file uploads are turned off in this Slack workspace',
  file_uploads_except_images_disabled: 'this Slack workspace takes images only',
  file_upload_size_restricted: 'the file is larger than this Slack workspace allows',
  storage_limit_reached: "the Slack workspace's file storage is full",
  file_not_found: 'Slack did not find the uploaded file when asked to share it',
};

/**
 * views.open's refusals of a click's trigger_id, in plain words. A trigger opens one view, within 3 seconds of the
 * click: no retry can use it again, only a new click brings a new one. Nothing was opened.
 */
const TRIGGER_REFUSALS: Record<string, string> = {
  expired_trigger_id: 'more than 3 seconds passed since the click, so Slack would not open the form',
  exchanged_trigger_id: 'this click already opened a form; a click opens one',
  invalid_trigger_id: 'Slack did not recognise the click that was to open the form',
};

/** Tokens Slack refuses outright: the start-up check names SLACK_BOT_TOKEN for these. */
const REJECTED_TOKEN = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked']);

/**
 * ok:false answers that say Slack itself stumbled, not that the request was wrong. `fatal_error` is left out on
 * purpose: Slack says part of the operation may have happened, so a retry could post twice.
 */
const TRANSIENT_PLATFORM = new Set(['internal_error', 'service_unavailable']);

interface SlackErrorShape {
  code?: unknown;
  name?: unknown;
  data?: { error?: unknown; response_metadata?: { messages?: unknown } };
  statusCode?: unknown;
  retryAfter?: unknown;
  original?: { message?: unknown; name?: unknown };
}

const shape = (error: unknown): SlackErrorShape =>
  typeof error === 'object' && error !== null ? (error as SlackErrorShape) : {};

/** The `error` field of Slack's ok:false answer (`channel_not_found`…), when the error is one. */
export function slackErrorCode(error: unknown): string | undefined {
  const e = shape(error);
  return e.code === PLATFORM && typeof e.data?.error === 'string' ? e.data.error : undefined;
}

/** True when Slack refused the content of the message (blocks, length) rather than failing. */
export function refusedContent(error: unknown): boolean {
  const code = slackErrorCode(error);
  return code !== undefined && REFUSED_CONTENT.has(code);
}

/**
 * True when a response_url refused what it was sent (HTTP 400): Slack's webhook hosts answer 400 with the error
 * name (`invalid_blocks`, `no_text`…) for a payload they will not post. Bolt's respond() keeps only the status,
 * so any 400 counts; the same url takes a corrected post (a refused one does not use it up).
 */
export function responseUrlRefusedContent(error: unknown): boolean {
  const e = shape(error);
  return (e.code === RESPOND || e.code === 'slack_response_url_error') && e.statusCode === 400;
}

/**
 * True when views.open refused the click's trigger_id (`expired_trigger_id`, `exchanged_trigger_id`,
 * `invalid_trigger_id`): permanent for that click, never retried; the person has to click again.
 */
export function triggerRefused(error: unknown): boolean {
  const code = slackErrorCode(error);
  return code !== undefined && Object.hasOwn(TRIGGER_REFUSALS, code);
}

/** True when only a person can fix it: the channel, the bot's membership, the token or its scopes. */
export function needsAPerson(error: unknown): boolean {
  const code = slackErrorCode(error);
  return code !== undefined && NEEDS_A_PERSON.has(code);
}

/** Seconds Slack asked us to wait, when the error is its `ratelimited` answer (1 s when it named none). */
export function retryAfterSeconds(error: unknown): number | undefined {
  const e = shape(error);
  if (e.code !== RATE_LIMITED) return undefined;
  return typeof e.retryAfter === 'number' && e.retryAfter >= 0 ? e.retryAfter : 1;
}

/** The HTTP status of a failed call or response_url post, when there was an answer at all. */
function httpStatus(error: unknown): number | undefined {
  const e = shape(error);
  return typeof e.statusCode === 'number' ? e.statusCode : undefined;
}

/** True when the call never got an answer: a timeout or a network failure. */
function noAnswer(error: unknown): boolean {
  const e = shape(error);
  if (e.code === REQUEST) return true;
  // fetch rejects with a TypeError on a network failure; node:http (response_url posts) with a system error
  // (ECONNRESET, ECONNREFUSED…); both with a TimeoutError/AbortError on abort.
  return (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    error instanceof TypeError ||
    NETWORK_CODES.has(String(e.code))
  );
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
]);

/**
 * True for a failure that may pass by itself: Slack's 5xx or 408, `ratelimited` (also while we wait it out),
 * a timeout, a network failure, or an ok:false that says Slack stumbled. Refused content and errors that need
 * a person are never transient.
 */
export function isTransient(error: unknown): boolean {
  const e = shape(error);
  if (e.code === RATE_LIMITED || e.code === 'slack_backoff') return true;
  // Bytes that never reached the upload URL: a new upload may get through.
  if (e.code === 'slack_file_upload_error' && e.statusCode === undefined) return true;
  if (e.code === PLATFORM) return TRANSIENT_PLATFORM.has(slackErrorCode(error) ?? '');
  const status = httpStatus(error);
  if (status !== undefined) return status >= 500 || status === 429 || status === 408;
  return noAnswer(error);
}

/**
 * True when Slack may have done what was asked although the call failed: no answer came back (a timeout or a
 * network failure after sending), Slack answered 5xx, or `fatal_error` (Slack says part of it may have happened).
 * False when Slack said no (ok:false, `ratelimited`) or the call was never sent (our Retry-After wait).
 */
export function mayHaveHappened(error: unknown): boolean {
  const e = shape(error);
  if (e.code === 'slack_backoff' || e.code === RATE_LIMITED) return false;
  if (e.code === PLATFORM)
    return slackErrorCode(error) === 'fatal_error' || TRANSIENT_PLATFORM.has(slackErrorCode(error) ?? '');
  const status = httpStatus(error);
  if (status !== undefined) return status >= 500;
  // A timeout, a reset, or an error we cannot read: it may have reached Slack.
  return true;
}

/**
 * True when Slack answered a call with a failure that is its last word on it: an HTTP 5xx from Slack's servers, or
 * ok:false `internal_error`, `service_unavailable` or `fatal_error`. Part of the work may have been done (so it is
 * looked for before anything is sent again), but Slack is done with the request: what is not there now will not
 * appear later. False for no answer at all (a timeout, a dropped connection), and for 502 and 504, which a gateway
 * in front of Slack's servers sends when the server that has the request did not answer it in time: that server
 * may still be at work, as after a timeout.
 */
export function answeredWithFailure(error: unknown): boolean {
  const e = shape(error);
  if (e.code === PLATFORM) {
    const code = slackErrorCode(error) ?? '';
    return code === 'fatal_error' || TRANSIENT_PLATFORM.has(code);
  }
  if (e.code !== HTTP) return false;
  const status = httpStatus(error);
  return status !== undefined && status >= 500 && status !== 502 && status !== 504;
}

/** A short reason for logs and `/treasury alerts`: the Slack error code, HTTP status, or network cause. Never a token. */
export function describeSlackError(error: unknown): string {
  const e = shape(error);
  switch (e.code) {
    case PLATFORM: {
      const code = typeof e.data?.error === 'string' ? e.data.error : undefined;
      if (code === undefined) return 'refused';
      if (Object.hasOwn(TRIGGER_REFUSALS, code)) return `${code} (${TRIGGER_REFUSALS[code]})`;
      // A view Slack refused names the broken fields in `[ERROR] … [json-pointer:…]` lines: say which.
      const lines = e.data?.response_metadata?.messages;
      if (code === 'invalid_arguments' && Array.isArray(lines) && lines.length > 0)
        return `${code} (${lines.map(String).join('; ').slice(0, 300)})`;
      return code;
    }
    case RATE_LIMITED:
      return `ratelimited (retry after ${String(e.retryAfter)} s)`;
    case 'slack_backoff':
      return (error as Error).message;
    case HTTP:
    case RESPOND:
      return `HTTP ${String(e.statusCode)}`;
    case 'slack_response_url_error': {
      const slackError = (error as ResponseUrlError).slackError;
      return `HTTP ${String(e.statusCode)}${slackError ? ` (${slackError})` : ''}`;
    }
    case REQUEST: {
      const name = typeof e.original?.name === 'string' ? e.original.name : '';
      return name === 'TimeoutError' || name === 'AbortError'
        ? 'timeout'
        : `network error${typeof e.original?.message === 'string' ? `: ${e.original.message}` : ''}`;
    }
    default:
      if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout';
      return asCodedError(error).message;
  }
}

/**
 * Why a file upload failed, in plain words (with Slack's code for the log): a refusal a person can act on, Slack's
 * upload URL refusing the bytes, or any other failure as describeSlackError names it.
 */
export function describeUploadFailure(error: unknown): string {
  const code = slackErrorCode(error);
  if (code !== undefined && Object.hasOwn(UPLOAD_REFUSALS, code)) return `${UPLOAD_REFUSALS[code]} (${code})`;
  return describeSlackError(error);
}

/** Why the start-up token check (auth.test) failed, in one line a person can act on. */
export function describeSlackStartupFailure(error: unknown): string {
  const slackError = shape(error).data?.error;
  if (typeof slackError === 'string' && REJECTED_TOKEN.has(slackError)) {
    return `Slack rejected SLACK_BOT_TOKEN (${slackError}). Check the bot token of the installed app.`;
  }
  if (typeof slackError === 'string') return `Slack refused to start the app: ${slackError}.`;
  return `Could not reach Slack to check the bot token: ${asCodedError(error).message}.`;
}
