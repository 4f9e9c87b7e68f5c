// A local stand-in for Slack's Web API and response_urls, as strict as Slack: its modules under slack/ carry the
// Web API by family (chat, conversations, views, files, usergroups, auth), the shared state and the HTTP routing.
import { queueFailure } from './slack/failures.js';
import { issueResponseUrl } from './slack/response-urls.js';
import { listenSlackServer, type SlackServer } from './slack/server.js';
import { createSlackState, type SlackState } from './slack/state.js';
import type {
  InjectedFailure,
  PublishedHome,
  ResponseUrlOrigin,
  SlackStandInOptions,
  StandInEvent,
} from './slack/types.js';

export { slackAttachments } from './slack/messages.js';
export type {
  ConversationSpec,
  InjectedFailure,
  OpenedView,
  PublishedHome,
  RecordedResponse,
  ResponseUrlOrigin,
  SlackStandInOptions,
  StandInEvent,
  StoredMessage,
  UserGroupSpec,
} from './slack/types.js';

/** A running stand-in for Slack's Web API and response_url endpoints: what the local workspace uses of it. */
export interface SlackStandIn {
  /** Give this to Bolt as `clientOptions.slackApiUrl` (ends with `/api/`, as the WebClient expects). */
  readonly apiUrl: string;
  /** `http://host:port`, without a trailing slash. */
  readonly baseUrl: string;
  readonly port: number;
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  readonly teamDomain: string;
  /**
   * Makes the next `times` calls of `method` fail (`'response_url'` targets response_url posts); with `channel`,
   * only calls for that channel (the alert channel's next post, say), and with `textIncludes` only calls whose
   * text contains it (the post of one alert), while the others go through.
   */
  failNext(
    method: string,
    failure: InjectedFailure,
    times?: number,
    only?: { channel?: string; textIncludes?: string },
  ): void;
  /**
   * A fresh, unique response_url, good for 5 posts within 30 minutes. With an origin it is a button click's,
   * which may replace or delete that message; without, a slash command's, which has no original message.
   */
  createResponseUrl(origin?: ResponseUrlOrigin): string;
  /** The Home tab `views.publish` last published for `userId` (a copy), or undefined when none was. */
  homeView(userId: string): PublishedHome | undefined;
  /** Calls `listener` with every {@link StandInEvent}; returns the unsubscribe function. */
  onEvent(listener: (event: StandInEvent) => void): () => void;
  /** Where `apps.connections.open` sends Socket Mode clients (set by the Socket Mode stand-in). */
  setSocketModeUrl(url: string): void;
  /**
   * Points `chat.getPermalink` at a page (the local workspace's, `http://localhost:3000/`): its links are then
   * `<page>#archives/<channel>/p<ts digits>` (a reply's with `?thread_ts=<parent ts>&cid=<channel>`), Slack's own
   * path in the fragment, for the page to open. Unset, they are Slack's: `https://<team>.slack.com/archives/…`.
   */
  setPermalinkPage(url: string): void;
  close(): Promise<void>;
}

/** Starts a local stand-in for Slack's Web API and response_urls on 127.0.0.1 (a free port unless given). */
export async function startSlackStandIn(options: SlackStandInOptions = {}): Promise<SlackStandIn> {
  const state = createSlackState(options);
  return slackStandInOf(state, await listenSlackServer(state));
}

/** The stand-in's surface over its state and listening server (test/support/rig adds the tests' hooks to it). */
export function slackStandInOf(state: SlackState, server: SlackServer): SlackStandIn {
  let responseUrlSerial = 0;
  return {
    apiUrl: `${server.baseUrl}/api/`,
    baseUrl: server.baseUrl,
    port: server.port,
    botUserId: state.botUserId,
    botId: state.botId,
    teamId: state.teamId,
    teamDomain: state.teamDomain,
    failNext: (method, failure, times = 1, only) => queueFailure(state, method, failure, times, only),
    createResponseUrl: (origin) => {
      responseUrlSerial += 1;
      return issueResponseUrl(state, responseUrlSerial, origin);
    },
    homeView: (userId) => {
      const home = state.homes.get(userId);
      return home && { ...home, view: structuredClone(home.view) };
    },
    onEvent: state.onEvent,
    setSocketModeUrl: (url) => {
      state.socketModeUrl = url;
    },
    setPermalinkPage: (url) => {
      state.permalinkPage = url;
    },
    close: server.close,
  };
}
