/**
 * Swaps: the one place where the bot moves money, so the rules are strict.
 *
 * - One estimate leads to at most one swap/create call. The decision is claimed in the store (and written
 *   to disk) BEFORE the create call; every later click, resend or restart sees the claim.
 * - The create call is never retried, and a create whose answer was lost is never resent: the quote becomes
 *   `outcome_unknown` and a person checks.
 * - Validity counts from the moment we asked for the estimate, not from any click.
 *
 * The rules themselves (who may decide, until when, what a failed create means) are in src/features/swaps/approval.ts;
 * this module orders the steps: check, claim, act, record, show.
 */
import { randomUUID } from 'node:crypto';
import type { SlackMessage } from '../../blocks/common.js';
import { code } from '../../blocks/mrkdwn.js';
import { asCodedError, UserFacingError } from '../../kernel/errors.js';
import { escapeText } from '../../kernel/text.js';
import { errorFields, type Logger } from '../../logger.js';
import type { BotMetrics } from '../../metrics/index.js';
import { type PaymentsClient, PaymentsError, PaymentsValidationError } from '../../payments/index.js';
import type { GroupMembers } from '../access/rules.js';
import type { CreateResult, FreezeRepository, SwapQuoteRepository } from '../repositories.js';
import {
  type ClickOrigin,
  type CreateError,
  checkClick,
  describeCreateFailure,
  isQuoteId,
  mayRequote,
  REQUOTE_TAKEN_NOTICE,
} from './approval.js';
import { buildQuotePostedNote, buildQuoteReminder } from './blocks.js';
import {
  approversYetToAct,
  type Decision,
  decideOnQuote,
  hasLapsed,
  isReminderDue,
  limitKeyOf,
  limitUse,
  policyOf,
  usageLookbackStart,
} from './decision.js';
import { createSwapFollower, type FollowPolicy, type Wait } from './follow.js';
import { createQuoteMessageEditor, type QuoteMessenger, type Scheduler } from './message-edits.js';
import { approverCheck, type PolicySnapshot, type SwapPolicy } from './policy.js';
import { buildPolicy, type LimitUseView } from './policy-blocks.js';
import { auditEntry, type SwapQuote } from './quote.js';
import { createQuoteMaker } from './quote-request.js';
import type { StepUpDeps, StepUpModalState } from './step-up.js';
import { type CodeSubmission, createStepUpFlow } from './step-up-flow.js';
import { showSwap, showSwapHistory } from './views.js';

/** What the swap feature needs. */
export interface SwapDeps {
  payments: PaymentsClient;
  /** Quotes by outcome, approvals and swaps created (the metrics). */
  metrics?: Pick<BotMetrics, 'quote' | 'approval' | 'swapCreated'> | undefined;
  /** Where quotes are kept: the bot's store, or anything else with a swap quote repository. */
  store: { readonly swapQuotes: SwapQuoteRepository; readonly freeze?: Pick<FreezeRepository, 'currentFreeze'> };
  messenger: QuoteMessenger;
  logger: Logger;
  now: () => Date;
  /**
   * The approval policy configured now (SWAP_POLICY tiers, SWAP_APPROVERS, ALLOW_SELF_APPROVAL, SWAP_MAX_USD,
   * SWAP_DAILY_LIMIT_USD): fixed on each quote when it is made, so a later change never alters a quote in flight.
   */
  policy: SwapPolicy;
  /** Members of approver groups (usergroups.users.list, cached); without it nobody from a group may approve. */
  approverGroups?: { members(groupIds: readonly string[]): Promise<GroupMembers> };
  follow: FollowPolicy;
  /** When failed message edits are retried; default Node timers. */
  scheduler?: Scheduler;
  /** How the follower waits between swap/get calls; default Node timers. */
  wait?: Wait;
  /** The second factor for large approvals (SWAP_STEP_UP_USD); absent: no approval needs a code. */
  stepUp?: StepUpDeps;
}

/** The answer to a click, shown privately to the person who clicked (nothing when the message says it all). */
export type ClickOutcome = { notice?: string };

/** A value from outside, safe and short enough for one log line. */
function preview(value: string | undefined): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/** A failed swap/create in the terms of the approval rules. */
function createErrorOf(error: unknown): CreateError {
  if (error instanceof PaymentsValidationError) return { kind: 'refused', apiMessage: error.apiMessage };
  if (error instanceof PaymentsError) return { kind: 'api', code: error.code };
  return { kind: 'unexpected' };
}

/** The audit detail of a quote that ran out of time waiting: how many approvals it had. */
function expiredDetail(quote: SwapQuote): string {
  const count = quote.approvals?.length ?? 0;
  return `no decision before expiry; ${count} of ${quote.policy?.needed ?? 1} approvals`;
}

/** What the start-up recovery records on a quote it finds `approving`. */
const INTERRUPTED_FAILURE = 'the bot stopped while approving, before it recorded an answer';
const INTERRUPTED_DETAIL = 'found approving at start-up; swap/create may or may not have been sent; not resent';

/** Slack for a service built without a second factor: never called (no quote then needs a code). */
const noStepUpSlack: StepUpDeps['slack'] = {
  openView: () => Promise.reject(new Error('no second factor is configured')),
  postEphemeral: () => Promise.reject(new Error('no second factor is configured')),
  openDirectMessage: () => Promise.reject(new Error('no second factor is configured')),
  post: () => Promise.reject(new Error('no second factor is configured')),
};

/** Creates the swap feature. It remembers which swaps it is following so stop() can end that. */
export function createSwapService(deps: SwapDeps) {
  const quotes = deps.store.swapQuotes;
  const edits = createQuoteMessageEditor({
    quotes,
    messenger: deps.messenger,
    policy: deps.policy,
    logger: deps.logger,
    now: deps.now,
    scheduler: deps.scheduler,
    ...(deps.store.freeze ? { freeze: deps.store.freeze } : {}),
    ...(deps.stepUp?.thresholdCents !== undefined ? { stepUpCents: deps.stepUp.thresholdCents } : {}),
  });
  const quoting = createQuoteMaker({
    ...deps,
    quotes,
    ...(deps.store.freeze ? { freeze: deps.store.freeze } : {}),
    ...(deps.stepUp?.thresholdCents !== undefined ? { stepUpCents: deps.stepUp.thresholdCents } : {}),
  });
  const follower = createSwapFollower({
    payments: deps.payments,
    quotes,
    edits,
    logger: deps.logger,
    now: deps.now,
    policy: deps.follow,
    wait: deps.wait,
  });

  /**
   * The checks every click passes before anything else: the value names a quote of ours, and the click comes
   * from that quote's own message. A refusal changes nothing, is logged, and tells the clicker privately.
   */
  async function quoteOfClick(
    action: string,
    value: string,
    userId: string,
    origin: ClickOrigin,
  ): Promise<{ quote: SwapQuote } | { notice: string }> {
    // The shape first: a value that cannot be a quote id never reaches the store.
    const quote = isQuoteId(value) ? await quotes.getQuote(value) : undefined;
    const checked = checkClick(value, quote, origin);
    if (checked.allowed) return { quote: checked.quote };
    if (checked.reason === 'not_a_quote') {
      deps.logger.warn('refused a swap click whose button value is not a quote id', {
        action,
        userId,
        valueLength: value.length,
        value: preview(value),
      });
    } else if (quote) {
      deps.logger.warn('refused a swap click that does not come from the quote message', {
        action,
        quoteId: value,
        userId,
        reason: checked.detail,
        clickChannel: preview(origin.channelId),
        clickMessageTs: preview(origin.messageTs),
        quoteChannel: quote.channelId,
        quoteMessageTs: quote.messageTs,
      });
    }
    return { notice: checked.notice };
  }

  /**
   * Whether the clicker is an approver of this quote: named in its policy, or a member of one of its groups as
   * Slack tells (cached). Groups are asked about only when the person is not named.
   */
  async function isApproverOf(snapshot: PolicySnapshot, userId: string) {
    if (snapshot.approvers.userIds.includes(userId) || snapshot.approvers.groupIds.length === 0)
      return approverCheck(snapshot, userId, new Map());
    return approverCheck(snapshot, userId, await groupMembers(snapshot.approvers.groupIds));
  }

  /** The one "expires soon" reply in the quote's thread, naming the approvers who have not acted; claimed already. */
  async function remind(quote: SwapQuote, now: Date): Promise<void> {
    const snapshot = policyOf(quote, deps.policy);
    const yetToAct = approversYetToAct(quote, snapshot, await groupMembers(snapshot.approvers.groupIds));
    try {
      await deps.messenger.reply(quote.channelId, quote.messageTs!, buildQuoteReminder(quote, snapshot, yetToAct, now));
    } catch (error) {
      // Not posted: a later sweep (until expiry) tries again.
      await quotes.releaseReminder(quote.id);
      throw error;
    }
  }

  async function groupMembers(groupIds: readonly string[]): Promise<GroupMembers> {
    if (groupIds.length === 0) return new Map();
    if (!deps.approverGroups)
      return new Map(groupIds.map((id) => [id, { error: 'the bot cannot read user groups here' }]));
    return deps.approverGroups.members(groupIds);
  }

  /** Sends the one swap/create of an approved quote (already `approving` on disk) and records what came back. */
  async function executeApproved(quote: SwapQuote): Promise<void> {
    let result: CreateResult;
    try {
      const swap = await deps.payments.createSwap(quote.estimateId);
      result = { ok: true, swapId: swap.id, swapStatus: swap.status };
    } catch (error) {
      deps.logger.warn('swap/create failed', { quoteId: quote.id, error: errorFields(error) });
      const failure = describeCreateFailure(createErrorOf(error), quote.from.symbol);
      // A lost answer means the create was sent: unlike a crash while approving, we know it went out.
      result = {
        ok: false,
        status: failure.status,
        failure: failure.text,
        ...(failure.status === 'outcome_unknown' ? { unknownCause: 'answer_lost' as const } : {}),
      };
    }
    if (result.ok) deps.metrics?.swapCreated();
    else deps.metrics?.quote('failed');
    const at = deps.now();
    const entry = result.ok
      ? auditEntry(at, 'swap_created', undefined, `swap ${result.swapId} ${result.swapStatus}`)
      : auditEntry(at, result.status, undefined, result.failure);
    try {
      await quotes.recordCreateResult(quote.id, result, at, entry);
    } catch (error) {
      // The create went out (or was refused) and cannot be recorded. Say what happened to the money, never
      // "nothing was done": a person must not ask for the same swap again.
      deps.logger.error('swap/create answered but its result could not be recorded', {
        quoteId: quote.id,
        swapId: result.ok ? result.swapId : undefined,
        error: errorFields(error),
      });
      throw new UserFacingError(
        result.ok
          ? `The swap was created (swap ${code(result.swapId)}), but the bot could not record it: its database failed. Do not ask for it again; \`/treasury swap ${escapeText(result.swapId)}\` shows it. The quote message will be corrected once the database is back.`
          : 'The approval was saved, but the bot could not record what the payment service answered: its database failed. Nothing will be sent again; check `/treasury swaps` in a few minutes.',
        'create_not_recorded',
      );
    }
    await edits.refresh(quote.id);
    if (result.ok) follower.start(quote.id);
  }

  /**
   * Approve or Reject clicked on the quote message `origin`. The click must come from the quote's own message;
   * then the approval rules, then an atomic claim on disk, then (for approve) one create. `secondFactor`: the
   * clicker gave a valid code with this approval (an approval that needs one never counts without it).
   */
  async function decide(
    quoteId: string,
    userId: string,
    decision: Decision,
    origin: ClickOrigin,
    options: { secondFactor?: boolean } = {},
  ): Promise<ClickOutcome> {
    const checked = await quoteOfClick(decision, quoteId, userId, origin);
    if ('notice' in checked) return checked;
    const snapshot = policyOf(checked.quote, deps.policy);
    // Asked before the atomic change (Slack cannot be called inside it): group membership for a few minutes
    // is what the policy trusts; everything the quote says is judged again inside the change.
    // The requester may always reject their own quote: no group needs asking then.
    const ownReject = decision === 'reject' && userId === checked.quote.requestedBy;
    const isApprover = ownReject ? false : await isApproverOf(snapshot, userId);
    const now = deps.now();
    const secondFactor = decision === 'approve' && options.secondFactor === true;
    const { decision: outcome, quote } = await quotes.decideQuote(
      quoteId,
      usageLookbackStart(now),
      // The policy as stored now: an approval may have raised it (the requester's window) since it was read.
      (stored, related, freeze) =>
        decideOnQuote(
          stored,
          policyOf(stored, deps.policy),
          { userId, decision, at: now, isApprover, ...(secondFactor ? { secondFactor } : {}) },
          related,
          freeze,
          deps.stepUp?.thresholdCents,
        ),
    );
    if (!outcome.ok) {
      if (
        outcome.reason === 'approvers_unknown' ||
        outcome.reason === 'daily_limit' ||
        outcome.reason === 'second_factor_required'
      )
        deps.logger.warn('refused a swap approval', { quoteId, userId, reason: outcome.reason });
      return { notice: outcome.notice };
    }
    if (decision === 'approve') deps.metrics?.approval();
    else if (quote.status === 'rejected') deps.metrics?.quote('rejected');
    await edits.refresh(quoteId);
    if (quote.status === 'approving') await executeApproved(quote);
    return outcome.notice === undefined ? {} : { notice: outcome.notice };
  }

  const stepUpFlow = createStepUpFlow({
    stepUp: deps.stepUp ?? { thresholdCents: undefined, slack: noStepUpSlack },
    policy: deps.policy,
    freeze: deps.store.freeze,
    logger: deps.logger,
    now: deps.now,
    quoteOfClick: (value, userId, origin) => quoteOfClick('approve', value, userId, origin),
    isApproverOf,
    recentQuotes: (now) => quotes.listUsageSince(usageLookbackStart(now)),
    approve: (quoteId, userId, origin, options) => decide(quoteId, userId, 'approve', origin, options),
  });

  return {
    /**
     * `/treasury swap <amount> <from> [to] <to>`: the quote goes to the channel; the requester gets a note. In a
     * 1:1 direct message the approvers could not see it: the person is told where to ask, before any API call.
     */
    requestQuote: quoting.requestQuote,

    /** What asking for a quote now would need or meet (the swap form's preview and its checks before submit). */
    previewQuote: quoting.previewQuote,

    /** The policy configured now and SWAP_STEP_UP_USD in cents (the swap form says what a quote would need). */
    policy: deps.policy,
    stepUpCents: deps.stepUp?.thresholdCents,

    /** Approve or Reject clicked on the quote message `origin`, without a code (see `decide` above). */
    decide: (quoteId: string, userId: string, decision: Decision, origin: ClickOrigin): Promise<ClickOutcome> =>
      decide(quoteId, userId, decision, origin),

    /**
     * Approve clicked (with the click's trigger_id): a quote that needs a second factor opens the code dialog (or
     * tells the clicker why not); any other goes the normal way.
     */
    approve: (quoteId: string, userId: string, origin: ClickOrigin, triggerId: string): Promise<ClickOutcome> =>
      stepUpFlow.click(quoteId, userId, origin, triggerId),

    /** The code dialog submitted: the code checked first, then (after the ack) the approval with a second factor. */
    submitCode: (state: StepUpModalState, userId: string, code: string): Promise<CodeSubmission> =>
      stepUpFlow.submit(state, userId, code),

    /**
     * The quotes waiting for approval: one reminder ten minutes before expiry, mentioning the approvers who have
     * not acted; at expiry the quote is marked expired and its message says so with the approvals it had. Each
     * step is claimed in the store, so replicas sweeping at once do it once.
     */
    async sweep(): Promise<void> {
      const now = deps.now();
      // Every pending quote, however old: after a long downtime the ones that lapsed meanwhile are marked too.
      const waiting = await quotes.listQuotesByStatus('pending');
      for (const quote of waiting) {
        try {
          if (hasLapsed(quote, now)) {
            if (await quotes.expireLapsed(quote.id, auditEntry(now, 'expired', undefined, expiredDetail(quote)))) {
              deps.metrics?.quote('expired');
              await edits.refresh(quote.id);
            }
          } else if (isReminderDue(quote, now) && (await quotes.claimReminder(quote.id, now))) {
            await remind(quote, now);
          }
        } catch (error) {
          deps.logger.warn('could not follow up a waiting swap quote; trying again at the next sweep', {
            quoteId: quote.id,
            error: errorFields(error),
          });
        }
      }
    },

    /**
     * "New quote" on an expired or refused quote: the same parameters, a fresh estimate, a fresh approval. Whoever
     * clicks is the new quote's requester (the quote it replaces and who asked for that stay on record): a click
     * is a request, so self-approval, their 24 hours and the daily limit are judged on them, as for a typed
     * `/treasury swap` (TREASURY_USERS is checked on them by the listener, the freeze and the limits here).
     */
    async requote(quoteId: string, userId: string, origin: ClickOrigin): Promise<ClickOutcome> {
      const checked = await quoteOfClick('new_quote', quoteId, userId, origin);
      if ('notice' in checked) return checked;
      const { quote } = checked;
      const permitted = mayRequote(
        quote,
        userId,
        userId === quote.requestedBy ? false : await isApproverOf(policyOf(quote, deps.policy), userId),
      );
      if (!permitted.allowed) return { notice: permitted.notice };
      const claimed = await quotes.claimRequote(
        quoteId,
        randomUUID(),
        auditEntry(deps.now(), 'requote_requested', userId),
      );
      if (!claimed) return { notice: REQUOTE_TAKEN_NOTICE };
      try {
        // A fresh price for the fresh estimate: the value (and SWAP_MAX_USD) is checked again, under the policy
        // of now (the new quote is a new request).
        const assets = await deps.payments.listAssets();
        const successor = await quoting.postQuote({
          assets: {
            from: assets.find((asset) => asset.id === quote.from.assetId),
            to: assets.find((asset) => asset.id === quote.to.assetId),
          },
          requestedBy: userId,
          channelId: quote.channelId,
          from: quote.from,
          to: quote.to,
          amountFrom: BigInt(quote.amountFrom),
          replaces: { quoteId: quote.id, requestedBy: quote.requestedBy },
          // The old quote was posted there, so it is a channel (possibly one the bot has since left).
          conversation: 'channel',
        });
        await quotes.recordRequote(
          quoteId,
          successor.id,
          auditEntry(deps.now(), 'requoted', userId, `new quote ${successor.id}`),
        );
        await edits.refresh(quoteId);
        // The clicker asked for it: they get the requester's note, as after a typed /treasury swap.
        return { notice: buildQuotePostedNote(successor, deps.policy).text };
      } catch (error) {
        await quotes.releaseRequote(
          quoteId,
          auditEntry(deps.now(), 'requote_failed', userId, asCodedError(error).message),
        );
        throw error;
      }
    },

    /**
     * A quote left `approving` means the process died after writing the approval and before recording the
     * create's answer: anywhere from just before sending swap/create to just after. So the create may or may
     * not have been sent. It is never resent; it becomes `outcome_unknown` (`interrupted`) and the message says
     * a person must check the dashboard. Swaps still in progress are followed (again).
     *
     * One process (the state file): at start, every `approving` quote is such a leftover. Replicas: another one
     * may be sending that create right now, so only a quote `approving` for longer than `stuckForMs` (far
     * longer than a create can take) is a leftover; replicas call this periodically, so the swaps of a replica
     * that died are marked and followed by the others.
     */
    async recover(options: { stuckForMs?: number } = {}): Promise<void> {
      const stuckBefore = deps.now().getTime() - (options.stuckForMs ?? 0);
      for (const quote of await quotes.listQuotesByStatus('approving')) {
        if (options.stuckForMs !== undefined && Date.parse(quote.decidedAt ?? quote.estimatedAt) > stuckBefore)
          continue;
        const at = deps.now();
        await quotes.markOutcomeUnknown(
          quote.id,
          INTERRUPTED_FAILURE,
          at,
          auditEntry(at, 'outcome_unknown', undefined, INTERRUPTED_DETAIL),
        );
        await edits.refresh(quote.id);
      }
      for (const quote of await quotes.listQuotesToFollow()) follower.start(quote.id);
    },

    /** `/treasury swap <swap-id>`. */
    showSwap: (swapId: string): Promise<SlackMessage> => showSwap(deps.payments, swapId),

    /**
     * `/treasury policy [amount]`: the approval policy in plain words, what an amount would need, and (with a
     * daily limit) what each asset has used of it in the last 24 hours.
     */
    async describePolicy(treasuryUsers: readonly string[], amountCents?: bigint): Promise<SlackMessage> {
      const usedToday: LimitUseView[] = [];
      if (deps.policy.dailyLimitUsdCents !== undefined) {
        const now = deps.now();
        const recent = await quotes.listQuotesSince(usageLookbackStart(now));
        const assets = new Map(recent.map((quote) => [limitKeyOf(quote), quote.from]));
        for (const [key, asset] of assets) {
          const use = limitUse(recent, key, now);
          if (use.createdCents + use.waitingCents > 0n)
            usedToday.push({ asset: `${asset.symbol} on ${asset.networkTitle}`, ...use });
        }
      }
      return buildPolicy({ ...deps.policy, treasuryUsers, limitUse: usedToday }, amountCents);
    },

    /** `/treasury swaps`: the audit trail, newest first. */
    showHistory: (limit = 15): Promise<SlackMessage> => showSwapHistory(quotes, limit),

    /**
     * Stops following swaps and retrying edits (shutdown); recover() picks swaps up again at the next start.
     * Resolves when the follow-ups under way have ended.
     */
    /**
     * Re-renders every waiting quote's message (a freeze was pulled or lifted: they show FROZEN, or no longer).
     * A failed edit is logged and retried by the editor; it never fails the caller.
     */
    async refreshWaiting(): Promise<void> {
      for (const quote of await quotes.listQuotesByStatus('pending')) await edits.refresh(quote.id);
    },

    async stop(): Promise<void> {
      edits.stop();
      await follower.stop();
    },
  };
}

/** The swap feature. */
export type SwapService = ReturnType<typeof createSwapService>;
