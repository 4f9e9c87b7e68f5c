import { invoiceForm } from '../features/forms/invoice-form.js';
import { openForm } from '../features/forms/listeners.js';
import type { InvoiceOptions } from '../features/lookups/service.js';
import * as lookups from '../features/lookups/service.js';
import { INVOICE_CRYPTO_SYNTAX, INVOICE_USD_SYNTAX } from '../features/lookups/syntax.js';
import { isUuid } from '../kernel/ids.js';
import { UsageError } from '../kernel/usage-error.js';
import { parseInvoiceOptions } from './invoice-options.js';
import { defineSubcommand } from './subcommand.js';

/** `invoice <invoice-id>` looks one up; anything else after `invoice` creates one. */
type InvoiceCommand =
  /** `invoice` alone: the invoice form, opened with the command's trigger. */
  | { kind: 'invoice-form' }
  | { kind: 'invoice-info'; invoiceId: string }
  /** `words` is everything after the amount: an asset reference and/or the title, told apart with the asset list. */
  | { kind: 'invoice-create'; amount: string; words: string[]; options: InvoiceOptions };

/** `/treasury invoice …`: creates a USD or crypto invoice, or shows one by its id. */
export const invoice = defineSubcommand({
  name: 'invoice',
  group: 'get-paid',
  usage: [
    [INVOICE_USD_SYNTAX, 'USD invoice, e.g. `invoice $49.99 Pro plan --expires 2h`'],
    [INVOICE_CRYPTO_SYNTAX, 'crypto invoice, e.g. `invoice 0.05 ETH Consulting`'],
    ['invoice <invoice-id>', 'status of an invoice'],
    ['invoice', 'the invoice form: pick the asset, type the amount, see what the bot will do before it does it'],
  ],
  note: 'Options: `--expires 2h` (at most 24h), `--asset &lt;asset&gt;` (USD invoices), `--data &lt;text&gt;`.',
  examples: [
    'invoice $49.99 Pro plan --expires 2h',
    'invoice 0.05 ETH Consulting',
    'invoice 3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f',
  ],
  access: 'treasury-users',
  parse(args): InvoiceCommand {
    const [first, ...rest] = args;
    if (first === undefined) return { kind: 'invoice-form' };
    if (isUuid(first) && rest.length === 0) return { kind: 'invoice-info', invoiceId: first.toLowerCase() };
    const { words, options } = parseInvoiceOptions(rest);
    return { kind: 'invoice-create', amount: first, words, options };
  },
  async run(command, { deps, userId, channelId, responseUrl, trigger }) {
    if (command.kind === 'invoice-form') {
      if (trigger === undefined)
        throw new UsageError('Give an amount to invoice, or an invoice id to look up.', INVOICE_USD_SYNTAX);
      // The answer of the form goes where this command's would: its response_url.
      await openForm(deps, invoiceForm, { userId, trigger, origin: { responseUrl, channelId } });
      return undefined;
    }
    if (command.kind === 'invoice-info') return lookups.showInvoice(deps, command.invoiceId);
    // Followed until it leaves pending when the poller runs; its creator then gets a direct message.
    const follower = deps.invoices;
    return lookups.createInvoice(
      deps,
      command.amount,
      command.words,
      command.options,
      follower ? (created) => follower.follow(created, userId) : undefined,
    );
  },
});
