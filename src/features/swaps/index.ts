/**
 * The swap feature (request, approve or reject, follow, re-quote, recover, show), built in this folder. This file
 * is its public face for app.ts and the listeners; the approval rules live in src/domain/approval.ts.
 */
export { createSwapService, type ClickOutcome, type SwapDeps, type SwapService } from './service.js';
export type { FollowPolicy } from './follow.js';
export type { QuoteMessenger, Scheduler } from './message-edits.js';
export { isQuoteId, refuseClickOrigin, type ClickOrigin } from '../../domain/approval.js';
export { ESTIMATE_VALIDITY_MS } from '../../domain/swap-quote.js';
