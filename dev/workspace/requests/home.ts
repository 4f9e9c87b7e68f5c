// The Home tab: the app_home_opened event, and clicks in a published Home view.
import { randomBytes } from 'node:crypto';
import { type Person, slackTs, type Team, teamOf, triggerId } from './wire.js';

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
function homeViewPayloadObject(team: Team, botId: string, held: HeldHome): Record<string, unknown> {
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
