// @ts-check
/*
 * Emoji: Slack draws its own emoji images; so do we, for the handful the bot uses (a machine without an
 * emoji font still shows them). The Unicode character is kept as hidden text so copying works. Pure.
 */

/** @type {Record<string, string>} */
const EMOJI_SVG = {
  warning:
    '<path d="M10 1.6c.5 0 .9.3 1.2.7l8.2 14.6c.5.9-.1 2-1.2 2H1.8c-1 0-1.7-1.1-1.2-2L8.8 2.3c.3-.4.7-.7 1.2-.7Z" fill="#FFCC4D"/><path d="M8.9 6.6c0-.6.5-1.1 1.1-1.1s1.1.5 1.1 1.1l-.4 5.6c0 .4-.3.7-.7.7s-.7-.3-.7-.7Z" fill="#231F20"/><circle cx="10" cy="15" r="1.2" fill="#231F20"/>',
  white_check_mark:
    '<rect x="1" y="1" width="18" height="18" rx="3.5" fill="#77B255"/><path d="m5.2 10.3 3.1 3.1 6.5-7" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
  heavy_check_mark:
    '<path d="m3.5 10.5 4.3 4.3 8.7-9.6" fill="none" stroke="#31373D" stroke-width="2.8" stroke-linecap="round" stroke-linejoin="round"/>',
  x: '<path d="m4 4 12 12M16 4 4 16" stroke="#DD2E44" stroke-width="3.4" stroke-linecap="round"/>',
  hourglass:
    '<path d="M4 1.5h12M4 18.5h12" stroke="#8A4B38" stroke-width="2" stroke-linecap="round"/><path d="M5.5 2.5h9c0 4-3.2 5.4-3.2 7.5s3.2 3.5 3.2 7.5h-9c0-4 3.2-5.4 3.2-7.5S5.5 6.5 5.5 2.5Z" fill="#CCD6DD" stroke="#99AAB5" stroke-width=".8"/><path d="M7 4.5h6c-.6 2-2.2 3-3 4.2-.8-1.2-2.4-2.2-3-4.2ZM6.6 16.8c.5-2.4 2.4-3.2 3.4-3.2s2.9.8 3.4 3.2Z" fill="#FFAC33"/>',
  hourglass_flowing_sand:
    '<path d="M4 1.5h12M4 18.5h12" stroke="#8A4B38" stroke-width="2" stroke-linecap="round"/><path d="M5.5 2.5h9c0 4-3.2 5.4-3.2 7.5s3.2 3.5 3.2 7.5h-9c0-4 3.2-5.4 3.2-7.5S5.5 6.5 5.5 2.5Z" fill="#CCD6DD" stroke="#99AAB5" stroke-width=".8"/><path d="M7.6 6h4.8c-.7 1.3-1.8 2-2.4 2.8-.6-.8-1.7-1.5-2.4-2.8ZM6.6 16.8c.5-2 2.4-2.6 3.4-2.6s2.9.6 3.4 2.6Z" fill="#FFAC33"/><path d="M10 9.5v5" stroke="#FFAC33" stroke-width="1"/>',
  rotating_light:
    '<path d="M3 16.5h14v2.5H3z" fill="#66757F"/><path d="M4.5 16.5V11a5.5 5.5 0 0 1 11 0v5.5Z" fill="#DD2E44"/><path d="M7 11.2a3 3 0 0 1 3-3" stroke="#fff" stroke-width="1.6" stroke-linecap="round" fill="none" opacity=".8"/><path d="M10 1v2.5M2.5 4l1.8 1.8M17.5 4l-1.8 1.8" stroke="#FFAC33" stroke-width="1.6" stroke-linecap="round"/>',
  moneybag:
    '<path d="M7 3.5c-.6-1 .2-2.2 1.3-2 .6.1 1 .5 1.7.5s1.1-.4 1.7-.5c1.1-.2 1.9 1 1.3 2L12 5.5H8Z" fill="#FDD888"/><path d="M8 5.5h4c3.8 2.4 6 5.8 5.4 9.2-.4 2.4-2.7 3.8-7.4 3.8s-7-1.4-7.4-3.8C2 11.3 4.2 7.9 8 5.5Z" fill="#FDD888"/><path d="M8 5.5h4" stroke="#BF6952" stroke-width="1.4" stroke-linecap="round"/><text x="10" y="15.6" text-anchor="middle" font-family="Arial, sans-serif" font-weight="700" font-size="8" fill="#67757F">$</text>',
  lock: '<path d="M6 9V6.5a4 4 0 0 1 8 0V9" fill="none" stroke="#AAB8C2" stroke-width="2.2"/><rect x="3" y="8.5" width="14" height="10.5" rx="2" fill="#FFAC33"/><circle cx="10" cy="13" r="1.6" fill="#7A5B00"/><path d="M10 13.5v2.4" stroke="#7A5B00" stroke-width="1.4" stroke-linecap="round"/>',
  key: '<circle cx="6" cy="14" r="4.6" fill="#FFAC33"/><circle cx="6" cy="14" r="1.7" fill="#fff"/><path d="m9.2 10.8 8-8" stroke="#FFAC33" stroke-width="2.6" stroke-linecap="round"/><path d="m14.2 5.8 2.2 2.2M12.2 7.8l1.6 1.6" stroke="#FFAC33" stroke-width="2.2" stroke-linecap="round"/>',
  no_entry:
    '<circle cx="10" cy="10" r="9" fill="#DD2E44"/><rect x="4" y="8.3" width="12" height="3.4" rx="1" fill="#fff"/>',
  no_entry_sign:
    '<circle cx="10" cy="10" r="7.6" fill="none" stroke="#DD2E44" stroke-width="2.6"/><path d="m4.8 4.8 10.4 10.4" stroke="#DD2E44" stroke-width="2.6"/>',
  alarm_clock:
    '<path d="M3 4.5 5.5 2M17 4.5 14.5 2" stroke="#DD2E44" stroke-width="2.2" stroke-linecap="round"/><circle cx="10" cy="11" r="7.5" fill="#DD2E44"/><circle cx="10" cy="11" r="5.6" fill="#fff"/><path d="M10 7.5V11l2.2 1.6" stroke="#31373D" stroke-width="1.5" stroke-linecap="round" fill="none"/>',
  grey_question:
    '<path d="M6.8 6.6a3.3 3.3 0 0 1 6.4 1c0 2.4-3.2 2.6-3.2 5" fill="none" stroke="#CCD6DD" stroke-width="2.6" stroke-linecap="round"/><circle cx="10" cy="16.6" r="1.6" fill="#CCD6DD"/>',
  leftwards_arrow_with_hook:
    '<rect x="1" y="1" width="18" height="18" rx="3.5" fill="#3B88C3"/><path d="M6.5 9.2h6a2.7 2.7 0 0 1 0 5.4H11M8.8 6.6 6.2 9.2l2.6 2.6" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
  ice_cube:
    '<path d="m10 2 7.5 4v8L10 18l-7.5-4V6Z" fill="#BBDDF5"/><path d="m2.5 6 7.5 4 7.5-4M10 10v8" fill="none" stroke="#88C9F9" stroke-width="1.2"/>',
  heavy_minus_sign: '<rect x="3" y="8.4" width="14" height="3.2" rx="1.2" fill="#31373D"/>',
  information_source:
    '<rect x="1" y="1" width="18" height="18" rx="3.5" fill="#3B88C3"/><circle cx="10" cy="5.6" r="1.5" fill="#fff"/><path d="M10 8.8v6.2" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>',
  large_green_circle: '<circle cx="10" cy="10" r="8.5" fill="#78B159"/>',
  red_circle: '<circle cx="10" cy="10" r="8.5" fill="#DD2E44"/>',
  large_yellow_circle: '<circle cx="10" cy="10" r="8.5" fill="#FDCB58"/>',
  arrows_counterclockwise:
    '<rect x="1" y="1" width="18" height="18" rx="3.5" fill="#3B88C3"/><path d="M14.6 8a5 5 0 0 0-9.1-.4M5.4 12a5 5 0 0 0 9.1.4" fill="none" stroke="#fff" stroke-width="1.8" stroke-linecap="round"/><path d="m15 4.6-.2 3.6-3.5-.5M5 15.4l.2-3.6 3.5.5" fill="none" stroke="#fff" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>',
  // The alert lifecycle's words (acknowledged, snoozed, reminders, reposted, no longer followed).
  eyes: '<rect x="1.8" y="3" width="7.6" height="14" rx="3.8" fill="#fff" stroke="#66757F"/><rect x="10.6" y="3" width="7.6" height="14" rx="3.8" fill="#fff" stroke="#66757F"/><circle cx="6.6" cy="11.4" r="2.3" fill="#31373D"/><circle cx="15.4" cy="11.4" r="2.3" fill="#31373D"/>',
  zzz: '<text x="2" y="18" font-family="Arial, sans-serif" font-weight="700" font-size="10" fill="#55ACEE">z</text><text x="8.5" y="12" font-family="Arial, sans-serif" font-weight="700" font-size="8" fill="#55ACEE">z</text><text x="13.5" y="6.5" font-family="Arial, sans-serif" font-weight="700" font-size="6" fill="#55ACEE">z</text>',
  bell: '<path d="M10 2.2c-3.3 0-5.4 2.6-5.4 5.8v3.8l-1.8 2.8h14.4l-1.8-2.8V8c0-3.2-2.1-5.8-5.4-5.8Z" fill="#FFAC33"/><circle cx="10" cy="16.8" r="2" fill="#F4900C"/>',
  recycle:
    '<path d="M10 3.5a6.5 6.5 0 1 1-6.2 4.6" fill="none" stroke="#3E721D" stroke-width="2.4" stroke-linecap="round"/><path d="m2.4 4.4 1.4 3.8 3.8-1.2" fill="none" stroke="#3E721D" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
  repeat:
    '<rect x="1" y="1" width="18" height="18" rx="3.5" fill="#3B88C3"/><path d="M5 9V8a2 2 0 0 1 2-2h7M15 11v1a2 2 0 0 1-2 2H6" fill="none" stroke="#fff" stroke-width="1.8" stroke-linecap="round"/><path d="m12.4 4 2 2-2 2M7.6 12l-2 2 2 2" fill="none" stroke="#fff" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>',
  file_cabinet:
    '<rect x="3.5" y="1.5" width="13" height="17" rx="1.5" fill="#99AAB5"/><path d="M3.5 7.2h13M3.5 12.8h13" stroke="#66757F"/><rect x="8" y="3.6" width="4" height="1.4" rx=".6" fill="#31373D"/><rect x="8" y="9.2" width="4" height="1.4" rx=".6" fill="#31373D"/><rect x="8" y="14.8" width="4" height="1.4" rx=".6" fill="#31373D"/>',
  page_facing_up:
    '<path d="M4 1.5h8.5L16.5 5.5v13h-12.5Z" fill="#E1E8ED" stroke="#99AAB5" stroke-width=".8"/><path d="M12.5 1.5v4h4" fill="#CCD6DD" stroke="#99AAB5" stroke-width=".8"/><path d="M6.5 8.5h7M6.5 11h7M6.5 13.5h7M6.5 16h4.5" stroke="#99AAB5" stroke-width="1.1" stroke-linecap="round"/>',
  tada: '<path d="m2 18 4.5-12 7.5 7.5Z" fill="#FFAC33"/><path d="m6.5 6 7.5 7.5" stroke="#F4900C" stroke-width="1.2"/><circle cx="14.5" cy="3.5" r="1.3" fill="#DD2E44"/><circle cx="17" cy="9" r="1.2" fill="#55ACEE"/><circle cx="11" cy="2.2" r="1" fill="#77B255"/><path d="M12.5 7.5c1.5-2 3.5-2.5 5.5-2" stroke="#AA8DD8" stroke-width="1.4" fill="none" stroke-linecap="round"/>',
};
/** @type {Record<string, string>} */
const EMOJI_CHAR = {
  warning: '⚠️',
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  x: '❌',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  rotating_light: '🚨',
  moneybag: '💰',
  lock: '🔒',
  key: '🔑',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  alarm_clock: '⏰',
  page_facing_up: '📄',
  grey_question: '❔',
  leftwards_arrow_with_hook: '↩️',
  ice_cube: '🧊',
  heavy_minus_sign: '➖',
  information_source: 'ℹ️',
  large_green_circle: '🟢',
  red_circle: '🔴',
  large_yellow_circle: '🟡',
  arrows_counterclockwise: '🔄',
  eyes: '👀',
  zzz: '💤',
  bell: '🔔',
  recycle: '♻️',
  repeat: '🔁',
  file_cabinet: '🗄️',
  tada: '🎉',
};

/**
 * @param {string} name
 * @returns {string | null}
 */
function emojiHtml(name) {
  // Own keys only: `:constructor:` is not an emoji.
  if (!Object.hasOwn(EMOJI_SVG, name) || !Object.hasOwn(EMOJI_CHAR, name)) return null;
  const svg = EMOJI_SVG[name];
  const char = EMOJI_CHAR[name];
  return (
    `<span class="emoji" title=":${name}:">` +
    `<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">${svg}</svg>` +
    `<span class="emoji-char">${char}</span></span>`
  );
}

/**
 * Replaces known :shortcodes: in already-escaped HTML text; unknown ones stay as they are.
 * @param {string} html
 */
export const applyEmoji = (html) => html.replace(/:([a-z0-9_+-]+):/g, (match, name) => emojiHtml(name) ?? match);
