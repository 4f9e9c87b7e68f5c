/**
 * The forms' listener plumbing, the same for every form: open (within the trigger's 3 s, filling in the assets
 * after when the payment API is slow), recompute on every use of an input that dispatches (views.update with the
 * view's hash; a hash_conflict means a newer update won and is ignored), and submit (errors under the fields in the
 * ack, or the form closes and the same service path as the typed command runs, its answer delivered as the typed
 * command's is: on the command's response_url, else by direct message).
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { z } from 'zod';
import type { SlackMessage } from '../../blocks/common.js';
import { buildFailure } from '../../blocks/errors.js';
import { UserFacingError } from '../../kernel/errors.js';
import { errorFields } from '../../logger.js';
import type { Asset } from '../../payments/index.js';
import { describeSlackError, triggerRefused } from '../../slack/errors.js';
import type { HomeRefresh, ListenerBinding, ListenerPlatform } from '../../slack/listener-kit.js';
import { refusalText } from '../access/rules.js';
import type { TreasuryAccessCheck } from '../access/service.js';
import type { InvoiceFollower } from '../invoices/index.js';
import type { PayoutService } from '../payouts/service.js';
import type { FormSubmissionRepository } from '../repositories.js';
import type { SwapService } from '../swaps/index.js';
import type { ThresholdService } from '../thresholds/service.js';
import { formAssets } from './assets.js';
import { type AssetChoices, formNoticeModal, type ModalView } from './blocks.js';
import type { FormValues } from './values.js';

/** What the forms use (a command's deps and a listener's deps both have it). */
export type FormDeps = ListenerPlatform & {
  access: TreasuryAccessCheck;
  swaps: SwapService;
  thresholds: ThresholdService;
  payouts: PayoutService;
  /** A new invoice is followed; undefined when the poller is off (ALERT_CHANNEL unset): nothing follows them then. */
  invoices: Pick<InvoiceFollower, 'follow'> | undefined;
  home: HomeRefresh;
};

/** What the forms' listeners use: the forms' deps, and where a submission is claimed once across replicas. */
export type FormListenerDeps = FormDeps & { formSubmissions: FormSubmissionRepository };

/** Where a form's answer goes, remembered in the view's private_metadata (Slack holds it; the client cannot change it). */
export const FormOrigin = z.strictObject({
  /** The response_url of the `/treasury …` command that opened the form: the answer goes there, as a typed one's. */
  responseUrl: z
    .string()
    .max(2_000)
    .regex(/^https?:\/\/[^\s]+$/)
    .optional(),
  channelId: z.string().max(64).optional(),
});
export type FormOrigin = z.infer<typeof FormOrigin>;

/** What a form is built from: what was entered (Slack's state values) and where it came from. */
export interface FormState {
  values: FormValues;
  origin: FormOrigin;
  /** The merchant's assets, or that they are still being read (or could not be). */
  assets: AssetChoices;
}

/** What a form's submission leads to. */
export type FormSubmission =
  /** Shown under the fields, by block_id; the form stays open. */
  | { errors: Record<string, string> }
  /** The whole form is refused (not allowed): the modal says why. */
  | { refused: string }
  /** The form closes; `run` is the typed command's own service path, and its answer is delivered as the command's. */
  | { run: () => Promise<SlackMessage | undefined> };

/** One form: its modal's callback_id, the inputs that recompute it, how it is built and what submitting does. */
export interface FormDefinition {
  callbackId: string;
  /** The action_ids (each its block_id too) of the inputs whose use recomputes the view. */
  actionIds: readonly string[];
  /** The view for what is entered now (pure but for reading what the feature knows, e.g. a threshold already set). */
  build(state: FormState, deps: FormDeps, userId: string): Promise<ModalView> | ModalView;
  /** Checks what was entered (with the assets read now) and says what happens. */
  submit(state: FormState & { assets: readonly Asset[] }, deps: FormDeps, userId: string): Promise<FormSubmission>;
}

/** A trigger_id and until when (ms since the epoch, this machine's clock) a modal can still open with it. */
export interface FormTrigger {
  id: string;
  openBy: number;
}

/** How long the opener waits for the assets before opening without them (the rest of the 3 s is Slack's). */
const ASSETS_BEFORE_OPEN_MS = 1_200;
/** What the opener keeps of the trigger's life for views.open itself. */
const OPEN_RESERVE_MS = 800;
/** How long a recompute waits for the assets. */
const ASSETS_FOR_PREVIEW_MS = 10_000;
/** How long a submission waits for the assets (Slack wants the ack within 3 s). */
const ASSETS_FOR_SUBMIT_MS = 1_800;
/**
 * How long a recompute waits for a later keystroke on the same view: the later one carries what is typed now and
 * the same view hash, so it alone is rebuilt (an earlier update landing first would make the later one meet
 * hash_conflict and leave the preview a keystroke behind).
 */
const COALESCE_MS = 150;

/** The trigger of a click or shortcut acknowledged now: Slack accepts it for 3 s, less a margin for the ack. */
export function triggerFromNow(triggerId: string, nowMs: number = Date.now()): FormTrigger {
  return { id: triggerId, openBy: nowMs + 2_800 };
}

/** Resolves with the promise's value, or undefined after `ms` (the promise keeps running; its failure is dropped). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The assets for a form, or why there are none (in plain words), waiting at most `ms`. */
async function assetChoices(deps: FormDeps, ms: number): Promise<AssetChoices> {
  try {
    return (await within(formAssets(deps.payments), ms)) ?? { loading: true };
  } catch (error) {
    deps.logger.warn('forms: reading the merchant’s assets failed', { error: errorFields(error) });
    return { failed: 'The payment service did not list the merchant’s assets. Close the form and try again.' };
  }
}

/**
 * Opens the form with the trigger, inside its window even when the payment API is slow: the assets are waited for
 * only briefly; without them the form opens saying they are being read, and is filled in by views.update (with the
 * hash it opened with: if the person already made it recompute, that newer view stands). Someone not behind
 * TREASURY_USERS (or not confirmed in time) gets a modal saying so instead. Throws a UserFacingError when Slack did
 * not open it (the trigger expired, or was used).
 */
export async function openForm(
  deps: FormDeps,
  form: FormDefinition,
  options: { userId: string; trigger: FormTrigger; origin?: FormOrigin },
): Promise<void> {
  const views = deps.views;
  const origin = options.origin ?? {};
  // The menu shows balances: only for people behind TREASURY_USERS (unknown in time refuses).
  const access =
    deps.access.known(options.userId) ??
    (await within(deps.access.check(options.userId), options.trigger.openBy - OPEN_RESERVE_MS - Date.now()));
  if (access === undefined || !access.allowed) {
    const text =
      access === undefined
        ? 'The bot could not confirm in time that you may use it (Slack did not list the groups in time). Try again in a moment.'
        : refusalText(access);
    await views.openView(
      options.trigger.id,
      formNoticeModal({ callbackId: `${form.callbackId}_refused`, title: 'Not available', text }),
    );
    return;
  }
  const waitMs = Math.min(ASSETS_BEFORE_OPEN_MS, options.trigger.openBy - OPEN_RESERVE_MS - Date.now());
  const early = await assetChoices(deps, waitMs);
  const first = await form.build({ values: {}, origin, assets: early }, deps, options.userId);
  let opened: { viewId: string; hash?: string };
  try {
    opened = await views.openView(options.trigger.id, first);
  } catch (error) {
    deps.logger.warn('forms: Slack did not open a form', { form: form.callbackId, reason: describeSlackError(error) });
    throw new UserFacingError(
      triggerRefused(error)
        ? 'Slack did not open the form in time (it allows 3 seconds). Try again, or type the command with its words.'
        : 'Slack did not open the form. Try again in a moment, or type the command with its words.',
    );
  }
  if ('loading' in early) {
    deps.background.run('a form filled in with the assets', async () => {
      const read = await assetChoices(deps, ASSETS_FOR_PREVIEW_MS);
      // Still nothing after the wait: say so rather than "reading…" for ever.
      const assets: AssetChoices =
        'loading' in read
          ? { failed: 'The payment service is slow to list the merchant’s assets. Close the form and try again.' }
          : read;
      const filled = await form.build({ values: {}, origin, assets }, deps, options.userId);
      const outcome = await views.updateView(opened.viewId, filled, opened.hash ? { hash: opened.hash } : {});
      if ('conflict' in outcome) deps.logger.debug('forms: the form changed before its assets came; kept it');
    });
  }
}

/** The origin a view remembers (its private_metadata), or none when it cannot be read. */
function readOrigin(privateMetadata: string | undefined): FormOrigin {
  try {
    const parsed = FormOrigin.safeParse(JSON.parse(privateMetadata ?? '{}'));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** The latest use of an input per open view (per process): an earlier one still waiting is dropped for it. */
const latestUse = new Map<string, number>();
let uses = 0;

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/**
 * The use of an input inside the form (a choice, a keystroke): acknowledged, then the view is built again from
 * Slack's state and put in place with views.update and the view's hash. Keystrokes that come together are
 * coalesced (only the last is rebuilt); a hash_conflict (a newer update won) and a closed view are ignored quietly;
 * someone not (or no longer) allowed gets no preview.
 */
function createFormActionListener(form: FormDefinition) {
  return (deps: FormListenerDeps) =>
    async ({ ack, body }: ActionArgs): Promise<void> => {
      await ack();
      const view = body.view;
      const views = deps.views;
      if (view === undefined || view.callback_id !== form.callbackId) return;
      const userId = body.user.id;
      const use = ++uses;
      latestUse.set(view.id, use);
      const superseded = () => latestUse.get(view.id) !== use;
      deps.background.run('a form recomputed', async () => {
        await new Promise((resolve) => setTimeout(resolve, COALESCE_MS));
        if (superseded()) return;
        const access = deps.access.known(userId) ?? (await deps.access.check(userId));
        if (!access.allowed) return;
        const assets = await assetChoices(deps, ASSETS_FOR_PREVIEW_MS);
        const state = { values: view.state.values as FormValues, origin: readOrigin(view.private_metadata), assets };
        const next = await form.build(state, deps, userId);
        if (superseded()) return;
        latestUse.delete(view.id);
        try {
          const outcome = await views.updateView(view.id, next, { hash: view.hash });
          if ('conflict' in outcome)
            deps.logger.debug('forms: a newer update of the form won', { form: form.callbackId });
        } catch (error) {
          // The person closed the form meanwhile (`not_found`): nothing to show it to.
          deps.logger.debug('forms: the form could not be updated', { reason: describeSlackError(error) });
        }
      });
    };
}

/**
 * The form submitted, answered within Slack's 3 s: refused as a whole (not a treasury user), errors under the
 * fields (the ack's `response_action: errors`), or the form closes and the typed command's path runs after the ack,
 * once per view (Slack or a person sending the same submission again runs nothing twice); its answer (or its
 * failure, in the typed command's words) goes where the typed command's would.
 */
function createFormSubmitListener(form: FormDefinition) {
  return (deps: FormListenerDeps) =>
    async ({ ack, body, view }: ViewArgs): Promise<void> => {
      const userId = body.user.id;
      const refuse = (text: string) =>
        ack({
          response_action: 'update',
          view: formNoticeModal({ callbackId: `${form.callbackId}_refused`, title: 'Nothing was done', text }) as never,
        });
      const access = deps.access.known(userId) ?? (await deps.access.check(userId));
      if (!access.allowed) return refuse(refusalText(access));
      const origin = readOrigin(view.private_metadata);
      let assets: Asset[] | undefined;
      try {
        assets = await within(formAssets(deps.payments), ASSETS_FOR_SUBMIT_MS);
      } catch (error) {
        deps.logger.warn('forms: reading the merchant’s assets failed', { error: errorFields(error) });
      }
      if (assets === undefined)
        return refuse(
          'The payment service did not answer in time, so nothing was done. Open the form again in a moment.',
        );
      let outcome: FormSubmission;
      try {
        outcome = await form.submit({ values: view.state.values as FormValues, origin, assets }, deps, userId);
      } catch (error) {
        deps.logger.warn('forms: checking a submission failed', { form: form.callbackId, error: errorFields(error) });
        return refuse(buildFailure(error).text);
      }
      if ('errors' in outcome) return ack({ response_action: 'errors', errors: outcome.errors });
      if ('refused' in outcome) return refuse(outcome.refused);
      await ack();
      deps.background.run(`the ${form.callbackId} form`, async () => {
        let reply: SlackMessage | undefined;
        let claimed: boolean;
        try {
          claimed = await deps.formSubmissions.claim(view.id, deps.now());
        } catch (error) {
          // Unknown whether it ran elsewhere: fail closed, run nothing.
          deps.logger.error('forms: the submission could not be claimed; nothing was run', {
            form: form.callbackId,
            error: errorFields(error),
          });
          const notice = new UserFacingError(
            'Nothing was done: the bot could not record this submission. Please try again in a moment.',
          );
          await deliverFormAnswer(deps, userId, origin, buildFailure(notice));
          return;
        }
        if (!claimed) {
          deps.logger.info('forms: the same submission came again; it ran once', { form: form.callbackId });
          return;
        }
        try {
          reply = await outcome.run();
        } catch (error) {
          deps.logger.warn('forms: a submitted form failed', { form: form.callbackId, error: errorFields(error) });
          reply = buildFailure(error);
        }
        if (reply !== undefined) await deliverFormAnswer(deps, userId, origin, reply);
      });
    };
}

/**
 * The answer of a submitted form, where the typed command's would go: privately on the response_url of the command
 * that opened it; otherwise (a Home button, a shortcut) in the person's direct message with the bot.
 */
async function deliverFormAnswer(
  deps: Pick<FormDeps, 'slack' | 'views' | 'logger'>,
  userId: string,
  origin: FormOrigin,
  reply: SlackMessage,
): Promise<void> {
  if (origin.responseUrl !== undefined) {
    await deps.slack.respond(
      origin.responseUrl,
      { response_type: 'ephemeral', ...reply },
      { channelId: origin.channelId, userId },
    );
    return;
  }
  try {
    const dm = await deps.views.openDirectMessage(userId);
    await deps.slack.post(dm, reply);
  } catch (error) {
    deps.logger.error('forms: the answer of a form could not be delivered', { error: errorFields(error) });
  }
}

/** A form's two bindings: its inputs that recompute, and its submission. */
export function formListeners(form: FormDefinition): ListenerBinding<FormListenerDeps>[] {
  const inputs = new RegExp(`^(?:${form.actionIds.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
  return [
    // An input's action handler reads any block action (a select, a text input), not only buttons.
    { kind: 'action', id: inputs, create: createFormActionListener(form) as never },
    { kind: 'view', id: form.callbackId, create: createFormSubmitListener(form) },
  ];
}
