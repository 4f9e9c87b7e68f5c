// The shapes the Slack stand-in takes and hands out: its options, what it records, and the events it emits.

/** Options for {@link startSlackStandIn}; every field has a test-friendly default. */
export interface SlackStandInOptions {
  port?: number;
  host?: string;
  /** When set, calls whose bearer token differs get `invalid_auth`; when unset, any token is accepted. */
  botToken?: string;
  /** The app-level token `apps.connections.open` accepts (Socket Mode); checked like botToken when set. */
  appToken?: string;
  botUserId?: string;
  botId?: string;
  teamId?: string;
  /** The Enterprise Grid organisation the workspace belongs to (auth.test's `enterprise_id`); unset: none. */
  enterpriseId?: string;
  teamName?: string;
  teamDomain?: string;
  /** The clock (ms since the epoch) that ages response_urls and stamps records; default `Date.now`. */
  now?: () => number;
  /** Block text past which chat methods answer `msg_blocks_too_long` (default: block-kit-validation's limit). */
  maxBlocksTextChars?: number;
  /**
   * The conversations the workspace has, with their members (see {@link ConversationSpec}). A declared conversation
   * is strict: the bot posts only where Slack would let it. Any other channel id is a public channel that every
   * person is in and the bot is not (chat:write.public lets it post there), so tests that name no conversation
   * keep working.
   */
  conversations?: ConversationSpec[];
  /**
   * Whether the bot has the `chat:write.public` scope (default true, as the manifests ask for it). Without it,
   * posting in a public channel the bot is not in answers `not_in_channel`.
   */
  chatWritePublic?: boolean;
  /** The workspace's user groups, for `usergroups.users.list` (see {@link UserGroupSpec}); none by default. */
  usergroups?: UserGroupSpec[];
  /**
   * Whether the bot has the `usergroups:read` scope (default true, as the manifests ask for it). Without it,
   * `usergroups.users.list` answers `missing_scope`.
   */
  usergroupsRead?: boolean;
  /**
   * The people of the workspace (user ids): `views.publish` publishes only to one of them (else `invalid_arguments`,
   * "invalid `user_id`"). Unset, any id shaped like a Slack user id (`U…`, `W…`) is a person, so tests that name
   * nobody keep working.
   */
  users?: readonly string[];
  /** Whether the app's Home tab is enabled (the manifests enable it); false makes `views.publish` answer `not_enabled`. */
  homeTabEnabled?: boolean;
  /**
   * `views.publish` calls one person's Home takes within a minute before the stand-in answers `ratelimited` (HTTP
   * 429 with Retry-After). Slack rates views.publish per user on top of its Tier 4 budget and publishes no number,
   * so this is the stand-in's own, generous default (30) that a test can lower.
   */
  homePublishesPerMinute?: number;
  /** The app id views carry (`app_id`); default `A_TEST`, as the test driver's `api_app_id`. */
  appId?: string;
  /**
   * Whether the bot has the `files:write` scope (default true, as the manifests ask for it). Without it the two
   * upload methods and `files.delete` answer `missing_scope`.
   */
  filesWrite?: boolean;
  /**
   * Whether the bot has the `chat:write` scope (default true, as the manifests ask for it). Without it
   * `chat.delete` answers `missing_scope`.
   */
  chatWrite?: boolean;
  /**
   * Whether the bot has the `im:history` scope (default true, as the manifests ask for it). Without it,
   * `conversations.history` and `conversations.replies` in a direct message answer `missing_scope`, as Slack does.
   */
  imHistory?: boolean;
}

/** A user group (`S…`): mentioned as `<!subteam^id>`, shown as `@handle`; `users` are its members' ids. */
export interface UserGroupSpec {
  id: string;
  handle: string;
  name: string;
  users: string[];
  /** A disabled group keeps its members but lists them only when asked with `include_disabled`. */
  disabled?: boolean;
}

/** The four kinds of Slack conversation: public and private channels, 1:1 DMs (`im`) and group DMs (`mpim`). */
export type ConversationKind = 'public' | 'private' | 'im' | 'mpim';

/** A conversation of the stand-in's workspace; put the bot's user id among `members` when the bot is in it. */
export interface ConversationSpec {
  id: string;
  /** Channels have names; DMs have none (Slack calls group DMs `mpdm-…`). */
  name?: string;
  kind: ConversationKind;
  members: string[];
  /** An archived conversation takes no new messages (`is_archived`). */
  archived?: boolean;
}

/** One Web API call as the stand-in received it (the token is never kept). */
export interface RecordedCall {
  method: string;
  args: Record<string, unknown>;
  at: number;
}

/** One version of a stored message (the first is the posted one, then one per `chat.update`). */
export interface MessageVersion {
  text: string | undefined;
  blocks: unknown[] | undefined;
  attachments: unknown[] | undefined;
  at: number;
}

/** A posted message as it looks now, with every version it went through. */
export interface StoredMessage {
  channel: string;
  ts: string;
  threadTs: string | undefined;
  text: string | undefined;
  blocks: unknown[] | undefined;
  /** As posted; what the API hands back numbers them (`id`, see {@link slackAttachments}). */
  attachments: unknown[] | undefined;
  /** Slack message metadata (`event_type`, `event_payload`) as posted or last updated; absent when none was given. */
  metadata: MessageMetadata | undefined;
  /** The files a `files.completeUploadExternal` shared with this message (absent on other messages). */
  files?: SlackFile[];
  /** Who posted it when not the bot (a person's message, added by a test): the bot cannot delete it. */
  user?: string;
  history: MessageVersion[];
}

/** Message metadata as Slack keeps it: an app-defined event type and a JSON object. */
export interface MessageMetadata {
  event_type: string;
  event_payload: Record<string, unknown>;
}

/**
 * A failure to inject: a Slack error answered with HTTP 200, an HTTP status (429 gets `Retry-After`, 1 s unless
 * given), or a delay after which the call is answered normally.
 */
export type InjectedFailure =
  | { error: string }
  /** `error` names Slack's error in the body (a response_url answers 400 `invalid_blocks`, for instance). */
  | { status: number; retryAfter?: number; error?: string }
  | { delayMs: number }
  /**
   * The call is carried out (a message is posted) and its answer comes late (`lateAnswerMs`) or never (`dropAnswer`:
   * the connection is cut after the work is done): what a client sees when Slack's answer is lost on the way back.
   */
  | { lateAnswerMs: number }
  | { dropAnswer: true }
  /**
   * The call is carried out (a message is posted), then answered with a failure instead of its result: HTTP `status`
   * (a 5xx) with ok:false `error`, or HTTP 200 with ok:false `error` when no status is given. Slack's docs allow this
   * for `internal_error` and `fatal_error` ("it's possible some aspect of the operation succeeded").
   */
  | { failAfterWork: { status?: number; error: string } }
  /**
   * Slack works on the call for `slowWorkMs` before carrying it out, and carries it out even when the client has
   * given up meanwhile (its answer then goes nowhere): a post can land after the client's timeout.
   */
  | { slowWorkMs: number }
  /** The connection is reset before anything is done or answered: a network failure as the client sees it. */
  | { reset: true };

/** The message a button was clicked in: its response_url may replace or delete that message, and only that one. */
export interface ResponseUrlOrigin {
  channel: string;
  /** Unknown when a test clicks a button without saying which message it is in. */
  ts?: string | undefined;
}

/**
 * What Slack did with a response_url post: posted a new message, or replaced or deleted the original. A
 * slash command's response_url has no original: Slack posts `replace_original` as a new message (bolt-js issue
 * #2287, bolt-python issue #1268) and `delete_original` has nothing to delete.
 */
export type ResponseEffect = 'new_message' | 'replaced_original' | 'deleted_original' | 'none';

/** One POST received on a response_url, with the fields `respond()` commonly sets lifted out. */
export interface RecordedResponse {
  body: Record<string, unknown>;
  text: string | undefined;
  blocks: unknown[] | undefined;
  attachments: unknown[] | undefined;
  responseType: string | undefined;
  replaceOriginal: boolean | undefined;
  deleteOriginal: boolean | undefined;
  effect: ResponseEffect;
  at: number;
}

/** A Web API call or response_url post that the stand-in refused for its content, as Slack would. */
export interface Rejection {
  /** The Web API method, or the response_url. */
  target: string;
  error: string;
  /** Slack's `[json-pointer:…]` lines, for `invalid_blocks`. */
  problems: string[];
  at: number;
}

/**
 * What a Slack client would see change, in order: a message posted or edited in a channel, a private
 * (ephemeral) message, an accepted response_url post with what it did, or a modal opened (`views.open`, for the
 * person whose trigger it used) or changed (`views.update`). The local workspace's page is built from these.
 */
export type StandInEvent =
  | {
      type: 'message';
      channel: string;
      ts: string;
      threadTs: string | undefined;
      text: string | undefined;
      blocks: unknown[] | undefined;
      attachments: unknown[] | undefined;
      /** A file share (`files.completeUploadExternal`): the files, as Slack puts them in the message. */
      files?: SlackFile[];
    }
  | {
      type: 'update';
      channel: string;
      ts: string;
      text: string | undefined;
      blocks: unknown[] | undefined;
      attachments: unknown[] | undefined;
      /** A file share whose files changed (one was deleted): the files left. */
      files?: SlackFile[];
    }
  /** A message left its channel (chat.delete, a file share whose file was deleted, or a person deleting it). */
  | { type: 'delete'; channel: string; ts: string }
  | {
      type: 'ephemeral';
      channel: string;
      user: string;
      ts: string;
      text: string | undefined;
      blocks: unknown[] | undefined;
      attachments: unknown[] | undefined;
    }
  | {
      type: 'response';
      url: string;
      effect: ResponseEffect;
      origin: ResponseUrlOrigin | undefined;
      response: RecordedResponse;
    }
  | {
      type: 'view';
      change: 'opened' | 'updated';
      id: string;
      triggerId: string;
      view: Record<string, unknown>;
      hash: string;
    }
  /** A person's Home tab was published (`views.publish`): the view as the app sent it, with Slack's id and hash. */
  | { type: 'home'; user: string; id: string; view: Record<string, unknown>; hash: string };

/** A person's Home tab as `views.publish` last published it: the app's view, Slack's id (one per person) and hash. */
export interface PublishedHome {
  id: string;
  user: string;
  view: Record<string, unknown>;
  hash: string;
  publishedAt: number;
}

/**
 * A file as `files.getUploadURLExternal` reserved it: the name and length the app declared, the bytes once they were
 * posted to its upload URL, and what `files.completeUploadExternal` made of it (its title, where it was shared).
 */
export interface UploadedFile {
  id: string;
  filename: string;
  /** The length in bytes the app declared. */
  length: number;
  altTxt: string | undefined;
  uploadUrl: string;
  /** What was posted to the upload URL; undefined until then. */
  bytes: Buffer | undefined;
  completed: boolean;
  /** files.delete removed it: gone from its messages, its url_private answers 404, a second delete `file_deleted`. */
  deleted?: boolean;
  title: string | undefined;
  /** The messages completing it posted (none when it was completed without a channel: a private file). */
  shares: { channel: string; ts: string; threadTs: string | undefined }[];
}

/** A file as Slack describes it in a message's `files` and in `files.completeUploadExternal`'s answer. */
export interface SlackFile {
  id: string;
  created: number;
  timestamp: number;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  pretty_type: string;
  user: string;
  user_team: string;
  editable: boolean;
  size: number;
  mode: 'hosted';
  is_external: boolean;
  external_type: string;
  is_public: boolean;
  public_url_shared: boolean;
  display_as_bot: boolean;
  username: string;
  /** Where the bytes are (the stand-in serves them; Slack asks for the token, or a signed-in client's session). */
  url_private: string;
  url_private_download: string;
  permalink: string;
  alt_txt?: string;
  /** An image's size in pixels (the stand-in reads a PNG's). */
  original_w?: number;
  original_h?: number;
}

/** A modal as `views.open` opened it (and `views.update` changed it since). */
export interface OpenedView {
  id: string;
  /** The trigger it was opened with: the click (or command) it answers. */
  triggerId: string;
  view: Record<string, unknown>;
  hash: string;
  openedAt: number;
}

// "views.open": a trigger_id is good for 3 seconds, once.

/** Arguments of a Web API call, as parsed from its body. */
export type Args = Record<string, unknown>;
/** A Web API answer: Slack's `ok` and whatever the method returns with it. */
export type ApiAnswer = Record<string, unknown> & { ok: boolean };
/** A Web API method as the stand-in carries it out: arguments in, Slack's answer out. */
export type MethodHandler = (args: Args) => ApiAnswer;
