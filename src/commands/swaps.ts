import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'swaps';

/** `/treasury swaps`: recent swap quotes and who decided them. */
export const swaps = defineSubcommand({
  name: 'swaps',
  group: 'move-money',
  usage: [[SYNTAX, 'recent swap quotes and who decided them']],
  examples: ['swaps'],
  access: 'treasury-users',
  parse(args): { kind: 'swaps' } {
    if (args.length > 0)
      throw new UsageError('`swaps` takes nothing after it; for one swap, `swap <swap-id>`.', SYNTAX);
    return { kind: 'swaps' };
  },
  run: async (_command, { deps }) => deps.swaps.showHistory(),
});
