import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { buildFailure } from '../../blocks/errors.js';
import type { ClickOutcome } from '../../features/swaps.js';
import { errorFields } from '../../logger.js';
import type { ListenerDeps } from '../deps.js';

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/**
 * Swap buttons. The quote message itself is edited by the swap feature (chat.update), so it tells everyone
 * what happened; the clicker alone gets a private notice when their click changed nothing, and why.
 * TREASURY_USERS does not apply here: who may decide is SWAP_APPROVERS' business.
 */
function swapButton(deps: ListenerDeps, handle: (quoteId: string, userId: string) => Promise<ClickOutcome>) {
  return async ({ ack, action, body, respond }: ButtonArgs): Promise<void> => {
    await ack();
    let notice: string | undefined;
    let failure: unknown;
    try {
      notice = (await handle(action.value ?? '', body.user.id)).notice;
    } catch (error) {
      deps.logger.error('swap button failed', { actionId: action.action_id, error: errorFields(error) });
      failure = error;
    }
    const message = failure !== undefined ? buildFailure(failure) : notice ? { text: notice } : undefined;
    if (!message) return;
    await respond({ response_type: 'ephemeral', replace_original: false, ...message }).catch((error: unknown) =>
      deps.logger.error('could not deliver the swap notice to Slack', { error: errorFields(error) }),
    );
  };
}

/** "Approve" on a quote. */
export const createSwapApproveListener = (deps: ListenerDeps) => swapButton(deps, (quoteId, userId) => deps.swaps.decide(quoteId, userId, 'approve'));
/** "Reject" on a quote. */
export const createSwapRejectListener = (deps: ListenerDeps) => swapButton(deps, (quoteId, userId) => deps.swaps.decide(quoteId, userId, 'reject'));
/** "New quote" on an expired or refused quote. */
export const createSwapNewQuoteListener = (deps: ListenerDeps) => swapButton(deps, (quoteId, userId) => deps.swaps.requote(quoteId, userId));
