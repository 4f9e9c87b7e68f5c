import { defineSubcommand } from './subcommand.js';

/** `/treasury help` (and `/treasury` alone): the subcommands by group; `/treasury help <subcommand>`: its lines. */
export const help = defineSubcommand({
  name: 'help',
  usage: [
    ['help', 'the subcommands, by group'],
    ['help <subcommand>', 'what one does, with examples, e.g. `help swap`'],
  ],
  examples: ['help', '', 'help swap'],
  access: 'treasury-users',
  // The first word after `help` is the topic; any further words are ignored.
  parse: (args): { kind: 'help'; topic?: string } =>
    args[0] === undefined ? { kind: 'help' } : { kind: 'help', topic: args[0] },
  run: async (command, { help }) => help(command),
});
