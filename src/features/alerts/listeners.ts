import type {
  AllMiddlewareArgs,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { buildFailure } from '../../blocks/errors.js';
import { ACTION_IDS, VIEW_IDS } from '../../blocks/ids.js';
import { errorFields } from '../../logger.js';
import {
  type HomeRefresh,
  type ListenerBinding,
  type ListenerPlatform,
  refreshHomeAfterAct,
  UNSUPPORTED_BUTTON,
} from '../../slack/listener-kit.js';
import { refusalText } from '../access/rules.js';
import type { TreasuryAccessCheck } from '../access/service.js';
import { buildResolveRefusedModal, parseAlertBlockId, RESOLVE_NOTE } from './blocks.js';
import type { AlertService, ClickAnswer } from './index.js';
import { isSnoozeChoice } from './snooze.js';

/** What the alert buttons and the resolve dialog use. */
export type AlertListenerDeps = ListenerPlatform & {
  access: TreasuryAccessCheck;
  /** Acknowledge, snooze and resolve; undefined when the poller is off (ALERT_CHANNEL unset). */
  alertActions: AlertService | undefined;
  /** A click in the Home tab publishes it again (with why it changed nothing); one elsewhere refreshes it. */
  home: HomeRefresh & { publish(userId: string, options?: { notice?: string }): Promise<void> };
};

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** What the click's element carries: the alert's reference and version (its block), and a snooze choice. */
interface AlertClick {
  ref: string;
  version: number;
  userId: string;
  channel: string;
  triggerId: string;
  selected?: string;
}

function readClick(body: BlockAction): AlertClick | undefined {
  const action = body.actions[0] as { block_id?: unknown; selected_option?: { value?: unknown } } | undefined;
  const parsed = typeof action?.block_id === 'string' ? parseAlertBlockId(action.block_id) : undefined;
  if (!parsed) return undefined;
  const selected = action?.selected_option?.value;
  return {
    ...parsed,
    userId: body.user.id,
    channel: body.channel?.id ?? '',
    triggerId: body.trigger_id,
    ...(typeof selected === 'string' ? { selected } : {}),
  };
}

/** Whether the click came from a Home tab (`container.type: view`): it has no channel, message or response_url. */
function fromHomeTab(body: BlockAction): boolean {
  return (body.container as { type?: unknown } | undefined)?.type === 'view';
}

/**
 * Acknowledge, Resolve and Snooze on an alert. Only treasury users may act (others are told so privately). The
 * message itself is rewritten by the alert feature, so it tells everyone what happened; the clicker alone hears
 * when the click changed nothing, and why (someone else was first, the message was outdated).
 *
 * From the Home tab (Acknowledge is there too) Slack gives no channel and no response_url, so nothing can be said
 * privately beside the click: the Home is published again, showing the alert as it is now, with the reason on
 * top when the click changed nothing.
 */
function alertControl(deps: AlertListenerDeps, handle: (click: AlertClick) => Promise<ClickAnswer>) {
  return async ({ ack, body, respond }: ActionArgs): Promise<void> => {
    await ack();
    const userId = body.user.id;
    const home = fromHomeTab(body) ? deps.home : undefined;
    const republish = (notice?: string) => {
      if (home) deps.background.run('home tab after an alert click', () => home.publish(userId, { notice }));
    };
    const answer = async (text: string) => {
      if (fromHomeTab(body)) return republish(text);
      await deps.slack.respond(
        respond,
        { response_type: 'ephemeral', replace_original: false, text },
        { channelId: body.channel?.id, userId },
      );
    };
    const access = await deps.access.check(userId);
    if (!access.allowed) return answer(refusalText(access));
    const click = readClick(body);
    if (!click || !deps.alertActions) return answer(UNSUPPORTED_BUTTON);
    try {
      const { notice } = await handle(click);
      if (notice) await answer(notice);
      else if (fromHomeTab(body)) republish();
      else refreshHomeAfterAct(deps, userId);
    } catch (error) {
      deps.logger.error('alert control failed', { error: errorFields(error) });
      if (fromHomeTab(body)) return republish(buildFailure(error).text);
      await deps.slack.respond(
        respond,
        { response_type: 'ephemeral', replace_original: false, ...buildFailure(error) },
        { channelId: body.channel?.id, userId },
      );
    }
  };
}

const createAlertAcknowledgeListener = (deps: AlertListenerDeps) =>
  alertControl(deps, (click) => deps.alertActions!.acknowledge(click.ref, click.version, click.userId));

const createAlertSnoozeListener = (deps: AlertListenerDeps) =>
  alertControl(deps, async (click) => {
    if (click.selected === undefined || !isSnoozeChoice(click.selected)) return { notice: UNSUPPORTED_BUTTON };
    return deps.alertActions!.snooze(click.ref, click.version, click.userId, click.selected);
  });

/** Resolve opens the note dialog: views.open must use the click's trigger within 3 s, so nothing slow comes first. */
const createAlertResolveListener = (deps: AlertListenerDeps) =>
  alertControl(deps, (click) => deps.alertActions!.openResolve(click));

/** The modal's private metadata, as the builder wrote it (checked: it comes back from outside). */
function readModalState(text: string): { ref: string; version: number; channel: string } | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value.ref !== 'string' || value.ref === '') return undefined;
    if (typeof value.version !== 'number' || !Number.isInteger(value.version) || value.version < 0) return undefined;
    return { ref: value.ref, version: value.version, channel: typeof value.channel === 'string' ? value.channel : '' };
  } catch {
    return undefined;
  }
}

/**
 * The Resolve dialog's submission, answered in Slack's own way within its 3 s: errors under the note (a note is
 * required), the dialog replaced by why nothing changed, or closed; the message and thread follow after the ack.
 */
function createAlertResolveSubmitListener(deps: AlertListenerDeps) {
  return async ({ ack, body, view }: ViewArgs): Promise<void> => {
    const refuse = (text: string) => ack({ response_action: 'update', view: buildResolveRefusedModal(text) as never });
    const access = await deps.access.check(body.user.id);
    if (!access.allowed) return refuse(refusalText(access));
    const state = readModalState(view.private_metadata);
    if (!state || !deps.alertActions) return refuse(UNSUPPORTED_BUTTON);
    const note = view.state.values[RESOLVE_NOTE.blockId]?.[RESOLVE_NOTE.actionId]?.value ?? '';
    let outcome: Awaited<ReturnType<NonNullable<AlertListenerDeps['alertActions']>['submitResolve']>>;
    try {
      outcome = await deps.alertActions.submitResolve(state, body.user.id, note ?? '');
    } catch (error) {
      deps.logger.error('resolving an alert failed', { error: errorFields(error) });
      return refuse(buildFailure(error).text);
    }
    if ('errors' in outcome) return ack({ response_action: 'errors', errors: outcome.errors });
    if ('refused' in outcome) return refuse(outcome.refused);
    await ack();
    const actions = deps.alertActions;
    deps.background.run('alert message after resolve', () => actions.sync(outcome.key));
    refreshHomeAfterAct(deps, body.user.id);
  };
}

/** The alert controls' action_ids and the Resolve dialog's callback_id, bound to their handlers. */
export const alertListeners: ListenerBinding<AlertListenerDeps>[] = [
  { kind: 'action', id: ACTION_IDS.alertAcknowledge, create: createAlertAcknowledgeListener },
  { kind: 'action', id: ACTION_IDS.alertResolve, create: createAlertResolveListener },
  { kind: 'action', id: ACTION_IDS.alertSnooze, create: createAlertSnoozeListener },
  { kind: 'view', id: VIEW_IDS.alertResolve, create: createAlertResolveSubmitListener },
];
