import { UserFacingError } from '../kernel/errors.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = '2fa [enroll | confirm <code> | reset [@person]]';

type TwoFactorCommand =
  | { kind: '2fa-show' }
  | { kind: '2fa-enroll' }
  | { kind: '2fa-confirm'; code: string }
  | { kind: '2fa-reset'; userId: string }
  | { kind: '2fa-reset-pick'; typed?: string };

/**
 * A person as typed, when it names one the bot can read: a mention as Slack writes it when it escapes the command
 * (`<@U0RILEY|riley>`, `<@U0RILEY>`) or a member id (`U0RILEY`, `W0RILEY`). A typed `@riley` carries no id (this
 * command's text is not escaped by Slack): it reads as nobody, and the admin picks the person in Slack's menu.
 */
function readPerson(typed: string): string | undefined {
  const mention = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(typed);
  if (mention?.[1]) return mention[1];
  if (/^[UW][A-Z0-9]{2,}$/.test(typed)) return typed;
  return undefined;
}

/** `/treasury 2fa`: your second factor; `enroll`, `confirm <code>`, and `reset [@person]` (a picker) for admins. */
export const twoFactor = defineSubcommand({
  name: '2fa',
  group: 'controls',
  usage: [
    [
      SYNTAX,
      'your second factor for large approvals: alone, your state; `enroll` sends a QR code by direct message; `confirm` finishes with a code from your app, e.g. `2fa confirm 123 456`; admins reset a person: `2fa reset` opens a picker, e.g. `2fa reset @person` (a member id resets at once: `2fa reset U0RILEY`)',
    ],
  ],
  examples: [
    '2fa',
    '2fa enroll',
    '2fa confirm 123456',
    '2fa confirm 123 456',
    '2fa reset',
    '2fa reset @person',
    '2fa reset U0RILEY',
  ],
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
        const people = rest.map(readPerson);
        if (rest.length === 1 && people[0] !== undefined) return { kind: '2fa-reset', userId: people[0] };
        if (people.some((person) => person !== undefined))
          throw new UsageError('Reset one person at a time, e.g. `2fa reset U0RILEY`.', SYNTAX);
        // Nobody named, or a name Slack sent without its id (`@avery`, `avery`): Slack's own menu finds them.
        return rest.length === 0 ? { kind: '2fa-reset-pick' } : { kind: '2fa-reset-pick', typed: rest.join(' ') };
      }
      default:
        throw new UsageError(`"${action}" is not something \`2fa\` does: use enroll, confirm or reset.`, SYNTAX);
    }
  },
  async run(command, { deps, userId, trigger }) {
    switch (command.kind) {
      case '2fa-show':
        return deps.secondFactor.show(userId);
      case '2fa-enroll':
        return deps.secondFactor.enroll(userId);
      case '2fa-confirm':
        return deps.secondFactor.confirm(userId, command.code);
      case '2fa-reset':
        return deps.secondFactor.reset(userId, command.userId);
      case '2fa-reset-pick':
        if (trigger === undefined)
          throw new UserFacingError(
            'Slack sent no way to open the picker with this command: give their member id, e.g. `/treasury 2fa reset U0RILEY`.',
          );
        // The picker is the answer: nothing else is posted.
        await deps.secondFactor.openResetPicker(userId, trigger, command.typed);
        return undefined;
    }
  },
});
