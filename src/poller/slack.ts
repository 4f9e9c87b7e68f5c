/**
 * How alerts reach Slack: through the Slack gateway, never waiting. A poll must not hang on Slack, so an alert
 * Slack did not take (5xx, ratelimited, timeout, ok:false) fails at once and waits in the outbox for the next poll,
 * and a channel inside its Retry-After is not called at all.
 */
import type { SlackGateway, SlackMessageContent } from '../slack/gateway.js';

/** What is posted: the notification text, and blocks unless Slack refused them. */
export type AlertMessage = SlackMessageContent;

/** Posts one alert; resolves only once Slack accepted it, throws Slack's error otherwise. */
export interface AlertPoster {
  post(channel: string, message: AlertMessage): Promise<void>;
}

/** The poller's view of the gateway: one attempt per post, link previews off. */
export function createAlertPoster(slack: Pick<SlackGateway, 'post'>): AlertPoster {
  return {
    async post(channel, message) {
      await slack.post(channel, message, { wait: false, unfurl: false });
    },
  };
}
