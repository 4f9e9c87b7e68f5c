// @ts-check
/*
 * Text helpers every renderer shares. Pure: no browser API, so Node's unit tests load them too.
 */

/** @type {Record<string, string>} */
const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** @param {unknown} text */
export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** @type {Record<string, string>} */
const SLACK_ENTITIES = { amp: '&', lt: '<', gt: '>' };

/**
 * Slack escapes only these three in message text. One pass, so `&amp;lt;` becomes the text `&lt;`.
 * @param {unknown} text
 */
export const decodeEntities = (text) =>
  String(text).replace(/&(amp|lt|gt);/g, (match, name) => SLACK_ENTITIES[name] ?? match);

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
export const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** @param {number} n */
export const pad2 = (n) => String(n).padStart(2, '0');

/**
 * An http(s) (or mailto) URL the page may link to, or null: never `javascript:` or anything else.
 * @param {unknown} url
 * @param {{ mailto?: boolean }} [options]
 * @returns {string | null}
 */
export function safeUrl(url, { mailto = true } = {}) {
  if (typeof url !== 'string') return null;
  const trimmed = url.trim();
  if (/^https?:\/\/[^\s]+$/i.test(trimmed)) return trimmed;
  if (mailto && /^mailto:[^\s]+$/i.test(trimmed)) return trimmed;
  return null;
}
