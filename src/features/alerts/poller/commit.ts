/**
 * Commit: applies what one poll read to the alert state in one atomic update: new failures into the outbox (or
 * into the thread of an open alert about the same thing), first-run baselines, each source's place, rows stuck
 * in pending, alerts resolved by the facts, the API health alerts, and pruning of old keys and resolved alerts.
 *
 * The handled keys (`alerted`) are kept only where a later read can meet the same row again: near each list's
 * watermark (the overlap re-read), and, during a catch-up walk, the overlap band the walk re-reads plus the
 * keys found by following rows inside the walk's range (`walk.followKeys`). A walk reads each row once, and a
 * followed row leaves `tracking` when it is final, so nothing else can be found twice: the state is bounded by
 * what is in flight, not by history. A stuck row's key (`stuck:<source>:<id>`) is kept while the row is followed.
 */

import { failureUpdateText } from '../blocks.js';
import { NOT_ENOUGH_DONOR_BALANCE } from '../kinds/gas.js';
import type { FailureFacts } from '../kinds/index.js';
import { leftPendingText, type StuckFacts } from '../kinds/stuck.js';
import { resolveAlertByFacts } from '../lifecycle.js';
import { appendEvent, mayForget, objectsOf, openAlertAbout } from '../owned.js';
import {
  type AlertSourceState,
  type AlertsState,
  type OutboxItem,
  type OwnedAlert,
  SOURCES,
  type SourceName,
} from '../records.js';
import { type BalancesRead, commitBalances, lowBalanceIncidentForGas } from './balances.js';
import { believedSince, changeTimeOf } from './change-time.js';
import { listOf, type Outcome, type Settled, SOURCE_LISTS } from './detect.js';
import { POLL_RULES, type PollDeps } from './poll-rules.js';
import { commitRunways, type RunwaysRead } from './runways.js';

type RowKind = StuckFacts['source'];
const SOURCE_OF_KIND: Record<string, SourceName> = { withdrawal: 'withdrawals', task: 'tasks', gas: 'gas' };
const KIND_OF_SOURCE: Record<SourceName, RowKind> = { withdrawals: 'withdrawal', tasks: 'task', gas: 'gas' };
const STUCK_PREFIX = 'stuck:';

/** A handled key of this source with this createdAt may be found again by a later read: keep it. */
function mayBeReadAgain(
  source: AlertSourceState,
  name: SourceName,
  createdAt: string,
  nowMs: number,
  lookbackMs: number,
): boolean {
  const at = Date.parse(createdAt);
  const overlap = POLL_RULES.overlapMs;
  const span = name === 'withdrawals' ? Math.max(lookbackMs, POLL_RULES.firstRunWithdrawalSpanMs) : lookbackMs;
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

/** What the commit needs besides what was read. */
export interface CommitOptions {
  /** STUCK_*_AFTER; absent, no row is alerted as stuck. */
  stuckAfterMs?: PollDeps['stuckAfterMs'];
  /** The thresholds and the balances read this poll; absent, balances are not judged. */
  balances?: BalancesRead;
  /** The runways judged this poll; absent, runway alerts are off (RUNWAY_ALERT_DAYS unset) and any left open end. */
  runways?: RunwaysRead;
}

/**
 * Applies what was read to the state (one atomic update): outbox, baselines, places, stuck rows, alerts resolved
 * or told more by the facts, health, pruning.
 */
export function commitDetections(
  alerts: AlertsState,
  outcomes: Record<SourceName, Outcome>,
  now: Date,
  lookbackMs: number,
  options: CommitOptions = {},
): { queued: number; newFailures: Record<SourceName, number>; crossings: number; runwayCrossings: number } {
  const nowIso = now.toISOString();
  const queuedKeys = new Set(alerts.outbox.map((item) => item.key));
  // What the queued alerts are about: a stuck row with one waiting for Slack gets no second alert.
  const queuedObjects = new Set(alerts.outbox.flatMap((item) => objectsOf(item.facts)));
  const newFailures: Record<SourceName, number> = { withdrawals: 0, tasks: 0, gas: 0 };
  let queued = 0;
  const enqueue = (item: OutboxItem) => {
    alerts.outbox.push(item);
    queuedKeys.add(item.key);
    for (const object of objectsOf(item.facts)) queuedObjects.add(object);
    queued += 1;
  };
  // Balances first: a gas failure in this poll then finds the low-balance alert as it stands after this reading.
  const crossings = options.balances ? commitBalances(alerts, options.balances, now, enqueue) : 0;
  // Runways too (a runway crossing is counted in `queued`); unset, whatever RUNWAY_ALERT_DAYS left open ends.
  const runwayCrossings = commitRunways(alerts, options.runways, now, enqueue);
  // Every source read: a successful poll, recorded in the store so `/treasury alerts` on any replica shows its age.
  if (SOURCES.every((name) => outcomes[name].ok)) alerts.lastSuccessfulPollAt = nowIso;

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
    const toldFailures = new Set<string>();
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
        continue;
      }
      // One thread per object: a stuck row that then failed, the same gas address short again while its alert
      // is open, a gas top-up short of donor balance while the donor asset is below its threshold. Told in that
      // alert's thread instead of a new message, and handled like an alert sent.
      const incident = lowBalanceIncidentForGas(alerts, found.facts);
      const open =
        openAlertAbout(alerts.owned, objectsOf(found.facts)) ??
        (incident && 'owned' in incident ? incident.owned : undefined);
      if (open) {
        tellFailure(open, found.key, found.facts, nowIso);
        alerts.alerted[found.key] = { createdAt: found.createdAt };
        toldFailures.add(found.key);
        continue;
      }
      // The donor asset's low-balance alert is still waiting for Slack: its thread will tell this one.
      if (incident && 'queued' in incident) {
        const event = { type: 'update' as const, at: nowIso, text: failureUpdateText(found.facts, false) };
        incident.queued.told = [...(incident.queued.told ?? []), { key: found.key, facts: found.facts, event }];
        alerts.alerted[found.key] = { createdAt: found.createdAt };
        toldFailures.add(found.key);
        continue;
      }
      // Before this poll's own marks below: the previous read of the source, the poller's first poll.
      const since = believedSince(found.facts.kind, source);
      const changedAt = changeTimeOf(found.changedAt, found.createdAt, now, since);
      enqueue({ key: found.key, queuedAt: nowIso, ...(changedAt ? { changedAt } : {}), facts: found.facts });
      newFailures[name] += 1;
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
    for (const row of detection.settled) settleRow(alerts, KIND_OF_SOURCE[name], row, now, toldFailures);
    const afterMs = options.stuckAfterMs?.[KIND_OF_SOURCE[name]];
    if (afterMs !== undefined) {
      for (const facts of stuckRows(alerts, name, afterMs, now)) {
        const key = stuckKey(facts.source, facts.id);
        if (queuedKeys.has(key) || objectsOf(facts).some((object) => queuedObjects.has(object))) continue;
        enqueue({ key, queuedAt: nowIso, facts });
      }
    }
  }
  // A stuck row that left pending before its alert reached Slack: nothing to say any more. (One that may have
  // been posted already stays: the delivery finds it first.)
  alerts.outbox = alerts.outbox.filter(
    (item) =>
      item.facts.kind !== 'stuck' ||
      item.sending !== undefined ||
      !outcomes[SOURCE_OF_KIND[item.facts.source]!].ok ||
      Object.hasOwn(alerts.sources[SOURCE_OF_KIND[item.facts.source]!].tracking, item.facts.id),
  );

  // Watching the watcher: one alert when reading fails for several polls (at once when the key is refused),
  // one when every source reads again. Both go through the outbox, so neither is lost.
  const failing = SOURCES.filter((name) => {
    const outcome = outcomes[name];
    return (
      !outcome.ok &&
      (alerts.sources[name].consecutiveFailures >= POLL_RULES.unreachableAfterPolls || KEY_REFUSED.has(outcome.code))
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
    // The outage's alert, when people own it, resolves itself (its message and thread say so); else a note.
    const since = alerts.apiDown.since;
    const watcher = ownedAlert(alerts, `api_down:${since}`);
    const change = watcher ? resolveAlertByFacts(watcher.life, now, 'the payment API answers again') : undefined;
    if (watcher && change) {
      watcher.life = change.life;
      appendEvent(watcher, change.event);
      if (watcher.subject.type === 'watcher') watcher.subject.recoveredAt = nowIso;
    } else {
      enqueue({
        key: `api_recovered:${since}`,
        queuedAt: nowIso,
        facts: { kind: 'api_recovered', since, recoveredAt: nowIso },
      });
    }
    delete alerts.apiDown;
  }

  for (const [key, entry] of Object.entries(alerts.alerted)) {
    if (key.startsWith(STUCK_PREFIX)) {
      // Alerted as stuck once: kept while the row is followed (pending), so it is never alerted twice.
      const rest = key.slice(STUCK_PREFIX.length);
      const name = SOURCE_OF_KIND[rest.slice(0, rest.indexOf(':'))];
      if (name !== undefined && !Object.hasOwn(alerts.sources[name].tracking, rest.slice(rest.indexOf(':') + 1)))
        delete alerts.alerted[key];
      continue;
    }
    const name = SOURCE_OF_KIND[key.slice(0, key.indexOf(':'))];
    if (name === undefined) continue;
    if (!mayBeReadAgain(alerts.sources[name], name, entry.createdAt, now.getTime(), lookbackMs))
      delete alerts.alerted[key];
  }
  pruneSentCounts(alerts, now);
  pruneOwnedAlerts(alerts, now);
  return { queued, newFailures, crossings, runwayCrossings };
}

/** The outbox and `alerted` key of a row's stuck alert. */
export function stuckKey(source: RowKind, id: string): string {
  return `${STUCK_PREFIX}${source}:${id}`;
}

/**
 * The followed rows of a source pending longer than `afterMs` that still need a stuck alert: not alerted as
 * stuck yet, not short of donor balance (that alert covers it), and with no open alert about them.
 */
export function stuckRows(alerts: AlertsState, name: SourceName, afterMs: number, now: Date): StuckFacts[] {
  const source = alerts.sources[name];
  const kind = KIND_OF_SOURCE[name];
  const handled = new Set(source.handledPending ?? []);
  const rows: StuckFacts[] = [];
  for (const [id, createdAt] of Object.entries(source.tracking)) {
    if (now.getTime() - Date.parse(createdAt) <= afterMs) continue;
    if (Object.hasOwn(alerts.alerted, stuckKey(kind, id)) || handled.has(id)) continue;
    const facts: StuckFacts = { kind: 'stuck', source: kind, id, createdAt, afterMs, seenAt: now.toISOString() };
    if (openAlertAbout(alerts.owned, objectsOf(facts))) continue;
    rows.push(facts);
  }
  return rows;
}

/** The owned alert with this key, if the state holds it. */
function ownedAlert(alerts: AlertsState, key: string): OwnedAlert | undefined {
  return alerts.owned && Object.hasOwn(alerts.owned, key) ? alerts.owned[key] : undefined;
}

/** A row object (`withdrawal:<id>`, `task:<id>`, `gas:<id>`), as opposed to an address or the watcher. */
function isRowObject(object: string): boolean {
  return /^(withdrawal|task|gas):/.test(object);
}

/** Tells a failure in the thread of the open alert about the same thing, which from now on is about it too. */
function tellFailure(alert: OwnedAlert, key: string, facts: FailureFacts, at: string): void {
  const sameRow = alert.objects.includes(key);
  appendEvent(alert, { type: 'update', at, text: failureUpdateText(facts, sameRow) });
  alert.objects = [...new Set([...alert.objects, ...objectsOf(facts)])];
}

/** Why an alert resolved itself, in plain words: its one row, or the last of the rows a summary lists. */
const RESOLVED_BECAUSE: Record<RowKind, { one: string; all: string }> = {
  withdrawal: { one: 'the withdrawal succeeded', all: 'every withdrawal it lists succeeded' },
  task: { one: 'the payout task succeeded', all: 'every payout task it lists succeeded' },
  gas: { one: 'the gas top-up was sent', all: 'every gas top-up it lists was sent' },
};

/**
 * A followed row left pending: the open alert about it learns how. Success (a gas top-up sent) takes the row off
 * the alert, and the alert resolves itself by the facts once no row it is about is left (a stuck row, a gas
 * top-up that was short of donor balance). Anything else keeps the alert open until a person resolves it; a
 * stuck alert is rewritten with the outcome, and its thread tells it (the failure itself when it was found).
 */
function settleRow(alerts: AlertsState, kind: RowKind, row: Settled, now: Date, told: ReadonlySet<string>): void {
  const alert = openAlertAbout(alerts.owned, [row.key]);
  if (!alert) return;
  const at = now.toISOString();
  const id = row.key.slice(kind.length + 1);
  const subject = alert.subject;
  if (row.status === 'success' && row.subStatus !== NOT_ENOUGH_DONOR_BALANCE) {
    alert.objects = alert.objects.filter((object) => object !== row.key);
    if (subject.type === 'stuck') subject.outcome = { status: row.status, at };
    // A low-balance alert resolves on the balance only, never because a gas top-up told in it was sent.
    if (subject.type !== 'balance' && subject.type !== 'runway' && !alert.objects.some(isRowObject)) {
      const reason =
        subject.type !== 'summary'
          ? RESOLVED_BECAUSE[kind].one
          : subject.kind === 'stuck'
            ? 'every row it lists left pending successfully'
            : RESOLVED_BECAUSE[kind].all;
      const change = resolveAlertByFacts(alert.life, now, reason);
      if (change) {
        alert.life = change.life;
        appendEvent(alert, change.event);
        return;
      }
    }
    appendEvent(alert, {
      type: 'update',
      at,
      text: leftPendingText({ source: kind, id, status: row.status, subStatus: row.subStatus }),
    });
    return;
  }
  if (subject.type === 'stuck') {
    subject.outcome = { status: row.status, at };
    alert.life = { ...alert.life, version: alert.life.version + 1 };
  }
  if (!told.has(row.key))
    appendEvent(alert, {
      type: 'update',
      at,
      text: leftPendingText({ source: kind, id, status: row.status, subStatus: row.subStatus }),
    });
}

/** Resolved alerts whose retention passed, once Slack shows their last state, leave the hot state. */
function pruneOwnedAlerts(alerts: AlertsState, now: Date): void {
  if (!alerts.owned) return;
  for (const [key, alert] of Object.entries(alerts.owned)) if (mayForget(alert, now)) delete alerts.owned[key];
  if (Object.keys(alerts.owned).length === 0) delete alerts.owned;
}

/** Drops the per-hour counts of alerts sent older than 25 hours (what `/treasury alerts` counts is the last 24). */
function pruneSentCounts(alerts: AlertsState, now: Date): void {
  if (!alerts.sentPerHour) return;
  const cutoff = new Date(now.getTime() - 25 * 3_600_000).toISOString();
  for (const hour of Object.keys(alerts.sentPerHour)) if (hour < cutoff) delete alerts.sentPerHour[hour];
}
