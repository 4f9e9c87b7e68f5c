/**
 * Slack mrkdwn helpers. Anything not written by us (what users type, product titles, extraData, addresses,
 * API messages) goes through `escapeText` so `<!channel>` or `<http://evil|click>` shows as text and never
 * becomes a live mention or link.
 */

import { escapeText } from '../kernel/text.js';

/** The one mrkdwn escape (kernel/text.ts), re-exported here beside the other mrkdwn helpers. */
export { escapeText };

/** Inline code of untrusted text (backticks inside would end the span, so they are replaced). */
export function code(text: string): string {
  return `\`${escapeText(text).replace(/`/g, "'")}\``;
}

/** A user mention; only well-formed Slack user ids are turned into one. */
export function mention(userId: string): string {
  return /^[UW][A-Z0-9]+$/.test(userId) ? `<@${userId}>` : escapeText(userId);
}

/** A link with our own label; URLs that could break out of the link syntax are shown as escaped text. */
export function link(url: string, label: string): string {
  if (!/^https?:\/\/[^\s<>|]+$/.test(url)) return escapeText(url);
  // A `&` in the address is escaped too, as in Slack's own messages (`?a=1&amp;b=2`); Slack reads it back.
  return `<${escapeText(url)}|${escapeText(label)}>`;
}

/** Shortens long hashes and addresses in the middle: 0x1234…abcd. */
export function shorten(text: string, keep = 6): string {
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}
