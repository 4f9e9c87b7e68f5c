// @ts-check
/*
 * Times as Slack shows them, in the browser's time zone and locale: HH:MM stamps, day dividers and Slack's
 * date tokens (<!date^1700000000^{date_short} {time}^optional_link|fallback>). Pure (Intl and Date only).
 */
import { pad2 } from './html.js';

/**
 * HH:MM, local time.
 * @param {unknown} ms
 */
export function clock(ms) {
  const d = new Date(/** @type {number} */ (ms));
  return Number.isNaN(d.getTime()) ? '' : `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** @param {Date} d */
function startOfDay(d) {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** @param {number} n */
function ordinal(n) {
  const rem100 = n % 100;
  if (rem100 >= 11 && rem100 <= 13) return `${n}th`;
  return `${n}${/** @type {Record<number, string>} */ ({ 1: 'st', 2: 'nd', 3: 'rd' })[n % 10] ?? 'th'}`;
}

/**
 * A date as the browser's locale writes it; English locales get Slack's ordinal day ("February 18th, 2014").
 * @param {Date} d
 * @param {Intl.DateTimeFormatOptions} options
 */
export function localeDate(d, options) {
  const format = new Intl.DateTimeFormat(undefined, options);
  const english = format.resolvedOptions().locale.toLowerCase().startsWith('en');
  if (!english || options.month !== 'long') return format.format(d);
  return format
    .formatToParts(d)
    .map((part) => (part.type === 'day' ? ordinal(Number(part.value)) : part.value))
    .join('');
}

/**
 * "Yesterday", "Today" or "Tomorrow", or null for any other day.
 * @param {Date} d
 */
export function relativeDay(d) {
  const days = Math.round((startOfDay(d) - startOfDay(new Date())) / 86_400_000);
  if (days < -1 || days > 1) return null;
  const word = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(days, 'day');
  return word.charAt(0).toLocaleUpperCase() + word.slice(1);
}

/** @param {Date} d */
function ago(d) {
  const seconds = Math.round((d.getTime() - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  /** @type {Array<[Intl.RelativeTimeFormatUnit, number]>} */
  const units = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['week', 604_800],
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}

/** @type {Record<string, (d: Date) => string>} */
const DATE_TOKENS = {
  date_num: (d) => `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`,
  date: (d) => localeDate(d, { year: 'numeric', month: 'long', day: 'numeric' }),
  date_short: (d) => localeDate(d, { year: 'numeric', month: 'short', day: 'numeric' }),
  date_long: (d) => localeDate(d, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }),
  date_pretty: (d) => relativeDay(d) ?? localeDate(d, { year: 'numeric', month: 'long', day: 'numeric' }),
  date_short_pretty: (d) => relativeDay(d) ?? localeDate(d, { year: 'numeric', month: 'short', day: 'numeric' }),
  date_long_pretty: (d) =>
    relativeDay(d) ?? localeDate(d, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }),
  time: (d) => d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }),
  time_secs: (d) => d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' }),
  ago: (d) => ago(d),
};

/**
 * The text of a date token, or null when it cannot be read (then Slack shows the fallback).
 * @param {string} epoch
 * @param {string} format
 * @returns {string | null}
 */
export function formatSlackDate(epoch, format) {
  if (!/^-?\d+(\.\d+)?$/.test(epoch)) return null;
  const d = new Date(Number(epoch) * 1000);
  if (Number.isNaN(d.getTime())) return null;
  try {
    return format.replace(/\{([a-z_]+)\}/g, (match, token) =>
      Object.hasOwn(DATE_TOKENS, token) ? /** @type {(d: Date) => string} */ (DATE_TOKENS[token])(d) : match,
    );
  } catch {
    return null;
  }
}
