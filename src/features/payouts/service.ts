/**
 * `/treasury payout create <asset> "<name>"`: an empty payout container, made once after its requester confirms.
 *
 * - The command only records a proposal and shows it privately; nothing reaches the payment service before the
 *   confirm dialog is confirmed.
 * - One proposal leads to at most one create-payout call: the send is claimed in the store (written to disk, or
 *   committed) BEFORE the call, so a double click, a second replica or a restart sees it. The call is never retried.
 * - A 2xx is "created" whatever its body says; a 4xx is refused in plain words; no answer (timeout, network, 5xx) is
 *   "the outcome is unknown", never a silent retry that could create two.
 *
 * The rules (who may click, until when, what a stuck send means) are in src/features/payouts/rules.ts; this module orders
 * the steps: check, claim, call, record, show.
 */
import { randomUUID } from 'node:crypto';
import type { SlackMessage } from '../../blocks/common.js';
import { resolveAsset } from '../../kernel/asset-names.js';
import { describeAssetProblem } from '../../kernel/asset-problems.js';
import { UserFacingError } from '../../kernel/errors.js';
import { escapeText } from '../../kernel/text.js';
import { errorFields, type Logger } from '../../logger.js';
import {
  type PaymentsClient,
  PaymentsError,
  PaymentsForbiddenError,
  PaymentsRateLimitedError,
  PaymentsUnauthorizedError,
  PaymentsValidationError,
} from '../../payments/index.js';
import { FrozenError, frozenNotice, NO_PAYOUT_CREATED } from '../freeze/words.js';
import type { FreezeRepository, PayoutRepository } from '../repositories.js';
import { assetSnapshotOf } from '../swaps/views.js';
import { buildPayoutOutcome, buildPayoutProposal } from './blocks.js';
import {
  isSendingStuck,
  mayDecidePayoutRequest,
  newPayoutRequest,
  PAYOUT_PROPOSAL_VALIDITY_MS,
  type PayoutOutcome,
  type PayoutRequest,
} from './rules.js';

/** What the payout feature needs. */
export interface PayoutDeps {
  payments: PaymentsClient;
  store: { readonly payouts: PayoutRepository; readonly freeze?: Pick<FreezeRepository, 'currentFreeze'> };
  logger: Logger;
  now: () => Date;
}

/**
 * What a click answers: `replace` the proposal with `message` (what became of the request), or tell the clicker
 * privately and leave the proposal as it is.
 */
export type PayoutClickAnswer = { replace: true; message: SlackMessage } | { replace: false; notice: string };

/** What a proposal refused by a freeze says. */
const NO_PAYOUT_PROPOSED = 'No payout container was proposed.';
/** Said when a click names no request the bot knows (altered, or older than the records kept). */
const UNKNOWN_REQUEST =
  'The bot has no record of this payout proposal, so nothing was sent. Run `/treasury payout create` again.';
/** Said to anyone but the requester (the proposal is private, so only a forwarded or altered click). */
const NOT_YOURS = 'Only the person who asked for this payout container can confirm or cancel it. Nothing was sent.';
/** Recorded on a request found `sending` long after its confirmation: the sender stopped before the answer. */
const STUCK_SENDING_FAILURE =
  'The bot stopped while it waited for the payment service, before it recorded the answer: the payout may or may not have been created.';

/** What the request's status means to someone who clicks again, in a sentence. */
function alreadyHandled(request: PayoutRequest): string {
  switch (request.status) {
    case 'created':
      return request.payoutId === undefined
        ? 'This payout container was created already.'
        : `This payout container was created already (id \`${escapeText(request.payoutId)}\`).`;
    case 'refused':
      return 'The payment service refused this payout already; nothing was created. Run the command again to retry.';
    case 'outcome_unknown':
      return 'The outcome of this payout is unknown — the service may have created it. Check before retrying.';
    case 'cancelled':
      return 'This payout proposal was cancelled; nothing was created.';
    case 'expired':
      return 'This payout proposal expired; nothing was created. Run the command again.';
    case 'sending':
      return 'This payout container is being created by an earlier click: the outcome is unknown until the service answers. This click sent nothing.';
    case 'proposed':
      return 'This payout proposal is still waiting for you to confirm it.';
  }
}

/** What a failed create-payout means: refused (nothing made) or unknown (it may have been made). Plain words. */
function outcomeOfFailure(error: unknown): PayoutOutcome {
  if (error instanceof PaymentsValidationError) {
    const details = error.fieldErrors.map((f) => `${f.field}: ${f.messages.join(', ')}`).join('; ');
    return {
      status: 'refused',
      failure: `The payment service refused it: ${error.apiMessage}${details ? ` (${details})` : ''}.`,
    };
  }
  if (error instanceof PaymentsForbiddenError)
    return {
      status: 'refused',
      failure:
        'The payment API key lacks the `can_payout` permission. Ask whoever manages the payment API key to add it.',
    };
  if (error instanceof PaymentsUnauthorizedError)
    return {
      status: 'refused',
      failure:
        "The payment service rejected the bot's API key (it is invalid). An admin needs to check `PAYMENTS_API_KEY`.",
    };
  if (error instanceof PaymentsRateLimitedError)
    return {
      status: 'refused',
      failure: 'The payment service is rate-limiting the bot right now. Run the command again in a minute.',
    };
  // Any other 4xx refused the request as well: the service said no before doing anything. (A 3xx or a 5xx says no such
  // thing: it stays unknown below.)
  if (error instanceof PaymentsError && error.status !== undefined && error.status >= 400 && error.status < 500)
    return { status: 'refused', failure: `The payment service answered HTTP ${error.status}.` };
  // A timeout, a dropped connection, a 5xx, or a failure of our own after sending: it may have been created.
  return {
    status: 'outcome_unknown',
    failure: 'The payment service did not answer (or failed) after the request was sent.',
  };
}

/** Creates the payout feature. */
export function createPayoutService(deps: PayoutDeps) {
  const requests = deps.store.payouts;

  /** Sends the one create-payout of a request already `sending` on disk, and records what came back. */
  async function send(request: PayoutRequest): Promise<SlackMessage> {
    let outcome: PayoutOutcome;
    try {
      const created = await deps.payments.createPayout({ assetId: request.asset.assetId, name: request.name });
      outcome = { status: 'created', payoutId: created.payoutId, shown: created.fields };
    } catch (error) {
      // Technical detail for the log (hand-picked fields: never the key); plain words for the person.
      deps.logger.warn('create-payout failed', { requestId: request.id, error: errorFields(error) });
      outcome = outcomeOfFailure(error);
    }
    const at = deps.now();
    try {
      const recorded = await requests.recordOutcome(request.id, outcome, at);
      if (recorded.recorded && recorded.request) return buildPayoutOutcome(recorded.request);
      // Someone recorded it as stuck meanwhile (only after minutes): what the service said is still the truth.
      deps.logger.warn('create-payout answered after its request was recorded otherwise', {
        requestId: request.id,
        status: recorded.request?.status,
        outcome: outcome.status,
      });
    } catch (error) {
      deps.logger.error('create-payout answered but its outcome could not be recorded', {
        requestId: request.id,
        outcome: outcome.status,
        payoutId: outcome.status === 'created' ? outcome.payoutId : undefined,
        error: errorFields(error),
      });
    }
    // Show what the service answered, from a copy: never "nothing was done" when a container may exist.
    const shown: PayoutRequest = { ...request, status: outcome.status };
    if (outcome.status === 'created') Object.assign(shown, { payoutId: outcome.payoutId, shown: outcome.shown });
    else shown.failure = outcome.failure;
    return buildPayoutOutcome(shown);
  }

  return {
    /**
     * `/treasury payout create <asset> "<name>"`: resolves the asset, records the proposal and returns it (the
     * listener answers privately). Nothing is sent to the payment service.
     */
    /**
     * Why a proposal would be refused now before any API call (a freeze), in propose's own words (mrkdwn), or
     * undefined: the payout form checks it before it closes.
     */
    async proposalRefusal(): Promise<string | undefined> {
      const frozen = await deps.store.freeze?.currentFreeze(deps.now());
      return frozen ? new FrozenError(frozen, NO_PAYOUT_PROPOSED).mrkdwn : undefined;
    },

    async propose(input: { userId: string; channelId: string; assetRef: string; name: string }): Promise<SlackMessage> {
      // Refused before any API call; confirming is refused again inside the claim (claimSend).
      const frozen = await deps.store.freeze?.currentFreeze(deps.now());
      if (frozen) throw new FrozenError(frozen, NO_PAYOUT_PROPOSED);
      const resolution = resolveAsset(await deps.payments.listAssets(), input.assetRef);
      if (!resolution.ok) throw new UserFacingError(describeAssetProblem(resolution));
      const request = newPayoutRequest({
        id: randomUUID(),
        requestedBy: input.userId,
        requestedAt: deps.now(),
        channelId: input.channelId,
        asset: assetSnapshotOf(resolution.asset),
        name: input.name,
      });
      await requests.saveRequest(request);
      return buildPayoutProposal(request);
    },

    /**
     * "Create payout" (confirmed in Slack's dialog): the requester only; claimed, then one create-payout. A late,
     * second or stuck click is answered with what happened, and sends nothing.
     */
    async confirm(requestId: string, userId: string): Promise<PayoutClickAnswer> {
      const found = await requests.getRequest(requestId);
      if (!found) return { replace: false, notice: UNKNOWN_REQUEST };
      if (!mayDecidePayoutRequest(found, userId)) return { replace: false, notice: NOT_YOURS };
      const at = deps.now();
      const claim = await requests.claimSend(requestId, userId, at, PAYOUT_PROPOSAL_VALIDITY_MS);
      if (claim.claimed) return { replace: true, message: await send(claim.request) };
      if (claim.frozen) return { replace: false, notice: frozenNotice(claim.frozen, NO_PAYOUT_CREATED) };
      const request = claim.request;
      if (!request) return { replace: false, notice: UNKNOWN_REQUEST };
      if (request.status === 'expired') return { replace: true, message: buildPayoutOutcome(request) };
      if (isSendingStuck(request, at)) {
        // Its sender stopped mid-call: the request must not stay "being created" for ever, nor be sent again.
        const marked = await requests.recordOutcome(
          requestId,
          { status: 'outcome_unknown', failure: STUCK_SENDING_FAILURE },
          at,
        );
        if (marked.request) return { replace: true, message: buildPayoutOutcome(marked.request) };
      }
      return { replace: false, notice: alreadyHandled(request) };
    },

    /** "Cancel": the requester only; a proposal not yet confirmed ends, and nothing is sent. */
    async cancel(requestId: string, userId: string): Promise<PayoutClickAnswer> {
      const found = await requests.getRequest(requestId);
      if (!found) return { replace: false, notice: UNKNOWN_REQUEST };
      if (!mayDecidePayoutRequest(found, userId)) return { replace: false, notice: NOT_YOURS };
      const result = await requests.cancel(requestId, userId, deps.now());
      if (result.cancelled && result.request) return { replace: true, message: buildPayoutOutcome(result.request) };
      return { replace: false, notice: alreadyHandled(result.request ?? found) };
    },
  };
}

/** The payout feature: propose, confirm, cancel. */
export type PayoutService = ReturnType<typeof createPayoutService>;
