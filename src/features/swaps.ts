/**
 * Swaps: the one place where the bot moves money, so the rules are strict.
 *
 * - One estimate leads to at most one swap/create call. The decision is claimed in the store (and written
 *   to disk) BEFORE the create call; every later click, resend or restart sees the claim.
 * - The create call is never retried, and a create whose answer was lost is never resent: the quote becomes
 *   `outcome_unknown` and a person checks.
 * - Validity counts from the moment we asked for the estimate, not from any click.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SlackMessage } from '../blocks/common.js';
import { UserFacingError } from '../domain/errors.js';
import { formatFeeLeg } from '../blocks/format.js';
import { escapeText, mention } from '../blocks/mrkdwn.js';
import { buildQuoteMessage, buildSwapDetail, buildSwapHistory, type ApprovalPolicy } from '../blocks/swaps.js';
import { errorFields, type Logger } from '../logger.js';
import { parseTokenAmount } from '../money.js';
import {
  PaymentsError,
  PaymentsNotFoundError,
  PaymentsValidationError,
  type Asset,
  type PaymentsClient,
  type Swap,
} from '../payments/index.js';
import type { AssetSnapshot, BotStore, SwapQuote } from '../store/state.js';
import { describeAssetProblem, resolveAsset } from './resolve-asset.js';

/** Estimates are held 30 minutes by the payment service (spec 2.7). */
export const ESTIMATE_VALIDITY_MS = 30 * 60_000;
/** When an edit of the quote message fails (Slack 5xx, rate limit), it is tried again after these delays. */
const MESSAGE_RETRY_DELAYS_MS = [2_000, 10_000, 60_000, 300_000];
/** Approvals this close to expiry are refused: the create call must reach the service while the estimate lives. */
const EXPIRY_SAFETY_MS = 30_000;

/** Posts and edits the in-channel quote message (chat.postMessage / chat.update). */
export interface QuoteMessenger {
  post(channelId: string, message: SlackMessage): Promise<string>;
  update(channelId: string, ts: string, message: SlackMessage): Promise<void>;
}

/** How the bot follows a created swap with swap/get. */
export interface FollowPolicy {
  intervalMs: number;
  /** After this long since approval the bot stops following and says so. */
  maxDurationMs: number;
}

/** What the swap feature needs. */
export interface SwapDeps {
  payments: PaymentsClient;
  store: BotStore;
  messenger: QuoteMessenger;
  logger: Logger;
  now: () => Date;
  policy: ApprovalPolicy;
  follow: FollowPolicy;
}

/** The answer to a click, shown privately to the person who clicked (nothing when the message says it all). */
export type ClickOutcome = { notice?: string };

/** Where a click came from: the message its button is in, as the click payload says. */
export interface ClickOrigin {
  channelId?: string | undefined;
  messageTs?: string | undefined;
}

/** Quote ids are `randomUUID()`s; anything else in a button value did not come from this bot. */
const QUOTE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Whether a value from outside (a button value) has the shape of a quote id this bot makes. */
export function isQuoteId(value: unknown): boolean {
  return typeof value === 'string' && QUOTE_ID.test(value);
}

/**
 * Why a click may not act on this quote, or undefined when it may: a decision comes only from the quote's own
 * message. A button value can be edited by whoever sends the click, the message it sits in cannot be faked
 * into another quote's (channel and ts are checked against the record). A quote whose message ts was never
 * recorded (its posting failed, or the bot died before recording it) cannot be decided by a click at all.
 */
export function refuseClickOrigin(quote: Pick<SwapQuote, 'channelId' | 'messageTs'>, origin: ClickOrigin): string | undefined {
  if (quote.messageTs === undefined) return 'the quote has no recorded message';
  if (origin.messageTs === undefined || origin.channelId === undefined) return 'the click carries no message';
  if (origin.channelId !== quote.channelId || origin.messageTs !== quote.messageTs) return "the click comes from another message than the quote's own";
  return undefined;
}

const NOT_A_QUOTE = 'This button does not name a quote the bot made, so nothing was done.';
const NOT_THIS_MESSAGE = "This button does not belong to this quote's message, so nothing was done. Use the buttons on the quote message itself.";
const UNRECORDED_MESSAGE = 'The bot never recorded where this quote was posted, so it cannot be decided by a click. Nothing was done; ask for a new quote.';

/** A value from outside, safe and short enough for one log line. */
function preview(value: string | undefined): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

const FINAL_SWAP_STATUSES = new Set(['finished', 'rejected']);

function snapshot(asset: Asset): AssetSnapshot {
  return {
    assetId: asset.id,
    symbol: asset.crypto.symbol,
    networkSymbol: asset.network.symbol,
    networkTitle: asset.network.title,
    decimals: asset.crypto.decimals,
  };
}

function audit(quote: SwapQuote, at: Date, event: string, by?: string, detail?: string): void {
  quote.history.push({ at: at.toISOString(), event, ...(by ? { by } : {}), ...(detail ? { detail } : {}) });
}

/** Creates the swap feature. It remembers which swaps it is following so stop() can end that. */
export function createSwapService(deps: SwapDeps) {
  const following = new Map<string, AbortController>();
  const messageRetries = new Set<NodeJS.Timeout>();

  // Own keys only: an id such as `constructor` must never find something Object.prototype has.
  const quoteOf = (quoteId: string): SwapQuote | undefined => {
    const quotes = deps.store.read().swapQuotes;
    return Object.hasOwn(quotes, quoteId) ? quotes[quoteId] : undefined;
  };

  /**
   * The checks every click passes before anything else: the value names a quote of ours, and the click comes
   * from that quote's own message. A refusal changes nothing, is logged, and tells the clicker privately.
   */
  function checkClick(action: string, quoteId: string, userId: string, origin: ClickOrigin): { quote: SwapQuote } | { notice: string } {
    if (!isQuoteId(quoteId)) {
      deps.logger.warn('refused a swap click whose button value is not a quote id', { action, userId, valueLength: quoteId.length, value: preview(quoteId) });
      return { notice: NOT_A_QUOTE };
    }
    const quote = quoteOf(quoteId);
    if (!quote) return { notice: 'The bot has no record of this quote, so nothing was done.' };
    const refused = refuseClickOrigin(quote, origin);
    if (refused !== undefined) {
      deps.logger.warn('refused a swap click that does not come from the quote message', {
        action,
        quoteId,
        userId,
        reason: refused,
        clickChannel: preview(origin.channelId),
        clickMessageTs: preview(origin.messageTs),
        quoteChannel: quote.channelId,
        quoteMessageTs: quote.messageTs,
      });
      return { notice: quote.messageTs === undefined ? UNRECORDED_MESSAGE : NOT_THIS_MESSAGE };
    }
    return { quote };
  }

  /** Re-renders the quote message from the record; a failed edit is logged, never thrown at the clicker. */
  async function refreshMessage(quoteId: string, attempt = 0): Promise<void> {
    const quote = quoteOf(quoteId);
    if (!quote?.messageTs) return;
    try {
      await deps.messenger.update(quote.channelId, quote.messageTs, buildQuoteMessage(quote, deps.policy, deps.now()));
    } catch (error) {
      const retry = attempt < MESSAGE_RETRY_DELAYS_MS.length;
      deps.logger.error('could not update the swap quote message', { quoteId, willRetry: retry, error: errorFields(error) });
      if (!retry) return;
      // The retry renders the record as it is then, so a late edit still tells the truth.
      const timer = setTimeout(() => {
        messageRetries.delete(timer);
        void refreshMessage(quoteId, attempt + 1);
      }, MESSAGE_RETRY_DELAYS_MS[attempt]);
      timer.unref();
      messageRetries.add(timer);
    }
  }

  async function resolveBoth(fromRef: string, toRef: string): Promise<[Asset, Asset]> {
    const assets = await deps.payments.listAssets();
    const from = resolveAsset(assets, fromRef);
    if (!from.ok) throw new UserFacingError(describeAssetProblem(from));
    const to = resolveAsset(assets, toRef);
    if (!to.ok) throw new UserFacingError(describeAssetProblem(to));
    if (from.asset.id === to.asset.id) throw new UserFacingError('The two assets are the same: pick two different assets to swap.');
    return [from.asset, to.asset];
  }

  /** Estimates, records the quote, and posts it in the channel for approval. */
  async function postQuote(input: {
    requestedBy: string;
    channelId: string;
    from: AssetSnapshot;
    to: AssetSnapshot;
    amountFrom: bigint;
    replaces?: string;
  }): Promise<SwapQuote> {
    const estimatedAt = deps.now();
    const estimate = await deps.payments.estimateSwap({
      assetIdFrom: input.from.assetId,
      assetIdTo: input.to.assetId,
      amount: input.amountFrom,
    });
    const quote: SwapQuote = {
      id: randomUUID(),
      estimateId: estimate.id,
      estimatedAt: estimatedAt.toISOString(),
      expiresAt: new Date(estimatedAt.getTime() + ESTIMATE_VALIDITY_MS).toISOString(),
      requestedBy: input.requestedBy,
      channelId: input.channelId,
      from: input.from,
      to: input.to,
      amountFrom: input.amountFrom.toString(),
      estimatedAmount: estimate.estimatedAmount,
      routeType: estimate.routeType,
      serviceId: estimate.serviceId,
      status: 'pending',
      ...(input.replaces ? { replaces: input.replaces } : {}),
      history: [],
    };
    audit(quote, estimatedAt, 'quoted', input.requestedBy, `estimate ${estimate.id}`);
    await deps.store.update((state) => {
      state.swapQuotes[quote.id] = quote;
    });
    let ts: string;
    try {
      ts = await deps.messenger.post(input.channelId, buildQuoteMessage(quote, deps.policy, deps.now()));
    } catch (error) {
      const slackError = (error as { data?: { error?: string } }).data?.error ?? 'unknown';
      await deps.store.update((state) => {
        const stored = state.swapQuotes[quote.id]!;
        stored.status = 'expired';
        stored.failure = `the quote could not be posted (${slackError})`;
        audit(stored, deps.now(), 'post_failed', undefined, slackError);
      });
      throw new UserFacingError(
        slackError === 'not_in_channel' || slackError === 'channel_not_found'
          ? 'I cannot post the quote in this conversation. Invite me first (`/invite @treasury`), or ask in a channel I am in.'
          : `Slack refused to post the quote (${escapeText(slackError)}). No swap was made.`,
      );
    }
    await deps.store.update((state) => {
      state.swapQuotes[quote.id]!.messageTs = ts;
    });
    return quoteOf(quote.id)!;
  }

  /** Follows a swap in the background; a failure ends this follow-up (the next start resumes it), never the process. */
  function startFollowing(quoteId: string): void {
    followSwap(quoteId).catch((error: unknown) => {
      deps.logger.warn('stopped following a swap after an error; it resumes at the next start', { quoteId, error: errorFields(error) });
    });
  }

  /** Polls swap/get until the swap is final or the bound passes, updating the record and the message. */
  async function followSwap(quoteId: string): Promise<void> {
    if (following.has(quoteId)) return;
    const controller = new AbortController();
    following.set(quoteId, controller);
    try {
      for (;;) {
        const quote = quoteOf(quoteId);
        if (!quote?.swapId || quote.followEndedAt) return;
        const startedAt = new Date(quote.decidedAt ?? quote.estimatedAt).getTime();
        if (deps.now().getTime() - startedAt > deps.follow.maxDurationMs) {
          await deps.store.update((state) => {
            const stored = state.swapQuotes[quoteId]!;
            stored.followEndedAt = deps.now().toISOString();
            audit(stored, deps.now(), 'follow_stopped', undefined, `still ${stored.swapStatus ?? 'unknown'} after the bound`);
          });
          await refreshMessage(quoteId);
          return;
        }
        try {
          await sleep(deps.follow.intervalMs, undefined, { signal: controller.signal });
        } catch {
          return; // stopped
        }
        let swap: Swap;
        try {
          swap = await deps.payments.getSwap(quote.swapId);
        } catch (error) {
          deps.logger.warn('could not read a swap being followed; will try again', { quoteId, error: errorFields(error) });
          continue;
        }
        const changed = await deps.store.update((state) => {
          const stored = state.swapQuotes[quoteId]!;
          const fee = swap.fee
            ? [...swap.fee.network.map(formatFeeLeg), ...(swap.fee.service ? [formatFeeLeg(swap.fee.service)] : [])].join(' + ')
            : undefined;
          const before = JSON.stringify([stored.swapStatus, stored.amountTo, stored.hashFrom, stored.hashTo, stored.feeSummary]);
          stored.swapStatus = swap.status;
          if (swap.amountTo !== null) stored.amountTo = swap.amountTo;
          if (swap.hashFrom) stored.hashFrom = swap.hashFrom;
          if (swap.hashTo) stored.hashTo = swap.hashTo;
          if (fee) stored.feeSummary = fee;
          const after = JSON.stringify([stored.swapStatus, stored.amountTo, stored.hashFrom, stored.hashTo, stored.feeSummary]);
          if (before !== after) audit(stored, deps.now(), `swap_${swap.status}`);
          if (FINAL_SWAP_STATUSES.has(swap.status)) stored.followEndedAt = deps.now().toISOString();
          return before !== after;
        });
        if (changed) await refreshMessage(quoteId);
        if (FINAL_SWAP_STATUSES.has(swap.status)) return;
      }
    } finally {
      following.delete(quoteId);
    }
  }

  /** Sends the one swap/create of an approved quote and records what came back. */
  async function executeApproved(quoteId: string): Promise<void> {
    const quote = quoteOf(quoteId)!;
    let swap: Swap | undefined;
    let failure: { status: 'create_failed' | 'outcome_unknown'; text: string } | undefined;
    try {
      swap = await deps.payments.createSwap(quote.estimateId);
    } catch (error) {
      deps.logger.warn('swap/create failed', { quoteId, error: errorFields(error) });
      failure = describeCreateFailure(error, quote);
    }
    await deps.store.update((state) => {
      const stored = state.swapQuotes[quoteId]!;
      if (swap) {
        stored.status = 'created';
        stored.swapId = swap.id;
        stored.swapStatus = swap.status;
        audit(stored, deps.now(), 'swap_created', undefined, `swap ${swap.id} ${swap.status}`);
      } else if (failure) {
        stored.status = failure.status;
        stored.failure = failure.text;
        // The create was sent and its answer lost: unlike a crash while approving, we know it went out.
        if (failure.status === 'outcome_unknown') stored.unknownCause = 'answer_lost';
        audit(stored, deps.now(), failure.status, undefined, failure.text);
      }
    });
    await refreshMessage(quoteId);
    if (swap) startFollowing(quoteId);
  }

  return {
    /** `/treasury swap <amount> <from> [to] <to>`: the quote goes to the channel; the requester gets a note. */
    async requestQuote(input: { userId: string; channelId: string; amountText: string; fromRef: string; toRef: string }): Promise<SlackMessage> {
      parseTokenAmount(input.amountText, 36); // junk, negative, zero: refused before any API call
      const [from, to] = await resolveBoth(input.fromRef, input.toRef);
      const amountFrom = parseTokenAmount(input.amountText, from.crypto.decimals, { symbol: from.crypto.symbol });
      const quote = await postQuote({ requestedBy: input.userId, channelId: input.channelId, from: snapshot(from), to: snapshot(to), amountFrom });
      const note =
        deps.policy.approvers.length === 0
          ? 'Quote posted, but no swap approvers are configured (`SWAP_APPROVERS`), so nobody can approve it.'
          : `Quote posted in the channel for approval. It is valid until ${new Date(quote.expiresAt).toISOString().slice(11, 16)} UTC.`;
      return { text: note, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: note } }] };
    },

    /**
     * Approve or Reject clicked on the quote message `origin`. The click must come from the quote's own
     * message; then authorisation, then an atomic claim, then (for approve) one create.
     */
    async decide(quoteId: string, userId: string, decision: 'approve' | 'reject', origin: ClickOrigin): Promise<ClickOutcome> {
      const checked = checkClick(decision, quoteId, userId, origin);
      if ('notice' in checked) return checked;
      const { quote } = checked;
      const { approvers, allowSelfApproval } = deps.policy;
      const isApprover = approvers.includes(userId);
      if (decision === 'approve') {
        if (approvers.length === 0) return { notice: 'No swap approvers are configured (`SWAP_APPROVERS` is empty), so nobody can approve swaps. Nothing was done.' };
        if (!isApprover) return { notice: `Only the swap approvers (${approvers.map(mention).join(', ')}) can approve. Nothing was done.` };
        if (userId === quote.requestedBy && !allowSelfApproval) {
          return { notice: 'You requested this swap, so someone else must approve it (separation of duties). Nothing was done.' };
        }
      } else if (!isApprover && userId !== quote.requestedBy) {
        return { notice: 'Only the requester or a swap approver can reject this quote. Nothing was done.' };
      }

      const now = deps.now();
      const claim = await deps.store.update((state) => {
        const stored = state.swapQuotes[quoteId]!;
        if (stored.status !== 'pending') return { claimed: false as const, quote: structuredClone(stored) };
        stored.decidedBy = userId;
        stored.decidedAt = now.toISOString();
        if (decision === 'reject') {
          stored.status = 'rejected';
          audit(stored, now, 'rejected', userId);
        } else if (now.getTime() >= new Date(stored.expiresAt).getTime() - EXPIRY_SAFETY_MS) {
          stored.status = 'expired';
          audit(stored, now, 'approve_after_expiry', userId, 'no create call made');
        } else {
          stored.status = 'approving';
          audit(stored, now, 'approved', userId, `swap/create of estimate ${stored.estimateId} about to be sent`);
        }
        return { claimed: true as const, quote: structuredClone(stored) };
      });

      if (!claim.claimed) return { notice: alreadyDecidedNotice(claim.quote) };
      await refreshMessage(quoteId);
      if (claim.quote.status === 'approving') await executeApproved(quoteId);
      if (claim.quote.status === 'expired') return { notice: 'This quote expired before it was approved, so no swap was made. Use "New quote" for a fresh one.' };
      return {};
    },

    /** "New quote" on an expired or refused quote: the same parameters, a fresh estimate, a fresh approval. */
    async requote(quoteId: string, userId: string, origin: ClickOrigin): Promise<ClickOutcome> {
      const checked = checkClick('new_quote', quoteId, userId, origin);
      if ('notice' in checked) return checked;
      const { quote } = checked;
      if (userId !== quote.requestedBy && !deps.policy.approvers.includes(userId)) {
        return { notice: 'Only the requester or a swap approver can ask for a new quote.' };
      }
      const successorId = randomUUID();
      const claimed = await deps.store.update((state) => {
        const stored = state.swapQuotes[quoteId]!;
        if (stored.replacedBy || !(stored.status === 'expired' || stored.status === 'create_failed')) return false;
        stored.replacedBy = successorId; // claimed now, so a double click makes one new quote
        audit(stored, deps.now(), 'requote_requested', userId);
        return true;
      });
      if (!claimed) return { notice: 'A new quote was already requested for this one (or it cannot be re-quoted).' };
      try {
        const successor = await postQuote({
          requestedBy: quote.requestedBy,
          channelId: quote.channelId,
          from: quote.from,
          to: quote.to,
          amountFrom: BigInt(quote.amountFrom),
          replaces: quote.id,
        });
        await deps.store.update((state) => {
          state.swapQuotes[quoteId]!.replacedBy = successor.id;
          audit(state.swapQuotes[quoteId]!, deps.now(), 'requoted', userId, `new quote ${successor.id}`);
        });
        await refreshMessage(quoteId);
        return {};
      } catch (error) {
        await deps.store.update((state) => {
          delete state.swapQuotes[quoteId]!.replacedBy;
          audit(state.swapQuotes[quoteId]!, deps.now(), 'requote_failed', userId, error instanceof Error ? error.message : String(error));
        });
        throw error;
      }
    },

    /**
     * At start: a quote left `approving` means the process died after writing the approval and before
     * recording the create's answer: anywhere from just before sending swap/create to just after. So the
     * create may or may not have been sent. It is never resent; it becomes `outcome_unknown` (`interrupted`)
     * and the message says a person must check the dashboard. Swaps still in progress are followed again.
     */
    async recover(): Promise<void> {
      const interrupted = Object.values(deps.store.read().swapQuotes).filter((quote) => quote.status === 'approving');
      for (const quote of interrupted) {
        await deps.store.update((state) => {
          const stored = state.swapQuotes[quote.id]!;
          stored.status = 'outcome_unknown';
          stored.unknownCause = 'interrupted';
          stored.failure = 'the bot stopped while approving, before it recorded an answer';
          audit(stored, deps.now(), 'outcome_unknown', undefined, 'found approving at start-up; swap/create may or may not have been sent; not resent');
        });
        await refreshMessage(quote.id);
      }
      for (const quote of Object.values(deps.store.read().swapQuotes)) {
        if (quote.status === 'created' && !quote.followEndedAt) startFollowing(quote.id);
      }
    },

    /** `/treasury swap <swap-id>`. */
    async showSwap(swapId: string): Promise<SlackMessage> {
      let swap: Swap;
      try {
        swap = await deps.payments.getSwap(swapId);
      } catch (error) {
        if (error instanceof PaymentsNotFoundError) throw new UserFacingError('No such swap for this merchant.');
        throw error;
      }
      const assets = await deps.payments.listAssets();
      const byId = (id: string) => assets.find((asset) => asset.id === id);
      const from = byId(swap.assetIdFrom);
      const to = byId(swap.assetIdTo);
      return buildSwapDetail(swap, { from: from && snapshot(from), to: to && snapshot(to) });
    },

    /** `/treasury swaps`: the audit trail, newest first. */
    showHistory(limit = 15): SlackMessage {
      const quotes = Object.values(deps.store.read().swapQuotes)
        .sort((a, b) => b.estimatedAt.localeCompare(a.estimatedAt))
        .slice(0, limit);
      return buildSwapHistory(quotes);
    },

    /** Stops following swaps (shutdown); they are picked up again by recover() at the next start. */
    stop(): void {
      for (const controller of following.values()) controller.abort();
      for (const timer of messageRetries) clearTimeout(timer);
      messageRetries.clear();
    },
  };
}

/** The swap feature. */
export type SwapService = ReturnType<typeof createSwapService>;

function alreadyDecidedNotice(quote: SwapQuote): string {
  const who = quote.decidedBy ? mention(quote.decidedBy) : 'someone';
  const when = quote.decidedAt ? ` at ${quote.decidedAt.slice(0, 16).replace('T', ' ')} UTC` : '';
  switch (quote.status) {
    case 'rejected':
      return `Already decided: rejected by ${who}${when}. Nothing was done.`;
    case 'expired':
      return 'This quote has expired; no swap was made. Use "New quote" for a fresh one.';
    default:
      return `Already decided: approved by ${who}${when}. Nothing was done; the swap is created at most once.`;
  }
}

/**
 * What a failed swap/create means. A 400/401/403 was refused by the service: no swap exists. Anything else
 * (timeout, reset, 5xx, an answer we could not read) leaves the outcome unknown: the swap may exist.
 */
function describeCreateFailure(error: unknown, quote: SwapQuote): { status: 'create_failed' | 'outcome_unknown'; text: string } {
  if (error instanceof PaymentsValidationError) {
    if (/estimate not found/i.test(error.apiMessage)) {
      return { status: 'create_failed', text: 'Estimate not found — the service no longer holds this quote (expired or already used).' };
    }
    if (/balance not enough/i.test(error.apiMessage)) {
      return { status: 'create_failed', text: `Balance not enough — the available ${quote.from.symbol} balance is below the swap amount.` };
    }
    return { status: 'create_failed', text: error.apiMessage };
  }
  if (error instanceof PaymentsError && (error.code === 'unauthorized' || error.code === 'forbidden')) {
    return { status: 'create_failed', text: error.code === 'unauthorized' ? 'the API key was rejected' : 'the API key lacks the permission to create swaps' };
  }
  return { status: 'outcome_unknown', text: lostAnswerReason(error) };
}

/** Why the create's answer is missing, in plain words (shown in brackets on the quote). */
function lostAnswerReason(error: unknown): string {
  if (!(error instanceof PaymentsError)) return 'the bot hit an unexpected error';
  switch (error.code) {
    case 'network':
      return 'no answer in time';
    case 'unexpected_response':
      return 'its answer could not be read';
    case 'rate_limited':
      return 'it was rate-limiting us';
    default:
      return 'it reported a problem on its side';
  }
}

