/**
 * The WebClient as the gateway uses it: the options that leave every decision about a failure to the gateway, and
 * the part of the client's surface (SlackChatClient) the gateway calls, so tests can hand it a small stand-in.
 */
import { type Logger as BoltLogger, type types, webApi } from '@slack/bolt';
import type { MessageMetadata } from './gateway-contract.js';

type Block = types.KnownBlock;

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

/** The fields of an answer the gateway reads. */
export type Answer = { ok?: boolean; ts?: string };

/** A page of conversations.history / conversations.replies, as far as findPosted reads it. */
export interface HistoryAnswer {
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

/** conversations.history (and, with a ts, conversations.replies) as findPosted calls it. */
export type HistoryArgs = {
  channel: string;
  oldest?: string;
  limit?: number;
  cursor?: string;
  include_all_metadata?: boolean;
  inclusive?: boolean;
};

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
    /** Only deleteMessage uses it; a client without it cannot delete messages. */
    delete?(args: { channel: string; ts: string }): Promise<Answer>;
    /** Only permalink uses it; a client without it cannot link to messages. */
    getPermalink?(args: { channel: string; message_ts: string }): Promise<{ ok?: boolean; permalink?: string }>;
  };
  /** Only openView and publishHome use it; a client without it cannot open modals. */
  views?: {
    open(args: {
      trigger_id: string;
      view: types.View;
    }): Promise<{ ok?: boolean; view?: { id?: string; hash?: string } }>;
    /** Only updateView uses it (the forms' preview); a client without it cannot update modals. */
    update?(args: {
      view_id: string;
      view: types.View;
      hash?: string;
    }): Promise<{ ok?: boolean; view?: { id?: string; hash?: string } }>;
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
    /** Only deleteFile uses it. */
    delete?(args: { file: string }): Promise<{ ok?: boolean }>;
  };
  /** Only groupMembers uses it; a client without it cannot read user groups. */
  usergroups?: {
    users: {
      list(args: { usergroup: string; include_disabled?: boolean }): Promise<{ ok?: boolean; users?: string[] }>;
    };
  };
}
