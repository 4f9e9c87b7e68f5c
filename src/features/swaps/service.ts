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
import { parseTokenAmount } from '../../kernel/amounts.js';
import { resolveAsset } from '../../kernel/asset-names.js';
import { describeAssetProblem } from '../../kernel/asset-problems.js';
import { UserFacingError } from '../../kernel/errors.js';
import { escapeText } from '../../kernel/text.js';
import { errorFields, type Logger } from '../../logger.js';
import { type Asset, type PaymentsClient, PaymentsError, PaymentsValidationError } from '../../payments/index.js';
import type { ConversationKind } from '../../slack/conversations.js';
import { describeSlackError, mayHaveHappened, slackErrorCode } from '../../slack/errors.js';
import type { CreateResult, SwapQuoteRepository } from '../../store/repository.js';
import { cannotPostHere, quotePlaceProblem } from '../places.js';
import {
  type ClickOrigin,
  type CreateError,
  checkClick,
  describeCreateFailure,
  isQuoteId,
  mayRequote,
  REQUOTE_TAKEN_NOTICE,
} from './approval.js';
import { buildQuoteMessage, buildQuotePostedNote, buildQuoteReminder } from './blocks.js';
import {
  approversYetToAct,
  checkNewQuoteLimit,
  type Decision,
  decideOnQuote,
  hasLapsed,
  isReminderDue,
  limitKeyOf,
  limitUse,
  policyOf,
  requesterWindow,
  usageLookbackStart,
} from './decision.js';
import { createSwapFollower, type FollowPolicy, type Wait } from './follow.js';
import { createQuoteMessageEditor, type QuoteMessenger, type Scheduler } from './message-edits.js';
import {
  approverCheck,
  checkMaxUsd,
  type GroupMembers,
  isKnownValue,
  type PolicySnapshot,
  type StoredUsdValue,
  type SwapLeg,
  type SwapPolicy,
  snapshotPolicy,
  swapValueUsd,
  type UsdValue,
} from './policy.js';
import { buildPolicy, type LimitUseView } from './policy-blocks.js';
import { type AssetSnapshot, auditEntry, newSwapQuote, type SwapQuote } from './quote.js';
import { showSwap, showSwapHistory, snapshotOf } from './views.js';

/** What the swap feature needs. */
export interface SwapDeps {
  payments: PaymentsClient;
  /** Where quotes are kept: the bot's store, or anything else with a swap quote repository. */
  store: { readonly swapQuotes: SwapQuoteRepository };
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

  async function resolveBoth(fromRef: string, toRef: string): Promise<[Asset, Asset]> {
    const assets = await deps.payments.listAssets();
    const from = resolveAsset(assets, fromRef);
    if (!from.ok) throw new UserFacingError(describeAssetProblem(from));
    const to = resolveAsset(assets, toRef);
    if (!to.ok) throw new UserFacingError(describeAssetProblem(to));
    if (from.asset.id === to.asset.id)
      throw new UserFacingError('The two assets are the same: pick two different assets to swap.');
    return [from.asset, to.asset];
  }

  /** A leg of the swap for the valuation: the asset as the asset list has it now, or unknown when it is gone. */
  function legOf(
    asset: Asset | undefined,
    snapshot: AssetSnapshot,
    amount: string,
  ): SwapLeg | Exclude<UsdValue, { cents: bigint }> {
    const label = `${snapshot.symbol} on ${snapshot.networkTitle}`;
    if (!asset)
      return {
        unknown: 'no_balance',
        reason: `for ${label}, the asset is no longer in the asset list, so its price is unknown`,
      };
    return {
      label,
      amount,
      decimals: asset.crypto.decimals,
      balance: asset.balance,
      balanceInUsd: asset.balanceInUsd,
    };
  }

  /**
   * What the swap is worth in USD now: `amount` of `from` and (once estimated) `estimatedAmount` of `to`, each at
   * its asset's own price in the asset list (exact, to the cent), the larger of the two; unknown when either cannot
   * be trusted (swapValueUsd). Checked against SWAP_MAX_USD and the source asset's SWAP_DAILY_LIMIT_USD (beside
   * the swaps created and quotes waiting in the last 24 hours): over either, or unknown while either is set, the
   * quote is refused in plain words. Called once before the estimate on the source leg alone (a refusal then costs
   * no estimate: the swap is worth at least that much), and once after it on both legs, which also fixes the
   * policy: the tier judged on the swap plus the requester's own swaps of the last 24 hours. `recent` are the
   * quotes of the last 24 hours as read before the estimate (as the limit was always checked): two quotes asked
   * for at once may both pass, and the approval that reaches a quorum judges the limit and the tier again inside
   * the decision's transaction.
   */
  function priceAndPolicy(input: {
    from: { asset: Asset | undefined; snapshot: AssetSnapshot };
    to: { asset: Asset | undefined; snapshot: AssetSnapshot };
    amount: bigint;
    requestedBy: string;
    recent: readonly SwapQuote[];
    estimatedAmount?: string;
  }): { valueUsd: StoredUsdValue; policy: PolicySnapshot } {
    const fromLeg = legOf(input.from.asset, input.from.snapshot, input.amount.toString());
    const toLeg =
      input.estimatedAmount === undefined ? undefined : legOf(input.to.asset, input.to.snapshot, input.estimatedAmount);
    const value: UsdValue =
      'unknown' in fromLeg ? fromLeg : toLeg !== undefined && 'unknown' in toLeg ? toLeg : swapValueUsd(fromLeg, toLeg);
    if (!isKnownValue(value) && input.estimatedAmount !== undefined)
      deps.logger.info('a swap quote has no trusted USD value', { unknown: value.unknown, reason: value.reason });
    const allowed = checkMaxUsd(deps.policy.maxUsdCents, value);
    if (!allowed.ok)
      throw new UserFacingError(
        `No quote was made: ${escapeText(allowed.reason)} (\`SWAP_MAX_USD\`). Ask for a smaller amount.`,
        'swap_above_maximum',
      );
    const now = deps.now();
    const { recent } = input;
    if (deps.policy.dailyLimitUsdCents !== undefined) {
      const fits = checkNewQuoteLimit({
        limitCents: deps.policy.dailyLimitUsdCents,
        value,
        assetKey: limitKeyOf({ from: input.from.snapshot }),
        assetLabel: escapeText(`${input.from.snapshot.symbol} on ${input.from.snapshot.networkTitle}`),
        quotes: recent,
        now,
      });
      if (!fits.ok)
        throw new UserFacingError(
          `No quote was made: ${fits.reason} (\`SWAP_DAILY_LIMIT_USD\`). Ask for a smaller amount, or wait until earlier swaps leave the 24-hour window.`,
          'swap_above_daily_limit',
        );
    }
    const window = requesterWindow(recent, input.requestedBy, now, { waiting: true });
    return {
      valueUsd: isKnownValue(value) ? { cents: value.cents.toString() } : value,
      policy: snapshotPolicy(deps.policy, value, now, window),
    };
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

  /**
   * Checks the source leg, estimates, values both legs and fixes the policy (priceAndPolicy), records the quote,
   * and posts it in the channel for approval.
   */
  async function postQuote(input: {
    requestedBy: string;
    channelId: string;
    from: AssetSnapshot;
    to: AssetSnapshot;
    /** The two assets as the asset list has them now (their balances give their prices). */
    assets: { from: Asset | undefined; to: Asset | undefined };
    amountFrom: bigint;
    replaces?: string;
    /** The kind of conversation the quote goes to, for the words when Slack will not post it there. */
    conversation: ConversationKind;
  }): Promise<SwapQuote> {
    const legs = {
      from: { asset: input.assets.from, snapshot: input.from },
      to: { asset: input.assets.to, snapshot: input.to },
      amount: input.amountFrom,
      requestedBy: input.requestedBy,
      recent: await quotes.listQuotesSince(usageLookbackStart(deps.now())),
    };
    priceAndPolicy(legs); // the source leg alone: refused here, nothing is estimated
    const estimatedAt = deps.now();
    const estimate = await deps.payments.estimateSwap({
      assetIdFrom: input.from.assetId,
      assetIdTo: input.to.assetId,
      amount: input.amountFrom,
    });
    const priced = priceAndPolicy({ ...legs, estimatedAmount: estimate.estimatedAmount });
    const quote = newSwapQuote({
      requestedBy: input.requestedBy,
      channelId: input.channelId,
      from: input.from,
      to: input.to,
      amountFrom: input.amountFrom,
      ...(input.replaces ? { replaces: input.replaces } : {}),
      ...priced,
      id: randomUUID(),
      estimateId: estimate.id,
      estimatedAt,
      estimatedAmount: estimate.estimatedAmount,
      routeType: estimate.routeType,
      serviceId: estimate.serviceId,
    });
    await quotes.saveQuote(quote);
    let ts: string;
    try {
      ts = await deps.messenger.post(input.channelId, buildQuoteMessage(quote, deps.policy, deps.now()));
    } catch (error) {
      const slackError = describeSlackError(error);
      // A timeout or a 5xx does not mean Slack did not post: the quote may be in the channel. It is expired all
      // the same (an Approve click on it changes nothing), and the person is told to look before asking again.
      const unconfirmed = mayHaveHappened(error);
      await quotes.markPostFailed(
        quote.id,
        unconfirmed
          ? `Slack did not confirm the quote message (${slackError}); it may be in the channel`
          : `the quote could not be posted (${slackError})`,
        slackError,
        deps.now(),
      );
      throw new UserFacingError(
        cannotPostHere(input.conversation, slackErrorCode(error), 'quote') ??
          (unconfirmed
            ? 'Slack did not confirm the post of the quote message, so it may or may not be in the channel. No swap was made, and that quote cannot be approved even if it shows. Check the channel before trying again.'
            : 'Slack did not take the quote message, so no swap can be approved from it. No swap was made; please try again in a minute.'),
      );
    }
    await quotes.recordMessageTs(quote.id, ts);
    return { ...quote, messageTs: ts };
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

  return {
    /**
     * `/treasury swap <amount> <from> [to] <to>`: the quote goes to the channel; the requester gets a note. In a
     * 1:1 direct message the approvers could not see it: the person is told where to ask, before any API call.
     */
    async requestQuote(input: {
      userId: string;
      channelId: string;
      /** Where the command was typed (from its payload); default `channel`. */
      conversation?: ConversationKind;
      amountText: string;
      fromRef: string;
      toRef: string;
    }): Promise<SlackMessage> {
      const conversation = input.conversation ?? 'channel';
      const notHere = quotePlaceProblem(conversation);
      if (notHere !== undefined) throw new UserFacingError(notHere, 'quote_in_direct_message');
      parseTokenAmount(input.amountText, 36); // junk, negative, zero: refused before any API call
      const [from, to] = await resolveBoth(input.fromRef, input.toRef);
      const amountFrom = parseTokenAmount(input.amountText, from.crypto.decimals, { symbol: from.crypto.symbol });
      const quote = await postQuote({
        requestedBy: input.userId,
        channelId: input.channelId,
        conversation,
        from: snapshotOf(from),
        to: snapshotOf(to),
        assets: { from, to },
        amountFrom,
      });
      return buildQuotePostedNote(quote, deps.policy);
    },

    /**
     * Approve or Reject clicked on the quote message `origin`. The click must come from the quote's own
     * message; then the approval rules, then an atomic claim on disk, then (for approve) one create.
     */
    async decide(quoteId: string, userId: string, decision: Decision, origin: ClickOrigin): Promise<ClickOutcome> {
      const checked = await quoteOfClick(decision, quoteId, userId, origin);
      if ('notice' in checked) return checked;
      const snapshot = policyOf(checked.quote, deps.policy);
      // Asked before the atomic change (Slack cannot be called inside it): group membership for a few minutes
      // is what the policy trusts; everything the quote says is judged again inside the change.
      // The requester may always reject their own quote: no group needs asking then.
      const ownReject = decision === 'reject' && userId === checked.quote.requestedBy;
      const isApprover = ownReject ? false : await isApproverOf(snapshot, userId);
      const now = deps.now();
      const { decision: outcome, quote } = await quotes.decideQuote(
        quoteId,
        usageLookbackStart(now),
        // The policy as stored now: an approval may have raised it (the requester's window) since it was read.
        (stored, related) =>
          decideOnQuote(stored, policyOf(stored, deps.policy), { userId, decision, at: now, isApprover }, related),
      );
      if (!outcome.ok) {
        if (outcome.reason === 'approvers_unknown' || outcome.reason === 'daily_limit')
          deps.logger.warn('refused a swap approval', { quoteId, userId, reason: outcome.reason });
        return { notice: outcome.notice };
      }
      await edits.refresh(quoteId);
      if (quote.status === 'approving') await executeApproved(quote);
      return outcome.notice === undefined ? {} : { notice: outcome.notice };
    },

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
            if (await quotes.expireLapsed(quote.id, auditEntry(now, 'expired', undefined, expiredDetail(quote))))
              await edits.refresh(quote.id);
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

    /** "New quote" on an expired or refused quote: the same parameters, a fresh estimate, a fresh approval. */
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
        const successor = await postQuote({
          assets: {
            from: assets.find((asset) => asset.id === quote.from.assetId),
            to: assets.find((asset) => asset.id === quote.to.assetId),
          },
          requestedBy: quote.requestedBy,
          channelId: quote.channelId,
          from: quote.from,
          to: quote.to,
          amountFrom: BigInt(quote.amountFrom),
          replaces: quote.id,
          // The old quote was posted there, so it is a channel (possibly one the bot has since left).
          conversation: 'channel',
        });
        await quotes.recordRequote(
          quoteId,
          successor.id,
          auditEntry(deps.now(), 'requoted', userId, `new quote ${successor.id}`),
        );
        await edits.refresh(quoteId);
        return {};
      } catch (error) {
        await quotes.releaseRequote(
          quoteId,
          auditEntry(deps.now(), 'requote_failed', userId, error instanceof Error ? error.message : String(error)),
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
    async stop(): Promise<void> {
      edits.stop();
      await follower.stop();
    },
  };
}

/** The swap feature. */
export type SwapService = ReturnType<typeof createSwapService>;
