import * as lookups from '../features/lookups/service.js';
import { defineSubcommand } from './subcommand.js';
import { requireId } from './words.js';

const SYNTAX = 'task <id>';

/** `/treasury task <id>`: one payout task. */
export const task = defineSubcommand({
  name: 'task',
  group: 'look-up',
  usage: [[SYNTAX, 'one payout task with its gas']],
  examples: ['task 3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f'],
  access: 'treasury-users',
  parse: (args): { kind: 'task'; taskId: string } => ({ kind: 'task', taskId: requireId(args, 'payout task', SYNTAX) }),
  run: async (command, { deps }) => lookups.showPayoutTask(deps, command.taskId),
});
