import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { buildFailure } from '../../blocks/errors.js';
import { ACTION_IDS } from '../../blocks/ids.js';
import { errorFields } from '../../logger.js';
import type { Reply } from '../../slack/gateway.js';
import type { ListenerBinding, ListenerPlatform } from '../../slack/listener-kit.js';
import { refusalText } from '../access/rules.js';
import type { TreasuryAccessCheck } from '../access/service.js';
import type { FreezeService } from './service.js';

/** What Unfreeze uses. */
export type FreezeListenerDeps = ListenerPlatform & { access: TreasuryAccessCheck; freeze: FreezeService };

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/**
 * "Unfreeze" on the freeze announcement: ack at once, the TREASURY_USERS gate, then the vote (admins only) after
 * the listener returns; the clicker is told privately what their click did.
 */
const createUnfreezeListener =
  (deps: FreezeListenerDeps) =>
  async ({ ack, body, action }: ButtonArgs): Promise<void> => {
    await ack();
    const userId = body.user.id;
    const fallback = { channelId: body.channel?.id, userId };
    const notice = (text: string): Reply => ({ response_type: 'ephemeral', replace_original: false, text });
    const access = await deps.access.check(userId);
    if (!access.allowed) {
      await deps.slack.respond(body.response_url, notice(refusalText(access)), fallback);
      return;
    }
    deps.background.run('an unfreeze vote', async () => {
      let reply: Reply;
      try {
        // The value names the freeze announced (when it began, ISO-8601); anything else is not a button of ours.
        const frozenAt = /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(action.value ?? '') ? action.value : undefined;
        const channel = body.channel?.id;
        const ts = body.message?.ts;
        reply = notice(
          frozenAt
            ? await deps.freeze.voteUnfreeze(userId, frozenAt, channel && ts ? { channel, ts } : undefined)
            : 'This button carries data the bot cannot use (altered, or from another app). Nothing was counted.',
        );
      } catch (error) {
        deps.logger.warn('unfreeze vote failed', { error: errorFields(error) });
        reply = { response_type: 'ephemeral', replace_original: false, ...buildFailure(error) };
      }
      await deps.slack.respond(body.response_url, reply, fallback);
    });
  };

/** "Unfreeze", bound to its handler. */
export const freezeListeners: ListenerBinding<FreezeListenerDeps>[] = [
  { kind: 'action', id: ACTION_IDS.freezeUnfreeze, create: createUnfreezeListener },
];
