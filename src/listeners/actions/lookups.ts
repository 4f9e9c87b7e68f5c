import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackMessage } from '../../blocks/common.js';
import { buildFailure } from '../../blocks/errors.js';
import { UserFacingError } from '../../domain/errors.js';
import { GasPageValue, PayoutsPageValue, ShareButtonValue, WithdrawalsPageValue } from '../../blocks/ids.js';
import type { z } from 'zod';
import { mention } from '../../blocks/mrkdwn.js';
import * as lookups from '../../features/lookups.js';
import { errorFields } from '../../logger.js';
import { mayUseBot, NOT_A_TREASURY_USER, type ListenerDeps } from '../deps.js';
import type { Reply } from '../../slack/gateway.js';

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

const INVALID_BUTTON = 'This button carries data the bot cannot use (from an older version, or altered). Nothing was done; run the command again.';

/** Reads a JSON button value through its schema; a tampered or stale value is a plain notice, never a crash. */
function parseJsonValue<T>(schema: z.ZodType<T>, value: string | undefined): T {
  let json: unknown;
  try {
    json = JSON.parse(value ?? '');
  } catch {
    throw new UserFacingError(INVALID_BUTTON);
  }
  return parseValue(schema, json);
}

function parseValue<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UserFacingError(INVALID_BUTTON);
  return parsed.data;
}

/** What a lookup button's handler reads of the click: the button and who clicked. */
interface Click {
  actionId: string;
  value: string | undefined;
  userId: string;
}

/**
 * Wraps a button handler: ack at once, check the TREASURY_USERS gate, and deliver the resulting message
 * (or a readable failure) through the response_url, after the listener returns (see background.ts).
 */
function buttonListener(
  deps: ListenerDeps,
  handle: (click: Click) => Promise<{ message: SlackMessage; delivery: 'replace' | 'channel' }>,
) {
  return async ({ ack, body, action }: ButtonArgs): Promise<void> => {
    await ack();
    const fallback = { channelId: body.channel?.id, userId: body.user.id };
    const responseUrl = body.response_url;
    if (!mayUseBot(deps, body.user.id)) {
      await deps.slack.respond(responseUrl, { response_type: 'ephemeral', replace_original: false, text: NOT_A_TREASURY_USER }, fallback);
      return;
    }
    const click: Click = { actionId: action.action_id, value: action.value, userId: body.user.id };
    deps.background.run('a button', async () => {
      let reply: Reply;
      try {
        const { message, delivery } = await handle(click);
        reply = delivery === 'replace' ? { replace_original: true, ...message } : { response_type: 'in_channel', replace_original: false, ...message };
      } catch (error) {
        deps.logger.warn('button failed', { actionId: click.actionId, error: errorFields(error) });
        // The failure goes to the clicker alone and leaves the original message as it was.
        reply = { response_type: 'ephemeral', replace_original: false, ...buildFailure(error) };
      }
      await deps.slack.respond(responseUrl, reply, fallback);
    });
  };
}

/** "◀ Previous" / "Next ▶" of the withdrawal list: replaces the list with that page. */
export function createWithdrawalsPageListener(deps: ListenerDeps) {
  return buttonListener(deps, async ({ value }) => {
    return { message: await lookups.showWithdrawals(deps, parseValue(WithdrawalsPageValue, value)), delivery: 'replace' };
  });
}

/** "Next page ▶" of the payout task list. */
export function createPayoutsPageListener(deps: ListenerDeps) {
  return buttonListener(deps, async ({ value }) => ({
    message: await lookups.showPayoutTasks(deps, parseJsonValue(PayoutsPageValue, value)),
    delivery: 'replace',
  }));
}

/** "Next page ▶" of the gas manager list. */
export function createGasPageListener(deps: ListenerDeps) {
  return buttonListener(deps, async ({ value }) => ({
    message: await lookups.showGas(deps, parseJsonValue(GasPageValue, value)),
    delivery: 'replace',
  }));
}

/** "Share in channel": posts a fresh copy of the record for everyone, saying who shared it. */
export function createShareListener(deps: ListenerDeps) {
  return buttonListener(deps, async ({ value, userId }) => {
    const { kind, id } = parseJsonValue(ShareButtonValue, value);
    return { message: await lookups.showShared(deps, kind, id, mention(userId)), delivery: 'channel' };
  });
}
