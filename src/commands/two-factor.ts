import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = '2fa [enroll | confirm <code> | reset @person]';

type TwoFactorCommand =
  | { kind: '2fa-show' }
  | { kind: '2fa-enroll' }
  | { kind: '2fa-confirm'; code: string }
  | { kind: '2fa-reset'; userId: string };

/**
 * A person as typed: a mention as Slack writes it when it escapes the command (`<@U0RILEY|riley>`, `<@U0RILEY>`) or
 * a member id (`U0RILEY`, `W0RILEY`). A bare `@riley` carries no id (the command's text is not escaped), so it is
 * refused with how to find the id.
 */
function readPerson(typed: string): string {
  const mention = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(typed);
  if (mention?.[1]) return mention[1];
  if (/^[UW][A-Z0-9]{2,}$/.test(typed)) return typed;
  throw new UsageError(
    `"${typed}" is not a person the bot can read: give their member id (in Slack, their profile → ⋯ → Copy member ID), e.g. \`2fa reset U0RILEY\`.`,
    SYNTAX,
  );
}

/** `/treasury 2fa`: your second factor; `enroll`, `confirm <code>`, and `reset @person` for admins. */
export const twoFactor = defineSubcommand({
  name: '2fa',
  usage: [
    [
      SYNTAX,
      'your second factor for large approvals: alone, your state; `enroll` sends a QR code by direct message; `confirm` finishes with a code from your app, e.g. `2fa confirm 123 456`; admins reset a person, e.g. `2fa reset U0RILEY`',
    ],
  ],
  examples: ['2fa', '2fa enroll', '2fa confirm 123456', '2fa confirm 123 456', '2fa reset U0RILEY'],
  // Every treasury user enrols themself; SecondFactorService.reset refuses anyone but a treasury admin.
  access: 'treasury-users',
  parse(args): TwoFactorCommand {
    const [action, ...rest] = args;
    if (action === undefined) return { kind: '2fa-show' };
    switch (action.toLowerCase()) {
      case 'enroll':
      case 'enrol':
        if (rest.length > 0) throw new UsageError('`2fa enroll` takes nothing after it.', SYNTAX);
        return { kind: '2fa-enroll' };
      case 'confirm': {
        // "123 456" arrives as two words: the rules read the digits and refuse anything but six.
        if (rest.length === 0)
          throw new UsageError('Give the 6-digit code your app shows, e.g. `2fa confirm 123456`.', SYNTAX);
        return { kind: '2fa-confirm', code: rest.join(' ') };
      }
      case 'reset': {
        const [person, extra] = rest;
        if (person === undefined || extra !== undefined)
          throw new UsageError('Say whose second factor to reset, one person, e.g. `2fa reset U0RILEY`.', SYNTAX);
        return { kind: '2fa-reset', userId: readPerson(person) };
      }
      default:
        throw new UsageError(`"${action}" is not something \`2fa\` does: use enroll, confirm or reset.`, SYNTAX);
    }
  },
  async run(command, { deps, userId }) {
    switch (command.kind) {
      case '2fa-show':
        return deps.secondFactor.show(userId);
      case '2fa-enroll':
        return deps.secondFactor.enroll(userId);
      case '2fa-confirm':
        return deps.secondFactor.confirm(userId, command.code);
      case '2fa-reset':
        return deps.secondFactor.reset(userId, command.userId);
    }
  },
});
