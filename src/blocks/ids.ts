/** Every action_id the app binds, in one place so builders and listeners cannot drift apart. */
export const ACTION_IDS = {
  // Slack refuses a block in which two elements share an action_id, so each pager button has its own id;
  // one listener serves them all (WITHDRAWALS_PAGE_ACTIONS).
  withdrawalsPrevious: 'withdrawals_page_previous',
  withdrawalsNext: 'withdrawals_page_next',
  withdrawalsFirst: 'withdrawals_page_first',
  payoutsPage: 'payouts_page',
  gasPage: 'gas_page',
  shareInChannel: 'share_in_channel',
  swapApprove: 'swap_approve',
  swapReject: 'swap_reject',
  swapNewQuote: 'swap_new_quote',
} as const;

/** Every withdrawals pager button, including `withdrawals_page` on messages posted by earlier versions. */
export const WITHDRAWALS_PAGE_ACTIONS = /^withdrawals_page(?:_(?:previous|next|first))?$/;

/** Lookups whose result can be shared in the channel with one click. */
export type ShareableKind = 'invoice' | 'withdrawal' | 'task' | 'deposit';

/** The value of a "Share in channel" button. */
export interface ShareButtonValue {
  kind: ShareableKind;
  id: string;
}

/** State of a "Next page" button of the payout task list (the API page of 50 is shown in slices). */
export interface PayoutsPageValue {
  status?: string;
  assetId?: string;
  cursor: string | null;
  offset: number;
}

/** State of a "Next page" button of the gas manager list. */
export interface GasPageValue {
  status?: string;
  cursor: string | null;
  offset: number;
}
