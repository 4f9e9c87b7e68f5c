import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { buildFailure } from '../../blocks/errors.js';
import { VIEW_IDS } from '../../blocks/ids.js';
import { errorFields } from '../../logger.js';
import { refusalText } from '../access/rules.js';
import type { FeatureListenerDeps, ListenerBinding } from '../listener-kit.js';
import { buildResetRefused, RESET_PERSON } from './blocks.js';

type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/**
 * The reset picker's submission (`/treasury 2fa reset` without a member id), answered in Slack's own way within
 * its 3 s: an error under the person menu (nobody picked, nobody to reset), the modal replaced by why nothing was
 * reset (not a treasury user or admin), or closed once the reset is done; the person and the admin are told by
 * direct message after the ack.
 */
export function createResetPickerSubmitListener(deps: FeatureListenerDeps) {
  return async ({ ack, body, view }: ViewArgs): Promise<void> => {
    const refuse = (text: string) => ack({ response_action: 'update', view: buildResetRefused(text) as never });
    const adminId = body.user.id;
    const access = await deps.access.check(adminId);
    if (!access.allowed) return refuse(refusalText(access));
    // Slack's state for a users_select: `selected_user`, null when nobody was chosen.
    const picked = view.state.values[RESET_PERSON.blockId]?.[RESET_PERSON.actionId]?.selected_user;
    let answer: Awaited<ReturnType<FeatureListenerDeps['secondFactor']['submitResetPicker']>>;
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

/** The reset picker's callback_id, bound to its handler. */
export const secondFactorListeners: ListenerBinding[] = [
  { kind: 'view', id: VIEW_IDS.secondFactorReset, create: createResetPickerSubmitListener },
];
