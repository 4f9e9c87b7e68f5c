import { USAGE } from '../commands/parse.js';
import { escapeText, quoteInput } from '../kernel/text.js';
import { context, header, type SlackMessage, section } from './common.js';

/** `/treasury help`: every subcommand with an example. */
export function buildHelp(extraUsage: ReadonlyArray<readonly [string, string]> = [], unknown?: string): SlackMessage {
  // The syntax holds `<asset>`-style placeholders: escaped, or Slack would read them as links.
  const lines = [...Object.values(USAGE), ...extraUsage].map(
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
