import type { RespondArguments, RespondFn } from '@slack/bolt';
import { errorFields, type Logger } from '../logger.js';

/** The Web API calls the fallback needs. */
export interface FallbackClient {
  chat: {
    postEphemeral(args: { channel: string; user: string; text: string; blocks?: unknown[] }): Promise<unknown>;
    postMessage(args: { channel: string; text: string; blocks?: unknown[] }): Promise<unknown>;
  };
}

/** Where a reply to one command or click goes. */
export interface ReplyTarget {
  /** Bolt's respond() for the request's response_url. */
  respond: RespondFn;
  client: FallbackClient;
  channelId: string | undefined;
  userId: string;
  logger: Logger;
  sleep?: (ms: number) => Promise<void>;
}

/** A reply: text (the notification line) and optional blocks, as the builders make them. */
export type Reply = RespondArguments & { text: string; blocks?: unknown[] };

// A response_url takes at most 5 posts in 30 minutes; three tries leave room for the follow-ups of a flow.
const RESPONSE_URL_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [300, 1_000];

/** True for failures worth another post on the same url: Slack's 5xx, 429, or no answer at all. */
function isTransient(error: unknown): boolean {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status !== 'number' || status >= 500 || status === 429;
}

/**
 * Delivers a reply through the response_url, retrying a transient failure; if the url still fails (or is used
 * up or expired), the reply goes out as a Web API message instead: privately to the person for an ephemeral
 * or replacing reply, in the channel for an `in_channel` one. The person's answer is never lost to the log.
 */
export async function deliverReply(target: ReplyTarget, reply: Reply): Promise<void> {
  const sleep = target.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let lastError: unknown;
  for (let attempt = 0; attempt < RESPONSE_URL_ATTEMPTS; attempt++) {
    try {
      await target.respond(reply);
      return;
    } catch (error) {
      lastError = error;
      if (!isTransient(error)) break;
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay !== undefined && attempt < RESPONSE_URL_ATTEMPTS - 1) await sleep(delay);
    }
  }
  target.logger.warn('the response_url did not take the reply; sending it as a message instead', { error: errorFields(lastError) });
  if (target.channelId === undefined) {
    target.logger.error('could not deliver a reply: no response_url and no channel to fall back to', { userId: target.userId });
    return;
  }
  const content = { text: reply.text, ...(reply.blocks ? { blocks: reply.blocks } : {}) };
  try {
    if (reply.response_type === 'in_channel') await target.client.chat.postMessage({ channel: target.channelId, ...content });
    else await target.client.chat.postEphemeral({ channel: target.channelId, user: target.userId, ...content });
  } catch (error) {
    target.logger.error('could not deliver a reply to Slack at all', { error: errorFields(error) });
  }
}
