/**
 * Making a swap quote: the two assets resolved, the swap valued in USD and checked against SWAP_MAX_USD and the
 * daily limit, estimated, valued again on both legs with its policy fixed, recorded, then posted for approval.
 * A refusal is a UserFacingError in plain words; nothing is estimated once the source leg alone is refused.
 */
import { randomUUID } from 'node:crypto';
import type { SlackMessage } from '../../blocks/common.js';
import { describeFailure } from '../../blocks/errors.js';
import { parseTokenAmount } from '../../kernel/amounts.js';
import { resolveAsset } from '../../kernel/asset-names.js';
import { describeAssetProblem } from '../../kernel/asset-problems.js';
import { UserFacingError } from '../../kernel/errors.js';
import { DamagedRecordError } from '../../kernel/store-error.js';
import { escapeText } from '../../kernel/text.js';
import type { Logger } from '../../logger.js';
import type { BotMetrics } from '../../metrics/index.js';
import type { Asset, PaymentsClient } from '../../payments/index.js';
import type { ConversationKind } from '../../slack/conversations.js';
import { describeSlackError, mayHaveHappened, slackErrorCode } from '../../slack/errors.js';
import { FrozenError, NO_QUOTE_MADE } from '../freeze/words.js';
import { cannotPostHere, quotePlaceProblem } from '../places.js';
import type { FreezeRepository, SwapQuoteRepository } from '../repositories.js';
import { buildQuoteMessage, buildQuotePostedNote } from './blocks.js';
import {
  checkNewQuoteLimit,
  limitKeyOf,
  othersWaitingWarning,
  requesterWindow,
  usageLookbackStart,
} from './decision.js';
import type { QuoteMessenger } from './message-edits.js';
import {
  checkMaxUsd,
  isKnownValue,
  type PolicySnapshot,
  type StoredUsdValue,
  type SwapLeg,
  type SwapPolicy,
  snapshotPolicy,
  swapValueUsd,
  type UsdValue,
} from './policy.js';
import { type AssetSnapshot, newSwapQuote, type SwapQuote } from './quote.js';
import { quoteStepUp } from './step-up.js';
import { assetSnapshotOf } from './views.js';

/**
 * What asking for a quote now would lead to, judged as the typed path judges it before the estimate (the source leg
 * alone): refused (a freeze, SWAP_MAX_USD, the daily limit; mrkdwn, the typed path's words), or the policy it would
 * be fixed with and whether approving it would need a code. The estimate may still raise the value (the larger leg
 * counts), so this is a floor, never a promise of fewer approvals than the quote will ask.
 */
export type QuotePreview =
  | { refused: string; frozen: boolean }
  | {
      valueUsd: StoredUsdValue;
      policy: PolicySnapshot;
      secondFactor: boolean;
      /** Other people's waiting quotes could take the daily limit's room first: the quote will say so (mrkdwn). */
      limitWarning?: string;
    };

/** What making a quote needs: the payment API, where quotes are kept, Slack, the policy of now. */
export interface QuoteMakerDeps {
  payments: PaymentsClient;
  quotes: SwapQuoteRepository;
  messenger: QuoteMessenger;
  logger: Logger;
  now: () => Date;
  policy: SwapPolicy;
  /** The freeze, read before any API call (saveQuote checks it again, atomically). */
  freeze?: Pick<FreezeRepository, 'currentFreeze'>;
  /**
   * SWAP_STEP_UP_USD in cents: fixed on each quote with its policy (a decision honours the stricter of it and the
   * threshold it runs under); a quote that needs a code says so when it is posted, and so does the requester's note.
   */
  stepUpCents?: bigint;
  /** Counts the quotes asked for (the metrics). */
  metrics?: Pick<BotMetrics, 'quote'> | undefined;
}

/** Makes quotes: `requestQuote` for `/treasury swap`, `postQuote` for it and for "New quote". */
export function createQuoteMaker(deps: QuoteMakerDeps) {
  const { quotes } = deps;

  /** The two assets the person named, from the asset list; refused in plain words when unknown or the same. */
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
   * the swaps created and the requester's own quotes waiting in the last 24 hours; other people's waiting quotes
   * only warn, `othersWaitingCents`): over either, or unknown while either is set, the quote is refused in plain
   * words. Called once before the estimate on the source leg alone (a refusal then costs
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
  }): { valueUsd: StoredUsdValue; policy: PolicySnapshot; othersWaitingCents?: bigint } {
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
    let othersWaitingCents: bigint | undefined;
    if (deps.policy.dailyLimitUsdCents !== undefined) {
      const fits = checkNewQuoteLimit({
        limitCents: deps.policy.dailyLimitUsdCents,
        value,
        assetKey: limitKeyOf({ from: input.from.snapshot }),
        assetLabel: escapeText(`${input.from.snapshot.symbol} on ${input.from.snapshot.networkTitle}`),
        requester: input.requestedBy,
        quotes: recent,
        now,
      });
      if (!fits.ok)
        throw new UserFacingError(
          `No quote was made: ${fits.reason} (\`SWAP_DAILY_LIMIT_USD\`). Ask for a smaller amount, or wait until earlier swaps leave the 24-hour window.`,
          'swap_above_daily_limit',
        );
      othersWaitingCents = fits.othersWaitingCents;
    }
    const window = requesterWindow(recent, input.requestedBy, now, { waiting: true });
    return {
      valueUsd: isKnownValue(value) ? { cents: value.cents.toString() } : value,
      policy: snapshotPolicy(deps.policy, value, now, window, deps.stepUpCents),
      ...(othersWaitingCents !== undefined ? { othersWaitingCents } : {}),
    };
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
    /** "New quote": the quote this one replaces and who had asked for it (`requestedBy` is who clicked). */
    replaces?: { quoteId: string; requestedBy: string };
    /** The kind of conversation the quote goes to, for the words when Slack will not post it there. */
    conversation: ConversationKind;
  }): Promise<SwapQuote> {
    // Before the estimate ("New quote" comes here directly); saveQuote checks again, atomically.
    const frozen = await deps.freeze?.currentFreeze(deps.now());
    if (frozen) throw new FrozenError(frozen, NO_QUOTE_MADE);
    const legs = {
      from: { asset: input.assets.from, snapshot: input.from },
      to: { asset: input.assets.to, snapshot: input.to },
      amount: input.amountFrom,
      requestedBy: input.requestedBy,
      recent: await quotes.listUsageSince(usageLookbackStart(deps.now())),
    };
    priceAndPolicy(legs); // the source leg alone: refused here, nothing is estimated
    const estimatedAt = deps.now();
    const estimate = await deps.payments.estimateSwap({
      assetIdFrom: input.from.assetId,
      assetIdTo: input.to.assetId,
      amount: input.amountFrom,
    });
    const { othersWaitingCents, ...priced } = priceAndPolicy({ ...legs, estimatedAmount: estimate.estimatedAmount });
    const quote = newSwapQuote({
      requestedBy: input.requestedBy,
      channelId: input.channelId,
      from: input.from,
      to: input.to,
      amountFrom: input.amountFrom,
      ...(input.replaces ? { replaces: input.replaces } : {}),
      ...(othersWaitingCents !== undefined ? { othersWaitingCents } : {}),
      ...priced,
      id: randomUUID(),
      estimateId: estimate.id,
      estimatedAt,
      estimatedAmount: estimate.estimatedAmount,
      routeType: estimate.routeType,
      serviceId: estimate.serviceId,
    });
    await quotes.saveQuote(quote);
    deps.metrics?.quote('requested');
    let ts: string;
    try {
      ts = await deps.messenger.post(
        input.channelId,
        buildQuoteMessage(quote, deps.policy, deps.now(), undefined, deps.stepUpCents),
      );
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

  /**
   * What a quote of `amountFrom` of `from` asked for by `userId` now would need (QuotePreview): the freeze, the
   * source leg's USD value against SWAP_MAX_USD and the daily limit, and the tier with the requester's last 24 hours,
   * by the same functions the quote is made with. Reads the store, never the payment API.
   */
  async function previewQuote(input: { userId: string; from: Asset; amountFrom: bigint }): Promise<QuotePreview> {
    const now = deps.now();
    const frozen = await deps.freeze?.currentFreeze(now);
    if (frozen) return { refused: new FrozenError(frozen, NO_QUOTE_MADE).mrkdwn, frozen: true };
    const from = { asset: input.from, snapshot: assetSnapshotOf(input.from) };
    try {
      // The target leg is not valued before the estimate: it only takes part once estimatedAmount is given.
      const { othersWaitingCents, ...priced } = priceAndPolicy({
        from,
        to: from,
        amount: input.amountFrom,
        requestedBy: input.userId,
        recent: await quotes.listUsageSince(usageLookbackStart(now)),
      });
      // The same total as the quote: its value with the requester's swaps of the last 24 hours (waiting ones too).
      return {
        ...priced,
        secondFactor: quoteStepUp(priced.policy, deps.stepUpCents).needed,
        ...(othersWaitingCents !== undefined
          ? { limitWarning: othersWaitingWarning(from.snapshot, othersWaitingCents) }
          : {}),
      };
    } catch (error) {
      if (error instanceof UserFacingError) return { refused: error.mrkdwn, frozen: false };
      if (error instanceof DamagedRecordError) return { refused: describeFailure(error), frozen: false };
      throw error;
    }
  }

  /** `/treasury swap <amount> <from> [to] <to>`: the quote goes to the channel; the requester gets a note. */
  async function requestQuote(input: {
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
    const frozen = await deps.freeze?.currentFreeze(deps.now());
    if (frozen) throw new FrozenError(frozen, NO_QUOTE_MADE);
    const [from, to] = await resolveBoth(input.fromRef, input.toRef);
    const amountFrom = parseTokenAmount(input.amountText, from.crypto.decimals, { symbol: from.crypto.symbol });
    const quote = await postQuote({
      requestedBy: input.userId,
      channelId: input.channelId,
      conversation,
      from: assetSnapshotOf(from),
      to: assetSnapshotOf(to),
      assets: { from, to },
      amountFrom,
    });
    return buildQuotePostedNote(quote, deps.policy, deps.stepUpCents);
  }

  return { requestQuote, postQuote, previewQuote };
}
