import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'digest';

/** `/treasury digest`: the daily digest now, only for the person who asked. */
export const digest = defineSubcommand({
  name: 'digest',
  group: 'alerts',
  usage: [[SYNTAX, 'the daily digest now, only for you: balances and their change, alerts, swaps, limits']],
  examples: ['digest'],
  access: 'treasury-users',
  parse(args): { kind: 'digest' } {
    if (args.length > 0) throw new UsageError('`digest` takes nothing after it.', SYNTAX);
    return { kind: 'digest' };
  },
  run: async (_command, { deps }) => deps.digest.show(),
});
