/**
 * The swap feature (request, approve or reject, follow, re-quote, recover, show), built in this folder. This file
 * is its public face for app.ts and the listeners; the approval rules live in src/features/swaps/approval.ts.
 */

export type { ClickOrigin } from './approval.js';
export {
  type ApproverGroups,
  createApproverGroups,
} from './approver-groups.js';
export type { FollowPolicy } from './follow.js';
export type { QuoteMessenger } from './message-edits.js';
export type { QuotePreview } from './quote-request.js';
export { type ClickOutcome, createSwapService, type SwapService } from './service.js';
