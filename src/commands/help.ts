import { defineSubcommand } from './subcommand.js';

/** `/treasury help` (and `/treasury` alone): every subcommand with an example. */
export const help = defineSubcommand({
  name: 'help',
  usage: [['help', 'this list']],
  examples: ['help', ''],
  access: 'treasury-users',
  // Words after `help` are ignored: the list is the answer either way.
  parse: (): { kind: 'help'; unknown?: string } => ({ kind: 'help' }),
  run: async (command, { help }) => help(command.unknown),
});
