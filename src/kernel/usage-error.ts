/** The refusal of something a person typed: what is wrong, and the syntax to use instead. */
import { UserFacingError } from './errors.js';
import { escapeText } from './text.js';

/** A problem with what the user typed; `usage` is the subcommand's syntax to show next to it. Code `usage`. */
export class UsageError extends UserFacingError {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(`${escapeText(message)}${usage ? `\nUsage: \`/treasury ${escapeText(usage)}\`` : ''}`, 'usage', message);
    this.name = 'UsageError';
  }
}
