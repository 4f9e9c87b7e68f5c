/**
 * The `/treasury` syntax this feature's refusals show next to them. The invoice and payouts command modules
 * (src/commands) list the same lines in help, so both read them from here.
 */

/** `invoice <amount> [title…]`: a USD invoice. */
export const INVOICE_USD_SYNTAX = 'invoice <amount> [title…]';
/** `invoice <amount> <asset> [title…]`: a crypto invoice. */
export const INVOICE_CRYPTO_SYNTAX = 'invoice <amount> <asset> [title…]';
/** `payouts …`: the payout task list. */
export const PAYOUTS_SYNTAX = 'payouts [pending|failed|success] [asset] [payout-id]';
