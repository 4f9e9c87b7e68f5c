/**
 * Commit: applies what one poll read to the alert state in one atomic update: new failures into the outbox,
 * first-run baselines, each source's place, the API health alerts, and pruning of old keys.
 */
import type { AlertsState, OutboxItem } from '../store/state.js';
import { SOURCES, type SourceName } from './facts.js';
import type { Outcome } from './detect.js';
import { POLL_POLICY } from './policy.js';

const KEY_REFUSED = new Set(['unauthorized', 'forbidden']);

/** Applies what was read to the state (one atomic update): outbox, baselines, places, health, pruning. */
export function commitDetections(alerts: AlertsState, outcomes: Record<SourceName, Outcome>, now: Date): { queued: number; newFailures: Record<SourceName, number> } {
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
    for (const found of detection.found) {
      if (found.key in alerts.alerted || queuedKeys.has(found.key)) continue;
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
    if (detection.watermark !== undefined) source.watermark = detection.watermark;
    if (detection.tracking !== undefined) source.tracking = detection.tracking;
  }

  // Watching the watcher: one alert when reading fails for several polls (at once when the key is refused),
  // one when every source reads again. Both go through the outbox, so neither is lost.
  const failing = SOURCES.filter((name) => {
    const outcome = outcomes[name];
    return !outcome.ok && (alerts.sources[name].consecutiveFailures >= POLL_POLICY.unreachableAfterPolls || KEY_REFUSED.has(outcome.code));
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
          return { source: name, code: source.lastError?.code ?? 'internal', message: source.lastError?.message ?? 'unknown', polls: source.consecutiveFailures };
        }),
      },
    });
  } else if (alerts.apiDown && SOURCES.every((name) => outcomes[name].ok)) {
    enqueue({ key: `api_recovered:${alerts.apiDown.since}`, queuedAt: nowIso, facts: { kind: 'api_recovered', since: alerts.apiDown.since, recoveredAt: nowIso } });
    delete alerts.apiDown;
  }

  const cutoff = new Date(now.getTime() - POLL_POLICY.retentionMs).toISOString();
  for (const [key, entry] of Object.entries(alerts.alerted)) {
    if (entry.createdAt < cutoff) delete alerts.alerted[key];
  }
  return { queued, newFailures };
}
