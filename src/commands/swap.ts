import { openForm } from '../features/forms/listeners.js';
import { swapForm } from '../features/forms/swap-form.js';
import { quotePlaceProblem } from '../features/places.js';
import { UserFacingError } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import { UsageError } from '../kernel/usage-error.js';
import { defineSubcommand } from './subcommand.js';

const SYNTAX = 'swap <amount> <from-asset> to <to-asset>';

type SwapCommand =
  /** `swap` alone: the swap form, opened with the command's trigger. */
  | { kind: 'swap-form' }
  | { kind: 'swap-quote'; amount: string; from: string; to: string }
  | { kind: 'swap-info'; swapId: string };

/** `/treasury swap …`: a quote posted for approval, or one swap by its id. */
export const swap = defineSubcommand({
  name: 'swap',
  group: 'move-money',
  usage: [
    [SYNTAX, 'a swap quote for approval, e.g. `swap 1,000 USDT@ETH to USDC@ETH`'],
    ['swap <swap-id>', 'one swap: status, amounts, hashes, fee'],
    ['swap', 'the swap form: shows the approvals a quote will need before you ask'],
  ],
  examples: ['swap 1,000 USDT@ETH to USDC@ETH', 'swap 3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f'],
  access: 'treasury-users',
  parse(args): SwapCommand {
    if (args.length === 0) return { kind: 'swap-form' };
    if (args.length === 1 && isUuid(args[0]!)) return { kind: 'swap-info', swapId: args[0]!.toLowerCase() };
    const words = args.length === 4 && args[2]!.toLowerCase() === 'to' ? [args[0]!, args[1]!, args[3]!] : args;
    if (words.length !== 3) {
      throw new UsageError(
        'Give an amount and two assets, e.g. `swap 1,000 USDT@ETH to USDC@ETH`, or a swap id.',
        SYNTAX,
      );
    }
    return { kind: 'swap-quote', amount: words[0]!, from: words[1]!, to: words[2]! };
  },
  async run(command, { deps, userId, channelId, conversation, responseUrl, trigger }) {
    if (command.kind === 'swap-form') {
      // In a direct message no approver would see the quote: refused as the typed command is, before any form.
      const notHere = quotePlaceProblem(conversation);
      if (notHere !== undefined) throw new UserFacingError(notHere, 'quote_in_direct_message');
      if (trigger === undefined)
        throw new UsageError('Give an amount and two assets, e.g. `swap 1,000 USDT@ETH to USDC@ETH`.', SYNTAX);
      // The quote goes to this channel and the note to this command's response_url, as a typed swap's.
      await openForm(deps, swapForm, { userId, trigger, origin: { responseUrl, channelId } });
      return undefined;
    }
    if (command.kind === 'swap-info') return deps.swaps.showSwap(command.swapId);
    return deps.swaps.requestQuote({
      userId,
      channelId,
      conversation,
      amountText: command.amount,
      fromRef: command.from,
      toRef: command.to,
    });
  },
});
