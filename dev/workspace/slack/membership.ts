import type { SlackState } from './state.js';
import type { ApiAnswer, Args, ConversationKind } from './types.js';

/*
 * Who is in which conversation, and where the bot may read and post. Slack's rules ("Where a bot may post" in
 * STACK-NOTES; the chat.postMessage, chat.postEphemeral and conversations.* references): `chat:write.public` lets the
 * bot post in a public channel it is not in, and nowhere else. A private channel, DM or group DM the bot is not in is
 * one it cannot see at all, so Slack answers `channel_not_found` ("Value passed for channel was invalid"), exactly as
 * for an id that does not exist: the bot cannot tell the two apart. `not_in_channel` is the answer for a public
 * channel the bot is not in when the app lacks `chat:write.public`. An id no one declared is a public channel that
 * every person is in and the bot is not: tests that name no conversation keep working, and declared conversations
 * are strict.
 */

/** The conversation's kind: declared, or `public` for any other id (undefined only for an empty id). */
export function conversationKind(state: SlackState, channelId: string): ConversationKind | undefined {
  return channelId === '' ? undefined : (state.conversations.get(channelId)?.kind ?? 'public');
}

/** Whether `userId` (a person, or the bot's user id) is in the conversation. */
export function isMember(state: SlackState, channelId: string, userId: string): boolean {
  const conversation = state.conversations.get(channelId);
  if (conversation === undefined) return userId !== state.botUserId;
  return conversation.members.has(userId) || (conversation.everyone && userId !== state.botUserId);
}

/** A public channel is visible to the bot whether it is in it or not; anything else only to its members. */
export function botCanSee(state: SlackState, channelId: string): boolean {
  return conversationKind(state, channelId) === 'public' || isMember(state, channelId, state.botUserId);
}

/** Why the bot may not post a message in `channel`, as Slack answers; undefined when it may. */
export function refusePosting(state: SlackState, channel: string | undefined): ApiAnswer | undefined {
  if (channel === undefined || channel === '' || !botCanSee(state, channel))
    return { ok: false, error: 'channel_not_found' };
  if (!(state.options.chatWritePublic ?? true) && !isMember(state, channel, state.botUserId))
    return { ok: false, error: 'not_in_channel' };
  if (state.conversations.get(channel)?.archived === true) return { ok: false, error: 'is_archived' };
  return undefined;
}

/** A conversation object as conversations.info and conversations.join return it (the fields apps read). */
export function conversationObject(state: SlackState, channelId: string): Args {
  const conversation = state.conversations.get(channelId);
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
    is_member: isMember(state, channelId, state.botUserId),
    // A DM names the person on the other side.
    ...(kind === 'im' ? { user: members.find((m) => m !== state.botUserId) } : {}),
  };
}
