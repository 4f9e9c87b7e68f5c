import { context, header, type SlackMessage, section } from '../blocks/common.js';
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
      section(lines.join('\n')),
      context(
        '`&lt;asset&gt;` is an asset id, a symbol unique among your assets (`USDT`) or `SYMBOL@NETWORK` (`USDT@BSC`). ' +
          'Invoice options: `--expires 2h` (at most 24h), `--asset &lt;asset&gt;` (USD invoices), `--data &lt;text&gt;`.',
      ),
    ],
  };
}
