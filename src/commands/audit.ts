import type { SlackMessage } from '../blocks/common.js';
import { ALERT_TRAIL_RETENTION_MS } from '../features/alerts/trail.js';
import { formatDuration, parseDuration } from '../kernel/durations.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'audit <period>';

/** `/treasury audit <period>`: the audit trail as a CSV file in the requester's direct messages (admins). */
export const audit = defineSubcommand({
  name: 'audit',
  group: 'controls',
  usage: [[SYNTAX, 'the audit trail as a CSV file in your direct messages (admins), e.g. `audit 30d` (at most 400d)']],
  examples: ['audit 30d', 'audit 12h'],
  // AuditExport.request refuses anyone else.
  access: 'admins',
  /** `period` as the person should read it back (`30d`), `periodMs` the same in milliseconds. */
  parse(args): { kind: 'audit'; periodMs: number; period: string } {
    const [typed, extra] = args;
    if (typed === undefined || extra !== undefined)
      throw new UsageError('Give one period, e.g. `audit 30d` or `audit 7d`.', SYNTAX);
    const periodMs = parseDuration(typed);
    if (periodMs === undefined) throw new UsageError(`"${typed}" is not a period: use e.g. 30d, 7d or 12h.`, SYNTAX);
    if (periodMs > ALERT_TRAIL_RETENTION_MS)
      throw new UsageError('The trail keeps 400 days: give at most 400d.', SYNTAX);
    return { kind: 'audit', periodMs, period: formatDuration(periodMs) };
  },
  async run(command, { deps, userId, channelId, responseUrl, answered }) {
    // Answered at once; the file follows in the requester's DM, and a failure is told where they asked.
    const tell = (message: SlackMessage) =>
      deps.slack.respond(responseUrl, { response_type: 'ephemeral', ...message }, { channelId, userId });
    const { reply, send } = await deps.audit.request(userId, { ms: command.periodMs, text: command.period }, tell);
    // After "the file will arrive…" has reached the person, so a quick failure never arrives before it.
    if (send)
      deps.background.run('an audit export', async () => {
        await answered;
        await send();
      });
    return reply;
  },
});
