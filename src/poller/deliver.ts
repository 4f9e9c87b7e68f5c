/**
 * Delivery: turns the outbox into messages (one per failure, or one summary for a flood) and posts them a
 * second apart; an item leaves the outbox only once Slack accepted its message.
 *
 * Exactly once, even when Slack's answer is lost: every message carries its delivery's key in Slack message
 * metadata, and the key is written to the store (`sending`) before the post. A post whose outcome is unknown (a
 * timeout, a dropped connection, a 5xx, a crash before its answer was recorded) keeps that mark. Before anything
 * else, the next delivery settles every marked post: it looks for the key among the channel's messages since the
 * first attempt; found, the message is recorded as delivered; not there once Slack has had time to finish the
 * first attempt (POLL_POLICY.uncertainSettleMs), the mark is cleared and its items are planned again with the
 * rest of the outbox (a summary then folds in the failures that came meanwhile). Until then, or while Slack
 * cannot answer the lookup, only those items wait; the rest of the outbox goes out.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { buildAlertMessage } from '../blocks/alert-messages.js';
import { buildAlert, buildSummaryThreadPart, planSummaryThread } from '../blocks/alerts.js';
import type { OutboxItem, SendAttempt, SendTarget, ThreadWork } from '../domain/alert-records.js';
import { mentionText } from '../domain/alert-routing.js';
import type { FailureFacts } from '../domain/alerts.js';
import { firstView, routingKindOf } from '../domain/owned-alerts.js';
import { describeSlackError, isTransient, mayHaveHappened, needsAPerson } from '../slack/errors.js';
import { type ChannelPacing, POLL_POLICY, type PollDeps } from './policy.js';
import type { AlertMessage } from './slack.js';

/** One message to post and the outbox items it covers. */
export interface Delivery {
  items: OutboxItem[];
  /** Where it goes: its kind's route (ALERT_ROUTES), else ALERT_CHANNEL. */
  channel: string;
  message: AlertMessage;
  /** The key in the message's metadata: the alert's own key, or `summary:<kind>:<uuid>` for a summary. */
  key: string;
  /** A summary that does not list every failure: the full list, to post in its thread once Slack accepted it. */
  thread?: { kind: ThreadWork['kind']; total: number; parts: ThreadWork['remaining'] };
}

/** Where alerts of each kind go, and whom they mention there. */
export type RouteOf = (facts: OutboxItem['facts']) => { channel: string; mention?: string; timeZone?: string };

/** The route of every alert when nothing else is set: ALERT_CHANNEL, no mention. */
function routeOf(deps: Pick<PollDeps, 'channel' | 'routes' | 'timeZone'>): RouteOf {
  const zone = deps.timeZone ? { timeZone: deps.timeZone } : {};
  return (facts) => {
    const route = deps.routes?.[routingKindOf(facts)];
    return route
      ? { channel: route.channel, ...(route.mention ? { mention: mentionText(route.mention) } : {}), ...zone }
      : { channel: deps.channel, ...zone };
  };
}

/**
 * The message for items that go out together: one alert, or a summary of many of one kind, as an alert people
 * own (with its buttons); the "API answers again" note alone when no alert about the outage is open.
 */
function deliveryOf(items: OutboxItem[], now: Date, key: string, route: RouteOf): Delivery {
  const facts = items[0]!.facts;
  const { channel, ...options } = route(facts);
  if (facts.kind === 'api_recovered') return { items, key, channel, message: buildAlert(facts, now) };
  const message = buildAlertMessage(firstView(key, items, now), now, options);
  if (items.length === 1 || facts.kind === 'stuck' || facts.kind === 'api_down' || facts.kind === 'balance_low')
    return { items, key, channel, message };
  const failures = items.map((item) => item.facts as FailureFacts);
  const parts = planSummaryThread(failures);
  return {
    items,
    key,
    channel,
    message,
    ...(parts.length > 0 ? { thread: { kind: facts.kind, total: failures.length, parts } } : {}),
  };
}

/**
 * Groups the outbox into messages, in outbox order: health messages one each; failures one each, unless a kind
 * has more than `floodThreshold` waiting, which then go out as one summary.
 */
export function planDeliveries(
  outbox: readonly OutboxItem[],
  now: Date,
  newKey: () => string = randomUUID,
  route: RouteOf = routeOf({ channel: '' }),
): Delivery[] {
  const byKind = new Map<string, OutboxItem[]>();
  for (const item of outbox) byKind.set(item.facts.kind, [...(byKind.get(item.facts.kind) ?? []), item]);
  const deliveries: Delivery[] = [];
  const summarized = new Set<string>();
  for (const item of outbox) {
    const kind = item.facts.kind;
    const group = byKind.get(kind) ?? [item];
    // Health messages and low balances one each: each low balance is its own incident, resolved on its own.
    if (
      kind === 'api_down' ||
      kind === 'api_recovered' ||
      kind === 'balance_low' ||
      group.length <= POLL_POLICY.floodThreshold
    ) {
      deliveries.push(deliveryOf([item], now, item.key, route));
    } else if (!summarized.has(kind)) {
      summarized.add(kind);
      deliveries.push(deliveryOf(group, now, `summary:${kind}:${newKey()}`, route));
    }
  }
  return deliveries;
}

/** Still the replica that polls (always, without replicas); a lost lease stops posting, logged once per poll. */
async function leading(deps: PollDeps): Promise<boolean> {
  if (!deps.stillLeading || (await deps.stillLeading())) return true;
  deps.logger.warn(
    'alert poller: this replica lost the leader lease during a poll; it posts nothing more (the new leader will)',
  );
  return false;
}

type Stop = { stop: true; slackError?: string };

/** What a lookup found: the message, its absence, a channel the bot cannot read, or a passing failure. */
type LookupResult = { ts: string } | { absent: true } | { unreadable: true } | { failed: string };

/** Looks for a post that may have been made (its key in the channel's, or the thread's, message metadata). */
async function lookFor(
  deps: PollDeps,
  pacing: ChannelPacing,
  attempt: SendAttempt,
  channel: string,
  threadTs?: string,
): Promise<LookupResult> {
  try {
    const ts = await deps.slack.findPosted(channel, {
      key: attempt.key,
      since: new Date(attempt.since),
      ...(threadTs ? { threadTs } : {}),
    });
    return ts === undefined ? { absent: true } : { ts };
  } catch (error) {
    const reason = describeSlackError(error);
    if (isTransient(error) && !needsAPerson(error)) return { failed: reason };
    if (!pacing.lookupRefusalLogged) {
      pacing.lookupRefusalLogged = true;
      deps.logger.warn(
        'alert poller: cannot read ALERT_CHANNEL to look for an alert whose answer was lost, so it is posted again (it may appear twice)',
        { reason, channel },
      );
    }
    return { unreadable: true };
  }
}

/**
 * What to do with a post that may have been made, from what the lookup found and how old the first attempt is:
 * record the message found; post again (absent long enough for Slack to have finished, or a channel the bot
 * cannot read, or lookups failing for too long); or wait for the next poll (absent but maybe still under way at
 * Slack, or Slack cannot answer the lookup now). Pure.
 */
export function settleDecision(found: LookupResult, attemptAgeMs: number): { record: string } | 'post_again' | 'wait' {
  if ('ts' in found) return { record: found.ts };
  if ('unreadable' in found) return 'post_again';
  if ('absent' in found) return attemptAgeMs >= POLL_POLICY.uncertainSettleMs ? 'post_again' : 'wait';
  return attemptAgeMs >= POLL_POLICY.lookupGiveUpMs ? 'post_again' : 'wait';
}

/**
 * Settles every post that may have been made (marked `sending`): found in the channel, it is recorded as
 * delivered (a summary's thread list is queued from the message found); to be posted again, the mark is cleared
 * so that its items are planned afresh with the rest; otherwise its items (or thread part) wait, marked, for the
 * next poll, and only they: the rest of the outbox goes on. Returns how many failures were recorded, the lookup
 * failure if any, or a stop (shutdown, lost lease).
 */
async function settleUncertainPosts(
  deps: PollDeps,
  pacing: ChannelPacing,
  now: Date,
): Promise<{ alerted: number; lookupError?: string } | Stop> {
  const state = await deps.store.alerts.readAlerts();
  const groups = new Map<string, { attempt: SendAttempt; items: OutboxItem[] }>();
  for (const item of state.outbox) {
    if (item.sending === undefined) continue;
    const group = groups.get(item.sending.key) ?? { attempt: item.sending, items: [] };
    group.items.push(item);
    groups.set(item.sending.key, group);
  }
  const uncertain: {
    attempt: SendAttempt;
    items?: OutboxItem[];
    part?: { threadTs: string; part: number };
    channel?: string;
  }[] = [...groups.values()];
  for (const work of state.threadWork ?? []) {
    for (const part of work.remaining)
      if (part.sending)
        uncertain.push({
          attempt: part.sending,
          part: { threadTs: work.threadTs, part: part.part },
          ...(work.channel ? { channel: work.channel } : {}),
        });
  }
  const route = routeOf(deps);
  let alerted = 0;
  let lookupError: string | undefined;
  for (const { attempt, items, part, channel } of uncertain) {
    if (deps.signal?.aborted || !(await leading(deps))) return { stop: true };
    const where = channel ?? (items ? route(items[0]!.facts).channel : deps.channel);
    const found = await lookFor(deps, pacing, attempt, where, part?.threadTs);
    const ageMs = deps.now().getTime() - new Date(attempt.since).getTime();
    const decision = settleDecision(found, ageMs);
    const target: SendTarget = part ?? { itemKeys: (items ?? []).map((item) => item.key) };
    if (decision === 'wait') {
      if ('failed' in found) {
        lookupError = found.failed;
        deps.logger.warn(
          'alert poller: could not look for an alert whose answer was lost; it waits for the next poll, the others go on',
          { key: attempt.key, reason: found.failed },
        );
      } else {
        deps.logger.info(
          'alert poller: an alert whose answer was lost is not in the channel yet; looking again at the next poll',
          { key: attempt.key },
        );
      }
      continue;
    }
    if (decision === 'post_again') {
      if ('failed' in found)
        deps.logger.warn(
          'alert poller: Slack could not answer the lookup for too long; posting again (it may appear twice)',
          { key: attempt.key, reason: found.failed },
        );
      await deps.store.alerts.recordSending(target, undefined);
      continue;
    }
    if (part) {
      deps.logger.info(
        "alert poller: a part of a summary's list whose answer was lost is in its thread; recorded, not posted again",
        { key: attempt.key },
      );
      await deps.store.alerts.recordThreadPartPosted(part.threadTs, part.part, now);
      continue;
    }
    deps.logger.info('alert poller: a post whose answer was lost is in the channel; recorded, not posted again', {
      key: attempt.key,
      ts: decision.record,
    });
    // The message found covers exactly these items (they were marked together): its thread gets their full list.
    const delivery = deliveryOf(items!, now, attempt.key, route);
    if (delivery.thread) {
      const { kind, total, parts } = delivery.thread;
      await deps.store.alerts.queueThreadWork({
        threadTs: decision.record,
        channel: delivery.channel,
        kind,
        total,
        parts: parts.length,
        queuedAt: attempt.since,
        remaining: parts,
      });
    }
    alerted += await deps.store.alerts.recordDelivered(items!, new Date(attempt.since), {
      key: attempt.key,
      channel: delivery.channel,
      ts: decision.record,
    });
  }
  if (lookupError !== undefined) await deps.store.alerts.recordDeliveryFailure(deps.now(), lookupError);
  return { alerted, ...(lookupError !== undefined ? { lookupError } : {}) };
}

/** One message to send: what it covers, its key, and where (a summary's thread). */
interface SendJob {
  target: SendTarget;
  channel: string;
  key: string;
  message: AlertMessage;
  threadTs?: string;
  /** Names it in the log. */
  what: string;
}

/**
 * Marks the job as being sent, then posts it (the gateway sends plain text when Slack refuses the blocks). A
 * failure whose outcome is unknown keeps the mark for the next delivery to settle; a refusal clears it.
 */
async function send(
  deps: PollDeps,
  pacing: ChannelPacing,
  paced: () => Promise<void>,
  job: SendJob,
): Promise<{ ts: string } | Stop> {
  const clock = deps.clockMs ?? (() => performance.now());
  await paced();
  if (!(await leading(deps))) return { stop: true };
  const attemptedAt = deps.now();
  // Written before the post: from now on a crash or a lost answer leaves this trace to look for.
  await deps.store.alerts.recordSending(job.target, { key: job.key, since: attemptedAt.toISOString() });
  try {
    return {
      ts: await deps.slack.post(job.channel, job.message, {
        key: job.key,
        ...(job.threadTs ? { threadTs: job.threadTs } : {}),
      }),
    };
  } catch (error) {
    const reason = describeSlackError(error);
    const unknown = mayHaveHappened(error);
    const fields = {
      reason,
      channel: job.channel,
      what: job.what,
      ...(unknown ? { outcome: 'unknown: looked for before the next attempt' } : {}),
    };
    if (needsAPerson(error)) {
      deps.logger.error(
        'alert poller: Slack refuses to post in ALERT_CHANNEL; alerts wait in the outbox until this is fixed',
        fields,
      );
    } else {
      deps.logger.warn('alert poller: Slack did not accept an alert; it stays queued for the next poll', fields);
    }
    if (!unknown) await deps.store.alerts.recordSending(job.target, undefined);
    await deps.store.alerts.recordDeliveryFailure(attemptedAt, reason);
    return { stop: true, slackError: reason };
  } finally {
    pacing.lastPostMs = clock();
  }
}

const stopped = (outcome: { ts: string } | Stop): outcome is Stop => 'stop' in outcome;

/** Posts the outbox, a second apart; stops at the first Slack failure (the rest waits for the next poll). */
export async function deliverOutbox(
  deps: PollDeps,
  now: Date,
): Promise<{ posted: number; alerted: number; slackError?: string }> {
  const pacing = deps.pacing ?? { lastPostMs: undefined };
  const clock = deps.clockMs ?? (() => performance.now());
  const paced = async () => {
    if (pacing.lastPostMs === undefined) return;
    const wait = POLL_POLICY.minPostIntervalMs - (clock() - pacing.lastPostMs);
    if (wait > 0) await deps.sleep(wait);
  };
  let posted = 0;
  const settled = await settleUncertainPosts(deps, pacing, now);
  if ('stop' in settled) return { posted, alerted: 0 };
  let alerted = settled.alerted;
  const lookupFailed = settled.lookupError !== undefined ? { slackError: settled.lookupError } : {};
  // Items still marked wait for their lookup at the next poll; everything else is planned and posted now.
  const ready = (await deps.store.alerts.readAlerts()).outbox.filter((item) => item.sending === undefined);
  for (const delivery of planDeliveries(ready, now, randomUUID, routeOf(deps))) {
    if (deps.signal?.aborted) break;
    const keys = delivery.items.map((item) => item.key);
    const attemptedAt = deps.now();
    const outcome = await send(deps, pacing, paced, {
      target: { itemKeys: keys },
      channel: delivery.channel,
      key: delivery.key,
      message: delivery.message,
      what: keys.length === 1 ? keys[0]! : `summary of ${keys.length}`,
    });
    if (stopped(outcome)) return { posted, alerted, ...(outcome.slackError ? { slackError: outcome.slackError } : {}) };
    posted += 1;
    // The thread's list is queued before the summary's items leave the outbox: after a crash between the two
    // writes the summary is found by its key and the list is queued then, once (same threadTs).
    if (delivery.thread) {
      const { kind, total, parts } = delivery.thread;
      await deps.store.alerts.queueThreadWork({
        threadTs: outcome.ts,
        channel: delivery.channel,
        kind,
        total,
        parts: parts.length,
        queuedAt: attemptedAt.toISOString(),
        remaining: parts,
      });
    }
    alerted += await deps.store.alerts.recordDelivered(delivery.items, attemptedAt, {
      key: delivery.key,
      channel: delivery.channel,
      ts: outcome.ts,
    });
    deps.logger.info('alert posted', { keys: keys.length === 1 ? keys[0] : `${keys.length} in one summary` });
  }
  // Then the summaries' full lists, part by part, in their threads; a part leaves only once Slack accepted it.
  // A part still marked waits for its lookup, and the parts after it wait too, so the list stays in order.
  for (const work of (await deps.store.alerts.readAlerts()).threadWork ?? []) {
    for (const part of work.remaining) {
      if (deps.signal?.aborted) return { posted, alerted };
      if (part.sending !== undefined) break;
      const outcome = await send(deps, pacing, paced, {
        target: { threadTs: work.threadTs, part: part.part },
        channel: work.channel ?? deps.channel,
        key: `thread:${work.threadTs}:${part.part}`,
        message: buildSummaryThreadPart(work.kind, part, work.parts, work.total),
        threadTs: work.threadTs,
        what: `part ${part.part} of ${work.parts} of the list in thread ${work.threadTs}`,
      });
      if (stopped(outcome))
        return { posted, alerted, ...(outcome.slackError ? { slackError: outcome.slackError } : {}) };
      posted += 1;
      await deps.store.alerts.recordThreadPartPosted(work.threadTs, part.part, deps.now());
      deps.logger.info('summary list posted in its thread', {
        threadTs: work.threadTs,
        part: `${part.part} of ${work.parts}`,
      });
    }
  }
  return { posted, alerted, ...lookupFailed };
}
