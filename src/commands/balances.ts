import * as lookups from '../features/lookups/service.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'balances';

/** `/treasury balances`: every asset with its balance. */
export const balances = defineSubcommand({
  name: 'balances',
  group: 'look-up',
  usage: [[SYNTAX, 'every asset with its balance and USD value']],
  examples: ['balances'],
  access: 'treasury-users',
  parse(args): { kind: 'balances' } {
    if (args.length > 0)
      throw new UsageError(
        `\`balances\` takes nothing after it; for one asset, \`balance ${args.join(' ')}\`.`,
        SYNTAX,
      );
    return { kind: 'balances' };
  },
  run: async (_command, { deps }) => lookups.showBalances(deps),
});
