/**
 * The one place the bot speaks to Slack: messages in channels, private notices and replies to a response_url,
 * all under one retry policy. The WebClient underneath never retries or waits by itself, so every decision
 * about a failure is made here, where it can be read and tested. Split by concern: the contract
 * (gateway-contract.ts), the retry policy (retry-policy.ts), the client's surface (web-client.ts), posts to Slack's
 * URLs (url-posts.ts) and reply delivery (replies.ts); this file builds the gateway from them.
 */
import type { types } from '@slack/bolt';
import { type Logger, silentLogger } from '../logger.js';
import type { BotMetrics } from '../metrics/index.js';
import { describeSlackError, refusedContent, slackErrorCode } from './errors.js';
import type { SlackGateway, SlackMessageContent } from './gateway-contract.js';
import { plainTextOf } from './plain-text.js';
import { deliverReply } from './replies.js';
import { createCallUnderPolicy, SLACK_RETRY_POLICY, type SlackRetryPolicy } from './retry-policy.js';
import { postToUploadUrl } from './url-posts.js';
import type { HistoryArgs, SlackChatClient } from './web-client.js';

export type {
  Reply,
  SlackGateway,
  SlackMessageContent,
} from './gateway-contract.js';
export {
  decideAfterFailure,
  SLACK_RETRY_POLICY,
  type SlackRetryPolicy,
} from './retry-policy.js';
export { createSlackWebClient, type SlackChatClient, slackClientOptions } from './web-client.js';

/** How far before `since` findPosted reads: our clock and Slack's may disagree by this much. */
const FIND_POSTED_MARGIN_MS = 5 * 60_000;
/** findPosted reads at most this many pages of 200 messages: the window since the first attempt is short. */
const FIND_POSTED_MAX_PAGES = 5;

/** What the gateway is built from; everything but the client has a default. */
export interface SlackGatewayOptions {
  client: SlackChatClient;
  /** The clock Retry-After is measured on. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  logger?: Logger;
  policy?: Partial<SlackRetryPolicy>;
  /** Counts each call attempt by method and outcome. */
  metrics?: Pick<BotMetrics, 'slackCall'>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Builds the gateway. One per process: the Retry-After waits of channels and methods live in it. */
export function createSlackGateway(options: SlackGatewayOptions): SlackGateway {
  const client = options.client;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const logger = options.logger ?? silentLogger;
  const policy: SlackRetryPolicy = { ...SLACK_RETRY_POLICY, ...options.policy };
  const metrics = options.metrics;
  const call = createCallUnderPolicy({
    ...{ policy, now, sleep, logger },
    ...(metrics ? { observe: (method: string, outcome) => metrics.slackCall(method, outcome) } : {}),
  });

  const content = (message: SlackMessageContent) => ({
    text: message.text,
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(message.attachments ? { attachments: message.attachments } : {}),
  });

  /**
   * Sends a message; when Slack refuses its content (blocks, length), sends it again as plain text with the same
   * facts (plain-text.ts), so no refusal loses a message. `clearBlocks` is for chat.update, where blocks left out
   * would stay as they were: an empty list removes them.
   */
  async function withPlainTextFallback<T>(
    method: string,
    message: SlackMessageContent,
    send: (message: SlackMessageContent) => Promise<T>,
    clearBlocks = false,
  ): Promise<T> {
    try {
      return await send(message);
    } catch (error) {
      const plain: SlackMessageContent = {
        text: plainTextOf(message),
        ...(clearBlocks ? { blocks: [], ...(message.attachments ? { attachments: [] } : {}) } : {}),
      };
      // Nothing else to try when the message already was its own plain text.
      const hadLayout = message.blocks !== undefined || message.attachments !== undefined;
      if (!refusedContent(error) || (!hadLayout && plain.text === message.text)) throw error;
      logger.warn(`slack: Slack refused the content of a message (${method}); sending it as plain text`, {
        reason: describeSlackError(error),
      });
      return await send(plain);
    }
  }

  const gateway: SlackGateway = {
    async post(channel, message, postOptions = {}) {
      // Not repeatable: after a timeout or a 5xx the message may be in the channel, and a retry would post it twice.
      return withPlainTextFallback('chat.postMessage', message, (sent) =>
        call(
          'chat.postMessage',
          channel,
          postOptions.wait ?? true,
          async () => {
            const answer = await client.chat.postMessage({
              channel,
              ...content(sent),
              ...(postOptions.unfurl === false ? { unfurl_links: false, unfurl_media: false } : {}),
              ...(postOptions.threadTs !== undefined ? { thread_ts: postOptions.threadTs } : {}),
              ...(postOptions.metadata !== undefined ? { metadata: postOptions.metadata } : {}),
            });
            if (!answer.ok || !answer.ts) throw new Error('Slack accepted the message but returned no ts');
            return answer.ts;
          },
          false,
        ),
      );
    },

    async update(channel, ts, message, callOptions = {}) {
      // Repeatable: an edit sent twice leaves the message as one edit would (the same content).
      await withPlainTextFallback(
        'chat.update',
        message,
        (sent) =>
          call('chat.update', 'chat.update', callOptions.wait ?? true, () =>
            client.chat.update({ channel, ts, ...content(sent) }),
          ),
        true,
      );
    },

    async postEphemeral(channel, user, message, callOptions = {}) {
      // Retried like an edit although it is not idempotent: a private notice seen twice is harmless, a lost one
      // leaves a person without an answer.
      await withPlainTextFallback('chat.postEphemeral', message, (sent) =>
        call('chat.postEphemeral', 'chat.postEphemeral', callOptions.wait ?? true, () =>
          client.chat.postEphemeral({ channel, user, ...content(sent) }),
        ),
      );
    },

    respond(via, reply, fallback) {
      return deliverReply({ gateway, policy, sleep, logger }, via, reply, fallback);
    },

    async findPosted(channel, query, callOptions = {}) {
      const conversations = client.conversations;
      if (conversations === undefined) throw new Error('this Slack client cannot read conversations');
      const method = query.threadTs === undefined ? 'conversations.history' : 'conversations.replies';
      // Slack's ts is seconds since the epoch; history reads from `oldest` on, newest first.
      const oldest = ((query.since.getTime() - FIND_POSTED_MARGIN_MS) / 1000).toFixed(6);
      let cursor: string | undefined;
      for (let page = 0; page < FIND_POSTED_MAX_PAGES; page++) {
        const args: HistoryArgs = {
          channel,
          oldest,
          limit: 200,
          include_all_metadata: true,
          ...(cursor ? { cursor } : {}),
        };
        // Per method, as Slack limits these (not per channel): a lookup never holds back a post.
        const answer = await call(method, method, callOptions.wait ?? true, () =>
          query.threadTs === undefined
            ? conversations.history(args)
            : conversations.replies({ ...args, ts: query.threadTs }),
        );
        const found = (answer.messages ?? []).find(
          (message) =>
            message.metadata?.event_type === query.eventType && message.metadata.event_payload?.key === query.key,
        );
        if (found?.ts !== undefined) return found.ts;
        cursor = answer.response_metadata?.next_cursor || undefined;
        if (!answer.has_more || cursor === undefined) return undefined;
      }
      logger.warn('slack: stopped looking for a lost post after the page limit', { channel, method, key: query.key });
      return undefined;
    },

    async join(channel) {
      const conversations = client.conversations;
      if (conversations === undefined) throw new Error('this Slack client cannot join conversations');
      await call('conversations.join', 'conversations.join', true, () => conversations.join({ channel }));
    },

    async openDirectMessage(userId, callOptions = {}) {
      const open = client.conversations?.open;
      if (open === undefined) throw new Error('this Slack client cannot open direct messages');
      const answer = await call('conversations.open', 'conversations.open', callOptions.wait ?? true, () =>
        open.call(client.conversations, { users: userId }),
      );
      const id = answer.channel?.id;
      if (!answer.ok || typeof id !== 'string' || id === '')
        throw new Error('Slack answered conversations.open without a channel id');
      return id;
    },

    async openView(triggerId, view) {
      const views = client.views;
      if (views === undefined) throw new Error('this Slack client cannot open views');
      // No wait and no retry (see the interface): the trigger is good for 3 seconds and one view.
      // The builders' modal, as Slack's View type (checked by Slack, and by the stand-in in tests).
      const modal = view as types.View;
      const answer = await call('views.open', 'views.open', false, () =>
        views.open({ trigger_id: triggerId, view: modal }),
      );
      if (!answer.ok || !answer.view?.id) throw new Error('Slack opened the view but returned no view id');
      return { viewId: answer.view.id, ...(answer.view.hash !== undefined ? { hash: answer.view.hash } : {}) };
    },

    async updateView(viewId, view, updateOptions = {}) {
      const update = client.views?.update;
      if (update === undefined) throw new Error('this Slack client cannot update views');
      const modal = view as types.View;
      try {
        const answer = await call('views.update', 'views.update', false, () =>
          update.call(client.views, {
            view_id: viewId,
            view: modal,
            ...(updateOptions.hash !== undefined ? { hash: updateOptions.hash } : {}),
          }),
        );
        return answer.view?.hash !== undefined ? { hash: answer.view.hash } : {};
      } catch (error) {
        // The person acted again (or the view was filled in) since: the newer update stands.
        if (slackErrorCode(error) === 'hash_conflict') return { conflict: true };
        throw error;
      }
    },

    async publishHome(userId, view, publishOptions = {}) {
      const publish = client.views?.publish;
      if (publish === undefined) throw new Error('this Slack client cannot publish Home tabs');
      const home = view as types.View;
      try {
        const answer = await call('views.publish', `views.publish:${userId}`, publishOptions.wait ?? true, () =>
          publish.call(client.views, {
            user_id: userId,
            view: home,
            ...(publishOptions.hash !== undefined ? { hash: publishOptions.hash } : {}),
          }),
        );
        return answer.view?.hash !== undefined ? { hash: answer.view.hash } : {};
      } catch (error) {
        // Another publish came first (a second replica, a click and an open at once): the caller rebuilds.
        if (slackErrorCode(error) === 'hash_conflict') return { conflict: true };
        throw error;
      }
    },

    async permalink(channel, ts, callOptions = {}) {
      const chat = client.chat;
      if (chat.getPermalink === undefined) throw new Error('this Slack client cannot link to messages');
      const answer = await call('chat.getPermalink', 'chat.getPermalink', callOptions.wait ?? true, () =>
        chat.getPermalink!({ channel, message_ts: ts }),
      );
      if (!answer.ok || typeof answer.permalink !== 'string' || answer.permalink === '')
        throw new Error('Slack answered chat.getPermalink without a permalink');
      return answer.permalink;
    },

    async groupMembers(groupId, callOptions = {}) {
      const usergroups = client.usergroups;
      if (usergroups === undefined) throw new Error('this Slack client cannot read user groups');
      const answer = await call('usergroups.users.list', 'usergroups.users.list', callOptions.wait ?? true, () =>
        usergroups.users.list({ usergroup: groupId }),
      );
      const users = answer.users;
      if (!answer.ok || !Array.isArray(users) || !users.every((id) => typeof id === 'string'))
        throw new Error('Slack answered usergroups.users.list without a list of users');
      return [...users];
    },

    async uploadFile(upload) {
      const files = client.files;
      if (files === undefined) throw new Error('this Slack client cannot upload files');
      // A new URL for every try: bytes sent to a URL whose answer was lost cannot be sent there again.
      const fileId = await call('files.getUploadURLExternal', 'files.getUploadURLExternal', true, async () => {
        const ticket = await files.getUploadURLExternal({
          filename: upload.filename,
          length: upload.bytes.length,
          ...(upload.altText !== undefined ? { alt_txt: upload.altText } : {}),
        });
        if (!ticket.ok || !ticket.upload_url || !ticket.file_id)
          throw new Error('Slack answered files.getUploadURLExternal without an upload URL');
        await postToUploadUrl(ticket.upload_url, upload.bytes);
        return ticket.file_id;
      });
      // Not repeatable: completing shares the file, and Slack completes a file once.
      await call(
        'files.completeUploadExternal',
        'files.completeUploadExternal',
        true,
        () =>
          files.completeUploadExternal({
            files: [{ id: fileId, title: upload.title }],
            channel_id: upload.channel,
            ...(upload.threadTs !== undefined ? { thread_ts: upload.threadTs } : {}),
            ...(upload.initialComment !== undefined ? { initial_comment: upload.initialComment } : {}),
          }),
        false,
      );
      return { fileId };
    },

    async deleteMessage(channel, ts, callOptions = {}) {
      const remove = client.chat.delete;
      if (remove === undefined) throw new Error('this Slack client cannot delete messages');
      try {
        await call('chat.delete', 'chat.delete', callOptions.wait ?? true, () =>
          remove.call(client.chat, { channel, ts }),
        );
        return 'deleted';
      } catch (error) {
        if (slackErrorCode(error) === 'message_not_found') return 'gone';
        throw error;
      }
    },

    async deleteFile(fileId, callOptions = {}) {
      const remove = client.files?.delete;
      if (remove === undefined) throw new Error('this Slack client cannot delete files');
      try {
        await call('files.delete', 'files.delete', callOptions.wait ?? true, () =>
          remove.call(client.files, { file: fileId }),
        );
        return 'deleted';
      } catch (error) {
        const code = slackErrorCode(error);
        if (code === 'file_not_found' || code === 'file_deleted') return 'gone';
        throw error;
      }
    },

    run(method, send) {
      // Method names contain a dot and channel ids never do, so the two kinds of scope cannot collide.
      return call(method, method, true, send);
    },
  };
  return gateway;
}
