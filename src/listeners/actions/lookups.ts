import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackMessage } from '../../blocks/common.js';
import { buildFailure, UserFacingError } from '../../blocks/errors.js';
import type { GasPageValue, PayoutsPageValue, ShareButtonValue } from '../../blocks/ids.js';
import { mention } from '../../blocks/mrkdwn.js';
import * as lookups from '../../features/lookups.js';
import { errorFields } from '../../logger.js';
import { mayUseBot, NOT_A_TREASURY_USER, type ListenerDeps } from '../deps.js';

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** Reads a button value we wrote ourselves; a tampered or stale value is a clear failure, not a crash. */
function parseValue<T>(value: string | undefined): T {
  try {
    return JSON.parse(value ?? '') as T;
  } catch {
    throw new UserFacingError('This button is from an older version of the bot; run the command again.');
  }
}

/**
 * Wraps a button handler: ack at once, check the TREASURY_USERS gate, and deliver the resulting message
 * (or a readable failure) through respond().
 */
function buttonListener(
  deps: ListenerDeps,
  handle: (args: ButtonArgs) => Promise<{ message: SlackMessage; delivery: 'replace' | 'channel' }>,
) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    if (!mayUseBot(deps, args.body.user.id)) {
      await args.respond({ response_type: 'ephemeral', replace_original: false, text: NOT_A_TREASURY_USER });
      return;
    }
    try {
      const { message, delivery } = await handle(args);
      await args.respond(
        delivery === 'replace'
          ? { replace_original: true, ...message }
          : { response_type: 'in_channel', replace_original: false, ...message },
      );
    } catch (error) {
      deps.logger.warn('button failed', { actionId: args.action.action_id, error: errorFields(error) });
      // The failure goes to the clicker alone and leaves the original message as it was.
      await args
        .respond({ response_type: 'ephemeral', replace_original: false, ...buildFailure(error) })
        .catch((deliveryError: unknown) => deps.logger.error('could not deliver the failure to Slack', { error: errorFields(deliveryError) }));
    }
  };
}

/** "◀ Previous" / "Next ▶" of the withdrawal list: replaces the list with that page. */
export function createWithdrawalsPageListener(deps: ListenerDeps) {
  return buttonListener(deps, async ({ action }) => {
    const page = Number(action.value);
    return { message: await lookups.showWithdrawals(deps, Number.isInteger(page) && page >= 1 ? page : 1), delivery: 'replace' };
  });
}

/** "Next page ▶" of the payout task list. */
export function createPayoutsPageListener(deps: ListenerDeps) {
  return buttonListener(deps, async ({ action }) => ({
    message: await lookups.showPayoutTasks(deps, parseValue<PayoutsPageValue>(action.value)),
    delivery: 'replace',
  }));
}

/** "Next page ▶" of the gas manager list. */
export function createGasPageListener(deps: ListenerDeps) {
  return buttonListener(deps, async ({ action }) => ({
    message: await lookups.showGas(deps, parseValue<GasPageValue>(action.value)),
    delivery: 'replace',
  }));
}

/** "Share in channel": posts a fresh copy of the record for everyone, saying who shared it. */
export function createShareListener(deps: ListenerDeps) {
  return buttonListener(deps, async ({ action, body }) => {
    const { kind, id } = parseValue<ShareButtonValue>(action.value);
    return { message: await lookups.showShared(deps, kind, id, mention(body.user.id)), delivery: 'channel' };
  });
}
