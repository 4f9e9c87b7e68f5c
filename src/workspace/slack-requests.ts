/**
 * Requests exactly as Slack sends them to an app: form-encoded, signed with the app's signing secret
 * (`v0=` HMAC-SHA256 of `v0:<timestamp>:<body>`), a slash command's fields, and a `block_actions` payload.
 * Socket Mode carries the same payloads in its envelopes (socket-mode-stand-in.ts).
 */
import { createHmac, randomBytes } from 'node:crypto';

export interface Team {
  id: string;
  domain: string;
  appId: string;
}

export interface Person {
  id: string;
  /** Slack's user name (handle). */
  name: string;
}

export interface Place {
  id: string;
  name: string;
}

/** Slack's request signature. */
export function sign(signingSecret: string, timestamp: number, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/** Headers of a signed request. */
export function signedHeaders(signingSecret: string, rawBody: string, nowMs = Date.now()): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    // Exactly this: a `; charset=…` suffix makes Bolt read the body as JSON.
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': sign(signingSecret, timestamp, rawBody),
  };
}

/**
 * What a request from Slack carries: a slash command, or an interaction (a click, a view submission). Socket Mode
 * names its envelope types the same.
 */
export type RequestKind = 'slash_commands' | 'interactive';

/** How HTTP carries a payload: a command's fields form-encoded, an interaction as the form field `payload` (JSON). */
export function formBody(kind: RequestKind, payload: Record<string, unknown>): string {
  return kind === 'slash_commands'
    ? new URLSearchParams(payload as Record<string, string>).toString()
    : new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
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
): Record<string, string> {
  return {
    token: 'local-workspace-verification-token',
    team_id: team.id,
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
    trigger_id: triggerId(),
  };
}

/** The clicked button and the message it is in. */
export interface ButtonClick {
  actionId: string;
  blockId: string;
  value?: string;
  text: string;
  message: { ts: string; ephemeral: boolean; text?: string; blocks?: unknown[] };
}

/** The body of a `block_actions` interaction for one button click: its payload as the form field `payload`. */
export function blockActionsBody(
  team: Team,
  user: Person,
  channel: Place,
  click: ButtonClick,
  botUserId: string,
  responseUrl: string,
): string {
  return formBody('interactive', blockActionsPayload(team, user, channel, click, botUserId, responseUrl));
}

/** The `block_actions` payload of one button click (in Socket Mode, the `payload` of an `interactive` envelope). */
export function blockActionsPayload(
  team: Team,
  user: Person,
  channel: Place,
  click: ButtonClick,
  botUserId: string,
  responseUrl: string,
): Record<string, unknown> {
  return {
    type: 'block_actions',
    user: { id: user.id, username: user.name, name: user.name, team_id: team.id },
    api_app_id: team.appId,
    token: 'local-workspace-verification-token',
    container: {
      type: 'message',
      message_ts: click.message.ts,
      channel_id: channel.id,
      is_ephemeral: click.message.ephemeral,
    },
    trigger_id: triggerId(),
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
            text: click.message.text ?? '',
            ...(click.message.blocks ? { blocks: click.message.blocks } : {}),
          },
        }),
    state: { values: {} },
    response_url: responseUrl,
    actions: [
      {
        action_id: click.actionId,
        block_id: click.blockId,
        ...(click.value !== undefined ? { value: click.value } : {}),
        type: 'button',
        action_ts: slackTs(),
        text: { type: 'plain_text', text: click.text, emoji: true },
      },
    ],
  };
}

function slackTs(): string {
  const ms = Date.now();
  return `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1000).padStart(6, '0')}`;
}

/**
 * A trigger_id shaped like Slack's (`<issued ms>.<n>.<hex>`): the stand-in reads its age from the first part
 * (views.open accepts it for 3 s, once).
 */
export function triggerId(now: number = Date.now()): string {
  return `${now}.${randomBytes(4).readUInt32BE()}.${randomBytes(10).toString('hex')}`;
}
