import * as lookups from '../features/lookups/service.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'balance <asset>';

/** `/treasury balance <asset>`: one asset; without one, every asset (as `balances`). */
export const balance = defineSubcommand({
  name: 'balance',
  group: 'look-up',
  usage: [[SYNTAX, 'one asset, e.g. `balance USDT@BSC`']],
  examples: ['balance USDT@BSC', 'balance'],
  access: 'treasury-users',
  parse(args): { kind: 'balance'; asset: string } | { kind: 'balances' } {
    if (args.length === 0) return { kind: 'balances' };
    if (args.length > 1) throw new UsageError('Give one asset, e.g. `balance USDT@ETH`.', SYNTAX);
    return { kind: 'balance', asset: args[0]! };
  },
  run: async (command, { deps }) =>
    command.kind === 'balances' ? lookups.showBalances(deps) : lookups.showBalance(deps, command.asset),
});
