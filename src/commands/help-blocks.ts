import { type Block, context, header, type SlackMessage, section } from '../blocks/common.js';
import { escapeText, quoteInput } from '../kernel/text.js';
import { SUBCOMMANDS } from './index.js';
import { HELP_GROUPS, type HelpAsk, type HelpGroup, type Subcommand, type UsageLine } from './subcommand.js';

const REGISTERED: readonly Subcommand<{ kind: string }>[] = SUBCOMMANDS;

/** Said under a subcommand's lines when one takes an asset. */
const ASSET_NOTE =
  '`&lt;asset&gt;` is an asset id, a symbol unique among your assets (`USDT`) or `SYMBOL@NETWORK` (`USDT@BSC`).';

/**
 * `/treasury help`: the subcommands by group, in a few lines; `/treasury help <subcommand>`: that subcommand's
 * lines, with examples. A topic that names none (or a first word that is no subcommand) is said so, above the groups.
 */
export function buildHelp(ask: HelpAsk = {}): SlackMessage {
  if (ask.topic === undefined) return helpGroups();
  const word = ask.topic.toLowerCase();
  const found = REGISTERED.find((subcommand) => subcommand.name === word || subcommand.aliases?.includes(word));
  if (found !== undefined) return helpFor(found);
  const notice = `${quoteInput(ask.topic)} is not a /treasury command.`;
  const groups = helpGroups();
  return {
    text: `${notice} These are the ones there are`,
    blocks: [section(`:warning: ${notice} These are:`), ...groups.blocks],
  };
}

/** One line of help as shown: the syntax (its `<asset>`-style placeholders escaped, or Slack reads them as links). */
function usageLineText([syntax, what]: UsageLine): string {
  return `• \`/treasury ${escapeText(syntax)}\` — ${what}`;
}

/** Every subcommand's name under its group's title, one line per group, and how to ask about one. */
function helpGroups(): SlackMessage & { blocks: Block[] } {
  const lines = (Object.entries(HELP_GROUPS) as [HelpGroup, string][]).map(([group, title]) => {
    const names = REGISTERED.filter((subcommand) => subcommand.group === group).map(({ name }) => `\`${name}\``);
    return `*${title}* — ${names.join(' · ')}`;
  });
  return {
    text: 'Treasury bot commands',
    blocks: [
      header('Treasury bot'),
      section(lines.join('\n')),
      context('`/treasury help <subcommand>` says what one does, with examples, e.g. `/treasury help swap`.'),
    ],
  };
}

/** One subcommand's lines, then what they have no room for: its other names, who may run it, its notes. */
function helpFor(subcommand: Subcommand<{ kind: string }>): SlackMessage {
  const notes = [
    ...(subcommand.aliases ?? []).map((alias) => `\`/treasury ${alias}\` is the same.`),
    ...(subcommand.access === 'admins' ? ['For treasury admins.'] : []),
    ...(subcommand.usage.some(([syntax]) => syntax.includes('asset>')) ? [ASSET_NOTE] : []),
    ...(subcommand.note === undefined ? [] : [subcommand.note]),
  ];
  return {
    text: `/treasury ${subcommand.name}`,
    blocks: [
      header(`/treasury ${subcommand.name}`),
      section(subcommand.usage.map(usageLineText).join('\n')),
      ...(notes.length === 0 ? [] : [context(notes.join(' '))]),
    ],
  };
}
