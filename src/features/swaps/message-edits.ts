/**
 * The quote message in the channel, kept in step with the record: every edit re-renders the quote as stored,
 * so the message always tells the truth. An edit that failed for a passing reason (5xx, rate limit, timeout, after
 * the gateway's own quick retries) is tried again later; one Slack refused for good (the channel, the token) is
 * not, since no retry can cure it. Blocks Slack refuses never get here: the gateway sends the edit as plain text.
 */
import type { SlackMessage } from '../../blocks/common.js';
import type { Logger } from '../../logger.js';
import { describeSlackError, isTransient } from '../../slack/errors.js';
import type { FreezeRepository, SwapQuoteRepository } from '../repositories.js';
import { buildQuoteMessage } from './blocks.js';
import type { ApprovalPolicy } from './decision.js';

/** Posts and edits the in-channel quote message (chat.postMessage / chat.update). */
export interface QuoteMessenger {
  post(channelId: string, message: SlackMessage): Promise<string>;
  update(channelId: string, ts: string, message: SlackMessage): Promise<void>;
  /** Posts a reply in the thread of the message `threadTs` (the quote's reminder). */
  reply(channelId: string, threadTs: string, message: SlackMessage): Promise<void>;
}

/** Runs something later; injectable so tests decide when "later" is. */
export interface Scheduler {
  /** Runs `task` after `ms`; the returned cancel() stops it if it has not run yet. */
  after(ms: number, task: () => void): { cancel(): void };
}

/** Node timers that never hold the process open. */
const timerScheduler: Scheduler = {
  after(ms, task) {
    const timer = setTimeout(task, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

/** When an edit of the quote message fails, it is tried again after these delays. */
const MESSAGE_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000, 60_000, 300_000];

/** What the message editor needs. */
export interface QuoteMessageEditorDeps {
  quotes: SwapQuoteRepository;
  messenger: QuoteMessenger;
  policy: ApprovalPolicy;
  logger: Logger;
  now: () => Date;
  scheduler?: Scheduler;
  retryDelaysMs?: readonly number[];
  /** The freeze, read at each edit: a waiting quote shows FROZEN while one is in force. */
  freeze?: Pick<FreezeRepository, 'currentFreeze'>;
  /** SWAP_STEP_UP_USD in cents: a waiting quote that needs a code says so. */
  stepUpCents?: bigint;
}

/** Edits quote messages from their records, retrying failed edits on a schedule. */
export function createQuoteMessageEditor(deps: QuoteMessageEditorDeps) {
  const scheduler = deps.scheduler ?? timerScheduler;
  const delays = deps.retryDelaysMs ?? MESSAGE_RETRY_DELAYS_MS;
  const retries = new Set<{ cancel(): void }>();

  /** Re-renders the quote message from the record; a failed edit is logged, never thrown at the clicker. */
  async function refresh(quoteId: string, attempt = 0): Promise<void> {
    const quote = await deps.quotes.getQuote(quoteId);
    if (!quote?.messageTs) return;
    try {
      const now = deps.now();
      const freeze = quote.status === 'pending' ? await deps.freeze?.currentFreeze(now) : undefined;
      await deps.messenger.update(
        quote.channelId,
        quote.messageTs,
        buildQuoteMessage(quote, deps.policy, now, freeze, deps.stepUpCents),
      );
    } catch (error) {
      const delay = isTransient(error) ? delays[attempt] : undefined;
      deps.logger.error('could not update the swap quote message', {
        quoteId,
        willRetry: delay !== undefined,
        reason: describeSlackError(error),
      });
      if (delay === undefined) return;
      // The retry renders the record as it is then, so a late edit still tells the truth.
      const retry = scheduler.after(delay, () => {
        retries.delete(retry);
        void refresh(quoteId, attempt + 1);
      });
      retries.add(retry);
    }
  }

  return {
    refresh: (quoteId: string): Promise<void> => refresh(quoteId),
    /** Cancels the edits waiting for a retry (shutdown). */
    stop(): void {
      for (const retry of retries) retry.cancel();
      retries.clear();
    },
  };
}

/** The quote message editor. */
export type QuoteMessageEditor = ReturnType<typeof createQuoteMessageEditor>;
