import type { SlackState } from './state.js';
import type { MethodHandler } from './types.js';

/** auth.test (who the token is) and apps.connections.open (where a Socket Mode client connects). */
export function authMethods(state: SlackState): Record<string, MethodHandler> {
  return {
    'apps.connections.open': () =>
      state.socketModeUrl === undefined
        ? { ok: false, error: 'socket_mode_not_available' }
        : { ok: true, url: state.socketModeUrl },
    'auth.test': () => ({
      ok: true,
      url: `https://${state.teamDomain}.slack.com/`,
      team: state.teamName,
      user: 'treasury-bot',
      team_id: state.teamId,
      ...(state.options.enterpriseId !== undefined ? { enterprise_id: state.options.enterpriseId } : {}),
      user_id: state.botUserId,
      bot_id: state.botId,
      is_enterprise_install: false,
    }),
  };
}
