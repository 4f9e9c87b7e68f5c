/**
 * Commit: applies what one poll read to the alert state in one atomic update: new failures into the outbox,
 * first-run baselines, each source's place, the API health alerts, and pruning of old keys.
 *
 * The handled keys (`alerted`) are kept only where a later read can meet the same row again: near each list's
 * watermark (the overlap re-read), and, during a catch-up walk, the overlap band the walk re-reads plus the
 * keys found by following rows inside the walk's range (`walk.followKeys`). A walk reads each row once, and a
 * followed row leaves `tracking` when it is final, so nothing else can be found twice: the state is bounded by
 * what is in flight, not by history.
 */
import type { AlertSourceState, AlertsState, OutboxItem } from '../domain/alert-records.js';
import { listOf, type Outcome, SOURCE_LISTS } from './detect.js';
import { SOURCES, type SourceName } from './facts.js';
import { POLL_POLICY } from './policy.js';

const SOURCE_OF_KIND: Record<string, SourceName> = { withdrawal: 'withdrawals', task: 'tasks', gas: 'gas' };

/** A handled key of this source with this createdAt may be found again by a later read: keep it. */
export function mayBeReadAgain(
  source: AlertSourceState,
  name: SourceName,
  createdAt: string,
  nowMs: number,
  lookbackMs: number,
): boolean {
  const at = Date.parse(createdAt);
  const overlap = POLL_POLICY.overlapMs;
  const span = name === 'withdrawals' ? Math.max(lookbackMs, POLL_POLICY.firstRunWithdrawalSpanMs) : lookbackMs;
  return SOURCE_LISTS[name].some((listName) => {
    const list = listOf(source, listName);
    const walk = list.walk;
    if (walk && at >= Date.parse(walk.to) - overlap) return true;
    if (list.watermark === undefined) {
      const installed = source.initializedAt === undefined ? nowMs : Math.min(nowMs, Date.parse(source.initializedAt));
      return !walk && at >= installed - span - overlap;
    }
    const wm = Date.parse(list.watermark);
    return at >= wm - overlap && (!walk || at <= wm);
  });
}

const KEY_REFUSED = new Set(['unauthorized', 'forbidden']);

/** Applies what was read to the state (one atomic update): outbox, baselines, places, health, pruning. */
export function commitDetections(
  alerts: AlertsState,
  outcomes: Record<SourceName, Outcome>,
  now: Date,
  lookbackMs: number,
): { queued: number; newFailures: Record<SourceName, number> } {
  const nowIso = now.toISOString();
  const queuedKeys = new Set(alerts.outbox.map((item) => item.key));
  const newFailures: Record<SourceName, number> = { withdrawals: 0, tasks: 0, gas: 0 };
  let queued = 0;
  const enqueue = (item: OutboxItem) => {
    alerts.outbox.push(item);
    queuedKeys.add(item.key);
    queued += 1;
  };

  for (const name of SOURCES) {
    const outcome = outcomes[name];
    const source = alerts.sources[name];
    if (!outcome.ok) {
      source.consecutiveFailures += 1;
      source.failingSince ??= nowIso;
      source.lastError = { at: nowIso, code: outcome.code, message: outcome.message };
      continue;
    }
    const { detection } = outcome;
    const { place } = detection;
    const walks = Object.values(place.lists).flatMap((list) => (list.walk ? [list.walk] : []));
    const followedInWalk = new Set(walks.flatMap((walk) => walk.followKeys ?? []));
    for (const found of detection.found) {
      if (found.via === 'follow') {
        // Inside a walk's range, the walk may still read this row: remember it until the walk is done.
        for (const walk of walks) {
          if (found.createdAt >= walk.from && !(walk.followKeys ?? []).includes(found.key))
            walk.followKeys = [...(walk.followKeys ?? []), found.key];
        }
      }
      if (found.key in alerts.alerted || queuedKeys.has(found.key)) continue;
      if (found.via === 'scan' && followedInWalk.has(found.key)) continue;
      if (found.baseline) {
        alerts.alerted[found.key] = { createdAt: found.createdAt };
      } else {
        enqueue({ key: found.key, queuedAt: nowIso, facts: found.facts });
        newFailures[name] += 1;
      }
    }
    source.initializedAt ??= nowIso;
    source.lastSuccessAt = nowIso;
    source.consecutiveFailures = 0;
    delete source.failingSince;
    source.lists = place.lists;
    // The newest watermark of the source's lists, kept for files read by the version before per-list places.
    const marks = Object.values(place.lists).flatMap((list) => (list.watermark ? [list.watermark] : []));
    if (marks.length > 0) source.watermark = marks.sort().at(-1);
    source.tracking = place.tracking;
    if (place.pendingSyncedAt !== undefined) source.pendingSyncedAt = place.pendingSyncedAt;
    if (place.windowReads !== undefined) source.windowReads = place.windowReads;
    if (place.checkedAt !== undefined) {
      if (Object.keys(place.checkedAt).length > 0) source.checkedAt = place.checkedAt;
      else delete source.checkedAt;
    }
    if (place.handledPending !== undefined) {
      if (place.handledPending.length > 0) source.handledPending = place.handledPending;
      else delete source.handledPending;
    }
  }

  // Watching the watcher: one alert when reading fails for several polls (at once when the key is refused),
  // one when every source reads again. Both go through the outbox, so neither is lost.
  const failing = SOURCES.filter((name) => {
    const outcome = outcomes[name];
    return (
      !outcome.ok &&
      (alerts.sources[name].consecutiveFailures >= POLL_POLICY.unreachableAfterPolls || KEY_REFUSED.has(outcome.code))
    );
  });
  if (!alerts.apiDown && failing.length > 0) {
    const since = failing.map((name) => alerts.sources[name].failingSince ?? nowIso).sort()[0] ?? nowIso;
    alerts.apiDown = { since };
    enqueue({
      key: `api_down:${since}`,
      queuedAt: nowIso,
      facts: {
        kind: 'api_down',
        since,
        problems: failing.map((name) => {
          const source = alerts.sources[name];
          return {
            source: name,
            code: source.lastError?.code ?? 'internal',
            message: source.lastError?.message ?? 'unknown',
            polls: source.consecutiveFailures,
          };
        }),
      },
    });
  } else if (alerts.apiDown && SOURCES.every((name) => outcomes[name].ok)) {
    enqueue({
      key: `api_recovered:${alerts.apiDown.since}`,
      queuedAt: nowIso,
      facts: { kind: 'api_recovered', since: alerts.apiDown.since, recoveredAt: nowIso },
    });
    delete alerts.apiDown;
  }

  for (const [key, entry] of Object.entries(alerts.alerted)) {
    const name = SOURCE_OF_KIND[key.slice(0, key.indexOf(':'))];
    if (name === undefined) continue;
    if (!mayBeReadAgain(alerts.sources[name], name, entry.createdAt, now.getTime(), lookbackMs))
      delete alerts.alerted[key];
  }
  pruneSentCounts(alerts, now);
  return { queued, newFailures };
}

/** Drops the per-hour counts of alerts sent older than 25 hours (what `/treasury alerts` counts is the last 24). */
export function pruneSentCounts(alerts: AlertsState, now: Date): void {
  if (!alerts.sentPerHour) return;
  const cutoff = new Date(now.getTime() - 25 * 3_600_000).toISOString();
  for (const hour of Object.keys(alerts.sentPerHour)) if (hour < cutoff) delete alerts.sentPerHour[hour];
}
