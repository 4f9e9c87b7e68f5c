import type { ApiAnswer } from './types.js';

// The manifests' bot scopes: a `missing_scope` answer says the token has these but the one it needs.
const MANIFEST_BOT_SCOPES = [
  'commands',
  'chat:write',
  'chat:write.public',
  'channels:join',
  'channels:history',
  'groups:history',
  'usergroups:read',
  'files:write',
  'im:write',
  'im:history',
];

/** Slack's answer when the token lacks `scope`: what it needed and what it has (the manifests' scopes but that). */
export function missingScope(scope: string): ApiAnswer {
  return {
    ok: false,
    error: 'missing_scope',
    needed: scope,
    provided: MANIFEST_BOT_SCOPES.filter((s) => s !== scope).join(','),
  };
}

/** Slack's answer to a missing required argument, naming the field. */
export function missingField(field: string): ApiAnswer {
  return {
    ok: false,
    error: 'invalid_arguments',
    response_metadata: { messages: [`[ERROR] missing required field: ${field}`] },
  };
}

/** Slack's answer to an argument it cannot take, naming the field. */
export function invalidField(field: string, problem: string): ApiAnswer {
  return {
    ok: false,
    error: 'invalid_arguments',
    response_metadata: { messages: [`[ERROR] ${problem} [json-pointer:/${field}]`] },
  };
}
