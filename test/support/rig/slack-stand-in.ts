// The Slack stand-in of the local workspace (dev/workspace), with the hooks only tests use: the call log by method,
// copies of what was stored, waits, a reset, and changes to the workspace (members, groups, deleted messages).

import { removeMessage } from '../../../dev/workspace/slack/chat.js';
import { conversationKind, isMember } from '../../../dev/workspace/slack/membership.js';
import { listenSlackServer } from '../../../dev/workspace/slack/server.js';
import {
  createSlackState,
  declareConversation,
  declareConversationsFromOptions,
  declareUsergroupsFromOptions,
  type SlackState,
} from '../../../dev/workspace/slack/state.js';
import type {
  ConversationKind,
  ConversationSpec,
  OpenedView,
  RecordedCall,
  RecordedResponse,
  Rejection,
  SlackStandInOptions,
  StoredMessage,
  UploadedFile,
  UserGroupSpec,
} from '../../../dev/workspace/slack/types.js';
import { slackStandInOf, type SlackStandIn as WorkspaceSlackStandIn } from '../../../dev/workspace/slack-stand-in.js';
import { waitForState } from './slack-waiting.js';

// Everything the workspace's stand-in exports (its types, slackAttachments); SlackStandIn and startSlackStandIn
// below are the tests' own and take precedence.
export * from '../../../dev/workspace/slack-stand-in.js';

/** The stand-in as tests drive it: the workspace's surface plus the hooks only tests use. */
export interface SlackStandIn extends WorkspaceSlackStandIn {
  /** Every Web API call so far, oldest first. */
  readonly calls: readonly RecordedCall[];
  /** Calls and response_url posts refused for what they carried (invalid blocks, too long…), oldest first. */
  readonly rejections: readonly Rejection[];
  /** The calls of one method, oldest first. */
  callsOf(method: string): RecordedCall[];
  /** Copies of the stored messages (of one channel, or all), in posting order. */
  messages(channel?: string): StoredMessage[];
  /** The accepted posts to one response_url, oldest first. */
  responses(url: string): RecordedResponse[];
  /** Resolves with the predicate's first truthy value; rejects after `timeoutMs` listing what was recorded. */
  waitFor<T>(predicate: () => T, timeoutMs?: number, description?: string): Promise<NonNullable<T>>;
  /** Resolves with the posts to `url` once there are at least `count`. */
  waitForResponses(url: string, count: number, timeoutMs?: number): Promise<RecordedResponse[]>;
  /** Resolves with the calls of `method` once there are at least `count`. */
  waitForCalls(method: string, count: number, timeoutMs?: number): Promise<RecordedCall[]>;
  /**
   * Forgets calls, messages, response_urls and pending failures; conversations and user groups go back to the
   * options' lists.
   */
  reset(): void;
  /**
   * Deletes a message as a person (or an admin) does in Slack's client: it is gone from the channel, and
   * `chat.update`, `chat.getPermalink` and `conversations.replies` on it answer as Slack does for a deleted message
   * (`message_not_found`, `thread_not_found`). Its replies stay. False when there was no such message.
   */
  deleteMessage(channel: string, ts: string): boolean;
  /** A message a person posted in `channel` (the bot cannot delete it: `cant_delete_message`); answers its ts. */
  addPersonMessage(channel: string, userId: string, text: string): string;
  /** The modals opened with `views.open` (and updated since), oldest first. */
  views(): OpenedView[];
  /** Every file `files.getUploadURLExternal` reserved since the last reset, oldest first (copies, bytes included). */
  uploads(): UploadedFile[];
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
}

/** Starts the stand-in on 127.0.0.1 (a free port unless given), with the tests' hooks. */
export async function startSlackStandIn(options: SlackStandInOptions = {}): Promise<SlackStandIn> {
  const state = createSlackState(options);
  const standIn = slackStandInOf(state, await listenSlackServer(state));
  return { ...standIn, ...testHooks(state) };
}

/** The hooks only tests use, over the stand-in's state. */
function testHooks(state: SlackState): Omit<SlackStandIn, keyof WorkspaceSlackStandIn> {
  const { calls, rejections, stored } = state;
  const waitFor = <T>(predicate: () => T, timeoutMs?: number, description?: string) =>
    waitForState(state, predicate, timeoutMs, description);
  return {
    calls,
    rejections,
    callsOf: (method) => calls.filter((c) => c.method === method),
    messages: (channel) => structuredClone(stored.filter((m) => channel === undefined || m.channel === channel)),
    responses: (url) => [...(state.responseLog.get(url) ?? [])],
    waitFor,
    waitForResponses: (url, count, timeoutMs) =>
      waitFor(
        () => {
          const posts = state.responseLog.get(url) ?? [];
          return posts.length >= count ? [...posts] : undefined;
        },
        timeoutMs,
        `${count} post(s) to ${url}`,
      ),
    waitForCalls: (method, count, timeoutMs) =>
      waitFor(
        () => {
          const matching = calls.filter((c) => c.method === method);
          return matching.length >= count ? matching : undefined;
        },
        timeoutMs,
        `${count} call(s) to ${method}`,
      ),
    reset: () => {
      calls.length = 0;
      rejections.length = 0;
      stored.length = 0;
      state.responseLog.clear();
      state.responseUrls.clear();
      state.failures.clear();
      state.openedViews.length = 0;
      state.exchangedTriggers.clear();
      state.uploads.clear();
      state.homes.clear();
      state.homePublishes.clear();
      declareConversationsFromOptions(state);
      declareUsergroupsFromOptions(state);
    },
    deleteMessage: (channel, ts) => {
      const message = state.findMessage(channel, ts);
      if (message === undefined) return false;
      removeMessage(state, channel, ts);
      return true;
    },
    addPersonMessage: (channel, userId, text) => {
      const ts = state.nextTs();
      const at = state.clock();
      stored.push({
        channel,
        ts,
        threadTs: undefined,
        text,
        blocks: undefined,
        attachments: undefined,
        metadata: undefined,
        user: userId,
        history: [{ text, blocks: undefined, attachments: undefined, at }],
      });
      state.changed();
      return ts;
    },
    views: () => state.openedViews.map((opened) => ({ ...opened, view: structuredClone(opened.view) })),
    uploads: () =>
      [...state.uploads.values()].map((upload) => ({
        ...upload,
        bytes: upload.bytes === undefined ? undefined : Buffer.from(upload.bytes),
        shares: upload.shares.map((share) => ({ ...share })),
      })),
    addConversation: (spec) => {
      declareConversation(state, spec);
      state.changed();
    },
    setUsergroup: (spec) => {
      state.usergroups.set(spec.id, structuredClone(spec));
      state.changed();
    },
    removeUsergroup: (groupId) => {
      const removed = state.usergroups.delete(groupId);
      state.changed();
      return removed;
    },
    setMembers: (channelId, members) => {
      const conversation = state.conversations.get(channelId);
      if (conversation === undefined) declareConversation(state, { id: channelId, kind: 'public', members });
      else conversation.members = new Set(members);
      state.changed();
    },
    isMember: (channelId, userId) => isMember(state, channelId, userId),
    conversationKind: (channelId) => conversationKind(state, channelId),
  };
}
