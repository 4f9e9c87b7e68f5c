import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'runway';

/** `/treasury runway`: how many days each balance lasts at its recent outflow, only for the person who asked. */
export const runway = defineSubcommand({
  name: 'runway',
  group: 'look-up',
  usage: [[SYNTAX, 'how many days each balance lasts at its outflow of the last 7 days, e.g. `runway`']],
  examples: ['runway'],
  access: 'treasury-users',
  parse(args): { kind: 'runway' } {
    if (args.length > 0) throw new UsageError('`runway` takes nothing after it.', SYNTAX);
    return { kind: 'runway' };
  },
  run: async (_command, { deps }) => deps.runway.show(),
});
