/**
 * The bot's Prometheus metrics: one registry per app (never prom-client's global one: tests run several apps in one
 * process), Node's default process and event-loop metrics, and ours under the prefix `treasury_`. Labels are
 * bounded (kind, outcome, operation, method, status_class, state, reason), never ids, people or channels. Every
 * series known in advance exists at zero from the start. Features and clients see only the BotMetrics interface.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** How a Slack Web API call attempt ended. */
export type SlackCallOutcome = 'ok' | 'error' | 'rate_limited';
/** The class of a payment API answer; `network` when none came. */
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'network';
/** How a poll ended. */
export type PollOutcome = 'ok' | 'error';
/** How a swap quote ended. */
export type QuoteOutcome = 'requested' | 'rejected' | 'expired' | 'failed';
/** Why a second-factor code was refused. */
export type StepUpFailure = 'wrong' | 'replayed' | 'locked';

/** What the bot counts; implemented over prom-client by createBotMetrics. */
export interface BotMetrics {
  /** One attempt of a Slack Web API call, by method (`chat.postMessage`) and outcome. */
  slackCall(method: string, outcome: SlackCallOutcome): void;
  /** One attempt of a payment API request, by operation (`listWithdrawals`) and status class. */
  paymentsRequest(operation: string, statusClass: StatusClass): void;
  /** A poll ended, after `seconds`; an ok poll also sets the time of the last successful poll. */
  pollRun(outcome: PollOutcome, seconds: number, endedAt: Date): void;
  /** Whether this replica holds the poller's lease. */
  leaseHeld(held: boolean): void;
  /** Slack accepted an alert's post. */
  alertPosted(kind: string): void;
  /** An alert's post failed, by a bounded reason (a Slack error code class). */
  alertFailed(kind: string, reason: string): void;
  /** From the row's change in the API to Slack's accepted post, in seconds. */
  alertLatency(kind: string, seconds: number): void;
  /** A reminder about an alert left open was posted. */
  reminderSent(kind: string): void;
  /** A quote ended (or was asked for), by outcome. */
  quote(outcome: QuoteOutcome): void;
  /** An approval was recorded on a quote. */
  approval(): void;
  /** A swap was created at the payment API. */
  swapCreated(): void;
  /** A second-factor code was refused. */
  stepUpFailed(reason: StepUpFailure): void;
}

/** The alert latency buckets, in seconds: one second to thirty minutes. */
export const ALERT_LATENCY_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800];
/** The poll duration buckets, in seconds. */
const POLL_DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The Slack methods the bot calls, created at zero so that a dashboard has them before the first call. */
const SLACK_METHODS = [
  'auth.test',
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'conversations.join',
  'conversations.history',
  'views.open',
  'views.publish',
  'usergroups.users.list',
];
const SLACK_OUTCOMES: SlackCallOutcome[] = ['ok', 'error', 'rate_limited'];
const STATUS_CLASSES: StatusClass[] = ['2xx', '4xx', '5xx', 'network'];
const QUOTE_OUTCOMES: QuoteOutcome[] = ['requested', 'rejected', 'expired', 'failed'];
const STEP_UP_FAILURES: StepUpFailure[] = ['wrong', 'replayed', 'locked'];

/** Read at scrape time (cheap): open alerts by state, quotes waiting, the freeze. */
export interface ScrapeTimeReadings {
  alertsOpen?: () => Promise<Record<string, number>>;
  quotesWaiting?: () => Promise<number>;
  frozen?: () => Promise<boolean>;
  /** A cheap check that the store answers (PostgreSQL: one query; the state file: always). */
  storeUp?: () => Promise<boolean>;
}

/** The metrics of one app: the interface the bot writes to, and the scrape. */
export interface AppMetrics {
  metrics: BotMetrics;
  registry: Registry;
  /** Late wiring of what is read at scrape time (the store exists before, the features after, the metrics). */
  readAtScrape(readings: ScrapeTimeReadings): void;
  /** The Prometheus text exposition. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/** Builds the registry and every series, at zero. `alertKinds` and `payOperations` are the label values known now. */
export function createAppMetrics(options: {
  alertKinds: readonly string[];
  paymentOperations?: readonly string[];
  alertStates?: readonly string[];
}): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name: `treasury_${name}`, help, labelNames, registers });
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name: `treasury_${name}`, help, labelNames, registers });

  const slackCalls = counter('slack_calls_total', 'Slack Web API call attempts by method and outcome.', [
    'method',
    'outcome',
  ]);
  const slackRateLimits = counter('slack_rate_limits_total', 'Slack answers of ratelimited (429), by method.', [
    'method',
  ]);
  const paymentsRequests = counter(
    'payments_requests_total',
    'Payment API request attempts by operation and status class (network: no answer).',
    ['operation', 'status_class'],
  );
  const polls = counter('polls_total', 'Alert polls run by this replica, by outcome.', ['outcome']);
  const pollDuration = new Histogram({
    name: 'treasury_poll_duration_seconds',
    help: 'How long an alert poll took.',
    buckets: POLL_DURATION_BUCKETS,
    registers,
  });
  const lastPoll = gauge('last_successful_poll_timestamp_seconds', 'Unix time of the last successful poll (0: none).');
  const lease = gauge('poller_lease_held', 'Whether this replica holds the poller lease (1) or not (0).');
  const alertsPosted = counter('alerts_posted_total', 'Alerts Slack accepted, by kind.', ['kind']);
  const alertsFailed = counter('alerts_failed_total', 'Alert posts that failed, by kind and reason.', [
    'kind',
    'reason',
  ]);
  const alertLatency = new Histogram({
    name: 'treasury_alert_latency_seconds',
    help: "From the row's change in the payment API (its updatedAt/createdAt, or when a poll first saw it) to Slack's accepted post.",
    labelNames: ['kind'],
    buckets: ALERT_LATENCY_BUCKETS,
    registers,
  });
  const reminders = counter('alert_reminders_total', 'Reminders posted about alerts left open, by kind.', ['kind']);
  const quotes = counter('quotes_total', 'Swap quotes by outcome.', ['outcome']);
  const approvals = counter('approvals_total', 'Approvals recorded on swap quotes.');
  const swaps = counter('swaps_created_total', 'Swaps created at the payment API.');
  const stepUps = counter('step_up_failures_total', 'Second-factor codes refused, by reason.', ['reason']);
  let readings: ScrapeTimeReadings = {};
  const storeUp = new Gauge({
    name: 'treasury_store_up',
    help: 'Whether the store answered its check at this scrape (or the last store check) (1) or not (0).',
    registers,
    async collect() {
      if (!readings.storeUp) return;
      this.set((await readings.storeUp().catch(() => false)) ? 1 : 0);
    },
  });

  const alertStates = options.alertStates ?? ['open', 'acknowledged', 'snoozed'];
  const alertsOpen = new Gauge({
    name: 'treasury_alerts_open',
    help: 'Alerts not resolved, by state (read from the store at scrape time).',
    labelNames: ['state'],
    registers,
    async collect() {
      if (!readings.alertsOpen) return;
      // A store that cannot answer must not break the scrape: the gauge keeps its last value, store_up says why.
      const counts = await readings.alertsOpen().catch(() => undefined);
      if (counts === undefined) return;
      for (const state of new Set([...alertStates, ...Object.keys(counts)])) this.set({ state }, counts[state] ?? 0);
    },
  });
  new Gauge({
    name: 'treasury_quotes_waiting',
    help: 'Swap quotes waiting for approval (read from the store at scrape time).',
    registers,
    async collect() {
      const waiting = await readings.quotesWaiting?.().catch(() => undefined);
      if (waiting !== undefined) this.set(waiting);
    },
  });
  new Gauge({
    name: 'treasury_frozen',
    help: 'Whether swaps are frozen (1) or not (0).',
    registers,
    async collect() {
      const frozen = await readings.frozen?.().catch(() => undefined);
      if (frozen !== undefined) this.set(frozen ? 1 : 0);
    },
  });

  // Every series known in advance, at zero.
  for (const method of SLACK_METHODS) {
    for (const outcome of SLACK_OUTCOMES) slackCalls.inc({ method, outcome }, 0);
    slackRateLimits.inc({ method }, 0);
  }
  for (const operation of options.paymentOperations ?? [])
    for (const statusClass of STATUS_CLASSES) paymentsRequests.inc({ operation, status_class: statusClass }, 0);
  for (const outcome of ['ok', 'error']) polls.inc({ outcome }, 0);
  lastPoll.set(0);
  lease.set(0);
  for (const kind of options.alertKinds) {
    alertsPosted.inc({ kind }, 0);
    for (const reason of ['refused', 'not_accepted']) alertsFailed.inc({ kind, reason }, 0);
    reminders.inc({ kind }, 0);
    alertLatency.zero({ kind });
  }
  for (const state of alertStates) alertsOpen.set({ state }, 0);
  for (const outcome of QUOTE_OUTCOMES) quotes.inc({ outcome }, 0);
  approvals.inc(0);
  swaps.inc(0);
  for (const reason of STEP_UP_FAILURES) stepUps.inc({ reason }, 0);
  storeUp.set(1);

  const metrics: BotMetrics = {
    slackCall(method, outcome) {
      slackCalls.inc({ method, outcome });
      if (outcome === 'rate_limited') slackRateLimits.inc({ method });
    },
    paymentsRequest: (operation, statusClass) => paymentsRequests.inc({ operation, status_class: statusClass }),
    pollRun(outcome, seconds, endedAt) {
      polls.inc({ outcome });
      pollDuration.observe(seconds);
      if (outcome === 'ok') lastPoll.set(endedAt.getTime() / 1000);
    },
    leaseHeld: (held) => lease.set(held ? 1 : 0),
    alertPosted: (kind) => alertsPosted.inc({ kind }),
    alertFailed: (kind, reason) => alertsFailed.inc({ kind, reason }),
    alertLatency: (kind, seconds) => alertLatency.observe({ kind }, Math.max(0, seconds)),
    reminderSent: (kind) => reminders.inc({ kind }),
    quote: (outcome) => quotes.inc({ outcome }),
    approval: () => approvals.inc(),
    swapCreated: () => swaps.inc(),
    stepUpFailed: (reason) => stepUps.inc({ reason }),
  };
  return {
    metrics,
    registry,
    readAtScrape(next) {
      readings = { ...readings, ...next };
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** The class of an HTTP status for the `status_class` label. */
export function statusClassOf(status: number): StatusClass {
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  return '2xx';
}
