/**
 * How alerts reach Slack: through the Slack gateway, never waiting. A poll must not hang on Slack, so an alert
 * Slack did not take (5xx, ratelimited, timeout, ok:false) fails at once and waits in the outbox for the next poll,
 * and a channel inside its Retry-After is not called at all.
 */
import type { SlackGateway, SlackMessageContent } from '../slack/gateway.js';

/** What is posted: the notification text, and blocks unless Slack refused them. */
export type AlertMessage = SlackMessageContent;

/** Where an alert goes besides its channel. */
export interface AlertPostOptions {
  /** A reply in the thread of this message (a summary's full list). */
  threadTs?: string;
}

/** Posts one alert; resolves with the message's ts only once Slack accepted it, throws Slack's error otherwise. */
export interface AlertPoster {
  post(channel: string, message: AlertMessage, options?: AlertPostOptions): Promise<string>;
}

/** The poller's view of the gateway: one attempt per post, link previews off. */
export function createAlertPoster(slack: Pick<SlackGateway, 'post'>): AlertPoster {
  return {
    post(channel, message, options = {}) {
      return slack.post(channel, message, { wait: false, unfurl: false, ...(options.threadTs !== undefined ? { threadTs: options.threadTs } : {}) });
    },
  };
}
