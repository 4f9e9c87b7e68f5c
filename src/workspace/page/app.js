/*
 * The local workspace page: a small Slack-like client for the bot running against local stand-ins.
 * Plain browser JavaScript, no build step, no libraries. It only talks to the workspace server's /api/*.
 *
 * Safety rule: everything shown comes from the API (bot output, what people typed). Text is put into the
 * page with textContent, except mrkdwn, which is turned into HTML by renderMrkdwn(): that function
 * HTML-escapes every piece of text and only ever adds its own tags.
 */
'use strict';

(() => {
  const BOT_NAME = 'Treasury Bot';
  const HINTS_KEY = 'treasury-workspace.hints-dismissed';
  const SESSION_KEY = 'treasury-workspace.view';

  // ---------------------------------------------------------------------------------------------------------
  // Small helpers

  const $ = (id) => document.getElementById(id);

  /** Creates an element: h('div', { class: 'x', dataset: {…}, text: '…' }, ...children). */
  function h(tag, props = {}, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'class') el.className = value;
      else if (key === 'text') el.textContent = value;
      else if (key === 'dataset') Object.assign(el.dataset, value);
      else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
      else el.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

  /** Slack escapes only these three in message text. One pass, so `&amp;lt;` becomes the text `&lt;`. */
  const decodeEntities = (text) => String(text).replace(/&(amp|lt|gt);/g, (_, name) => ({ amp: '&', lt: '<', gt: '>' })[name]);

  /** Turns an HTML string built by this file (escaped text + our own tags) into nodes. */
  function fromHtml(html) {
    const template = document.createElement('template');
    template.innerHTML = html;
    return template.content;
  }

  const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
  const pad2 = (n) => String(n).padStart(2, '0');

  /** HH:MM, local time. */
  function clock(ms) {
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) ? '' : `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
  }

  function safeUrl(url, { mailto = true } = {}) {
    if (typeof url !== 'string') return null;
    const trimmed = url.trim();
    if (/^https?:\/\/[^\s]+$/i.test(trimmed)) return trimmed;
    if (mailto && /^mailto:[^\s]+$/i.test(trimmed)) return trimmed;
    return null;
  }

  function storageGet(storage, key) {
    try {
      return storage.getItem(key);
    } catch {
      return null;
    }
  }

  function storageSet(storage, key, value) {
    try {
      if (value === null) storage.removeItem(key);
      else storage.setItem(key, value);
    } catch {
      /* private mode or disabled storage: nothing to remember */
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Emoji: Slack draws its own emoji images; so do we, for the handful the bot uses (a machine without an
  // emoji font still shows them). The Unicode character is kept as hidden text so copying works.

  const EMOJI_SVG = {
    warning:
      '<path d="M10 1.6c.5 0 .9.3 1.2.7l8.2 14.6c.5.9-.1 2-1.2 2H1.8c-1 0-1.7-1.1-1.2-2L8.8 2.3c.3-.4.7-.7 1.2-.7Z" fill="#FFCC4D"/><path d="M8.9 6.6c0-.6.5-1.1 1.1-1.1s1.1.5 1.1 1.1l-.4 5.6c0 .4-.3.7-.7.7s-.7-.3-.7-.7Z" fill="#231F20"/><circle cx="10" cy="15" r="1.2" fill="#231F20"/>',
    white_check_mark:
      '<rect x="1" y="1" width="18" height="18" rx="3.5" fill="#77B255"/><path d="m5.2 10.3 3.1 3.1 6.5-7" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
    heavy_check_mark: '<path d="m3.5 10.5 4.3 4.3 8.7-9.6" fill="none" stroke="#31373D" stroke-width="2.8" stroke-linecap="round" stroke-linejoin="round"/>',
    x: '<path d="m4 4 12 12M16 4 4 16" stroke="#DD2E44" stroke-width="3.4" stroke-linecap="round"/>',
    hourglass:
      '<path d="M4 1.5h12M4 18.5h12" stroke="#8A4B38" stroke-width="2" stroke-linecap="round"/><path d="M5.5 2.5h9c0 4-3.2 5.4-3.2 7.5s3.2 3.5 3.2 7.5h-9c0-4 3.2-5.4 3.2-7.5S5.5 6.5 5.5 2.5Z" fill="#CCD6DD" stroke="#99AAB5" stroke-width=".8"/><path d="M7 4.5h6c-.6 2-2.2 3-3 4.2-.8-1.2-2.4-2.2-3-4.2ZM6.6 16.8c.5-2.4 2.4-3.2 3.4-3.2s2.9.8 3.4 3.2Z" fill="#FFAC33"/>',
    hourglass_flowing_sand:
      '<path d="M4 1.5h12M4 18.5h12" stroke="#8A4B38" stroke-width="2" stroke-linecap="round"/><path d="M5.5 2.5h9c0 4-3.2 5.4-3.2 7.5s3.2 3.5 3.2 7.5h-9c0-4 3.2-5.4 3.2-7.5S5.5 6.5 5.5 2.5Z" fill="#CCD6DD" stroke="#99AAB5" stroke-width=".8"/><path d="M7.6 6h4.8c-.7 1.3-1.8 2-2.4 2.8-.6-.8-1.7-1.5-2.4-2.8ZM6.6 16.8c.5-2 2.4-2.6 3.4-2.6s2.9.6 3.4 2.6Z" fill="#FFAC33"/><path d="M10 9.5v5" stroke="#FFAC33" stroke-width="1"/>',
    rotating_light:
      '<path d="M3 16.5h14v2.5H3z" fill="#66757F"/><path d="M4.5 16.5V11a5.5 5.5 0 0 1 11 0v5.5Z" fill="#DD2E44"/><path d="M7 11.2a3 3 0 0 1 3-3" stroke="#fff" stroke-width="1.6" stroke-linecap="round" fill="none" opacity=".8"/><path d="M10 1v2.5M2.5 4l1.8 1.8M17.5 4l-1.8 1.8" stroke="#FFAC33" stroke-width="1.6" stroke-linecap="round"/>',
    moneybag:
      '<path d="M7 3.5c-.6-1 .2-2.2 1.3-2 .6.1 1 .5 1.7.5s1.1-.4 1.7-.5c1.1-.2 1.9 1 1.3 2L12 5.5H8Z" fill="#FDD888"/><path d="M8 5.5h4c3.8 2.4 6 5.8 5.4 9.2-.4 2.4-2.7 3.8-7.4 3.8s-7-1.4-7.4-3.8C2 11.3 4.2 7.9 8 5.5Z" fill="#FDD888"/><path d="M8 5.5h4" stroke="#BF6952" stroke-width="1.4" stroke-linecap="round"/><text x="10" y="15.6" text-anchor="middle" font-family="Arial, sans-serif" font-weight="700" font-size="8" fill="#67757F">$</text>',
    lock:
      '<path d="M6 9V6.5a4 4 0 0 1 8 0V9" fill="none" stroke="#AAB8C2" stroke-width="2.2"/><rect x="3" y="8.5" width="14" height="10.5" rx="2" fill="#FFAC33"/><circle cx="10" cy="13" r="1.6" fill="#7A5B00"/><path d="M10 13.5v2.4" stroke="#7A5B00" stroke-width="1.4" stroke-linecap="round"/>',
    no_entry: '<circle cx="10" cy="10" r="9" fill="#DD2E44"/><rect x="4" y="8.3" width="12" height="3.4" rx="1" fill="#fff"/>',
    no_entry_sign: '<circle cx="10" cy="10" r="7.6" fill="none" stroke="#DD2E44" stroke-width="2.6"/><path d="m4.8 4.8 10.4 10.4" stroke="#DD2E44" stroke-width="2.6"/>',
    alarm_clock:
      '<path d="M3 4.5 5.5 2M17 4.5 14.5 2" stroke="#DD2E44" stroke-width="2.2" stroke-linecap="round"/><circle cx="10" cy="11" r="7.5" fill="#DD2E44"/><circle cx="10" cy="11" r="5.6" fill="#fff"/><path d="M10 7.5V11l2.2 1.6" stroke="#31373D" stroke-width="1.5" stroke-linecap="round" fill="none"/>',
    grey_question:
      '<path d="M6.8 6.6a3.3 3.3 0 0 1 6.4 1c0 2.4-3.2 2.6-3.2 5" fill="none" stroke="#CCD6DD" stroke-width="2.6" stroke-linecap="round"/><circle cx="10" cy="16.6" r="1.6" fill="#CCD6DD"/>',
    leftwards_arrow_with_hook:
      '<rect x="1" y="1" width="18" height="18" rx="3.5" fill="#3B88C3"/><path d="M6.5 9.2h6a2.7 2.7 0 0 1 0 5.4H11M8.8 6.6 6.2 9.2l2.6 2.6" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
    ice_cube: '<path d="m10 2 7.5 4v8L10 18l-7.5-4V6Z" fill="#BBDDF5"/><path d="m2.5 6 7.5 4 7.5-4M10 10v8" fill="none" stroke="#88C9F9" stroke-width="1.2"/>',
    heavy_minus_sign: '<rect x="3" y="8.4" width="14" height="3.2" rx="1.2" fill="#31373D"/>',
    information_source: '<rect x="1" y="1" width="18" height="18" rx="3.5" fill="#3B88C3"/><circle cx="10" cy="5.6" r="1.5" fill="#fff"/><path d="M10 8.8v6.2" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>',
    large_green_circle: '<circle cx="10" cy="10" r="8.5" fill="#78B159"/>',
    red_circle: '<circle cx="10" cy="10" r="8.5" fill="#DD2E44"/>',
    large_yellow_circle: '<circle cx="10" cy="10" r="8.5" fill="#FDCB58"/>',
    arrows_counterclockwise:
      '<rect x="1" y="1" width="18" height="18" rx="3.5" fill="#3B88C3"/><path d="M14.6 8a5 5 0 0 0-9.1-.4M5.4 12a5 5 0 0 0 9.1.4" fill="none" stroke="#fff" stroke-width="1.8" stroke-linecap="round"/><path d="m15 4.6-.2 3.6-3.5-.5M5 15.4l.2-3.6 3.5.5" fill="none" stroke="#fff" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>',
    tada: '<path d="m2 18 4.5-12 7.5 7.5Z" fill="#FFAC33"/><path d="m6.5 6 7.5 7.5" stroke="#F4900C" stroke-width="1.2"/><circle cx="14.5" cy="3.5" r="1.3" fill="#DD2E44"/><circle cx="17" cy="9" r="1.2" fill="#55ACEE"/><circle cx="11" cy="2.2" r="1" fill="#77B255"/><path d="M12.5 7.5c1.5-2 3.5-2.5 5.5-2" stroke="#AA8DD8" stroke-width="1.4" fill="none" stroke-linecap="round"/>',
  };
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
    no_entry: '⛔',
    no_entry_sign: '🚫',
    alarm_clock: '⏰',
    grey_question: '❔',
    leftwards_arrow_with_hook: '↩️',
    ice_cube: '🧊',
    heavy_minus_sign: '➖',
    information_source: 'ℹ️',
    large_green_circle: '🟢',
    red_circle: '🔴',
    large_yellow_circle: '🟡',
    arrows_counterclockwise: '🔄',
    tada: '🎉',
  };

  function emojiHtml(name) {
    const svg = EMOJI_SVG[name];
    const char = EMOJI_CHAR[name];
    if (!svg || !char) return null;
    return (
      `<span class="emoji" title=":${name}:">` +
      `<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">${svg}</svg>` +
      `<span class="emoji-char">${char}</span></span>`
    );
  }

  /** Replaces known :shortcodes: in already-escaped HTML text; unknown ones stay as they are. */
  const applyEmoji = (html) => html.replace(/:([a-z0-9_+-]+):/g, (match, name) => emojiHtml(name) ?? match);

  // ---------------------------------------------------------------------------------------------------------
  // Slack's date tokens: <!date^1700000000^{date_short} {time}^optional_link|fallback>

  function startOfDay(d) {
    return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  }

  function ordinal(n) {
    const rem100 = n % 100;
    if (rem100 >= 11 && rem100 <= 13) return `${n}th`;
    return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' })[n % 10] ?? 'th'}`;
  }

  /** A date as the browser's locale writes it; English locales get Slack's ordinal day ("February 18th, 2014"). */
  function localeDate(d, options) {
    const format = new Intl.DateTimeFormat(undefined, options);
    const english = format.resolvedOptions().locale.toLowerCase().startsWith('en');
    if (!english || options.month !== 'long') return format.format(d);
    return format
      .formatToParts(d)
      .map((part) => (part.type === 'day' ? ordinal(Number(part.value)) : part.value))
      .join('');
  }

  function relativeDay(d) {
    const days = Math.round((startOfDay(d) - startOfDay(new Date())) / 86_400_000);
    if (days < -1 || days > 1) return null;
    const word = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(days, 'day');
    return word.charAt(0).toLocaleUpperCase() + word.slice(1);
  }

  function ago(d) {
    const seconds = Math.round((d.getTime() - Date.now()) / 1000);
    const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
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

  const DATE_TOKENS = {
    date_num: (d) => `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`,
    date: (d) => localeDate(d, { year: 'numeric', month: 'long', day: 'numeric' }),
    date_short: (d) => localeDate(d, { year: 'numeric', month: 'short', day: 'numeric' }),
    date_long: (d) => localeDate(d, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }),
    date_pretty: (d) => relativeDay(d) ?? DATE_TOKENS.date(d),
    date_short_pretty: (d) => relativeDay(d) ?? DATE_TOKENS.date_short(d),
    date_long_pretty: (d) => relativeDay(d) ?? DATE_TOKENS.date_long(d),
    time: (d) => d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }),
    time_secs: (d) => d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' }),
    ago: (d) => ago(d),
  };

  /** The text of a date token, or null when it cannot be read (then Slack shows the fallback). */
  function formatSlackDate(epoch, format) {
    if (!/^-?\d+(\.\d+)?$/.test(epoch)) return null;
    const d = new Date(Number(epoch) * 1000);
    if (Number.isNaN(d.getTime())) return null;
    try {
      return format.replace(/\{([a-z_]+)\}/g, (match, token) => (DATE_TOKENS[token] ? DATE_TOKENS[token](d) : match));
    } catch {
      return null;
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // mrkdwn → HTML. Steps: 1. Slack's <…> tokens become placeholders (so formatting can wrap them);
  // 2. bare URLs become link placeholders; 3. entities are decoded; 4. ```code blocks```, quotes and lines;
  // 5. per line: `code`, then escaped text gets *bold* _italic_ ~strike~ and emoji; placeholders go back in.

  const PH_OPEN = '\uE000';
  const PH_CLOSE = '\uE001';
  const PLACEHOLDER = /\uE000(\d+)\uE001/g;

  function mentionChip(label, kind, title) {
    return `<span class="mention mention-${kind}"${title ? ` title="${escapeHtml(title)}"` : ''}>${escapeHtml(label)}</span>`;
  }

  function linkHtml(href, label) {
    return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${escapeHtml(label)}</a>`;
  }

  /** One <…> token (its inside, still escaped as Slack sends it) → { html, text }. */
  function readToken(inner) {
    const bar = inner.indexOf('|');
    const target = bar >= 0 ? inner.slice(0, bar) : inner;
    const label = bar >= 0 ? decodeEntities(inner.slice(bar + 1)) : '';
    const plain = (text) => ({ html: escapeHtml(text), text });

    if (target.startsWith('@')) {
      const id = target.slice(1);
      const user = state.usersById.get(id);
      const name = `@${user ? user.name : label ? label.replace(/^@/, '') : id}`;
      const kind = id === state.user ? 'me' : 'user';
      return { html: mentionChip(name, kind, user ? `${user.name} — ${user.title ?? ''}` : id), text: name };
    }
    if (target.startsWith('#')) {
      const id = target.slice(1);
      const name = `#${label || state.channelsById.get(id)?.name || id}`;
      return { html: mentionChip(name, 'channel'), text: name };
    }
    if (target.startsWith('!')) {
      const command = target.slice(1);
      if (command === 'here' || command === 'channel' || command === 'everyone') {
        return { html: mentionChip(`@${command}`, 'broadcast'), text: `@${command}` };
      }
      if (command.startsWith('subteam^')) {
        const name = label || `@${command.slice('subteam^'.length)}`;
        return { html: mentionChip(name, 'user'), text: name };
      }
      if (command.startsWith('date^')) {
        const [epoch = '', format = '', link = ''] = command.slice('date^'.length).split('^');
        const shown = formatSlackDate(epoch, decodeEntities(format));
        if (shown === null) return plain(label);
        const exact = /^-?\d+/.test(epoch) ? new Date(Number(epoch) * 1000).toString() : '';
        const href = safeUrl(decodeEntities(link), { mailto: false });
        if (href) return { html: linkHtml(href, shown), text: shown };
        return { html: `<span class="date" title="${escapeHtml(exact)}">${escapeHtml(shown)}</span>`, text: shown };
      }
      return plain(label || `<${decodeEntities(inner)}>`);
    }
    const url = decodeEntities(target);
    const href = safeUrl(url);
    if (href) {
      const shown = label || (href.toLowerCase().startsWith('mailto:') ? href.slice('mailto:'.length) : href);
      return { html: linkHtml(href, shown), text: shown };
    }
    // Not a token Slack knows (or a scheme we refuse, such as javascript:): show it as text, never as a link.
    return plain(label || `<${decodeEntities(inner)}>`);
  }

  /** Wraps delimited runs in a tag, by Slack's rules: the delimiters sit at word edges, not around spaces. */
  function applyDelimiter(html, delimiter, tag) {
    const d = delimiter === '*' ? '\\*' : delimiter;
    const re = new RegExp(`(^|[^\\p{L}\\p{N}_${d}])${d}([^\\s${d}](?:[^${d}]*?[^\\s${d}])?)${d}(?![\\p{L}\\p{N}_${d}])`, 'gu');
    return html.replace(re, (_, before, inside) => `${before}<${tag}>${inside}</${tag}>`);
  }

  function renderMrkdwn(source) {
    const tokens = [];
    const hold = (token) => {
      tokens.push(token);
      return `${PH_OPEN}${tokens.length - 1}${PH_CLOSE}`;
    };
    // Private-use characters in the input could forge placeholders: replace them first.
    let text = String(source).replace(/[\uE000\uE001]/g, '\uFFFD');
    text = text.replace(/<([^<>\n]+)>/g, (_, inner) => hold(readToken(inner)));
    // Bare links (Slack links them too), minus trailing punctuation.
    text = text.replace(/\bhttps?:\/\/[^\s<>\uE000\uE001]+/g, (match) => {
      let url = match;
      // Trailing punctuation ends the sentence, not the link; a ")" stays when it closes a "(" of the link.
      for (;;) {
        const last = url.slice(-1);
        if (/[.,;:!?\]*_~'"]/.test(last)) url = url.slice(0, -1);
        else if (last === ')' && url.split('(').length <= url.split(')').length - 1) url = url.slice(0, -1);
        else break;
      }
      const href = safeUrl(decodeEntities(url), { mailto: false });
      if (!href || url.length < 'https://x'.length) return match;
      return hold({ html: linkHtml(href, decodeEntities(url)), text: decodeEntities(url) }) + match.slice(url.length);
    });
    text = decodeEntities(text);

    const tokenHtml = (html) => html.replace(PLACEHOLDER, (_, i) => tokens[Number(i)]?.html ?? '');
    const tokenText = (raw) => raw.replace(PLACEHOLDER, (_, i) => tokens[Number(i)]?.text ?? '');
    const codeHtml = (raw) => escapeHtml(tokenText(raw));

    const formatText = (raw) => {
      let html = escapeHtml(raw);
      html = applyDelimiter(html, '*', 'b');
      html = applyDelimiter(html, '_', 'i');
      html = applyDelimiter(html, '~', 's');
      html = applyEmoji(html);
      return tokenHtml(html);
    };

    const inline = (line) => {
      let html = '';
      let last = 0;
      for (const match of line.matchAll(/`([^`]+)`/g)) {
        html += formatText(line.slice(last, match.index));
        html += `<code>${codeHtml(match[1])}</code>`;
        last = match.index + match[0].length;
      }
      return html + formatText(line.slice(last));
    };

    const renderLines = (part) => {
      const groups = [];
      const lines = part.split('\n');
      for (let i = 0; i < lines.length; i += 1) {
        const line = lines[i];
        if (line.startsWith('>>>')) {
          groups.push({ quote: true, lines: [line.slice(3).replace(/^ /, ''), ...lines.slice(i + 1)] });
          break;
        }
        if (line.startsWith('>')) {
          const content = line.slice(1).replace(/^ /, '');
          const previous = groups[groups.length - 1];
          if (previous?.quote) previous.lines.push(content);
          else groups.push({ quote: true, lines: [content] });
          continue;
        }
        const previous = groups[groups.length - 1];
        if (previous && !previous.quote) previous.lines.push(line);
        else groups.push({ quote: false, lines: [line] });
      }
      return groups
        .map((group) => {
          const html = group.lines.map(inline).join('<br>');
          return group.quote ? `<blockquote>${html}</blockquote>` : html;
        })
        .join('');
    };

    const parts = text.split('```');
    if (parts.length % 2 === 0) {
      // An unclosed ``` is just text.
      const tail = parts.pop();
      parts[parts.length - 1] += '```' + tail;
    }
    let html = '';
    parts.forEach((part, index) => {
      if (index % 2 === 1) {
        html += `<pre class="mk-pre">${codeHtml(part.replace(/^\n/, '').replace(/\n$/, ''))}</pre>`;
        return;
      }
      let plain = part;
      if (index > 0) plain = plain.replace(/^\n/, '');
      if (index < parts.length - 1) plain = plain.replace(/\n$/, '');
      if (plain !== '' || parts.length === 1) html += renderLines(plain);
    });
    return html;
  }

  function mrkdwnNode(source, className = 'mk') {
    const el = h('div', { class: className });
    el.append(fromHtml(renderMrkdwn(source)));
    return el;
  }

  /** plain_text: shown as written (no entities, no formatting), with emoji shortcodes unless emoji is false. */
  function plainHtml(text, emoji = true) {
    const html = escapeHtml(text).replace(/\n/g, '<br>');
    return emoji ? applyEmoji(html) : html;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Block Kit

  class BlockError extends Error {}

  function requireText(obj, where) {
    if (!isObject(obj) || typeof obj.text !== 'string') throw new BlockError(`${where} is not a text object`);
    if (obj.type !== 'mrkdwn' && obj.type !== 'plain_text') throw new BlockError(`${where} has text type ${JSON.stringify(obj.type)}`);
    return obj;
  }

  function textNode(obj, where, className) {
    const t = requireText(obj, where);
    if (t.type === 'mrkdwn') return mrkdwnNode(t.text, `mk ${className}`);
    const el = h('div', { class: `plain ${className}` });
    el.append(fromHtml(plainHtml(t.text, t.emoji !== false)));
    return el;
  }

  function plainLabel(obj, where) {
    const t = requireText(obj, where);
    return t.text;
  }

  function jsonOf(value) {
    try {
      return JSON.stringify(value, null, 2);
    } catch {
      return String(value);
    }
  }

  /** "Block not shown in this workspace: <type>", with the JSON: nothing the bot sends is ever dropped. */
  function rawBox(value, problem) {
    const type = isObject(value) && typeof value.type === 'string' ? value.type : Array.isArray(value) ? 'array' : typeof value;
    return h(
      'div',
      { class: 'bk-raw', 'data-testid': 'raw-block' },
      h('div', { class: 'bk-raw-title' }, 'Block not shown in this workspace: ', h('code', { text: type })),
      problem ? h('div', { class: 'bk-raw-problem', text: `It could not be read: ${problem}` }) : null,
      h('pre', { text: jsonOf(value) }),
    );
  }

  function imageNode(element, className) {
    const src = safeUrl(element.image_url, { mailto: false });
    if (!src) throw new BlockError('image without an http(s) image_url');
    const img = h('img', {
      class: className,
      src,
      alt: typeof element.alt_text === 'string' ? element.alt_text : '',
      title: typeof element.alt_text === 'string' ? element.alt_text : undefined,
      loading: 'lazy',
      referrerpolicy: 'no-referrer',
    });
    img.addEventListener('load', keepBottom);
    return img;
  }

  const actionKey = (entryId, blockId, actionId) => `${entryId}\u0000${blockId ?? ''}\u0000${actionId ?? ''}`;

  function buttonNode(element, entry, block) {
    const label = plainLabel(element.text, 'button text');
    const style = element.style === 'primary' ? ' bk-btn-primary' : element.style === 'danger' ? ' bk-btn-danger' : '';
    const url = element.url === undefined ? null : safeUrl(element.url, { mailto: false });
    if (element.url !== undefined && !url) throw new BlockError('button url is not http(s)');
    const key = actionKey(entry.id, block.block_id, element.action_id);
    const button = h('button', {
      type: 'button',
      class: `bk-btn${style}`,
      'data-testid': 'bk-button',
      'data-action-id': typeof element.action_id === 'string' ? element.action_id : undefined,
      'data-action-key': key,
      title: url ? `Opens ${url}` : undefined,
      'aria-label': label,
    });
    button.append(fromHtml(plainHtml(label, element.text.emoji !== false)));
    if (url) button.append(h('span', { class: 'bk-btn-ext', 'aria-hidden': 'true', text: ' ↗' }));
    if (state.pendingActions.has(key)) button.disabled = true;
    button.addEventListener('click', () => onButton(button, element, entry, block, url, label));
    return button;
  }

  function elementNode(element, entry, block, where) {
    if (!isObject(element)) return rawBox(element, `${where} is not an object`);
    try {
      if (where === 'accessory' || where === 'actions') {
        if (element.type === 'button') return buttonNode(element, entry, block);
        if (element.type === 'image' && where === 'accessory') return imageNode(element, 'bk-accessory-image');
      }
      if (where === 'context') {
        if (element.type === 'mrkdwn' || element.type === 'plain_text') return textNode(element, 'context element', 'bk-context-text');
        if (element.type === 'image') return imageNode(element, 'bk-context-image');
      }
      return rawBox(element);
    } catch (error) {
      return rawBox(element, error instanceof Error ? error.message : String(error));
    }
  }

  const BLOCKS = {
    header(block) {
      const el = h('div', { class: 'bk-header' });
      el.append(fromHtml(plainHtml(plainLabel(block.text, 'header text'), block.text.emoji !== false)));
      return el;
    },
    section(block, entry) {
      const main = h('div', { class: 'bk-section-main' });
      if (block.text !== undefined) main.append(textNode(block.text, 'section text', 'bk-section-text'));
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields)) throw new BlockError('section fields is not a list');
        main.append(h('div', { class: 'bk-fields' }, block.fields.map((field, i) => textNode(field, `field ${i + 1}`, 'bk-field'))));
      }
      if (block.text === undefined && block.fields === undefined) throw new BlockError('section without text or fields');
      const el = h('div', { class: 'bk-section' }, main);
      if (block.accessory !== undefined) el.append(h('div', { class: 'bk-accessory' }, elementNode(block.accessory, entry, block, 'accessory')));
      return el;
    },
    context(block, entry) {
      if (!Array.isArray(block.elements)) throw new BlockError('context without elements');
      return h('div', { class: 'bk-context' }, block.elements.map((element) => elementNode(element, entry, block, 'context')));
    },
    divider() {
      return h('hr', { class: 'bk-divider' });
    },
    actions(block, entry) {
      if (!Array.isArray(block.elements)) throw new BlockError('actions without elements');
      return h('div', { class: 'bk-actions' }, block.elements.map((element) => elementNode(element, entry, block, 'actions')));
    },
    image(block) {
      const figure = h('figure', { class: 'bk-image' });
      if (block.title !== undefined) figure.append(h('figcaption', { class: 'bk-image-title', text: plainLabel(block.title, 'image title') }));
      figure.append(imageNode(block, 'bk-image-img'));
      return figure;
    },
  };

  function blockNode(block, entry) {
    if (!isObject(block) || typeof block.type !== 'string' || !Object.hasOwn(BLOCKS, block.type)) return rawBox(block);
    try {
      const el = BLOCKS[block.type](block, entry);
      el.classList.add('bk');
      el.dataset.blockType = block.type;
      return el;
    } catch (error) {
      return rawBox(block, error instanceof Error ? error.message : String(error));
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // API

  async function getJson(path) {
    const response = await fetch(path, { headers: { accept: 'application/json' }, cache: 'no-store' });
    if (!response.ok) throw new Error(`the server answered HTTP ${response.status}`);
    return response.json();
  }

  /** POSTs JSON; always resolves to an object with `ok` (and `error` or `message` when the server says why). */
  async function postJson(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      return { ok: false, error: 'Could not reach the workspace server. Is it still running?' };
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      /* not JSON */
    }
    if (isObject(data) && typeof data.ok === 'boolean') return data;
    if (response.ok) return { ok: true };
    return { ok: false, error: `The workspace server answered HTTP ${response.status}.` };
  }

  const errorText = (result, fallback) =>
    (typeof result.error === 'string' && result.error) || (typeof result.message === 'string' && result.message) || fallback;

  // ---------------------------------------------------------------------------------------------------------
  // State

  const state = {
    ws: null,
    usersById: new Map(),
    channelsById: new Map(),
    user: null,
    channel: null,
    entries: [],
    version: null,
    /** The user the entries were fetched for (null until the first timeline). */
    loadedFor: null,
    seen: new Set(),
    unread: new Set(),
    expandedThreads: new Set(),
    pendingActions: new Set(),
    stickToBottom: true,
    /** The top-level entries of the last render, to tell when new ones arrive. */
    renderedTop: { key: '', ids: null },
    history: [],
    historyIndex: -1,
    sending: false,
  };

  const els = {};

  // ---------------------------------------------------------------------------------------------------------
  // Rendering: sidebar and header

  /** The conversations the current person is in: every public channel, and the private ones and DMs they belong to. */
  function visibleChannels() {
    return state.ws.channels.filter((channel) => !Array.isArray(channel.members) || channel.members.includes(state.user));
  }

  const isDm = (channel) => channel?.kind === 'im';

  const LOCK_SVG =
    '<svg viewBox="0 0 16 16" width="11" height="11" aria-hidden="true"><rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor"/><path d="M5.2 7V5a2.8 2.8 0 0 1 5.6 0v2" fill="none" stroke="currentColor" stroke-width="1.6"/></svg>';

  /** What stands before a conversation's name in text: `#` for a public channel, nothing for a private one or a DM. */
  function channelSigil(channel) {
    return channel?.kind === 'private' || isDm(channel) ? '' : '#';
  }

  /** The same as shown: `#`, a lock for a private channel, nothing for a DM. */
  function sigilNode(channel) {
    return channel?.kind === 'private' ? fromHtml(LOCK_SVG) : channelSigil(channel);
  }

  function channelButton(channel) {
    const active = channel.id === state.channel;
    const unread = !active && state.unread.has(channel.id);
    const dm = isDm(channel);
    const button = h(
      'button',
      {
        type: 'button',
        class: `channel${active ? ' active' : ''}${unread ? ' unread' : ''}`,
        'data-testid': `${dm ? 'dm' : 'channel'}-${channel.name}`,
        'data-channel-id': channel.id,
        'data-kind': channel.kind ?? 'public',
        'aria-current': active ? 'page' : undefined,
        title: channel.kind === 'private' ? 'Private channel' : dm ? 'Direct message with the bot' : undefined,
        onclick: () => switchChannel(channel.id),
      },
      dm
        ? h('span', { class: 'channel-hash dm-avatar', 'aria-hidden': 'true', text: 'T' })
        : h('span', { class: 'channel-hash', 'aria-hidden': 'true' }, sigilNode(channel)),
      h('span', { class: 'channel-label', text: channel.name }),
      dm ? h('span', { class: 'dm-app', text: 'app' }) : null,
      unread ? h('span', { class: 'unread-dot', 'data-testid': 'unread-dot', title: 'New messages', 'aria-label': 'new messages' }) : null,
    );
    return h('li', {}, button);
  }

  function renderChannels() {
    const visible = visibleChannels();
    els.channelList.replaceChildren(...visible.filter((channel) => !isDm(channel)).map(channelButton));
    els.dmList.replaceChildren(...visible.filter(isDm).map(channelButton));
  }

  function renderUser() {
    const user = state.usersById.get(state.user);
    els.userSwitcher.value = state.user;
    els.userTitle.textContent = user ? (user.title ? `${user.name} · ${user.title}` : user.name) : '';
    els.userSwitcher.title = els.userTitle.textContent;
  }

  function renderHeader() {
    const channel = state.channelsById.get(state.channel);
    const name = channel?.name ?? state.channel ?? '';
    const shown = `${channelSigil(channel)}${name}`;
    els.channelHash.replaceChildren(sigilNode(channel));
    els.channelNameText.textContent = name;
    els.channelTopic.textContent = channel?.topic ?? '';
    els.channelTopic.title = channel?.topic ?? '';
    els.composer.placeholder = `Message ${shown} — try /treasury help`;
    const team = state.ws?.team?.name ?? 'Workspace';
    document.title = `${shown} — ${team}`;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Rendering: timeline

  const AVATAR_COLORS = ['#2BAC76', '#E8912D', '#1264A3', '#CD2553', '#4A154B', '#0B7C86', '#9E3997', '#5D7A0F'];

  function colorFor(id) {
    let hash = 0;
    for (const c of String(id)) hash = (hash * 31 + c.codePointAt(0)) >>> 0;
    return AVATAR_COLORS[hash % AVATAR_COLORS.length];
  }

  function authorOf(entry) {
    if (entry.author === 'bot') return { name: BOT_NAME, initial: 'T', color: '#0B5C69', bot: true };
    if (entry.author === 'system') return { name: 'Workspace', initial: 'W', color: '#868686', system: true };
    const user = state.usersById.get(entry.userId);
    const name = user?.name ?? entry.userId ?? 'Someone';
    return { name, initial: [...name.trim()][0]?.toUpperCase() ?? '?', color: colorFor(entry.userId ?? name), title: user?.title };
  }

  const EYE_SVG =
    '<svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true"><path d="M10 4.5c-4.2 0-7.2 3.3-8.2 5.5 1 2.2 4 5.5 8.2 5.5s7.2-3.3 8.2-5.5c-1-2.2-4-5.5-8.2-5.5Z" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="10" cy="10" r="2.6" fill="currentColor"/></svg>';

  function bodyNode(entry) {
    const body = h('div', { class: 'msg-body', 'data-testid': 'message-body' });
    const blocks = entry.blocks;
    if (Array.isArray(blocks) && blocks.length > 0) {
      for (const block of blocks) body.append(blockNode(block, entry));
    } else if (blocks !== undefined && blocks !== null && !Array.isArray(blocks)) {
      body.append(rawBox(blocks, 'blocks is not a list'));
    } else if (typeof entry.text === 'string' && entry.text !== '') {
      if (entry.author === 'user') {
        // What a person typed is shown as typed.
        body.append(h('div', { class: 'typed', text: entry.text }));
      } else {
        body.append(mrkdwnNode(entry.text));
      }
    } else {
      body.append(h('div', { class: 'msg-empty', text: '(no text)' }));
    }
    return body;
  }

  function messageNode(entry, { reply = false, orphanReply = false } = {}) {
    const author = authorOf(entry);
    const classes = ['msg'];
    if (entry.ephemeral) classes.push('ephemeral');
    if (author.system) classes.push('system');
    if (reply) classes.push('reply');
    const when = new Date(entry.at);
    const msg = h('div', {
      class: classes.join(' '),
      'data-testid': 'message',
      'data-entry-id': entry.id,
      'data-ephemeral': entry.ephemeral ? 'true' : 'false',
      'data-author': entry.author,
    });
    if (entry.ephemeral) {
      const note = h('div', { class: 'ephemeral-note', 'data-testid': 'ephemeral-note' });
      note.append(fromHtml(EYE_SVG), document.createTextNode('Only visible to you'));
      msg.append(note);
    }
    const head = h(
      'div',
      { class: 'msg-head' },
      h('span', { class: 'msg-author', 'data-testid': 'message-author', text: author.name, title: author.title }),
      author.bot ? h('span', { class: 'app-badge', 'data-testid': 'app-badge', text: 'APP' }) : null,
      h('time', {
        class: 'msg-time',
        'data-testid': 'message-time',
        datetime: Number.isNaN(when.getTime()) ? undefined : when.toISOString(),
        title: Number.isNaN(when.getTime()) ? undefined : when.toLocaleString(),
        text: clock(entry.at),
      }),
      entry.edited ? h('span', { class: 'msg-edited', 'data-testid': 'message-edited', text: '(edited)' }) : null,
      reply || orphanReply ? h('span', { class: 'thread-marker', 'data-testid': 'thread-marker', text: orphanReply ? 'replied in a thread' : 'in thread' }) : null,
    );
    msg.append(
      h(
        'div',
        { class: 'msg-row' },
        h('div', { class: 'avatar', style: `background:${author.color}`, 'aria-hidden': 'true', text: author.initial }),
        h('div', { class: 'msg-main' }, head, bodyNode(entry)),
      ),
    );
    return msg;
  }

  function threadNode(parent, replies) {
    const key = `${parent.channel}\u0000${parent.ts}`;
    const expanded = state.expandedThreads.has(key);
    const count = replies.length;
    const last = replies[replies.length - 1];
    const faces = [];
    const seenAuthors = new Set();
    for (const reply of replies) {
      const author = authorOf(reply);
      if (seenAuthors.has(author.name) || faces.length >= 3) continue;
      seenAuthors.add(author.name);
      faces.push(h('span', { class: 'mini-avatar', style: `background:${author.color}`, 'aria-hidden': 'true', text: author.initial }));
    }
    const toggle = h(
      'button',
      {
        type: 'button',
        class: 'thread-toggle',
        'data-testid': 'thread-toggle',
        'aria-expanded': expanded ? 'true' : 'false',
        onclick: () => {
          if (state.expandedThreads.has(key)) state.expandedThreads.delete(key);
          else state.expandedThreads.add(key);
          renderTimeline({ keepScroll: true });
        },
      },
      h('span', { class: 'mini-avatars' }, faces),
      h('span', { class: 'thread-count', text: expanded ? 'Hide replies' : `${count} ${count === 1 ? 'reply' : 'replies'}` }),
      h('span', { class: 'thread-last', text: expanded ? `${count} ${count === 1 ? 'reply' : 'replies'}` : `Last reply ${clock(last.at)}` }),
    );
    const thread = h('div', { class: 'thread', 'data-testid': 'thread' }, toggle);
    if (expanded) {
      thread.append(h('div', { class: 'thread-replies', 'data-testid': 'thread-replies' }, replies.map((reply) => messageNode(reply, { reply: true }))));
    }
    return thread;
  }

  function dayLabel(ms) {
    const d = new Date(ms);
    return relativeDay(d) ?? localeDate(d, { weekday: 'long', month: 'long', day: 'numeric' });
  }

  function emptyState() {
    const channel = state.channelsById.get(state.channel);
    return h(
      'div',
      { class: 'empty', 'data-testid': 'empty-channel' },
      h('div', {
        class: 'empty-title',
        text: isDm(channel) ? `This is the very beginning of your direct message with ${channel.name}` : `This is the very beginning of ${channelSigil(channel)}${channel?.name ?? ''}`,
      }),
      h('div', { class: 'empty-text', text: channel?.topic ? channel.topic : 'Nothing here yet.' }),
      h('div', { class: 'empty-text' }, 'Type ', h('code', { text: '/treasury help' }), ' below to see what the bot can do.'),
    );
  }

  const isReply = (entry) => typeof entry.threadTs === 'string' && entry.threadTs !== '' && entry.threadTs !== entry.ts;

  function distanceFromBottom() {
    const t = els.timeline;
    return t.scrollHeight - t.scrollTop - t.clientHeight;
  }

  function scrollToBottom() {
    els.timeline.scrollTop = els.timeline.scrollHeight;
    state.stickToBottom = true;
    els.newMessages.hidden = true;
  }

  function keepBottom() {
    if (state.stickToBottom) els.timeline.scrollTop = els.timeline.scrollHeight;
  }

  function renderTimeline({ toBottom = false, keepScroll = false } = {}) {
    const timeline = els.timeline;
    const previousTop = timeline.scrollTop;
    const stick = toBottom || (!keepScroll && state.stickToBottom);

    const entries = state.entries.filter((entry) => entry.channel === state.channel);
    const parents = new Set(entries.filter((entry) => !isReply(entry)).map((entry) => entry.ts));
    const replies = new Map();
    const top = [];
    for (const entry of entries) {
      if (isReply(entry) && parents.has(entry.threadTs)) {
        if (!replies.has(entry.threadTs)) replies.set(entry.threadTs, []);
        replies.get(entry.threadTs).push(entry);
      } else {
        top.push(entry);
      }
    }

    const fragment = document.createDocumentFragment();
    if (state.loadedFor === null) {
      fragment.append(h('div', { class: 'loading', text: 'Loading messages…' }));
    } else if (top.length === 0) {
      fragment.append(emptyState());
    }
    let lastDay = null;
    for (const entry of top) {
      const day = Number.isFinite(entry.at) ? new Date(entry.at).toDateString() : null;
      if (day && day !== lastDay) {
        fragment.append(h('div', { class: 'day-divider', role: 'separator' }, h('span', { text: dayLabel(entry.at) })));
        lastDay = day;
      }
      const group = h('div', { class: 'msg-group' }, messageNode(entry, { orphanReply: isReply(entry) }));
      const thread = replies.get(entry.ts);
      if (thread) group.append(threadNode(entry, thread));
      fragment.append(group);
    }
    timeline.replaceChildren(fragment);

    // "New messages" when a message (not a reply tucked in a thread) arrived below while reading further up.
    const rendered = state.renderedTop;
    const sameView = rendered.key === `${state.user}\u0000${state.channel}` && state.loadedFor !== null;
    const arrived = sameView && rendered.ids !== null && top.some((entry) => !rendered.ids.has(entry.id));
    state.renderedTop = { key: `${state.user}\u0000${state.channel}`, ids: state.loadedFor === null ? null : new Set(top.map((entry) => entry.id)) };

    if (stick) {
      scrollToBottom();
    } else {
      timeline.scrollTop = previousTop;
      state.stickToBottom = distanceFromBottom() < 40;
      if (arrived && !state.stickToBottom) els.newMessages.hidden = false;
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Timeline loading

  let fetching = false;
  let fetchAgain = false;
  let retryTimer = null;

  function validEntry(entry) {
    return isObject(entry) && typeof entry.id === 'string' && typeof entry.channel === 'string';
  }

  function applyTimeline(data, user) {
    const entries = Array.isArray(data?.entries) ? data.entries.filter(validEntry) : [];
    if (state.loadedFor !== user) {
      state.seen = new Set(entries.map((entry) => entry.id));
      state.unread.clear();
      state.loadedFor = user;
    } else {
      for (const entry of entries) {
        if (state.seen.has(entry.id)) continue;
        state.seen.add(entry.id);
        if (entry.channel !== state.channel && state.channelsById.has(entry.channel)) state.unread.add(entry.channel);
      }
    }
    state.entries = entries;
    state.version = typeof data?.version === 'number' ? data.version : state.version;
    renderChannels();
    renderTimeline();
  }

  async function refreshTimeline() {
    if (fetching) {
      fetchAgain = true;
      return;
    }
    fetching = true;
    try {
      do {
        fetchAgain = false;
        const user = state.user;
        try {
          const data = await getJson(`/api/timeline?user=${encodeURIComponent(user)}`);
          if (user !== state.user) {
            fetchAgain = true;
            continue;
          }
          applyTimeline(data, user);
          showBanner(null);
        } catch (error) {
          showBanner(`Could not load the messages (${error instanceof Error ? error.message : error}). Retrying…`);
          clearTimeout(retryTimer);
          retryTimer = setTimeout(refreshTimeline, 3000);
        }
      } while (fetchAgain);
    } finally {
      fetching = false;
    }
  }

  function showBanner(text) {
    els.banner.hidden = !text;
    els.banner.textContent = text ?? '';
  }

  // ---------------------------------------------------------------------------------------------------------
  // Switching

  function rememberView() {
    storageSet(sessionStorage, SESSION_KEY, JSON.stringify({ user: state.user, channel: state.channel }));
  }

  function switchChannel(channelId) {
    if (channelId === state.channel) return;
    state.channel = channelId;
    state.unread.delete(channelId);
    els.newMessages.hidden = true;
    rememberView();
    renderChannels();
    renderHeader();
    renderTimeline({ toBottom: true });
    setNotice(null);
    els.composer.focus();
    refreshTimeline();
  }

  function switchUser(userId) {
    if (userId === state.user) return;
    state.user = userId;
    state.loadedFor = null;
    // Another person may not be in this conversation (a private channel, someone else's DM): go where they are.
    if (!visibleChannels().some((channel) => channel.id === state.channel)) {
      state.channel = state.ws.defaultChannel ?? visibleChannels()[0]?.id ?? '';
      renderHeader();
    }
    state.entries = [];
    state.unread.clear();
    state.expandedThreads.clear();
    rememberView();
    renderUser();
    renderChannels();
    renderTimeline({ toBottom: true });
    setNotice(null);
    refreshTimeline();
  }

  // ---------------------------------------------------------------------------------------------------------
  // Composer

  let noticeTimer = null;

  function setNotice(text, kind = 'info') {
    clearTimeout(noticeTimer);
    els.notice.textContent = text ?? '';
    els.notice.dataset.kind = text ? kind : '';
    if (text && kind === 'info') noticeTimer = setTimeout(() => setNotice(null), 8000);
  }

  async function sendCommand() {
    const text = els.composer.value.trim();
    if (!text || state.sending) return;
    if (!/^\/treasury(\s|$)/.test(text)) {
      setNotice("This workspace only runs the bot's /treasury command.", 'info');
      return;
    }
    state.sending = true;
    els.composerForm.classList.add('sending');
    setNotice(null);
    const result = await postJson('/api/command', { user: state.user, channel: state.channel, text });
    state.sending = false;
    els.composerForm.classList.remove('sending');
    if (result.ok) {
      if (state.history[state.history.length - 1] !== text) state.history.push(text);
      state.historyIndex = -1;
      if (els.composer.value.trim() === text) els.composer.value = '';
      state.stickToBottom = true;
      keepBottom();
    } else {
      setNotice(`The command was not sent: ${errorText(result, 'the server refused it.')}`, 'error');
    }
  }

  function onComposerKey(event) {
    if (event.key === 'ArrowUp' && state.history.length > 0 && (els.composer.value === '' || state.historyIndex >= 0)) {
      event.preventDefault();
      state.historyIndex = state.historyIndex < 0 ? state.history.length - 1 : Math.max(0, state.historyIndex - 1);
      els.composer.value = state.history[state.historyIndex];
    } else if (event.key === 'ArrowDown' && state.historyIndex >= 0) {
      event.preventDefault();
      state.historyIndex += 1;
      if (state.historyIndex >= state.history.length) {
        state.historyIndex = -1;
        els.composer.value = '';
      } else {
        els.composer.value = state.history[state.historyIndex];
      }
    } else if (event.key === 'Escape') {
      setNotice(null);
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Hints

  function renderHints() {
    const hints = Array.isArray(state.ws.hints) ? state.ws.hints.filter((hint) => typeof hint === 'string' && hint) : [];
    const dismissed = storageGet(localStorage, HINTS_KEY) === '1';
    els.hintsList.replaceChildren(
      ...hints.map((hint) =>
        h(
          'button',
          {
            type: 'button',
            class: 'hint',
            'data-testid': 'hint',
            title: 'Put this command in the message box',
            onclick: () => {
              els.composer.value = hint;
              els.composer.focus();
              els.composer.setSelectionRange(hint.length, hint.length);
              setNotice(null);
            },
          },
          hint,
        ),
      ),
    );
    els.hints.hidden = dismissed || hints.length === 0;
    els.hintsShow.hidden = !dismissed || hints.length === 0;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Buttons and the confirm dialog

  function confirmDialog(confirm) {
    const dialog = els.dialog;
    const text = (obj, fallback) => (isObject(obj) && typeof obj.text === 'string' && obj.text ? obj.text : fallback);
    $('confirm-title').textContent = text(confirm.title, 'Are you sure?');
    const body = $('confirm-text');
    body.replaceChildren();
    // Slack accepts a mrkdwn confirm text but shows it as typed (asterisks, `&amp;` and all): so does the page.
    if (isObject(confirm.text) && typeof confirm.text.text === 'string') {
      body.append(fromHtml(plainHtml(confirm.text.text, confirm.text.type !== 'mrkdwn' && confirm.text.emoji !== false)));
    }
    const yes = $('confirm-yes');
    const no = $('confirm-no');
    yes.textContent = text(confirm.confirm, 'Yes');
    no.textContent = text(confirm.deny, 'Cancel');
    yes.className = `bk-btn ${confirm.style === 'danger' ? 'bk-btn-danger' : 'bk-btn-primary'}`;

    return new Promise((resolve) => {
      const finish = (answer) => {
        yes.removeEventListener('click', onYes);
        no.removeEventListener('click', onNo);
        dialog.removeEventListener('cancel', onCancel);
        dialog.removeEventListener('click', onBackdrop);
        if (dialog.open) dialog.close();
        resolve(answer);
      };
      const onYes = () => finish(true);
      const onNo = () => finish(false);
      const onCancel = (event) => {
        event.preventDefault();
        finish(false);
      };
      const onBackdrop = (event) => {
        if (event.target === dialog) finish(false);
      };
      yes.addEventListener('click', onYes);
      no.addEventListener('click', onNo);
      dialog.addEventListener('cancel', onCancel);
      dialog.addEventListener('click', onBackdrop);
      dialog.showModal();
      no.focus();
    });
  }

  function setPending(key, pending) {
    if (pending) state.pendingActions.add(key);
    else state.pendingActions.delete(key);
    for (const button of els.timeline.querySelectorAll('button[data-action-key]')) {
      if (button.dataset.actionKey === key) button.disabled = pending;
    }
  }

  async function onButton(button, element, entry, block, url, label) {
    if (url) {
      window.open(url, '_blank', 'noopener,noreferrer');
      return;
    }
    const key = actionKey(entry.id, block.block_id, element.action_id);
    if (state.pendingActions.has(key)) return;
    if (isObject(element.confirm)) {
      const confirmed = await confirmDialog(element.confirm);
      if (!confirmed) return;
    }
    setPending(key, true);
    const started = Date.now();
    // blockId is '' when the block has none; value is left out when the button has none (as in Slack's payload).
    const request = {
      user: state.user,
      entryId: entry.id,
      blockId: typeof block.block_id === 'string' ? block.block_id : '',
      actionId: typeof element.action_id === 'string' ? element.action_id : '',
    };
    if (typeof element.value === 'string') request.value = element.value;
    const result = await postJson('/api/action', request);
    // Keep the button visibly disabled for a moment even when the answer is instant.
    const wait = 300 - (Date.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    setPending(key, false);
    if (!result.ok) setNotice(`“${label}” did not go through: ${errorText(result, 'the server refused it.')}`, 'error');
  }

  // ---------------------------------------------------------------------------------------------------------
  // Simulator controls

  let controlTimer = null;

  function setControlStatus(text, ok) {
    clearTimeout(controlTimer);
    els.controlStatus.textContent = text ?? '';
    els.controlStatus.dataset.kind = text ? (ok ? 'ok' : 'error') : '';
    if (text) controlTimer = setTimeout(() => setControlStatus(null), ok ? 8000 : 15000);
  }

  /** Under each group's heading, in the order the server lists them. */
  function groupedControls(controls) {
    const groups = [];
    for (const control of controls) {
      const name = typeof control.group === 'string' ? control.group : '';
      if (groups.at(-1)?.name !== name) groups.push({ name, controls: [] });
      groups.at(-1).controls.push(control);
    }
    return groups;
  }

  async function loadControls() {
    let controls;
    try {
      controls = await getJson('/api/controls');
    } catch (error) {
      els.controlList.replaceChildren(h('div', { class: 'side-note', text: `Controls unavailable (${error.message}).` }));
      return;
    }
    if (!Array.isArray(controls) || controls.length === 0) {
      els.controlList.replaceChildren(h('div', { class: 'side-note', text: 'No controls.' }));
      return;
    }
    const controlNode = (control) => {
      const button = h('button', {
        type: 'button',
        class: 'control-button',
        'data-testid': `control-${control.id}`,
        title: control.description ?? '',
        text: control.label ?? control.id,
      });
      const node = h(
        'div',
        { class: 'control' },
        button,
        control.description ? h('div', { class: 'control-description', text: control.description }) : null,
      );
      button.addEventListener('click', async () => {
        button.disabled = true;
        // Right under the button clicked, where the eye is (the list is longer than the sidebar).
        node.after(els.controlStatus);
        setControlStatus(`${control.label ?? control.id}…`, true);
        const result = await postJson(`/api/controls/${encodeURIComponent(control.id)}`);
        button.disabled = false;
        setControlStatus(errorText(result, result.ok ? 'Done.' : 'It did not work.'), result.ok);
        if (state.ws?.mode === 'socket') refreshBotConnection();
      });
      return node;
    };
    els.controlList.replaceChildren(
      ...groupedControls(controls.filter((control) => isObject(control) && typeof control.id === 'string')).map((group) =>
        h(
          'div',
          { class: 'control-group', 'data-testid': 'control-group' },
          group.name ? h('h3', { class: 'control-group-name', text: group.name }) : null,
          ...group.controls.map(controlNode),
        ),
      ),
    );
  }

  // ---------------------------------------------------------------------------------------------------------
  // The bot's connection to Slack (Socket Mode): what its own /healthz says

  const BOT_CONNECTION_EVERY_MS = 1000;

  function seconds(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    return s < 90 ? `${s} s` : `${Math.round(s / 60)} min`;
  }

  function renderBotConnection(status) {
    const el = els.botConnection;
    el.hidden = false;
    if (!isObject(status) || status.ok !== true || typeof status.socket !== 'string') {
      el.dataset.state = 'unknown';
      el.textContent = 'Bot: not answering /healthz';
      el.title = errorText(status ?? {}, '');
      return;
    }
    const reconnects = Number.isInteger(status.reconnects) ? status.reconnects : 0;
    const count = `${reconnects} reconnect${reconnects === 1 ? '' : 's'}`;
    const since = Date.parse(status.since);
    const words = {
      connected: 'Bot connected',
      reconnecting: 'Bot reconnecting…',
      disconnected: Number.isNaN(since) ? 'Bot disconnected' : `Bot disconnected for ${seconds(Date.now() - since)}`,
    };
    el.dataset.state = status.socket;
    el.textContent = `${words[status.socket] ?? `Bot: ${status.socket}`} · ${count}`;
    el.title = `What the bot's /healthz says: socket ${status.socket}${Number.isNaN(since) ? '' : ` since ${new Date(since).toLocaleTimeString()}`}, ${count}.`;
  }

  let botConnectionBusy = false;

  async function refreshBotConnection() {
    if (botConnectionBusy) return;
    botConnectionBusy = true;
    try {
      renderBotConnection(await getJson('/api/bot-connection'));
    } catch (error) {
      renderBotConnection({ ok: false, error: error instanceof Error ? error.message : String(error) });
    } finally {
      botConnectionBusy = false;
    }
  }

  function watchBotConnection() {
    if (state.ws?.mode !== 'socket') return;
    els.teamSub.textContent = 'Local workspace · Socket Mode';
    // One status dot only: the bot's connection below.
    els.teamSub.dataset.mode = 'socket';
    refreshBotConnection();
    setInterval(refreshBotConnection, BOT_CONNECTION_EVERY_MS);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Live updates

  function connectEvents() {
    if (typeof EventSource !== 'function') return;
    const source = new EventSource('/api/events');
    let wasDown = false;
    source.addEventListener('change', (event) => {
      let version = null;
      try {
        version = JSON.parse(event.data)?.version ?? null;
      } catch {
        /* refetch anyway */
      }
      if (version !== null && version === state.version && state.loadedFor === state.user) return;
      refreshTimeline();
    });
    source.addEventListener('open', () => {
      els.connection.hidden = true;
      if (wasDown) refreshTimeline();
      wasDown = false;
    });
    source.addEventListener('error', () => {
      wasDown = true;
      els.connection.hidden = false;
      els.connection.textContent = source.readyState === EventSource.CLOSED ? 'Disconnected — reload the page' : 'Reconnecting…';
    });
  }

  // ---------------------------------------------------------------------------------------------------------
  // Start

  function fatal(message) {
    const main = document.querySelector('.main');
    main.replaceChildren(
      h(
        'div',
        { class: 'fatal', 'data-testid': 'fatal' },
        h('div', { class: 'empty-title', text: 'The workspace could not start' }),
        h('div', { class: 'empty-text', text: message }),
        h('button', { type: 'button', class: 'bk-btn', onclick: () => location.reload() }, 'Try again'),
      ),
    );
  }

  async function start() {
    Object.assign(els, {
      teamName: $('team-name'),
      teamSub: $('team-sub'),
      botConnection: $('bot-connection'),
      channelList: $('channel-list'),
      dmList: $('dm-list'),
      channelHash: document.querySelector('#channel-name .hash'),
      userSwitcher: $('user-switcher'),
      userTitle: $('user-title'),
      controlList: $('control-list'),
      controlStatus: $('control-status'),
      channelNameText: $('channel-name-text'),
      channelTopic: $('channel-topic'),
      connection: $('connection'),
      banner: $('banner'),
      timeline: $('timeline'),
      newMessages: $('new-messages'),
      hints: $('hints'),
      hintsList: $('hints-list'),
      hintsShow: $('hints-show'),
      composerForm: $('composer-form'),
      composer: $('composer'),
      notice: $('composer-notice'),
      dialog: $('confirm-dialog'),
    });

    let ws;
    try {
      ws = await getJson('/api/workspace');
    } catch (error) {
      fatal(`Could not load /api/workspace: ${error instanceof Error ? error.message : error}. Is the workspace server running?`);
      return;
    }
    ws.users = Array.isArray(ws.users) ? ws.users.filter((u) => isObject(u) && typeof u.id === 'string') : [];
    ws.channels = Array.isArray(ws.channels) ? ws.channels.filter((c) => isObject(c) && typeof c.id === 'string') : [];
    state.ws = ws;
    state.usersById = new Map(ws.users.map((user) => [user.id, user]));
    state.channelsById = new Map(ws.channels.map((channel) => [channel.id, channel]));

    let remembered = {};
    try {
      remembered = JSON.parse(storageGet(sessionStorage, SESSION_KEY) ?? '{}') ?? {};
    } catch {
      remembered = {};
    }
    state.user = state.usersById.has(remembered.user) ? remembered.user : ws.defaultUser ?? ws.users[0]?.id ?? '';
    state.channel = visibleChannels().some((c) => c.id === remembered.channel) ? remembered.channel : ws.defaultChannel ?? ws.channels[0]?.id ?? '';

    els.teamName.textContent = ws.team?.name ?? 'Workspace';
    els.userSwitcher.replaceChildren(
      ...ws.users.map((user) => h('option', { value: user.id, text: user.title ? `${user.name} — ${user.title}` : user.name })),
    );
    renderUser();
    els.userSwitcher.addEventListener('change', () => switchUser(els.userSwitcher.value));

    els.timeline.addEventListener('scroll', () => {
      state.stickToBottom = distanceFromBottom() < 40;
      if (state.stickToBottom) els.newMessages.hidden = true;
    });
    els.newMessages.addEventListener('click', scrollToBottom);
    window.addEventListener('resize', keepBottom);

    els.composerForm.addEventListener('submit', (event) => {
      event.preventDefault();
      sendCommand();
    });
    els.composer.addEventListener('keydown', onComposerKey);
    els.composer.addEventListener('input', () => {
      state.historyIndex = -1;
      if (els.notice.dataset.kind === 'info') setNotice(null);
    });

    $('hints-dismiss').addEventListener('click', () => {
      storageSet(localStorage, HINTS_KEY, '1');
      renderHints();
    });
    els.hintsShow.addEventListener('click', () => {
      storageSet(localStorage, HINTS_KEY, null);
      renderHints();
    });

    renderChannels();
    renderHeader();
    renderHints();
    renderTimeline({ toBottom: true });
    loadControls();
    watchBotConnection();
    connectEvents();
    await refreshTimeline();
    els.composer.focus();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
