/**
 * How alerts reach Slack. The app and the tests build the poster the same way (createAlertSlackClient +
 * createAlertPoster), so the tests exercise the real posting path.
 */
import { webApi, type Logger as BoltLogger } from '@slack/bolt';
import type { Block } from '../blocks/common.js';

/** What is posted: the notification text, and blocks unless Slack refused them. */
export interface AlertMessage {
  text: string;
  blocks?: Block[];
}

/** Posts one alert; resolves only once Slack accepted it, throws otherwise (5xx, ratelimited, timeout, ok:false). */
export interface AlertPoster {
  post(channel: string, message: AlertMessage): Promise<void>;
}

/** The part of a WebClient the poster uses. */
export interface ChatPostClient {
  chat: { postMessage(args: { channel: string; text: string; blocks?: Block[]; unfurl_links?: boolean; unfurl_media?: boolean }): Promise<{ ok?: boolean; ts?: string }> };
}

/**
 * A WebClient for alerts: no retries (the next poll is the retry, and the alert waits in the outbox), a 429 is
 * thrown at once instead of pausing the client, and a call gives up after `timeoutMs`. A poll never hangs on Slack.
 */
export function createAlertSlackClient(options: { token: string; slackApiUrl?: string; timeoutMs?: number; logger?: BoltLogger }): webApi.WebClient {
  return new webApi.WebClient(options.token, {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 10_000,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/** Thrown without calling Slack while a channel is still inside the Retry-After that Slack asked for. */
export class SlackBackoffError extends Error {
  readonly code = 'slack_backoff';
  constructor(
    readonly channel: string,
    readonly waitMs: number,
  ) {
    super(`ratelimited (waiting ${Math.ceil(waitMs / 1000)} s more, as Slack asked)`);
    this.name = 'SlackBackoffError';
  }
}

/** Seconds Slack asked us to wait, when the error is its `ratelimited` answer. */
export function retryAfterSeconds(error: unknown): number | undefined {
  const e = error as { code?: unknown; retryAfter?: unknown };
  if (e.code !== 'slack_webapi_rate_limited_error') return undefined;
  return typeof e.retryAfter === 'number' && e.retryAfter >= 0 ? e.retryAfter : 1;
}

/**
 * Posts with chat.postMessage; link previews are off. When Slack answers `ratelimited`, that channel is left
 * alone until its Retry-After has passed: posts before then fail at once without reaching Slack.
 */
export function createAlertPoster(client: ChatPostClient, options: { nowMs?: () => number } = {}): AlertPoster {
  const nowMs = options.nowMs ?? Date.now;
  const blockedUntil = new Map<string, number>();
  return {
    async post(channel, message) {
      const until = blockedUntil.get(channel);
      if (until !== undefined && nowMs() < until) throw new SlackBackoffError(channel, until - nowMs());
      blockedUntil.delete(channel);
      try {
        const result = await client.chat.postMessage({
          channel,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
          unfurl_links: false,
          unfurl_media: false,
        });
        if (!result.ok || !result.ts) throw new Error('Slack did not confirm the message');
      } catch (error) {
        const seconds = retryAfterSeconds(error);
        if (seconds !== undefined) blockedUntil.set(channel, nowMs() + seconds * 1000);
        throw error;
      }
    },
  };
}

/** Slack errors that refuse this message's blocks (our fault, not Slack's state): retry as plain text. */
const REFUSED_CONTENT = new Set(['invalid_blocks', 'invalid_blocks_format', 'msg_too_long', 'msg_blocks_too_long', 'too_many_attachments']);

/** True when Slack refused the content of the message rather than failing. */
export function refusedContent(error: unknown): boolean {
  const slackError = (error as { data?: { error?: unknown } }).data?.error;
  return typeof slackError === 'string' && REFUSED_CONTENT.has(slackError);
}

/** A short reason for logs and `/treasury alerts`: the Slack error code, HTTP status, or network cause. Never a token. */
export function describeSlackError(error: unknown): string {
  const e = error as { code?: unknown; data?: { error?: unknown }; statusCode?: unknown; retryAfter?: unknown; original?: { message?: unknown; name?: unknown } };
  switch (e.code) {
    case 'slack_webapi_platform_error':
      return typeof e.data?.error === 'string' ? e.data.error : 'refused';
    case 'slack_webapi_rate_limited_error':
      return `ratelimited (retry after ${String(e.retryAfter)} s)`;
    case 'slack_backoff':
      return (error as Error).message;
    case 'slack_webapi_http_error':
      return `HTTP ${String(e.statusCode)}`;
    case 'slack_webapi_request_error': {
      const name = typeof e.original?.name === 'string' ? e.original.name : '';
      return name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : `network error${typeof e.original?.message === 'string' ? `: ${e.original.message}` : ''}`;
    }
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
