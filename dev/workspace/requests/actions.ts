// block_actions as Slack sends them for a message: a button clicked or an option chosen, with the message it is in.
import { slackAttachments } from '../slack-stand-in.js';
import { isRecord, type Person, type Place, slackTs, type Team, teamOf, triggerId } from './wire.js';

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
export function slackOption(option: SelectOption): SelectOption {
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
