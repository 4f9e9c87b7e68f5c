// @ts-check
/*
 * The local workspace page: a small Slack-like client for the bot running against local stand-ins.
 * Browser ES modules, no build step, no libraries; type-checked by `npm run typecheck` (JSDoc, tsconfig.json
 * here). It only talks to the workspace server's /api/*. This module holds the state and the screen; the
 * renderers (mrkdwn.js, blocks.js) are pure and unit-tested in Node.
 *
 * Safety rule: everything shown comes from the API (bot output, what people typed). Text is put into the
 * page with textContent, except mrkdwn and plain_text, which renderMrkdwn()/plainHtml() turn into HTML: they
 * HTML-escape every piece of text and only ever add their own tags.
 */
import { errorText, getJson, postJson } from './api.js';
import { attachmentTree, blockTree, fileTree, mrkdwnTree, rawTree } from './blocks.js';
import { clock, localeDate, relativeDay } from './dates.js';
import { $, build, fromHtml, h } from './dom.js';
import { isObject } from './html.js';
import { watchTimeline } from './live.js';
import { checkEntered, modalTree } from './modal.js';
import { plainHtml } from './mrkdwn.js';

const BOT_NAME = 'Treasury Bot';
const HINTS_KEY = 'treasury-workspace.hints-dismissed';
const SESSION_KEY = 'treasury-workspace.view';

/**
 * @param {Storage} storage
 * @param {string} key
 */
function storageGet(storage, key) {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * @param {Storage} storage
 * @param {string} key
 * @param {string | null} value
 */
function storageSet(storage, key, value) {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    /* private mode or disabled storage: nothing to remember */
  }
}

// ---------------------------------------------------------------------------------------------------------
// State

/**
 * What /api/workspace and /api/timeline send (checked where it matters: ids are strings).
 * @typedef {{ id: string, name: string, title?: string }} User
 * @typedef {{ id: string, handle: string, name?: string, members: string[] }} Group
 * @typedef {{ id: string, name: string, kind?: string, topic?: string, members?: unknown }} Channel
 * @typedef {{
 *   users: User[], channels: Channel[], groups?: Group[], team?: { name?: string }, defaultUser?: string,
 *   defaultChannel?: string, hints?: unknown, mode?: string, shortcuts?: unknown,
 * }} Workspace
 * @typedef {{
 *   id: string, channel: string, ts?: string, threadTs?: string, at: number, author?: string, userId?: string,
 *   text?: unknown, blocks?: unknown, attachments?: unknown, files?: unknown, ephemeral?: boolean, edited?: boolean,
 * }} Entry
 * @typedef {import('./modal.js').Modal} Modal
 * @typedef {{ id: string, view: Record<string, any>, hash?: unknown }} Home
 */

/** The entry id the Home tab's buttons carry (its blocks are drawn like a message's). */
const HOME_ENTRY = 'home';

const state = {
  /** @type {Workspace} */
  ws: { users: [], channels: [] },
  /** @type {Map<string, User>} */
  usersById: new Map(),
  /** @type {Map<string, Channel>} */
  channelsById: new Map(),
  /** User groups, by id (`<!subteam^S…>` mentions). @type {Map<string, Group>} */
  groupsById: new Map(),
  /** The person viewing ('' until the workspace loaded). */
  user: '',
  channel: '',
  /** What the main area shows: a conversation, or the app's Home tab. @type {'channel' | 'home'} */
  view: /** @type {'channel' | 'home'} */ ('channel'),
  /** The person's Home tab as the app last published it (null until it did). @type {Home | null} */
  home: /** @type {Home | null} */ (null),
  /** @type {Entry[]} */
  entries: [],
  /** @type {number | null} */
  version: null,
  /** The user the entries were fetched for (null until the first timeline). @type {string | null} */
  loadedFor: /** @type {string | null} */ (null),
  /** @type {Set<string>} */
  seen: new Set(),
  /** @type {Set<string>} */
  unread: new Set(),
  /** @type {Set<string>} */
  expandedThreads: new Set(),
  /** @type {Set<string>} */
  pendingActions: new Set(),
  /** The person's open modals, bottom of the stack first (/api/timeline): the last one is shown. @type {Modal[]} */
  modals: /** @type {Modal[]} */ ([]),
  /**
   * The modal on screen: which view and version it draws (redrawn only when they change, so typing survives the
   * timeline's refreshes), and its form.
   * @type {{ id: string, hash: unknown, form: HTMLFormElement, busy: boolean, errors: Record<string, string>, enteredWithErrors: import('./modal.js').Entered } | null}
   */
  shownModal:
    /** @type {{ id: string, hash: unknown, form: HTMLFormElement, busy: boolean, errors: Record<string, string>, enteredWithErrors: import('./modal.js').Entered } | null} */ (
      null
    ),
  stickToBottom: true,
  /** The top-level entries of the last render, to tell when new ones arrive. */
  renderedTop: { key: '', ids: /** @type {Set<string> | null} */ (null) },
  /** @type {string[]} */
  history: [],
  historyIndex: -1,
  sending: false,
};

/** The page's fixed elements (index.html). */
function findElements() {
  return {
    teamName: $('team-name'),
    teamSub: $('team-sub'),
    botConnection: $('bot-connection'),
    channelList: $('channel-list'),
    dmList: $('dm-list'),
    channelHash: /** @type {HTMLElement} */ (document.querySelector('#channel-name .hash')),
    userSwitcher: /** @type {HTMLSelectElement} */ ($('user-switcher')),
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
    composerForm: /** @type {HTMLFormElement} */ ($('composer-form')),
    composer: /** @type {HTMLInputElement} */ ($('composer')),
    notice: $('composer-notice'),
    dialog: /** @type {HTMLDialogElement} */ ($('confirm-dialog')),
    modalRoot: $('modal-root'),
    homeTab: $('home-tab'),
    home: $('home'),
    timelineWrap: $('timeline-wrap'),
  };
}

/** @type {ReturnType<typeof findElements>} */
let els;

/** @typedef {{ id: string, label?: string, description?: string, group?: unknown, choices?: unknown }} Control */

// ---------------------------------------------------------------------------------------------------------
// Rendering: sidebar and header

/** The conversations the current person is in: every public channel, and the private ones and DMs they belong to. */
function visibleChannels() {
  return state.ws.channels.filter((channel) => !Array.isArray(channel.members) || channel.members.includes(state.user));
}

const isDm = (/** @type {Channel | undefined} */ channel) => channel?.kind === 'im';

const LOCK_SVG =
  '<svg viewBox="0 0 16 16" width="11" height="11" aria-hidden="true"><rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor"/><path d="M5.2 7V5a2.8 2.8 0 0 1 5.6 0v2" fill="none" stroke="currentColor" stroke-width="1.6"/></svg>';

/** What stands before a conversation's name in text: `#` for a public channel, nothing for a private one or a DM. */
/** @param {Channel | undefined} channel */
function channelSigil(channel) {
  return channel?.kind === 'private' || isDm(channel) ? '' : '#';
}

/** The same as shown: `#`, a lock for a private channel, nothing for a DM. */
/** @param {Channel | undefined} channel */
function sigilNode(channel) {
  return channel?.kind === 'private' ? fromHtml(LOCK_SVG) : channelSigil(channel);
}

/** @param {Channel} channel */
function channelButton(channel) {
  const active = state.view === 'channel' && channel.id === state.channel;
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
    unread
      ? h('span', {
          class: 'unread-dot',
          'data-testid': 'unread-dot',
          title: 'New messages',
          'aria-label': 'new messages',
        })
      : null,
  );
  return h('li', {}, button);
}

function renderChannels() {
  const visible = visibleChannels();
  const onHome = state.view === 'home';
  els.homeTab.classList.toggle('active', onHome);
  if (onHome) els.homeTab.setAttribute('aria-current', 'page');
  else els.homeTab.removeAttribute('aria-current');
  els.channelList.replaceChildren(...visible.filter((channel) => !isDm(channel)).map(channelButton));
  els.dmList.replaceChildren(...visible.filter(isDm).map(channelButton));
}

/** The handles of the user groups a person is in (`@treasury-leads`), as Slack's profile shows them. */
function groupsOf(/** @type {string} */ userId) {
  return [...state.groupsById.values()].filter((group) => group.members.includes(userId)).map((g) => `@${g.handle}`);
}

function renderUser() {
  const user = state.usersById.get(state.user);
  els.userSwitcher.value = state.user;
  const title = user ? (user.title ? `${user.name} · ${user.title}` : user.name) : '';
  const groups = user ? groupsOf(user.id) : [];
  const membership = groups.length > 0 ? `member of ${groups.join(', ')}` : '';
  els.userTitle.replaceChildren(
    ...(title ? [title] : []),
    ...(membership ? [h('div', { class: 'user-groups', 'data-testid': 'user-groups', text: membership })] : []),
  );
  els.userSwitcher.title = [title, membership].filter(Boolean).join(' · ');
}

function renderHeader() {
  if (state.view === 'home') {
    els.channelHash.replaceChildren();
    els.channelNameText.textContent = `${BOT_NAME} · Home`;
    els.channelTopic.textContent = 'Your own view: balances, open alerts, quotes waiting for you, your requests';
    els.channelTopic.title = els.channelTopic.textContent;
    document.title = `Home — ${state.ws?.team?.name ?? 'Workspace'}`;
    return;
  }
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

/** @param {unknown} id */
function colorFor(id) {
  let hash = 0;
  for (const c of String(id)) hash = (hash * 31 + (c.codePointAt(0) ?? 0)) >>> 0;
  return AVATAR_COLORS[hash % AVATAR_COLORS.length];
}

/**
 * @param {Entry} entry
 * @returns {{ name: string, initial: string, color: string | undefined, bot?: boolean, system?: boolean, title?: string | undefined }}
 */
function authorOf(entry) {
  if (entry.author === 'bot') return { name: BOT_NAME, initial: 'T', color: '#0B5C69', bot: true };
  if (entry.author === 'system') return { name: 'Workspace', initial: 'W', color: '#868686', system: true };
  const user = entry.userId === undefined ? undefined : state.usersById.get(entry.userId);
  const name = user?.name ?? entry.userId ?? 'Someone';
  return {
    name,
    initial: [...name.trim()][0]?.toUpperCase() ?? '?',
    color: colorFor(entry.userId ?? name),
    title: user?.title,
  };
}

const EYE_SVG =
  '<svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true"><path d="M10 4.5c-4.2 0-7.2 3.3-8.2 5.5 1 2.2 4 5.5 8.2 5.5s7.2-3.3 8.2-5.5c-1-2.2-4-5.5-8.2-5.5Z" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="10" cy="10" r="2.6" fill="currentColor"/></svg>';

/**
 * Who the ids in mentions are, for the person viewing.
 * @returns {import('./mrkdwn.js').Directory}
 */
function directory() {
  return { users: state.usersById, channels: state.channelsById, groups: state.groupsById, me: state.user };
}

/**
 * A renderer's tree as elements: images keep the timeline at the bottom as they load, buttons act.
 * @param {import('./blocks.js').Tree} tree
 * @returns {Node}
 */
function live(tree) {
  const node = build(tree, {
    image: (img) => img.addEventListener('load', keepBottom),
    button: (button, action) => {
      if (state.pendingActions.has(action.key)) button.disabled = true;
      button.addEventListener('click', () => (action.entryId === HOME_ENTRY ? onHomeButton(action) : onButton(action)));
    },
    select: (select, action) => {
      if (state.pendingActions.has(action.key)) select.disabled = true;
      select.addEventListener('change', () => onSelect(action, select));
    },
  });
  return node ?? document.createTextNode('');
}

/** @param {Entry} entry */
function bodyNode(entry) {
  const body = h('div', { class: 'msg-body', 'data-testid': 'message-body' });
  const blocks = entry.blocks;
  if (Array.isArray(blocks) && blocks.length > 0) {
    const context = { entryId: entry.id, directory: directory() };
    for (const block of blocks) body.append(live(blockTree(block, context)));
  } else if (blocks !== undefined && blocks !== null && !Array.isArray(blocks)) {
    body.append(live(rawTree(blocks, 'blocks is not a list')));
  } else if (typeof entry.text === 'string' && entry.text !== '') {
    if (entry.author === 'user') {
      // What a person typed is shown as typed.
      body.append(h('div', { class: 'typed', text: entry.text }));
    } else {
      body.append(live(mrkdwnTree(entry.text, directory())));
    }
  } else if (
    (!Array.isArray(entry.attachments) || entry.attachments.length === 0) &&
    (!Array.isArray(entry.files) || entry.files.length === 0)
  ) {
    body.append(h('div', { class: 'msg-empty', text: '(no text)' }));
  }
  // A file share: each file below the text, an image as its preview (Slack's client draws them so).
  if (Array.isArray(entry.files)) {
    for (const file of entry.files) body.append(live(fileTree(file)));
  } else if (entry.files !== undefined && entry.files !== null) {
    body.append(live(rawTree(entry.files, 'files is not a list')));
  }
  // Slack's client draws a message's attachments below its blocks, each beside its colour bar.
  if (Array.isArray(entry.attachments)) {
    const context = { entryId: entry.id, directory: directory() };
    entry.attachments.forEach((attachment, i) => {
      body.append(live(attachmentTree(attachment, i + 1, context)));
    });
  } else if (entry.attachments !== undefined && entry.attachments !== null) {
    body.append(live(rawTree(entry.attachments, 'attachments is not a list')));
  }
  return body;
}

/**
 * @param {Entry} entry
 * @param {{ reply?: boolean, orphanReply?: boolean }} [where]
 */
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
    reply || orphanReply
      ? h('span', {
          class: 'thread-marker',
          'data-testid': 'thread-marker',
          text: orphanReply ? 'replied in a thread' : 'in thread',
        })
      : null,
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

/**
 * @param {Entry} parent
 * @param {Entry[]} replies
 */
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
    faces.push(
      h('span', {
        class: 'mini-avatar',
        style: `background:${author.color}`,
        'aria-hidden': 'true',
        text: author.initial,
      }),
    );
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
    h('span', {
      class: 'thread-count',
      text: expanded ? 'Hide replies' : `${count} ${count === 1 ? 'reply' : 'replies'}`,
    }),
    h('span', {
      class: 'thread-last',
      text: expanded ? `${count} ${count === 1 ? 'reply' : 'replies'}` : `Last reply ${clock(last?.at)}`,
    }),
  );
  const thread = h('div', { class: 'thread', 'data-testid': 'thread' }, toggle);
  if (expanded) {
    thread.append(
      h(
        'div',
        { class: 'thread-replies', 'data-testid': 'thread-replies' },
        replies.map((reply) => messageNode(reply, { reply: true })),
      ),
    );
  }
  return thread;
}

/** @param {number} ms */
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
      text: isDm(channel)
        ? `This is the very beginning of your direct message with ${channel?.name}`
        : `This is the very beginning of ${channelSigil(channel)}${channel?.name ?? ''}`,
    }),
    h('div', { class: 'empty-text', text: channel?.topic ? channel.topic : 'Nothing here yet.' }),
    h(
      'div',
      { class: 'empty-text' },
      'Type ',
      h('code', { text: '/treasury help' }),
      ' below to see what the bot can do.',
    ),
  );
}

const isReply = (/** @type {Entry} */ entry) =>
  typeof entry.threadTs === 'string' && entry.threadTs !== '' && entry.threadTs !== entry.ts;

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

/**
 * The message groups drawn last, by entry id, with what they were drawn from. An update elsewhere in the channel
 * keeps the elements of a message that did not change, as Slack's client does: a person's text selection, a menu
 * they are choosing in, and an element a test holds stay where they are.
 * @type {Map<string, { drawnFrom: string, node: HTMLElement }>}
 */
const renderedGroups = new Map();

/**
 * A message with its thread, drawn anew only when what it is drawn from changed.
 * @param {Entry} entry
 * @param {Entry[] | undefined} thread
 */
function messageGroup(entry, thread) {
  const drawnFrom = JSON.stringify([
    entry,
    thread ?? null,
    state.user,
    [...state.pendingActions],
    [...state.expandedThreads],
  ]);
  const drawn = renderedGroups.get(entry.id);
  if (drawn && drawn.drawnFrom === drawnFrom) return drawn.node;
  const group = h('div', { class: 'msg-group' }, messageNode(entry, { orphanReply: isReply(entry) }));
  if (thread) group.append(threadNode(entry, thread));
  renderedGroups.set(entry.id, { drawnFrom, node: group });
  return group;
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
    fragment.append(messageGroup(entry, replies.get(entry.ts)));
  }
  timeline.replaceChildren(fragment);
  for (const id of renderedGroups.keys()) if (!top.some((entry) => entry.id === id)) renderedGroups.delete(id);

  // "New messages" when a message (not a reply tucked in a thread) arrived below while reading further up.
  const rendered = state.renderedTop;
  const sameView = rendered.key === `${state.user}\u0000${state.channel}` && state.loadedFor !== null;
  const renderedIds = rendered.ids;
  const arrived = sameView && renderedIds !== null && top.some((entry) => !renderedIds.has(entry.id));
  state.renderedTop = {
    key: `${state.user}\u0000${state.channel}`,
    ids: state.loadedFor === null ? null : new Set(top.map((entry) => entry.id)),
  };

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
/** @type {ReturnType<typeof setTimeout> | undefined} */
let retryTimer;

/**
 * @param {unknown} entry
 * @returns {entry is Entry}
 */
function validEntry(entry) {
  return isObject(entry) && typeof entry.id === 'string' && typeof entry.channel === 'string';
}

/**
 * @param {any} data what /api/timeline sent
 * @param {string} user
 */
function applyTimeline(data, user) {
  const entries = Array.isArray(data?.entries) ? data.entries.filter(validEntry) : [];
  if (state.loadedFor !== user) {
    state.seen = new Set(entries.map((/** @type {Entry} */ entry) => entry.id));
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
  state.modals = Array.isArray(data?.modals)
    ? data.modals.filter((/** @type {unknown} */ m) => isObject(m) && typeof m.id === 'string' && isObject(m.view))
    : [];
  const home = data?.home;
  state.home = isObject(home) && typeof home.id === 'string' && isObject(home.view) ? /** @type {Home} */ (home) : null;
  renderChannels();
  renderTimeline();
  renderHome();
  renderModal();
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

/** @param {string | null} text */
function showBanner(text) {
  els.banner.hidden = !text;
  els.banner.textContent = text ?? '';
}

// ---------------------------------------------------------------------------------------------------------
// Switching

function rememberView() {
  storageSet(
    sessionStorage,
    SESSION_KEY,
    JSON.stringify({ user: state.user, channel: state.channel, view: state.view }),
  );
}

/** Shows the conversation or the Home tab in the main area. */
function renderView() {
  const onHome = state.view === 'home';
  els.home.hidden = !onHome;
  els.timelineWrap.hidden = onHome;
  els.composerForm.hidden = onHome;
  if (onHome) els.hints.hidden = true;
  else renderHints();
  renderHeader();
}

/** @param {string} channelId */
function switchChannel(channelId) {
  if (channelId === state.channel && state.view === 'channel') return;
  state.view = 'channel';
  state.channel = channelId;
  state.unread.delete(channelId);
  els.newMessages.hidden = true;
  rememberView();
  renderChannels();
  renderView();
  renderTimeline({ toBottom: true });
  setNotice(null);
  els.composer.focus();
  refreshTimeline();
}

/**
 * Opens the app's Home tab for the person viewing, as Slack's client does: the app hears `app_home_opened` and
 * publishes the tab (views.publish); the page draws what was published (it arrives with the timeline).
 */
async function openHome() {
  const user = state.user;
  state.view = 'home';
  rememberView();
  renderChannels();
  renderView();
  renderHome();
  const result = await postJson('/api/home-opened', { user });
  if (!result.ok && user === state.user)
    showHomeProblem(`The Home tab could not be opened: ${errorText(result, 'the server refused it.')}`);
}

/** @param {string} userId */
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
  state.modals = [];
  state.home = null;
  state.unread.clear();
  state.expandedThreads.clear();
  renderModal();
  rememberView();
  renderUser();
  renderChannels();
  renderTimeline({ toBottom: true });
  setNotice(null);
  refreshTimeline();
  // Another person's Home is theirs: opening it again is what makes the app publish it for them.
  if (state.view === 'home') openHome();
}

// ---------------------------------------------------------------------------------------------------------
// Composer

/** @type {ReturnType<typeof setTimeout> | undefined} */
let noticeTimer;

/**
 * @param {string | null} text
 * @param {'info' | 'error'} [kind]
 */
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

/** @param {KeyboardEvent} event */
function onComposerKey(event) {
  if (event.key === 'ArrowUp' && state.history.length > 0 && (els.composer.value === '' || state.historyIndex >= 0)) {
    event.preventDefault();
    state.historyIndex = state.historyIndex < 0 ? state.history.length - 1 : Math.max(0, state.historyIndex - 1);
    els.composer.value = state.history[state.historyIndex] ?? '';
  } else if (event.key === 'ArrowDown' && state.historyIndex >= 0) {
    event.preventDefault();
    state.historyIndex += 1;
    if (state.historyIndex >= state.history.length) {
      state.historyIndex = -1;
      els.composer.value = '';
    } else {
      els.composer.value = state.history[state.historyIndex] ?? '';
    }
  } else if (event.key === 'Escape') {
    setNotice(null);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Shortcuts: the app's global shortcuts (its manifest's), from the composer's ⚡ button as in Slack

/** @returns {Array<{ callbackId: string, name: string, description: string }>} */
function globalShortcuts() {
  const list = Array.isArray(state.ws.shortcuts) ? state.ws.shortcuts : [];
  return list.filter((s) => isObject(s) && typeof s.callbackId === 'string' && typeof s.name === 'string');
}

function renderShortcuts() {
  const button = $('composer-shortcuts');
  const menu = $('shortcuts-menu');
  const shortcuts = globalShortcuts();
  button.hidden = shortcuts.length === 0;
  menu.replaceChildren(
    ...shortcuts.map((shortcut) =>
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          class: 'shortcut',
          'data-testid': 'shortcut',
          'data-callback-id': shortcut.callbackId,
          title: String(shortcut.description ?? ''),
          onclick: () => runShortcut(shortcut.callbackId),
        },
        shortcut.name,
      ),
    ),
  );
}

/** @param {boolean} open */
function showShortcutsMenu(open) {
  $('shortcuts-menu').hidden = !open;
  $('composer-shortcuts').setAttribute('aria-expanded', open ? 'true' : 'false');
}

/** @param {string} callbackId */
async function runShortcut(callbackId) {
  showShortcutsMenu(false);
  const result = await postJson('/api/shortcut', { user: state.user, callbackId });
  if (!result.ok) setNotice(errorText(result, 'The shortcut did not go through.'), 'error');
  refreshTimeline();
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

/**
 * Slack's confirmation dialog for a button; resolves to whether the person confirmed.
 * @param {Record<string, any>} confirm
 * @returns {Promise<boolean>}
 */
function confirmDialog(confirm) {
  const dialog = els.dialog;
  const text = (/** @type {unknown} */ obj, /** @type {string} */ fallback) =>
    isObject(obj) && typeof obj.text === 'string' && obj.text ? obj.text : fallback;
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
    const finish = (/** @type {boolean} */ answer) => {
      yes.removeEventListener('click', onYes);
      no.removeEventListener('click', onNo);
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('click', onBackdrop);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const onYes = () => finish(true);
    const onNo = () => finish(false);
    const onCancel = (/** @type {Event} */ event) => {
      event.preventDefault();
      finish(false);
    };
    const onBackdrop = (/** @type {MouseEvent} */ event) => {
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

/**
 * @param {string} key
 * @param {boolean} pending
 */
function setPending(key, pending) {
  if (pending) state.pendingActions.add(key);
  else state.pendingActions.delete(key);
  const controls = /** @type {NodeListOf<HTMLButtonElement | HTMLSelectElement>} */ (
    document.querySelectorAll('button[data-action-key], select[data-action-key]')
  );
  for (const control of controls) {
    if (control.dataset.actionKey === key) control.disabled = pending;
  }
}

/**
 * @param {import('./blocks.js').ButtonAction} action
 */
async function onButton({ key, entryId, element, block, url, label, attachmentId }) {
  if (url) {
    window.open(url, '_blank', 'noopener,noreferrer');
    return;
  }
  if (state.pendingActions.has(key)) return;
  if (isObject(element.confirm)) {
    const confirmed = await confirmDialog(element.confirm);
    if (!confirmed) return;
  }
  setPending(key, true);
  const started = Date.now();
  // blockId is '' when the block has none; value is left out when the button has none (as in Slack's payload).
  /** @type {{ user: string, entryId: string, blockId: string, actionId: string, value?: string, attachmentId?: number }} */
  const request = {
    user: state.user,
    entryId,
    blockId: typeof block.block_id === 'string' ? block.block_id : '',
    actionId: typeof element.action_id === 'string' ? element.action_id : '',
  };
  if (typeof element.value === 'string') request.value = element.value;
  // A control in an attachment: Slack's payload names the attachment.
  if (attachmentId !== undefined) request.attachmentId = attachmentId;
  const result = await postJson('/api/action', request);
  // Keep the button visibly disabled for a moment even when the answer is instant.
  const wait = 300 - (Date.now() - started);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  setPending(key, false);
  if (!result.ok) setNotice(`“${label}” did not go through: ${errorText(result, 'the server refused it.')}`, 'error');
}

/**
 * An option chosen in a static menu: sent as Slack's client sends it (block_actions with the option).
 * @param {import('./blocks.js').SelectAction} action
 * @param {HTMLSelectElement} select
 */
async function onSelect({ key, entryId, element, block, attachmentId }, select) {
  const selectedValue = select.value;
  if (selectedValue === '' || state.pendingActions.has(key)) return;
  if (isObject(element.confirm) && !(await confirmDialog(element.confirm))) {
    select.value = '';
    return;
  }
  setPending(key, true);
  const result = await postJson('/api/action', {
    user: state.user,
    entryId,
    blockId: typeof block.block_id === 'string' ? block.block_id : '',
    actionId: typeof element.action_id === 'string' ? element.action_id : '',
    selectedValue,
    ...(attachmentId !== undefined ? { attachmentId } : {}),
  });
  setPending(key, false);
  if (!result.ok) setNotice(`The choice did not go through: ${errorText(result, 'the server refused it.')}`, 'error');
}

// ---------------------------------------------------------------------------------------------------------
// The Home tab: the view the app published for the person viewing, drawn like a message's blocks

/** @type {string | null} */
let homeProblem = null;

/** @param {string | null} text */
function showHomeProblem(text) {
  homeProblem = text;
  renderHome();
}

function renderHome() {
  if (state.view !== 'home') return;
  const home = state.home;
  const body = h('div', { class: 'home-body', 'data-testid': 'home-body' });
  if (homeProblem) body.append(h('div', { class: 'home-problem', role: 'alert', text: homeProblem }));
  if (!home) {
    body.append(
      h('div', {
        class: 'home-waiting',
        'data-testid': 'home-waiting',
        text: 'Opening your Home tab… the app publishes it (views.publish) when you open it.',
      }),
    );
  } else {
    const blocks = Array.isArray(home.view.blocks) ? home.view.blocks : [];
    const context = { entryId: HOME_ENTRY, directory: directory() };
    for (const block of blocks) body.append(live(blockTree(block, context)));
    if (blocks.length === 0) body.append(h('div', { class: 'msg-empty', text: '(the Home tab has no blocks)' }));
  }
  els.home.replaceChildren(body);
}

/**
 * A button clicked in the Home tab: sent as Slack sends it from a view (no channel, no response_url); the app
 * answers by publishing the tab again.
 * @param {import('./blocks.js').ButtonAction} action
 */
async function onHomeButton({ key, element, block, url, label }) {
  if (url) {
    window.open(url, '_blank', 'noopener,noreferrer');
    return;
  }
  if (state.pendingActions.has(key)) return;
  if (isObject(element.confirm) && !(await confirmDialog(element.confirm))) return;
  setPending(key, true);
  const started = Date.now();
  /** @type {{ user: string, blockId: string, actionId: string, value?: string }} */
  const request = {
    user: state.user,
    blockId: typeof block.block_id === 'string' ? block.block_id : '',
    actionId: typeof element.action_id === 'string' ? element.action_id : '',
  };
  if (typeof element.value === 'string') request.value = element.value;
  const result = await postJson('/api/home-action', request);
  const wait = 300 - (Date.now() - started);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  setPending(key, false);
  showHomeProblem(result.ok ? null : `“${label}” did not go through: ${errorText(result, 'the server refused it.')}`);
}

/**
 * A link to a message of this workspace (chat.getPermalink points them at this page: `#archives/<channel>/p<ts>`)
 * opens that conversation here instead of a new tab.
 * @param {string} href
 * @returns {boolean} whether it was one
 */
function openPermalink(href) {
  let url;
  try {
    url = new URL(href, location.href);
  } catch {
    return false;
  }
  if (url.origin !== location.origin) return false;
  const match = /^#archives\/([A-Z0-9]+)\/p\d+/.exec(url.hash);
  const channelId = match?.[1];
  if (!channelId || !visibleChannels().some((channel) => channel.id === channelId)) return false;
  switchChannel(channelId);
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// Modals: the one on top of the person's stack, over everything, until it is submitted or closed

/**
 * What is entered in the form now, by block_id then action_id.
 * @param {HTMLFormElement} form
 * @returns {import('./modal.js').Entered}
 */
function enteredIn(form) {
  /** @type {import('./modal.js').Entered} */
  const entered = {};
  const fields = /** @type {NodeListOf<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>} */ (
    form.querySelectorAll('[data-block-id][data-action-id]')
  );
  for (const field of fields) {
    const blockId = field.dataset.blockId ?? '';
    const actionId = field.dataset.actionId ?? '';
    entered[blockId] = { ...entered[blockId], [actionId]: field.value };
  }
  return entered;
}

/**
 * Where the caret is in the modal: which field, and the selection in it (kept when the view is redrawn).
 * @typedef {{ blockId: string, actionId: string, start: number | null, end: number | null }} ModalFocus
 */

/**
 * The field of the form that has the focus, if any.
 * @param {HTMLFormElement} form
 * @returns {ModalFocus | undefined}
 */
function focusIn(form) {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !form.contains(active) || active.dataset.blockId === undefined)
    return undefined;
  const text = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement ? active : null;
  return {
    blockId: active.dataset.blockId,
    actionId: active.dataset.actionId ?? '',
    start: text ? text.selectionStart : null,
    end: text ? text.selectionEnd : null,
  };
}

/**
 * Sends `block_actions` for a field of the modal whose input block dispatches (a menu chosen, a character typed,
 * Enter pressed), with everything entered now; the app answers by updating the view.
 * @param {Modal} modal
 * @param {string} blockId
 * @param {string} actionId
 * @param {string} [trigger]
 */
async function sendViewAction(modal, blockId, actionId, trigger) {
  const shown = state.shownModal;
  if (!shown || shown.id !== modal.id) return;
  const result = await postJson('/api/view-action', {
    user: state.user,
    viewId: modal.id,
    blockId,
    actionId,
    ...(trigger ? { trigger } : {}),
    values: enteredIn(shown.form),
  });
  const now = state.shownModal;
  if (!result.ok && now?.id === modal.id) {
    const current = state.modals.find((m) => m.id === modal.id) ?? modal;
    drawModal(current, {
      entered: enteredIn(now.form),
      focus: focusIn(now.form),
      problem: errorText(result, 'The bot did not take it.'),
    });
  }
  refreshTimeline();
}

/**
 * Draws the modal (again), keeping what was typed (and, with `focus`, where the caret was).
 * @param {Modal} modal
 * @param {{ errors?: Record<string, string>, entered?: import('./modal.js').Entered, problem?: string | null, busy?: boolean, focus?: ModalFocus | undefined }} [options]
 */
function drawModal(modal, options = {}) {
  const node = build(modalTree(modal, { ...options, directory: directory() }), {
    image: () => {},
    button: (button) =>
      button.addEventListener('click', () =>
        drawModal(modal, {
          entered: enteredIn(form),
          problem: 'Buttons inside a modal are not sent in this workspace.',
        }),
      ),
  });
  const form = /** @type {HTMLFormElement} */ (node && /** @type {Element} */ (node).querySelector('form'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submitModal(modal);
  });
  for (const closer of form.querySelectorAll('[data-modal-close]')) {
    closer.addEventListener('click', () => closeModal(modal));
  }
  // Inputs whose block dispatches send block_actions as the person uses them (modal.js: dispatchTriggers).
  for (const field of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll('[data-dispatch]'))) {
    const triggers = (field.dataset.dispatch ?? '').split(' ');
    const blockId = field.dataset.blockId ?? '';
    const actionId = field.dataset.actionId ?? '';
    if (triggers.includes('on_choice'))
      field.addEventListener('change', () => sendViewAction(modal, blockId, actionId));
    if (triggers.includes('on_character_entered'))
      field.addEventListener('input', () => sendViewAction(modal, blockId, actionId, 'on_character_entered'));
    if (triggers.includes('on_enter_pressed'))
      field.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter' || field instanceof HTMLTextAreaElement) return;
        // Enter in an input that dispatches sends it instead of submitting the form.
        event.preventDefault();
        sendViewAction(modal, blockId, actionId, 'on_enter_pressed');
      });
  }
  els.modalRoot.replaceChildren(node ?? '');
  els.modalRoot.hidden = false;
  state.shownModal = {
    id: modal.id,
    hash: modal.hash,
    form,
    busy: options.busy ?? false,
    errors: options.errors ?? {},
    enteredWithErrors: options.entered ?? {},
  };
  const kept = options.focus
    ? /** @type {HTMLInputElement | null} */ (
        form.querySelector(
          `[data-block-id="${CSS.escape(options.focus.blockId)}"][data-action-id="${CSS.escape(options.focus.actionId)}"]`,
        )
      )
    : null;
  if (kept && options.focus) {
    kept.focus();
    if (options.focus.start !== null && typeof kept.setSelectionRange === 'function')
      kept.setSelectionRange(options.focus.start, options.focus.end ?? options.focus.start);
    return;
  }
  const invalid = /** @type {HTMLElement | null} */ (form.querySelector('[aria-invalid="true"]'));
  const first = /** @type {HTMLElement | null} */ (form.querySelector('.modal-control'));
  (invalid ?? first ?? form.querySelector('[data-testid="modal-submit"]'))?.focus?.();
}

/** Shows the top modal of the person's stack; nothing when none is open. */
function renderModal() {
  const top = state.modals.at(-1);
  const shown = state.shownModal;
  if (!top) {
    if (shown) {
      els.modalRoot.replaceChildren();
      els.modalRoot.hidden = true;
      state.shownModal = null;
    }
    return;
  }
  if (shown && shown.id === top.id && shown.hash === top.hash) return;
  // The same view updated keeps what was typed in the inputs it still has, and the caret, as Slack's client does.
  if (!shown || shown.id !== top.id) return drawModal(top, {});
  const entered = enteredIn(shown.form);
  drawModal(top, { entered, focus: focusIn(shown.form), errors: errorsStillTrue(shown, entered) });
}

/**
 * The errors shown under the inputs that still hold what was refused. An update of the view (a preview the app
 * sent for a character typed before Submit, arriving after the refusal) does not wipe an error the person has not
 * acted on; changing the field does.
 * @param {{ errors: Record<string, string>, enteredWithErrors: import('./modal.js').Entered }} shown
 * @param {import('./modal.js').Entered} entered
 */
function errorsStillTrue(shown, entered) {
  /** @type {Record<string, string>} */
  const kept = {};
  for (const [blockId, error] of Object.entries(shown.errors)) {
    if (JSON.stringify(entered[blockId]) === JSON.stringify(shown.enteredWithErrors[blockId])) kept[blockId] = error;
  }
  return kept;
}

/** @param {Modal} modal */
async function submitModal(modal) {
  const shown = state.shownModal;
  if (!shown || shown.id !== modal.id || shown.busy) return;
  const entered = enteredIn(shown.form);
  const errors = checkEntered(modal.view, entered);
  if (Object.keys(errors).length > 0) {
    drawModal(modal, { errors, entered });
    return;
  }
  drawModal(modal, { entered, busy: true });
  const result = await postJson('/api/view-submission', { user: state.user, viewId: modal.id, values: entered });
  if (state.shownModal?.id !== modal.id) return;
  if (!result.ok) {
    drawModal(modal, { entered, problem: errorText(result, 'The form was not sent.') });
    return;
  }
  const answer = isObject(result.answer) ? result.answer : null;
  if (answer?.response_action === 'errors' && isObject(answer.errors)) {
    drawModal(modal, { entered, errors: /** @type {Record<string, string>} */ (answer.errors) });
    return;
  }
  // Closed (an empty answer), cleared, updated or pushed: the server holds what is open now.
  if (answer === null) state.modals = state.modals.filter((m) => m.id !== modal.id);
  if (answer?.response_action === 'clear') state.modals = [];
  if (answer === null || answer.response_action === 'clear') renderModal();
  else drawModal(modal, { entered });
  refreshTimeline();
}

/** @param {Modal} modal */
async function closeModal(modal) {
  const shown = state.shownModal;
  const entered = shown?.id === modal.id ? enteredIn(shown.form) : {};
  state.modals = state.modals.filter((m) => m.id !== modal.id);
  renderModal();
  const result = await postJson('/api/view-closed', { user: state.user, viewId: modal.id, values: entered });
  if (!result.ok)
    setNotice(`Closing the form did not go through: ${errorText(result, 'the server refused it.')}`, 'error');
  refreshTimeline();
}

// ---------------------------------------------------------------------------------------------------------
// Simulator controls

/** @type {ReturnType<typeof setTimeout> | undefined} */
let controlTimer;

/**
 * @param {string | null} text
 * @param {boolean} [ok]
 */
function setControlStatus(text, ok) {
  clearTimeout(controlTimer);
  els.controlStatus.textContent = text ?? '';
  els.controlStatus.dataset.kind = text ? (ok ? 'ok' : 'error') : '';
  if (text) controlTimer = setTimeout(() => setControlStatus(null), ok ? 8000 : 15000);
}

/** Under each group's heading, in the order the server lists them. */
/**
 * @param {Control[]} controls
 */
function groupedControls(controls) {
  /** @type {Array<{ name: string, controls: Control[] }>} */
  const groups = [];
  for (const control of controls) {
    const name = typeof control.group === 'string' ? control.group : '';
    if (groups.at(-1)?.name !== name) groups.push({ name, controls: [] });
    groups.at(-1)?.controls.push(control);
  }
  return groups;
}

/**
 * Puts a control's choices in its menu, keeping the one picked when it is still there.
 * @param {HTMLSelectElement} menu
 * @param {unknown} choices
 */
function fillChoices(menu, choices) {
  const picked = menu.value;
  const list = Array.isArray(choices)
    ? choices.filter((c) => isObject(c) && typeof c.id === 'string' && typeof c.label === 'string')
    : [];
  menu.replaceChildren(
    ...(list.length === 0
      ? [h('option', { value: '', text: 'Nothing to pick yet' })]
      : list.map((choice) => h('option', { value: choice.id, text: choice.label }))),
  );
  if (list.some((choice) => choice.id === picked)) menu.value = picked;
}

async function loadControls() {
  let controls;
  try {
    controls = await getJson('/api/controls');
  } catch (error) {
    els.controlList.replaceChildren(
      h('div', {
        class: 'side-note',
        text: `Controls unavailable (${error instanceof Error ? error.message : error}).`,
      }),
    );
    return;
  }
  if (!Array.isArray(controls) || controls.length === 0) {
    els.controlList.replaceChildren(h('div', { class: 'side-note', text: 'No controls.' }));
    return;
  }
  /** Menus of the controls that act on one thing picked (a pending row), by control id. */
  /** @type {Map<string, HTMLSelectElement>} */
  const menus = new Map();
  /** Asks the server what there is to pick now, keeping each menu's choice while it is still there. */
  const refreshChoices = async () => {
    if (menus.size === 0) return;
    let fresh;
    try {
      fresh = await getJson('/api/controls');
    } catch {
      return;
    }
    for (const control of Array.isArray(fresh) ? fresh : []) {
      const menu = isObject(control) ? menus.get(control.id) : undefined;
      if (menu) fillChoices(menu, control.choices);
    }
  };
  const controlNode = (/** @type {Control} */ control) => {
    const button = h('button', {
      type: 'button',
      class: 'control-button',
      'data-testid': `control-${control.id}`,
      title: control.description ?? '',
      text: control.label ?? control.id,
    });
    const menu =
      control.choices === undefined
        ? null
        : h('select', {
            class: 'control-choice',
            'data-testid': `control-${control.id}-choice`,
            'aria-label': `${control.label ?? control.id}: which one`,
          });
    if (menu) {
      fillChoices(menu, control.choices);
      menus.set(control.id, menu);
      menu.addEventListener('focus', refreshChoices);
    }
    const node = h(
      'div',
      { class: 'control' },
      menu,
      button,
      control.description ? h('div', { class: 'control-description', text: control.description }) : null,
    );
    button.addEventListener('click', async () => {
      button.disabled = true;
      // Right under the button clicked, where the eye is (the list is longer than the sidebar).
      node.after(els.controlStatus);
      setControlStatus(`${control.label ?? control.id}…`, true);
      const result = await postJson(
        `/api/controls/${encodeURIComponent(control.id)}`,
        menu && menu.value !== '' ? { choice: menu.value } : undefined,
      );
      button.disabled = false;
      setControlStatus(errorText(result, result.ok ? 'Done.' : 'It did not work.'), result.ok);
      if (state.ws?.mode === 'socket') refreshBotConnection();
      // What there is to pick has changed (a row made stuck, one that succeeded).
      refreshChoices();
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

/** @param {number} ms */
function seconds(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 90 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** @param {any} status what /api/bot-connection sent */
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
  /** @type {Record<string, string>} */
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
// Start

/** @param {string} message */
function fatal(message) {
  const main = document.querySelector('.main');
  main?.replaceChildren(
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
  els = findElements();

  let ws;
  try {
    ws = await getJson('/api/workspace');
  } catch (error) {
    fatal(
      `Could not load /api/workspace: ${error instanceof Error ? error.message : error}. Is the workspace server running?`,
    );
    return;
  }
  ws.users = Array.isArray(ws.users)
    ? ws.users.filter((/** @type {unknown} */ u) => isObject(u) && typeof u.id === 'string')
    : [];
  ws.channels = Array.isArray(ws.channels)
    ? ws.channels.filter((/** @type {unknown} */ c) => isObject(c) && typeof c.id === 'string')
    : [];
  state.ws = ws;
  state.usersById = new Map(ws.users.map((/** @type {User} */ user) => [user.id, user]));
  state.channelsById = new Map(ws.channels.map((/** @type {Channel} */ channel) => [channel.id, channel]));
  ws.groups = Array.isArray(ws.groups)
    ? ws.groups.filter(
        (/** @type {unknown} */ g) =>
          isObject(g) && typeof g.id === 'string' && typeof g.handle === 'string' && Array.isArray(g.members),
      )
    : [];
  state.groupsById = new Map((ws.groups ?? []).map((/** @type {Group} */ group) => [group.id, group]));
  // Mentions are drawn from the directory just read.
  renderedGroups.clear();

  /** What this tab showed before a reload (the Home tab is reopened too). @type {{ user?: unknown, channel?: unknown, view?: unknown }} */
  let remembered = {};
  try {
    remembered = JSON.parse(storageGet(sessionStorage, SESSION_KEY) ?? '{}') ?? {};
  } catch {
    remembered = {};
  }
  state.user =
    typeof remembered.user === 'string' && state.usersById.has(remembered.user)
      ? remembered.user
      : (ws.defaultUser ?? ws.users[0]?.id ?? '');
  state.channel =
    typeof remembered.channel === 'string' && visibleChannels().some((c) => c.id === remembered.channel)
      ? remembered.channel
      : (ws.defaultChannel ?? ws.channels[0]?.id ?? '');
  const reopenHome = remembered.view === 'home';

  els.teamName.textContent = ws.team?.name ?? 'Workspace';
  els.userSwitcher.replaceChildren(
    ...ws.users.map((/** @type {User} */ user) =>
      h('option', { value: user.id, text: user.title ? `${user.name} — ${user.title}` : user.name }),
    ),
  );
  renderUser();
  els.userSwitcher.addEventListener('change', () => switchUser(els.userSwitcher.value));
  els.homeTab.addEventListener('click', () => openHome());
  // Links to this workspace's messages (a Home tab's "open the quote") open the conversation here.
  document.addEventListener('click', (event) => {
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (anchor && openPermalink(anchor.getAttribute('href') ?? '')) event.preventDefault();
  });

  els.timeline.addEventListener('scroll', () => {
    state.stickToBottom = distanceFromBottom() < 40;
    if (state.stickToBottom) els.newMessages.hidden = true;
  });
  els.newMessages.addEventListener('click', scrollToBottom);
  // Escape closes the modal, as in Slack (the confirm dialog handles its own).
  els.modalRoot.addEventListener('keydown', (event) => {
    const modal = state.modals.find((m) => m.id === state.shownModal?.id);
    if (event.key === 'Escape' && modal && !els.dialog.open) {
      event.preventDefault();
      closeModal(modal);
    }
  });
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

  $('composer-shortcuts').addEventListener('click', () => showShortcutsMenu($('shortcuts-menu').hidden));

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
  renderShortcuts();
  renderTimeline({ toBottom: true });
  loadControls();
  watchBotConnection();
  watchTimeline({
    isCurrent: (version) => version === state.version && state.loadedFor === state.user,
    refresh: refreshTimeline,
    showConnection: (text) => {
      els.connection.hidden = text === null;
      if (text !== null) els.connection.textContent = text;
    },
  });
  await refreshTimeline();
  if (reopenHome) await openHome();
  else els.composer.focus();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
