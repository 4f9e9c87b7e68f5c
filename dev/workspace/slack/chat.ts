import { missingScope } from './answers.js';
import { botCanSee, isMember, refusePosting } from './membership.js';
import { messageContent, permalinkOf, readMetadata, refuseContent, slackMessage } from './messages.js';
import type { SlackState } from './state.js';
import type { MethodHandler } from './types.js';
import { asString } from './values.js';

/** Removes a message from its channel as Slack does (its replies stay) and tells the page. */
export function removeMessage(state: SlackState, channel: string, ts: string): void {
  const message = state.findMessage(channel, ts);
  if (message === undefined) return;
  state.stored.splice(state.stored.indexOf(message), 1);
  state.emit({ type: 'delete', channel, ts });
  state.changed();
}

/** chat.postMessage, chat.update, chat.delete, chat.postEphemeral and chat.getPermalink, as strict as Slack. */
export function chatMethods(state: SlackState): Record<string, MethodHandler> {
  return {
    'chat.postMessage': (args) => {
      const channel = asString(args.channel);
      const refusedPlace = refusePosting(state, channel);
      if (refusedPlace !== undefined || channel === undefined)
        return refusedPlace ?? { ok: false, error: 'channel_not_found' };
      const refused = refuseContent(state, 'chat.postMessage', args);
      if (refused !== undefined) return refused;
      const content = messageContent(args);
      if (content.text === undefined && content.blocks === undefined && content.attachments === undefined) {
        return { ok: false, error: 'no_text' };
      }
      const metadata = readMetadata(args.metadata);
      if (metadata === 'invalid') return { ok: false, error: 'invalid_metadata_format' };
      const ts = state.nextTs();
      const threadTs = asString(args.thread_ts);
      const at = state.clock();
      state.stored.push({ channel, ts, threadTs, ...content, metadata, history: [{ ...content, at }] });
      state.emit({
        type: 'message',
        channel,
        ts,
        threadTs,
        text: content.text,
        blocks: content.blocks,
        attachments: content.attachments,
      });
      return { ok: true, channel, ts, message: slackMessage(state, content, ts, threadTs) };
    },
    'chat.update': (args) => {
      const channel = asString(args.channel);
      const ts = asString(args.ts);
      if (channel === undefined || ts === undefined) return { ok: false, error: 'message_not_found' };
      if (!botCanSee(state, channel)) return { ok: false, error: 'channel_not_found' };
      const message = state.findMessage(channel, ts);
      if (message === undefined) return { ok: false, error: 'message_not_found' };
      const refused = refuseContent(state, 'chat.update', args);
      if (refused !== undefined) return refused;
      // Like Slack, fields left out of the update keep their previous value.
      const content = messageContent(args);
      if ('text' in args) message.text = content.text;
      if ('blocks' in args) message.blocks = content.blocks;
      if ('attachments' in args) message.attachments = content.attachments;
      const current = { text: message.text, blocks: message.blocks, attachments: message.attachments };
      message.history.push({ ...current, at: state.clock() });
      state.emit({
        type: 'update',
        channel,
        ts,
        text: message.text,
        blocks: message.blocks,
        attachments: message.attachments,
      });
      return {
        ok: true,
        channel,
        ts,
        text: message.text ?? '',
        message: slackMessage(state, current, ts, message.threadTs),
      };
    },
    /*
     * chat.delete (scope chat:write; the method's reference): `channel` and `ts` are required. A bot token deletes
     * the bot's own messages only (`cant_delete_message` for a person's), in any conversation the bot can see
     * (`channel_not_found` otherwise), DMs included; `message_not_found` for a ts with no message there. Answers
     * the channel and ts. The message leaves the channel; its replies stay.
     */
    'chat.delete': (args) => {
      if (state.options.chatWrite === false) return missingScope('chat:write');
      const channel = asString(args.channel) ?? '';
      if (channel === '' || !botCanSee(state, channel)) return { ok: false, error: 'channel_not_found' };
      const ts = asString(args.ts);
      const message = ts === undefined || ts === '' ? undefined : state.findMessage(channel, ts);
      if (message === undefined || ts === undefined) return { ok: false, error: 'message_not_found' };
      if (message.user !== undefined) return { ok: false, error: 'cant_delete_message' };
      removeMessage(state, channel, ts);
      return { ok: true, channel, ts };
    },
    'chat.postEphemeral': (args) => {
      const channel = asString(args.channel);
      const refusedPlace = refusePosting(state, channel);
      if (refusedPlace !== undefined || channel === undefined)
        return refusedPlace ?? { ok: false, error: 'channel_not_found' };
      // "user_not_in_channel: Intended recipient is not in the specified channel."
      const user = asString(args.user);
      if (user === undefined || !isMember(state, channel, user)) return { ok: false, error: 'user_not_in_channel' };
      const refused = refuseContent(state, 'chat.postEphemeral', args);
      if (refused !== undefined) return refused;
      const ts = state.nextTs();
      const content = messageContent(args);
      state.emit({
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
      if (channel === '' || !botCanSee(state, channel)) return { ok: false, error: 'channel_not_found' };
      const ts = asString(args.message_ts);
      const message = ts === undefined ? undefined : state.findMessage(channel, ts);
      if (message === undefined) return { ok: false, error: 'message_not_found' };
      return { ok: true, channel, permalink: permalinkOf(state, message) };
    },
  };
}
