/**
 * Every Slack request in the register of work in flight (listeners/background.ts), and none started once shutdown
 * has begun.
 *
 * Bolt's app.stop() closes the receiver but does not wait for listeners still running: an Approve whose swap/create
 * is on its way would be cut off when the process exits, and the quote would end `outcome_unknown`. The request
 * pipeline (pipeline.ts) ends only after the request's handler has settled, so one gate first in it counts each
 * request from start to end. The second one, after the edge gate (so it only sees well-formed requests of the
 * installing organisation), answers a request that arrives during shutdown in plain words and lets it start nothing.
 */
import { buildResolveRefusedModal } from '../features/alerts/blocks.js';
import type { Logger } from '../logger.js';
import type { SlackGateway } from '../slack/gateway.js';
import type { BackgroundWork } from './background.js';
import type { RequestGate } from './pipeline.js';

/** Told to whoever sends a command, a click or a dialog while the bot shuts down. */
export const RESTARTING = 'The bot is restarting; try again in a minute.';

/** A short name for a request, for the log line that says what was still running at shutdown. */
function requestName(body: unknown): string {
  if (typeof body !== 'object' || body === null) return 'slack request';
  const b = body as Record<string, unknown>;
  const clip = (value: unknown) => (typeof value === 'string' ? value.slice(0, 60) : '?');
  if (typeof b.command === 'string') {
    const verb = typeof b.text === 'string' ? (b.text.trim().split(/\s+/)[0] ?? '') : '';
    return `command ${clip(b.command)}${verb ? ` ${clip(verb)}` : ''}`;
  }
  if (b.type === 'block_actions') {
    const actions = Array.isArray(b.actions) ? (b.actions as { action_id?: unknown }[]) : [];
    return `click ${clip(actions[0]?.action_id)}`;
  }
  if (b.type === 'view_submission')
    return `dialog ${clip((b.view as { callback_id?: unknown } | undefined)?.callback_id)}`;
  if (b.type === 'event_callback') return `event ${clip((b.event as { type?: unknown } | undefined)?.type)}`;
  return `slack request ${clip(b.type)}`;
}

/** First in the chain: each request is work in flight until its listeners have settled. */
export function trackRequests(work: BackgroundWork): RequestGate {
  return async ({ body }, next) => {
    await work.track(requestName(body), () => next());
  };
}

/** After the edge gate: during shutdown a request is answered in plain words and reaches no listener. */
export function refuseWhileStopping(
  work: Pick<BackgroundWork, 'stopping'>,
  logger: Logger,
  slack: Pick<SlackGateway, 'respond'>,
): RequestGate {
  return async (args, next) => {
    if (!work.stopping) {
      await next();
      return;
    }
    const { body } = args;
    const ack = 'ack' in args ? (args.ack as (response?: unknown) => Promise<void>) : undefined;
    const b = body as Record<string, unknown>;
    logger.info('refused a Slack request: the bot is shutting down', { request: requestName(body) });
    if (typeof b.command === 'string') {
      await ack?.({ response_type: 'ephemeral', text: RESTARTING });
      return;
    }
    if (b.type === 'block_actions') {
      await ack?.();
      // A click in a message is answered on its response_url; a click in the Home tab has nowhere to be answered.
      if (typeof b.response_url === 'string') {
        const user = b.user as { id?: unknown } | undefined;
        await slack.respond(
          b.response_url,
          { response_type: 'ephemeral', replace_original: false, text: RESTARTING },
          { channelId: undefined, userId: typeof user?.id === 'string' ? user.id : '' },
        );
      }
      return;
    }
    if (b.type === 'view_submission') {
      await ack?.({ response_action: 'update', view: buildResolveRefusedModal(RESTARTING) });
      return;
    }
    // Events were acknowledged by Bolt already: a Home tab opened now is not published.
    await ack?.();
  };
}
