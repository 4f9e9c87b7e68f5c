/**
 * Replies to a command or click: through the response_url (Bolt's respond() or the url itself), retried within
 * the url's few uses and sent as plain text when the url refuses the content; if that fails, as a message instead.
 */
import type { RespondFn, types } from '@slack/bolt';
import { errorFields, type Logger } from '../logger.js';
import { describeSlackError, isTransient, mayHaveHappened, responseUrlRefusedContent } from './errors.js';
import type { Reply, ReplyFallback, SlackGateway } from './gateway-contract.js';
import { plainTextOf } from './plain-text.js';
import { type SlackRetryPolicy, slackRetryDelayMs } from './retry-policy.js';
import { postToResponseUrl } from './url-posts.js';

type Block = types.KnownBlock;

/** A reply without its blocks: the same flags (ephemeral, replace…), the facts as plain text (see plain-text.ts). */
function plainReply(reply: Reply): Reply {
  const {
    blocks: _blocks,
    attachments: _attachments,
    text: _text,
    ...flags
  } = reply as Reply & { attachments?: unknown };
  return { ...flags, text: plainTextOf(reply) };
}

/** What a person is told when a shared reply went to the channel as a message and Slack did not confirm the post. */
const UNCONFIRMED_SHARED_REPLY =
  'Slack did not confirm the post of your shared reply in this channel, so it may or may not be there. Check the channel before trying again.';

/** What deliverReply needs: the gateway's message methods for the fallback, the policy, a clock and a log. */
export interface ReplyDeliveryDeps {
  gateway: Pick<SlackGateway, 'post' | 'postEphemeral'>;
  policy: SlackRetryPolicy;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
}

/** SlackGateway.respond: delivers `reply`, falling back to a message; never throws (an undeliverable reply is logged). */
export async function deliverReply(
  deps: ReplyDeliveryDeps,
  via: RespondFn | string,
  reply: Reply,
  fallback: ReplyFallback,
): Promise<void> {
  const { gateway, policy, sleep, logger } = deps;
  const send = typeof via === 'string' ? (r: Reply) => postToResponseUrl(via, r, policy.responseUrlTimeoutMs) : via;
  let lastError: unknown;
  let sending = reply;
  for (let attempt = 1; attempt <= policy.responseUrlAttempts; attempt++) {
    try {
      await send(sending);
      return;
    } catch (error) {
      lastError = error;
      // A 400 refuses what was sent (its blocks, its length): the same url takes the facts as plain text.
      if (responseUrlRefusedContent(error) && sending === reply && attempt < policy.responseUrlAttempts) {
        logger.warn("the response_url refused the reply's content; sending it as plain text", {
          reason: describeSlackError(error),
        });
        sending = plainReply(reply);
        continue;
      }
      // A 404 means the url is used up or expired: another post there cannot succeed.
      if (!isTransient(error) || attempt === policy.responseUrlAttempts) break;
      await sleep(slackRetryDelayMs(policy, attempt));
    }
  }
  logger.warn('the response_url did not take the reply; sending it as a message instead', {
    reason: describeSlackError(lastError),
    error: errorFields(lastError),
  });
  if (fallback.channelId === undefined) {
    logger.error('could not deliver a reply: no response_url and no channel to fall back to', {
      userId: fallback.userId,
    });
    return;
  }
  // The message methods fall back to plain text themselves when Slack refuses the blocks.
  const message = { text: sending.text, ...(sending.blocks ? { blocks: sending.blocks as Block[] } : {}) };
  try {
    if (reply.response_type === 'in_channel') await gateway.post(fallback.channelId, message);
    else await gateway.postEphemeral(fallback.channelId, fallback.userId, message);
  } catch (error) {
    // A shared reply whose post Slack did not confirm may be in the channel: neither the log nor the person is
    // told it is lost, and the person is told to look before sharing again (best effort: it is a notice).
    if (reply.response_type === 'in_channel' && mayHaveHappened(error)) {
      logger.error('Slack did not confirm a shared reply posted in the channel; it may or may not be there', {
        reason: describeSlackError(error),
        error: errorFields(error),
      });
      await gateway
        .postEphemeral(fallback.channelId, fallback.userId, { text: UNCONFIRMED_SHARED_REPLY })
        .catch((notice: unknown) => {
          logger.warn('could not tell the person that a shared reply was not confirmed', {
            reason: describeSlackError(notice),
          });
        });
    } else {
      logger.error('could not deliver a reply to Slack at all', {
        reason: describeSlackError(error),
        error: errorFields(error),
      });
    }
  }
}
