import { z } from 'zod';

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
  alertAcknowledge: 'alert_acknowledge',
  alertResolve: 'alert_resolve',
  alertSnooze: 'alert_snooze',
  /** The Home tab's Refresh button. */
  homeRefresh: 'home_refresh',
  /** "Create payout" (behind a confirm dialog) and "Cancel" on the proposal of `/treasury payout create`. */
  payoutCreate: 'payout_create',
  payoutCancel: 'payout_cancel',
  /** "Unfreeze" on the freeze announcement in ALERT_CHANNEL: one admin's vote toward the quorum. */
  freezeUnfreeze: 'freeze_unfreeze',
  /** "Confirm enrolment" on a new second factor's announcement in ALERT_CHANNEL: another admin vouches for it. */
  secondFactorConfirm: 'second_factor_confirm_enrolment',
  /** The Home tab's buttons that open a form. */
  homeNewInvoice: 'home_new_invoice',
  homeSetThreshold: 'home_set_threshold',
  /** Inputs of the invoice form whose use recomputes its preview (each is its block_id too). */
  invoiceFormAsset: 'form_invoice_asset',
  invoiceFormPricing: 'form_invoice_pricing',
  invoiceFormAmount: 'form_invoice_amount',
  /** Inputs of the threshold form whose use recomputes its preview. */
  thresholdFormAsset: 'form_threshold_asset',
  thresholdFormUnit: 'form_threshold_unit',
  thresholdFormAmount: 'form_threshold_amount',
  /** The Home tab's New swap button. */
  homeNewSwap: 'home_new_swap',
  /** Inputs of the swap form whose use recomputes its preview. */
  swapFormFrom: 'form_swap_from',
  swapFormTo: 'form_swap_to',
  swapFormAmount: 'form_swap_amount',
  /** Inputs of the payout form whose use recomputes its preview. */
  payoutFormAsset: 'form_payout_asset',
} as const;

/** Every modal callback_id the app binds. */
export const VIEW_IDS = {
  alertResolve: 'alert_resolve_modal',
  alertResolveRefused: 'alert_resolve_refused',
  /** The Home tab view (views.publish); nothing is submitted from it. */
  home: 'treasury_home',
  /** "Approve with a code": the dialog an approval that needs a second factor opens. */
  swapStepUp: 'swap_step_up_modal',
  /** Its answer when nothing was approved (altered dialog). */
  swapStepUpRefused: 'swap_step_up_refused',
  /** `/treasury 2fa reset` without a member id: the person picker (users_select) an admin submits. */
  secondFactorReset: 'second_factor_reset_modal',
  /** What replaces the picker when its submission is refused as a whole (not an admin); nothing is submitted. */
  secondFactorResetRefused: 'second_factor_reset_refused',
} as const;

/**
 * The forms (src/features/forms): each modal's callback_id. The edge lets a submission through only for these, and
 * a use of an input inside a view only for an action_id that starts with `form_`.
 */
export const FORM_IDS = {
  invoice: 'form_invoice',
  threshold: 'form_threshold',
  swap: 'form_swap',
  payout: 'form_payout',
} as const;

/** An input of a form (a `form_<form>_<field>` action_id in ACTION_IDS). */
export const FORM_ACTIONS = /^form_[a-z]+_[a-z_]+$/;

/** The global shortcuts the manifests declare (features.shortcuts), by callback_id. */
export const SHORTCUT_IDS = {
  /** "Treasury: new invoice": the invoice form from anywhere. */
  newInvoice: 'new_invoice',
} as const;

/** The block and action ids of the code input in the "Approve with a code" dialog. */
export const STEP_UP_IDS = { codeBlock: 'step_up_code', codeAction: 'code' } as const;

/** Every withdrawals pager button, including `withdrawals_page` on messages posted by earlier versions. */
export const WITHDRAWALS_PAGE_ACTIONS = /^withdrawals_page(?:_(?:previous|next|first))?$/;

/*
 * Button values. We write them, but a click comes back from outside and can be altered on the way: each one
 * is parsed with its schema before use, and an invalid one changes nothing (listeners tell the clicker).
 */

/** Record ids the API hands out (UUIDs); anything else in a button value is refused before any API call. */
const RecordId = z.string().regex(/^[0-9a-fA-F-]{1,64}$/);
/** A list cursor: opaque, but short and printable. */
const Cursor = z
  .string()
  .regex(/^[\x21-\x7e]{1,512}$/)
  .nullable();
/** Rows of one API page (50) are shown in slices; the offset is where the next slice starts. */
const PageOffset = z.number().int().min(0).max(49);

/** Lookups whose result can be shared in the channel with one click. */
export const ShareableKind = z.enum(['invoice', 'withdrawal', 'task', 'deposit']);
export type ShareableKind = z.infer<typeof ShareableKind>;

/** The value of a "Share in channel" button. */
export const ShareButtonValue = z.strictObject({ kind: ShareableKind, id: RecordId });
export type ShareButtonValue = z.infer<typeof ShareButtonValue>;

/** State of a "Next page" button of the payout task list (the API page of 50 is shown in slices). */
export const PayoutsPageValue = z.strictObject({
  status: z.enum(['pending', 'failed', 'success']).optional(),
  assetId: RecordId.optional(),
  /** The payout (container) whose tasks are listed. */
  payoutId: RecordId.optional(),
  cursor: Cursor,
  offset: PageOffset,
});
export type PayoutsPageValue = z.infer<typeof PayoutsPageValue>;

/** The value of "Create payout" and "Cancel": the payout request's id (a UUID we made). */
export const PayoutRequestButtonValue = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

/** State of a "Next page" button of the gas manager list. */
export const GasPageValue = z.strictObject({
  status: z.enum(['pending', 'cancelled', 'failed', 'success']).optional(),
  cursor: Cursor,
  offset: PageOffset,
});
export type GasPageValue = z.infer<typeof GasPageValue>;

/** The page number a withdrawals pager button carries. */
export const WithdrawalsPageValue = z
  .string()
  .regex(/^[1-9]\d{0,5}$/)
  .transform(Number);
