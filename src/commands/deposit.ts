import * as lookups from '../features/lookups/service.js';
import { defineSubcommand } from './subcommand.js';
import { requireId } from './words.js';

const SYNTAX = 'deposit <id>';

/** `/treasury deposit <id>`: one deposit. */
export const deposit = defineSubcommand({
  name: 'deposit',
  group: 'look-up',
  usage: [[SYNTAX, 'one deposit']],
  examples: ['deposit 3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f'],
  access: 'treasury-users',
  parse: (args): { kind: 'deposit'; depositId: string } => ({
    kind: 'deposit',
    depositId: requireId(args, 'deposit', SYNTAX),
  }),
  run: async (command, { deps }) => lookups.showDeposit(deps, command.depositId),
});
