// @ts-check
/*
 * mrkdwn → HTML, the page's safety rule: everything shown comes from the API (bot output, what people typed).
 * renderMrkdwn() HTML-escapes every piece of text and only ever adds its own tags; plainHtml() does the same
 * for plain_text. Pure: no browser API, so Node's unit tests load it (test/workspace/renderers.test.ts).
 */
import { formatSlackDate } from './dates.js';
import { applyEmoji } from './emoji.js';
import { decodeEntities, escapeHtml, safeUrl } from './html.js';

/**
 * Who the ids in mentions are: `me` is the person viewing (their own mentions stand out, and so do those of a group
 * they are in, as Slack counts those as mentions of them); `groups` are the user groups (`<!subteam^S…>`), by id.
 * @typedef {{
 *   users: ReadonlyMap<string, { name: string, title?: string | undefined }>,
 *   channels: ReadonlyMap<string, { name?: string | undefined }>,
 *   groups?: ReadonlyMap<string, { handle: string, name?: string | undefined, members?: readonly string[] }>,
 *   me: string | null,
 * }} Directory
 */

/** @typedef {{ html: string, text: string }} Token */

/** @type {Directory} */
const NO_DIRECTORY = { users: new Map(), channels: new Map(), me: null };

// Steps: 1. Slack's <…> tokens become placeholders (so formatting can wrap them); 2. bare URLs become link
// placeholders; 3. entities are decoded; 4. ```code blocks```, quotes and lines; 5. per line: `code`, then
// escaped text gets *bold* _italic_ ~strike~ and emoji; placeholders go back in.

const PH_OPEN = '\uE000';
const PH_CLOSE = '\uE001';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

/**
 * @param {string} label
 * @param {string} kind
 * @param {string} [title]
 */
function mentionChip(label, kind, title) {
  return `<span class="mention mention-${kind}"${title ? ` title="${escapeHtml(title)}"` : ''}>${escapeHtml(label)}</span>`;
}

/**
 * @param {string} href
 * @param {string} label
 */
function linkHtml(href, label) {
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${escapeHtml(label)}</a>`;
}

/**
 * One <…> token (its inside, still escaped as Slack sends it) → { html, text }.
 * @param {string} inner
 * @param {Directory} directory
 * @returns {Token}
 */
function readToken(inner, directory) {
  const bar = inner.indexOf('|');
  const target = bar >= 0 ? inner.slice(0, bar) : inner;
  const label = bar >= 0 ? decodeEntities(inner.slice(bar + 1)) : '';
  const plain = (/** @type {string} */ text) => ({ html: escapeHtml(text), text });

  // Slack ids are capitals and digits: anything else is not a mention, and is shown as the text it is.
  if ((target.startsWith('@') || target.startsWith('#')) && !/^[A-Z0-9]+$/.test(target.slice(1))) {
    return plain(label || `<${decodeEntities(inner)}>`);
  }
  if (target.startsWith('@')) {
    const id = target.slice(1);
    const user = directory.users.get(id);
    const name = `@${user ? user.name : label ? label.replace(/^@/, '') : id}`;
    const kind = id === directory.me ? 'me' : 'user';
    return { html: mentionChip(name, kind, user ? `${user.name} — ${user.title ?? ''}` : id), text: name };
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    const name = `#${label || directory.channels.get(id)?.name || id}`;
    return { html: mentionChip(name, 'channel'), text: name };
  }
  if (target.startsWith('!')) {
    const command = target.slice(1);
    if (command === 'here' || command === 'channel' || command === 'everyone') {
      return { html: mentionChip(`@${command}`, 'broadcast'), text: `@${command}` };
    }
    if (command.startsWith('subteam^')) {
      // Slack's client shows a group by its handle, whatever label the message carries.
      const id = command.slice('subteam^'.length);
      const group = directory.groups?.get(id);
      const name = group ? `@${group.handle}` : label || `@${id}`;
      const mine = directory.me !== null && group?.members?.includes(directory.me) === true;
      return { html: mentionChip(name, mine ? 'me' : 'user', group?.name), text: name };
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

/**
 * Wraps delimited runs in a tag, by Slack's rules: the delimiters sit at word edges, not around spaces.
 * @param {string} html
 * @param {'*' | '_' | '~'} delimiter
 * @param {string} tag
 */
function applyDelimiter(html, delimiter, tag) {
  const d = delimiter === '*' ? '\\*' : delimiter;
  const re = new RegExp(
    `(^|[^\\p{L}\\p{N}_${d}])${d}([^\\s${d}](?:[^${d}]*?[^\\s${d}])?)${d}(?![\\p{L}\\p{N}_${d}])`,
    'gu',
  );
  return html.replace(re, (_, before, inside) => `${before}<${tag}>${inside}</${tag}>`);
}

/**
 * mrkdwn → HTML that is safe to put into the page: every piece of text is escaped, only our own tags are added.
 * @param {unknown} source
 * @param {Directory} [directory] who and which channel the ids in mentions are
 * @returns {string}
 */
export function renderMrkdwn(source, directory = NO_DIRECTORY) {
  /** @type {Token[]} */
  const tokens = [];
  const hold = (/** @type {Token} */ token) => {
    tokens.push(token);
    return `${PH_OPEN}${tokens.length - 1}${PH_CLOSE}`;
  };
  // Private-use characters in the input could forge placeholders: replace them first.
  let text = String(source).replace(/[\uE000\uE001]/g, '\uFFFD');
  text = text.replace(/<([^<>\n]+)>/g, (_, inner) => hold(readToken(inner, directory)));
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

  const tokenHtml = (/** @type {string} */ html) => html.replace(PLACEHOLDER, (_, i) => tokens[Number(i)]?.html ?? '');
  const tokenText = (/** @type {string} */ raw) => raw.replace(PLACEHOLDER, (_, i) => tokens[Number(i)]?.text ?? '');
  const codeHtml = (/** @type {string} */ raw) => escapeHtml(tokenText(raw));

  const formatText = (/** @type {string} */ raw) => {
    let html = escapeHtml(raw);
    html = applyDelimiter(html, '*', 'b');
    html = applyDelimiter(html, '_', 'i');
    html = applyDelimiter(html, '~', 's');
    html = applyEmoji(html);
    return tokenHtml(html);
  };

  const inline = (/** @type {string} */ line) => {
    let html = '';
    let last = 0;
    for (const match of line.matchAll(/`([^`]+)`/g)) {
      html += formatText(line.slice(last, match.index));
      html += `<code>${codeHtml(match[1] ?? '')}</code>`;
      last = match.index + match[0].length;
    }
    return html + formatText(line.slice(last));
  };

  const renderLines = (/** @type {string} */ part) => {
    /** @type {Array<{ quote: boolean, lines: string[] }>} */
    const groups = [];
    const lines = part.split('\n');
    for (const [i, line] of lines.entries()) {
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
    // An unclosed ``` is just text: glue the last two pieces back together.
    parts.push(parts.splice(-2).join('```'));
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

/**
 * plain_text: shown as written (no entities, no formatting), with emoji shortcodes unless emoji is false.
 * @param {unknown} text
 * @param {boolean} [emoji]
 */
export function plainHtml(text, emoji = true) {
  const html = escapeHtml(text).replace(/\n/g, '<br>');
  return emoji ? applyEmoji(html) : html;
}
