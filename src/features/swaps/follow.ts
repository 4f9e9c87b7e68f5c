/**
 * Following a created swap: swap/get every interval until the swap is final or the bound passes, recording
 * its progress and editing the quote message. A follow that fails ends quietly; the next start resumes it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { formatFeeLeg } from '../../blocks/format.js';
import { errorFields, type Logger } from '../../logger.js';
import type { PaymentsClient, Swap } from '../../payments/index.js';
import type { SwapQuoteRepository } from '../repositories.js';
import type { QuoteMessageEditor } from './message-edits.js';
import { auditEntry, isFinalSwapStatus, type SwapProgress } from './quote.js';

/** How the bot follows a created swap with swap/get. */
export interface FollowPolicy {
  intervalMs: number;
  /** After this long since approval the bot stops following and says so. */
  maxDurationMs: number;
}

/** Waits `ms`, or rejects once `signal` aborts. */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

const timerWait: Wait = async (ms, signal) => {
  await sleep(ms, undefined, { signal });
};

/** What swap/get reported, in the quote's terms (the fee as people read it). */
function progressOf(swap: Swap): SwapProgress {
  const fee = swap.fee
    ? [...swap.fee.network.map(formatFeeLeg), ...(swap.fee.service ? [formatFeeLeg(swap.fee.service)] : [])].join(' + ')
    : undefined;
  return {
    swapStatus: swap.status,
    amountTo: swap.amountTo ?? undefined,
    hashFrom: swap.hashFrom || undefined,
    hashTo: swap.hashTo || undefined,
    feeSummary: fee || undefined,
  };
}

/** What the follower needs. */
export interface SwapFollowerDeps {
  payments: PaymentsClient;
  quotes: SwapQuoteRepository;
  edits: QuoteMessageEditor;
  logger: Logger;
  now: () => Date;
  policy: FollowPolicy;
  wait?: Wait;
}

/** Follows swaps in the background; remembers which, so stop() can end them. */
export function createSwapFollower(deps: SwapFollowerDeps) {
  const wait = deps.wait ?? timerWait;
  const following = new Map<string, AbortController>();
  const loops = new Set<Promise<void>>();
  let stopped = false;

  /** Polls swap/get until the swap is final or the bound passes, updating the record and the message. */
  async function follow(quoteId: string): Promise<void> {
    if (following.has(quoteId)) return;
    const controller = new AbortController();
    following.set(quoteId, controller);
    try {
      for (;;) {
        const quote = await deps.quotes.getQuote(quoteId);
        if (!quote?.swapId || quote.followEndedAt) return;
        const startedAt = new Date(quote.decidedAt ?? quote.estimatedAt).getTime();
        if (deps.now().getTime() - startedAt > deps.policy.maxDurationMs) {
          const at = deps.now();
          await deps.quotes.endFollow(
            quoteId,
            at,
            auditEntry(at, 'follow_stopped', undefined, `still ${quote.swapStatus ?? 'unknown'} after the bound`),
          );
          await deps.edits.refresh(quoteId);
          return;
        }
        try {
          await wait(deps.policy.intervalMs, controller.signal);
        } catch {
          return; // stopped
        }
        let swap: Swap;
        try {
          swap = await deps.payments.getSwap(quote.swapId);
        } catch (error) {
          deps.logger.warn('could not read a swap being followed; will try again', {
            quoteId,
            error: errorFields(error),
          });
          continue;
        }
        const final = isFinalSwapStatus(swap.status);
        const { changed } = await deps.quotes.recordSwapProgress(quoteId, progressOf(swap), deps.now(), { final });
        if (changed) await deps.edits.refresh(quoteId);
        if (final) return;
      }
    } finally {
      following.delete(quoteId);
    }
  }

  return {
    /** Follows a swap in the background; a failure ends this follow-up (the next start resumes it), never the process. */
    start(quoteId: string): void {
      // Shutdown: no new follow-up; the next start resumes it (recover).
      if (stopped) return;
      const loop = follow(quoteId)
        .catch((error: unknown) => {
          deps.logger.warn('stopped following a swap after an error; it resumes at the next start', {
            quoteId,
            error: errorFields(error),
          });
        })
        .finally(() => loops.delete(loop));
      loops.add(loop);
    },
    /**
     * Stops following every swap (shutdown): none starts again, each ends at its next wait. Resolves when every
     * follow-up has ended (a swap/get under way is recorded first).
     */
    async stop(): Promise<void> {
      stopped = true;
      for (const controller of following.values()) controller.abort();
      await Promise.allSettled([...loops]);
    },
  };
}
