import type {
  AllMiddlewareArgs,
  BlockButtonAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { buildFailure } from '../../blocks/errors.js';
import { ACTION_IDS, VIEW_IDS } from '../../blocks/ids.js';
import { errorFields } from '../../logger.js';
import type { Reply } from '../../slack/gateway.js';
import type { ListenerBinding, ListenerPlatform } from '../../slack/listener-kit.js';
import { refusalText } from '../access/rules.js';
import type { TreasuryAccessCheck } from '../access/service.js';
import { buildResetRefused, RESET_PERSON } from './blocks.js';
import type { SecondFactorService } from './service.js';

/** What the second factor's buttons and dialogs use. */
export type SecondFactorListenerDeps = ListenerPlatform & {
  access: TreasuryAccessCheck;
  secondFactor: SecondFactorService;
};

type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/**
 * "Confirm enrolment" on a new second factor's announcement in ALERT_CHANNEL: ack at once, the TREASURY_USERS gate,
 * then the confirmation after the listener returns. The click's own user id is who confirms (never a value of
 * the payload); the button's value only names the enrolment. The clicker is told privately what the click did.
 */
const createConfirmEnrolmentListener =
  (deps: SecondFactorListenerDeps) =>
  async ({ ack, body, action }: ButtonArgs): Promise<void> => {
    await ack();
    const clickerId = body.user.id;
    const fallback = { channelId: body.channel?.id, userId: clickerId };
    const notice = (text: string): Reply => ({ response_type: 'ephemeral', replace_original: false, text });
    const access = await deps.access.check(clickerId);
    if (!access.allowed) {
      await deps.slack.respond(body.response_url, notice(refusalText(access)), fallback);
      return;
    }
    deps.background.run('a second factor enrolment confirmed by an admin', async () => {
      let reply: Reply;
      try {
        const channel = body.channel?.id;
        const ts = body.message?.ts;
        reply = notice(
          await deps.secondFactor.confirmByAdmin(clickerId, action.value, channel && ts ? { channel, ts } : undefined),
        );
      } catch (error) {
        deps.logger.warn('confirming a second factor enrolment failed', { error: errorFields(error) });
        reply = { response_type: 'ephemeral', replace_original: false, ...buildFailure(error) };
      }
      await deps.slack.respond(body.response_url, reply, fallback);
    });
  };

/**
 * The reset picker's submission (`/treasury 2fa reset` without a member id), answered in Slack's own way within
 * its 3 s: an error under the person menu (nobody picked, nobody to reset), the modal replaced by why nothing was
 * reset (not a treasury user or admin), or closed once the reset is done; the person and the admin are told by
 * direct message after the ack.
 */
function createResetPickerSubmitListener(deps: SecondFactorListenerDeps) {
  return async ({ ack, body, view }: ViewArgs): Promise<void> => {
    const refuse = (text: string) => ack({ response_action: 'update', view: buildResetRefused(text) as never });
    const adminId = body.user.id;
    const access = await deps.access.check(adminId);
    if (!access.allowed) return refuse(refusalText(access));
    // Slack's state for a users_select: `selected_user`, null when nobody was chosen.
    const picked = view.state.values[RESET_PERSON.blockId]?.[RESET_PERSON.actionId]?.selected_user;
    let answer: Awaited<ReturnType<SecondFactorListenerDeps['secondFactor']['submitResetPicker']>>;
    try {
      answer = await deps.secondFactor.submitResetPicker(adminId, picked);
    } catch (error) {
      deps.logger.error('resetting a second factor from the picker failed', { error: errorFields(error) });
      return refuse(buildFailure(error).text);
    }
    if ('errors' in answer) return ack({ response_action: 'errors', errors: answer.errors });
    if ('refused' in answer) return refuse(answer.refused);
    await ack();
    deps.background.run('a second factor reset, told by DM', answer.tell);
  };
}

/** The reset picker's callback_id and Confirm enrolment, bound to their handlers. */
export const secondFactorListeners: ListenerBinding<SecondFactorListenerDeps>[] = [
  { kind: 'view', id: VIEW_IDS.secondFactorReset, create: createResetPickerSubmitListener },
  { kind: 'action', id: ACTION_IDS.secondFactorConfirm, create: createConfirmEnrolmentListener },
];
