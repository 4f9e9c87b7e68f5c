/**
 * Requests exactly as Slack sends them to an app: form-encoded, signed with the app's signing secret
 * (`v0=` HMAC-SHA256 of `v0:<timestamp>:<body>`), a slash command's fields, `block_actions` (a button clicked, an
 * option chosen in a static menu, in a message or in a Home tab), and a modal submitted (`view_submission`) or
 * closed (`view_closed`); Events API callbacks (`app_home_opened`) as signed JSON. Socket Mode carries the same
 * payloads in its envelopes (socket-mode-stand-in.ts).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { slackAttachments } from './slack-stand-in.js';

export interface Team {
  id: string;
  domain: string;
  appId: string;
}

export interface Person {
  id: string;
  /** Slack's user name (handle). */
  name: string;
  /**
   * Their own organisation when it is not the app's workspace: a member of another company in a Slack Connect
   * channel (their workspace T…, or their Enterprise Grid organisation E…). Slack names it in `user.team_id` of
   * every interaction (the block_actions and view_submission payload references), while `team` stays the workspace
   * the message or view is from; a slash command reaches an app from the workspace it was typed in, so its
   * `team_id` is theirs. Unset: a member of the app's workspace.
   */
  teamId?: string;
}

/** The organisation a person belongs to, as Slack names it in their requests. */
export function teamOf(team: Team, user: Pick<Person, 'teamId'>): string {
  return user.teamId ?? team.id;
}

export interface Place {
  id: string;
  name: string;
}

/** Slack's request signature. */
export function sign(signingSecret: string, timestamp: number, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/** Headers of a signed request: form-encoded (commands, interactions) unless `contentType` says JSON (events). */
export function signedHeaders(
  signingSecret: string,
  rawBody: string,
  nowMs = Date.now(),
  contentType: 'application/x-www-form-urlencoded' | 'application/json' = 'application/x-www-form-urlencoded',
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    // Exactly this: a `; charset=…` suffix makes Bolt read the body as JSON.
    'content-type': contentType,
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': sign(signingSecret, timestamp, rawBody),
  };
}

/**
 * What a request from Slack carries: a slash command, an interaction (a click, a view submission), or an Events API
 * callback (`event_callback`). Socket Mode names its envelope types the same.
 */
export type RequestKind = 'slash_commands' | 'interactive' | 'events_api';

/**
 * How HTTP carries a payload: a command's fields form-encoded, an interaction as the form field `payload` (JSON), an
 * event callback as the JSON body itself (the Events API's `application/json`).
 */
export function formBody(kind: RequestKind, payload: Record<string, unknown>): string {
  if (kind === 'events_api') return JSON.stringify(payload);
  return kind === 'slash_commands'
    ? new URLSearchParams(payload as Record<string, string>).toString()
    : new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** The content type Slack sends each kind with. */
export function contentTypeOf(kind: RequestKind): 'application/x-www-form-urlencoded' | 'application/json' {
  return kind === 'events_api' ? 'application/json' : 'application/x-www-form-urlencoded';
}

const SLACK_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * What a person typed, as Slack hands it to an app: `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;` (only
 * these three; quotes and emoji pass as they are). Written here from Slack's docs, not borrowed from the bot.
 */
export function escapeAsSlackDoes(typed: string): string {
  return typed.replace(/[&<>]/g, (c) => SLACK_ESCAPES[c]!);
}

/** How {@link slashCommandBody} puts the text on the wire. */
export interface SlashCommandTextOptions {
  /**
   * The text is already as Slack would send it and goes on the wire unchanged: for Slack's own markup (a
   * mention `<@U1|riley>`, a link `<https://a.io|a.io>`) or a deliberately malformed request. By default the
   * text is what a person typed and is escaped as Slack escapes it.
   */
  raw?: boolean;
}

/** The body of a slash command, with Slack's field names and order; `text` is what the person typed. */
export function slashCommandBody(
  team: Team,
  user: Person,
  channel: Place,
  command: string,
  text: string,
  responseUrl: string,
  options: SlashCommandTextOptions = {},
): string {
  return formBody('slash_commands', slashCommandPayload(team, user, channel, command, text, responseUrl, options));
}

/**
 * A slash command's fields: form-encoded in {@link slashCommandBody} over HTTP, the `payload` of a
 * `slash_commands` envelope in Socket Mode (the same fields, as strings).
 */
export function slashCommandPayload(
  team: Team,
  user: Person,
  channel: Place,
  command: string,
  text: string,
  responseUrl: string,
  options: SlashCommandTextOptions = {},
  now: number = Date.now(),
): Record<string, string> {
  return {
    token: 'local-workspace-verification-token',
    team_id: teamOf(team, user),
    team_domain: team.domain,
    channel_id: channel.id,
    channel_name: channel.name,
    user_id: user.id,
    user_name: user.name,
    command,
    text: options.raw ? text : escapeAsSlackDoes(text),
    api_app_id: team.appId,
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: triggerId(now),
  };
}

/** The message a click or a choice is in, as the person sees it. */
export interface ClickedMessage {
  ts: string;
  ephemeral: boolean;
  text?: string;
  blocks?: unknown[];
  /** Its legacy attachments, as posted: Slack sends them back numbered (`id`, 1 first). */
  attachments?: unknown[];
  /** The parent's ts when the message is a reply in a thread (Slack then names the thread in the payload). */
  threadTs?: string;
}

/** The clicked button and the message it is in. */
export interface ButtonClick {
  actionId: string;
  blockId: string;
  value?: string;
  text: string;
  message: ClickedMessage;
  /** The control is in this attachment of the message (Slack's `attachment_id`, 1 first), not in its blocks. */
  attachmentId?: number;
}

/** An option chosen in a `static_select` menu of a message, and the message. */
export interface OptionChoice {
  actionId: string;
  blockId: string;
  /** The option as the menu lists it (`text` is a plain_text object). */
  selectedOption: SelectOption;
  /** The menu's placeholder, when it has one: Slack echoes it in the action. */
  placeholder?: unknown;
  message: ClickedMessage;
  /** The menu is in this attachment of the message (Slack's `attachment_id`, 1 first), not in its blocks. */
  attachmentId?: number;
}

/** An option object of a select menu. */
export interface SelectOption {
  text: { type: 'plain_text'; text: string; emoji?: boolean };
  value: string;
}

/** The body of a `block_actions` interaction for one click or choice: its payload as the form field `payload`. */
export function blockActionsBody(
  team: Team,
  user: Person,
  channel: Place,
  click: ButtonClick | OptionChoice,
  botUserId: string,
  responseUrl: string,
): string {
  return formBody('interactive', blockActionsPayload(team, user, channel, click, botUserId, responseUrl));
}

/**
 * The `block_actions` payload of one button click or one option chosen in a static menu (in Socket Mode, the
 * `payload` of an `interactive` envelope). A choice is also in `state.values`, as Slack reports a message's menus;
 * a message in a thread names its thread in `container.thread_ts` and `message.thread_ts`. A control inside an
 * attachment makes the container a `message_attachment` naming it (`attachment_id`), as the block_actions payload
 * reference shows; `message` is still the whole message, its attachments included.
 */
export function blockActionsPayload(
  team: Team,
  user: Person,
  channel: Place,
  click: ButtonClick | OptionChoice,
  botUserId: string,
  responseUrl: string,
  now: number = Date.now(),
): Record<string, unknown> {
  const threadTs =
    click.message.threadTs !== undefined && click.message.threadTs !== click.message.ts
      ? click.message.threadTs
      : undefined;
  const choice = 'selectedOption' in click ? click : undefined;
  const selected = choice ? slackOption(choice.selectedOption) : undefined;
  return {
    type: 'block_actions',
    user: { id: user.id, username: user.name, name: user.name, team_id: teamOf(team, user) },
    api_app_id: team.appId,
    token: 'local-workspace-verification-token',
    container:
      click.attachmentId !== undefined
        ? {
            type: 'message_attachment',
            message_ts: click.message.ts,
            attachment_id: click.attachmentId,
            channel_id: channel.id,
            is_ephemeral: click.message.ephemeral,
            is_app_unfurl: false,
            ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
          }
        : {
            type: 'message',
            message_ts: click.message.ts,
            channel_id: channel.id,
            is_ephemeral: click.message.ephemeral,
            ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
          },
    trigger_id: triggerId(now),
    team: { id: team.id, domain: team.domain },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channel.id, name: channel.name },
    // Slack leaves the message out of clicks on ephemeral messages.
    ...(click.message.ephemeral
      ? {}
      : {
          message: {
            type: 'message',
            user: botUserId,
            ts: click.message.ts,
            ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
            text: click.message.text ?? '',
            ...(click.message.blocks ? { blocks: click.message.blocks } : {}),
            ...(click.message.attachments ? { attachments: slackAttachments(click.message.attachments) } : {}),
          },
        }),
    state: {
      values:
        choice && selected
          ? { [choice.blockId]: { [choice.actionId]: { type: 'static_select', selected_option: selected } } }
          : {},
    },
    response_url: responseUrl,
    actions: [
      choice && selected
        ? {
            type: 'static_select',
            action_id: choice.actionId,
            block_id: choice.blockId,
            selected_option: selected,
            ...(choice.placeholder !== undefined ? { placeholder: choice.placeholder } : {}),
            action_ts: slackTs(now),
          }
        : {
            action_id: click.actionId,
            block_id: click.blockId,
            ...((click as ButtonClick).value !== undefined ? { value: (click as ButtonClick).value } : {}),
            type: 'button',
            action_ts: slackTs(now),
            text: { type: 'plain_text', text: (click as ButtonClick).text, emoji: true },
          },
    ],
  };
}

/** An option as Slack reports it in payloads: its plain_text carries `emoji` (true unless the app said false). */
function slackOption(option: SelectOption): SelectOption {
  return {
    text: { type: 'plain_text', text: option.text.text, emoji: option.text.emoji ?? true },
    value: option.value,
  };
}

/** The options of a static menu (its `options`, or those of its `option_groups`), as the app wrote them. */
export function menuOptions(element: Record<string, unknown>): SelectOption[] {
  const lists = Array.isArray(element.option_groups)
    ? element.option_groups.map((group) => (isRecord(group) && Array.isArray(group.options) ? group.options : []))
    : [Array.isArray(element.options) ? element.options : []];
  return lists
    .flat()
    .filter(
      (option): option is SelectOption =>
        isRecord(option) &&
        typeof option.value === 'string' &&
        isRecord(option.text) &&
        typeof option.text.text === 'string',
    );
}

/** `view.state.values`: block_id → action_id → the element's state (`type` and its value). */
export type ViewStateValues = Record<string, Record<string, Record<string, unknown>>>;

/**
 * What a person entered in a modal, by block_id then action_id: the text typed in a plain-text input, the value
 * of the option chosen in a static menu; null or '' leaves it empty.
 */
export type EnteredValues = Record<string, Record<string, string | null | undefined>>;

/** A modal as Slack holds it: the view the app opened (or last put there), with Slack's id and hash. */
export interface HeldView {
  id: string;
  hash: string;
  view: Record<string, unknown>;
}

/** Input elements whose state is a `value` string (Slack sends null when empty). */
const TEXT_INPUTS = new Set(['plain_text_input', 'email_text_input', 'url_text_input', 'number_input']);

/**
 * Slack's `state.values` for a modal's input blocks: every input, each with its element's type and what was
 * entered (`value: null` for an empty text input, `selected_option: null` when nothing is chosen). Throws when
 * `entered` names a block or action the view has no input for, or an option its menu does not list: Slack's
 * client can only send what the view shows.
 */
export function viewStateValues(view: Record<string, unknown>, entered: EnteredValues = {}): ViewStateValues {
  const values: ViewStateValues = {};
  const known = new Set<string>();
  for (const block of Array.isArray(view.blocks) ? view.blocks : []) {
    if (!isRecord(block) || block.type !== 'input' || !isRecord(block.element)) continue;
    const blockId = typeof block.block_id === 'string' ? block.block_id : undefined;
    const actionId = typeof block.element.action_id === 'string' ? block.element.action_id : undefined;
    if (blockId === undefined || actionId === undefined) continue;
    known.add(`${blockId}\u0000${actionId}`);
    const type = String(block.element.type);
    const raw = entered[blockId]?.[actionId];
    const given = raw === undefined || raw === null || raw === '' ? null : raw;
    let state: Record<string, unknown>;
    if (type === 'static_select') {
      const option = given === null ? undefined : menuOptions(block.element).find((o) => o.value === given);
      if (given !== null && option === undefined) {
        throw new Error(`the menu of input "${blockId}" has no option with the value ${JSON.stringify(given)}`);
      }
      state = { type, selected_option: option ? slackOption(option) : null };
    } else if (TEXT_INPUTS.has(type)) {
      state = { type, value: given };
    } else {
      throw new Error(`input "${blockId}" holds a ${type}, which this workspace cannot fill in`);
    }
    values[blockId] = { ...values[blockId], [actionId]: state };
  }
  for (const [blockId, actions] of Object.entries(entered)) {
    for (const actionId of Object.keys(actions)) {
      if (!known.has(`${blockId}\u0000${actionId}`)) {
        throw new Error(`the view has no input with block_id "${blockId}" and action_id "${actionId}"`);
      }
    }
  }
  return values;
}

/**
 * The view object of a `view_submission` or `view_closed` payload (Slack's "view" as Bolt's ViewOutput types it):
 * the app's view with Slack's id, hash, team, app, defaults for what the app left out, and the state.
 */
export function viewPayloadObject(
  team: Team,
  botId: string,
  held: HeldView,
  state: ViewStateValues,
): Record<string, unknown> {
  const { view } = held;
  return {
    id: held.id,
    team_id: team.id,
    type: 'modal',
    blocks: Array.isArray(view.blocks) ? view.blocks : [],
    private_metadata: typeof view.private_metadata === 'string' ? view.private_metadata : '',
    callback_id: typeof view.callback_id === 'string' ? view.callback_id : '',
    state: { values: state },
    hash: held.hash,
    title: view.title,
    clear_on_close: view.clear_on_close === true,
    notify_on_close: view.notify_on_close === true,
    close: view.close ?? null,
    submit: view.submit ?? null,
    previous_view_id: null,
    root_view_id: held.id,
    app_id: team.appId,
    external_id: typeof view.external_id === 'string' ? view.external_id : '',
    app_installed_team_id: team.id,
    bot_id: botId,
  };
}

/**
 * The `view_submission` payload of a modal submitted with `state` (see {@link viewStateValues}); in Socket Mode,
 * the `payload` of an `interactive` envelope. `response_urls` is empty: only inputs with `response_url_enabled`
 * (a conversation menu) get one, and this workspace has none.
 */
export function viewSubmissionPayload(
  team: Team,
  user: Person,
  held: HeldView,
  state: ViewStateValues,
  botId: string,
  now: number = Date.now(),
): Record<string, unknown> {
  return {
    type: 'view_submission',
    team: { id: team.id, domain: team.domain },
    user: { id: user.id, username: user.name, name: user.name, team_id: teamOf(team, user) },
    api_app_id: team.appId,
    token: 'local-workspace-verification-token',
    trigger_id: triggerId(now),
    view: viewPayloadObject(team, botId, held, state),
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

/** The body of a `view_submission`: its payload as the form field `payload`. */
export function viewSubmissionBody(
  team: Team,
  user: Person,
  held: HeldView,
  state: ViewStateValues,
  botId: string,
): string {
  return formBody('interactive', viewSubmissionPayload(team, user, held, state, botId));
}

/**
 * The `view_closed` payload Slack sends when a person closes a modal opened with `notify_on_close: true`
 * (`is_cleared`: the whole stack was closed at once).
 */
export function viewClosedPayload(
  team: Team,
  user: Person,
  held: HeldView,
  state: ViewStateValues,
  botId: string,
  options: { isCleared?: boolean } = {},
): Record<string, unknown> {
  return {
    type: 'view_closed',
    team: { id: team.id, domain: team.domain },
    user: { id: user.id, username: user.name, name: user.name, team_id: teamOf(team, user) },
    api_app_id: team.appId,
    token: 'local-workspace-verification-token',
    view: viewPayloadObject(team, botId, held, state),
    is_cleared: options.isCleared ?? false,
    is_enterprise_install: false,
    enterprise: null,
  };
}

/**
 * What an app may answer a `view_submission` with in its HTTP response (or its Socket Mode ack): `errors` under
 * inputs, `update` (replace the view), `push` (a view on top), `clear` (close every view); an empty answer closes
 * the submitted view.
 */
export type ViewAnswer =
  | { response_action: 'errors'; errors: Record<string, string> }
  | { response_action: 'update' | 'push'; view: Record<string, unknown> }
  | { response_action: 'clear' };

/**
 * Reads an app's answer to a `view_submission` as Slack does: undefined for an empty answer (the view closes), the
 * answer when it is one Slack acts on, or a reason why Slack would refuse it (the person then sees "We had some
 * trouble connecting" and the view stays). `inputBlockIds` are the submitted view's input blocks: errors must name
 * those.
 */
export function readViewAnswer(
  answer: unknown,
  inputBlockIds: readonly string[],
): { answer: ViewAnswer | undefined } | { problem: string } {
  if (answer === undefined || answer === null || answer === '') return { answer: undefined };
  if (!isRecord(answer))
    return { problem: `the app answered ${JSON.stringify(answer).slice(0, 200)}, not a JSON object` };
  // An acknowledgement with an empty object closes the view as an empty body does.
  if (Object.keys(answer).length === 0) return { answer: undefined };
  switch (answer.response_action) {
    case 'errors': {
      const errors = answer.errors;
      if (!isRecord(errors) || Object.keys(errors).length === 0)
        return { problem: 'response_action "errors" needs an errors object naming input blocks' };
      for (const [blockId, message] of Object.entries(errors)) {
        if (!inputBlockIds.includes(blockId))
          return { problem: `errors names block "${blockId}", which is not an input block of the view` };
        if (typeof message !== 'string' || message === '')
          return { problem: `the error for "${blockId}" is not a non-empty string` };
      }
      return { answer: { response_action: 'errors', errors: errors as Record<string, string> } };
    }
    case 'update':
    case 'push':
      if (!isRecord(answer.view)) return { problem: `response_action "${answer.response_action}" needs a view` };
      return { answer: { response_action: answer.response_action, view: answer.view } };
    case 'clear':
      return { answer: { response_action: 'clear' } };
    default:
      return {
        problem: `the app answered ${JSON.stringify(answer).slice(0, 200)}: a view submission takes an empty answer or a response_action (errors, update, push, clear)`,
      };
  }
}

// ---------------------------------------------------------------------------------------------------------
// The Home tab: the app_home_opened event, and clicks in a published Home view.

/** A person's Home tab as Slack holds it: the view the app published last, Slack's id and hash. */
export interface HeldHome {
  id: string;
  hash: string;
  view: Record<string, unknown>;
}

/**
 * The view object Slack puts in `app_home_opened` and in a click from a Home tab (the "View object" of a `home`
 * view): the app's blocks and ids with Slack's id, hash, team, app and bot, and an empty state.
 */
export function homeViewPayloadObject(team: Team, botId: string, held: HeldHome): Record<string, unknown> {
  const { view } = held;
  return {
    id: held.id,
    team_id: team.id,
    type: 'home',
    blocks: Array.isArray(view.blocks) ? view.blocks : [],
    private_metadata: typeof view.private_metadata === 'string' ? view.private_metadata : '',
    callback_id: typeof view.callback_id === 'string' ? view.callback_id : '',
    state: { values: {} },
    hash: held.hash,
    clear_on_close: false,
    notify_on_close: false,
    close: null,
    submit: null,
    previous_view_id: null,
    root_view_id: held.id,
    app_id: team.appId,
    external_id: typeof view.external_id === 'string' ? view.external_id : '',
    app_installed_team_id: team.id,
    bot_id: botId,
  };
}

/**
 * The Events API callback Slack sends when `user` opens the app's Home tab (the `app_home_opened` reference): the
 * event (`tab: 'home'`, the app's DM with them as `channel`, and the Home view when one was ever published) in
 * its `event_callback` envelope. Over HTTP it is the JSON body; in Socket Mode the `payload` of an `events_api`
 * envelope.
 */
export function appHomeOpenedPayload(
  team: Team,
  user: Pick<Person, 'id' | 'teamId'>,
  options: { channel: string; botUserId: string; botId: string; home?: HeldHome | undefined; now?: number },
): Record<string, unknown> {
  const now = options.now ?? Date.now();
  return {
    token: 'local-workspace-verification-token',
    // The workspace the event happened in: the person's own (Slack's event wrapper), while `authorizations` is
    // the app's installation that sees it.
    team_id: teamOf(team, user),
    ...(user.teamId !== undefined ? { context_team_id: user.teamId } : {}),
    api_app_id: team.appId,
    event: {
      type: 'app_home_opened',
      user: user.id,
      channel: options.channel,
      tab: 'home',
      ...(options.home ? { view: homeViewPayloadObject(team, options.botId, options.home) } : {}),
      event_ts: slackTs(now),
    },
    type: 'event_callback',
    event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: Math.floor(now / 1000),
    authorizations: [{ team_id: team.id, user_id: options.botUserId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
  };
}

/** A button clicked in a Home tab. */
export interface HomeButtonClick {
  actionId: string;
  blockId: string;
  value?: string;
  text: string;
}

/**
 * The `block_actions` payload of a button clicked in a Home tab (the block_actions payload reference): the
 * container is the view (`type: 'view'`, its `view_id`) and the whole view comes along; there is no channel, no
 * message and no response_url (an app answers a Home click by publishing the Home again, or with a modal on the
 * trigger_id).
 */
export function homeBlockActionsPayload(
  team: Team,
  user: Person,
  held: HeldHome,
  click: HomeButtonClick,
  botId: string,
  now: number = Date.now(),
): Record<string, unknown> {
  return {
    type: 'block_actions',
    user: { id: user.id, username: user.name, name: user.name, team_id: teamOf(team, user) },
    api_app_id: team.appId,
    token: 'local-workspace-verification-token',
    container: { type: 'view', view_id: held.id },
    trigger_id: triggerId(now),
    team: { id: team.id, domain: team.domain },
    enterprise: null,
    is_enterprise_install: false,
    view: homeViewPayloadObject(team, botId, held),
    actions: [
      {
        action_id: click.actionId,
        block_id: click.blockId,
        ...(click.value !== undefined ? { value: click.value } : {}),
        type: 'button',
        action_ts: slackTs(now),
        text: { type: 'plain_text', text: click.text, emoji: true },
      },
    ],
  };
}

/**
 * Posts a payload to an app's request URL as Slack does over HTTP (form-encoded, signed) and resolves with its
 * answer's body: undefined when empty, the parsed JSON, or the text when it is not JSON. Rejects on a non-2xx
 * answer and after `timeoutMs` (default 5 s).
 */
export async function postToApp(
  eventsUrl: string,
  signingSecret: string,
  kind: RequestKind,
  payload: Record<string, unknown>,
  timeoutMs = 5_000,
): Promise<unknown> {
  const body = formBody(kind, payload);
  const response = await fetch(eventsUrl, {
    method: 'POST',
    headers: signedHeaders(signingSecret, body, Date.now(), contentTypeOf(kind)),
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`the bot answered HTTP ${response.status}`);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function slackTs(ms: number = Date.now()): string {
  return `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1000).padStart(6, '0')}`;
}

/**
 * A trigger_id shaped like Slack's (`<issued ms>.<n>.<hex>`): the stand-in reads its age from the first part
 * (views.open accepts it for 3 s, once).
 */
export function triggerId(now: number = Date.now()): string {
  return `${now}.${randomBytes(4).readUInt32BE()}.${randomBytes(10).toString('hex')}`;
}
