/**
 * Where the forms open from besides their commands: the Home tab's buttons (New invoice, Set a threshold, New swap) and the
 * global shortcut "Treasury: new invoice". Each opens its form with the click's trigger (3 s) after the ack; a form
 * that could not open has nowhere to say so but the log (a Home click and a shortcut carry no response_url).
 */
import type {
  AllMiddlewareArgs,
  BlockButtonAction,
  SlackActionMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
} from '@slack/bolt';
import { ACTION_IDS, SHORTCUT_IDS } from '../../blocks/ids.js';
import { errorFields } from '../../logger.js';
import type { ListenerBinding } from '../../slack/listener-kit.js';
import { invoiceForm } from './invoice-form.js';
import { type FormDefinition, type FormListenerDeps, formListeners, openForm, triggerFromNow } from './listeners.js';
import { payoutForm } from './payout-form.js';
import { swapForm } from './swap-form.js';
import { thresholdForm } from './threshold-form.js';

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;
type ShortcutArgs = SlackShortcutMiddlewareArgs & AllMiddlewareArgs;

/** Opens `form` for whoever clicked or picked the shortcut, with its trigger. */
function opensForm(form: FormDefinition) {
  return (deps: FormListenerDeps) =>
    async (args: ButtonArgs | ShortcutArgs): Promise<void> => {
      const trigger = triggerFromNow((args.body as { trigger_id: string }).trigger_id);
      await args.ack();
      const userId = args.body.user.id;
      deps.background.run(`open the ${form.callbackId} form`, async () => {
        try {
          await openForm(deps, form, { userId, trigger });
        } catch (error) {
          deps.logger.warn('forms: a form did not open', { form: form.callbackId, error: errorFields(error) });
        }
      });
    };
}

/** Every form's bindings: the Home buttons and the shortcut that open them, their inputs and their submissions. */
export const formBindings: ListenerBinding<FormListenerDeps>[] = [
  { kind: 'action', id: ACTION_IDS.homeNewInvoice, create: opensForm(invoiceForm) },
  { kind: 'action', id: ACTION_IDS.homeSetThreshold, create: opensForm(thresholdForm) },
  { kind: 'action', id: ACTION_IDS.homeNewSwap, create: opensForm(swapForm) },
  { kind: 'shortcut', id: SHORTCUT_IDS.newInvoice, create: opensForm(invoiceForm) },
  ...formListeners(invoiceForm),
  ...formListeners(thresholdForm),
  ...formListeners(swapForm),
  ...formListeners(payoutForm),
];
