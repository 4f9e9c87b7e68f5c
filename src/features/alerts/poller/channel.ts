/**
 * Start-up: the bot joins ALERT_CHANNEL and checks that it can read it back. Reading it is what lets a post
 * whose answer was lost be found instead of posted twice (see deliver.ts); posting needs neither.
 */
import type { Logger } from '../../../logger.js';
import { describeSlackError, slackErrorCode } from '../../../slack/errors.js';
import type { SlackGateway } from '../../../slack/gateway.js';
import { ALERT_EVENT_TYPE } from './slack.js';

/** What start-up found out about the alert channel. */
export type AlertChannelAccess = 'readable' | 'not_readable' | 'unknown';

/**
 * Joins the channel (public channels; `channels:join`), then reads it once (`channels:history` /
 * `groups:history`). Says once, in the log, what a person must do when either is refused; never throws.
 */
export async function prepareAlertChannel(
  slack: Pick<SlackGateway, 'join' | 'findPosted'>,
  channel: string,
  logger: Logger,
  now: () => Date,
): Promise<AlertChannelAccess> {
  try {
    await slack.join(channel);
  } catch (error) {
    const code = slackErrorCode(error);
    if (code === 'missing_scope') {
      logger.warn(
        'alert channel: the app may not join channels (scope channels:join is missing); invite the bot to ALERT_CHANNEL or reinstall the app with the manifest',
        { channel },
      );
    } else if (code !== 'method_not_supported_for_channel_type' && code !== 'already_in_channel') {
      // A private channel answers method_not_supported_for_channel_type: the bot must be invited; the read below says whether it was.
      logger.warn('alert channel: could not join ALERT_CHANNEL', { channel, reason: describeSlackError(error) });
    }
  }
  try {
    await slack.findPosted(
      channel,
      { eventType: ALERT_EVENT_TYPE, key: 'start-up check', since: now() },
      { wait: false },
    );
    logger.info(
      'alert channel: the bot can read ALERT_CHANNEL, so an alert whose answer is lost is looked for before any second post',
      { channel },
    );
    return 'readable';
  } catch (error) {
    const code = slackErrorCode(error);
    if (code === 'missing_scope') {
      logger.warn(
        'alert channel: the app may not read channel history (scopes channels:history / groups:history are missing); an alert whose answer from Slack is lost may be posted twice. Reinstall the app with the manifest to fix this',
        { channel },
      );
      return 'not_readable';
    }
    if (code === 'not_in_channel' || code === 'channel_not_found') {
      logger.warn(
        'alert channel: ALERT_CHANNEL is private or the bot is not in it: invite the bot there (/invite @bot); until then alerts may not post, and a lost answer may post twice',
        { channel, reason: code },
      );
      return 'not_readable';
    }
    logger.warn(
      'alert channel: could not check that the bot can read ALERT_CHANNEL; it will try again when it needs to',
      { channel, reason: describeSlackError(error) },
    );
    return 'unknown';
  }
}
