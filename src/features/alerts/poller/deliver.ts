/**
 * Delivery: turns the outbox into messages (one per failure, or one summary for a flood) and posts them a
 * second apart; an item leaves the outbox only once Slack accepted its message.
 *
 * Exactly once, even when Slack's answer is lost: every message carries its delivery's key in Slack message
 * metadata, and the key is written to the store (`sending`, with the channel) before the post. A post whose outcome
 * is unknown (a timeout, a dropped connection, a 5xx, `internal_error`/`fatal_error`, a crash before its answer was
 * recorded) keeps that mark. Before anything else, the next delivery settles every marked post: it looks for the
 * key among the channel's messages since the first attempt; found, the message is recorded as delivered. Not there:
 * when Slack answered the post with a failure, it is done with the request, so that one lookup settles it and the
 * alert is posted again at once; when no answer came, Slack may still be at work, so it is posted again only once
 * Slack has had time to finish the first attempt (POLL_RULES.uncertainSettleMs). Posted again means the mark is
 * cleared and its items are planned again with the rest of the outbox (a summary then folds in the failures that
 * came meanwhile). Until then, or while Slack cannot answer the lookup, only those items wait.
 *
 * One channel's fault never holds back another's: a passing failure or a rate limit in one channel leaves that
 * channel's later alerts for the next poll (in order) and the others go on. A channel that refuses for good
 * (archived, not found, the bot not in it, a missing scope) is recorded as refusing (`/treasury alerts` shows it
 * until a post there is accepted again); an alert whose route refuses that way goes to ALERT_CHANNEL at once, with
 * a line naming the route, what Slack said and how to fix it; the route is tried again at the next poll. When
 * ALERT_CHANNEL itself refuses, its alerts stay in the outbox (never lost) and the routes that work go on.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { context } from '../../../blocks/common.js';
import {
  answeredWithFailure,
  describeSlackError,
  isTransient,
  mayHaveHappened,
  needsAPerson,
  slackErrorCode,
} from '../../../slack/errors.js';
import { buildAlertMessage, buildSummaryThreadPart, planSummaryThread, redirectedLine } from '../blocks.js';
import { type FailureFacts, kindOf } from '../kinds/index.js';
import { firstView, routingKindOf } from '../owned.js';
import type { OutboxItem, RedirectedFrom, SendAttempt, SendTarget, ThreadWork } from '../records.js';
import { mentionText, ROUTE_KINDS, routeFor } from '../routing.js';
import { type ChannelPacing, POLL_RULES, type PollDeps } from './poll-rules.js';
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
  /** Going to ALERT_CHANNEL because its route refused it for good; the message says so. */
  redirectedFrom?: RedirectedFrom;
}

/** Where alerts of each kind go, and whom they mention there. */
export type RouteOf = (facts: OutboxItem['facts']) => { channel: string; mention?: string; timeZone?: string };

/**
 * Where each alert goes (routeFor: its route, else ALERT_CHANNEL) and whom its message mentions: only its route's own
 * mention (the on-call are mentioned by reminders, so none are passed here). With no routes: ALERT_CHANNEL, no mention.
 */
function routeOf(deps: Pick<PollDeps, 'channel' | 'routes' | 'timeZone'>): RouteOf {
  const zone = deps.timeZone ? { timeZone: deps.timeZone } : {};
  return (facts) => {
    const { channel, mentions } = routeFor(routingKindOf(facts), deps.routes ?? {}, deps.channel, []);
    return { channel, ...(mentions[0] ? { mention: mentionText(mentions[0]) } : {}), ...zone };
  };
}

/**
 * The message for items that go out together: one alert, or a summary of many of one kind, as an alert people
 * own (with its buttons); the "API answers again" note alone when no alert about the outage is open. With
 * `redirect`, it goes to that channel (ALERT_CHANNEL) instead of its route, saying why.
 */
function deliveryOf(
  items: OutboxItem[],
  now: Date,
  key: string,
  route: RouteOf,
  redirect?: { to: string; from: RedirectedFrom },
): Delivery {
  const facts = items[0]!.facts;
  const { channel: routed, ...options } = route(facts);
  const channel = redirect?.to ?? routed;
  const redirected = redirect ? { redirectedFrom: redirect.from } : {};
  const kind = kindOf(facts);
  if (!kind.owned) {
    // A kind nobody owns (the "API answers again" note) goes as its plain message.
    const plain = kind.plain!(facts, now);
    const message = redirect
      ? { ...plain, blocks: [...(plain.blocks ?? []), context(redirectedLine(routingKindOf(facts), redirect.from))] }
      : plain;
    return { items, key, channel, message, ...redirected };
  }
  const message = buildAlertMessage(firstView(key, items, now), now, { ...options, ...redirected });
  // Only a summary of failures has a full list to post in its thread.
  if (items.length === 1 || !kind.failure) return { items, key, channel, message, ...redirected };
  const failures = items.map((item) => item.facts as FailureFacts);
  const parts = planSummaryThread(failures);
  return {
    items,
    key,
    channel,
    message,
    ...redirected,
    ...(parts.length > 0 ? { thread: { kind: failures[0]!.kind, total: failures.length, parts } } : {}),
  };
}

/** What a channel is to the poller, for log lines: ALERT_CHANNEL, or the route of some kinds. */
function channelRole(deps: Pick<PollDeps, 'channel' | 'routes'>, channel: string): string {
  if (channel === deps.channel) return 'ALERT_CHANNEL';
  const kinds = ROUTE_KINDS.filter((kind) => deps.routes?.[kind]?.channel === channel);
  return kinds.length > 0 ? `ALERT_ROUTES ${kinds.join(', ')}` : 'a channel no longer configured';
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
  const byKind = new Map<OutboxItem['facts']['kind'], OutboxItem[]>();
  for (const item of outbox) byKind.set(item.facts.kind, [...(byKind.get(item.facts.kind) ?? []), item]);
  const deliveries: Delivery[] = [];
  const summarized = new Set<OutboxItem['facts']['kind']>();
  for (const item of outbox) {
    const kind = item.facts.kind;
    const group = byKind.get(kind) ?? [item];
    // Kinds that are not summarised go one each (each is its own incident, resolved on its own), and so does a kind
    // with no flood waiting.
    if (!kindOf(kind).summary || group.length <= POLL_RULES.floodThreshold) {
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
        `alert poller: cannot read ${channelRole(deps, channel)} to look for an alert whose answer was lost, so it is posted again (it may appear twice)`,
        { reason, channel },
      );
    }
    return { unreadable: true };
  }
}

/**
 * What to do with a post that may have been made, from what the lookup found, how old the first attempt is and
 * whether Slack answered it: record the message found; post again (absent after Slack answered the post with a
 * failure, or absent long enough for Slack to have finished, or a channel the bot cannot read, or lookups failing
 * for too long); or wait for the next poll (absent but maybe still under way at Slack because no answer came, or
 * Slack cannot answer the lookup now). Pure.
 */
export function settleDecision(
  found: LookupResult,
  attemptAgeMs: number,
  answered = false,
): { record: string } | 'post_again' | 'wait' {
  if ('ts' in found) return { record: found.ts };
  if ('unreadable' in found) return 'post_again';
  // After an answer Slack is done with the request: what is not there now will not appear later.
  if ('absent' in found) return answered || attemptAgeMs >= POLL_RULES.uncertainSettleMs ? 'post_again' : 'wait';
  return attemptAgeMs >= POLL_RULES.lookupGiveUpMs ? 'post_again' : 'wait';
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
    const where = attempt.channel ?? channel ?? (items ? route(items[0]!.facts).channel : deps.channel);
    const found = await lookFor(deps, pacing, attempt, where, part?.threadTs);
    const ageMs = deps.now().getTime() - new Date(attempt.since).getTime();
    const decision = settleDecision(found, ageMs, attempt.answered === true);
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
      else if ('absent' in found)
        deps.logger.info(
          attempt.answered
            ? 'alert poller: Slack answered an alert with an error and it is not in the channel; posting it now'
            : 'alert poller: an alert whose answer was lost is not in the channel after the settle time; posting it now',
          { key: attempt.key, channel: where },
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
    const delivery = deliveryOf(
      items!,
      now,
      attempt.key,
      route,
      attempt.redirectedFrom ? { to: where, from: attempt.redirectedFrom } : undefined,
    );
    if (delivery.thread) {
      const { kind, total, parts } = delivery.thread;
      await deps.store.alerts.queueThreadWork({
        threadTs: decision.record,
        channel: where,
        kind,
        total,
        parts: parts.length,
        queuedAt: attempt.since,
        remaining: parts,
      });
    }
    alerted += await deps.store.alerts.recordDelivered(items!, new Date(attempt.since), {
      key: attempt.key,
      channel: where,
      ts: decision.record,
      ...(attempt.redirectedFrom ? { redirectedFrom: attempt.redirectedFrom } : {}),
    });
  }
  if (lookupError !== undefined) await deps.store.alerts.recordDeliveryFailure(deps.now(), lookupError);
  return { alerted, ...(lookupError !== undefined ? { lookupError } : {}) };
}

/**
 * Counts a message Slack accepted, once per kind it covers, and each item's latency to Slack's accepted post: from
 * the change's time in the payment API where it gives a believable one (`changedAt`: a gas row's updatedAt, a new
 * failure's createdAt; see change-time.ts), else from the poll's first sight (`queuedAt`, our clock), which may
 * fall short of the true latency by up to one poll interval but never overstates it.
 */
function countPosted(deps: PollDeps, items: readonly OutboxItem[], postedAt: Date): void {
  if (!deps.metrics) return;
  for (const kind of new Set(items.map((item) => routingKindOf(item.facts)))) deps.metrics.alertPosted(kind);
  for (const item of items) {
    const startedAt = Date.parse(item.changedAt ?? item.queuedAt);
    if (Number.isFinite(startedAt))
      deps.metrics.alertLatency(routingKindOf(item.facts), (postedAt.getTime() - startedAt) / 1000);
  }
}

/** Counts a message Slack did not accept, once per kind it covers; `reason` is bounded (refused, not_accepted). */
function countFailed(deps: PollDeps, items: readonly OutboxItem[], reason: string): void {
  if (!deps.metrics) return;
  for (const kind of new Set(items.map((item) => routingKindOf(item.facts)))) deps.metrics.alertFailed(kind, reason);
}

/** One message to send: what it covers, its key, and where (a summary's thread). */
interface SendJob {
  target: SendTarget;
  channel: string;
  key: string;
  message: AlertMessage;
  threadTs?: string;
  /** Sent to ALERT_CHANNEL because its route refused it for good. */
  redirectedFrom?: RedirectedFrom;
  /** Names it in the log. */
  what: string;
}

/** A post Slack did not take: why, and Slack's code when the channel refuses it for good (no retry fixes that). */
type Failed = { failed: string; refusedForGood?: string };

/**
 * Marks the job as being sent, then posts it (the gateway sends plain text when Slack refuses the blocks). A
 * failure whose outcome is unknown keeps the mark for the next delivery to settle (noting whether Slack answered);
 * a refusal clears it. A refusal no retry fixes is recorded against the channel.
 */
async function send(
  deps: PollDeps,
  pacing: ChannelPacing,
  paced: () => Promise<void>,
  job: SendJob,
): Promise<{ ts: string } | Failed | Stop> {
  const clock = deps.clockMs ?? (() => performance.now());
  await paced();
  if (!(await leading(deps))) return { stop: true };
  const attemptedAt = deps.now();
  const attempt: SendAttempt = {
    key: job.key,
    since: attemptedAt.toISOString(),
    channel: job.channel,
    ...(job.redirectedFrom ? { redirectedFrom: job.redirectedFrom } : {}),
  };
  // Written before the post: from now on a crash or a lost answer leaves this trace to look for.
  await deps.store.alerts.recordSending(job.target, attempt);
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
    const answered = unknown && answeredWithFailure(error);
    const role = channelRole(deps, job.channel);
    const fields = {
      reason,
      channel: job.channel,
      role,
      what: job.what,
      ...(unknown
        ? {
            outcome: answered
              ? 'unknown: Slack answered with an error; looked for once at the next poll'
              : 'unknown: no answer; looked for before the next attempt',
          }
        : {}),
    };
    const refusedForGood = needsAPerson(error) ? slackErrorCode(error) : undefined;
    if (refusedForGood !== undefined) {
      deps.logger.error(
        job.channel === deps.channel
          ? `alert poller: Slack refuses to post in ALERT_CHANNEL (${job.channel}); its alerts wait in the outbox until this is fixed (see /treasury alerts), the routed channels go on`
          : job.threadTs !== undefined
            ? `alert poller: Slack refuses to post in ${role} (${job.channel}); the summary's list waits for its thread there until this is fixed (see /treasury alerts)`
            : `alert poller: Slack refuses to post in ${role} (${job.channel}); until this is fixed its alerts are posted in the main alert channel instead, saying why (see /treasury alerts)`,
        fields,
      );
    } else {
      deps.logger.warn(
        `alert poller: Slack did not accept an alert in ${role} (${job.channel}); it stays queued for the next poll, other channels go on`,
        fields,
      );
    }
    if (!unknown) await deps.store.alerts.recordSending(job.target, undefined);
    else if (answered) await deps.store.alerts.recordSending(job.target, { ...attempt, answered: true });
    await deps.store.alerts.recordDeliveryFailure(
      attemptedAt,
      reason,
      refusedForGood !== undefined ? { channel: job.channel, error: refusedForGood } : undefined,
    );
    return { failed: reason, ...(refusedForGood !== undefined ? { refusedForGood } : {}) };
  } finally {
    pacing.lastPostMs = clock();
  }
}

/**
 * What this delivery learned about each channel: one that failed in passing (5xx, timeout, rate limit) is left
 * alone until the next poll, its later alerts wait in order; one that refuses for good (Slack's code) sends its
 * alerts to ALERT_CHANNEL for the rest of this delivery, and is tried again at the next.
 */
interface ChannelsThisPoll {
  held: Set<string>;
  refusing: Map<string, string>;
}

/**
 * Forgets recorded refusals of channels the configuration no longer sends alerts to (ALERT_CHANNEL or
 * ALERT_ROUTES changed): what `/treasury alerts` shows is the configuration in force.
 */
async function forgetUnusedRefusals(deps: PollDeps, refusing: Readonly<Record<string, unknown>> | undefined) {
  if (refusing === undefined) return;
  const used = [deps.channel, ...ROUTE_KINDS.flatMap((kind) => deps.routes?.[kind]?.channel ?? [])];
  if (Object.keys(refusing).some((channel) => !used.includes(channel)))
    await deps.store.alerts.forgetRefusingChannels(used);
}

/**
 * Posts the outbox, a second apart. A failure holds back only its own channel for the rest of the poll; an alert
 * whose route refuses for good goes to ALERT_CHANNEL instead (see the header).
 */
export async function deliverOutbox(
  deps: PollDeps,
  now: Date,
): Promise<{ posted: number; alerted: number; slackError?: string }> {
  const pacing = deps.pacing ?? { lastPostMs: undefined };
  const clock = deps.clockMs ?? (() => performance.now());
  const paced = async () => {
    if (pacing.lastPostMs === undefined) return;
    const wait = POLL_RULES.minPostIntervalMs - (clock() - pacing.lastPostMs);
    if (wait > 0) await deps.sleep(wait);
  };
  let posted = 0;
  const settled = await settleUncertainPosts(deps, pacing, now);
  if ('stop' in settled) return { posted, alerted: 0 };
  let alerted = settled.alerted;
  // The first failure of this delivery, for the poll's report.
  let slackError = settled.lookupError;
  const report = () => ({ posted, alerted, ...(slackError !== undefined ? { slackError } : {}) });
  const channels: ChannelsThisPoll = { held: new Set(), refusing: new Map() };
  const route = routeOf(deps);
  const state = await deps.store.alerts.readAlerts();
  await forgetUnusedRefusals(deps, state.refusingChannels);
  // Items still marked wait for their lookup at the next poll; everything else is planned and posted now.
  const ready = state.outbox.filter((item) => item.sending === undefined);
  for (const planned of planDeliveries(ready, now, randomUUID, route)) {
    if (deps.signal?.aborted) break;
    const keys = planned.items.map((item) => item.key);
    let delivery = planned;
    // Its route first; when the route refuses for good, ALERT_CHANNEL. A channel that failed waits for the next poll.
    while (!channels.held.has(delivery.channel)) {
      const refusal = channels.refusing.get(delivery.channel);
      if (refusal !== undefined) {
        if (delivery.channel === deps.channel || delivery.redirectedFrom) break;
        delivery = deliveryOf(delivery.items, now, delivery.key, route, {
          to: deps.channel,
          from: { channel: delivery.channel, error: refusal },
        });
        continue;
      }
      const attemptedAt = deps.now();
      const outcome = await send(deps, pacing, paced, {
        target: { itemKeys: keys },
        channel: delivery.channel,
        key: delivery.key,
        message: delivery.message,
        ...(delivery.redirectedFrom ? { redirectedFrom: delivery.redirectedFrom } : {}),
        what: keys.length === 1 ? keys[0]! : `summary of ${keys.length}`,
      });
      if ('stop' in outcome) return report();
      if ('failed' in outcome) {
        countFailed(deps, delivery.items, outcome.refusedForGood !== undefined ? 'refused' : 'not_accepted');
        slackError ??= outcome.failed;
        if (outcome.refusedForGood !== undefined) channels.refusing.set(delivery.channel, outcome.refusedForGood);
        else channels.held.add(delivery.channel);
        continue;
      }
      posted += 1;
      countPosted(deps, delivery.items, deps.now());
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
        ...(delivery.redirectedFrom ? { redirectedFrom: delivery.redirectedFrom } : {}),
      });
      deps.logger.info('alert posted', {
        keys: keys.length === 1 ? keys[0] : `${keys.length} in one summary`,
        channel: delivery.channel,
        ...(delivery.redirectedFrom ? { insteadOf: delivery.redirectedFrom.channel } : {}),
      });
      break;
    }
  }
  // Then the summaries' full lists, part by part, in their threads; a part leaves only once Slack accepted it.
  // A part still marked waits for its lookup, and the parts after it wait too, so the list stays in order. A list
  // whose channel failed in this poll waits for the next; the others go on.
  for (const work of (await deps.store.alerts.readAlerts()).threadWork ?? []) {
    const channel = work.channel ?? deps.channel;
    for (const part of work.remaining) {
      if (deps.signal?.aborted) return report();
      if (part.sending !== undefined || channels.held.has(channel) || channels.refusing.has(channel)) break;
      const outcome = await send(deps, pacing, paced, {
        target: { threadTs: work.threadTs, part: part.part },
        channel,
        key: `thread:${work.threadTs}:${part.part}`,
        message: buildSummaryThreadPart(work.kind, part, work.parts, work.total),
        threadTs: work.threadTs,
        what: `part ${part.part} of ${work.parts} of the list in thread ${work.threadTs}`,
      });
      if ('stop' in outcome) return report();
      if ('failed' in outcome) {
        slackError ??= outcome.failed;
        if (outcome.refusedForGood !== undefined) channels.refusing.set(channel, outcome.refusedForGood);
        else channels.held.add(channel);
        break;
      }
      posted += 1;
      await deps.store.alerts.recordThreadPartPosted(work.threadTs, part.part, deps.now());
      deps.logger.info('summary list posted in its thread', {
        threadTs: work.threadTs,
        part: `${part.part} of ${work.parts}`,
      });
    }
  }
  return report();
}
