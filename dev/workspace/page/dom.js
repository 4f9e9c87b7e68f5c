// @ts-check
/*
 * Building the page's elements. Text goes in with textContent; HTML only from this page's own renderers
 * (mrkdwn.js, blocks.js), which escape everything they are given.
 */

/**
 * The element with this id (the page's fixed skeleton in index.html).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found;
}

/**
 * @typedef {Node | string | number | null | undefined | false} HChild
 */

/**
 * Creates an element: h('div', { class: 'x', dataset: {…}, text: '…' }, ...children).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [props]
 * @param {Array<HChild | HChild[]>} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
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

/**
 * Turns an HTML string built by this page's renderers (escaped text + our own tags) into nodes.
 * @param {string} html
 */
export function fromHtml(html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

/**
 * What the page does with the live parts of a tree: images that load, buttons that are clicked, menus chosen in.
 * @typedef {{
 *   image(img: HTMLImageElement): void,
 *   button(button: HTMLButtonElement, action: import('./blocks.js').ButtonAction): void,
 *   select?(select: HTMLSelectElement, action: import('./blocks.js').SelectAction): void,
 * }} TreeHooks
 */

/**
 * A tree from blocks.js as elements.
 * @param {import('./blocks.js').Child} child
 * @param {TreeHooks} hooks
 * @returns {Node | null}
 */
export function build(child, hooks) {
  if (child === null) return null;
  if (typeof child === 'string') return document.createTextNode(child);
  if (!('tag' in child)) return fromHtml(child.html);
  const el = document.createElement(child.tag);
  for (const [name, value] of Object.entries(child.attrs)) {
    if (value !== undefined) el.setAttribute(name, value);
  }
  for (const part of child.children) {
    const node = build(part, hooks);
    if (node) el.append(node);
  }
  if (el instanceof HTMLImageElement) hooks.image(el);
  if (el instanceof HTMLButtonElement && child.action) hooks.button(el, child.action);
  if (el instanceof HTMLSelectElement && child.select) hooks.select?.(el, child.select);
  return el;
}
