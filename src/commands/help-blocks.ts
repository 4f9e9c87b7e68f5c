import { type Block, context, header, LIMITS, type SlackMessage, section } from '../blocks/common.js';
import { escapeText, quoteInput } from '../kernel/text.js';
import { SUBCOMMANDS } from './index.js';
import type { UsageLine } from './subcommand.js';

/** `/treasury help`: every registered subcommand's usage lines, with an example; `unknown` was typed instead of one. */
export function buildHelp(extraUsage: readonly UsageLine[] = [], unknown?: string): SlackMessage {
  // The syntax holds `<asset>`-style placeholders: escaped, or Slack would read them as links.
  const lines = [...SUBCOMMANDS.flatMap((subcommand) => subcommand.usage), ...extraUsage].map(
    ([syntax, what]) => `• \`/treasury ${escapeText(syntax)}\` — ${what}`,
  );
  const notice = unknown === undefined ? undefined : `${quoteInput(unknown)} is not a /treasury command. These are:`;
  return {
    text:
      notice === undefined
        ? 'Treasury bot commands'
        : `${quoteInput(unknown!)} is not a /treasury command; here are the ones there are`,
    blocks: [
      ...(notice === undefined ? [] : [section(`:warning: ${notice}`)]),
      header('Treasury bot'),
      ...linesInSections(lines),
      context(
        '`&lt;asset&gt;` is an asset id, a symbol unique among your assets (`USDT`) or `SYMBOL@NETWORK` (`USDT@BSC`). ' +
          'Invoice options: `--expires 2h` (at most 24h), `--asset &lt;asset&gt;` (USD invoices), `--data &lt;text&gt;`.',
      ),
    ],
  };
}

/** The lines in as few sections as Slack's 3,000 characters per section allow, each line whole. */
function linesInSections(lines: readonly string[]): Block[] {
  const sections: string[] = [];
  for (const line of lines) {
    const last = sections.at(-1);
    if (last !== undefined && last.length + 1 + line.length <= LIMITS.sectionText)
      sections[sections.length - 1] = `${last}\n${line}`;
    else sections.push(line);
  }
  return sections.map((text) => section(text));
}
