import { missingScope } from './answers.js';
import type { SlackState } from './state.js';
import type { MethodHandler } from './types.js';
import { asBoolean, asString } from './values.js';

/** usergroups.users.list: a user group's members. */
export function usergroupsMethods(state: SlackState): Record<string, MethodHandler> {
  return {
    /*
     * usergroups.users.list (scope usergroups:read; the method's reference): `{ok, users}` with the group's member
     * ids. `usergroup` is required (`invalid_arguments` naming it, as Slack answers a missing required argument);
     * an id that names no group answers `no_such_subteam`. "include_disabled: allow results that involve disabled
     * User Groups": without it a disabled group lists nobody.
     */
    'usergroups.users.list': (args) => {
      if (!(state.options.usergroupsRead ?? true)) return missingScope('usergroups:read');
      const groupId = asString(args.usergroup) ?? '';
      if (groupId === '')
        return {
          ok: false,
          error: 'invalid_arguments',
          response_metadata: { messages: ['[ERROR] missing required field: usergroup'] },
        };
      const group = state.usergroups.get(groupId);
      if (group === undefined) return { ok: false, error: 'no_such_subteam' };
      const listed = group.disabled === true && asBoolean(args.include_disabled) !== true ? [] : group.users;
      return { ok: true, users: [...listed] };
    },
  };
}
