/**
 * Block Kit validation as Slack does it for messages, so the stand-in refuses what Slack refuses. Pure: blocks in,
 * problems out, each with the JSON pointer Slack puts in `[json-pointer:…]`.
 *
 * Sources (Slack's Block Kit reference unless said otherwise): "Section block", "Header block", "Context block",
 * "Actions block", "Divider block", "Image block", "Button element", "Image element", "Text object",
 * "Confirmation dialog object"; the error names from the "chat.postMessage" / "chat.update" method references.
 * Wording follows what Slack answers where it is known ("must be less than 3001 characters", "no more than 50
 * items allowed", "must be more than 0 characters", "must define either `text` or `fields`", "unsupported type: x").
 */

// The rules live in block-kit/ by family: limits, shared checks, elements, blocks, attachments, messages and views.

export { validateAttachments } from './block-kit/attachments.js';
export { blocksTextLength, validateBlocks } from './block-kit/blocks.js';
export {
  ATTACHMENT_LIMITS,
  HOME_LIMITS,
  MESSAGE_LIMITS,
  MODAL_LIMITS,
} from './block-kit/limits.js';
export { checkMessage, type MessageRefusal, refusalBody } from './block-kit/messages.js';
export { describeProblem } from './block-kit/primitives.js';
export { validateHomeView, validateModalView } from './block-kit/views.js';
