/**
 * How alerts reach Slack: through the Slack gateway, never waiting. A poll must not hang on Slack, so an alert
 * Slack did not take (5xx, ratelimited, timeout, ok:false) fails at once and waits in the outbox for the next poll,
 * and a channel inside its Retry-After is not called at all.
 */
import type { SlackGateway, SlackMessageContent } from '../../../slack/gateway.js';

/** What is posted: the notification text, and blocks unless Slack refused them. */
export type AlertMessage = SlackMessageContent;

import { ALERT_EVENT_TYPE } from '../owned.js';

/** The metadata event type of every message the poller posts (features/alerts/owned.ts); its payload's `key` names the delivery. */
export { ALERT_EVENT_TYPE };

/** Where an alert goes besides its channel, and the key it carries so that a lost answer can be looked up. */
export interface AlertPostOptions {
  /** A reply in the thread of this message (a summary's full list). */
  threadTs?: string;
  /** The delivery's key, stored in the message's metadata (see findPosted). */
  key: string;
}

/** Posts one alert; resolves with the message's ts only once Slack accepted it, throws Slack's error otherwise. */
export interface AlertPoster {
  post(channel: string, message: AlertMessage, options: AlertPostOptions): Promise<string>;
  /**
   * The ts of a message posted since `since` whose metadata carries `key` (in the thread `threadTs` when given),
   * or undefined. Throws Slack's error when the channel cannot be read.
   */
  findPosted(channel: string, query: { key: string; since: Date; threadTs?: string }): Promise<string | undefined>;
}

/** The poller's view of the gateway: one attempt per call, link previews off, every post keyed in its metadata. */
export function createAlertPoster(slack: Pick<SlackGateway, 'post' | 'findPosted'>): AlertPoster {
  return {
    post(channel, message, options) {
      return slack.post(channel, message, {
        wait: false,
        unfurl: false,
        metadata: { event_type: ALERT_EVENT_TYPE, event_payload: { key: options.key } },
        ...(options.threadTs !== undefined ? { threadTs: options.threadTs } : {}),
      });
    },
    findPosted(channel, query) {
      return slack.findPosted(channel, { eventType: ALERT_EVENT_TYPE, ...query }, { wait: false });
    },
  };
}
