import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'thresholds';

/** `/treasury thresholds`: every balance threshold with the balance now. */
export const thresholds = defineSubcommand({
  name: 'thresholds',
  group: 'alerts',
  usage: [[SYNTAX, 'balance thresholds with each balance now']],
  examples: ['thresholds'],
  access: 'treasury-users',
  parse(args): { kind: 'thresholds' } {
    if (args.length > 0) throw new UsageError('`thresholds` takes nothing after it.', SYNTAX);
    return { kind: 'thresholds' };
  },
  run: async (_command, { deps, userId }) => deps.thresholds.list(userId),
});
