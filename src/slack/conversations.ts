/**
 * What kind of conversation a command or click came from, read from Slack's payload. The bot has no scope to ask
 * Slack (conversations.info needs channels:read, groups:read, im:read and mpim:read), and the payload is enough
 * where it matters: telling a direct message from a channel.
 *
 * What the payload reliably says, per Slack's docs:
 * - A `channel_id` that starts with `D` is a 1:1 direct message: only DMs get D ids.
 * - Slash commands (`channel_name`) and clicks (`channel.name`) name a DM `directmessage`, a group DM `mpdm-…`
 *   (its members' handles), and a private channel `privategroup`.
 * - `C…` and `G…` ids do not tell public from private: private channels made since 2021 get C ids, and G ids were
 *   both the older private channels and group DMs. So any other channel is just a `channel`; whether the bot may
 *   post there, Slack says when asked (`channel_not_found` for a private one the bot is not in).
 */

/** A public or private channel (`channel` when the payload does not say which), a 1:1 DM, or a group DM. */
export type ConversationKind = 'channel' | 'private_channel' | 'im' | 'mpim';

/** Where a command or click came from, as its payload names it. */
export interface ConversationPlace {
  channelId?: string | undefined;
  channelName?: string | undefined;
}

/** The kind of conversation of a command or click (see the rules above). */
export function conversationKindOf(place: ConversationPlace): ConversationKind {
  const name = place.channelName ?? '';
  if (name === 'directmessage' || place.channelId?.startsWith('D') === true) return 'im';
  if (name.startsWith('mpdm-')) return 'mpim';
  if (name === 'privategroup') return 'private_channel';
  return 'channel';
}

/** True for a 1:1 or group direct message. */
export function isDirectMessage(kind: ConversationKind): boolean {
  return kind === 'im' || kind === 'mpim';
}
