import * as lookups from '../features/lookups/service.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

/** The statuses `gas` filters on. */
export const GAS_STATUSES = ['pending', 'cancelled', 'failed', 'success'] as const;

const SYNTAX = 'gas [pending|cancelled|failed|success]';

/** `/treasury gas [status]`: gas manager top-ups. */
export const gas = defineSubcommand({
  name: 'gas',
  group: 'look-up',
  usage: [[SYNTAX, 'gas manager top-ups, e.g. `gas failed`']],
  examples: ['gas failed', 'gas'],
  access: 'treasury-users',
  parse(args): { kind: 'gas'; status?: (typeof GAS_STATUSES)[number] } {
    if (args.length > 1) throw new UsageError('Give at most one status.', SYNTAX);
    const status = args[0]?.toLowerCase();
    if (status !== undefined && !(GAS_STATUSES as readonly string[]).includes(status)) {
      throw new UsageError(`"${args[0]}" is not a gas status: use ${GAS_STATUSES.join(', ')}.`, SYNTAX);
    }
    return { kind: 'gas', status: status as (typeof GAS_STATUSES)[number] | undefined };
  },
  run: async (command, { deps }) => lookups.showGas(deps, { status: command.status, cursor: null, offset: 0 }),
});
