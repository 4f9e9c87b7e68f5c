import * as lookups from '../features/lookups/service.js';
import { PAYOUTS_SYNTAX } from '../features/lookups/syntax.js';
import { isUuid } from '../kernel/ids.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

/** The statuses `payouts` filters on. */
const PAYOUT_STATUSES = ['pending', 'failed', 'success'] as const;

/** `payoutId`: a UUID typed after `payouts` (the feature reads it as an asset when it is one's id). */
type PayoutsCommand = {
  kind: 'payouts';
  status?: (typeof PAYOUT_STATUSES)[number];
  asset?: string;
  payoutId?: string;
};

/** `/treasury payouts` (or `tasks`): payout tasks, filtered by status, asset or payout. */
export const payouts = defineSubcommand({
  name: 'payouts',
  aliases: ['tasks'],
  group: 'look-up',
  usage: [[PAYOUTS_SYNTAX, 'payout tasks, e.g. `payouts failed USDT`; with a payout id, the tasks of that payout']],
  examples: ['payouts failed USDT', 'tasks pending', 'payouts 3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f'],
  access: 'treasury-users',
  parse(args): PayoutsCommand {
    let status: (typeof PAYOUT_STATUSES)[number] | undefined;
    let asset: string | undefined;
    let payoutId: string | undefined;
    for (const arg of args) {
      const lower = arg.toLowerCase();
      if ((PAYOUT_STATUSES as readonly string[]).includes(lower)) {
        if (status !== undefined) throw new UsageError('Give at most one status.', PAYOUTS_SYNTAX);
        status = lower as (typeof PAYOUT_STATUSES)[number];
      } else if (isUuid(arg) && payoutId === undefined) payoutId = lower;
      else if (asset === undefined) asset = arg;
      else throw new UsageError(`Unexpected "${arg}".`, PAYOUTS_SYNTAX);
    }
    return { kind: 'payouts', status, asset, ...(payoutId === undefined ? {} : { payoutId }) };
  },
  run: async (command, { deps }) => lookups.startPayoutTaskList(deps, command.status, command.asset, command.payoutId),
});
