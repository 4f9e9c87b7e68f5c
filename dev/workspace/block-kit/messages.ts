// A whole message (text, blocks, attachments) as Slack's chat methods and response_urls check it.
import { validateAttachments } from './attachments.js';
import { blocksTextLength, validateBlocks } from './blocks.js';
import { ATTACHMENT_LIMITS, type BlockKitProblem, MESSAGE_LIMITS } from './limits.js';
import { charCount, describeProblem, parseJson } from './primitives.js';

/** Why Slack refuses a message, as its error name plus the problems it lists (`invalid_blocks`, `invalid_attachments`). */
export interface MessageRefusal {
  error:
    | 'invalid_blocks_format'
    | 'invalid_blocks'
    | 'msg_blocks_too_long'
    | 'msg_too_long'
    | 'invalid_attachments'
    | 'too_many_attachments';
  problems: BlockKitProblem[];
}

/** Options of {@link checkMessage}. */
export interface CheckMessageOptions {
  /** Apply `msg_blocks_too_long` (the Web API does; response_url posts have not been seen to, bolt-js #2867). */
  checkBlocksSize?: boolean;
  maxBlocksTextChars?: number;
  /** Apply `msg_too_long` to the top-level `text` (the Web API's chat methods). */
  checkTextSize?: boolean;
}

/**
 * Checks the `text`, `blocks` and `attachments` of a message as Slack's chat methods do; undefined when Slack would
 * accept it. `blocks` and `attachments` are what the request carried: an array, a JSON string of one, or nothing.
 */
export function checkMessage(
  message: { text?: unknown; blocks?: unknown; attachments?: unknown },
  options: CheckMessageOptions = {},
): MessageRefusal | undefined {
  if (message.attachments !== undefined) {
    const attachments = typeof message.attachments === 'string' ? parseJson(message.attachments) : message.attachments;
    if (!Array.isArray(attachments))
      return { error: 'invalid_attachments', problems: [{ pointer: '/attachments', message: 'must be an array' }] };
    if (attachments.length > ATTACHMENT_LIMITS.attachments) return { error: 'too_many_attachments', problems: [] };
    const problems = validateAttachments(attachments);
    // Slack is not known to list why (its docs give only the name); the stand-in does, as for invalid_blocks.
    // Block text inside attachments is not counted towards msg_blocks_too_long: no limit of Slack's is known there.
    if (problems.length > 0) return { error: 'invalid_attachments', problems };
  }
  if (message.blocks !== undefined) {
    const blocks = typeof message.blocks === 'string' ? parseJson(message.blocks) : message.blocks;
    if (!Array.isArray(blocks)) return { error: 'invalid_blocks_format', problems: [] };
    const problems = validateBlocks(blocks);
    if (problems.length > 0) return { error: 'invalid_blocks', problems };
    const max = options.maxBlocksTextChars ?? MESSAGE_LIMITS.blocksText;
    if (options.checkBlocksSize && blocksTextLength(blocks) > max)
      return { error: 'msg_blocks_too_long', problems: [] };
  }
  if (
    options.checkTextSize &&
    typeof message.text === 'string' &&
    charCount(message.text) > MESSAGE_LIMITS.messageText
  ) {
    return { error: 'msg_too_long', problems: [] };
  }
  return undefined;
}

/** The Web API's answer to a refused message (HTTP 200), e.g. `{ ok: false, error: 'invalid_blocks', errors, response_metadata }`. */
export function refusalBody(refusal: MessageRefusal): Record<string, unknown> & { ok: false; error: string } {
  if (refusal.problems.length === 0) return { ok: false, error: refusal.error };
  const errors = refusal.problems.map(describeProblem);
  return {
    ok: false,
    error: refusal.error,
    errors,
    response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) },
  };
}
