import { parseUsdLimit } from '../features/swaps/policy.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'policy [usd-amount]';

/** `/treasury policy [usd-amount]`: who approves swaps, and what an amount needs. */
export const policy = defineSubcommand({
  name: 'policy',
  group: 'move-money',
  usage: [[SYNTAX, 'who approves swaps, the limits; e.g. `policy $250,000` says what that amount needs']],
  examples: ['policy $250,000', 'policy'],
  access: 'treasury-users',
  parse(args): { kind: 'policy'; amountCents?: bigint } {
    if (args.length === 0) return { kind: 'policy' };
    const { limitCents, problems } = parseUsdLimit(args.join(' '), 'policy');
    if (limitCents === undefined)
      throw new UsageError(
        `${problems[0]?.replace(/^policy: /, '') ?? 'Give a USD amount'}: e.g. \`policy $250,000\`.`,
        SYNTAX,
      );
    return { kind: 'policy', amountCents: limitCents };
  },
  run: async (command, { deps }) => deps.swaps.describePolicy(deps.access.treasuryUsers, command.amountCents),
});
