import { openForm } from '../features/forms/listeners.js';
import { payoutForm } from '../features/forms/payout-form.js';
import { checkPayoutName } from '../features/payouts/rules.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'payout create <asset> "<name>"';

/** `/treasury payout create <asset> "<name>"`: proposes an empty payout container, created once confirmed. */
export const payout = defineSubcommand({
  name: 'payout',
  group: 'move-money',
  usage: [
    [SYNTAX, 'an empty payout container, after you confirm, e.g. `payout create USDT@BSC "November affiliates"`'],
    ['payout create', 'the payout form: pick the asset, name it'],
  ],
  examples: ['payout create USDT@BSC "November affiliates"'],
  access: 'treasury-users',
  /** `name` is trimmed and within the service's length. */
  parse(args): { kind: 'payout-form' } | { kind: 'payout-create'; asset: string; name: string } {
    const [verb, asset, ...words] = args;
    if (verb?.toLowerCase() !== 'create')
      throw new UsageError('To create a payout container, say `payout create`, the asset and a name.', SYNTAX);
    // `payout create` alone: the payout form, opened with the command's trigger.
    if (asset === undefined) return { kind: 'payout-form' };
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
  async run(command, { deps, userId, channelId, responseUrl, trigger }) {
    if (command.kind === 'payout-form') {
      if (trigger === undefined)
        throw new UsageError(
          'Give the asset and a name in quotes, e.g. `payout create USDT@BSC "November affiliates"`.',
          SYNTAX,
        );
      // The proposal goes where this command's would: its response_url.
      await openForm(deps, payoutForm, { userId, trigger, origin: { responseUrl, channelId } });
      return undefined;
    }
    return deps.payouts.propose({ userId, channelId, assetRef: command.asset, name: command.name });
  },
});
