/**
 * What the local workspace's page shows: the messages of each channel as a Slack client would show them to one
 * person, and the modals open for them. Built from what the Slack stand-in saw (posts, edits, private messages,
 * response_url posts, views opened) and what people typed. Ephemeral entries and modals are seen by their person
 * only.
 */
import type { StandInEvent } from './slack-stand-in.js';

export interface Entry {
  /** Unique and stable: the page keys its elements on it. */
  id: string;
  channel: string;
  /** The message ts a click on it reports (Slack's for posted messages, ours for private ones). */
  ts: string;
  threadTs?: string;
  author: 'bot' | 'user' | 'system';
  /** Who typed it (user entries) or who alone sees it (ephemeral entries). */
  userId?: string;
  text?: string;
  blocks?: unknown[];
  /** Legacy secondary attachments (each a colour bar beside its blocks), shown below the blocks. */
  attachments?: unknown[];
  /** The files a file share carries (files.completeUploadExternal), as Slack lists them in the message. */
  files?: unknown[];
  ephemeral: boolean;
  edited: boolean;
  at: number;
}

/**
 * A modal open for one person, as Slack holds it: the view the app opened (or last put there), Slack's id and
 * hash. A person's modals form a stack (`push` adds one on top); the page shows the top one.
 */
export interface OpenModal {
  id: string;
  userId: string;
  view: Record<string, unknown>;
  hash: string;
}

/** Who a response_url was issued to, and where. */
export interface ResponseTarget {
  channel: string;
  userId: string;
}

export interface Timeline {
  /** Bumped on every change; the page refetches when it moves. */
  readonly version: number;
  /** The entries `userId` sees, in order. */
  visibleTo(userId: string): Entry[];
  find(id: string): Entry | undefined;
  /** A line a person typed (shown to them alone, as Slack keeps slash commands private). */
  addTyped(channel: string, userId: string, text: string): Entry;
  /** A private bot message that did not come through the stand-in (the ack of a command, a local notice). */
  addPrivate(
    channel: string,
    userId: string,
    content: { text?: string; blocks?: unknown[] },
    author?: 'bot' | 'system',
  ): Entry;
  /** Applies what the stand-in saw; `targetOf` says whom a response_url belongs to (undefined: not ours). */
  apply(event: StandInEvent, targetOf: (url: string) => ResponseTarget | undefined): void;
  /** The modals open for a person, bottom of the stack first. */
  modalsOf(userId: string): OpenModal[];
  findModal(id: string): OpenModal | undefined;
  /** Opens a modal on top of the person's stack, or replaces the open one with its id (in its place). */
  showModal(modal: OpenModal): void;
  /** Closes one modal (a person closed or submitted it); nothing when it is not open. */
  closeModal(id: string): void;
  /** Closes every modal of a person (`response_action: clear`). */
  closeModalsOf(userId: string): void;
  onChange(listener: () => void): () => void;
}

export function createTimeline(now: () => number = Date.now): Timeline {
  const entries: Entry[] = [];
  const modals: OpenModal[] = [];
  const listeners = new Set<() => void>();
  let version = 0;
  let counter = 0;
  const changed = () => {
    version += 1;
    for (const listener of listeners) listener();
  };
  // Private messages get ts values of their own, shaped like Slack's and never equal to a posted message's.
  const privateTs = () => `1700000000.${String(++counter).padStart(6, '0')}`;
  const add = (entry: Omit<Entry, 'id' | 'at' | 'edited'>): Entry => {
    const full: Entry = { ...entry, id: `e${++counter}`, at: now(), edited: false };
    entries.push(full);
    changed();
    return full;
  };
  type Content = { text: string | undefined; blocks: unknown[] | undefined; attachments: unknown[] | undefined };
  const content = (source: Content) => ({
    ...(source.text !== undefined ? { text: source.text } : {}),
    ...(source.blocks !== undefined ? { blocks: source.blocks } : {}),
    ...(source.attachments !== undefined ? { attachments: source.attachments } : {}),
  });
  const replace = (entry: Entry, source: Content) => {
    delete entry.text;
    delete entry.blocks;
    delete entry.attachments;
    Object.assign(entry, content(source), { edited: true });
    changed();
  };
  const byTs = (channel: string, ts: string | undefined) =>
    ts === undefined ? undefined : entries.find((e) => e.channel === channel && e.ts === ts);

  return {
    get version() {
      return version;
    },
    visibleTo: (userId) => entries.filter((e) => !e.ephemeral || e.userId === userId).map((e) => ({ ...e })),
    find: (id) => entries.find((e) => e.id === id),
    addTyped: (channel, userId, text) =>
      add({ channel, ts: privateTs(), author: 'user', userId, text, ephemeral: true }),
    addPrivate: (channel, userId, message, author = 'bot') =>
      add({ channel, ts: privateTs(), author, userId, ...message, ephemeral: true }),
    apply(event, targetOf) {
      switch (event.type) {
        case 'message':
          add({
            channel: event.channel,
            ts: event.ts,
            ...(event.threadTs ? { threadTs: event.threadTs } : {}),
            author: 'bot',
            ...content(event),
            ...(event.files !== undefined ? { files: event.files } : {}),
            ephemeral: false,
          });
          return;
        case 'update': {
          const entry = byTs(event.channel, event.ts);
          if (entry) {
            if (event.files !== undefined) entry.files = event.files;
            replace(entry, event);
          }
          return;
        }
        case 'delete': {
          // Gone for everyone, as in Slack's client.
          const entry = byTs(event.channel, event.ts);
          if (entry) {
            entries.splice(entries.indexOf(entry), 1);
            changed();
          }
          return;
        }
        case 'ephemeral':
          add({
            channel: event.channel,
            ts: privateTs(),
            author: 'bot',
            userId: event.user,
            ...content(event),
            ephemeral: true,
          });
          return;
        case 'view':
          // Whose modal it is depends on whose trigger it used: the workspace's interactions know and call showModal.
          return;
        case 'home':
          // The Home tab lives in the stand-in (the page reads it with the timeline): the page is told to refetch.
          changed();
          return;
        case 'response': {
          const target = targetOf(event.url);
          if (target === undefined) return;
          const { response } = event;
          if (event.effect === 'new_message') {
            const shared = response.responseType === 'in_channel';
            add({
              channel: target.channel,
              ts: privateTs(),
              author: 'bot',
              ...(shared ? {} : { userId: target.userId }),
              ...content(response),
              ephemeral: !shared,
            });
            return;
          }
          const original = byTs(target.channel, event.origin?.ts);
          if (original === undefined) return;
          if (event.effect === 'replaced_original') replace(original, response);
          else if (event.effect === 'deleted_original') {
            entries.splice(entries.indexOf(original), 1);
            changed();
          }
          return;
        }
      }
    },
    modalsOf: (userId) => modals.filter((m) => m.userId === userId).map((m) => structuredClone(m)),
    findModal: (id) => {
      const modal = modals.find((m) => m.id === id);
      return modal && structuredClone(modal);
    },
    showModal(modal) {
      const at = modals.findIndex((m) => m.id === modal.id);
      if (at >= 0) modals[at] = structuredClone(modal);
      else modals.push(structuredClone(modal));
      changed();
    },
    closeModal(id) {
      const at = modals.findIndex((m) => m.id === id);
      if (at < 0) return;
      modals.splice(at, 1);
      changed();
    },
    closeModalsOf(userId) {
      const before = modals.length;
      for (let i = modals.length - 1; i >= 0; i -= 1) if (modals[i]!.userId === userId) modals.splice(i, 1);
      if (modals.length !== before) changed();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
