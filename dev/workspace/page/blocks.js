// @ts-check
/*
 * Block Kit → a DOM-free tree (tag, attributes, children) that dom.js turns into elements and toHtml() into a
 * string. Pure: no browser API, so Node's unit tests load it. Text is a string child (escaped when shown);
 * `{ html }` children come only from renderMrkdwn()/plainHtml(), which escape everything they are given.
 * Nothing the bot sends is dropped: a block or element this page does not draw is shown raw, as JSON.
 */
import { escapeHtml, isObject, safeUrl } from './html.js';
import { plainHtml, renderMrkdwn } from './mrkdwn.js';

/** @typedef {import('./mrkdwn.js').Directory} Directory */
/** @typedef {Record<string, any>} Json */

/**
 * A button's click, for the page to wire: the element and block as sent, its http(s) url if it opens a link, and
 * the attachment it is in (Slack's attachment_id, 1 first; undefined in the message's own blocks).
 * @typedef {{
 *   key: string, entryId: string, element: Json, block: Json, url: string | null, label: string,
 *   attachmentId?: number | undefined,
 * }} ButtonAction
 */

/**
 * A static menu, for the page to wire: choosing an option sends its value.
 * @typedef {{ key: string, entryId: string, element: Json, block: Json, attachmentId?: number | undefined }} SelectAction
 */

/**
 * @typedef {{
 *   tag: string, attrs: Record<string, string | undefined>, children: Child[], action?: ButtonAction,
 *   select?: SelectAction,
 * }} Tree
 * @typedef {Tree | { html: string } | string | null} Child
 */

/**
 * What a message's blocks are drawn for: the entry (its buttons' keys), who the mentioned ids are, and the
 * attachment they are in (1 first; undefined for the message's own blocks).
 * @typedef {{ entryId: string, directory?: Directory | undefined, attachmentId?: number | undefined }} BlockContext
 */

/**
 * @param {string} tag
 * @param {Record<string, string | undefined>} [attrs]
 * @param {Child[]} children
 * @returns {Tree}
 */
export function el(tag, attrs = {}, ...children) {
  return { tag, attrs, children };
}

class BlockError extends Error {}

/**
 * The key that tells one button from another across renders (pending buttons stay disabled).
 * @param {unknown} entryId
 * @param {unknown} blockId
 * @param {unknown} actionId
 * @param {number} [attachmentId]
 */
const actionKey = (entryId, blockId, actionId, attachmentId) =>
  `${entryId}\u0000${blockId ?? ''}\u0000${actionId ?? ''}${attachmentId === undefined ? '' : `\u0000${attachmentId}`}`;

/**
 * @param {unknown} obj
 * @param {string} where
 * @returns {{ type: 'mrkdwn' | 'plain_text', text: string, emoji?: unknown }}
 */
function requireText(obj, where) {
  if (!isObject(obj) || typeof obj.text !== 'string') throw new BlockError(`${where} is not a text object`);
  if (obj.type !== 'mrkdwn' && obj.type !== 'plain_text')
    throw new BlockError(`${where} has text type ${JSON.stringify(obj.type)}`);
  return /** @type {{ type: 'mrkdwn' | 'plain_text', text: string, emoji?: unknown }} */ (obj);
}

/**
 * mrkdwn text as the page shows it.
 * @param {unknown} source
 * @param {Directory | undefined} directory
 * @param {string} [className]
 */
export function mrkdwnTree(source, directory, className = 'mk') {
  return el('div', { class: className }, { html: renderMrkdwn(source, directory) });
}

/**
 * @param {unknown} obj
 * @param {string} where
 * @param {string} className
 * @param {BlockContext} context
 */
function textTree(obj, where, className, context) {
  const t = requireText(obj, where);
  if (t.type === 'mrkdwn') return mrkdwnTree(t.text, context.directory, `mk ${className}`);
  return el('div', { class: `plain ${className}` }, { html: plainHtml(t.text, t.emoji !== false) });
}

/**
 * @param {unknown} obj
 * @param {string} where
 */
function plainLabel(obj, where) {
  return requireText(obj, where).text;
}

/** @param {unknown} value */
function jsonOf(value) {
  try {
    return String(JSON.stringify(value, null, 2));
  } catch {
    return String(value);
  }
}

/**
 * "Block not shown in this workspace: <type>", with the JSON: nothing the bot sends is ever dropped.
 * @param {unknown} value
 * @param {string} [problem]
 */
export function rawTree(value, problem) {
  const type =
    isObject(value) && typeof value.type === 'string' ? value.type : Array.isArray(value) ? 'array' : typeof value;
  return el(
    'div',
    { class: 'bk-raw', 'data-testid': 'raw-block' },
    el('div', { class: 'bk-raw-title' }, 'Block not shown in this workspace: ', el('code', {}, type)),
    problem ? el('div', { class: 'bk-raw-problem' }, `It could not be read: ${problem}`) : null,
    el('pre', {}, jsonOf(value)),
  );
}

/**
 * @param {Json} element
 * @param {string} className
 */
function imageTree(element, className) {
  const src = safeUrl(element.image_url, { mailto: false });
  if (!src) throw new BlockError('image without an http(s) image_url');
  return el('img', {
    class: className,
    src,
    alt: typeof element.alt_text === 'string' ? element.alt_text : '',
    title: typeof element.alt_text === 'string' ? element.alt_text : undefined,
    loading: 'lazy',
    referrerpolicy: 'no-referrer',
  });
}

/**
 * @param {Json} element
 * @param {Json} block
 * @param {BlockContext} context
 * @returns {Tree}
 */
function buttonTree(element, block, context) {
  const label = plainLabel(element.text, 'button text');
  const style = element.style === 'primary' ? ' bk-btn-primary' : element.style === 'danger' ? ' bk-btn-danger' : '';
  const url = element.url === undefined ? null : safeUrl(element.url, { mailto: false });
  if (element.url !== undefined && !url) throw new BlockError('button url is not http(s)');
  const key = actionKey(context.entryId, block.block_id, element.action_id, context.attachmentId);
  const button = el(
    'button',
    {
      type: 'button',
      class: `bk-btn${style}`,
      'data-testid': 'bk-button',
      'data-action-id': typeof element.action_id === 'string' ? element.action_id : undefined,
      'data-action-key': key,
      title: url ? `Opens ${url}` : undefined,
      'aria-label': label,
    },
    { html: plainHtml(label, element.text.emoji !== false) },
    url ? el('span', { class: 'bk-btn-ext', 'aria-hidden': 'true' }, ' ↗') : null,
  );
  button.action = { key, entryId: context.entryId, element, block, url, label, attachmentId: context.attachmentId };
  return button;
}

/**
 * The options of a static menu, flat or in groups, each as `{ text, value }` (plain_text text).
 * @param {Json} element
 * @returns {Array<{ group: string | null, options: Array<{ text: string, value: string }> }>}
 */
function menuGroups(element) {
  /** @param {unknown} options */
  const read = (options) => {
    if (!Array.isArray(options)) throw new BlockError('menu options is not a list');
    return options.map((option, i) => {
      if (!isObject(option) || typeof option.value !== 'string') throw new BlockError(`option ${i + 1} has no value`);
      // A menu's options are plain_text only (mrkdwn is for radio buttons and checkboxes).
      if (requireText(option.text, `option ${i + 1} text`).type !== 'plain_text')
        throw new BlockError(`option ${i + 1} text is not plain_text`);
      return { text: option.text.text, value: option.value };
    });
  };
  if (element.option_groups !== undefined) {
    if (!Array.isArray(element.option_groups)) throw new BlockError('option_groups is not a list');
    return element.option_groups.map((group, i) => {
      if (!isObject(group)) throw new BlockError(`option group ${i + 1} is not an object`);
      return { group: plainLabel(group.label, `option group ${i + 1} label`), options: read(group.options) };
    });
  }
  return [{ group: null, options: read(element.options) }];
}

/**
 * A `<select>` for a static menu: its placeholder first (chosen until the person picks), then the options; the
 * option `chosen` (by default the menu's initial option), when there is one, starts chosen.
 * @param {Json} element
 * @param {Record<string, string | undefined>} attrs
 * @param {string | undefined} [chosen]
 * @returns {Tree}
 */
export function selectTree(element, attrs, chosen) {
  const placeholder =
    element.placeholder === undefined ? 'Select an item' : plainLabel(element.placeholder, 'menu placeholder');
  const initial = chosen ?? (isObject(element.initial_option) ? element.initial_option.value : undefined);
  /** @param {{ text: string, value: string }} option */
  const optionTree = (option) =>
    el('option', { value: option.value, selected: option.value === initial ? '' : undefined }, option.text);
  return el(
    'select',
    { class: 'bk-select', 'aria-label': placeholder, ...attrs },
    el('option', { value: '', disabled: '', selected: initial === undefined ? '' : undefined }, placeholder),
    ...menuGroups(element).flatMap(({ group, options }) =>
      group === null ? options.map(optionTree) : [el('optgroup', { label: group }, ...options.map(optionTree))],
    ),
  );
}

/**
 * A static menu in a message: choosing sends `block_actions` with the option.
 * @param {Json} element
 * @param {Json} block
 * @param {BlockContext} context
 * @returns {Tree}
 */
function staticSelectTree(element, block, context) {
  const key = actionKey(context.entryId, block.block_id, element.action_id, context.attachmentId);
  const select = selectTree(element, {
    'data-testid': 'static-select',
    'data-action-id': typeof element.action_id === 'string' ? element.action_id : undefined,
    'data-action-key': key,
  });
  select.select = { key, entryId: context.entryId, element, block, attachmentId: context.attachmentId };
  return select;
}

/**
 * @param {unknown} element
 * @param {Json} block
 * @param {'accessory' | 'actions' | 'context'} where
 * @param {BlockContext} context
 * @returns {Tree}
 */
function elementTree(element, block, where, context) {
  if (!isObject(element)) return rawTree(element, `${where} is not an object`);
  try {
    if (where === 'accessory' || where === 'actions') {
      if (element.type === 'button') return buttonTree(element, block, context);
      if (element.type === 'static_select') return staticSelectTree(element, block, context);
      if (element.type === 'image' && where === 'accessory') return imageTree(element, 'bk-accessory-image');
    }
    if (where === 'context') {
      if (element.type === 'mrkdwn' || element.type === 'plain_text')
        return textTree(element, 'context element', 'bk-context-text', context);
      if (element.type === 'image') return imageTree(element, 'bk-context-image');
    }
    return rawTree(element);
  } catch (error) {
    return rawTree(element, error instanceof Error ? error.message : String(error));
  }
}

/** @type {Record<string, (block: Json, context: BlockContext) => Tree>} */
const BLOCKS = {
  header(block) {
    return el(
      'div',
      { class: 'bk-header' },
      { html: plainHtml(plainLabel(block.text, 'header text'), block.text.emoji !== false) },
    );
  },
  section(block, context) {
    const main = el('div', { class: 'bk-section-main' });
    if (block.text !== undefined) main.children.push(textTree(block.text, 'section text', 'bk-section-text', context));
    if (block.fields !== undefined) {
      if (!Array.isArray(block.fields)) throw new BlockError('section fields is not a list');
      main.children.push(
        el(
          'div',
          { class: 'bk-fields' },
          ...block.fields.map((field, i) => textTree(field, `field ${i + 1}`, 'bk-field', context)),
        ),
      );
    }
    if (block.text === undefined && block.fields === undefined) throw new BlockError('section without text or fields');
    const section = el('div', { class: 'bk-section' }, main);
    if (block.accessory !== undefined) {
      section.children.push(
        el('div', { class: 'bk-accessory' }, elementTree(block.accessory, block, 'accessory', context)),
      );
    }
    return section;
  },
  context(block, context) {
    if (!Array.isArray(block.elements)) throw new BlockError('context without elements');
    return el(
      'div',
      { class: 'bk-context' },
      ...block.elements.map((element) => elementTree(element, block, 'context', context)),
    );
  },
  divider() {
    return el('hr', { class: 'bk-divider' });
  },
  actions(block, context) {
    if (!Array.isArray(block.elements)) throw new BlockError('actions without elements');
    return el(
      'div',
      { class: 'bk-actions' },
      ...block.elements.map((element) => elementTree(element, block, 'actions', context)),
    );
  },
  image(block) {
    const figure = el('figure', { class: 'bk-image' });
    if (block.title !== undefined)
      figure.children.push(el('figcaption', { class: 'bk-image-title' }, plainLabel(block.title, 'image title')));
    figure.children.push(imageTree(block, 'bk-image-img'));
    return figure;
  },
};

/**
 * One block of a message; anything it cannot draw is shown raw with the reason.
 * @param {unknown} block
 * @param {BlockContext} context
 * @returns {Tree}
 */
export function blockTree(block, context) {
  if (!isObject(block) || typeof block.type !== 'string' || !Object.hasOwn(BLOCKS, block.type)) return rawTree(block);
  try {
    const tree = /** @type {(block: Json, context: BlockContext) => Tree} */ (BLOCKS[block.type])(block, context);
    tree.attrs.class = `${tree.attrs.class ?? ''} bk`.trim();
    tree.attrs['data-block-type'] = block.type;
    return tree;
  } catch (error) {
    return rawTree(block, error instanceof Error ? error.message : String(error));
  }
}

// "Legacy secondary message attachments": good (green), warning (yellow), danger (red), as Slack's client draws them.
const NAMED_BAR_COLORS = /** @type {Record<string, string>} */ ({
  good: '#2EB886',
  warning: '#DAA038',
  danger: '#A30200',
});
// Slack's default bar, for an attachment without a colour.
const DEFAULT_BAR_COLOR = '#DDDDDD';

/**
 * The colour of an attachment's bar as CSS: a named one, or a hex code (Slack takes it with or without `#`); grey
 * for anything else, so nothing the bot sends reaches the style attribute unchecked.
 * @param {unknown} color
 */
export function barColor(color) {
  if (typeof color !== 'string') return DEFAULT_BAR_COLOR;
  const named = NAMED_BAR_COLORS[color];
  if (named) return named;
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color);
  return hex ? `#${hex[1]}` : DEFAULT_BAR_COLOR;
}

/**
 * A legacy text field of an attachment: mrkdwn when the attachment lists it in `mrkdwn_in`, else shown as written.
 * @param {Json} attachment
 * @param {string} field
 * @param {string} className
 * @param {BlockContext} context
 */
function legacyText(attachment, field, className, context) {
  const value = attachment[field];
  if (typeof value !== 'string' || value === '') return null;
  const mrkdwn = Array.isArray(attachment.mrkdwn_in) && attachment.mrkdwn_in.includes(field);
  return mrkdwn
    ? mrkdwnTree(value, context.directory, `mk ${className}`)
    : el('div', { class: `plain ${className}` }, value);
}

/**
 * The legacy fields of an attachment without blocks: author, title (a link when it has an http(s) one), text,
 * fields and footer; the fallback when it has none of them.
 * @param {Json} attachment
 * @param {BlockContext} context
 * @returns {Child[]}
 */
function legacyParts(attachment, context) {
  /** @type {Child[]} */
  const parts = [];
  if (typeof attachment.author_name === 'string' && attachment.author_name !== '')
    parts.push(el('div', { class: 'att-author' }, attachment.author_name));
  if (typeof attachment.title === 'string' && attachment.title !== '') {
    const href = safeUrl(attachment.title_link, { mailto: false });
    parts.push(
      el(
        'div',
        { class: 'att-title' },
        href ? el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, attachment.title) : attachment.title,
      ),
    );
  }
  parts.push(legacyText(attachment, 'text', 'att-text', context));
  if (Array.isArray(attachment.fields) && attachment.fields.length > 0) {
    parts.push(
      el(
        'div',
        { class: 'bk-fields att-fields' },
        ...attachment.fields
          .filter(isObject)
          .map((field) =>
            el(
              'div',
              { class: `att-field${field.short === true ? ' att-field-short' : ''}` },
              typeof field.title === 'string' ? el('div', { class: 'att-field-title' }, field.title) : null,
              typeof field.value === 'string' ? el('div', { class: 'att-field-value' }, field.value) : null,
            ),
          ),
      ),
    );
  }
  if (typeof attachment.footer === 'string' && attachment.footer !== '')
    parts.push(el('div', { class: 'att-footer' }, attachment.footer));
  if (!parts.some((part) => part !== null) && typeof attachment.fallback === 'string')
    parts.push(el('div', { class: 'plain att-text' }, attachment.fallback));
  return parts;
}

/**
 * One legacy secondary attachment as Slack's client draws it below the message's blocks: a vertical bar in its
 * colour beside its content (its blocks, drawn as a message's are, or its legacy fields), the pretext above.
 * Buttons and menus in it report the attachment (`attachmentId`, 1 first), as Slack's payloads do.
 * @param {unknown} attachment
 * @param {number} attachmentId
 * @param {BlockContext} context
 * @returns {Tree}
 */
export function attachmentTree(attachment, attachmentId, context) {
  if (!isObject(attachment)) return rawTree(attachment, 'an attachment is not an object');
  const color = barColor(attachment.color);
  const inside = { ...context, attachmentId };
  const body = el('div', { class: 'att-body' });
  if (Array.isArray(attachment.blocks)) {
    for (const block of attachment.blocks) body.children.push(blockTree(block, inside));
  } else if (attachment.blocks !== undefined) {
    body.children.push(rawTree(attachment.blocks, 'attachment blocks is not a list'));
  } else {
    body.children.push(...legacyParts(attachment, inside));
  }
  return el(
    'div',
    { class: 'att', 'data-testid': 'attachment', 'data-color': color, 'data-attachment-id': String(attachmentId) },
    legacyText(attachment, 'pretext', 'att-pretext', inside),
    el(
      'div',
      { class: 'att-row' },
      el('div', { class: 'att-bar', style: `background:${color}`, 'aria-hidden': 'true' }),
      body,
    ),
  );
}

/** The image types Slack's client previews in place. */
const PREVIEWED_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif']);

/**
 * A file shared in a message, as Slack's client shows it: an image as a preview under its title, which opens the
 * full image when clicked; any other file as a card with its name and type, which opens (downloads) it.
 * @param {unknown} file
 * @returns {Tree}
 */
export function fileTree(file) {
  if (!isObject(file)) return rawTree(file, 'a file is not an object');
  const url = safeUrl(file.url_private, { mailto: false });
  const name = typeof file.name === 'string' && file.name !== '' ? file.name : 'file';
  const title = typeof file.title === 'string' && file.title !== '' ? file.title : name;
  const id = typeof file.id === 'string' ? file.id : undefined;
  const link = { href: url ?? undefined, target: '_blank', rel: 'noopener noreferrer' };
  if (url && typeof file.mimetype === 'string' && PREVIEWED_IMAGES.has(file.mimetype)) {
    // The image's own size, when Slack gave it, keeps the timeline from jumping as it loads.
    const size = (/** @type {unknown} */ value) =>
      typeof value === 'number' && Number.isInteger(value) && value > 0 ? String(value) : undefined;
    return el(
      'figure',
      { class: 'file file-image', 'data-testid': 'file', 'data-file-id': id },
      el('figcaption', { class: 'file-title' }, title),
      el(
        'a',
        { ...link, class: 'file-open', title: `Open ${title}`, 'data-testid': 'file-open' },
        el('img', {
          class: 'file-img',
          src: url,
          alt: typeof file.alt_txt === 'string' && file.alt_txt !== '' ? file.alt_txt : title,
          width: size(file.original_w),
          height: size(file.original_h),
          loading: 'lazy',
          referrerpolicy: 'no-referrer',
          'data-testid': 'file-image',
        }),
      ),
    );
  }
  const kind =
    typeof file.pretty_type === 'string' && file.pretty_type !== ''
      ? file.pretty_type
      : typeof file.filetype === 'string'
        ? file.filetype
        : 'File';
  // Anything else is a card, as Slack's client draws one: its kind and size, and a download button.
  const download = safeUrl(file.url_private_download, { mailto: false }) ?? url;
  const bytes = typeof file.size === 'number' && Number.isInteger(file.size) && file.size >= 0 ? file.size : undefined;
  return el(
    'div',
    { class: 'file file-card', 'data-testid': 'file', 'data-file-id': id },
    el('div', { class: 'file-icon', 'aria-hidden': 'true' }, kind.slice(0, 4).toUpperCase()),
    el(
      'div',
      { class: 'file-meta' },
      url ? el('a', { ...link, class: 'file-name' }, title) : el('span', { class: 'file-name' }, title),
      el('div', { class: 'file-kind' }, bytes === undefined ? kind : `${kind} · ${formatBytes(bytes)}`),
    ),
    download
      ? el(
          'a',
          {
            class: 'file-download',
            href: download,
            download: name,
            rel: 'noopener noreferrer',
            title: `Download ${name}`,
            'data-testid': 'file-download',
          },
          'Download',
        )
      : null,
  );
}

/**
 * A file size as Slack's client words it (`812 B`, `14 kB`, `2.3 MB`).
 * @param {number} bytes
 */
function formatBytes(bytes) {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

const VOID_TAGS = new Set(['img', 'hr', 'br']);

/**
 * The tree as HTML (for Node's tests and anything that wants a string): text escaped, `{ html }` as given.
 * @param {Child} child
 * @returns {string}
 */
export function toHtml(child) {
  if (child === null) return '';
  if (typeof child === 'string') return escapeHtml(child);
  if (!('tag' in child)) return child.html;
  const attrs = Object.entries(child.attrs)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  if (VOID_TAGS.has(child.tag)) return `<${child.tag}${attrs}>`;
  return `<${child.tag}${attrs}>${child.children.map(toHtml).join('')}</${child.tag}>`;
}
