import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  appHomeOpenedPayload,
  blockActionsPayload,
  type DeclaredShortcut,
  type EnteredValues,
  formBody,
  globalShortcutPayload,
  type HeldHome,
  type HeldView,
  homeBlockActionsPayload,
  type InputTrigger,
  manifestShortcuts,
  menuOptions,
  type OptionChoice,
  sign,
  slashCommandBody,
  triggerId,
  viewBlockActionsPayload,
  viewClosedPayload,
  viewStateValues,
  viewSubmissionPayload,
} from '../../../dev/workspace/slack-requests.js';
import { findButtons, findMessageButtons, findMessageStaticSelects } from './blocks-text.js';
import type { RecordedResponse, SlackStandIn } from './slack-stand-in.js';
import { slackAttachments } from './slack-stand-in.js';

/** What the driver needs from the stand-in: fresh response_urls and what was posted to them. */
export type DriverStandIn = Pick<SlackStandIn, 'createResponseUrl' | 'responses' | 'waitForResponses'> &
  Partial<Pick<SlackStandIn, 'botUserId' | 'botId'>>;

/** Options for {@link createSlackDriver}. */
export interface SlackDriverOptions {
  /** The app's request URL, e.g. `http://127.0.0.1:1234/slack/events`. */
  eventsUrl: string;
  signingSecret: string;
  standIn: DriverStandIn;
  teamId?: string;
  teamDomain?: string;
  apiAppId?: string;
  /** Abort a request the app has not answered after this long (default 10 s). */
  requestTimeoutMs?: number;
  /**
   * The clock trigger_ids are issued by (default Date.now): give the stand-in's clock, since views.open takes a
   * trigger for 3 s of it.
   */
  now?: () => number;
  /** The shortcuts the app declares (default: those of manifests/manifest.json). */
  shortcuts?: readonly DeclaredShortcut[];
}

/** Who sends a request and from where; every field has a default. */
export interface SenderOptions {
  userId?: string;
  userName?: string;
  /**
   * The sender's own organisation when it is not the app's workspace: a member of another company in a Slack
   * Connect channel (their T… or E… id). Slack sends it as `user.team_id` of a click or a dialog, and as the
   * `team_id` of a command typed in their workspace (see dev/workspace/slack-requests.ts).
   */
  teamId?: string;
  channelId?: string;
  channelName?: string;
  /** Seconds since the epoch to sign with (default: now); an old one makes a stale request. */
  timestamp?: number;
  /** Sent instead of the real signature, for forged-request tests. */
  signature?: string;
}

/** Options for {@link SlackDriver.command}. */
export interface CommandOptions extends SenderOptions {
  /** Default `/treasury`. */
  command?: string;
  /**
   * Send `text` exactly as given. By default it is what a person typed, escaped as Slack escapes it (`R&D <beta>`
   * goes out as `R&amp;D &lt;beta&gt;`); raw is for Slack's own markup (`<@U1|riley>`) or malformed text.
   */
  raw?: boolean;
  /**
   * The Enterprise Grid organisation of the workspace the command is typed in: Slack then sends `enterprise_id`
   * beside that workspace's `team_id` (set `teamId` to the person's own workspace).
   */
  enterpriseId?: string;
}

/** Options for {@link SlackDriver.clickButton}. */
export interface ClickButtonOptions extends SenderOptions {
  actionId: string;
  value?: string;
  blockId?: string;
  /** The button's label, as Slack echoes it in the action (default: the action_id). */
  text?: string;
  /**
   * The message holding the button; its `ts` becomes `container.message_ts`, and a reply's `threadTs` (its
   * parent's ts) becomes `container.thread_ts` and `message.thread_ts`, as Slack sends a click in a thread.
   */
  message?: { ts: string; text?: string; blocks?: unknown[]; attachments?: unknown[]; threadTs?: string };
  /**
   * The button is in this attachment of the message (1 first): the container is then a `message_attachment`
   * naming it, as Slack sends a click inside an attachment.
   */
  attachmentId?: number;
  /** Defaults to a fresh one from the stand-in. */
  responseUrl?: string;
}

/** A message to click in, such as one returned by `standIn.messages()`. */
export interface ClickableMessage {
  ts: string;
  blocks?: unknown[] | undefined;
  /** Legacy attachments: their buttons and menus are found too (an alert's controls are in one). */
  attachments?: unknown[] | undefined;
  text?: string | undefined;
  channel?: string;
  /** The parent's ts when the message is a reply in a thread. */
  threadTs?: string | undefined;
}

/** Options for {@link SlackDriver.selectOption}. */
export interface SelectOptionOptions extends SenderOptions {
  /** Defaults to a fresh one from the stand-in, belonging to the message. */
  responseUrl?: string;
}

/** Who submits or closes a modal; every field has a default. */
export type ViewSenderOptions = Pick<SenderOptions, 'userId' | 'userName' | 'teamId' | 'timestamp' | 'signature'>;

/** Options for {@link SlackDriver.submitView}. */
export interface SubmitViewOptions extends ViewSenderOptions {
  /**
   * What was entered, by block_id then action_id: the text typed in a plain-text input, the value of the option
   * chosen in a static menu; left out or null, the input is empty (`value: null`), as Slack sends it.
   */
  values?: EnteredValues;
}

/** Options for {@link SlackDriver.closeView}. */
export interface CloseViewOptions extends SubmitViewOptions {
  /** The whole stack was closed at once (`is_cleared`). */
  isCleared?: boolean;
}

/** The app's HTTP answer to a raw request. */
export interface RawResult {
  status: number;
  /** Parsed JSON when the app answered JSON, else the text ('' for an empty `ack()`). */
  body: unknown;
  headers: Headers;
  elapsedMs: number;
}

/** The app's HTTP answer to a command or click, plus what it later posted to the response_url. */
export interface DriverResult extends RawResult {
  responseUrl: string;
  /** Posts received so far on this request's response_url. */
  responses(): RecordedResponse[];
  /** Resolves once `count` posts reached this request's response_url. */
  waitForResponses(count: number, timeoutMs?: number): Promise<RecordedResponse[]>;
}

/** Sends requests to a Bolt app exactly as Slack does. */
export interface SlackDriver {
  /** Sends a signed slash command (form-encoded, as Slack does); `text` is what the person typed (see `raw`). */
  command(text: string, options?: CommandOptions): Promise<DriverResult>;
  /** Sends a signed `block_actions` interaction for one button click. */
  clickButton(options: ClickButtonOptions): Promise<DriverResult>;
  /** Clicks the button with `actionId` found in `message.blocks`, with that button's value and block_id. */
  clickButtonIn(
    message: ClickableMessage,
    actionId: string,
    options?: Omit<ClickButtonOptions, 'actionId' | 'value' | 'blockId' | 'message'>,
  ): Promise<DriverResult>;
  /**
   * Chooses the option with `value` in the `static_select` with `actionId` found in `message.blocks`: a signed
   * `block_actions` with the action's `selected_option` ({ text, value }) and the menu in `state.values`, as Slack
   * sends a choice. Throws when the message has no such menu or option.
   */
  selectOption(
    message: ClickableMessage,
    actionId: string,
    value: string,
    options?: SelectOptionOptions,
  ): Promise<DriverResult>;
  /**
   * Submits a modal the app opened (pass one of `standIn.views()`, or any `{ id, hash, view }`): a signed
   * `view_submission` with `values` in `view.state.values`. Resolves with the app's answer as JSON (`{
   * response_action: 'errors', errors }`, `update`, `push`, `clear`), or null when it answered with an empty body
   * (the modal closes); rejects when it answered anything else or not 200.
   */
  submitView(view: HeldView, options?: SubmitViewOptions): Promise<Record<string, unknown> | null>;
  /** Closes a modal as Slack reports it to an app that asked (`notify_on_close`): a signed `view_closed`. */
  closeView(view: HeldView, options?: CloseViewOptions): Promise<RawResult>;
  /** Sends a signed Events API callback (JSON), e.g. `{ type: 'app_home_opened', user, tab: 'home' }`. */
  event(event: Record<string, unknown>, options?: Pick<SenderOptions, 'timestamp' | 'signature'>): Promise<RawResult>;
  /**
   * `userId` opens the app's Home tab: a signed `app_home_opened` (tab `home`) as Slack sends it, carrying `home`
   * (the view Slack shows them, e.g. `standIn.homeView(userId)`) when one was published.
   */
  openHome(userId: string, home?: HeldHome, options?: Pick<SenderOptions, 'teamId'>): Promise<RawResult>;
  /**
   * Clicks the button `actionId` in a Home view (the one in the block `blockId` when given): a signed
   * `block_actions` from a `view` container, with no channel, message or response_url, as Slack sends it.
   */
  clickInHome(
    home: HeldHome,
    actionId: string,
    options?: Pick<SenderOptions, 'userId' | 'userName' | 'teamId'> & { blockId?: string },
  ): Promise<RawResult>;
  /**
   * Uses an element inside a modal the app opened (pass one of `standIn.views()`): chooses in a menu, types in (or
   * presses Enter in) an input whose block has `dispatch_action: true`, or clicks a button. A signed `block_actions`
   * from the `view` container carrying the view's `id`, `hash` and `state.values` (`values`: everything entered so
   * far, the used element's new value included). Throws what Slack's client would not send (an input block that
   * does not dispatch, a trigger its `dispatch_action_config` does not list).
   */
  useInView(
    view: HeldView,
    blockId: string,
    actionId: string,
    options?: ViewSenderOptions & { values?: EnteredValues; trigger?: InputTrigger },
  ): Promise<RawResult>;
  /**
   * Picks the app's global shortcut `callbackId` (from the composer's shortcuts or search): a signed `shortcut`
   * payload with a fresh trigger_id. Throws when the manifest (manifests/manifest.json unless the driver was given
   * `shortcuts`) declares no such global shortcut.
   */
  shortcut(callbackId: string, options?: Pick<SenderOptions, 'userId' | 'userName' | 'teamId'>): Promise<RawResult>;
  /** Sends a body with exactly these headers: nothing added, nothing signed. */
  sendRaw(body: string, headers: Record<string, string>): Promise<RawResult>;
  /** The Slack signature headers for a raw body. */
  signatureHeaders(rawBody: string, timestamp?: number): Record<string, string>;
}

// Slack sends exactly this; a `; charset=…` suffix makes Bolt parse the body as JSON and answer 400.
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** Creates a driver that signs and sends Slack requests to `eventsUrl`. */
export function createSlackDriver(options: SlackDriverOptions): SlackDriver {
  const { eventsUrl, signingSecret, standIn } = options;
  const teamId = options.teamId ?? 'T_TEST';
  const teamDomain = options.teamDomain ?? 'treasury-test';
  const apiAppId = options.apiAppId ?? 'A_TEST';
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  // The deprecated verification token: Slack still sends it, Bolt ignores it.
  const verificationToken = 'verification-token-from-rig';

  const sender = (o: SenderOptions) => ({
    userId: o.userId ?? 'U_ALICE',
    userName: o.userName ?? 'alice',
    channelId: o.channelId ?? 'C_TREASURY',
    channelName: o.channelName ?? 'treasury',
  });

  const signatureHeaders = (rawBody: string, timestamp = nowSeconds()): Record<string, string> => ({
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': sign(signingSecret, timestamp, rawBody),
  });

  const sendRaw = async (body: string, headers: Record<string, string>): Promise<RawResult> => {
    const started = performance.now();
    const response = await fetch(eventsUrl, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    return {
      status: response.status,
      body: isJson && text !== '' ? (JSON.parse(text) as unknown) : text,
      headers: response.headers,
      elapsedMs: performance.now() - started,
    };
  };

  const sendSigned = (body: string, contentType: string, o: Pick<SenderOptions, 'timestamp' | 'signature'>) => {
    const headers: Record<string, string> = { 'content-type': contentType, ...signatureHeaders(body, o.timestamp) };
    if (o.signature !== undefined) headers['x-slack-signature'] = o.signature;
    return sendRaw(body, headers);
  };

  const withResponseUrl = (result: RawResult, responseUrl: string): DriverResult => ({
    ...result,
    responseUrl,
    responses: () => standIn.responses(responseUrl),
    waitForResponses: (count, timeoutMs) => standIn.waitForResponses(responseUrl, count, timeoutMs),
  });

  const team = { id: teamId, domain: teamDomain, appId: apiAppId };
  const person = (o: Pick<SenderOptions, 'userId' | 'userName' | 'teamId'>) => {
    const who = sender(o);
    return { id: who.userId, name: who.userName, ...(o.teamId !== undefined ? { teamId: o.teamId } : {}) };
  };

  const clickButton = async (o: ClickButtonOptions): Promise<DriverResult> => {
    const who = sender(o);
    // A click's response_url belongs to the clicked message: only that message can be replaced or deleted.
    const responseUrl = o.responseUrl ?? standIn.createResponseUrl({ channel: who.channelId, ts: o.message?.ts });
    const { threadTs: messageThreadTs, attachments, ...message } = o.message ?? { ts: undefined };
    // Slack names the thread of a reply; a message at the top of the channel has none.
    const threadTs = messageThreadTs !== undefined && messageThreadTs !== o.message?.ts ? messageThreadTs : undefined;
    const payload = {
      type: 'block_actions',
      user: { id: who.userId, username: who.userName, name: who.userName, team_id: o.teamId ?? teamId },
      api_app_id: apiAppId,
      token: verificationToken,
      // A click inside an attachment names it (the block_actions payload reference).
      container:
        o.attachmentId !== undefined
          ? {
              type: 'message_attachment',
              message_ts: o.message?.ts,
              attachment_id: o.attachmentId,
              channel_id: who.channelId,
              is_ephemeral: false,
              is_app_unfurl: false,
              ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
            }
          : {
              type: 'message',
              message_ts: o.message?.ts,
              channel_id: who.channelId,
              is_ephemeral: false,
              ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
            },
      // Issued now, as the stand-in's views.open expects (a trigger is good for 3 s, once).
      trigger_id: triggerId(now()),
      team: { id: teamId, domain: teamDomain },
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: who.channelId, name: who.channelName },
      ...(o.message !== undefined
        ? {
            message: {
              type: 'message',
              user: standIn.botUserId,
              bot_id: standIn.botId,
              team: teamId,
              ...message,
              // Slack sends the whole message, its attachments numbered.
              ...(attachments !== undefined ? { attachments: slackAttachments(attachments) } : {}),
              ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
            },
          }
        : {}),
      state: { values: {} },
      response_url: responseUrl,
      actions: [
        {
          action_id: o.actionId,
          block_id: o.blockId ?? randomBytes(3).toString('hex'),
          ...(o.value !== undefined ? { value: o.value } : {}),
          type: 'button',
          action_ts: slackTs(),
          text: { type: 'plain_text', text: o.text ?? o.actionId, emoji: true },
        },
      ],
    };
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return withResponseUrl(await sendSigned(body, FORM_CONTENT_TYPE, o), responseUrl);
  };

  return {
    command: async (text, o = {}) => {
      const who = sender(o);
      // A slash command's response_url has no original message to replace or delete.
      const responseUrl = standIn.createResponseUrl();
      // The same body the local workspace sends (field order and names as Slack sends them).
      const body = slashCommandBody(
        { id: teamId, domain: teamDomain, appId: apiAppId },
        person(o),
        { id: who.channelId, name: who.channelName },
        o.command ?? '/treasury',
        text,
        responseUrl,
        { raw: o.raw },
      );
      const sent = o.enterpriseId === undefined ? body : `${body}&enterprise_id=${encodeURIComponent(o.enterpriseId)}`;
      return withResponseUrl(await sendSigned(sent, FORM_CONTENT_TYPE, o), responseUrl);
    },
    clickButton,
    clickButtonIn: (message, actionId, o = {}) => {
      const buttons = findMessageButtons(message);
      const button = buttons.find((b) => b.actionId === actionId);
      if (button === undefined) {
        const available = buttons.map((b) => b.actionId).join(', ') || '(no buttons)';
        throw new Error(`No button with action_id "${actionId}" in message ${message.ts}; available: ${available}`);
      }
      return clickButton({
        channelId: message.channel,
        ...o,
        actionId,
        ...(button.value !== undefined ? { value: button.value } : {}),
        ...(button.blockId !== undefined ? { blockId: button.blockId } : {}),
        ...(button.attachmentId !== undefined ? { attachmentId: button.attachmentId } : {}),
        text: o.text ?? button.text,
        message: {
          ts: message.ts,
          ...(message.text !== undefined ? { text: message.text } : {}),
          ...(message.blocks !== undefined ? { blocks: message.blocks } : {}),
          ...(message.attachments !== undefined ? { attachments: message.attachments } : {}),
          ...(message.threadTs !== undefined ? { threadTs: message.threadTs } : {}),
        },
      });
    },
    selectOption: async (message, actionId, value, o = {}) => {
      const menus = findMessageStaticSelects(message);
      const menu = menus.find((m) => m.element.action_id === actionId);
      if (menu === undefined) {
        const available = menus.map((m) => String(m.element.action_id)).join(', ') || '(no static menus)';
        throw new Error(
          `No static_select with action_id "${actionId}" in message ${message.ts}; available: ${available}`,
        );
      }
      const options = menuOptions(menu.element);
      const option = options.find((candidate) => candidate.value === value);
      if (option === undefined) {
        const available = options.map((candidate) => candidate.value).join(', ') || '(no options)';
        throw new Error(`The menu "${actionId}" has no option with value "${value}"; available: ${available}`);
      }
      const who = sender({ channelId: message.channel, ...o });
      const responseUrl = o.responseUrl ?? standIn.createResponseUrl({ channel: who.channelId, ts: message.ts });
      const choice: OptionChoice = {
        actionId,
        blockId: menu.blockId ?? randomBytes(3).toString('hex'),
        selectedOption: option,
        ...(menu.element.placeholder !== undefined ? { placeholder: menu.element.placeholder } : {}),
        ...(menu.attachmentId !== undefined ? { attachmentId: menu.attachmentId } : {}),
        message: {
          ts: message.ts,
          ephemeral: false,
          ...(message.text !== undefined ? { text: message.text } : {}),
          ...(message.blocks !== undefined ? { blocks: message.blocks } : {}),
          ...(message.attachments !== undefined ? { attachments: message.attachments } : {}),
          ...(message.threadTs !== undefined ? { threadTs: message.threadTs } : {}),
        },
      };
      const payload = blockActionsPayload(
        team,
        person(o),
        { id: who.channelId, name: who.channelName },
        choice,
        standIn.botUserId ?? 'U_BOT',
        responseUrl,
        now(),
      );
      return withResponseUrl(await sendSigned(formBody('interactive', payload), FORM_CONTENT_TYPE, o), responseUrl);
    },
    submitView: async (view, o = {}) => {
      const payload = viewSubmissionPayload(
        team,
        person(o),
        view,
        viewStateValues(view.view, o.values),
        standIn.botId ?? 'B_BOT',
        now(),
      );
      const result = await sendSigned(formBody('interactive', payload), FORM_CONTENT_TYPE, o);
      if (result.status !== 200) throw new Error(`The app answered the view submission with HTTP ${result.status}`);
      if (result.body === '') return null;
      if (typeof result.body !== 'object' || result.body === null || Array.isArray(result.body))
        throw new Error(`The app answered the view submission with ${JSON.stringify(result.body)}, not JSON`);
      return result.body as Record<string, unknown>;
    },
    closeView: (view, o = {}) => {
      const payload = viewClosedPayload(
        team,
        person(o),
        view,
        viewStateValues(view.view, o.values),
        standIn.botId ?? 'B_BOT',
        { isCleared: o.isCleared ?? false },
      );
      return sendSigned(formBody('interactive', payload), FORM_CONTENT_TYPE, o);
    },
    event: (event, o = {}) => {
      const body = JSON.stringify({
        token: verificationToken,
        team_id: teamId,
        api_app_id: apiAppId,
        event: { event_ts: slackTs(), ...event },
        type: 'event_callback',
        event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
        event_time: nowSeconds(),
        authorizations: [{ team_id: teamId, user_id: standIn.botUserId, is_bot: true, is_enterprise_install: false }],
        is_ext_shared_channel: false,
      });
      return sendSigned(body, 'application/json', o);
    },
    openHome: (userId, home, o = {}) => {
      const payload = appHomeOpenedPayload(
        team,
        { id: userId, ...(o.teamId !== undefined ? { teamId: o.teamId } : {}) },
        {
          channel: `D${userId.replace(/^[UW]/, '')}`,
          botUserId: standIn.botUserId ?? 'U_BOT',
          botId: standIn.botId ?? 'B_BOT',
          home,
          now: now(),
        },
      );
      return sendSigned(JSON.stringify(payload), 'application/json', {});
    },
    clickInHome: (home, actionId, o = {}) => {
      const buttons = findButtons(Array.isArray(home.view.blocks) ? home.view.blocks : []);
      const button = buttons.find(
        (b) => b.actionId === actionId && (o.blockId === undefined || b.blockId === o.blockId),
      );
      if (button === undefined) {
        const available = buttons.map((b) => `${b.actionId} (${b.blockId ?? 'no block_id'})`).join(', ') || '(none)';
        throw new Error(`No button "${actionId}" in the Home view; available: ${available}`);
      }
      const payload = homeBlockActionsPayload(
        team,
        person(o),
        home,
        {
          actionId,
          blockId: button.blockId ?? randomBytes(3).toString('hex'),
          text: button.text,
          ...(button.value !== undefined ? { value: button.value } : {}),
        },
        standIn.botId ?? 'B_BOT',
        now(),
      );
      return sendSigned(formBody('interactive', payload), FORM_CONTENT_TYPE, {});
    },
    useInView: async (view, blockId, actionId, o = {}) => {
      const payload = viewBlockActionsPayload(
        team,
        person(o),
        view,
        { blockId, actionId, ...(o.trigger !== undefined ? { trigger: o.trigger } : {}) },
        o.values ?? {},
        standIn.botId ?? 'B_BOT',
        now(),
      );
      return sendSigned(formBody('interactive', payload), FORM_CONTENT_TYPE, o);
    },
    shortcut: async (callbackId, o = {}) => {
      const declared = options.shortcuts ?? appManifestShortcuts();
      const payload = globalShortcutPayload(team, person(o), callbackId, declared, now());
      return sendSigned(formBody('interactive', payload), FORM_CONTENT_TYPE, {});
    },
    sendRaw,
    signatureHeaders,
  };
}

/** The shortcuts manifests/manifest.json declares (both manifests declare the same ones). */
function appManifestShortcuts(): DeclaredShortcut[] {
  return manifestShortcuts(
    JSON.parse(readFileSync(new URL('../../../manifests/manifest.json', import.meta.url), 'utf8')) as unknown,
  );
}
/** Slack's request signature: `v0=` + hex HMAC-SHA256(secret, `v0:<timestamp>:<raw body>`) (dev/workspace). */

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

// "1732200000.123456": seconds and microseconds, the way Slack writes action and event timestamps.
function slackTs(): string {
  const ms = Date.now();
  return `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1000 + Math.floor(Math.random() * 1000)).padStart(6, '0')}`;
}
