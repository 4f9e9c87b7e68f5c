import type { AllMiddlewareArgs, AnyMiddlewareArgs, Middleware, RespondFn } from '@slack/bolt';
import { z } from 'zod';
import { ACTION_IDS, WITHDRAWALS_PAGE_ACTIONS } from '../blocks/ids.js';
import type { Logger } from '../logger.js';
import type { SlackGateway } from '../slack/gateway.js';

/** The only slash command this app declares. */
export const TREASURY_COMMAND = '/treasury';

/** Told to whoever clicks a button this version does not know (a message from an older version, or altered). */
export const UNSUPPORTED_BUTTON = 'This button is no longer supported. Run the command again for a fresh message.';

const KNOWN_ACTIONS = new Set<string>(Object.values(ACTION_IDS));
const isKnownAction = (id: string) => KNOWN_ACTIONS.has(id) || WITHDRAWALS_PAGE_ACTIONS.test(id);

const SlackId = z.string().regex(/^[A-Z0-9_]{1,32}$/i);
const ResponseUrl = z.string().url().max(2_000);

/** What the listeners rely on in a slash command: who, where, and how to answer. `text` may be absent. */
const CommandBody = z.object({
  command: z.string(),
  user_id: SlackId,
  channel_id: z.string().max(64),
  response_url: ResponseUrl,
  text: z.string().max(4_000).optional(),
});

/** What the listeners rely on in a button click. */
const BlockActionsBody = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: SlackId }),
  actions: z
    .array(z.object({ action_id: z.string().max(255), type: z.string().optional(), value: z.string().optional() }))
    .length(1),
  response_url: ResponseUrl,
  channel: z.object({ id: z.string().max(64) }).optional(),
});

/**
 * The first middleware: every request that reaches a listener has the shape the listener reads, and every other
 * signed request is acknowledged at once (Slack retries or shows an error after 3 s without an answer).
 * Nothing here answers 5xx or throws for bad input.
 */
export function createEdgeMiddleware(logger: Logger, slack: Pick<SlackGateway, 'respond'>): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const { body, next } = args;
    const ack = 'ack' in args ? (args.ack as (response?: unknown) => Promise<void>) : undefined;
    const kind = typeof body === 'object' && body !== null ? ((body as { type?: unknown }).type ?? ('command' in body ? 'command' : undefined)) : undefined;

    if (kind === 'command') {
      const command = CommandBody.safeParse(body);
      if (!command.success || command.data.command !== TREASURY_COMMAND) {
        logger.warn('ignored a malformed or unknown slash command', { problem: command.success ? 'unknown command' : command.error.issues[0]?.path.join('.') });
        await ack?.({ response_type: 'ephemeral', text: 'The bot could not read this command. Please type it again.' });
        return;
      }
      // Slack omits `text` for a bare command in some clients; listeners read it as a string.
      (body as { text?: string }).text = command.data.text ?? '';
      await next();
      return;
    }

    if (kind === 'block_actions') {
      const click = BlockActionsBody.safeParse(body);
      if (!click.success) {
        logger.warn('ignored a malformed button click', { problem: click.error.issues[0]?.path.join('.') || '(body)' });
        await ack?.();
        return;
      }
      const actionId = click.data.actions[0]!.action_id;
      if (!isKnownAction(actionId)) {
        await ack?.();
        logger.warn('a click on an unknown button', { actionId: actionId.slice(0, 80) });
        const { respond } = args as AllMiddlewareArgs & { respond: RespondFn };
        await slack.respond(
          respond,
          { response_type: 'ephemeral', replace_original: false, text: UNSUPPORTED_BUTTON },
          { channelId: click.data.channel?.id, userId: click.data.user.id },
        );
        return;
      }
      await next();
      return;
    }

    // Events, shortcuts, views and anything else: this app has no listener for them. Answer at once.
    logger.debug('acknowledged a Slack request the bot does not handle', { type: typeof kind === 'string' ? kind.slice(0, 40) : 'unknown' });
    await ack?.();
  };
}
