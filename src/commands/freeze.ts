import { MAX_FREEZE_FOR_MS } from '../features/freeze/rules.js';
import { formatDuration, parseDuration } from '../kernel/durations.js';
import { UsageError } from '../kernel/usage-error.js';
import { refreshHomeAfterAct } from '../slack/listener-kit.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'freeze [<reason> [--for <duration>]]';

type FreezeCommand = { kind: 'freeze-show' } | { kind: 'freeze'; reason: string; forMs?: number };

/** `/treasury freeze <reason> [--for 2h]`: stops money moving at once (approvers, admins); alone, shows the state. */
export const freeze = defineSubcommand({
  name: 'freeze',
  group: 'controls',
  usage: [
    [
      SYNTAX,
      'stop every swap and payout at once (approvers and admins); admins lift it with Unfreeze; alone, shows the state, e.g. `freeze leaked token --for 2h`',
    ],
  ],
  examples: ['freeze', 'freeze leaked token', 'freeze "strange quote" --for 2h'],
  // Approvers and admins: FreezeService.freeze refuses anyone else; showing the state is for every treasury user.
  access: 'treasury-users',
  parse(args): FreezeCommand {
    if (args.length === 0) return { kind: 'freeze-show' };
    const at = args.findIndex((word) => word.toLowerCase() === '--for');
    if (at === -1) return { kind: 'freeze', reason: args.join(' ') };
    const value = args[at + 1];
    if (value === undefined || at + 2 !== args.length)
      throw new UsageError('Put `--for` and a duration last, e.g. `freeze leaked token --for 2h`.', SYNTAX);
    const forMs = parseDuration(value);
    if (forMs === undefined || forMs > MAX_FREEZE_FOR_MS)
      throw new UsageError(
        `\`--for\` takes a duration such as \`30m\`, \`2h\` or \`1d\`, at most ${formatDuration(MAX_FREEZE_FOR_MS)} (leave it out to freeze until admins lift it).`,
        SYNTAX,
      );
    const reason = args.slice(0, at).join(' ');
    if (reason.trim() === '') throw new UsageError('Say why, e.g. `freeze leaked token --for 2h`.', SYNTAX);
    return { kind: 'freeze', reason, forMs };
  },
  async run(command, { deps, userId }) {
    if (command.kind === 'freeze-show') return deps.freeze.show();
    const reply = await deps.freeze.freeze(userId, command.reason, command.forMs);
    refreshHomeAfterAct(deps, userId);
    return reply;
  },
});
