/**
 * What the local workspace's page shows: the messages of each channel as a Slack client would show them to one
 * person. Built from what the Slack stand-in saw (posts, edits, private messages, response_url posts) and what
 * people typed. Ephemeral entries are seen by their person only.
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
  ephemeral: boolean;
  edited: boolean;
  at: number;
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
  onChange(listener: () => void): () => void;
}

export function createTimeline(now: () => number = Date.now): Timeline {
  const entries: Entry[] = [];
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
  const content = (source: { text: string | undefined; blocks: unknown[] | undefined }) => ({
    ...(source.text !== undefined ? { text: source.text } : {}),
    ...(source.blocks !== undefined ? { blocks: source.blocks } : {}),
  });
  const replace = (entry: Entry, source: { text: string | undefined; blocks: unknown[] | undefined }) => {
    delete entry.text;
    delete entry.blocks;
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
            ephemeral: false,
          });
          return;
        case 'update': {
          const entry = byTs(event.channel, event.ts);
          if (entry) replace(entry, event);
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
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
