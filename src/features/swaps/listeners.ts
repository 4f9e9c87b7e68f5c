import type {
  AllMiddlewareArgs,
  BlockButtonAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { buildFailure } from '../../blocks/errors.js';
import { ACTION_IDS, STEP_UP_IDS, VIEW_IDS } from '../../blocks/ids.js';
import { errorFields } from '../../logger.js';
import {
  type HomeRefresh,
  type ListenerBinding,
  type ListenerPlatform,
  refreshHomeAfterAct,
} from '../../slack/listener-kit.js';
import { refusalText } from '../access/rules.js';
import type { TreasuryAccessCheck } from '../access/service.js';
import type { ClickOrigin, ClickOutcome, SwapService } from './index.js';
import { parseStepUpMetadata, STEP_UP_WORDS } from './step-up.js';
import { buildStepUpRefusedModal } from './step-up-blocks.js';

/** What the swap buttons and the code dialog use. */
export type SwapListenerDeps = ListenerPlatform & {
  access: TreasuryAccessCheck;
  swaps: SwapService;
  home: HomeRefresh;
};

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** A string field of the payload, or undefined. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The message the clicked button is in: `channel.id` / `message.ts`, or the `container` fields. When the two
 * places disagree the click names no single message, and is treated as carrying none.
 */
export function clickOrigin(body: BlockButtonAction): ClickOrigin {
  const container = (body.container ?? {}) as Record<string, unknown>;
  const pick = (a: string | undefined, b: string | undefined) =>
    a !== undefined && b !== undefined && a !== b ? undefined : (a ?? b);
  return {
    channelId: pick(text(body.channel?.id), text(container.channel_id)),
    messageTs: pick(text(body.message?.ts), text(container.message_ts)),
  };
}

/**
 * Swap buttons. The quote message itself is edited by the swap feature (chat.update), so it tells everyone
 * what happened; the clicker alone gets a private notice when their click changed nothing, and why.
 * Approve and Reject are SWAP_APPROVERS' business, not TREASURY_USERS'; "New quote" asks for a quote, as
 * `/treasury swap` does, so only TREASURY_USERS may (`treasuryUsersOnly`). The button value names the quote, and
 * the click's own message must be that quote's message (checked by the swap feature).
 */
function swapButton(
  deps: SwapListenerDeps,
  handle: (quoteId: string, userId: string, origin: ClickOrigin, triggerId: string) => Promise<ClickOutcome>,
  options: { treasuryUsersOnly?: boolean } = {},
) {
  return async ({ ack, action, body, respond }: ButtonArgs): Promise<void> => {
    await ack();
    const fallback = { channelId: body.channel?.id, userId: body.user.id };
    if (options.treasuryUsersOnly) {
      const access = await deps.access.check(body.user.id);
      if (!access.allowed) {
        await deps.slack.respond(
          respond,
          { response_type: 'ephemeral', replace_original: false, text: refusalText(access) },
          fallback,
        );
        return;
      }
    }
    let notice: string | undefined;
    let failure: unknown;
    try {
      notice = (await handle(text(action.value) ?? '', body.user.id, clickOrigin(body), body.trigger_id)).notice;
    } catch (error) {
      deps.logger.error('swap button failed', { actionId: action.action_id, error: errorFields(error) });
      failure = error;
    }
    // What the person sees on their Home (quotes waiting for them, their requests) follows what they just did.
    refreshHomeAfterAct(deps, body.user.id);
    const message = failure !== undefined ? buildFailure(failure) : notice ? { text: notice } : undefined;
    if (!message) return;
    await deps.slack.respond(respond, { response_type: 'ephemeral', replace_original: false, ...message }, fallback);
  };
}

/**
 * "Approve" on a quote. On a quote that needs a second factor it opens the code dialog with the click's trigger
 * (valid 3 s, once: only fast reads come before it), or tells the clicker why not.
 */
const createSwapApproveListener = (deps: SwapListenerDeps) =>
  swapButton(deps, (quoteId, userId, origin, triggerId) => deps.swaps.approve(quoteId, userId, origin, triggerId));
/** "Reject" on a quote. */
const createSwapRejectListener = (deps: SwapListenerDeps) =>
  swapButton(deps, (quoteId, userId, origin) => deps.swaps.decide(quoteId, userId, 'reject', origin));
/** "New quote" on an expired or refused quote. */
const createSwapNewQuoteListener = (deps: SwapListenerDeps) =>
  swapButton(deps, (quoteId, userId, origin) => deps.swaps.requote(quoteId, userId, origin), {
    treasuryUsersOnly: true,
  });

/**
 * The code dialog's submission, answered within Slack's 3 s: the code is checked first; a refused code is an error
 * under the input (the dialog stays open); an altered dialog is refused. A valid code closes the dialog, and the
 * approval runs after the ack, as a normal Approve marked with a second factor (the quote message shows it; what
 * the clicker would have been told comes privately in the quote's channel, or by DM).
 */
function createSwapStepUpSubmitListener(deps: SwapListenerDeps) {
  return async ({ ack, body, view }: ViewArgs): Promise<void> => {
    const userId = body.user.id;
    const refuse = (words: string) => ack({ response_action: 'update', view: buildStepUpRefusedModal(words) as never });
    const state = parseStepUpMetadata(view.private_metadata);
    if (!state) {
      deps.logger.warn('refused a code dialog whose metadata is not one the bot wrote', { userId });
      return refuse(STEP_UP_WORDS.altered);
    }
    const code = view.state.values[STEP_UP_IDS.codeBlock]?.[STEP_UP_IDS.codeAction]?.value ?? '';
    let outcome: Awaited<ReturnType<SwapListenerDeps['swaps']['submitCode']>>;
    try {
      outcome = await deps.swaps.submitCode(state, userId, code);
    } catch (error) {
      deps.logger.error('the code dialog failed', { error: errorFields(error) });
      return ack({ response_action: 'errors', errors: { [STEP_UP_IDS.codeBlock]: STEP_UP_WORDS.failed } });
    }
    if ('errors' in outcome) return ack({ response_action: 'errors', errors: outcome.errors });
    if ('refused' in outcome) return refuse(outcome.refused);
    await ack();
    const approve = outcome.accepted;
    deps.background.run('swap approval with a code', async () => {
      await approve();
      refreshHomeAfterAct(deps, userId);
    });
  };
}

/** The swap buttons' action_ids and the code dialog's callback_id, bound to their handlers. */
export const swapListeners: ListenerBinding<SwapListenerDeps>[] = [
  { kind: 'action', id: ACTION_IDS.swapApprove, create: createSwapApproveListener },
  { kind: 'action', id: ACTION_IDS.swapReject, create: createSwapRejectListener },
  { kind: 'action', id: ACTION_IDS.swapNewQuote, create: createSwapNewQuoteListener },
  { kind: 'view', id: VIEW_IDS.swapStepUp, create: createSwapStepUpSubmitListener },
];
