import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkMessage } from '../block-kit-validation.js';
import { applyFailure, takeFailure } from './failures.js';
import { parseBody, sendJson } from './http.js';
import { type MessageContent, messageContent } from './messages.js';
import type { SlackState } from './state.js';
import type { Args, RecordedResponse, ResponseEffect, ResponseUrlOrigin } from './types.js';
import { asBoolean, asString } from './values.js';

// "Handling user interaction": a response_url takes up to 5 posts within 30 minutes.
const MAX_POSTS_PER_RESPONSE_URL = 5;
const RESPONSE_URL_LIFETIME_MS = 30 * 60_000;

/**
 * A fresh, unique response_url. With an origin it is a button click's, which may replace or delete that message;
 * without, a slash command's, which has no original message.
 */
export function issueResponseUrl(state: SlackState, serial: number, origin?: ResponseUrlOrigin): string {
  const url = `${state.baseUrl}/response/${serial}-${randomBytes(6).toString('hex')}`;
  state.responseLog.set(url, []);
  state.responseUrls.set(url, { createdAt: state.clock(), origin: origin === undefined ? undefined : { ...origin } });
  return url;
}

/** A POST to a response_url: its limits, Block Kit's rules, and what it does to the original message. */
export async function handleResponseUrl(
  state: SlackState,
  url: string,
  req: IncomingMessage,
  raw: Buffer,
  res: ServerResponse,
): Promise<void> {
  const log = state.responseLog.get(url);
  const issued = state.responseUrls.get(url);
  if (log === undefined || issued === undefined) return sendJson(res, 404, { ok: false, error: 'expired_url' });
  let body: Args;
  try {
    body = await parseBody(req.headers['content-type'], raw);
  } catch {
    return sendJson(res, 400, { ok: false, error: 'invalid_payload' });
  }
  const failure = takeFailure(state, 'response_url');
  if (failure !== undefined && !(await applyFailure(state, failure, res))) return;
  if (state.clock() - issued.createdAt > RESPONSE_URL_LIFETIME_MS)
    return sendJson(res, 404, { ok: false, error: 'expired_url' });
  if (log.length >= MAX_POSTS_PER_RESPONSE_URL) return sendJson(res, 404, { ok: false, error: 'used_url' });
  /*
   * Slack's docs do not say what a response_url answers for bad blocks. Its webhook hosts answer 400 with just
   * the error name (slackapi/java-slack-sdk issue #1017), so do we; the details go to `rejections`.
   */
  const refusal = checkMessage({ text: body.text, blocks: body.blocks, attachments: body.attachments });
  if (refusal !== undefined) {
    state.reject(url, refusal);
    return sendJson(res, 400, { ok: false, error: refusal.error });
  }
  const content = messageContent(body);
  const replaceOriginal = asBoolean(body.replace_original);
  const deleteOriginal = asBoolean(body.delete_original);
  const hasContent = content.text !== undefined || content.blocks !== undefined || content.attachments !== undefined;
  // Incoming webhooks (the same hosts) answer `no_text` when there is nothing to post.
  if (!hasContent && deleteOriginal !== true) {
    state.reject(url, { error: 'no_text', problems: [] });
    return sendJson(res, 400, { ok: false, error: 'no_text' });
  }
  const effect = applyResponse(state, issued.origin, content, { replaceOriginal, deleteOriginal, hasContent });
  const response: RecordedResponse = {
    body,
    text: content.text,
    blocks: content.blocks,
    attachments: content.attachments,
    responseType: asString(body.response_type),
    replaceOriginal,
    deleteOriginal,
    effect,
    at: state.clock(),
  };
  log.push(response);
  state.emit({ type: 'response', url, effect, origin: issued.origin, response });
  state.changed();
  sendJson(res, 200, { ok: true });
}

// The original of a click's response_url is the clicked message: when it is one of ours, replace or delete it.
function applyResponse(
  state: SlackState,
  origin: ResponseUrlOrigin | undefined,
  content: MessageContent,
  flags: { replaceOriginal: boolean | undefined; deleteOriginal: boolean | undefined; hasContent: boolean },
): ResponseEffect {
  if (origin === undefined) return flags.hasContent ? 'new_message' : 'none';
  const message = origin.ts === undefined ? undefined : state.findMessage(origin.channel, origin.ts);
  if (flags.deleteOriginal === true) {
    if (message !== undefined) state.stored.splice(state.stored.indexOf(message), 1);
    return 'deleted_original';
  }
  if (flags.replaceOriginal === true) {
    if (message !== undefined) {
      Object.assign(message, content);
      message.history.push({ ...content, at: state.clock() });
    }
    return 'replaced_original';
  }
  return 'new_message';
}
