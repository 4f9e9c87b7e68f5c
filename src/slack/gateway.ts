/**
 * The one place the bot speaks to Slack: messages in channels, private notices and replies to a response_url,
 * all under one retry policy. The WebClient underneath never retries or waits by itself, so every decision
 * about a failure is made here, where it can be read and tested.
 */
import http from 'node:http';
import https from 'node:https';
import { webApi, type Logger as BoltLogger, type RespondArguments, type RespondFn, type types } from '@slack/bolt';
import { errorFields, silentLogger, type Logger } from '../logger.js';
import { describeSlackError, isTransient, needsAPerson, refusedContent, ResponseUrlError, retryAfterSeconds, SlackBackoffError } from './errors.js';

// Block Kit as Bolt types it (the same type the builders in src/blocks use), so the gateway depends on no folder of ours.
type Block = types.KnownBlock;

/** What is posted: the notification text, and blocks unless Slack refused them. */
export interface SlackMessageContent {
  text: string;
  blocks?: Block[];
}

/** A reply to a command or click: text (the notification line) and optional blocks, as the builders make them. */
export type Reply = RespondArguments & { text: string; blocks?: unknown[] };

/** Where a reply goes when its response_url fails: a private message to `userId` (or the channel, for `in_channel`). */
export interface ReplyFallback {
  channelId: string | undefined;
  userId: string;
}

/** How one call may handle a failure. */
export interface CallOptions {
  /**
   * false: one attempt, and a channel inside its Retry-After is not called at all; the caller keeps the message
   * and tries later (the poller: a poll must never hang on Slack). Default true: retry and wait per the policy.
   */
  wait?: boolean;
}

/** Options of a new message. */
export interface PostOptions extends CallOptions {
  /** false turns link and media previews off (alerts carry explorer links that would unfurl into clutter). */
  unfurl?: boolean;
  /** Posts the message as a reply in the thread of the channel's message with this ts. */
  threadTs?: string;
}

/** Talks to Slack. Every method throws Slack's own error (or SlackBackoffError) when the message did not go out. */
export interface SlackGateway {
  /** chat.postMessage; resolves with the new message's ts. */
  post(channel: string, message: SlackMessageContent, options?: PostOptions): Promise<string>;
  /** chat.update of one of the bot's messages. */
  update(channel: string, ts: string, message: SlackMessageContent, options?: CallOptions): Promise<void>;
  /** chat.postEphemeral: a message only `user` sees. */
  postEphemeral(channel: string, user: string, message: SlackMessageContent, options?: CallOptions): Promise<void>;
  /**
   * Delivers a reply through a response_url (Bolt's respond() or the url itself), retrying a transient failure
   * within the url's few uses; if it still fails, or is used up or expired, the reply goes out as a message
   * instead: privately for an ephemeral or replacing reply, in the channel for an `in_channel` one. Never throws:
   * a reply that cannot be delivered at all is logged.
   */
  respond(via: RespondFn | string, reply: Reply, fallback: ReplyFallback): Promise<void>;
  /** Any other Web API call (the start-up auth.test), under the same policy; a rate limit holds back only this method. */
  run<T>(method: string, send: () => Promise<T>): Promise<T>;
}

/** The one retry policy for everything the bot sends to Slack. */
export interface SlackRetryPolicy {
  /** Retries of a transient failure (5xx, timeout, network, ratelimited) for a call that may wait. */
  retries: number;
  /** Delay before retry n: baseDelayMs · 2^(n-1), at most maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest Retry-After a waiting call sits out; when Slack asks for longer, the call fails at once. */
  maxWaitMs: number;
  /** Posts to one response_url per reply: Slack takes five per url, and a flow may need the rest for follow-ups. */
  responseUrlAttempts: number;
  /** A response_url post given as a url (not Bolt's respond()) gives up after this long. */
  responseUrlTimeoutMs: number;
}

/** Two retries half a second and a second apart, as Bolt's client was configured before, and Retry-After up to 30 s. */
export const SLACK_RETRY_POLICY: SlackRetryPolicy = {
  retries: 2,
  baseDelayMs: 500,
  maxDelayMs: 5_000,
  maxWaitMs: 30_000,
  responseUrlAttempts: 3,
  responseUrlTimeoutMs: 10_000,
};

/** The delay before retry `n` (1-based). */
export function retryDelayMs(policy: SlackRetryPolicy, n: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
}

/** A call's fate after a failure: give up, retry after a delay, or retry once the channel's Retry-After is over. */
export type FailureDecision = { retry: false } | { retry: true; delayMs: number } | { retry: true; afterRetryAfter: true };

/** The policy as a pure function: what to do after failed attempt `attempt` (0-based) of a call. */
export function decideAfterFailure(policy: SlackRetryPolicy, error: unknown, attempt: number, wait: boolean): FailureDecision {
  if (!wait || attempt >= policy.retries) return { retry: false };
  if (refusedContent(error) || needsAPerson(error) || !isTransient(error)) return { retry: false };
  const seconds = retryAfterSeconds(error);
  if (seconds === undefined) return { retry: true, delayMs: retryDelayMs(policy, attempt + 1) };
  return seconds * 1000 <= policy.maxWaitMs ? { retry: true, afterRetryAfter: true } : { retry: false };
}

/**
 * WebClient options that leave every decision to the gateway: no retries of its own (its default retries for
 * about 30 minutes and would hide a dead Slack), a 429 thrown at once instead of pausing every call, and a
 * timeout per call. Bolt's own client is built with these too, so nothing else waits behind our back.
 */
export function slackClientOptions(options: { slackApiUrl?: string; timeoutMs?: number; logger?: BoltLogger } = {}): webApi.WebClientOptions {
  return {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 10_000,
    ...(options.logger ? { logger: options.logger } : {}),
  };
}

/** A WebClient configured by {@link slackClientOptions}. */
export function createSlackWebClient(options: { token: string; slackApiUrl?: string; timeoutMs?: number; logger?: BoltLogger }): webApi.WebClient {
  return new webApi.WebClient(options.token, slackClientOptions(options));
}

type Answer = { ok?: boolean; ts?: string };

/** The part of a WebClient the gateway uses. */
export interface SlackChatClient {
  chat: {
    postMessage(args: { channel: string; text: string; blocks?: Block[]; unfurl_links?: boolean; unfurl_media?: boolean; thread_ts?: string }): Promise<Answer>;
    update(args: { channel: string; ts: string; text: string; blocks?: Block[] }): Promise<Answer>;
    postEphemeral(args: { channel: string; user: string; text: string; blocks?: Block[] }): Promise<Answer>;
  };
}

/** What the gateway is built from; everything but the client has a default. */
export interface SlackGatewayOptions {
  client: SlackChatClient;
  /** The clock Retry-After is measured on. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  logger?: Logger;
  policy?: Partial<SlackRetryPolicy>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Replies to response_urls reuse connections (Slack's hooks host is the same for every reply): a reply costs one
// request, not a TCP and TLS handshake as well. node:http is used rather than fetch (which Bolt's respond() uses):
// it costs a fraction of the CPU and memory per request, and replies are the bulk of what the bot sends.
const responseUrlAgents = {
  'http:': new http.Agent({ keepAlive: true, keepAliveMsecs: 1_000, timeout: 15_000, maxSockets: 16 }),
  'https:': new https.Agent({ keepAlive: true, keepAliveMsecs: 1_000, timeout: 15_000 }),
};

/** POSTs a reply to a response_url, as Bolt's respond() does, but over a kept-alive connection and with a timeout. */
function postToResponseUrl(url: string, reply: Reply, timeoutMs: number): Promise<void> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
  if (transport === undefined) return Promise.reject(new Error(`a response_url must be http(s), not ${target.protocol}`));
  const body = Buffer.from(JSON.stringify(reply));
  return new Promise<void>((resolve, reject) => {
    const request = transport.request(
      target,
      {
        method: 'POST',
        agent: responseUrlAgents[target.protocol as 'http:' | 'https:'],
        headers: { 'content-type': 'application/json', 'content-length': body.length },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        // Drain the body so the connection can be reused; its content says nothing the status does not.
        response.resume();
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new ResponseUrlError(status));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Builds the gateway. One per process: the channels' Retry-After waits live in it. */
export function createSlackGateway(options: SlackGatewayOptions): SlackGateway {
  const client = options.client;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const logger = options.logger ?? silentLogger;
  const policy: SlackRetryPolicy = { ...SLACK_RETRY_POLICY, ...options.policy };
  // After `ratelimited`, the channel (or method) is left alone until this time, whoever calls.
  const blockedUntil = new Map<string, number>();

  const blockedFor = (scope: string): number => {
    const until = blockedUntil.get(scope);
    if (until === undefined) return 0;
    const left = until - now();
    if (left <= 0) blockedUntil.delete(scope);
    return Math.max(0, left);
  };

  /**
   * One call under the policy. `scope` is what a Retry-After holds back: the channel for chat methods (Slack
   * limits posting per channel), the method otherwise. `method` names the call in the log.
   */
  async function call<T>(method: string, scope: string, wait: boolean, send: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const blocked = blockedFor(scope);
      if (blocked > 0) {
        if (!wait || blocked > policy.maxWaitMs) throw new SlackBackoffError(scope, blocked);
        await sleep(blocked);
      }
      try {
        const result = await send();
        blockedUntil.delete(scope);
        return result;
      } catch (error) {
        const seconds = retryAfterSeconds(error);
        if (seconds !== undefined) blockedUntil.set(scope, now() + seconds * 1000);
        const decision = decideAfterFailure(policy, error, attempt, wait);
        if (!decision.retry) throw error;
        logger.warn(`slack: ${method} failed; trying again`, { scope, reason: describeSlackError(error), attempt: attempt + 1 });
        // After `ratelimited` the wait happens at the top of the loop, where every caller honours the channel's block.
        if ('delayMs' in decision) await sleep(decision.delayMs);
      }
    }
  }

  const content = (message: SlackMessageContent) => ({ text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) });

  const gateway: SlackGateway = {
    async post(channel, message, postOptions = {}) {
      return call('chat.postMessage', channel, postOptions.wait ?? true, async () => {
        const answer = await client.chat.postMessage({
          channel,
          ...content(message),
          ...(postOptions.unfurl === false ? { unfurl_links: false, unfurl_media: false } : {}),
          ...(postOptions.threadTs !== undefined ? { thread_ts: postOptions.threadTs } : {}),
        });
        if (!answer.ok || !answer.ts) throw new Error('Slack accepted the message but returned no ts');
        return answer.ts;
      });
    },

    async update(channel, ts, message, callOptions = {}) {
      await call('chat.update', channel, callOptions.wait ?? true, () => client.chat.update({ channel, ts, ...content(message) }));
    },

    async postEphemeral(channel, user, message, callOptions = {}) {
      await call('chat.postEphemeral', channel, callOptions.wait ?? true, () => client.chat.postEphemeral({ channel, user, ...content(message) }));
    },

    async respond(via, reply, fallback) {
      const send = typeof via === 'string' ? (r: Reply) => postToResponseUrl(via, r, policy.responseUrlTimeoutMs) : via;
      let lastError: unknown;
      for (let attempt = 1; attempt <= policy.responseUrlAttempts; attempt++) {
        try {
          await send(reply);
          return;
        } catch (error) {
          lastError = error;
          // A 404 means the url is used up or expired: another post there cannot succeed.
          if (!isTransient(error) || attempt === policy.responseUrlAttempts) break;
          await sleep(retryDelayMs(policy, attempt));
        }
      }
      logger.warn('the response_url did not take the reply; sending it as a message instead', { reason: describeSlackError(lastError), error: errorFields(lastError) });
      if (fallback.channelId === undefined) {
        logger.error('could not deliver a reply: no response_url and no channel to fall back to', { userId: fallback.userId });
        return;
      }
      const message = { text: reply.text, ...(reply.blocks ? { blocks: reply.blocks as Block[] } : {}) };
      try {
        if (reply.response_type === 'in_channel') await gateway.post(fallback.channelId, message);
        else await gateway.postEphemeral(fallback.channelId, fallback.userId, message);
      } catch (error) {
        logger.error('could not deliver a reply to Slack at all', { reason: describeSlackError(error), error: errorFields(error) });
      }
    },

    run(method, send) {
      // Method names contain a dot and channel ids never do, so the two kinds of scope cannot collide.
      return call(method, method, true, send);
    },
  };
  return gateway;
}
