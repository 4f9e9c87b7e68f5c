import { checkMessage, refusalBody } from '../block-kit-validation.js';
import type { SlackState } from './state.js';
import type { ApiAnswer, Args, MessageMetadata, SlackFile, StoredMessage } from './types.js';
import { asString, isRecord, parseJsonOrUndefined } from './values.js';

/** What a message carries: text, blocks, attachments, and a file share's files. */
export interface MessageContent {
  text: string | undefined;
  blocks: unknown[] | undefined;
  attachments: unknown[] | undefined;
  /** A file share's files. */
  files?: SlackFile[] | undefined;
}

/** A message's content from a call's arguments or a response_url body. */
export function messageContent(args: Args): MessageContent {
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

/** A message posted by the bot as the Web API hands it back. */
export function slackMessage(
  state: SlackState,
  content: MessageContent,
  ts: string,
  threadTs: string | undefined,
): Args {
  return {
    type: 'message',
    user: state.botUserId,
    bot_id: state.botId,
    team: state.teamId,
    ts,
    ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
    text: content.text ?? '',
    ...(content.blocks !== undefined ? { blocks: content.blocks } : {}),
    ...(content.attachments !== undefined ? { attachments: slackAttachments(content.attachments) } : {}),
    // A file share, as Slack lists it: the files, and `upload` (true when the message came with the upload).
    ...(content.files !== undefined ? { files: content.files, upload: true } : {}),
  };
}

/** What chat.postMessage, chat.update, chat.postEphemeral and a file share refuse for their content. */
export function refuseContent(state: SlackState, method: string, args: Args): ApiAnswer | undefined {
  const refusal = checkMessage(
    { text: args.text, blocks: args.blocks, attachments: args.attachments },
    { checkBlocksSize: true, checkTextSize: true, maxBlocksTextChars: state.options.maxBlocksTextChars },
  );
  if (refusal === undefined) return undefined;
  state.reject(method, refusal);
  return refusalBody(refusal);
}

/** Message metadata as chat.postMessage takes it: an object with a string `event_type` and an object `event_payload`. */
export function readMetadata(value: unknown): MessageMetadata | undefined | 'invalid' {
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

/**
 * A message's permalink as Slack writes it: `/archives/<channel>/p<ts without its dot>`, and for a thread reply
 * `?thread_ts=<parent ts>&cid=<channel>` (the chat.getPermalink reference). On the workspace's page it is the
 * fragment, so a click stays on the page.
 */
export function permalinkOf(state: SlackState, message: StoredMessage): string {
  const isReply = message.threadTs !== undefined && message.threadTs !== message.ts;
  const path = `archives/${message.channel}/p${message.ts.replace('.', '')}${
    isReply ? `?thread_ts=${message.threadTs}&cid=${message.channel}` : ''
  }`;
  return state.permalinkPage === undefined
    ? `https://${state.teamDomain}.slack.com/${path}`
    : `${state.permalinkPage}#${path}`;
}
