import { EventEmitter, setMaxListeners } from 'node:events';
import { describeProblem, type MessageRefusal } from '../block-kit-validation.js';
import type {
  ConversationKind,
  ConversationSpec,
  InjectedFailure,
  OpenedView,
  PublishedHome,
  RecordedCall,
  RecordedResponse,
  Rejection,
  ResponseUrlOrigin,
  SlackStandInOptions,
  StandInEvent,
  StoredMessage,
  UploadedFile,
  UserGroupSpec,
} from './types.js';

/**
 * A conversation as the stand-in keeps it. Slack's rules ("Where a bot may post" in STACK-NOTES; the
 * chat.postMessage, chat.postEphemeral and conversations.* references) are applied in membership.ts.
 */
export interface Conversation {
  id: string;
  name: string | undefined;
  kind: ConversationKind;
  members: Set<string>;
  /** Every person is in it (an undeclared public channel the bot joined). */
  everyone: boolean;
  archived: boolean;
}

/** A failure queued by failNext: how many calls it still takes, and which ones. */
export interface QueuedFailure {
  failure: InjectedFailure;
  remaining: number;
  channel?: string;
  textIncludes?: string;
}

/** A response_url the stand-in issued: when (it lives 30 minutes) and the message it may replace or delete. */
export interface IssuedResponseUrl {
  createdAt: number;
  origin: ResponseUrlOrigin | undefined;
}

/** Everything the stand-in's workspace holds, shared by the Web API families and the HTTP routing. */
export interface SlackState {
  readonly options: SlackStandInOptions;
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  readonly teamName: string;
  readonly teamDomain: string;
  /** The clock (ms since the epoch) that ages response_urls and triggers and stamps records. */
  readonly clock: () => number;
  /** Every Web API call, oldest first (the token is never kept). */
  readonly calls: RecordedCall[];
  /** Calls and response_url posts refused for what they carried, oldest first. */
  readonly rejections: Rejection[];
  /** The messages of every conversation, in posting order. */
  readonly stored: StoredMessage[];
  /** The accepted posts to each issued response_url. */
  readonly responseLog: Map<string, RecordedResponse[]>;
  readonly responseUrls: Map<string, IssuedResponseUrl>;
  /** Injected failures by method (or `response_url`, `upload_url`). */
  readonly failures: Map<string, QueuedFailure[]>;
  readonly openedViews: OpenedView[];
  readonly exchangedTriggers: Set<string>;
  /** Files by id, from files.getUploadURLExternal on (see UploadedFile). */
  readonly uploads: Map<string, UploadedFile>;
  /** Each person's Home tab as last published. */
  readonly homes: Map<string, PublishedHome>;
  /** When each person's recent views.publish calls came (for its rate limit). */
  readonly homePublishes: Map<string, number[]>;
  readonly conversations: Map<string, Conversation>;
  /** User groups, by id (usergroups.users.list). */
  readonly usergroups: Map<string, UserGroupSpec>;
  /** Aborted when the stand-in closes: waits and delays end. */
  readonly closing: AbortController;
  /** `http://host:port` once the server listens. */
  baseUrl: string;
  /** Where `apps.connections.open` sends Socket Mode clients. */
  socketModeUrl: string | undefined;
  /** The page chat.getPermalink's links point at, when one is set. */
  permalinkPage: string | undefined;
  /** Whether `userId` is a person of the workspace (views.publish, conversations.open). */
  isPerson(userId: string): boolean;
  /** Wakes whoever waits on the recorded traffic (see waiting.ts). */
  changed(): void;
  onChange(listener: () => void): () => void;
  /** Tells the subscribers what a Slack client would see change. */
  emit(event: StandInEvent): void;
  onEvent(listener: (event: StandInEvent) => void): () => void;
  /** A new message ts: unique, increasing, and following the clock. */
  nextTs(): string;
  findMessage(channel: string, ts: string): StoredMessage | undefined;
  /** Records a call or response_url post refused for its content. */
  reject(target: string, refusal: { error: string; problems: MessageRefusal['problems'] }): void;
}

// Who counts as a person when the options name nobody: any id shaped like a Slack user id.
const USER_ID_SHAPE = /^[UW][A-Z0-9_]{1,31}$/;

/** The stand-in's workspace as the options describe it, with nothing posted yet. */
export function createSlackState(options: SlackStandInOptions = {}): SlackState {
  const clock = options.now ?? Date.now;
  const knownUsers = options.users === undefined ? undefined : new Set(options.users);
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const closing = new AbortController();
  // Every pending wait listens for the close (and stops listening when it ends): many may wait at once.
  setMaxListeners(0, closing.signal);
  let tsCounter = 0;

  const state: SlackState = {
    options,
    botUserId: options.botUserId ?? 'U_BOT',
    botId: options.botId ?? 'B_BOT',
    teamId: options.teamId ?? 'T_TEST',
    teamName: options.teamName ?? 'Treasury Test',
    teamDomain: options.teamDomain ?? 'treasury-test',
    clock,
    calls: [],
    rejections: [],
    stored: [],
    responseLog: new Map(),
    responseUrls: new Map(),
    failures: new Map(),
    openedViews: [],
    exchangedTriggers: new Set(),
    uploads: new Map(),
    homes: new Map(),
    homePublishes: new Map(),
    conversations: new Map(),
    usergroups: new Map(),
    closing,
    baseUrl: '',
    socketModeUrl: undefined,
    permalinkPage: undefined,
    isPerson: (userId) => (knownUsers === undefined ? USER_ID_SHAPE.test(userId) : knownUsers.has(userId)),
    changed: () => {
      changes.emit('change');
    },
    onChange: (listener) => {
      changes.on('change', listener);
      return () => changes.off('change', listener);
    },
    emit: (event) => {
      events.emit('event', event);
    },
    onEvent: (listener) => {
      events.on('event', listener);
      return () => events.off('event', listener);
    },
    // Slack's ts is the posting time in microseconds ("1732200000.000100"): conversations.history's oldest/latest
    // filter on it, so it follows the stand-in's clock, kept unique and increasing.
    nextTs: () => {
      tsCounter = Math.max(tsCounter + 100, Math.floor(clock()) * 1000);
      return `${Math.floor(tsCounter / 1_000_000)}.${String(tsCounter % 1_000_000).padStart(6, '0')}`;
    },
    findMessage: (channel, ts) => state.stored.find((m) => m.channel === channel && m.ts === ts),
    reject: (target, refusal) => {
      state.rejections.push({
        target,
        error: refusal.error,
        problems: refusal.problems.map(describeProblem),
        at: clock(),
      });
      state.changed();
    },
  };
  declareConversationsFromOptions(state);
  declareUsergroupsFromOptions(state);
  return state;
}

/** Declares a conversation (or replaces the one with its id). */
export function declareConversation(state: SlackState, spec: ConversationSpec): void {
  state.conversations.set(spec.id, {
    id: spec.id,
    name: spec.name,
    kind: spec.kind,
    members: new Set(spec.members),
    everyone: false,
    archived: spec.archived ?? false,
  });
}

/** The conversations go back to the options' list. */
export function declareConversationsFromOptions(state: SlackState): void {
  state.conversations.clear();
  for (const spec of state.options.conversations ?? []) declareConversation(state, spec);
}

/** The user groups go back to the options' list. */
export function declareUsergroupsFromOptions(state: SlackState): void {
  state.usergroups.clear();
  for (const group of state.options.usergroups ?? []) state.usergroups.set(group.id, structuredClone(group));
}
