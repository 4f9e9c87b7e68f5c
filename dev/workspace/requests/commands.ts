// Slash commands as Slack sends them: the person's text escaped as Slack does, the fields in Slack's order.
import { formBody, type Person, type Place, type Team, teamOf, triggerId } from './wire.js';

const SLACK_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * What a person typed, as Slack hands it to an app: `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;` (only
 * these three; quotes and emoji pass as they are). Written here from Slack's docs, not borrowed from the bot.
 */
function escapeAsSlackDoes(typed: string): string {
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
