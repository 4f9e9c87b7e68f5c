import { missingScope } from './answers.js';
import { botCanSee, conversationKind, conversationObject, isMember } from './membership.js';
import { slackMessage } from './messages.js';
import type { SlackState } from './state.js';
import type { ApiAnswer, Args, MethodHandler, StoredMessage } from './types.js';
import { asBoolean, asString, tsCompare } from './values.js';

/** conversations.history, .replies, .join, .open and .info, as strict as Slack. */
export function conversationsMethods(state: SlackState): Record<string, MethodHandler> {
  const { botUserId } = state;
  return {
    // Top-level messages, newest first, as Slack pages them (a thread's replies are not in a channel's history).
    'conversations.history': (args) => {
      const channel = asString(args.channel) ?? '';
      const refused = refuseHistory(state, channel);
      if (refused !== undefined) return refused;
      const inChannel = state.stored.filter(
        (m) => m.channel === channel && (m.threadTs === undefined || m.threadTs === m.ts),
      );
      return historyPage(state, inChannel.reverse(), args);
    },
    // A thread: its parent first, then the replies oldest first.
    'conversations.replies': (args) => {
      const channel = asString(args.channel) ?? '';
      const refused = refuseHistory(state, channel);
      if (refused !== undefined) return refused;
      const parentTs = asString(args.ts);
      const parent = parentTs === undefined ? undefined : state.findMessage(channel, parentTs);
      if (parent === undefined) return { ok: false, error: 'thread_not_found' };
      const replies = state.stored.filter(
        (m) => m.channel === channel && m.threadTs === parent.ts && m.ts !== parent.ts,
      );
      return historyPage(state, [parent, ...replies], args);
    },
    /*
     * conversations.join: "Joins an existing conversation", public channels only (channels:join). Any other kind
     * answers `method_not_supported_for_channel_type`; one the bot cannot see, `channel_not_found`. Joining a
     * channel the bot is already in succeeds with Slack's `already_in_channel` warning.
     */
    'conversations.join': (args) => {
      const channel = asString(args.channel) ?? '';
      if (channel === '' || !botCanSee(state, channel)) return { ok: false, error: 'channel_not_found' };
      if (conversationKind(state, channel) !== 'public')
        return { ok: false, error: 'method_not_supported_for_channel_type' };
      const existing = state.conversations.get(channel);
      if (existing?.archived === true) return { ok: false, error: 'is_archived' };
      const already = isMember(state, channel, botUserId);
      if (existing === undefined) {
        state.conversations.set(channel, {
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
      state.changed();
      return {
        ok: true,
        channel: conversationObject(state, channel),
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
        const existing = state.conversations.get(resume);
        if (existing === undefined || !isMember(state, resume, botUserId))
          return { ok: false, error: 'channel_not_found' };
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
      if (!users.every(state.isPerson)) return { ok: false, error: 'user_not_found' };
      if (users.length > 1) return { ok: false, error: 'method_not_supported_for_channel_type' };
      const person = users[0]!;
      const open = [...state.conversations.values()].find(
        (c) => c.kind === 'im' && c.members.has(botUserId) && c.members.has(person),
      );
      if (open !== undefined) return { ok: true, no_op: true, already_open: true, channel: { id: open.id } };
      const id = `D${person.replace(/^[UW]/, '')}BOT`.slice(0, 20);
      state.conversations.set(id, {
        id,
        name: undefined,
        kind: 'im',
        members: new Set([person, botUserId]),
        everyone: false,
        archived: false,
      });
      state.changed();
      return { ok: true, channel: { id } };
    },
    // conversations.info: what the bot may know of a conversation it can see.
    'conversations.info': (args) => {
      const channel = asString(args.channel) ?? '';
      if (channel === '' || !botCanSee(state, channel)) return { ok: false, error: 'channel_not_found' };
      return { ok: true, channel: conversationObject(state, channel) };
    },
  };
}

// Reading a conversation needs the bot in it (channels:history / groups:history read only where it is a member),
// and a direct message needs im:history.
function refuseHistory(state: SlackState, channel: string): ApiAnswer | undefined {
  if (channel === '' || conversationKind(state, channel) === undefined)
    return { ok: false, error: 'channel_not_found' };
  if (conversationKind(state, channel) === 'im' && !(state.options.imHistory ?? true))
    return missingScope('im:history');
  if (!isMember(state, channel, state.botUserId)) return { ok: false, error: 'not_in_channel' };
  return undefined;
}

/**
 * One page of messages in the order given, within `oldest`/`latest` (exclusive unless `inclusive`), `limit`
 * per page (default 100, at most 999) and a cursor; metadata only with `include_all_metadata`, as Slack does.
 */
function historyPage(state: SlackState, messages: StoredMessage[], args: Args): ApiAnswer {
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
      ...slackMessage(state, m, m.ts, m.threadTs),
      ...(withMetadata && m.metadata !== undefined ? { metadata: m.metadata } : {}),
    })),
    has_more: more,
    ...(more
      ? { response_metadata: { next_cursor: `offset:${start + limit}` } }
      : { response_metadata: { next_cursor: '' } }),
  };
}
