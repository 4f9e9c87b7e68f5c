import { randomBytes } from 'node:crypto';
import { EventEmitter, setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import {
  checkMessage,
  describeProblem,
  HOME_LIMITS,
  type MessageRefusal,
  refusalBody,
  validateHomeView,
  validateModalView,
} from './block-kit-validation.js';

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
   * upload methods answer `missing_scope`.
   */
  filesWrite?: boolean;
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
    }
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

/** A running stand-in for Slack's Web API and response_url endpoints. */
export interface SlackStandIn {
  /** Give this to Bolt as `clientOptions.slackApiUrl` (ends with `/api/`, as the WebClient expects). */
  readonly apiUrl: string;
  /** `http://host:port`, without a trailing slash. */
  readonly baseUrl: string;
  readonly port: number;
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  readonly teamDomain: string;
  /** Every Web API call so far, oldest first. */
  readonly calls: readonly RecordedCall[];
  /** Calls and response_url posts refused for what they carried (invalid blocks, too long…), oldest first. */
  readonly rejections: readonly Rejection[];
  /** The calls of one method, oldest first. */
  callsOf(method: string): RecordedCall[];
  /** Copies of the stored messages (of one channel, or all), in posting order. */
  messages(channel?: string): StoredMessage[];
  /**
   * Makes the next `times` calls of `method` fail (`'response_url'` targets response_url posts); with `channel`,
   * only calls for that channel (the alert channel's next post, say), and with `textIncludes` only calls whose
   * text contains it (the post of one alert), while the others go through.
   */
  failNext(
    method: string,
    failure: InjectedFailure,
    times?: number,
    only?: { channel?: string; textIncludes?: string },
  ): void;
  /**
   * A fresh, unique response_url, good for 5 posts within 30 minutes. With an origin it is a button click's,
   * which may replace or delete that message; without, a slash command's, which has no original message.
   */
  createResponseUrl(origin?: ResponseUrlOrigin): string;
  /** The accepted posts to one response_url, oldest first. */
  responses(url: string): RecordedResponse[];
  /** Resolves with the predicate's first truthy value; rejects after `timeoutMs` listing what was recorded. */
  waitFor<T>(predicate: () => T, timeoutMs?: number, description?: string): Promise<NonNullable<T>>;
  /** Resolves with the calls of `method` once there are at least `count`. */
  waitForCalls(method: string, count: number, timeoutMs?: number): Promise<RecordedCall[]>;
  /** Resolves with the posts to `url` once there are at least `count`. */
  waitForResponses(url: string, count: number, timeoutMs?: number): Promise<RecordedResponse[]>;
  /**
   * Forgets calls, messages, response_urls and pending failures; conversations and user groups go back to the
   * options' lists.
   */
  reset(): void;
  /** Calls `listener` with every {@link StandInEvent}; returns the unsubscribe function. */
  onEvent(listener: (event: StandInEvent) => void): () => void;
  /** Where `apps.connections.open` sends Socket Mode clients (set by the Socket Mode stand-in). */
  setSocketModeUrl(url: string): void;
  /**
   * Points `chat.getPermalink` at a page (the local workspace's, `http://localhost:3000/`): its links are then
   * `<page>#archives/<channel>/p<ts digits>` (a reply's with `?thread_ts=<parent ts>&cid=<channel>`), Slack's own
   * path in the fragment, for the page to open. Unset, they are Slack's: `https://<team>.slack.com/archives/…`.
   */
  setPermalinkPage(url: string): void;
  /**
   * Deletes a message as a person (or an admin) does in Slack's client: it is gone from the channel, and
   * `chat.update`, `chat.getPermalink` and `conversations.replies` on it answer as Slack does for a deleted message
   * (`message_not_found`, `thread_not_found`). Its replies stay. False when there was no such message.
   */
  deleteMessage(channel: string, ts: string): boolean;
  /** The modals opened with `views.open` (and updated since), oldest first. */
  views(): OpenedView[];
  /** Every file `files.getUploadURLExternal` reserved since the last reset, oldest first (copies, bytes included). */
  uploads(): UploadedFile[];
  /** The Home tab `views.publish` last published for `userId` (a copy), or undefined when none was. */
  homeView(userId: string): PublishedHome | undefined;
  /** Declares a conversation (or replaces the one with its id); `reset()` goes back to the options' list. */
  addConversation(spec: ConversationSpec): void;
  /**
   * Declares a user group (or replaces the one with its id: new members, disabled); `reset()` goes back to the
   * options' list.
   */
  setUsergroup(spec: UserGroupSpec): void;
  /** Deletes a user group: `usergroups.users.list` then answers `no_such_subteam` for it. False when there was none. */
  removeUsergroup(groupId: string): boolean;
  /** Sets who is in a declared conversation (the bot too, by its user id); an undeclared id becomes a public channel. */
  setMembers(channelId: string, members: string[]): void;
  /** Whether `userId` (a person, or the bot's user id) is in the conversation, as the stand-in's rules see it. */
  isMember(channelId: string, userId: string): boolean;
  /** The conversation's kind: declared, or `public` for any other id (undefined only for an empty id). */
  conversationKind(channelId: string): ConversationKind | undefined;
  close(): Promise<void>;
}

type Args = Record<string, unknown>;
type ApiAnswer = Record<string, unknown> & { ok: boolean };

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
const TRIGGER_LIFETIME_MS = 3000;

// "Handling user interaction": a response_url takes up to 5 posts within 30 minutes.
const MAX_POSTS_PER_RESPONSE_URL = 5;
const RESPONSE_URL_LIFETIME_MS = 30 * 60_000;
// The WebClient JSON-encodes every non-scalar argument into a form field; these are the ones Slack decodes.
const JSON_FORM_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata', 'unfurls', 'user_auth_blocks']);
const DEFAULT_WAIT_MS = 5000;
// The manifests' bot scopes: a `missing_scope` answer says the token has these but the one it needs.
const MANIFEST_BOT_SCOPES = [
  'commands',
  'chat:write',
  'chat:write.public',
  'channels:join',
  'channels:history',
  'groups:history',
  'usergroups:read',
  'files:write',
  'im:write',
  'im:history',
];
const grantedWithout = (scope: string): string => MANIFEST_BOT_SCOPES.filter((s) => s !== scope).join(',');
const POLL_MS = 25;
// Slack takes files of up to 1 GB.
const MAX_FILE_BYTES = 1024 ** 3;
// Who counts as a person when the options name nobody: any id shaped like a Slack user id.
const USER_ID_SHAPE = /^[UW][A-Z0-9_]{1,31}$/;
const HOME_RATE_WINDOW_MS = 60_000;

/** Starts a local stand-in for Slack's Web API and response_urls on 127.0.0.1 (a free port unless given). */
export async function startSlackStandIn(options: SlackStandInOptions = {}): Promise<SlackStandIn> {
  const host = options.host ?? '127.0.0.1';
  const botUserId = options.botUserId ?? 'U_BOT';
  const botId = options.botId ?? 'B_BOT';
  const teamId = options.teamId ?? 'T_TEST';
  const teamName = options.teamName ?? 'Treasury Test';
  const teamDomain = options.teamDomain ?? 'treasury-test';
  const clock = options.now ?? Date.now;

  const calls: RecordedCall[] = [];
  const rejections: Rejection[] = [];
  const stored: StoredMessage[] = [];
  const responseLog = new Map<string, RecordedResponse[]>();
  const responseUrls = new Map<string, { createdAt: number; origin: ResponseUrlOrigin | undefined }>();
  const failures = new Map<
    string,
    { failure: InjectedFailure; remaining: number; channel?: string; textIncludes?: string }[]
  >();
  const openedViews: OpenedView[] = [];
  const exchangedTriggers = new Set<string>();
  // Files by id, from files.getUploadURLExternal on (see UploadedFile).
  const uploads = new Map<string, UploadedFile>();
  // Each person's Home tab as last published, and when each of their recent views.publish calls came.
  const homes = new Map<string, PublishedHome>();
  const homePublishes = new Map<string, number[]>();
  const knownUsers = options.users === undefined ? undefined : new Set(options.users);
  const isPerson = (userId: string): boolean =>
    knownUsers === undefined ? USER_ID_SHAPE.test(userId) : knownUsers.has(userId);
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const emit = (event: StandInEvent): void => {
    events.emit('event', event);
  };
  const closing = new AbortController();
  // Every pending waitFor listens for the close (and stops listening when it ends): many may wait at once.
  setMaxListeners(0, closing.signal);

  /*
   * Conversations and who is in them. Slack's rules ("Where a bot may post" in STACK-NOTES; the chat.postMessage,
   * chat.postEphemeral and conversations.* references): `chat:write.public` lets the bot post in a public channel it
   * is not in, and nowhere else. A private channel, DM or group DM the bot is not in is one it cannot see at all, so
   * Slack answers `channel_not_found` ("Value passed for channel was invalid"), exactly as for an id that does not
   * exist: the bot cannot tell the two apart. `not_in_channel` is the answer for a public channel the bot is not in
   * when the app lacks `chat:write.public`. An id no one declared is a public channel that every person is in and
   * the bot is not: tests that name no conversation keep working, and declared conversations are strict.
   */
  interface Conversation {
    id: string;
    name: string | undefined;
    kind: ConversationKind;
    members: Set<string>;
    /** Every person is in it (an undeclared public channel the bot joined). */
    everyone: boolean;
    archived: boolean;
  }
  const conversations = new Map<string, Conversation>();
  const chatWritePublic = options.chatWritePublic ?? true;

  // User groups, by id (usergroups.users.list).
  const usergroups = new Map<string, UserGroupSpec>();
  const declareUsergroupsFromOptions = (): void => {
    usergroups.clear();
    for (const group of options.usergroups ?? []) usergroups.set(group.id, structuredClone(group));
  };
  declareUsergroupsFromOptions();
  const declare = (spec: ConversationSpec): void => {
    conversations.set(spec.id, {
      id: spec.id,
      name: spec.name,
      kind: spec.kind,
      members: new Set(spec.members),
      everyone: false,
      archived: spec.archived ?? false,
    });
  };
  const declareFromOptions = (): void => {
    conversations.clear();
    for (const spec of options.conversations ?? []) declare(spec);
  };
  declareFromOptions();
  const conversationKind = (channelId: string): ConversationKind | undefined =>
    channelId === '' ? undefined : (conversations.get(channelId)?.kind ?? 'public');
  const isMember = (channelId: string, userId: string): boolean => {
    const conversation = conversations.get(channelId);
    if (conversation === undefined) return userId !== botUserId;
    return conversation.members.has(userId) || (conversation.everyone && userId !== botUserId);
  };
  // A public channel is visible to the bot whether it is in it or not; anything else only to its members.
  const botCanSee = (channelId: string): boolean =>
    conversationKind(channelId) === 'public' || isMember(channelId, botUserId);
  /** Why the bot may not post a message in `channel`, as Slack answers; undefined when it may. */
  const refusePosting = (channel: string | undefined): ApiAnswer | undefined => {
    if (channel === undefined || channel === '' || !botCanSee(channel))
      return { ok: false, error: 'channel_not_found' };
    if (!chatWritePublic && !isMember(channel, botUserId)) return { ok: false, error: 'not_in_channel' };
    if (conversations.get(channel)?.archived === true) return { ok: false, error: 'is_archived' };
    return undefined;
  };
  /** A conversation object as conversations.info and conversations.join return it (the fields apps read). */
  const conversationObject = (channelId: string): Args => {
    const conversation = conversations.get(channelId);
    const kind = conversation?.kind ?? 'public';
    const isChannel = kind === 'public' || kind === 'private';
    const members = conversation === undefined ? [] : [...conversation.members];
    return {
      id: channelId,
      ...(isChannel
        ? { name: conversation?.name ?? channelId.toLowerCase() }
        : kind === 'mpim' && conversation?.name
          ? { name: conversation.name }
          : {}),
      is_channel: isChannel,
      is_group: false,
      is_im: kind === 'im',
      is_mpim: kind === 'mpim',
      is_private: kind !== 'public',
      is_archived: conversation?.archived ?? false,
      is_member: isMember(channelId, botUserId),
      // A DM names the person on the other side.
      ...(kind === 'im' ? { user: members.find((m) => m !== botUserId) } : {}),
    };
  };

  let tsCounter = 0;
  let urlCounter = 0;
  let baseUrl = '';

  // Unique, increasing and shaped like Slack's ("1732200000.000100").
  // Slack's ts is the posting time in microseconds ("1732200000.000100"): conversations.history's oldest/latest
  // filter on it, so it follows the stand-in's clock, kept unique and increasing.
  const nextTs = (): string => {
    tsCounter = Math.max(tsCounter + 100, Math.floor(clock()) * 1000);
    return `${Math.floor(tsCounter / 1_000_000)}.${String(tsCounter % 1_000_000).padStart(6, '0')}`;
  };

  // The first failure queued for this call: one for any channel, or one for the channel the call names.
  const takeFailure = (method: string, channel?: string, text?: string): InjectedFailure | undefined => {
    const queue = failures.get(method);
    const index =
      queue?.findIndex(
        (f) =>
          (f.channel === undefined || f.channel === channel) &&
          (f.textIncludes === undefined || (text ?? '').includes(f.textIncludes)),
      ) ?? -1;
    const next = queue?.[index];
    if (queue === undefined || next === undefined) return undefined;
    next.remaining -= 1;
    if (next.remaining <= 0) queue.splice(index, 1);
    return next.failure;
  };

  const findMessage = (channel: string, ts: string): StoredMessage | undefined =>
    stored.find((m) => m.channel === channel && m.ts === ts);

  const reject = (target: string, refusal: { error: string; problems: MessageRefusal['problems'] }): void => {
    rejections.push({ target, error: refusal.error, problems: refusal.problems.map(describeProblem), at: clock() });
    changes.emit('change');
  };

  // What chat.postMessage, chat.update and chat.postEphemeral refuse for their content (block-kit-validation).
  const refuseContent = (method: string, args: Args): ApiAnswer | undefined => {
    const refusal = checkMessage(
      { text: args.text, blocks: args.blocks, attachments: args.attachments },
      { checkBlocksSize: true, checkTextSize: true, maxBlocksTextChars: options.maxBlocksTextChars },
    );
    if (refusal === undefined) return undefined;
    reject(method, refusal);
    return refusalBody(refusal);
  };

  let socketModeUrl: string | undefined;
  let permalinkPage: string | undefined;
  /**
   * A message's permalink as Slack writes it: `/archives/<channel>/p<ts without its dot>`, and for a thread reply
   * `?thread_ts=<parent ts>&cid=<channel>` (the chat.getPermalink reference). On the workspace's page it is the
   * fragment, so a click stays on the page.
   */
  const permalinkOf = (message: StoredMessage): string => {
    const isReply = message.threadTs !== undefined && message.threadTs !== message.ts;
    const path = `archives/${message.channel}/p${message.ts.replace('.', '')}${
      isReply ? `?thread_ts=${message.threadTs}&cid=${message.channel}` : ''
    }`;
    return permalinkPage === undefined ? `https://${teamDomain}.slack.com/${path}` : `${permalinkPage}#${path}`;
  };
  const handlers: Record<string, (args: Args) => ApiAnswer> = {
    'apps.connections.open': () =>
      socketModeUrl === undefined
        ? { ok: false, error: 'socket_mode_not_available' }
        : { ok: true, url: socketModeUrl },
    'auth.test': () => ({
      ok: true,
      url: `https://${teamDomain}.slack.com/`,
      team: teamName,
      user: 'treasury-bot',
      team_id: teamId,
      ...(options.enterpriseId !== undefined ? { enterprise_id: options.enterpriseId } : {}),
      user_id: botUserId,
      bot_id: botId,
      is_enterprise_install: false,
    }),
    'chat.postMessage': (args) => {
      const channel = asString(args.channel);
      const refusedPlace = refusePosting(channel);
      if (refusedPlace !== undefined || channel === undefined)
        return refusedPlace ?? { ok: false, error: 'channel_not_found' };
      const refused = refuseContent('chat.postMessage', args);
      if (refused !== undefined) return refused;
      const content = messageContent(args);
      if (content.text === undefined && content.blocks === undefined && content.attachments === undefined) {
        return { ok: false, error: 'no_text' };
      }
      const metadata = readMetadata(args.metadata);
      if (metadata === 'invalid') return { ok: false, error: 'invalid_metadata_format' };
      const ts = nextTs();
      const threadTs = asString(args.thread_ts);
      const at = clock();
      stored.push({ channel, ts, threadTs, ...content, metadata, history: [{ ...content, at }] });
      emit({
        type: 'message',
        channel,
        ts,
        threadTs,
        text: content.text,
        blocks: content.blocks,
        attachments: content.attachments,
      });
      return { ok: true, channel, ts, message: slackMessage(content, ts, threadTs) };
    },
    'chat.update': (args) => {
      const channel = asString(args.channel);
      const ts = asString(args.ts);
      if (channel === undefined || ts === undefined) return { ok: false, error: 'message_not_found' };
      if (!botCanSee(channel)) return { ok: false, error: 'channel_not_found' };
      const message = findMessage(channel, ts);
      if (message === undefined) return { ok: false, error: 'message_not_found' };
      const refused = refuseContent('chat.update', args);
      if (refused !== undefined) return refused;
      // Like Slack, fields left out of the update keep their previous value.
      const content = messageContent(args);
      if ('text' in args) message.text = content.text;
      if ('blocks' in args) message.blocks = content.blocks;
      if ('attachments' in args) message.attachments = content.attachments;
      const current = { text: message.text, blocks: message.blocks, attachments: message.attachments };
      message.history.push({ ...current, at: clock() });
      emit({
        type: 'update',
        channel,
        ts,
        text: message.text,
        blocks: message.blocks,
        attachments: message.attachments,
      });
      return { ok: true, channel, ts, text: message.text ?? '', message: slackMessage(current, ts, message.threadTs) };
    },
    'chat.postEphemeral': (args) => {
      const channel = asString(args.channel);
      const refusedPlace = refusePosting(channel);
      if (refusedPlace !== undefined || channel === undefined)
        return refusedPlace ?? { ok: false, error: 'channel_not_found' };
      // "user_not_in_channel: Intended recipient is not in the specified channel."
      const user = asString(args.user);
      if (user === undefined || !isMember(channel, user)) return { ok: false, error: 'user_not_in_channel' };
      const refused = refuseContent('chat.postEphemeral', args);
      if (refused !== undefined) return refused;
      const ts = nextTs();
      const content = messageContent(args);
      emit({
        type: 'ephemeral',
        channel: asString(args.channel)!,
        user: asString(args.user)!,
        ts,
        text: content.text,
        blocks: content.blocks,
        attachments: content.attachments,
      });
      return { ok: true, message_ts: ts };
    },
    /*
     * chat.getPermalink (no scope needed): `channel` and `message_ts` of an existing message, in any conversation
     * the bot can see; `channel_not_found` for one it cannot (as chat.postMessage), `message_not_found` for a ts
     * with no message there. Ephemeral messages are not messages of the channel: they have no permalink.
     */
    'chat.getPermalink': (args) => {
      const channel = asString(args.channel) ?? '';
      if (channel === '' || !botCanSee(channel)) return { ok: false, error: 'channel_not_found' };
      const ts = asString(args.message_ts);
      const message = ts === undefined ? undefined : findMessage(channel, ts);
      if (message === undefined) return { ok: false, error: 'message_not_found' };
      return { ok: true, channel, permalink: permalinkOf(message) };
    },
    // Top-level messages, newest first, as Slack pages them (a thread's replies are not in a channel's history).
    'conversations.history': (args) => {
      const channel = asString(args.channel) ?? '';
      const refused = refuseHistory(channel);
      if (refused !== undefined) return refused;
      const inChannel = stored.filter(
        (m) => m.channel === channel && (m.threadTs === undefined || m.threadTs === m.ts),
      );
      return historyPage(inChannel.reverse(), args);
    },
    // A thread: its parent first, then the replies oldest first.
    'conversations.replies': (args) => {
      const channel = asString(args.channel) ?? '';
      const refused = refuseHistory(channel);
      if (refused !== undefined) return refused;
      const parentTs = asString(args.ts);
      const parent = parentTs === undefined ? undefined : findMessage(channel, parentTs);
      if (parent === undefined) return { ok: false, error: 'thread_not_found' };
      const replies = stored.filter((m) => m.channel === channel && m.threadTs === parent.ts && m.ts !== parent.ts);
      return historyPage([parent, ...replies], args);
    },
    /*
     * conversations.join: "Joins an existing conversation", public channels only (channels:join). Any other kind
     * answers `method_not_supported_for_channel_type`; one the bot cannot see, `channel_not_found`. Joining a
     * channel the bot is already in succeeds with Slack's `already_in_channel` warning.
     */
    'conversations.join': (args) => {
      const channel = asString(args.channel) ?? '';
      if (channel === '' || !botCanSee(channel)) return { ok: false, error: 'channel_not_found' };
      if (conversationKind(channel) !== 'public') return { ok: false, error: 'method_not_supported_for_channel_type' };
      const existing = conversations.get(channel);
      if (existing?.archived === true) return { ok: false, error: 'is_archived' };
      const already = isMember(channel, botUserId);
      if (existing === undefined) {
        conversations.set(channel, {
          id: channel,
          name: undefined,
          kind: 'public',
          members: new Set([botUserId]),
          everyone: true,
          archived: false,
        });
      } else {
        existing.members.add(botUserId);
      }
      changes.emit('change');
      return {
        ok: true,
        channel: conversationObject(channel),
        ...(already ? { warning: 'already_in_channel', response_metadata: { warnings: ['already_in_channel'] } } : {}),
      };
    },
    /*
     * conversations.open (scope im:write): "Opens or resumes a direct message". With one user in `users`, the DM of
     * the bot and that person: the one that exists (`no_op`, `already_open`), or a new one. `channel` resumes a DM the
     * bot is in. Errors as the reference names them: no users and no channel `users_list_not_supplied`, a user who is
     * not a person of the workspace `user_not_found`, the bot itself `cannot_dm_bot`, more than 8 `too_many_users`.
     * Group DMs (several users) are not something the bot opens: they answer `method_not_supported_for_channel_type`.
     */
    'conversations.open': (args) => {
      const resume = asString(args.channel);
      if (resume !== undefined && resume !== '') {
        const existing = conversations.get(resume);
        if (existing === undefined || !isMember(resume, botUserId)) return { ok: false, error: 'channel_not_found' };
        if (existing.kind !== 'im' && existing.kind !== 'mpim')
          return { ok: false, error: 'method_not_supported_for_channel_type' };
        return { ok: true, no_op: true, already_open: true, channel: { id: resume } };
      }
      const users = (asString(args.users) ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter((u) => u !== '');
      if (users.length === 0) return { ok: false, error: 'users_list_not_supplied' };
      if (users.length > 8) return { ok: false, error: 'too_many_users' };
      if (users.includes(botUserId)) return { ok: false, error: 'cannot_dm_bot' };
      if (!users.every(isPerson)) return { ok: false, error: 'user_not_found' };
      if (users.length > 1) return { ok: false, error: 'method_not_supported_for_channel_type' };
      const person = users[0]!;
      const open = [...conversations.values()].find(
        (c) => c.kind === 'im' && c.members.has(botUserId) && c.members.has(person),
      );
      if (open !== undefined) return { ok: true, no_op: true, already_open: true, channel: { id: open.id } };
      const id = `D${person.replace(/^[UW]/, '')}BOT`.slice(0, 20);
      conversations.set(id, {
        id,
        name: undefined,
        kind: 'im',
        members: new Set([person, botUserId]),
        everyone: false,
        archived: false,
      });
      changes.emit('change');
      return { ok: true, channel: { id } };
    },
    // conversations.info: what the bot may know of a conversation it can see.
    'conversations.info': (args) => {
      const channel = asString(args.channel) ?? '';
      if (channel === '' || !botCanSee(channel)) return { ok: false, error: 'channel_not_found' };
      return { ok: true, channel: conversationObject(channel) };
    },
    // views.open: the trigger must be one Slack issued (its issue time leads it), at most 3 s old and unused;
    // the view must be a valid modal. Errors as Slack names them.
    'views.open': (args) => {
      const triggerId = asString(args.trigger_id) ?? '';
      const issuedAt = Number(/^(\d{13})\.\d+\.[0-9a-f]+$/.exec(triggerId)?.[1] ?? Number.NaN);
      if (Number.isNaN(issuedAt)) return { ok: false, error: 'invalid_trigger_id' };
      if (exchangedTriggers.has(triggerId)) return { ok: false, error: 'exchanged_trigger_id' };
      if (clock() - issuedAt > TRIGGER_LIFETIME_MS) return { ok: false, error: 'expired_trigger_id' };
      const refused = refuseView(args.view);
      if (refused) return refused;
      exchangedTriggers.add(triggerId);
      const view = args.view as Record<string, unknown>;
      const opened: OpenedView = {
        id: `V${randomBytes(5).toString('hex').toUpperCase()}`,
        triggerId,
        view,
        hash: newHash(),
        openedAt: clock(),
      };
      openedViews.push(opened);
      changes.emit('change');
      emit(viewEvent('opened', opened));
      return { ok: true, view: viewObject(opened) };
    },
    // views.update: by view_id; with a hash, only if the view has not changed since (hash_conflict otherwise).
    'views.update': (args) => {
      const opened = openedViews.find((candidate) => candidate.id === asString(args.view_id));
      if (!opened) return { ok: false, error: 'not_found' };
      const hash = asString(args.hash);
      if (hash !== undefined && hash !== opened.hash) return { ok: false, error: 'hash_conflict' };
      const refused = refuseView(args.view);
      if (refused) return refused;
      opened.view = args.view as Record<string, unknown>;
      opened.hash = newHash();
      changes.emit('change');
      emit(viewEvent('updated', opened));
      return { ok: true, view: viewObject(opened) };
    },
    /*
     * usergroups.users.list (scope usergroups:read; the method's reference): `{ok, users}` with the group's member
     * ids. `usergroup` is required (`invalid_arguments` naming it, as Slack answers a missing required argument);
     * an id that names no group answers `no_such_subteam`. "include_disabled: allow results that involve disabled
     * User Groups": without it a disabled group lists nobody.
     */
    'usergroups.users.list': (args) => {
      if (!(options.usergroupsRead ?? true))
        return {
          ok: false,
          error: 'missing_scope',
          needed: 'usergroups:read',
          provided: grantedWithout('usergroups:read'),
        };
      const groupId = asString(args.usergroup) ?? '';
      if (groupId === '')
        return {
          ok: false,
          error: 'invalid_arguments',
          response_metadata: { messages: ['[ERROR] missing required field: usergroup'] },
        };
      const group = usergroups.get(groupId);
      if (group === undefined) return { ok: false, error: 'no_such_subteam' };
      const listed = group.disabled === true && asBoolean(args.include_disabled) !== true ? [] : group.users;
      return { ok: true, users: [...listed] };
    },
    /*
     * files.getUploadURLExternal (scope files:write; the method's reference): `filename` and `length` (bytes, an
     * integer) are required, `alt_txt` at most 1,000 characters (`alt_txt_too_large`); a length of 0 answers
     * `missing_argument`, as the reference says. Answers an upload URL (on this stand-in) and the new file's id.
     */
    'files.getUploadURLExternal': (args) => {
      if (!(options.filesWrite ?? true)) return missingFilesWrite();
      const filename = asString(args.filename) ?? '';
      if (filename === '') return missingField('filename');
      const lengthArg = asString(args.length);
      if (lengthArg === undefined || lengthArg === '') return missingField('length');
      if (!/^\d+$/.test(lengthArg)) return invalidField('length', 'must be an integer');
      const length = Number(lengthArg);
      if (length === 0) return { ok: false, error: 'missing_argument' };
      // Slack takes files up to 1 GB.
      if (length > MAX_FILE_BYTES) return { ok: false, error: 'file_upload_size_restricted' };
      const altTxt = asString(args.alt_txt);
      if (altTxt !== undefined && [...altTxt].length > 1_000) return { ok: false, error: 'alt_txt_too_large' };
      const id = `F${randomBytes(5).toString('hex').toUpperCase()}`;
      const uploadUrl = `${baseUrl}/upload/v1/${id}/${randomBytes(12).toString('hex')}`;
      uploads.set(id, {
        id,
        filename,
        length,
        altTxt,
        uploadUrl,
        bytes: undefined,
        completed: false,
        title: undefined,
        shares: [],
      });
      changes.emit('change');
      return { ok: true, upload_url: uploadUrl, file_id: id };
    },
    /*
     * files.completeUploadExternal (scope files:write; the method's reference): `files` (required) names uploads by
     * id with optional titles; each must have had its bytes posted, and "this method can only be called once" (else
     * `file_not_found`: "could not find the file from the upload ticket"). Without `channel_id` (or `channels`) the
     * files stay private. Sharing needs the bot in the channel: unlike chat.postMessage, chat:write.public does not
     * cover it (`not_in_channel`). `thread_ts` names the parent message of a thread ("never use a reply's ts"),
     * with one channel. One message per channel carries the files, `initial_comment` as its text.
     */
    'files.completeUploadExternal': (args) => {
      if (!(options.filesWrite ?? true)) return missingFilesWrite();
      if (args.files === undefined || args.files === '') return missingField('files');
      const listed: unknown = typeof args.files === 'string' ? parseJsonOrUndefined(args.files) : args.files;
      const wanted = Array.isArray(listed) ? listed : undefined;
      if (
        wanted === undefined ||
        wanted.length === 0 ||
        !wanted.every((file) => isRecord(file) && typeof file.id === 'string' && file.id !== '')
      )
        return invalidField('files', 'must be a list of objects with an id');
      const channelId = asString(args.channel_id);
      const channels = [
        ...(channelId !== undefined && channelId !== '' ? [channelId] : []),
        ...(asString(args.channels) ?? '')
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
      ];
      if (channels.length > 100) return { ok: false, error: 'channels_limit_exceeded' };
      // Slack's pattern is ^[CGDZ][A-Z0-9]{8,}$; the length is not held here (the workspace's ids are short).
      const badChannel = channels.find((id) => !/^[CGDZ][A-Z0-9]+$/.test(id));
      if (badChannel !== undefined)
        return invalidField(
          channelId === badChannel ? 'channel_id' : 'channels',
          'input must match regex pattern: ^[CGDZ][A-Z0-9]{8,}$',
        );
      const threadTs = asString(args.thread_ts);
      if (threadTs !== undefined) {
        if (!/^\d+\.\d+$/.test(threadTs)) return invalidField('thread_ts', 'must be a message ts');
        if (channels.length !== 1) return invalidField('thread_ts', 'needs exactly one channel');
      }
      const files: UploadedFile[] = [];
      for (const file of wanted as { id: string; title?: unknown }[]) {
        const upload = uploads.get(file.id);
        if (upload === undefined || upload.bytes === undefined || upload.completed)
          return { ok: false, error: 'file_not_found' };
        files.push(upload);
      }
      for (const channel of channels) {
        if (!botCanSee(channel)) return { ok: false, error: 'channel_not_found' };
        if (!isMember(channel, botUserId)) return { ok: false, error: 'not_in_channel' };
        if (conversations.get(channel)?.archived === true) return { ok: false, error: 'posting_to_channel_denied' };
        if (threadTs !== undefined) {
          const parent = findMessage(channel, threadTs);
          if (parent === undefined || (parent.threadTs !== undefined && parent.threadTs !== parent.ts))
            return invalidField('thread_ts', "must be the ts of a thread's parent message in the channel");
        }
      }
      const initialComment = asString(args.initial_comment);
      // "If the initial_comment field is provided, the blocks field is ignored."
      const content = messageContent(initialComment === undefined ? { blocks: args.blocks } : { text: initialComment });
      if (content.blocks !== undefined) {
        const refused = refuseContent('files.completeUploadExternal', { blocks: content.blocks });
        if (refused !== undefined) return refused;
      }
      for (const [i, upload] of files.entries()) {
        const title = asString((wanted[i] as { title?: unknown }).title);
        upload.completed = true;
        upload.title = title === undefined || title === '' ? upload.filename : title;
      }
      const shared = files.map(fileObject);
      for (const channel of channels) {
        const ts = nextTs();
        const at = clock();
        const text = content.text ?? '';
        stored.push({
          channel,
          ts,
          threadTs,
          text,
          blocks: content.blocks,
          attachments: undefined,
          metadata: undefined,
          files: structuredClone(shared),
          history: [{ text, blocks: content.blocks, attachments: undefined, at }],
        });
        for (const upload of files) upload.shares.push({ channel, ts, threadTs });
        emit({
          type: 'message',
          channel,
          ts,
          threadTs,
          text,
          blocks: content.blocks,
          attachments: undefined,
          files: structuredClone(shared),
        });
      }
      changes.emit('change');
      return { ok: true, files: shared };
    },
    /*
     * views.publish (the method's reference): `user_id` and `view` are required; a user the workspace does not have
     * answers `invalid_arguments` ("invalid `user_id`"), a Home tab the app has not enabled `not_enabled`, a view
     * over 250 kB `view_too_large`, and a `hash` that is not the one of the person's current Home `hash_conflict`
     * ("the provided hash doesn't match the current stored value"). The view is held to a Home tab's rules
     * (validateHomeView). The answer is the view with Slack's fields and a new hash; the person's Home id stays.
     */
    'views.publish': (args) => {
      const userId = asString(args.user_id) ?? '';
      if (userId === '' || !isPerson(userId))
        return { ok: false, error: 'invalid_arguments', response_metadata: { messages: ['invalid `user_id`'] } };
      if (args.view === undefined)
        return {
          ok: false,
          error: 'invalid_arguments',
          response_metadata: { messages: ['[ERROR] missing required field: view'] },
        };
      if (isRecord(args.view) && args.view.type === 'home' && !(options.homeTabEnabled ?? true))
        return { ok: false, error: 'not_enabled' };
      const problems = validateHomeView(args.view);
      if (problems.length > 0) {
        const messages = problems.map((problem) => `[ERROR] ${describeProblem(problem)}`);
        reject('views.publish', { error: 'invalid_arguments', problems });
        return { ok: false, error: 'invalid_arguments', response_metadata: { messages } };
      }
      const view = args.view as Record<string, unknown>;
      if (Buffer.byteLength(JSON.stringify(view)) > HOME_LIMITS.viewBytes)
        return { ok: false, error: 'view_too_large' };
      const current = homes.get(userId);
      const hash = asString(args.hash);
      if (hash !== undefined && hash !== current?.hash) return { ok: false, error: 'hash_conflict' };
      const published: PublishedHome = {
        id: current?.id ?? `V${randomBytes(5).toString('hex').toUpperCase()}`,
        user: userId,
        view: structuredClone(view),
        hash: newHash(),
        publishedAt: clock(),
      };
      homes.set(userId, published);
      changes.emit('change');
      emit({ type: 'home', user: userId, id: published.id, view: structuredClone(view), hash: published.hash });
      return { ok: true, view: homeViewObject(published) };
    },
  };

  const refuseView = (view: unknown): ApiAnswer | undefined => {
    const problems = validateModalView(view);
    if (problems.length === 0) return undefined;
    const messages = problems.map((problem) => `[ERROR] ${describeProblem(problem)}`);
    return { ok: false, error: 'invalid_arguments', response_metadata: { messages } };
  };
  const newHash = () => `${Math.floor(clock() / 1000)}.${randomBytes(6).toString('hex')}`;
  const viewEvent = (change: 'opened' | 'updated', opened: OpenedView): StandInEvent => ({
    type: 'view',
    change,
    id: opened.id,
    triggerId: opened.triggerId,
    view: structuredClone(opened.view),
    hash: opened.hash,
  });
  // A Home view as Slack answers it (and as app_home_opened and a click in it carry it).
  const homeViewObject = (home: PublishedHome) => ({
    id: home.id,
    team_id: teamId,
    type: 'home',
    close: null,
    submit: null,
    blocks: Array.isArray(home.view.blocks) ? home.view.blocks : [],
    private_metadata: asString(home.view.private_metadata) ?? '',
    callback_id: asString(home.view.callback_id) ?? '',
    state: { values: {} },
    hash: home.hash,
    clear_on_close: false,
    notify_on_close: false,
    root_view_id: home.id,
    previous_view_id: null,
    app_id: options.appId ?? 'A_TEST',
    external_id: asString(home.view.external_id) ?? '',
    bot_id: botId,
  });
  /** Whether this views.publish call is past the person's burst (see homePublishesPerMinute); seconds to wait. */
  const homeRateLimited = (args: Args): number | undefined => {
    const userId = asString(args.user_id);
    if (userId === undefined) return undefined;
    const at = clock();
    const recent = (homePublishes.get(userId) ?? []).filter((t) => at - t < HOME_RATE_WINDOW_MS);
    if (recent.length >= (options.homePublishesPerMinute ?? 30)) {
      homePublishes.set(userId, recent);
      return Math.max(1, Math.ceil((recent[0]! + HOME_RATE_WINDOW_MS - at) / 1000));
    }
    recent.push(at);
    homePublishes.set(userId, recent);
    return undefined;
  };
  const viewObject = (opened: OpenedView) => ({
    ...opened.view,
    id: opened.id,
    team_id: teamId,
    hash: opened.hash,
    state: { values: {} },
  });

  // Reading a conversation needs the bot in it (channels:history / groups:history read only where it is a member),
  // and a direct message needs im:history.
  const refuseHistory = (channel: string): ApiAnswer | undefined => {
    if (channel === '' || conversationKind(channel) === undefined) return { ok: false, error: 'channel_not_found' };
    if (conversationKind(channel) === 'im' && !(options.imHistory ?? true))
      return { ok: false, error: 'missing_scope', needed: 'im:history', provided: grantedWithout('im:history') };
    if (!isMember(channel, botUserId)) return { ok: false, error: 'not_in_channel' };
    return undefined;
  };

  /**
   * One page of messages in the order given, within `oldest`/`latest` (exclusive unless `inclusive`), `limit`
   * per page (default 100, at most 999) and a cursor; metadata only with `include_all_metadata`, as Slack does.
   */
  const historyPage = (messages: StoredMessage[], args: Args): ApiAnswer => {
    const inclusive = asBoolean(args.inclusive) === true;
    const oldest = asString(args.oldest);
    const latest = asString(args.latest);
    const after = (ts: string, bound: string) => (inclusive ? tsCompare(ts, bound) >= 0 : tsCompare(ts, bound) > 0);
    const before = (ts: string, bound: string) => (inclusive ? tsCompare(ts, bound) <= 0 : tsCompare(ts, bound) < 0);
    const inRange = messages.filter(
      (m) => (oldest === undefined || after(m.ts, oldest)) && (latest === undefined || before(m.ts, latest)),
    );
    const limit = Math.min(999, Math.max(1, Number(asString(args.limit) ?? 100) || 100));
    const start = Number(/^offset:(\d+)$/.exec(asString(args.cursor) ?? '')?.[1] ?? 0);
    const page = inRange.slice(start, start + limit);
    const more = start + limit < inRange.length;
    const withMetadata = asBoolean(args.include_all_metadata) === true;
    return {
      ok: true,
      messages: page.map((m) => ({
        ...slackMessage(m, m.ts, m.threadTs),
        ...(withMetadata && m.metadata !== undefined ? { metadata: m.metadata } : {}),
      })),
      has_more: more,
      ...(more
        ? { response_metadata: { next_cursor: `offset:${start + limit}` } }
        : { response_metadata: { next_cursor: '' } }),
    };
  };

  const slackMessage = (content: MessageContent, ts: string, threadTs: string | undefined): Args => ({
    type: 'message',
    user: botUserId,
    bot_id: botId,
    team: teamId,
    ts,
    ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
    text: content.text ?? '',
    ...(content.blocks !== undefined ? { blocks: content.blocks } : {}),
    ...(content.attachments !== undefined ? { attachments: slackAttachments(content.attachments) } : {}),
    // A file share, as Slack lists it: the files, and `upload` (true when the message came with the upload).
    ...(content.files !== undefined ? { files: content.files, upload: true } : {}),
  });

  const handleApi = async (method: string, req: IncomingMessage, raw: Buffer, res: ServerResponse): Promise<void> => {
    let args: Args;
    try {
      args = await parseBody(req.headers['content-type'], raw);
    } catch {
      sendJson(res, 200, { ok: false, error: 'invalid_json' });
      return;
    }
    // Slack takes the token from the header or from the body; either way it must never reach the log.
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? asString(args.token);
    delete args.token;
    calls.push({ method, args, at: clock() });
    changes.emit('change');

    const failure = takeFailure(method, asString(args.channel), asString(args.text));
    // Slack rates views.publish per person: past the burst it answers 429 `ratelimited` with Retry-After.
    const homeWait = method === 'views.publish' && failure === undefined ? homeRateLimited(args) : undefined;
    if (homeWait !== undefined) {
      sendJson(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(homeWait) });
      return;
    }
    // A lost, late or failed answer comes after the work is done; every other failure comes instead of it.
    const lostAnswer =
      failure !== undefined && ('lateAnswerMs' in failure || 'dropAnswer' in failure || 'failAfterWork' in failure)
        ? failure
        : undefined;
    const slowWork = failure !== undefined && 'slowWorkMs' in failure ? failure : undefined;
    if (slowWork !== undefined) await sleep(slowWork.slowWorkMs, closing.signal);
    else if (failure !== undefined && lostAnswer === undefined && !(await applyFailure(failure, res))) return;

    // apps.connections.open is the one method called with the app-level token.
    const expectedToken = method === 'apps.connections.open' ? options.appToken : options.botToken;
    if (expectedToken !== undefined) {
      if (token === undefined) return sendJson(res, 200, { ok: false, error: 'not_authed' });
      if (token !== expectedToken) return sendJson(res, 200, { ok: false, error: 'invalid_auth' });
    }
    const handler = handlers[method];
    const answer = handler !== undefined ? handler(args) : { ok: true };
    if (lostAnswer !== undefined && 'dropAnswer' in lostAnswer) {
      res.socket?.destroy();
      return;
    }
    if (lostAnswer !== undefined && 'lateAnswerMs' in lostAnswer) await sleep(lostAnswer.lateAnswerMs, closing.signal);
    if (lostAnswer !== undefined && 'failAfterWork' in lostAnswer) {
      const { status, error } = lostAnswer.failAfterWork;
      sendJson(res, status ?? 200, { ok: false, error });
      return;
    }
    sendJson(res, 200, answer);
  };

  const handleResponseUrl = async (
    url: string,
    req: IncomingMessage,
    raw: Buffer,
    res: ServerResponse,
  ): Promise<void> => {
    const log = responseLog.get(url);
    const issued = responseUrls.get(url);
    if (log === undefined || issued === undefined) return sendJson(res, 404, { ok: false, error: 'expired_url' });
    let body: Args;
    try {
      body = await parseBody(req.headers['content-type'], raw);
    } catch {
      return sendJson(res, 400, { ok: false, error: 'invalid_payload' });
    }
    const failure = takeFailure('response_url');
    if (failure !== undefined && !(await applyFailure(failure, res))) return;
    if (clock() - issued.createdAt > RESPONSE_URL_LIFETIME_MS)
      return sendJson(res, 404, { ok: false, error: 'expired_url' });
    if (log.length >= MAX_POSTS_PER_RESPONSE_URL) return sendJson(res, 404, { ok: false, error: 'used_url' });
    /*
     * Slack's docs do not say what a response_url answers for bad blocks. Its webhook hosts answer 400 with just
     * the error name (slackapi/java-slack-sdk issue #1017), so do we; the details go to `rejections`.
     */
    const refusal = checkMessage({ text: body.text, blocks: body.blocks, attachments: body.attachments });
    if (refusal !== undefined) {
      reject(url, refusal);
      return sendJson(res, 400, { ok: false, error: refusal.error });
    }
    const content = messageContent(body);
    const replaceOriginal = asBoolean(body.replace_original);
    const deleteOriginal = asBoolean(body.delete_original);
    const hasContent = content.text !== undefined || content.blocks !== undefined || content.attachments !== undefined;
    // Incoming webhooks (the same hosts) answer `no_text` when there is nothing to post.
    if (!hasContent && deleteOriginal !== true) {
      reject(url, { error: 'no_text', problems: [] });
      return sendJson(res, 400, { ok: false, error: 'no_text' });
    }
    const effect = applyResponse(issued.origin, content, { replaceOriginal, deleteOriginal, hasContent });
    const response: RecordedResponse = {
      body,
      text: content.text,
      blocks: content.blocks,
      attachments: content.attachments,
      responseType: asString(body.response_type),
      replaceOriginal,
      deleteOriginal,
      effect,
      at: clock(),
    };
    log.push(response);
    emit({ type: 'response', url, effect, origin: issued.origin, response });
    changes.emit('change');
    sendJson(res, 200, { ok: true });
  };

  // The original of a click's response_url is the clicked message: when it is one of ours, replace or delete it.
  const applyResponse = (
    origin: ResponseUrlOrigin | undefined,
    content: MessageContent,
    flags: { replaceOriginal: boolean | undefined; deleteOriginal: boolean | undefined; hasContent: boolean },
  ): ResponseEffect => {
    if (origin === undefined) return flags.hasContent ? 'new_message' : 'none';
    const message = origin.ts === undefined ? undefined : findMessage(origin.channel, origin.ts);
    if (flags.deleteOriginal === true) {
      if (message !== undefined) stored.splice(stored.indexOf(message), 1);
      return 'deleted_original';
    }
    if (flags.replaceOriginal === true) {
      if (message !== undefined) {
        Object.assign(message, content);
        message.history.push({ ...content, at: clock() });
      }
      return 'replaced_original';
    }
    return 'new_message';
  };

  // Returns true when the request should go on to be answered normally (after a delay).
  const applyFailure = async (failure: InjectedFailure, res: ServerResponse): Promise<boolean> => {
    if ('reset' in failure) {
      res.socket?.destroy();
      return false;
    }
    if ('delayMs' in failure) {
      await sleep(failure.delayMs, closing.signal);
      return !res.destroyed;
    }
    if ('error' in failure && !('status' in failure)) {
      sendJson(res, 200, { ok: false, error: failure.error });
      return false;
    }
    if (!('status' in failure)) return true;
    const headers: Record<string, string> = {};
    const retryAfter = failure.retryAfter ?? (failure.status === 429 ? 1 : undefined);
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
    const error = failure.error ?? (failure.status === 429 ? 'ratelimited' : 'internal_error');
    sendJson(res, failure.status, { ok: false, error }, headers);
    return false;
  };

  // Slack's answer to a missing required argument, and to one it cannot take, naming the field.
  const missingField = (field: string): ApiAnswer => ({
    ok: false,
    error: 'invalid_arguments',
    response_metadata: { messages: [`[ERROR] missing required field: ${field}`] },
  });
  const invalidField = (field: string, problem: string): ApiAnswer => ({
    ok: false,
    error: 'invalid_arguments',
    response_metadata: { messages: [`[ERROR] ${problem} [json-pointer:/${field}]`] },
  });
  const missingFilesWrite = (): ApiAnswer => ({
    ok: false,
    error: 'missing_scope',
    needed: 'files:write',
    provided: grantedWithout('files:write'),
  });
  /** Where a completed file's bytes are served (Slack's `files-pri/<team>-<file>/<name>`). */
  const urlPrivateOf = (upload: UploadedFile): string =>
    `${baseUrl}/files-pri/${teamId}-${upload.id}/${encodeURIComponent(upload.filename)}`;
  const fileObject = (upload: UploadedFile): SlackFile => {
    const type = fileTypeOf(upload.filename);
    const size = upload.bytes?.length ?? upload.length;
    const dimensions = type.filetype === 'png' && upload.bytes !== undefined ? pngSize(upload.bytes) : undefined;
    const created = Math.floor(clock() / 1000);
    return {
      id: upload.id,
      created,
      timestamp: created,
      name: upload.filename,
      title: upload.title ?? upload.filename,
      mimetype: type.mimetype,
      filetype: type.filetype,
      pretty_type: type.prettyType,
      user: botUserId,
      user_team: teamId,
      editable: false,
      size,
      mode: 'hosted',
      is_external: false,
      external_type: '',
      is_public: upload.shares.some((share) => conversationKind(share.channel) === 'public'),
      public_url_shared: false,
      display_as_bot: false,
      username: '',
      url_private: urlPrivateOf(upload),
      url_private_download: `${urlPrivateOf(upload)}?download=1`,
      permalink: `https://${teamDomain}.slack.com/files/${botUserId}/${upload.id}/${encodeURIComponent(upload.filename)}`,
      ...(upload.altTxt !== undefined ? { alt_txt: upload.altTxt } : {}),
      ...(dimensions !== undefined ? { original_w: dimensions.width, original_h: dimensions.height } : {}),
    };
  };

  /*
   * An upload URL takes the file's bytes once, raw or as a multipart form (the first file part), as the reference
   * says; Slack answers 200 when it took them ("a non-200 response indicates a failure"). The stand-in holds the
   * bytes to the declared `length` (400 otherwise: Slack would keep a broken file) and refuses a second upload to
   * the same URL (409) and an upload after completing (404).
   */
  const handleUpload = async (path: string, req: IncomingMessage, raw: Buffer, res: ServerResponse): Promise<void> => {
    const upload = [...uploads.values()].find((candidate) => new URL(candidate.uploadUrl).pathname === path);
    if (upload === undefined || upload.completed) return sendText(res, 404, 'upload not found');
    const failure = takeFailure('upload_url');
    if (failure !== undefined && !(await applyFailure(failure, res))) return;
    if (upload.bytes !== undefined) return sendText(res, 409, 'file already uploaded');
    let bytes = raw;
    if ((req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'content-type': req.headers['content-type'] ?? '' } })
        .formData()
        .catch(() => undefined);
      const part = form === undefined ? undefined : [...form.values()].find((value) => typeof value !== 'string');
      if (part === undefined || typeof part === 'string') return sendText(res, 400, 'no file in the form');
      bytes = Buffer.from(await part.arrayBuffer());
    }
    if (bytes.length !== upload.length)
      return sendText(res, 400, `length mismatch: declared ${upload.length} bytes, received ${bytes.length}`);
    upload.bytes = bytes;
    changes.emit('change');
    sendText(res, 200, `OK - ${bytes.length}`);
  };

  /*
   * url_private: a completed file's bytes. Slack wants the bot token in the Authorization header, or the session of
   * a signed-in client (the local workspace's page is one): a token that is not the bot's is refused.
   */
  const handleFileDownload = (path: string, req: IncomingMessage, res: ServerResponse): void => {
    const upload = [...uploads.values()].find((candidate) => new URL(urlPrivateOf(candidate)).pathname === path);
    if (upload === undefined || !upload.completed || upload.bytes === undefined) {
      sendText(res, 404, 'file not found');
      return;
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (bearer !== undefined && options.botToken !== undefined && bearer !== options.botToken) {
      sendText(res, 403, 'invalid_auth');
      return;
    }
    const type = fileTypeOf(upload.filename);
    res.writeHead(200, {
      'content-type': type.mimetype,
      'content-length': String(upload.bytes.length),
      // Only images are shown in place; anything else downloads, so no file of the bot's runs as a page here.
      'content-disposition': `${type.mimetype.startsWith('image/') ? 'inline' : 'attachment'}; filename="${upload.filename.replace(/[^\w.-]/g, '_')}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=3600',
    });
    res.end(upload.bytes);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      const raw = await readBody(req);
      if (req.method === 'POST' && path.startsWith('/api/')) {
        await handleApi(decodeURIComponent(path.slice('/api/'.length)), req, raw, res);
      } else if (req.method === 'POST' && path.startsWith('/response/')) {
        await handleResponseUrl(`${baseUrl}${path}`, req, raw, res);
      } else if (req.method === 'POST' && path.startsWith('/upload/v1/')) {
        await handleUpload(path, req, raw, res);
      } else if (req.method === 'GET' && path.startsWith('/files-pri/')) {
        handleFileDownload(path, req, res);
      } else {
        sendJson(res, 404, { ok: false, error: 'unknown_method' });
      }
    })().catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) sendJson(res, 500, { ok: false, error: String(error) });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const describeRecorded = (): string => {
    const callLines = calls.map((c) => `  ${c.method} ${truncate(JSON.stringify(c.args), 200)}`);
    const responseLines = [...responseLog].map(
      ([url, posts]) =>
        `  ${url}: ${posts.length} post(s)${posts.map((p) => `\n    ${truncate(JSON.stringify(p.body), 200)}`).join('')}`,
    );
    // A refused message is the usual reason an awaited post never arrives: say why it was refused.
    const rejectionLines = rejections.map(
      (r) => `  ${r.target}: ${r.error}${r.problems.map((p) => `\n    ${p}`).join('')}`,
    );
    return [
      `recorded calls (${calls.length}):`,
      ...(callLines.length > 0 ? callLines : ['  (none)']),
      `response_urls (${responseLog.size}):`,
      ...(responseLines.length > 0 ? responseLines : ['  (none)']),
      ...(rejectionLines.length > 0 ? [`refused as Slack would (${rejections.length}):`, ...rejectionLines] : []),
    ].join('\n');
  };

  const waitFor = <T>(
    predicate: () => T,
    timeoutMs = DEFAULT_WAIT_MS,
    description = 'condition',
  ): Promise<NonNullable<T>> =>
    new Promise<NonNullable<T>>((resolve, reject) => {
      let lastError: unknown;
      let done = false;
      const finish = (): void => {
        done = true;
        clearTimeout(timer);
        clearInterval(poller);
        changes.off('change', check);
        closing.signal.removeEventListener('abort', onClose);
      };
      // A throwing predicate (e.g. an `expect`) just means "not yet"; its last error is shown on timeout.
      function check(): void {
        if (done) return;
        try {
          const value = predicate();
          if (value) {
            finish();
            resolve(value as NonNullable<T>);
          }
        } catch (error) {
          lastError = error;
        }
      }
      const onClose = (): void => {
        finish();
        reject(new Error(`Slack stand-in closed while waiting for ${description}`));
      };
      const timer = setTimeout(() => {
        finish();
        const last = lastError instanceof Error ? `\nlast predicate error: ${lastError.message}` : '';
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${description}${last}\n${describeRecorded()}`));
      }, timeoutMs);
      // Recorded traffic wakes us at once; polling covers predicates about state outside the stand-in.
      const poller = setInterval(check, POLL_MS);
      changes.on('change', check);
      closing.signal.addEventListener('abort', onClose);
      if (closing.signal.aborted) onClose();
      else check();
    });

  return {
    apiUrl: `${baseUrl}/api/`,
    baseUrl,
    port,
    botUserId,
    botId,
    teamId,
    teamDomain,
    get calls() {
      return calls;
    },
    get rejections() {
      return rejections;
    },
    callsOf: (method) => calls.filter((c) => c.method === method),
    messages: (channel) => structuredClone(stored.filter((m) => channel === undefined || m.channel === channel)),
    failNext: (method, failure, times = 1, only) => {
      const queue = failures.get(method) ?? [];
      queue.push({
        failure,
        remaining: times,
        ...(only?.channel !== undefined ? { channel: only.channel } : {}),
        ...(only?.textIncludes !== undefined ? { textIncludes: only.textIncludes } : {}),
      });
      failures.set(method, queue);
    },
    createResponseUrl: (origin) => {
      urlCounter += 1;
      const url = `${baseUrl}/response/${urlCounter}-${randomBytes(6).toString('hex')}`;
      responseLog.set(url, []);
      responseUrls.set(url, { createdAt: clock(), origin: origin === undefined ? undefined : { ...origin } });
      return url;
    },
    responses: (url) => [...(responseLog.get(url) ?? [])],
    waitFor,
    waitForCalls: (method, count, timeoutMs) =>
      waitFor(
        () => {
          const matching = calls.filter((c) => c.method === method);
          return matching.length >= count ? matching : undefined;
        },
        timeoutMs,
        `${count} call(s) to ${method}`,
      ),
    waitForResponses: (url, count, timeoutMs) =>
      waitFor(
        () => {
          const posts = responseLog.get(url) ?? [];
          return posts.length >= count ? [...posts] : undefined;
        },
        timeoutMs,
        `${count} post(s) to ${url}`,
      ),
    reset: () => {
      calls.length = 0;
      rejections.length = 0;
      stored.length = 0;
      responseLog.clear();
      responseUrls.clear();
      failures.clear();
      openedViews.length = 0;
      exchangedTriggers.clear();
      uploads.clear();
      homes.clear();
      homePublishes.clear();
      declareFromOptions();
      declareUsergroupsFromOptions();
    },
    views: () => openedViews.map((opened) => ({ ...opened, view: structuredClone(opened.view) })),
    uploads: () =>
      [...uploads.values()].map((upload) => ({
        ...upload,
        bytes: upload.bytes === undefined ? undefined : Buffer.from(upload.bytes),
        shares: upload.shares.map((share) => ({ ...share })),
      })),
    homeView: (userId) => {
      const home = homes.get(userId);
      return home && { ...home, view: structuredClone(home.view) };
    },
    onEvent: (listener) => {
      events.on('event', listener);
      return () => events.off('event', listener);
    },
    setSocketModeUrl: (url) => {
      socketModeUrl = url;
    },
    deleteMessage: (channel, ts) => {
      const message = findMessage(channel, ts);
      if (message === undefined) return false;
      stored.splice(stored.indexOf(message), 1);
      changes.emit('change');
      return true;
    },
    setPermalinkPage: (url) => {
      permalinkPage = url;
    },
    setUsergroup: (spec) => {
      usergroups.set(spec.id, structuredClone(spec));
      changes.emit('change');
    },
    removeUsergroup: (groupId) => {
      const removed = usergroups.delete(groupId);
      changes.emit('change');
      return removed;
    },
    addConversation: (spec) => {
      declare(spec);
      changes.emit('change');
    },
    setMembers: (channelId, members) => {
      const conversation = conversations.get(channelId);
      if (conversation === undefined) declare({ id: channelId, kind: 'public', members });
      else conversation.members = new Set(members);
      changes.emit('change');
    },
    isMember,
    conversationKind,
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        // fetch keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      }),
  };
}

interface MessageContent {
  text: string | undefined;
  blocks: unknown[] | undefined;
  attachments: unknown[] | undefined;
  /** A file share's files. */
  files?: SlackFile[] | undefined;
}

function messageContent(args: Args): MessageContent {
  // A JSON body may carry blocks and attachments as JSON strings, as a form body does.
  const blocks: unknown = typeof args.blocks === 'string' ? parseJsonOrUndefined(args.blocks) : args.blocks;
  const attachments: unknown =
    typeof args.attachments === 'string' ? parseJsonOrUndefined(args.attachments) : args.attachments;
  return {
    text: asString(args.text),
    blocks: Array.isArray(blocks) ? blocks : undefined,
    attachments: Array.isArray(attachments) ? attachments : undefined,
  };
}

/**
 * Attachments as Slack hands them back (in API answers, conversations.history and interaction payloads): each
 * numbered by its `id`, 1 first, the number a click inside one reports as `container.attachment_id`.
 */
export function slackAttachments(attachments: readonly unknown[]): unknown[] {
  return attachments.map((attachment, i) => (isRecord(attachment) ? { id: i + 1, ...attachment } : attachment));
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Parses a body as Slack does: form (with JSON-encoded fields), JSON, or multipart. */
async function parseBody(contentType: string | undefined, raw: Buffer): Promise<Args> {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (raw.length === 0) return {};
  if (type === 'application/json') {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    return isRecord(parsed) ? parsed : { body: parsed };
  }
  if (type === 'multipart/form-data') {
    // Only file uploads use multipart; record file parts by name and size rather than content.
    const form = await new Response(raw, { headers: { 'content-type': contentType ?? '' } }).formData();
    const args: Args = {};
    form.forEach((value, key) => {
      args[key] = typeof value === 'string' ? decodeFormField(key, value) : { filename: value.name, size: value.size };
    });
    return args;
  }
  // The WebClient's default (and Slack's own reading of a body with no content type).
  const args: Args = {};
  for (const [key, value] of Object.entries(parseQueryString(raw.toString('utf8')))) {
    if (value === undefined) continue;
    args[key] = Array.isArray(value) ? value : decodeFormField(key, value);
  }
  return args;
}

function decodeFormField(key: string, value: string): unknown {
  if (!JSON_FORM_FIELDS.has(key)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

// JSON bodies carry booleans; form bodies carry "true"/"false".
function asBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Message metadata as chat.postMessage takes it: an object with a string `event_type` and an object `event_payload`. */
function readMetadata(value: unknown): MessageMetadata | undefined | 'invalid' {
  if (value === undefined) return undefined;
  const parsed: unknown = typeof value === 'string' ? parseJsonOrUndefined(value) : value;
  if (
    !isRecord(parsed) ||
    typeof parsed.event_type !== 'string' ||
    parsed.event_type === '' ||
    !isRecord(parsed.event_payload)
  )
    return 'invalid';
  return { event_type: parsed.event_type, event_payload: parsed.event_payload };
}

/** Orders two Slack timestamps ("seconds.micros") by time. */
function tsCompare(a: string, b: string): number {
  const [aSeconds = '0', aMicros = '0'] = a.split('.');
  const [bSeconds = '0', bMicros = '0'] = b.split('.');
  const bySeconds = Number(aSeconds) - Number(bSeconds);
  return bySeconds !== 0 ? bySeconds : Number(aMicros.padEnd(6, '0')) - Number(bMicros.padEnd(6, '0'));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

/** A file's type as Slack names it, by the filename's extension (a few kinds; anything else is binary). */
function fileTypeOf(filename: string): { mimetype: string; filetype: string; prettyType: string } {
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  return FILE_TYPES[extension] ?? { mimetype: 'application/octet-stream', filetype: 'binary', prettyType: 'Binary' };
}

const FILE_TYPES: Record<string, { mimetype: string; filetype: string; prettyType: string }> = {
  png: { mimetype: 'image/png', filetype: 'png', prettyType: 'PNG' },
  jpg: { mimetype: 'image/jpeg', filetype: 'jpg', prettyType: 'JPEG' },
  jpeg: { mimetype: 'image/jpeg', filetype: 'jpg', prettyType: 'JPEG' },
  gif: { mimetype: 'image/gif', filetype: 'gif', prettyType: 'GIF' },
  txt: { mimetype: 'text/plain', filetype: 'text', prettyType: 'Plain Text' },
  csv: { mimetype: 'text/csv', filetype: 'csv', prettyType: 'CSV' },
  json: { mimetype: 'application/json', filetype: 'json', prettyType: 'JSON' },
  pdf: { mimetype: 'application/pdf', filetype: 'pdf', prettyType: 'PDF' },
};

/** A PNG's width and height from its IHDR chunk; undefined when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature)) return undefined;
  if (bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
