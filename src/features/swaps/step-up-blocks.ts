/**
 * The code dialog of an approval that needs a second factor: what is approved (amounts and value), one input for
 * the 6-digit code, and the quote in its private_metadata. Pure.
 */

import { context, fields, section } from '../../blocks/common.js';
import { STEP_UP_IDS, VIEW_IDS } from '../../blocks/ids.js';
import { escapeText, mention } from '../../blocks/mrkdwn.js';
import { formatSnapshotAmount } from './blocks.js';
import { type PolicySnapshot, snapshotValue, usdLabel } from './policy.js';
import type { SwapQuote } from './quote.js';
import { type StepUpJudgement, type StepUpModalState, stepUpMetadata, whyCodeText } from './step-up.js';

/**
 * The dialog that asks an approver for a code before their approval of `quote` counts; `stepUp` says why (the
 * threshold, and the requester's total when it counts).
 */
export function buildStepUpModal(
  quote: SwapQuote,
  snapshot: PolicySnapshot,
  stepUp: StepUpJudgement & { thresholdCents: bigint },
  state: StepUpModalState,
) {
  const value = snapshotValue(snapshot);
  return {
    type: 'modal' as const,
    callback_id: VIEW_IDS.swapStepUp,
    private_metadata: stepUpMetadata(state),
    title: { type: 'plain_text' as const, text: 'Approve with a code' },
    submit: { type: 'plain_text' as const, text: 'Approve' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: [
      section(`*Approve this swap?* Requested by ${mention(quote.requestedBy)}.`),
      fields([
        ['Sell', formatSnapshotAmount(quote.amountFrom, quote.from)],
        ['Buy (about)', formatSnapshotAmount(quote.estimatedAmount, quote.to)],
        ['From', escapeText(`${quote.from.symbol} on ${quote.from.networkTitle}`)],
        ['To', escapeText(`${quote.to.symbol} on ${quote.to.networkTitle}`)],
        ['Value', 'cents' in value ? `about ${usdLabel(value.cents)}` : 'unknown'],
        ['Approvals', `${quote.approvals?.length ?? 0} of ${snapshot.needed} so far`],
      ]),
      context(escapeText(whyCodeText(value, stepUp.thresholdCents, stepUp))),
      {
        type: 'input',
        block_id: STEP_UP_IDS.codeBlock,
        label: { type: 'plain_text', text: 'Code from your authenticator app' },
        hint: {
          type: 'plain_text',
          text: 'The 6 digits your app shows now. Each code works once; five wrong codes lock your approvals for 15 minutes.',
        },
        element: {
          type: 'plain_text_input',
          action_id: STEP_UP_IDS.codeAction,
          min_length: 6,
          max_length: 8,
          placeholder: { type: 'plain_text', text: '123456' },
        },
      },
    ],
  };
}

/** The dialog's answer when the submission approved nothing for a reason the dialog cannot fix: says why, one Close. */
export function buildStepUpRefusedModal(text: string) {
  return {
    type: 'modal' as const,
    callback_id: VIEW_IDS.swapStepUpRefused,
    title: { type: 'plain_text' as const, text: 'Nothing approved' },
    close: { type: 'plain_text' as const, text: 'Close' },
    blocks: [section(text)],
  };
}
