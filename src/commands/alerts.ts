import { buildAlertStatus } from '../features/alerts/blocks.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'alerts';
const OPEN_SYNTAX = 'alerts open';

/** `/treasury alerts [open]`: the alert poller's status, or the alerts not resolved yet. */
export const alerts = defineSubcommand({
  name: 'alerts',
  group: 'alerts',
  usage: [
    [SYNTAX, 'the failure-alert poller: last polls, last error, alerts sent, open alerts, next run'],
    [OPEN_SYNTAX, 'alerts not resolved yet, oldest first: what, age, who has it, a link to each'],
  ],
  examples: ['alerts', 'alerts open'],
  access: 'treasury-users',
  parse(args): { kind: 'alerts' } | { kind: 'alerts-open' } {
    if (args.length === 1 && args[0]!.toLowerCase() === 'open') return { kind: 'alerts-open' };
    if (args.length > 0)
      throw new UsageError('`alerts` takes nothing after it, or `open`.', `${SYNTAX} | ${OPEN_SYNTAX}`);
    return { kind: 'alerts' };
  },
  async run(command, { deps }) {
    if (command.kind === 'alerts') return buildAlertStatus((await deps.alerts?.status()) ?? null, deps.now());
    // With the poller off there are no alerts to list: its status says so.
    return deps.alertActions ? deps.alertActions.listOpen() : buildAlertStatus(null, deps.now());
  },
});
