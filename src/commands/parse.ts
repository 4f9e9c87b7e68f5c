/**
 * Turns the text after `/treasury` into a typed command, without any API call, by the table in index.ts: the first
 * word picks the subcommand module, which reads the rest. Anything wrong with the text is a UsageError: its
 * `message` is plain text, its `mrkdwn` the escaped message and the usage line.
 */
import type { SlackMessage } from '../blocks/common.js';
import { help } from './help.js';
import { SUBCOMMANDS, type TreasuryCommand } from './index.js';
import type { CommandContext, Subcommand } from './subcommand.js';
import { tokenize } from './words.js';

const REGISTERED: readonly Subcommand<TreasuryCommand>[] = SUBCOMMANDS;

const BY_WORD = new Map<string, Subcommand<TreasuryCommand>>(
  REGISTERED.flatMap((subcommand) =>
    [subcommand.name, ...(subcommand.aliases ?? [])].map((word) => [word, subcommand]),
  ),
);

/** A command read from its text: the module that parsed it, what it parsed, and how to run it. */
export interface ParsedTreasuryCommand {
  subcommand: Subcommand<TreasuryCommand>;
  command: TreasuryCommand;
  run(context: CommandContext): Promise<SlackMessage | undefined>;
}

/** Reads the text of `/treasury …` and binds it to its module; an unknown first word is answered with help. */
export function readTreasuryCommand(text: string): ParsedTreasuryCommand {
  const [typed, ...args] = tokenize(text.trim());
  const found = typed === undefined ? help : BY_WORD.get(typed.toLowerCase());
  // A typo is best answered by help asked about it: it is said plainly, above the groups.
  const [subcommand, command] =
    found === undefined
      ? [help as Subcommand<TreasuryCommand>, { kind: 'help', topic: typed } as const]
      : [found, found.parse(args)];
  return { subcommand, command, run: (context) => subcommand.run(command, context) };
}

/** Parses the text of `/treasury …`. */
export function parseTreasuryCommand(text: string): TreasuryCommand {
  return readTreasuryCommand(text).command;
}
