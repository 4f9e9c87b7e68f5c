/**
 * Approve on a quote that needs a second factor: the click opens the code dialog (fast: Slack's trigger lasts 3 s,
 * so only quick reads come before views.open), the submission checks the code first and then decides as a normal
 * Approve marked "with a second factor". The decision itself (decision.ts, inside the store's atomic change) is
 * the gate: an approval that needs a code never counts without one, whatever reaches it.
 */

import { buildFailure } from '../../blocks/errors.js';
import { STEP_UP_IDS } from '../../blocks/ids.js';
import { errorFields, type Logger } from '../../logger.js';
import { describeSlackError, triggerRefused } from '../../slack/errors.js';
import type { FreezeRepository } from '../repositories.js';
import type { ClickOrigin } from './approval.js';
import { type ApprovalPolicy, policyOf, stepUpWindowAt } from './decision.js';
import { type ApproverCheck, countApproval, type PolicySnapshot } from './policy.js';
import type { SwapQuote } from './quote.js';
import { quoteStepUp, STEP_UP_WORDS, type StepUpDeps, type StepUpModalState } from './step-up.js';
import { buildStepUpModal } from './step-up-blocks.js';

/** How long the click waits for "is this person an approver" (a cached group lookup) before it asks for a code anyway. */
const APPROVER_CHECK_WAIT_MS = 1_500;

/** What a click or a submission tells the clicker privately (nothing when the message says it all). */
type Outcome = { notice?: string };

/** What the flow needs of the swap service. */
export interface StepUpFlowDeps {
  stepUp: StepUpDeps;
  policy: ApprovalPolicy;
  freeze?: Pick<FreezeRepository, 'currentFreeze'> | undefined;
  logger: Logger;
  now: () => Date;
  /** The checks every click passes first (the quote exists, the click comes from its own message). */
  quoteOfClick(value: string, userId: string, origin: ClickOrigin): Promise<{ quote: SwapQuote } | { notice: string }>;
  isApproverOf(snapshot: PolicySnapshot, userId: string): Promise<ApproverCheck>;
  /**
   * The quotes the decision at `now` reads beside the quote (those of the last 24 hours and the validity before):
   * the requester's swaps among them count toward the code as the decision counts them.
   */
  recentQuotes(now: Date): Promise<readonly SwapQuote[]>;
  /** The normal Approve, `secondFactor` when the clicker gave a valid code. */
  approve(quoteId: string, userId: string, origin: ClickOrigin, options: { secondFactor: boolean }): Promise<Outcome>;
}

/** What a submission of the code dialog answers: errors under the input, a refusal, or the approval to run after the ack. */
export type CodeSubmission =
  | { errors: Record<string, string> }
  | { refused: string }
  | { accepted: () => Promise<Outcome> };

/** `value` or undefined after `ms`, whichever comes first. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Builds the flow over the swap service's own steps. */
export function createStepUpFlow(deps: StepUpFlowDeps) {
  const { stepUp, logger } = deps;

  /** Tells the clicker privately in the quote's channel, or by DM when Slack refuses that. */
  async function tell(channelId: string, userId: string, text: string): Promise<void> {
    try {
      await stepUp.slack.postEphemeral(channelId, userId, { text });
      return;
    } catch (error) {
      logger.warn('swaps: could not tell an approver privately in the channel; sending a DM', {
        reason: describeSlackError(error),
      });
    }
    try {
      await stepUp.slack.post(await stepUp.slack.openDirectMessage(userId), { text });
    } catch (error) {
      logger.error('swaps: could not tell an approver what came of their approval', { error: errorFields(error) });
    }
  }

  return {
    /**
     * Approve clicked. A quote that needs no code (judged as the decision judges it: the stricter of the threshold
     * fixed on it and the one configured here, on its value with the requester's swaps of the last 24 hours), or is
     * no longer waiting, goes the normal way. Otherwise: a frozen
     * quote refuses at once (no code asked); a clicker known not to be able to approve is told so; an approver not
     * enrolled is told how to enrol, a locked one until when; an enrolled one (or one whose approver status could not
     * be established in time: the submission judges it fully) gets the code dialog.
     */
    async click(quoteId: string, userId: string, origin: ClickOrigin, triggerId: string): Promise<Outcome> {
      const checked = await deps.quoteOfClick(quoteId, userId, origin);
      if ('notice' in checked) return checked;
      const { quote } = checked;
      const snapshot = policyOf(quote, deps.policy);
      const plain = () => deps.approve(quoteId, userId, origin, { secondFactor: false });
      if (quote.status !== 'pending' || (stepUp.thresholdCents === undefined && snapshot.stepUpCents === undefined))
        return plain();
      let judged = quoteStepUp(snapshot, stepUp.thresholdCents);
      if (!judged.needed) {
        const now = deps.now();
        judged = quoteStepUp(snapshot, stepUp.thresholdCents, stepUpWindowAt(quote, await deps.recentQuotes(now), now));
      }
      const threshold = judged.thresholdCents;
      if (!judged.needed || threshold === undefined) return plain();
      // Frozen: the decision refuses with the freeze's words and counts nothing; no code is asked for.
      if (await deps.freeze?.currentFreeze(deps.now())) return plain();
      const codes = stepUp.codes;
      if (!codes) return { notice: STEP_UP_WORDS.unavailable };
      const [approver, readiness] = await Promise.all([
        within(deps.isApproverOf(snapshot, userId), APPROVER_CHECK_WAIT_MS).catch(() => undefined),
        codes.readiness(userId).catch((error: unknown) => {
          logger.warn('swaps: could not read an approver’s second-factor state', { error: errorFields(error) });
          return undefined;
        }),
      ]);
      if (approver !== undefined) {
        const counted = countApproval(
          { status: quote.status, approvals: quote.approvals ?? [] },
          { userId, at: deps.now(), requesterId: quote.requestedBy, snapshot, isApprover: approver },
        );
        if (!counted.ok) return { notice: counted.notice };
      }
      if (!readiness) return { notice: STEP_UP_WORDS.unavailable };
      if (readiness.state === 'not_enrolled') return { notice: STEP_UP_WORDS.notEnrolled(threshold) };
      if (readiness.state === 'locked') return { notice: STEP_UP_WORDS.locked(readiness.until) };
      if (readiness.state === 'awaiting_admin')
        return { notice: `${readiness.message} Your approval was not counted.` };
      const state: StepUpModalState = { quoteId, channelId: quote.channelId, messageTs: quote.messageTs! };
      try {
        await stepUp.slack.openView(
          triggerId,
          buildStepUpModal(quote, snapshot, { ...judged, thresholdCents: threshold }, state),
        );
        return {};
      } catch (error) {
        logger.warn('swaps: could not open the code dialog', { reason: describeSlackError(error) });
        return {
          notice: triggerRefused(error)
            ? STEP_UP_WORDS.notOpened
            : 'Slack did not open the code dialog. Your approval was not counted; click Approve again in a moment.',
        };
      }
    },

    /**
     * The code dialog submitted: the code is checked first (Slack waits 3 s for the answer); a code refused is an
     * error under the input. A valid code (now used up) approves after the ack, as a normal Approve marked with a
     * second factor; what the clicker would have been told comes privately in the quote's channel (or by DM).
     */
    async submit(state: StepUpModalState, userId: string, code: string): Promise<CodeSubmission> {
      const codes = stepUp.codes;
      if (!codes) return { refused: STEP_UP_WORDS.unavailable };
      let verified: Awaited<ReturnType<typeof codes.verify>>;
      try {
        verified = await codes.verify(userId, code.trim());
      } catch (error) {
        logger.error('swaps: checking a code failed', { error: errorFields(error) });
        return { errors: { [STEP_UP_IDS.codeBlock]: STEP_UP_WORDS.failed } };
      }
      if (!verified.ok) {
        logger.info('swaps: a code was refused', { quoteId: state.quoteId, userId, reason: verified.reason });
        return { errors: { [STEP_UP_IDS.codeBlock]: verified.message } };
      }
      const origin = { channelId: state.channelId, messageTs: state.messageTs };
      return {
        accepted: async () => {
          let notice: string | undefined;
          try {
            notice = (await deps.approve(state.quoteId, userId, origin, { secondFactor: true })).notice;
          } catch (error) {
            logger.error('swaps: an approval with a code failed', {
              quoteId: state.quoteId,
              error: errorFields(error),
            });
            notice = buildFailure(error).text;
          }
          if (notice) await tell(state.channelId, userId, notice);
          return notice === undefined ? {} : { notice };
        },
      };
    },
  };
}
