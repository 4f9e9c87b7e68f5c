import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { z } from 'zod';
import type { SlackMessage } from '../../blocks/common.js';
import { buildFailure } from '../../blocks/errors.js';
import {
  ACTION_IDS,
  GasPageValue,
  PayoutsPageValue,
  ShareButtonValue,
  WITHDRAWALS_PAGE_ACTIONS,
  WithdrawalsPageValue,
} from '../../blocks/ids.js';
import { mention } from '../../blocks/mrkdwn.js';
import { UserFacingError } from '../../kernel/errors.js';
import { errorFields } from '../../logger.js';
import { type ConversationPlace, conversationKindOf } from '../../slack/conversations.js';
import { describeSlackError, mayHaveHappened, slackErrorCode } from '../../slack/errors.js';
import type { Reply } from '../../slack/gateway.js';
import type { ListenerBinding, ListenerPlatform } from '../../slack/listener-kit.js';
import { refusalText } from '../access/rules.js';
import type { TreasuryAccessCheck } from '../access/service.js';
import type { InvoiceFollower } from '../invoices/index.js';
import { cannotPostHere } from '../places.js';
import * as lookups from './service.js';

/** What the pages and Share use. */
export type LookupListenerDeps = ListenerPlatform & {
  access: TreasuryAccessCheck;
  /** A shared copy of a followed invoice is recorded to be rewritten; undefined when the poller is off. */
  invoices: Pick<InvoiceFollower, 'recordShare'> | undefined;
};

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

const INVALID_BUTTON =
  'This button carries data the bot cannot use (from an older version, or altered). Nothing was done; run the command again.';

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
 * Posts a shared copy in the conversation of the click with chat.postMessage. Not through the response_url: a
 * response_url reply to an ephemeral message may stay ephemeral, so the "shared" copy would reach nobody else.
 * When Slack will not post there (the bot is not in the channel or DM, the channel is archived or read-only),
 * throws the reason in plain words for the clicker; a click that names no conversation has only its response_url.
 * Answers where the copy is when Slack said (a copy through the response_url has no ts).
 */
async function postShared(
  deps: LookupListenerDeps,
  place: ConversationPlace,
  message: SlackMessage,
  responseUrl: string,
  userId: string,
): Promise<{ channel: string; ts: string } | undefined> {
  if (place.channelId === undefined) {
    await deps.slack.respond(
      responseUrl,
      { response_type: 'in_channel', replace_original: false, ...message },
      { channelId: undefined, userId },
    );
    return undefined;
  }
  try {
    return { channel: place.channelId, ts: await deps.slack.post(place.channelId, message) };
  } catch (error) {
    // A timeout or a 5xx does not mean nothing was posted: the copy may be in the channel (it is not sent again).
    const unconfirmed = mayHaveHappened(error);
    deps.logger.warn(
      unconfirmed
        ? 'Slack did not confirm a shared record posted in its conversation'
        : 'could not post a shared record in its conversation',
      {
        reason: describeSlackError(error),
      },
    );
    throw new UserFacingError(
      cannotPostHere(conversationKindOf(place), slackErrorCode(error), 'share') ??
        (unconfirmed
          ? 'Slack did not confirm the post of the shared copy, so it may or may not be in the channel. Check the channel before sharing again.'
          : 'Slack did not take the shared copy, so nothing was posted in the channel. Please try again in a minute.'),
      unconfirmed ? 'share_unconfirmed' : 'share_not_posted',
    );
  }
}

/**
 * Wraps a button handler: ack at once, check the TREASURY_USERS gate, and deliver the resulting message after the
 * listener returns (see background.ts): a replacement through the response_url, or a shared copy posted in the
 * conversation. A failure reaches the clicker alone, in plain words.
 */
function buttonListener(
  deps: LookupListenerDeps,
  handle: (click: Click) => Promise<{
    message: SlackMessage;
    delivery: 'replace' | 'channel';
    /** A shared copy is in the channel at `ts` (an invoice's is rewritten when it changes). */
    posted?: (copy: { channel: string; ts: string }) => Promise<void>;
  }>,
) {
  return async ({ ack, body, action }: ButtonArgs): Promise<void> => {
    await ack();
    const fallback = { channelId: body.channel?.id, userId: body.user.id };
    const place: ConversationPlace = { channelId: body.channel?.id, channelName: body.channel?.name };
    const responseUrl = body.response_url;
    const access = await deps.access.check(body.user.id);
    if (!access.allowed) {
      await deps.slack.respond(
        responseUrl,
        { response_type: 'ephemeral', replace_original: false, text: refusalText(access) },
        fallback,
      );
      return;
    }
    const click: Click = { actionId: action.action_id, value: action.value, userId: body.user.id };
    deps.background.run('a button', async () => {
      let reply: Reply;
      try {
        const { message, delivery, posted } = await handle(click);
        if (delivery === 'channel') {
          const copy = await postShared(deps, place, message, responseUrl, click.userId);
          if (copy && posted) await posted(copy);
          return;
        }
        reply = { replace_original: true, ...message };
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
function createWithdrawalsPageListener(deps: LookupListenerDeps) {
  return buttonListener(deps, async ({ value }) => {
    return {
      message: await lookups.showWithdrawals(deps, parseValue(WithdrawalsPageValue, value)),
      delivery: 'replace',
    };
  });
}

/** "Next page ▶" of the payout task list. */
function createPayoutsPageListener(deps: LookupListenerDeps) {
  return buttonListener(deps, async ({ value }) => ({
    message: await lookups.showPayoutTasks(deps, parseJsonValue(PayoutsPageValue, value)),
    delivery: 'replace',
  }));
}

/** "Next page ▶" of the gas manager list. */
function createGasPageListener(deps: LookupListenerDeps) {
  return buttonListener(deps, async ({ value }) => ({
    message: await lookups.showGas(deps, parseJsonValue(GasPageValue, value)),
    delivery: 'replace',
  }));
}

/** "Share in channel": posts a fresh copy of the record for everyone, saying who shared it. */
function createShareListener(deps: LookupListenerDeps) {
  return buttonListener(deps, async ({ value, userId }) => {
    const { kind, id } = parseJsonValue(ShareButtonValue, value);
    const invoices = deps.invoices;
    return {
      message: await lookups.showShared(deps, kind, id, mention(userId)),
      delivery: 'channel',
      // A followed invoice's copy is recorded, to be rewritten when it leaves pending (never throws).
      ...(kind === 'invoice' && invoices
        ? {
            posted: (copy: { channel: string; ts: string }) => invoices.recordShare(id, { ...copy, sharedBy: userId }),
          }
        : {}),
    };
  });
}

/** The pagers' and "Share in channel" action_ids, bound to their handlers. */
export const lookupListeners: ListenerBinding<LookupListenerDeps>[] = [
  { kind: 'action', id: WITHDRAWALS_PAGE_ACTIONS, create: createWithdrawalsPageListener },
  { kind: 'action', id: ACTION_IDS.payoutsPage, create: createPayoutsPageListener },
  { kind: 'action', id: ACTION_IDS.gasPage, create: createGasPageListener },
  { kind: 'action', id: ACTION_IDS.shareInChannel, create: createShareListener },
];
