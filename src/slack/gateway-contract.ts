/**
 * What the Slack gateway promises its callers: the SlackGateway interface and the shapes that go through it
 * (messages, replies and their fallbacks, call options, files). createSlackGateway (gateway.ts) implements it.
 */
import type { RespondArguments, RespondFn, types } from '@slack/bolt';

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
  openView(triggerId: string, view: object): Promise<{ viewId: string; hash?: string }>;
  /**
   * views.update of an open modal (a form's preview recomputed as the person types). With `hash` (the one the
   * view had when the person acted), Slack refuses an update over a view that changed since: answered
   * `{ conflict: true }`, not thrown (a newer update won). One attempt, no wait: a late preview is worth nothing.
   * Throws Slack's other errors (`not_found` once the modal was closed).
   */
  updateView(
    viewId: string,
    view: object,
    options?: { hash?: string },
  ): Promise<{ hash?: string } | { conflict: true }>;
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
  /**
   * chat.delete of one of the bot's own messages (scope `chat:write`; a bot may delete its messages in its DMs).
   * Repeatable, so retried under the policy unless `wait` is false. A message already gone answers `gone` (Slack's
   * `message_not_found`), not thrown; Slack's other errors (`cant_delete_message`, `channel_not_found`…) are thrown.
   */
  deleteMessage(channel: string, ts: string, options?: CallOptions): Promise<'deleted' | 'gone'>;
  /**
   * files.delete of a file the bot uploaded (scope `files:write`); its share without text leaves the conversation
   * with it. Repeatable as deleteMessage; a file already gone answers `gone` (`file_not_found`, `file_deleted`).
   */
  deleteFile(fileId: string, options?: CallOptions): Promise<'deleted' | 'gone'>;
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
