/** The options of `/treasury invoice`: `--expires`, `--asset` and `--data`, told apart from the title's words. */

import type { InvoiceOptions } from '../features/lookups/service.js';
import { INVOICE_USD_SYNTAX } from '../features/lookups/syntax.js';
import { parseDuration } from '../kernel/durations.js';
import { UsageError } from '../kernel/usage-error.js';
import { MAX_PAYMENT_DELAY_SECONDS } from '../payments/index.js';

/** Splits the tokens after the amount into the title's words and the options; a malformed option is refused. */
export function parseInvoiceOptions(tokens: readonly string[]): { words: string[]; options: InvoiceOptions } {
  const words: string[] = [];
  const options: InvoiceOptions = {};
  const given = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const optionMatch = /^--(expires|asset|data)(?:=(.*))?$/.exec(token);
    if (!optionMatch) {
      if (token.startsWith('--'))
        throw new UsageError(
          `Unknown option ${token}. Invoice options are --expires, --asset and --data.`,
          INVOICE_USD_SYNTAX,
        );
      // `—expires` (some keyboards and clients turn `--` into a dash) or `-expires` would otherwise join the title.
      const dashed = /^(?:-|\u2014|\u2013)+([A-Za-z][\w-]*)(?:=.*)?$/.exec(token);
      if (dashed)
        throw new UsageError(
          `"${token}" looks like an option: write it with two hyphens (--${dashed[1]}). Invoice options are --expires, --asset and --data.`,
          INVOICE_USD_SYNTAX,
        );
      words.push(token);
      continue;
    }
    const name = optionMatch[1]!;
    // Given twice, the last one would silently win: refuse rather than pick.
    if (given.has(name)) throw new UsageError(`--${name} is given twice: give it once.`, INVOICE_USD_SYNTAX);
    given.add(name);
    const value = optionMatch[2] ?? tokens[++i];
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value.`, INVOICE_USD_SYNTAX);
    if (name === 'expires') {
      const ms = parseDuration(value);
      if (ms === undefined)
        throw new UsageError(`--expires takes a duration such as 30m, 2h or 1d, not "${value}".`, INVOICE_USD_SYNTAX);
      if (ms % 1000 !== 0 || ms / 1000 > MAX_PAYMENT_DELAY_SECONDS) {
        throw new UsageError(
          '--expires can be at most 24h (the payment service allows 86400 seconds).',
          INVOICE_USD_SYNTAX,
        );
      }
      options.expiresInSeconds = ms / 1000;
    } else if (name === 'asset') {
      options.asset = value;
    } else {
      options.data = value;
    }
  }
  return { words, options };
}
