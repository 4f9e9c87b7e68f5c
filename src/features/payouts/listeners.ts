import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { buildFailure } from '../../blocks/errors.js';
import { ACTION_IDS, PayoutRequestButtonValue } from '../../blocks/ids.js';
import { errorFields } from '../../logger.js';
import type { Reply } from '../../slack/gateway.js';
import type { ListenerBinding, ListenerPlatform } from '../../slack/listener-kit.js';
import { refusalText } from '../access/rules.js';
import type { TreasuryAccessCheck } from '../access/service.js';
import type { PayoutClickAnswer, PayoutService } from './service.js';

/** What Create payout and Cancel use. */
export type PayoutListenerDeps = ListenerPlatform & { access: TreasuryAccessCheck; payouts: PayoutService };

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

const INVALID_BUTTON =
  'This button carries data the bot cannot use (from an older version, or altered). Nothing was sent; run the command again.';

/**
 * "Create payout" and "Cancel" on a payout proposal: ack at once, the TREASURY_USERS gate, then the feature (which
 * lets only the requester act) after the listener returns. What became of the request replaces the private
 * proposal through the click's response_url; a click that changed nothing is told why, the proposal left as it is.
 */
function payoutButton(
  deps: PayoutListenerDeps,
  handle: (requestId: string, userId: string) => Promise<PayoutClickAnswer>,
) {
  return async ({ ack, body, action }: ButtonArgs): Promise<void> => {
    await ack();
    const userId = body.user.id;
    const fallback = { channelId: body.channel?.id, userId };
    const responseUrl = body.response_url;
    const notice = (text: string): Reply => ({ response_type: 'ephemeral', replace_original: false, text });
    const access = await deps.access.check(userId);
    if (!access.allowed) {
      await deps.slack.respond(responseUrl, notice(refusalText(access)), fallback);
      return;
    }
    const value = PayoutRequestButtonValue.safeParse(action.value);
    if (!value.success) {
      await deps.slack.respond(responseUrl, notice(INVALID_BUTTON), fallback);
      return;
    }
    const requestId = value.data;
    deps.background.run('a payout button', async () => {
      let reply: Reply;
      try {
        const answer = await handle(requestId, userId);
        reply = answer.replace
          ? { response_type: 'ephemeral', replace_original: true, ...answer.message }
          : notice(answer.notice);
      } catch (error) {
        deps.logger.warn('payout button failed', { actionId: action.action_id, error: errorFields(error) });
        reply = { response_type: 'ephemeral', replace_original: false, ...buildFailure(error) };
      }
      await deps.slack.respond(responseUrl, reply, fallback);
    });
  };
}

/** "Create payout" (after Slack's confirm dialog). */
const createPayoutCreateListener = (deps: PayoutListenerDeps) =>
  payoutButton(deps, (requestId, userId) => deps.payouts.confirm(requestId, userId));
/** "Cancel" on a payout proposal. */
const createPayoutCancelListener = (deps: PayoutListenerDeps) =>
  payoutButton(deps, (requestId, userId) => deps.payouts.cancel(requestId, userId));

/** "Create payout" and "Cancel" on a payout proposal, bound to their handlers. */
export const payoutListeners: ListenerBinding<PayoutListenerDeps>[] = [
  { kind: 'action', id: ACTION_IDS.payoutCreate, create: createPayoutCreateListener },
  { kind: 'action', id: ACTION_IDS.payoutCancel, create: createPayoutCancelListener },
];
