import { USAGE } from '../commands/parse.js';
import { context, header, section, type SlackMessage } from './common.js';

/** `/treasury help`: every subcommand with an example. */
export function buildHelp(extraUsage: ReadonlyArray<readonly [string, string]> = []): SlackMessage {
  const lines = [...Object.values(USAGE), ...extraUsage].map(([syntax, what]) => `• \`/treasury ${syntax}\` — ${what}`);
  return {
    text: 'Treasury bot commands',
    blocks: [
      header('Treasury bot'),
      section(lines.join('\n')),
      context(
        '`<asset>` is an asset id, a symbol unique among your assets (`USDT`) or `SYMBOL@NETWORK` (`USDT@BSC`). ' +
          'Invoice options: `--expires 2h` (at most 24h), `--asset <asset>` (USD invoices), `--data <text>`.',
      ),
    ],
  };
}
