// Who sends a request and how it travels: the team and people, Slack's signature, the body of each kind, and the
// POST to the app; ids shaped like Slack's (message ts, trigger_id).
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
function signedHeaders(
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
function contentTypeOf(kind: RequestKind): 'application/x-www-form-urlencoded' | 'application/json' {
  return kind === 'events_api' ? 'application/json' : 'application/x-www-form-urlencoded';
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

/** Whether a value is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A Slack message ts ("seconds.micros") for a time in ms. */
export function slackTs(ms: number = Date.now()): string {
  return `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1000).padStart(6, '0')}`;
}

/**
 * A trigger_id shaped like Slack's (`<issued ms>.<n>.<hex>`): the stand-in reads its age from the first part
 * (views.open accepts it for 3 s, once).
 */
export function triggerId(now: number = Date.now()): string {
  return `${now}.${randomBytes(4).readUInt32BE()}.${randomBytes(10).toString('hex')}`;
}
