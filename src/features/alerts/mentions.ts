// Whom an alert or a request mentions: a person or a user group, read from configuration and written as Slack does.
// Apart from routing.ts, which reads the alert kinds' table, so that what mentions people need not load the kinds.

/** Someone an alert can mention: a person (`U…`/`W…`) or a user group (`S…`). */
export type Mentionable = { type: 'user'; id: string } | { type: 'group'; id: string };

const USER_ID = /^[UW][A-Z0-9]{2,}$/;
const GROUP_ID = /^S[A-Z0-9]{2,}$/;

/** Reads one id as a person or a user group; undefined when it is neither. */
export function parseMentionable(text: string): Mentionable | undefined {
  if (USER_ID.test(text)) return { type: 'user', id: text };
  if (GROUP_ID.test(text)) return { type: 'group', id: text };
  return undefined;
}

/** How Slack writes a mention in message text: `<@U…>` for a person, `<!subteam^S…>` for a group. */
export function mentionText(who: Mentionable): string {
  return who.type === 'user' ? `<@${who.id}>` : `<!subteam^${who.id}>`;
}

/** ALERT_ONCALL: user ids and/or user group ids, separated by commas or spaces. */
export function parseOnCall(text: string): { oncall: Mentionable[]; problems: string[] } {
  const oncall: Mentionable[] = [];
  const problems: string[] = [];
  for (const item of text.split(/[\s,]+/).filter(Boolean)) {
    const who = parseMentionable(item);
    if (who) oncall.push(who);
    else problems.push(`ALERT_ONCALL: "${item}" is not a Slack user id (U…) or user group id (S…)`);
  }
  return { oncall, problems };
}
