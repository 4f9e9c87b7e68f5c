/**
 * Delivery: turns the outbox into messages (one per failure, or one summary for a flood) and posts them a
 * second apart; an item leaves the outbox only once Slack accepted its message.
 */
import { performance } from 'node:perf_hooks';
import { buildAlert, buildFailureAlert, buildFailureSummary, buildSummaryThreadPart, planSummaryThread } from '../blocks/alerts.js';
import { describeSlackError, needsAPerson, refusedContent } from '../slack/errors.js';
import type { FailureFacts, OutboxItem, ThreadWork } from '../store/state.js';
import { POLL_POLICY, type PollDeps } from './policy.js';
import type { AlertMessage, AlertPostOptions } from './slack.js';

/** One message to post and the outbox items it covers. */
export interface Delivery {
  items: OutboxItem[];
  message: AlertMessage;
  /** A summary that does not list every failure: the full list, to post in its thread once Slack accepted it. */
  thread?: { kind: ThreadWork['kind']; total: number; parts: ThreadWork['remaining'] };
}

/**
 * Groups the outbox into messages, in outbox order: health messages one each; failures one each, unless a kind
 * has more than `floodThreshold` waiting, which then go out as one summary.
 */
export function planDeliveries(outbox: readonly OutboxItem[], now: Date): Delivery[] {
  const byKind = new Map<string, OutboxItem[]>();
  for (const item of outbox) byKind.set(item.facts.kind, [...(byKind.get(item.facts.kind) ?? []), item]);
  const deliveries: Delivery[] = [];
  const summarized = new Set<string>();
  for (const item of outbox) {
    const facts = item.facts;
    if (facts.kind === 'api_down' || facts.kind === 'api_recovered') {
      deliveries.push({ items: [item], message: buildAlert(facts, now) });
      continue;
    }
    const group = byKind.get(facts.kind) ?? [item];
    if (group.length <= POLL_POLICY.floodThreshold) {
      deliveries.push({ items: [item], message: buildFailureAlert(facts) });
    } else if (!summarized.has(facts.kind)) {
      summarized.add(facts.kind);
      const failures = group.map((g) => g.facts as FailureFacts);
      const parts = planSummaryThread(failures);
      deliveries.push({
        items: group,
        message: buildFailureSummary(facts.kind, failures),
        ...(parts.length > 0 ? { thread: { kind: facts.kind, total: failures.length, parts } } : {}),
      });
    }
  }
  return deliveries;
}

/**
 * Posts, and when Slack refuses the blocks themselves, posts the plain text instead of blocking the outbox.
 * Resolves with the message's ts.
 */
async function postWithFallback(deps: PollDeps, message: AlertMessage, options: AlertPostOptions = {}): Promise<string> {
  try {
    return await deps.slack.post(deps.channel, message, options);
  } catch (error) {
    if (!refusedContent(error) || !message.blocks) throw error;
    deps.logger.error('Slack refused the blocks of an alert; posting its text instead', { reason: describeSlackError(error) });
    return await deps.slack.post(deps.channel, { text: message.text }, options);
  }
}

/** Still the replica that polls (always, without replicas); a lost lease stops posting, logged once per poll. */
async function leading(deps: PollDeps): Promise<boolean> {
  if (!deps.stillLeading || (await deps.stillLeading())) return true;
  deps.logger.warn('alert poller: this replica lost the leader lease during a poll; it posts nothing more (the new leader will)');
  return false;
}

/** Posts the outbox, a second apart; stops at the first Slack failure (the rest waits for the next poll). */
export async function deliverOutbox(deps: PollDeps, now: Date): Promise<{ posted: number; alerted: number; slackError?: string }> {
  const pacing = deps.pacing ?? { lastPostMs: undefined };
  const clock = deps.clockMs ?? (() => performance.now());
  const paced = async () => {
    if (pacing.lastPostMs === undefined) return;
    const wait = POLL_POLICY.minPostIntervalMs - (clock() - pacing.lastPostMs);
    if (wait > 0) await deps.sleep(wait);
  };
  let posted = 0;
  let alerted = 0;
  for (const delivery of planDeliveries((await deps.store.alerts.readAlerts()).outbox, now)) {
    if (deps.signal?.aborted) break;
    await paced();
    if (!(await leading(deps))) break;
    const attemptedAt = deps.now();
    let ts: string;
    try {
      ts = await postWithFallback(deps, delivery.message);
    } catch (error) {
      const reason = describeSlackError(error);
      const fields = { reason, channel: deps.channel, waiting: delivery.items.length };
      if (needsAPerson(error)) {
        deps.logger.error('alert poller: Slack refuses to post in ALERT_CHANNEL; alerts wait in the outbox until this is fixed', fields);
      } else {
        deps.logger.warn('alert poller: Slack did not accept an alert; it stays queued for the next poll', fields);
      }
      await deps.store.alerts.recordDeliveryFailure(attemptedAt, reason);
      return { posted, alerted, slackError: reason };
    } finally {
      pacing.lastPostMs = clock();
    }
    posted += 1;
    const keys = new Set(delivery.items.map((item) => item.key));
    // The thread's list is queued before the summary's items leave the outbox: a crash between the two writes
    // posts the summary again (the documented window), never loses the list.
    if (delivery.thread) {
      const { kind, total, parts } = delivery.thread;
      await deps.store.alerts.queueThreadWork({ threadTs: ts, kind, total, parts: parts.length, queuedAt: attemptedAt.toISOString(), remaining: parts });
    }
    alerted += await deps.store.alerts.recordDelivered(delivery.items, attemptedAt);
    deps.logger.info('alert posted', { keys: keys.size === 1 ? [...keys][0] : `${keys.size} in one summary` });
  }
  // Then the summaries' full lists, part by part, in their threads; a part leaves only once Slack accepted it.
  for (const work of (await deps.store.alerts.readAlerts()).threadWork ?? []) {
    for (const part of work.remaining) {
      if (deps.signal?.aborted) return { posted, alerted };
      await paced();
      if (!(await leading(deps))) return { posted, alerted };
      const attemptedAt = deps.now();
      try {
        await postWithFallback(deps, buildSummaryThreadPart(work.kind, part, work.parts, work.total), { threadTs: work.threadTs });
      } catch (error) {
        const reason = describeSlackError(error);
        deps.logger.warn('alert poller: Slack did not accept part of a summary\'s list; it stays queued for the next poll', {
          reason,
          channel: deps.channel,
          threadTs: work.threadTs,
          part: part.part,
        });
        await deps.store.alerts.recordDeliveryFailure(attemptedAt, reason);
        return { posted, alerted, slackError: reason };
      } finally {
        pacing.lastPostMs = clock();
      }
      posted += 1;
      await deps.store.alerts.recordThreadPartPosted(work.threadTs, part.part, attemptedAt);
      deps.logger.info('summary list posted in its thread', { threadTs: work.threadTs, part: `${part.part} of ${work.parts}` });
    }
  }
  return { posted, alerted };
}
