/**
 * The one place the bot speaks to Slack: messages in channels, private notices and replies to a response_url,
 * all under one retry policy. The WebClient underneath never retries or waits by itself, so every decision
 * about a failure is made here, where it can be read and tested.
 */
import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { type Logger as BoltLogger, type RespondArguments, type RespondFn, type types, webApi } from '@slack/bolt';
import { errorFields, type Logger, silentLogger } from '../logger.js';
import {
  describeSlackError,
  FileUploadError,
  isTransient,
  mayHaveHappened,
  needsAPerson,
  ResponseUrlError,
  refusedContent,
  responseUrlRefusedContent,
  retryAfterSeconds,
  SlackBackoffError,
  slackErrorCode,
} from './errors.js';
import { plainTextOf } from './plain-text.js';

// Block Kit as Bolt types it (the same type the builders in src/blocks use), so the gateway depends on no folder of ours.
type Block = types.KnownBlock;

/** What is posted: the notification text, and blocks (and attachments) unless Slack refused them. */
export interface SlackMessageContent {
  text: string;
  blocks?: Block[];
  /** Secondary content beside a colour bar (alerts: red while open, green once resolved). */
  attachments?: MessageAttachment[];
}

/** An attachment as the builders make them: a colour bar beside Block Kit blocks. */
export interface MessageAttachment {
  /** `#RRGGBB`. */
  color: string;
  blocks: Block[];
  /** Shown where the attachment cannot be (notifications). */
  fallback?: string;
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
  /**
   * Slack message metadata: an event type and a small JSON payload stored with the message, so that a post whose
   * answer was lost can be found again (see findPosted).
   */
  metadata?: MessageMetadata;
}

/** Message metadata as Slack stores it with a message. */
export interface MessageMetadata {
  event_type: string;
  event_payload: Record<string, string | number | boolean>;
}

/** Which post to look for: its metadata event type and `key`, posted at or after `since` (our clock), maybe in a thread. */
export interface PostedQuery {
  eventType: string;
  key: string;
  since: Date;
  threadTs?: string;
}

/**
 * Talks to Slack. Every method throws Slack's own error (or SlackBackoffError) when the message did not go out.
 * A message whose content Slack refuses (`invalid_blocks`, `msg_too_long`…) goes out again as plain text with the
 * same facts (see plain-text.ts): a refusal for what a message looks like never loses what it says.
 */
export interface SlackGateway {
  /**
   * chat.postMessage; resolves with the new message's ts. Never sent twice: after a failure that may have posted
   * (a timeout, a lost answer, a 5xx) it throws, and `mayHaveHappened(error)` tells the caller to say so.
   */
  post(channel: string, message: SlackMessageContent, options?: PostOptions): Promise<string>;
  /** chat.update of one of the bot's messages. */
  update(channel: string, ts: string, message: SlackMessageContent, options?: CallOptions): Promise<void>;
  /** chat.postEphemeral: a message only `user` sees. */
  postEphemeral(channel: string, user: string, message: SlackMessageContent, options?: CallOptions): Promise<void>;
  /**
   * Delivers a reply through a response_url (Bolt's respond() or the url itself), retrying a transient failure
   * within the url's few uses and sending plain text when the url refuses the content (HTTP 400); if it still
   * fails, or is used up or expired, the reply goes out as a message
   * instead: privately for an ephemeral or replacing reply, in the channel for an `in_channel` one. Never throws:
   * a reply that cannot be delivered at all is logged.
   */
  respond(via: RespondFn | string, reply: Reply, fallback: ReplyFallback): Promise<void>;
  /**
   * The ts of the bot's message in `channel` (or in the thread `threadTs`) whose metadata carries `key`, posted since
   * `query.since` less a margin for clocks; undefined when there is none. Reads conversations.history (or
   * conversations.replies) with metadata, a bounded number of pages. Throws Slack's error when it cannot read
   * (`missing_scope`, `not_in_channel`…: see needsAPerson) or Slack fails.
   */
  findPosted(channel: string, query: PostedQuery, options?: CallOptions): Promise<string | undefined>;
  /** conversations.join: the bot joins a public channel (needs `channels:join`). Throws Slack's error otherwise. */
  join(channel: string): Promise<void>;
  /**
   * conversations.open with one user: the id (`D…`) of the bot's direct message with `userId`, opened when there is
   * none yet (scope `im:write`). Repeatable (opening an open DM returns it), so retried under the policy. A DM is
   * where the bot tells one person something privately (an invoice that changed, an audit file). Throws Slack's
   * error (`user_not_found`, `user_disabled`, `missing_scope`…) otherwise.
   */
  openDirectMessage(userId: string, options?: CallOptions): Promise<string>;
  /**
   * views.open: opens a modal for the person whose click (or command) carried `triggerId`; resolves with the new
   * view's id. One attempt, never retried: a trigger_id opens one view within 3 seconds of the click, so a retry
   * could only be refused (`expired_trigger_id`, `exchanged_trigger_id`: see triggerRefused) or open the form twice.
   * A method inside its Retry-After is not called at all (SlackBackoffError).
   */
  openView(triggerId: string, view: object): Promise<{ viewId: string }>;
  /**
   * views.publish: `view` (type `home`) becomes the Home tab of `userId`. With `hash` (the one Slack gave the last
   * view it published, or the one app_home_opened carried), Slack refuses a publish over a view that changed since:
   * that is answered `{ conflict: true }` (nothing published), not thrown. Otherwise resolves with the new view's
   * hash, to pass next time. Repeatable (the same view twice is one view), so retried under the policy; Slack rates
   * the method per person, so a Retry-After holds back that person's Home only. Throws Slack's other errors.
   */
  publishHome(
    userId: string,
    view: object,
    options?: { hash?: string } & CallOptions,
  ): Promise<{ hash?: string } | { conflict: true }>;
  /**
   * chat.getPermalink: a link to the message `ts` in `channel` (a thread reply's link opens its thread). Read-only,
   * so retried under the policy. Throws Slack's error (`channel_not_found`, `message_not_found`…) otherwise.
   */
  permalink(channel: string, ts: string, options?: CallOptions): Promise<string>;
  /**
   * usergroups.users.list: the user ids in the user group `groupId` (`S…`; scope `usergroups:read`). Without
   * `include_disabled`, so a disabled group makes nobody an approver. Read-only, so retried under the policy. Throws Slack's error (`no_such_subteam`, `missing_scope`, `plan_upgrade_required`…) otherwise.
   */
  groupMembers(groupId: string, options?: CallOptions): Promise<string[]>;
  /**
   * Uploads a file and shares it in `channel` (in the thread of `threadTs` when given) as Slack's upload flow has it:
   * files.getUploadURLExternal, the bytes POSTed to the upload URL, files.completeUploadExternal. Scope
   * `files:write`, and the bot must be in the channel (`not_in_channel` otherwise: chat:write.public does not cover
   * files). Getting a URL and sending the bytes are retried together under the policy (each try with a new URL: an
   * upload never completed is discarded by Slack); completing shares the file, once, so it is not sent twice after a
   * failure that may have shared it (mayHaveHappened). Throws Slack's error, or a FileUploadError;
   * describeUploadFailure words either.
   */
  uploadFile(upload: FileUpload): Promise<{ fileId: string }>;
  /** Any other Web API call (the start-up auth.test), under the same policy; a rate limit holds back only this method. */
  run<T>(method: string, send: () => Promise<T>): Promise<T>;
}

/** A file to upload and share (see SlackGateway.uploadFile). */
export interface FileUpload {
  channel: string;
  /** Shares the file as a reply in this message's thread (a parent's ts, never a reply's). */
  threadTs?: string;
  /** With its extension: Slack tells the file's type by it (`balances.png`). */
  filename: string;
  title: string;
  /** The content: bytes in memory, or a file on disk of `length` bytes, streamed from disk at each try (large files). */
  bytes: Buffer | FileOnDisk;
  /** The image described for screen readers (at most 1,000 characters). */
  altText?: string;
  /** The text of the message that shares the file. */
  initialComment?: string;
}

/** A file to upload from disk (the audit export's CSV): Slack needs its length before the bytes. */
export interface FileOnDisk {
  path: string;
  length: number;
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
export function slackRetryDelayMs(policy: SlackRetryPolicy, n: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
}

/** A call's fate after a failure: give up, retry after a delay, or retry once the channel's Retry-After is over. */
export type FailureDecision =
  | { retry: false }
  | { retry: true; delayMs: number }
  | { retry: true; afterRetryAfter: true };

/**
 * The policy as a pure function: what to do after failed attempt `attempt` (0-based) of a call. `repeatable`
 * false is for a call that must not be carried out twice (chat.postMessage: a second post is a second message):
 * it is retried only when Slack certainly did not carry it out (`ratelimited`, our own Retry-After wait), never
 * after a timeout, a lost answer or a 5xx, which do not mean that nothing was posted.
 */
export function decideAfterFailure(
  policy: SlackRetryPolicy,
  error: unknown,
  attempt: number,
  wait: boolean,
  repeatable = true,
): FailureDecision {
  if (!wait || attempt >= policy.retries) return { retry: false };
  if (refusedContent(error) || needsAPerson(error) || !isTransient(error)) return { retry: false };
  if (!repeatable && mayHaveHappened(error)) return { retry: false };
  const seconds = retryAfterSeconds(error);
  if (seconds === undefined) return { retry: true, delayMs: slackRetryDelayMs(policy, attempt + 1) };
  return seconds * 1000 <= policy.maxWaitMs ? { retry: true, afterRetryAfter: true } : { retry: false };
}

/**
 * WebClient options that leave every decision to the gateway: no retries of its own (its default retries for
 * about 30 minutes and would hide a dead Slack), a 429 thrown at once instead of pausing every call, and a
 * timeout per call. Bolt's own client is built with these too, so nothing else waits behind our back.
 */
export function slackClientOptions(
  options: { slackApiUrl?: string; timeoutMs?: number; logger?: BoltLogger } = {},
): webApi.WebClientOptions {
  return {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 10_000,
    ...(options.logger ? { logger: options.logger } : {}),
  };
}

/** A WebClient configured by {@link slackClientOptions}. */
export function createSlackWebClient(options: {
  token: string;
  slackApiUrl?: string;
  timeoutMs?: number;
  logger?: BoltLogger;
}): webApi.WebClient {
  return new webApi.WebClient(options.token, slackClientOptions(options));
}

type Answer = { ok?: boolean; ts?: string };

/** A page of conversations.history / conversations.replies, as far as findPosted reads it. */
interface HistoryAnswer {
  ok?: boolean;
  messages?: {
    ts?: string;
    thread_ts?: string;
    bot_id?: string;
    metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
  }[];
  has_more?: boolean;
  response_metadata?: { next_cursor?: string };
}

type HistoryArgs = {
  channel: string;
  oldest?: string;
  limit?: number;
  cursor?: string;
  include_all_metadata?: boolean;
  inclusive?: boolean;
};

/** How far before `since` findPosted reads: our clock and Slack's may disagree by this much. */
const FIND_POSTED_MARGIN_MS = 5 * 60_000;
/** findPosted reads at most this many pages of 200 messages: the window since the first attempt is short. */
const FIND_POSTED_MAX_PAGES = 5;

/** The part of a WebClient the gateway uses. */
export interface SlackChatClient {
  chat: {
    postMessage(args: {
      channel: string;
      text: string;
      blocks?: Block[];
      unfurl_links?: boolean;
      unfurl_media?: boolean;
      thread_ts?: string;
      metadata?: MessageMetadata;
    }): Promise<Answer>;
    update(args: { channel: string; ts: string; text: string; blocks?: Block[] }): Promise<Answer>;
    postEphemeral(args: { channel: string; user: string; text: string; blocks?: Block[] }): Promise<Answer>;
    /** Only permalink uses it; a client without it cannot link to messages. */
    getPermalink?(args: { channel: string; message_ts: string }): Promise<{ ok?: boolean; permalink?: string }>;
  };
  /** Only openView and publishHome use it; a client without it cannot open modals. */
  views?: {
    open(args: { trigger_id: string; view: types.View }): Promise<{ ok?: boolean; view?: { id?: string } }>;
    /** Only publishHome uses it; a client without it cannot publish Home tabs. */
    publish?(args: {
      user_id: string;
      view: types.View;
      hash?: string;
    }): Promise<{ ok?: boolean; view?: { id?: string; hash?: string } }>;
  };
  /** Only findPosted and join use these; a client without them cannot look for lost posts. */
  conversations?: {
    history(args: HistoryArgs): Promise<HistoryAnswer>;
    replies(args: HistoryArgs & { ts: string }): Promise<HistoryAnswer>;
    join(args: { channel: string }): Promise<Answer>;
    /** Only openDirectMessage uses it. */
    open?(args: { users: string }): Promise<{ ok?: boolean; channel?: { id?: string } }>;
  };
  /** Only uploadFile uses these; a client without them cannot upload files. */
  files?: {
    getUploadURLExternal(args: {
      filename: string;
      length: number;
      alt_txt?: string;
    }): Promise<{ ok?: boolean; upload_url?: string; file_id?: string }>;
    completeUploadExternal(args: {
      files: [{ id: string; title?: string }, ...{ id: string; title?: string }[]];
      channel_id?: string;
      thread_ts?: string;
      initial_comment?: string;
    }): Promise<{ ok?: boolean }>;
  };
  /** Only groupMembers uses it; a client without it cannot read user groups. */
  usergroups?: {
    users: {
      list(args: { usergroup: string; include_disabled?: boolean }): Promise<{ ok?: boolean; users?: string[] }>;
    };
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
  if (transport === undefined)
    return Promise.reject(new Error(`a response_url must be http(s), not ${target.protocol}`));
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
        // Read the (short) body to the end so the connection can be reused; a refusal names Slack's error in it.
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= 4_096) chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new ResponseUrlError(status, slackErrorIn(Buffer.concat(chunks).toString('utf8'))));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Slack's error name in a response_url's answer (`{"ok":false,"error":"invalid_blocks"}` or the bare name). */
function slackErrorIn(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error.slice(0, 80) : undefined;
  } catch {
    return /^[a-z_]{1,80}$/.test(body.trim()) ? body.trim() : undefined;
  }
}

/** How long the bytes of one file may take to reach Slack's upload URL. */
const FILE_UPLOAD_TIMEOUT_MS = 30_000;

/**
 * POSTs a file's bytes to the upload URL files.getUploadURLExternal gave, raw ("files can be sent as raw bytes or
 * multipart form encoded"); Slack answers 200 when it took them. No token goes with them: the URL itself is the
 * permission.
 */
async function postToUploadUrl(url: string, bytes: Buffer | FileOnDisk): Promise<void> {
  if (!/^https?:\/\//i.test(url)) throw new Error('Slack answered an upload URL that is not http(s)');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      ...(Buffer.isBuffer(bytes)
        ? { headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(bytes) }
        : {
            // Streamed from disk with its length declared, so a large file never sits in memory whole.
            headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
            body: Readable.toWeb(createReadStream(bytes.path)) as ReadableStream<Uint8Array>,
            duplex: 'half' as const,
          }),
      redirect: 'error',
      signal: AbortSignal.timeout(FILE_UPLOAD_TIMEOUT_MS),
    });
  } catch (error) {
    throw new FileUploadError(undefined, error);
  }
  // Read the short answer to its end, so the connection can be reused.
  await response.text().catch(() => '');
  if (response.status !== 200) throw new FileUploadError(response.status);
}

/** A reply without its blocks: the same flags (ephemeral, replace…), the facts as plain text (see plain-text.ts). */
function plainReply(reply: Reply): Reply {
  const {
    blocks: _blocks,
    attachments: _attachments,
    text: _text,
    ...flags
  } = reply as Reply & { attachments?: unknown };
  return { ...flags, text: plainTextOf(reply) };
}

/** What a person is told when a shared reply went to the channel as a message and Slack did not confirm the post. */
const UNCONFIRMED_SHARED_REPLY =
  'Slack did not confirm the post of your shared reply in this channel, so it may or may not be there. Check the channel before trying again.';

/** Builds the gateway. One per process: the Retry-After waits of channels and methods live in it. */
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
   * One call under the policy. `scope` is what a Retry-After holds back, as Slack scopes its limits: the channel
   * for chat.postMessage ("about one message per second per channel"), the method for everything else (chat.update,
   * chat.postEphemeral and the rest are limited per method for the workspace). So a 429 on one method never holds
   * back another, and a busy channel never holds back the others. `method` names the call in the log; `repeatable`
   * false keeps a call that may have been carried out from being sent again (see decideAfterFailure).
   */
  async function call<T>(
    method: string,
    scope: string,
    wait: boolean,
    send: () => Promise<T>,
    repeatable = true,
  ): Promise<T> {
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
        const decision = decideAfterFailure(policy, error, attempt, wait, repeatable);
        if (!decision.retry) throw error;
        logger.warn(`slack: ${method} failed; trying again`, {
          scope,
          reason: describeSlackError(error),
          attempt: attempt + 1,
        });
        // After `ratelimited` the wait happens at the top of the loop, where every caller honours the channel's block.
        if ('delayMs' in decision) await sleep(decision.delayMs);
      }
    }
  }

  const content = (message: SlackMessageContent) => ({
    text: message.text,
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(message.attachments ? { attachments: message.attachments } : {}),
  });

  /**
   * Sends a message; when Slack refuses its content (blocks, length), sends it again as plain text with the same
   * facts (plain-text.ts), so no refusal loses a message. `clearBlocks` is for chat.update, where blocks left out
   * would stay as they were: an empty list removes them.
   */
  async function withPlainTextFallback<T>(
    method: string,
    message: SlackMessageContent,
    send: (message: SlackMessageContent) => Promise<T>,
    clearBlocks = false,
  ): Promise<T> {
    try {
      return await send(message);
    } catch (error) {
      const plain: SlackMessageContent = {
        text: plainTextOf(message),
        ...(clearBlocks ? { blocks: [], ...(message.attachments ? { attachments: [] } : {}) } : {}),
      };
      // Nothing else to try when the message already was its own plain text.
      const hadLayout = message.blocks !== undefined || message.attachments !== undefined;
      if (!refusedContent(error) || (!hadLayout && plain.text === message.text)) throw error;
      logger.warn(`slack: Slack refused the content of a message (${method}); sending it as plain text`, {
        reason: describeSlackError(error),
      });
      return await send(plain);
    }
  }

  const gateway: SlackGateway = {
    async post(channel, message, postOptions = {}) {
      // Not repeatable: after a timeout or a 5xx the message may be in the channel, and a retry would post it twice.
      return withPlainTextFallback('chat.postMessage', message, (sent) =>
        call(
          'chat.postMessage',
          channel,
          postOptions.wait ?? true,
          async () => {
            const answer = await client.chat.postMessage({
              channel,
              ...content(sent),
              ...(postOptions.unfurl === false ? { unfurl_links: false, unfurl_media: false } : {}),
              ...(postOptions.threadTs !== undefined ? { thread_ts: postOptions.threadTs } : {}),
              ...(postOptions.metadata !== undefined ? { metadata: postOptions.metadata } : {}),
            });
            if (!answer.ok || !answer.ts) throw new Error('Slack accepted the message but returned no ts');
            return answer.ts;
          },
          false,
        ),
      );
    },

    async update(channel, ts, message, callOptions = {}) {
      // Repeatable: an edit sent twice leaves the message as one edit would (the same content).
      await withPlainTextFallback(
        'chat.update',
        message,
        (sent) =>
          call('chat.update', 'chat.update', callOptions.wait ?? true, () =>
            client.chat.update({ channel, ts, ...content(sent) }),
          ),
        true,
      );
    },

    async postEphemeral(channel, user, message, callOptions = {}) {
      // Retried like an edit although it is not idempotent: a private notice seen twice is harmless, a lost one
      // leaves a person without an answer.
      await withPlainTextFallback('chat.postEphemeral', message, (sent) =>
        call('chat.postEphemeral', 'chat.postEphemeral', callOptions.wait ?? true, () =>
          client.chat.postEphemeral({ channel, user, ...content(sent) }),
        ),
      );
    },

    async respond(via, reply, fallback) {
      const send = typeof via === 'string' ? (r: Reply) => postToResponseUrl(via, r, policy.responseUrlTimeoutMs) : via;
      let lastError: unknown;
      let sending = reply;
      for (let attempt = 1; attempt <= policy.responseUrlAttempts; attempt++) {
        try {
          await send(sending);
          return;
        } catch (error) {
          lastError = error;
          // A 400 refuses what was sent (its blocks, its length): the same url takes the facts as plain text.
          if (responseUrlRefusedContent(error) && sending === reply && attempt < policy.responseUrlAttempts) {
            logger.warn("the response_url refused the reply's content; sending it as plain text", {
              reason: describeSlackError(error),
            });
            sending = plainReply(reply);
            continue;
          }
          // A 404 means the url is used up or expired: another post there cannot succeed.
          if (!isTransient(error) || attempt === policy.responseUrlAttempts) break;
          await sleep(slackRetryDelayMs(policy, attempt));
        }
      }
      logger.warn('the response_url did not take the reply; sending it as a message instead', {
        reason: describeSlackError(lastError),
        error: errorFields(lastError),
      });
      if (fallback.channelId === undefined) {
        logger.error('could not deliver a reply: no response_url and no channel to fall back to', {
          userId: fallback.userId,
        });
        return;
      }
      // The message methods fall back to plain text themselves when Slack refuses the blocks.
      const message = { text: sending.text, ...(sending.blocks ? { blocks: sending.blocks as Block[] } : {}) };
      try {
        if (reply.response_type === 'in_channel') await gateway.post(fallback.channelId, message);
        else await gateway.postEphemeral(fallback.channelId, fallback.userId, message);
      } catch (error) {
        // A shared reply whose post Slack did not confirm may be in the channel: neither the log nor the person is
        // told it is lost, and the person is told to look before sharing again (best effort: it is a notice).
        if (reply.response_type === 'in_channel' && mayHaveHappened(error)) {
          logger.error('Slack did not confirm a shared reply posted in the channel; it may or may not be there', {
            reason: describeSlackError(error),
            error: errorFields(error),
          });
          await gateway
            .postEphemeral(fallback.channelId, fallback.userId, { text: UNCONFIRMED_SHARED_REPLY })
            .catch((notice: unknown) => {
              logger.warn('could not tell the person that a shared reply was not confirmed', {
                reason: describeSlackError(notice),
              });
            });
        } else {
          logger.error('could not deliver a reply to Slack at all', {
            reason: describeSlackError(error),
            error: errorFields(error),
          });
        }
      }
    },

    async findPosted(channel, query, callOptions = {}) {
      const conversations = client.conversations;
      if (conversations === undefined) throw new Error('this Slack client cannot read conversations');
      const method = query.threadTs === undefined ? 'conversations.history' : 'conversations.replies';
      // Slack's ts is seconds since the epoch; history reads from `oldest` on, newest first.
      const oldest = ((query.since.getTime() - FIND_POSTED_MARGIN_MS) / 1000).toFixed(6);
      let cursor: string | undefined;
      for (let page = 0; page < FIND_POSTED_MAX_PAGES; page++) {
        const args: HistoryArgs = {
          channel,
          oldest,
          limit: 200,
          include_all_metadata: true,
          ...(cursor ? { cursor } : {}),
        };
        // Per method, as Slack limits these (not per channel): a lookup never holds back a post.
        const answer = await call(method, method, callOptions.wait ?? true, () =>
          query.threadTs === undefined
            ? conversations.history(args)
            : conversations.replies({ ...args, ts: query.threadTs }),
        );
        const found = (answer.messages ?? []).find(
          (message) =>
            message.metadata?.event_type === query.eventType && message.metadata.event_payload?.key === query.key,
        );
        if (found?.ts !== undefined) return found.ts;
        cursor = answer.response_metadata?.next_cursor || undefined;
        if (!answer.has_more || cursor === undefined) return undefined;
      }
      logger.warn('slack: stopped looking for a lost post after the page limit', { channel, method, key: query.key });
      return undefined;
    },

    async join(channel) {
      const conversations = client.conversations;
      if (conversations === undefined) throw new Error('this Slack client cannot join conversations');
      await call('conversations.join', 'conversations.join', true, () => conversations.join({ channel }));
    },

    async openDirectMessage(userId, callOptions = {}) {
      const open = client.conversations?.open;
      if (open === undefined) throw new Error('this Slack client cannot open direct messages');
      const answer = await call('conversations.open', 'conversations.open', callOptions.wait ?? true, () =>
        open.call(client.conversations, { users: userId }),
      );
      const id = answer.channel?.id;
      if (!answer.ok || typeof id !== 'string' || id === '')
        throw new Error('Slack answered conversations.open without a channel id');
      return id;
    },

    async openView(triggerId, view) {
      const views = client.views;
      if (views === undefined) throw new Error('this Slack client cannot open views');
      // No wait and no retry (see the interface): the trigger is good for 3 seconds and one view.
      // The builders' modal, as Slack's View type (checked by Slack, and by the stand-in in tests).
      const modal = view as types.View;
      const answer = await call('views.open', 'views.open', false, () =>
        views.open({ trigger_id: triggerId, view: modal }),
      );
      if (!answer.ok || !answer.view?.id) throw new Error('Slack opened the view but returned no view id');
      return { viewId: answer.view.id };
    },

    async publishHome(userId, view, publishOptions = {}) {
      const publish = client.views?.publish;
      if (publish === undefined) throw new Error('this Slack client cannot publish Home tabs');
      const home = view as types.View;
      try {
        const answer = await call('views.publish', `views.publish:${userId}`, publishOptions.wait ?? true, () =>
          publish.call(client.views, {
            user_id: userId,
            view: home,
            ...(publishOptions.hash !== undefined ? { hash: publishOptions.hash } : {}),
          }),
        );
        return answer.view?.hash !== undefined ? { hash: answer.view.hash } : {};
      } catch (error) {
        // Another publish came first (a second replica, a click and an open at once): the caller rebuilds.
        if (slackErrorCode(error) === 'hash_conflict') return { conflict: true };
        throw error;
      }
    },

    async permalink(channel, ts, callOptions = {}) {
      const chat = client.chat;
      if (chat.getPermalink === undefined) throw new Error('this Slack client cannot link to messages');
      const answer = await call('chat.getPermalink', 'chat.getPermalink', callOptions.wait ?? true, () =>
        chat.getPermalink!({ channel, message_ts: ts }),
      );
      if (!answer.ok || typeof answer.permalink !== 'string' || answer.permalink === '')
        throw new Error('Slack answered chat.getPermalink without a permalink');
      return answer.permalink;
    },

    async groupMembers(groupId, callOptions = {}) {
      const usergroups = client.usergroups;
      if (usergroups === undefined) throw new Error('this Slack client cannot read user groups');
      const answer = await call('usergroups.users.list', 'usergroups.users.list', callOptions.wait ?? true, () =>
        usergroups.users.list({ usergroup: groupId }),
      );
      const users = answer.users;
      if (!answer.ok || !Array.isArray(users) || !users.every((id) => typeof id === 'string'))
        throw new Error('Slack answered usergroups.users.list without a list of users');
      return [...users];
    },

    async uploadFile(upload) {
      const files = client.files;
      if (files === undefined) throw new Error('this Slack client cannot upload files');
      // A new URL for every try: bytes sent to a URL whose answer was lost cannot be sent there again.
      const fileId = await call('files.getUploadURLExternal', 'files.getUploadURLExternal', true, async () => {
        const ticket = await files.getUploadURLExternal({
          filename: upload.filename,
          length: upload.bytes.length,
          ...(upload.altText !== undefined ? { alt_txt: upload.altText } : {}),
        });
        if (!ticket.ok || !ticket.upload_url || !ticket.file_id)
          throw new Error('Slack answered files.getUploadURLExternal without an upload URL');
        await postToUploadUrl(ticket.upload_url, upload.bytes);
        return ticket.file_id;
      });
      // Not repeatable: completing shares the file, and Slack completes a file once.
      await call(
        'files.completeUploadExternal',
        'files.completeUploadExternal',
        true,
        () =>
          files.completeUploadExternal({
            files: [{ id: fileId, title: upload.title }],
            channel_id: upload.channel,
            ...(upload.threadTs !== undefined ? { thread_ts: upload.threadTs } : {}),
            ...(upload.initialComment !== undefined ? { initial_comment: upload.initialComment } : {}),
          }),
        false,
      );
      return { fileId };
    },

    run(method, send) {
      // Method names contain a dot and channel ids never do, so the two kinds of scope cannot collide.
      return call(method, method, true, send);
    },
  };
  return gateway;
}
