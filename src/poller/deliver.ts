/**
 * Delivery: turns the outbox into messages (one per failure, or one summary for a flood) and posts them a
 * second apart; an item leaves the outbox only once Slack accepted its message.
 */
import { performance } from 'node:perf_hooks';
import { buildAlert, buildFailureAlert, buildFailureSummary } from '../blocks/alerts.js';
import { describeSlackError, needsAPerson, refusedContent } from '../slack/errors.js';
import type { FailureFacts, OutboxItem } from '../store/state.js';
import { POLL_POLICY, type PollDeps } from './policy.js';
import type { AlertMessage } from './slack.js';

/** One message to post and the outbox items it covers. */
export interface Delivery {
  items: OutboxItem[];
  message: AlertMessage;
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
      deliveries.push({ items: group, message: buildFailureSummary(facts.kind, group.map((g) => g.facts as FailureFacts)) });
    }
  }
  return deliveries;
}

/** Posts, and when Slack refuses the blocks themselves, posts the plain text instead of blocking the outbox. */
async function postWithFallback(deps: PollDeps, message: AlertMessage): Promise<void> {
  try {
    await deps.slack.post(deps.channel, message);
  } catch (error) {
    if (!refusedContent(error) || !message.blocks) throw error;
    deps.logger.error('Slack refused the blocks of an alert; posting its text instead', { reason: describeSlackError(error) });
    await deps.slack.post(deps.channel, { text: message.text });
  }
}

/** Posts the outbox, a second apart; stops at the first Slack failure (the rest waits for the next poll). */
export async function deliverOutbox(deps: PollDeps, now: Date): Promise<{ posted: number; alerted: number; slackError?: string }> {
  const pacing = deps.pacing ?? { lastPostMs: undefined };
  const clock = deps.clockMs ?? (() => performance.now());
  let posted = 0;
  let alerted = 0;
  for (const delivery of planDeliveries((await deps.store.alerts.readAlerts()).outbox, now)) {
    if (deps.signal?.aborted) break;
    if (pacing.lastPostMs !== undefined) {
      const wait = POLL_POLICY.minPostIntervalMs - (clock() - pacing.lastPostMs);
      if (wait > 0) await deps.sleep(wait);
    }
    const attemptedAt = deps.now();
    try {
      await postWithFallback(deps, delivery.message);
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
    alerted += await deps.store.alerts.recordDelivered(delivery.items, attemptedAt);
    deps.logger.info('alert posted', { keys: keys.size === 1 ? [...keys][0] : `${keys.size} in one summary` });
  }
  return { posted, alerted };
}
