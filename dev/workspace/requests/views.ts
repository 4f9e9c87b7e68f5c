// Modals as Slack sends them: a view's state from what the person entered, view_submission and view_closed, and
// how an app's answer to a submission reads.
import { numberInputProblem } from '../block-kit/elements.js';
import { menuOptions, slackOption } from './actions.js';
import { isRecord, type Person, type Team, teamOf, triggerId } from './wire.js';

/** `view.state.values`: block_id → action_id → the element's state (`type` and its value). */
export type ViewStateValues = Record<string, Record<string, Record<string, unknown>>>;

/**
 * What a person entered in a modal, by block_id then action_id: the text typed in a plain-text input, the value
 * of the option chosen in a static menu, the member id chosen in a user menu; null or '' leaves it empty.
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

/** A member id as a user menu (`users_select`) gives it. */
const MEMBER_ID = /^[UW][A-Z0-9]{2,}$/;

/** A conversation id as a conversations menu (`conversations_select`) gives it: a channel, private channel or DM. */
const CONVERSATION_ID = /^[CGD][A-Z0-9_]{2,}$/;

/**
 * Slack's `state.values` for a modal's input blocks: every input, each with its element's type and what was
 * entered (a number input only a number its rules take; `value: null` for an empty text input, `selected_option: null` when nothing is chosen, a user menu's
 * `selected_user`: the member id, or null). Throws when `entered` names a block or action the view has no input
 * for, an option its menu does not list, or a user menu's choice that is not a member id: Slack's client can only
 * send what the view shows.
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
    } else if (type === 'users_select') {
      if (given !== null && !MEMBER_ID.test(given)) {
        throw new Error(`the user menu of input "${blockId}" cannot choose ${JSON.stringify(given)}: not a member id`);
      }
      state = { type, selected_user: given };
    } else if (type === 'conversations_select') {
      if (given !== null && !CONVERSATION_ID.test(given)) {
        throw new Error(`the conversation menu of input "${blockId}" cannot choose ${JSON.stringify(given)}`);
      }
      state = { type, selected_conversation: given };
    } else if (TEXT_INPUTS.has(type)) {
      // Slack's number input holds numbers only, whole unless decimals are allowed, within min and max.
      const problem =
        type === 'number_input' && given !== null
          ? numberInputProblem(given, {
              decimals: block.element.is_decimal_allowed === true,
              min: typeof block.element.min_value === 'string' ? block.element.min_value : undefined,
              max: typeof block.element.max_value === 'string' ? block.element.max_value : undefined,
            })
          : undefined;
      if (problem !== undefined)
        throw new Error(`the number input "${blockId}" cannot hold ${JSON.stringify(given)}: it ${problem}`);
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
