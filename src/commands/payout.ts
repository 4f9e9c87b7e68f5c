import { checkPayoutName } from '../features/payouts/rules.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'payout create <asset> "<name>"';

/** `/treasury payout create <asset> "<name>"`: proposes an empty payout container, created once confirmed. */
export const payout = defineSubcommand({
  name: 'payout',
  usage: [
    [SYNTAX, 'an empty payout container, after you confirm, e.g. `payout create USDT@BSC "November affiliates"`'],
  ],
  examples: ['payout create USDT@BSC "November affiliates"'],
  access: 'treasury-users',
  /** `name` is trimmed and within the service's length. */
  parse(args): { kind: 'payout-create'; asset: string; name: string } {
    const [verb, asset, ...words] = args;
    if (verb?.toLowerCase() !== 'create')
      throw new UsageError('To create a payout container, say `payout create`, the asset and a name.', SYNTAX);
    if (asset === undefined || words.length === 0)
      throw new UsageError(
        'Give the asset and a name in quotes, e.g. `payout create USDT@BSC "November affiliates"`.',
        SYNTAX,
      );
    // A name in quotes is one word; one typed without quotes is the words after the asset.
    const checked = checkPayoutName(words.join(' '));
    if (!checked.ok) throw new UsageError(checked.problem, SYNTAX);
    return { kind: 'payout-create', asset, name: checked.name };
  },
  run: async (command, { deps, userId, channelId }) =>
    deps.payouts.propose({ userId, channelId, assetRef: command.asset, name: command.name }),
});
