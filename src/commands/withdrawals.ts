import * as lookups from '../features/lookups/service.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'withdrawals [page]';

/** `/treasury withdrawals [page]`: recent withdrawals, a page at a time. */
export const withdrawals = defineSubcommand({
  name: 'withdrawals',
  group: 'look-up',
  usage: [[SYNTAX, 'recent withdrawals, newest first']],
  examples: ['withdrawals', 'withdrawals 2'],
  access: 'treasury-users',
  parse(args): { kind: 'withdrawals'; page: number } {
    if (args.length > 1) throw new UsageError('Give at most a page number.', SYNTAX);
    const page = args[0] === undefined ? 1 : /^\d{1,6}$/.test(args[0]) ? Number(args[0]) : NaN;
    if (!(page >= 1)) throw new UsageError(`"${args[0]}" is not a page number.`, SYNTAX);
    return { kind: 'withdrawals', page };
  },
  run: async (command, { deps }) => lookups.showWithdrawals(deps, command.page),
});
