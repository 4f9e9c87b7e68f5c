import * as lookups from '../features/lookups/service.js';
import { defineSubcommand } from './subcommand.js';
import { requireId } from './words.js';

const SYNTAX = 'withdrawal <id>';

/** `/treasury withdrawal <id>`: one withdrawal. */
export const withdrawal = defineSubcommand({
  name: 'withdrawal',
  group: 'look-up',
  usage: [[SYNTAX, 'one withdrawal']],
  examples: ['withdrawal 3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f'],
  access: 'treasury-users',
  parse: (args): { kind: 'withdrawal'; withdrawalId: string } => ({
    kind: 'withdrawal',
    withdrawalId: requireId(args, 'withdrawal', SYNTAX),
  }),
  run: async (command, { deps }) => lookups.showWithdrawal(deps, command.withdrawalId),
});
