import { openForm } from '../features/forms/listeners.js';
import { thresholdForm } from '../features/forms/threshold-form.js';
import { UsageError } from '../kernel/usage-error.js';
import { refreshHomeAfterAct } from '../slack/listener-kit.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'threshold <asset> below <amount | $usd> | off';

type ThresholdCommand =
  /** `threshold` alone: the threshold form, opened with the command's trigger. */
  | { kind: 'threshold-form' }
  /** `amount` as typed: a USD value when it says `$`/`USD`, else token units (read with the asset's decimals). */
  | { kind: 'threshold-set'; asset: string; amount: string; usd: boolean }
  | { kind: 'threshold-off'; asset: string };

/** `/treasury threshold <asset> below <amount> | off`: sets or removes a balance threshold (admins). */
export const threshold = defineSubcommand({
  name: 'threshold',
  group: 'alerts',
  usage: [
    [SYNTAX, 'alert when a balance runs low (admins), e.g. `threshold USDT@BSC below $5,000`'],
    ['threshold', 'the threshold form: pick the asset and the level, see the balance now against it'],
  ],
  examples: ['threshold USDT@BSC below $5,000', 'threshold USDT@BSC below 5,000', 'threshold USDT@BSC off'],
  // ThresholdService.set and .remove refuse anyone else.
  access: 'admins',
  parse(args): ThresholdCommand {
    const [asset, verb, ...amount] = args;
    if (asset === undefined) return { kind: 'threshold-form' };
    if (verb?.toLowerCase() === 'off' && amount.length === 0) return { kind: 'threshold-off', asset };
    if (verb?.toLowerCase() !== 'below' || amount.length === 0)
      throw new UsageError(
        'Say `below` and an amount in token units (`below 5,000`) or in USD (`below $5,000`), or `off`.',
        SYNTAX,
      );
    const text = amount.join(' ');
    const usd = /^[-\u2212]?\s*(?:us)?\$|^usd\b|\busd$/i.test(text.trim());
    return { kind: 'threshold-set', asset, amount: text, usd };
  },
  async run(command, { deps, userId, channelId, responseUrl, trigger }) {
    if (command.kind === 'threshold-form') {
      if (trigger === undefined) throw new UsageError('Which asset? e.g. `threshold USDT@BSC below 5,000`.', SYNTAX);
      await openForm(deps, thresholdForm, { userId, trigger, origin: { responseUrl, channelId } });
      return undefined;
    }
    const reply =
      command.kind === 'threshold-set'
        ? await deps.thresholds.set(userId, command.asset, command.amount, command.usd)
        : await deps.thresholds.remove(userId, command.asset);
    refreshHomeAfterAct(deps, userId);
    return reply;
  },
});
