/**
 * The one retry policy for everything the bot sends to Slack, as pure functions (how long to wait, whether to try
 * again), and the call that applies it: per-scope Retry-After waits, retries of what may pass, never a second post.
 */
import type { Logger } from '../logger.js';
import {
  describeSlackError,
  isTransient,
  mayHaveHappened,
  needsAPerson,
  refusedContent,
  retryAfterSeconds,
  SlackBackoffError,
} from './errors.js';

/** The one retry policy for everything the bot sends to Slack. */
export interface SlackRetryPolicy {
  /** Retries of a transient failure (5xx, timeout, network, ratelimited) for a call that may wait. */
  retries: number;
  /** Delay before retry n: baseDelayMs · 2^(n-1), at most maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest Retry-After a waiting call sits out; when Slack asks for longer, the call fails at once. */
  maxWaitMs: number;
  /** Posts to one response_url per reply: Slack takes five per url, and a flow may need the rest for follow-ups. */
  responseUrlAttempts: number;
  /** A response_url post given as a url (not Bolt's respond()) gives up after this long. */
  responseUrlTimeoutMs: number;
}

/** Two retries half a second and a second apart, as Bolt's client was configured before, and Retry-After up to 30 s. */
export const SLACK_RETRY_POLICY: SlackRetryPolicy = {
  retries: 2,
  baseDelayMs: 500,
  maxDelayMs: 5_000,
  maxWaitMs: 30_000,
  responseUrlAttempts: 3,
  responseUrlTimeoutMs: 10_000,
};

/** The delay before retry `n` (1-based). */
export function slackRetryDelayMs(policy: SlackRetryPolicy, n: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
}

/** A call's fate after a failure: give up, retry after a delay, or retry once the channel's Retry-After is over. */
export type FailureDecision =
  | { retry: false }
  | { retry: true; delayMs: number }
  | { retry: true; afterRetryAfter: true };

/**
 * The policy as a pure function: what to do after failed attempt `attempt` (0-based) of a call. `repeatable`
 * false is for a call that must not be carried out twice (chat.postMessage: a second post is a second message):
 * it is retried only when Slack certainly did not carry it out (`ratelimited`, our own Retry-After wait), never
 * after a timeout, a lost answer or a 5xx, which do not mean that nothing was posted.
 */
export function decideAfterFailure(
  policy: SlackRetryPolicy,
  error: unknown,
  attempt: number,
  wait: boolean,
  repeatable = true,
): FailureDecision {
  if (!wait || attempt >= policy.retries) return { retry: false };
  if (refusedContent(error) || needsAPerson(error) || !isTransient(error)) return { retry: false };
  if (!repeatable && mayHaveHappened(error)) return { retry: false };
  const seconds = retryAfterSeconds(error);
  if (seconds === undefined) return { retry: true, delayMs: slackRetryDelayMs(policy, attempt + 1) };
  return seconds * 1000 <= policy.maxWaitMs ? { retry: true, afterRetryAfter: true } : { retry: false };
}

/**
 * One call under the policy. `scope` is what a Retry-After holds back, as Slack scopes its limits: the channel
 * for chat.postMessage ("about one message per second per channel"), the method for everything else (chat.update,
 * chat.postEphemeral and the rest are limited per method for the workspace). So a 429 on one method never holds
 * back another, and a busy channel never holds back the others. `method` names the call in the log; `repeatable`
 * false keeps a call that may have been carried out from being sent again (see decideAfterFailure).
 */
export type CallUnderPolicy = <T>(
  method: string,
  scope: string,
  wait: boolean,
  send: () => Promise<T>,
  repeatable?: boolean,
) => Promise<T>;

/** Makes a gateway's CallUnderPolicy; the Retry-After waits of channels and methods live in it. */
export function createCallUnderPolicy(deps: {
  policy: SlackRetryPolicy;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
  /** Told of each attempt's outcome (the metrics). */
  observe?: (method: string, outcome: 'ok' | 'error' | 'rate_limited') => void;
}): CallUnderPolicy {
  const { policy, now, sleep, logger } = deps;
  const observe = deps.observe ?? (() => undefined);
  // After `ratelimited`, the channel (or method) is left alone until this time, whoever calls.
  const blockedUntil = new Map<string, number>();

  const blockedFor = (scope: string): number => {
    const until = blockedUntil.get(scope);
    if (until === undefined) return 0;
    const left = until - now();
    if (left <= 0) blockedUntil.delete(scope);
    return Math.max(0, left);
  };

  return async function call<T>(
    method: string,
    scope: string,
    wait: boolean,
    send: () => Promise<T>,
    repeatable = true,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const blocked = blockedFor(scope);
      if (blocked > 0) {
        if (!wait || blocked > policy.maxWaitMs) throw new SlackBackoffError(scope, blocked);
        await sleep(blocked);
      }
      try {
        const result = await send();
        blockedUntil.delete(scope);
        observe(method, 'ok');
        return result;
      } catch (error) {
        const seconds = retryAfterSeconds(error);
        observe(method, seconds !== undefined ? 'rate_limited' : 'error');
        if (seconds !== undefined) blockedUntil.set(scope, now() + seconds * 1000);
        const decision = decideAfterFailure(policy, error, attempt, wait, repeatable);
        if (!decision.retry) throw error;
        logger.warn(`slack: ${method} failed; trying again`, {
          scope,
          reason: describeSlackError(error),
          attempt: attempt + 1,
        });
        // After `ratelimited` the wait happens at the top of the loop, where every caller honours the channel's block.
        if ('delayMs' in decision) await sleep(decision.delayMs);
      }
    }
  };
}
