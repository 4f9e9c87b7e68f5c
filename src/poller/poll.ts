/**
 * One poll of the alert poller, with no schedule inside: read the three sources, queue new failures in the
 * persisted outbox, then post the outbox to Slack.
 *
 * Exactly once, nothing lost:
 * - Detection writes nothing until a source has been read completely; then one store update applies every
 *   source that was read (a source that failed half-way keeps its place, and its next poll starts over).
 * - A new failure goes to the outbox on disk first. It moves from the outbox to `alerted` only after Slack
 *   accepted the message, so a Slack failure leaves it for the next poll, and nothing is ever posted twice
 *   (except if the process dies between Slack's answer and the write that follows it).
 * - `alerted` remembers handled failures for RETENTION_MS, longer than any window the poller reads, so a
 *   pruned key can never be found again.
 */
import { performance } from 'node:perf_hooks';
import { buildAlert, buildFailureAlert, buildFailureSummary } from '../blocks/alerts.js';
import type { Logger } from '../logger.js';
import { PaymentsError, type GasDistribution, type PaymentsClient, type PayoutTask, type Withdrawal } from '../payments/index.js';
import type { AlertSourceState, AlertsState, BotStore, FailureFacts, OutboxItem } from '../store/state.js';
import { failureKey, gasFacts, NOT_ENOUGH_DONOR_BALANCE, SOURCES, taskFacts, withdrawalFacts, type SourceName } from './facts.js';
import { describeSlackError, refusedContent, type AlertMessage, type AlertPoster } from './slack.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The poller's fixed rules (documented in the README). */
export const POLL_POLICY = {
  /** Withdrawals per page when walking the list (the simulator's and, we assume, the API's maximum). */
  withdrawalsPerPage: 100,
  /** Pending withdrawals and pending gas top-ups are followed this long after creation, then forgotten. */
  pendingHorizonMs: 7 * DAY,
  /** Failed payout tasks are looked for among tasks created this long ago at most (a task can fail long after creation). */
  taskHorizonMs: 30 * DAY,
  /** After a long outage, the withdrawal and gas lists are read back this far at most. */
  maxCatchUpMs: 30 * DAY,
  /** Each poll re-reads this much below the watermark (the newest createdAt seen): rows that became visible late. */
  overlapMs: 15 * MINUTE,
  /** Handled failures are remembered this long (longer than any window read), then pruned. */
  retentionMs: 31 * DAY,
  /** More new failures of one kind than this in one delivery: one summary instead of one message each. */
  floodThreshold: 5,
  /** Slack allows about one message per second per channel. */
  minPostIntervalMs: 1_000,
  /** Polls in a row a source may fail (network, 5xx, 429…) before the "cannot reach" alert; 401/403 alert at once. */
  unreachableAfterPolls: 3,
  /** A walk longer than this is refused (a runaway list, not history). */
  maxPagesPerList: 500,
} as const;

/** Remembers when the last post went out, across polls, so posts stay a second apart. */
export interface ChannelPacing {
  lastPostMs: number | undefined;
}

/** What one poll needs; everything is injected so a test can run it against the simulator and a Slack stand-in. */
export interface PollDeps {
  payments: PaymentsClient;
  store: BotStore;
  slack: AlertPoster;
  channel: string;
  now: () => Date;
  /** ALERT_LOOKBACK: how far back the first poll of a source alerts; older failures are recorded, not alerted. */
  lookbackMs: number;
  logger: Logger;
  sleep: (ms: number) => Promise<void>;
  /** Shared by the polls of one poller; a fresh one per poll by default. */
  pacing?: ChannelPacing;
  /** Monotonic clock for pacing; performance.now by default. */
  clockMs?: () => number;
  /** Aborted at shutdown: the poll stops between requests and posts, committing nothing half-read. */
  signal?: AbortSignal;
}

/** What one source's read produced. */
export type SourceReport = { ok: true; requests: number; newFailures: number } | { ok: false; code: string; error: string };

/** What one poll did. */
export interface PollReport {
  at: Date;
  sources: Record<SourceName, SourceReport>;
  /** Alerts added to the outbox by this poll (health messages included). */
  queued: number;
  /** Messages Slack accepted in this poll. */
  posted: number;
  /** Failures marked alerted in this poll (a summary counts all it covers). */
  alerted: number;
  /** Alerts still waiting for Slack. */
  waiting: number;
  /** Why posting stopped, when Slack failed. */
  slackError?: string;
  /** The poll was stopped (shutdown) before it could commit. */
  aborted?: boolean;
}

/** A failure seen in a source; `baseline` ones are recorded as handled without an alert (first run, older than the lookback). */
interface Found {
  key: string;
  createdAt: string;
  baseline: boolean;
  facts: FailureFacts;
}

interface Detection {
  found: Found[];
  requests: number;
  watermark?: string;
  tracking?: Record<string, string>;
}

type Outcome = { ok: true; detection: Detection } | { ok: false; code: string; message: string };

const isoMs = (iso: string) => Date.parse(iso);

class ListTooLongError extends Error {
  readonly code = 'list_too_long';
}

class PollAbortedError extends Error {}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new PollAbortedError('the poll was stopped');
}

/**
 * Lower bound (epoch ms) of what a watermark-based source must read: a bit below the watermark, and down to
 * the oldest record still followed, but never further back than the catch-up limit. The watermark is a time
 * of the API's clock, so clocks that disagree cannot make the poller skip rows; with no watermark yet (no
 * row seen so far) the first-run span is read again, which costs one request per list when it is empty.
 */
function readFloor(source: AlertSourceState, nowMs: number, firstRunSpanMs: number): number {
  if (source.initializedAt === undefined) return nowMs - firstRunSpanMs;
  const anchor = source.watermark === undefined ? nowMs - firstRunSpanMs : isoMs(source.watermark) - POLL_POLICY.overlapMs;
  const marks = [anchor, ...Object.values(source.tracking).map(isoMs)];
  return Math.max(nowMs - POLL_POLICY.maxCatchUpMs, Math.min(...marks));
}

/** The newest createdAt seen, never later than now (a row stamped in the future must not skip anything). */
function nextWatermark(previous: string | undefined, seen: readonly Date[], now: Date): string | undefined {
  let newest = previous;
  for (const date of seen) {
    const iso = (date.getTime() > now.getTime() ? now : date).toISOString();
    if (newest === undefined || iso > newest) newest = iso;
  }
  return newest;
}

function pruneTracking(tracking: Record<string, string>, nowMs: number): Record<string, string> {
  const horizon = nowMs - POLL_POLICY.pendingHorizonMs;
  return Object.fromEntries(Object.entries(tracking).filter(([, createdAt]) => isoMs(createdAt) >= horizon));
}

function isFirstRunBaseline(source: AlertSourceState, createdAt: Date, nowMs: number, lookbackMs: number): boolean {
  return source.initializedAt === undefined && createdAt.getTime() < nowMs - lookbackMs;
}

/**
 * Withdrawals: page-number list, newest first. Walk from the top down to the watermark (less an overlap) and
 * to the oldest pending withdrawal still followed, however far down it has moved; remember the pending ones
 * so their later failure is caught. Idle cost: one page.
 */
async function detectWithdrawals(deps: PollDeps, source: AlertSourceState, now: Date): Promise<Detection> {
  const nowMs = now.getTime();
  const stopBeforeMs = readFloor(source, nowMs, Math.max(deps.lookbackMs, POLL_POLICY.pendingHorizonMs));
  const rows: Withdrawal[] = [];
  let requests = 0;
  let reachedFloor = false;
  // The top row is the newest withdrawal of all, even when it is older than the floor: it is the watermark.
  let newest: Date | undefined;
  for await (const page of deps.payments.withdrawalPages(POLL_POLICY.withdrawalsPerPage)) {
    requests += 1;
    newest ??= page.items[0]?.createdAt;
    for (const row of page.items) {
      if (row.createdAt.getTime() < stopBeforeMs) {
        reachedFloor = true;
        break;
      }
      rows.push(row);
    }
    if (reachedFloor) break;
    if (requests >= POLL_POLICY.maxPagesPerList) throw new ListTooLongError(`more than ${requests} pages of withdrawals to read`);
    checkAborted(deps.signal);
  }
  const tracking = { ...source.tracking };
  const found: Found[] = [];
  for (const row of rows) {
    if (row.status === 'failed') {
      delete tracking[row.id];
      const key = failureKey('withdrawal', row.id);
      found.push({ key, createdAt: row.createdAt.toISOString(), baseline: isFirstRunBaseline(source, row.createdAt, nowMs, deps.lookbackMs), facts: withdrawalFacts(row) });
    } else if (row.status === 'success') {
      delete tracking[row.id];
    } else {
      // pending, or a status the spec does not list: it may still fail.
      tracking[row.id] = row.createdAt.toISOString();
    }
  }
  return { found, requests, watermark: nextWatermark(source.watermark, newest ? [newest] : [], now), tracking: pruneTracking(tracking, nowMs) };
}

/** Reads every page of a cursor list, refusing a runaway one. */
async function readAll<T>(pages: AsyncGenerator<{ items: T[]; cursorNext: string | null }>, what: string, signal: AbortSignal | undefined): Promise<{ rows: T[]; requests: number }> {
  const rows: T[] = [];
  let requests = 0;
  for await (const page of pages) {
    requests += 1;
    rows.push(...page.items);
    if (requests >= POLL_POLICY.maxPagesPerList && page.cursorNext !== null) throw new ListTooLongError(`more than ${requests} pages of ${what} to read`);
    checkAborted(signal);
  }
  return { rows, requests };
}

/**
 * Payout tasks: the list is ordered by creation, not by failure, so ask for `status=failed` among tasks created
 * in the last TASK horizon and follow every cursor. Idle cost: one request per 50 failed tasks in the horizon.
 */
async function detectTasks(deps: PollDeps, source: AlertSourceState, now: Date): Promise<Detection> {
  const nowMs = now.getTime();
  const firstRun = source.initializedAt === undefined;
  const from = new Date(nowMs - Math.max(POLL_POLICY.taskHorizonMs, firstRun ? deps.lookbackMs : 0));
  const { rows, requests } = await readAll<PayoutTask>(
    deps.payments.payoutTaskPages({ status: 'failed', createdAtFrom: from }, POLL_POLICY.maxPagesPerList),
    'failed payout tasks',
    deps.signal,
  );
  const found = rows
    .filter((task) => task.status === 'failed')
    .map((task): Found => ({
      key: failureKey('task', task.id),
      createdAt: task.createdAt.toISOString(),
      baseline: isFirstRunBaseline(source, task.createdAt, nowMs, deps.lookbackMs),
      facts: taskFacts(task),
    }));
  return { found, requests };
}

const FINAL_GAS_STATUSES = new Set(['success', 'failed', 'cancelled']);

/**
 * Gas top-ups: the list promises no order and hides cancelled rows unless asked, so read every page of the
 * default list AND of `status=cancelled`, both since the watermark (less an overlap) or the oldest pending
 * top-up still followed. A row matches on its subStatus, whatever its status. Idle cost: two requests.
 */
async function detectGas(deps: PollDeps, source: AlertSourceState, now: Date): Promise<Detection> {
  const nowMs = now.getTime();
  const from = new Date(readFloor(source, nowMs, Math.max(deps.lookbackMs, POLL_POLICY.pendingHorizonMs)));
  const listed = await readAll<GasDistribution>(
    deps.payments.gasDistributionPages({ createdAtFrom: from }, POLL_POLICY.maxPagesPerList),
    'gas top-ups',
    deps.signal,
  );
  const cancelled = await readAll<GasDistribution>(
    deps.payments.gasDistributionPages({ status: 'cancelled', createdAtFrom: from }, POLL_POLICY.maxPagesPerList),
    'cancelled gas top-ups',
    deps.signal,
  );
  const rows = [...new Map([...listed.rows, ...cancelled.rows].map((row) => [row.id, row])).values()];
  const tracking = { ...source.tracking };
  const found: Found[] = [];
  for (const row of rows) {
    if (row.subStatus === NOT_ENOUGH_DONOR_BALANCE) {
      delete tracking[row.id];
      found.push({ key: failureKey('gas', row.id), createdAt: row.createdAt.toISOString(), baseline: isFirstRunBaseline(source, row.createdAt, nowMs, deps.lookbackMs), facts: gasFacts(row) });
    } else if (FINAL_GAS_STATUSES.has(row.status)) {
      delete tracking[row.id];
    } else {
      tracking[row.id] = row.createdAt.toISOString();
    }
  }
  return {
    found,
    requests: listed.requests + cancelled.requests,
    watermark: nextWatermark(source.watermark, rows.map((r) => r.createdAt), now),
    tracking: pruneTracking(tracking, nowMs),
  };
}

const DETECTORS: Record<SourceName, (deps: PollDeps, source: AlertSourceState, now: Date) => Promise<Detection>> = {
  withdrawals: detectWithdrawals,
  tasks: detectTasks,
  gas: detectGas,
};

/** A reason safe to show and log: our error classes carry no API key; long API texts are clipped. */
function describeReadError(error: unknown): { code: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof PaymentsError ? error.code : error instanceof ListTooLongError ? error.code : 'internal';
  return { code, message: message.length > 300 ? `${message.slice(0, 299)}…` : message };
}

const KEY_REFUSED = new Set(['unauthorized', 'forbidden']);

/** Applies what was read to the state (one atomic update): outbox, baselines, places, health, pruning. */
function commit(alerts: AlertsState, outcomes: Record<SourceName, Outcome>, now: Date): { queued: number; newFailures: Record<SourceName, number> } {
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

/** Slack errors no retry will cure: a person must fix the channel, the token or the scopes. */
const NEEDS_A_PERSON = new Set(['channel_not_found', 'not_in_channel', 'is_archived', 'invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'missing_scope', 'restricted_action']);

/** Posts the outbox, a second apart; stops at the first Slack failure (the rest waits for the next poll). */
async function deliverOutbox(deps: PollDeps, now: Date): Promise<{ posted: number; alerted: number; slackError?: string }> {
  const pacing = deps.pacing ?? { lastPostMs: undefined };
  const clock = deps.clockMs ?? (() => performance.now());
  let posted = 0;
  let alerted = 0;
  for (const delivery of planDeliveries(deps.store.read().alerts.outbox, now)) {
    if (deps.signal?.aborted) break;
    if (pacing.lastPostMs !== undefined) {
      const wait = POLL_POLICY.minPostIntervalMs - (clock() - pacing.lastPostMs);
      if (wait > 0) await deps.sleep(wait);
    }
    const attemptedAt = deps.now().toISOString();
    try {
      await postWithFallback(deps, delivery.message);
    } catch (error) {
      const reason = describeSlackError(error);
      const fields = { reason, channel: deps.channel, waiting: delivery.items.length };
      if (NEEDS_A_PERSON.has(reason)) {
        deps.logger.error('alert poller: Slack refuses to post in ALERT_CHANNEL; alerts wait in the outbox until this is fixed', fields);
      } else {
        deps.logger.warn('alert poller: Slack did not accept an alert; it stays queued for the next poll', fields);
      }
      await deps.store.update((state) => {
        state.alerts.lastDelivery = { at: attemptedAt, ok: false, error: reason };
      });
      return { posted, alerted, slackError: reason };
    } finally {
      pacing.lastPostMs = clock();
    }
    posted += 1;
    const keys = new Set(delivery.items.map((item) => item.key));
    await deps.store.update((state) => {
      const alerts = state.alerts;
      alerts.outbox = alerts.outbox.filter((item) => !keys.has(item.key));
      for (const item of delivery.items) {
        if (item.facts.kind === 'api_down' || item.facts.kind === 'api_recovered') continue;
        alerts.alerted[item.key] = { createdAt: item.facts.createdAt, at: attemptedAt };
        alerted += 1;
      }
      alerts.lastDelivery = { at: attemptedAt, ok: true };
    });
    deps.logger.info('alert posted', { keys: keys.size === 1 ? [...keys][0] : `${keys.size} in one summary` });
  }
  return { posted, alerted };
}

/** Runs one poll: read every source, commit what was read, post the outbox. Never throws for API or Slack failures. */
export async function pollOnce(deps: PollDeps): Promise<PollReport> {
  const now = deps.now();
  const state = deps.store.read().alerts;
  const outcomes = {} as Record<SourceName, Outcome>;
  for (const name of SOURCES) {
    try {
      outcomes[name] = { ok: true, detection: await DETECTORS[name](deps, state.sources[name], now) };
    } catch (error) {
      if (error instanceof PollAbortedError) break;
      const problem = describeReadError(error);
      deps.logger.warn(`alert poller: could not read ${name}; its place is kept for the next poll`, problem);
      outcomes[name] = { ok: false, ...problem };
    }
  }
  const waitingNow = () => deps.store.read().alerts.outbox.length;
  if (deps.signal?.aborted || SOURCES.some((name) => outcomes[name] === undefined)) {
    return { at: now, sources: reportsOf(outcomes, {}), queued: 0, posted: 0, alerted: 0, waiting: waitingNow(), aborted: true };
  }
  const { queued, newFailures } = await deps.store.update((draft) => commit(draft.alerts, outcomes, now));
  if (queued > 0) deps.logger.info('alert poller: new alerts queued', { queued, ...newFailures });
  const delivery = await deliverOutbox(deps, now);
  return { at: now, sources: reportsOf(outcomes, newFailures), queued, ...delivery, waiting: waitingNow() };
}

function reportsOf(outcomes: Partial<Record<SourceName, Outcome>>, newFailures: Partial<Record<SourceName, number>>): Record<SourceName, SourceReport> {
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
