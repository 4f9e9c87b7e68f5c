/**
 * One poll of the alert poller, with no schedule inside: read the three sources, queue new failures in the
 * persisted outbox, then post the outbox to Slack.
 *
 * Exactly once, nothing lost:
 * - Detection writes nothing until a source has been read completely (within the poll's page budget); then one
 *   store update applies every source that was read (a source that failed half-way keeps its place, and its
 *   next poll starts over from it). A list with more to read than the budget is walked over several polls.
 * - A new failure goes to the outbox on disk first. It moves from the outbox to `alerted` only after Slack
 *   accepted the message, so a Slack failure leaves it for the next poll. Each post carries its key in Slack
 *   message metadata, written before the post: a post whose answer was lost (or a crash before its answer was
 *   recorded) is looked for in the channel before it is posted again (deliver.ts).
 * - `alerted` keeps a key as long as a later read can meet its row again (commit.ts), no longer.
 */
import type { Asset } from '../../../payments/index.js';
import { SOURCES, type SourceName } from '../records.js';
import { type BalancesRead, readBalances } from './balances.js';
import { commitDetections } from './commit.js';
import { deliverOutbox } from './deliver.js';
import {
  DETECTORS,
  describeReadError,
  type Outcome,
  PollAbortedError,
  planRechecks,
  type ReadContext,
} from './detect.js';
import type { PollDeps, PollReport, SourceReport } from './poll-rules.js';
import { readRunways } from './runways.js';

export { planDeliveries } from './deliver.js';
export { type ChannelPacing, POLL_RULES, type PollDeps, type PollReport } from './poll-rules.js';

/** Runs one poll: read every source, commit what was read, post the outbox. Never throws for API or Slack failures. */
export async function pollOnce(deps: PollDeps): Promise<PollReport> {
  const now = deps.now();
  const state = await deps.store.alerts.readAlerts();
  const outcomes = {} as Record<SourceName, Outcome>;
  const plan = planRechecks(state.sources, now.getTime(), deps.lookbackMs);
  const contexts: Record<SourceName, ReadContext> = {
    withdrawals: { now, lookups: plan.withdrawalLookups },
    tasks: { now, ...(plan.tasks ? { window: plan.tasks } : {}) },
    gas: { now, ...(plan.gas ? { window: plan.gas } : {}) },
  };
  for (const name of SOURCES) {
    try {
      outcomes[name] = { ok: true, detection: await DETECTORS[name](deps, state.sources[name], contexts[name]) };
    } catch (error) {
      if (error instanceof PollAbortedError) break;
      const problem = describeReadError(error);
      deps.logger.warn(`alert poller: could not read ${name}; its place is kept for the next poll`, problem);
      outcomes[name] = { ok: false, ...problem };
    }
  }
  // Balances after the sources: one asset-list request, only while a threshold is set or runways are watched.
  let assetsRead: Promise<Asset[]> | undefined;
  const listAssetsOnce = () => {
    assetsRead ??= deps.payments.listAssets();
    return assetsRead;
  };
  let balances: BalancesRead | undefined;
  if (deps.thresholds && !deps.signal?.aborted) {
    balances = await readBalances(deps.thresholds, listAssetsOnce);
    if (balances.assets && !balances.assets.ok)
      deps.logger.warn('alert poller: could not read the asset balances; thresholds are judged at the next poll', {
        code: balances.assets.code,
        message: balances.assets.message,
      });
  }
  const runways = deps.runway && !deps.signal?.aborted ? await readRunways(deps.runway, listAssetsOnce) : undefined;
  if (runways && !runways.judged.ok)
    deps.logger.warn('alert poller: could not judge the runways; they are judged at the next poll', {
      code: runways.judged.code,
      message: runways.judged.message,
    });
  const waitingNow = async () => (await deps.store.alerts.readAlerts()).outbox.length;
  if (deps.signal?.aborted || SOURCES.some((name) => outcomes[name] === undefined)) {
    return {
      at: now,
      sources: reportsOf(outcomes, {}),
      queued: 0,
      posted: 0,
      alerted: 0,
      waiting: await waitingNow(),
      aborted: true,
    };
  }
  // A replica that lost its lease while reading must not write back what it read: the new leader's place wins.
  if (deps.stillLeading && !(await deps.stillLeading())) {
    deps.logger.warn(
      'alert poller: this replica lost the leader lease during a poll; what it read is dropped (the new leader reads it)',
    );
    return {
      at: now,
      sources: reportsOf(outcomes, {}),
      queued: 0,
      posted: 0,
      alerted: 0,
      waiting: await waitingNow(),
      aborted: true,
    };
  }
  const { queued, newFailures, crossings, runwayCrossings } = await deps.store.alerts.commitPoll((alerts) =>
    commitDetections(alerts, outcomes, now, deps.lookbackMs, {
      ...(deps.stuckAfterMs ? { stuckAfterMs: deps.stuckAfterMs } : {}),
      ...(balances ? { balances } : {}),
      ...(runways ? { runways } : {}),
    }),
  );
  if (crossings > 0) deps.logger.info('alert poller: balances went below their thresholds', { crossings });
  if (runwayCrossings > 0)
    deps.logger.info('alert poller: runways went below RUNWAY_ALERT_DAYS', { crossings: runwayCrossings });
  if (queued > 0) deps.logger.info('alert poller: new alerts queued', { queued, ...newFailures });
  const delivery = await deliverOutbox(deps, now);
  if (deps.followUp && !deps.signal?.aborted && (!deps.stillLeading || (await deps.stillLeading())))
    await deps.followUp();
  return {
    at: now,
    sources: reportsOf(outcomes, newFailures),
    queued,
    ...delivery,
    waiting: await waitingNow(),
    ...(balances && balances.thresholds.length > 0
      ? {
          balances: {
            thresholds: balances.thresholds.length,
            ok: balances.assets?.ok === true,
            crossings,
            ...(balances.assets && !balances.assets.ok ? { error: balances.assets.message } : {}),
          },
        }
      : {}),
  };
}

function reportsOf(
  outcomes: Partial<Record<SourceName, Outcome>>,
  newFailures: Partial<Record<SourceName, number>>,
): Record<SourceName, SourceReport> {
  const report = {} as Record<SourceName, SourceReport>;
  for (const name of SOURCES) {
    const outcome = outcomes[name];
    report[name] = !outcome
      ? { ok: false, code: 'aborted', error: 'the poll was stopped' }
      : outcome.ok
        ? { ok: true, requests: outcome.detection.requests, newFailures: newFailures[name] ?? 0 }
        : { ok: false, code: outcome.code, error: outcome.message };
  }
  return report;
}
