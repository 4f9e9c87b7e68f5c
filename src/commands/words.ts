/** Reading the words of a `/treasury` command: tokens, and the record ids some subcommands take. */
import { isUuid } from '../kernel/ids.js';
import { UsageError } from '../kernel/usage-error.js';

/**
 * Splits on whitespace, keeping quoted phrases together ("…", '…' and Slack's curly quotes), so that
 * `--data "order 42"` is one option value.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const pattern = /"([^"]*)"|“([^”]*)”|'([^']*)'|‘([^’]*)’|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    tokens.push(match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5] ?? '');
  }
  return tokens;
}

/** The one record id in `args` (lower case), or a UsageError naming `what` and showing `syntax`. */
export function requireId(args: readonly string[], what: string, syntax: string): string {
  const [id, extra] = args;
  if (id === undefined) throw new UsageError(`Which ${what}? Give its id.`, syntax);
  if (extra !== undefined) throw new UsageError(`Give only the ${what} id.`, syntax);
  if (!isUuid(id))
    throw new UsageError(`"${id}" is not a ${what} id (ids look like 3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f).`, syntax);
  return id.toLowerCase();
}
