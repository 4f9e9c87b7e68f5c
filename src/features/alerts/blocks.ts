/**
 * Alert messages for the alert channel and the `/treasury alerts` status. Pure builders: facts in, Block Kit
 * out, every API value escaped, every message inside Slack's limits (a summary lists at most
 * SUMMARY_LIST_CAP failures, one line each).
 */

import {
  type Block,
  clipText,
  context,
  fields,
  header,
  LIMITS,
  linesToSections,
  type SlackMessage,
  section,
} from '../../blocks/common.js';
import {
  formatCount,
  formatCryptoAmount,
  formatDecimalAmount,
  formatNetwork,
  formatRelative,
  formatStatus,
  formatTokenAmount,
  formatUsd,
  formatUtc,
} from '../../blocks/format.js';
import { code, escapeText, shorten } from '../../blocks/mrkdwn.js';
import { compareText } from '../../kernel/compare.js';
import { describePostRefusal } from '../../slack/errors.js';
import type { AlertFacts, AlertStatusView, FailureFacts } from './facts.js';
import { OWNED_ALERT_POLICY } from './owned.js';
import type { RedirectedFrom } from './records.js';
import type { AlertKind } from './routing.js';

/** A summary lists at most this many failures, then "…and N more". */
export const SUMMARY_LIST_CAP = OWNED_ALERT_POLICY.summaryListCap;

type Kind = FailureFacts['kind'];
type Leg = { amountFormatted: string; currency: string; amountInUsd: string | null };

/** Words for each kind: singular title, plural, and where to look in Slack (`lookup` is mrkdwn). */
export const KIND_WORDS: Record<Kind, { failed: string; many: string; lookup: string }> = {
  withdrawal: { failed: 'Withdrawal failed', many: 'withdrawals failed', lookup: '`/treasury withdrawal &lt;id&gt;`' },
  task: {
    failed: 'Payout task failed',
    many: 'payout tasks failed',
    lookup: '`/treasury task &lt;id&gt;` or `/treasury payouts failed`',
  },
  gas: {
    failed: 'Gas top-up short of donor balance',
    many: 'gas top-ups short of donor balance',
    lookup: '`/treasury gas` (and `/treasury gas cancelled`)',
  },
};

function legText(leg: Leg | null): string {
  if (!leg) return 'n/a';
  return `${formatDecimalAmount(leg.amountFormatted, leg.currency)} (${formatUsd(leg.amountInUsd)})`;
}

function txText(hash: string | null): string {
  return hash ? code(hash) : '_none: nothing was sent on-chain_';
}

function amountText(f: { amount: string; decimals: number; symbol: string; amountInUsd: string | null }): string {
  return `${formatCryptoAmount(f.amount, f)} (${formatUsd(f.amountInUsd)})`;
}

/** Plain-text title (header blocks are plain_text: no escaping, no mrkdwn). */
export function failureTitle(f: FailureFacts): string {
  switch (f.kind) {
    case 'withdrawal':
    case 'task':
      return `${KIND_WORDS[f.kind].failed} · ${formatTokenAmount(f.amount, f.decimals, f.symbol)}`;
    case 'gas':
      return `${KIND_WORDS.gas.failed} · ${f.network.title}`;
  }
}

/** Notification texts are cut here: a phone shows a line or two, and a hostile address must not bloat it. */
const FALLBACK_MAX = 500;

/** The notification text (mrkdwn, escaped): what failed, how much, where. */
export function failureFallback(f: FailureFacts): string {
  return clipText(fullFallbackOf(f), FALLBACK_MAX);
}

function fullFallbackOf(f: FailureFacts): string {
  switch (f.kind) {
    case 'withdrawal':
      return `Withdrawal failed: ${amountText(f)} on ${formatNetwork(f.network)} to ${escapeText(shorten(f.address, 8))} (id ${escapeText(f.id)})`;
    case 'task':
      return `Payout task failed: ${amountText(f)} on ${formatNetwork(f.network)} (id ${escapeText(f.id)})`;
    case 'gas':
      return `Gas top-up short of donor balance on ${formatNetwork(f.network)}: could not charge ${legText(f.charged)} (id ${escapeText(f.id)})`;
  }
}

export function failureDetailFields(f: FailureFacts): Array<readonly [string, string]> {
  const created = formatUtc(new Date(f.createdAt));
  switch (f.kind) {
    case 'withdrawal':
      return [
        ['Status', formatStatus(f.status)],
        ['Amount', amountText(f)],
        ['Asset', `${escapeText(f.symbol)} on ${formatNetwork(f.network)}`],
        ['Created', created],
        ['Destination', code(f.address)],
        ['Transaction', txText(f.txHash)],
      ];
    case 'task':
      return [
        ['Status', formatStatus(f.status, f.subStatus)],
        ['Amount', amountText(f)],
        ['Asset', `${escapeText(f.symbol)} on ${formatNetwork(f.network)}`],
        ['Created', created],
        ['Targets', `${f.targetsCount} (${escapeText(f.type)}) in payout ${code(f.payoutId)}`],
        ['Transfer tx', txText(f.transferTxHash)],
        ['Payout tx', txText(f.payoutTxHash)],
      ];
    case 'gas':
      return [
        ['Status', formatStatus(f.status, f.subStatus)],
        ['Could not charge', legText(f.charged)],
        ['Network', formatNetwork(f.network)],
        ['Created', created],
        ['Target address', code(f.targetAddress)],
        ['Top-up wanted', legText(f.topUp)],
        ['Transaction', txText(f.txHash)],
        ['Pipeline', code(f.pipelineId)],
      ];
  }
}

export function failureAdvice(f: FailureFacts): string {
  switch (f.kind) {
    case 'withdrawal':
      return 'The money did not leave the asset. Check the destination and the balance, then retry the withdrawal if it is still needed.';
    case 'task':
      return 'Some targets of this payout may not have been paid. Check the task before paying again.';
    case 'gas':
      return `The gas liquidity address lacks ${escapeText(f.charged?.currency ?? 'its stablecoin')} on ${formatNetwork(f.network)}: top it up, or payments and payouts from this address will stall.`;
  }
}

/** One failure, in full. */
export function buildFailureAlert(f: FailureFacts): SlackMessage {
  return {
    text: failureFallback(f),
    blocks: [
      header(`:x: ${failureTitle(f)}`),
      ...fieldsOf(failureDetailFields(f)),
      section(`*Id* ${code(f.id)}\n${failureAdvice(f)}`),
      context(`Alerted once by the treasury bot. Latest state: ${KIND_WORDS[f.kind].lookup}.`),
    ],
  };
}

export function fieldsOf(pairs: Array<readonly [string, string]>): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < pairs.length; i += 10) blocks.push(fields(pairs.slice(i, i + 10)));
  return blocks;
}

/** One line of a summary: enough to recognise the failure and look it up. Raw API text is clipped before it is
 * escaped, so the line stays one short line whatever the API sends. */
export function failureSummaryLine(f: FailureFacts): string {
  const created = formatUtc(new Date(f.createdAt));
  const network = formatNetwork({ title: clipText(f.network.title, 40), symbol: clipText(f.network.symbol, 20) });
  const status = formatStatus(
    clipText(f.status, 30),
    f.kind === 'withdrawal' || f.subStatus === null ? null : clipText(f.subStatus, 40),
  );
  const id = code(clipText(f.id, 64));
  switch (f.kind) {
    case 'withdrawal':
    case 'task': {
      const amount = formatCryptoAmount(f.amount, { decimals: f.decimals, symbol: clipText(f.symbol, 20) });
      const where = f.kind === 'withdrawal' ? `to ${code(shorten(f.address, 8))}` : `${f.targetsCount} targets`;
      return `• *${amount}* (${formatUsd(f.amountInUsd)}) on ${network} · ${where} · ${created} · ${status} · ${id}`;
    }
    case 'gas': {
      const charged = f.charged ? { ...f.charged, currency: clipText(f.charged.currency, 20) } : null;
      return `• could not charge *${legText(charged)}* on ${network} for ${code(shorten(f.targetAddress, 8))} · ${created} · ${status} · ${id}`;
    }
  }
}

/**
 * Many new failures of one kind: one message listing the newest SUMMARY_LIST_CAP, then "…and N more",
 * instead of a flood that trains people to ignore the channel.
 */
export function buildFailureSummary(kind: Kind, failures: readonly FailureFacts[]): SlackMessage {
  const newestFirst = newestFirstOf(failures);
  const listed = newestFirst.slice(0, SUMMARY_LIST_CAP);
  const more = newestFirst.length - listed.length;
  const title = `${newestFirst.length} ${KIND_WORDS[kind].many}`;
  const lines = listed.map(failureSummaryLine);
  if (more > 0) lines.push(`…and ${more} more. The full list of ${newestFirst.length} is in this message's thread.`);
  return {
    text: `${title}. Newest: ${listed[0] ? failureFallback(listed[0]) : 'none'}`,
    blocks: [
      header(`:rotating_light: ${title}`),
      section(
        `Too many at once to post one by one, so here is one summary${more > 0 ? ` (the newest ${listed.length})` : ''}, newest first.`,
      ),
      ...linesToSections(lines),
      context(`Details of each: ${KIND_WORDS[kind].lookup}. Each is alerted once; none will be posted again.`),
    ],
  };
}

function newestFirstOf(failures: readonly FailureFacts[]): FailureFacts[] {
  // Ties broken by id, so the order (and so each thread part) is the same however the outbox was ordered.
  return [...failures].sort((a, b) => compareText(b.createdAt, a.createdAt) || compareText(a.id, b.id));
}

/** A thread part lists at most this many failures… */
export const THREAD_PART_MAX_LINES = 40;
/** …and at most this many characters of lines, so linesToSections never cuts one ("…not shown"). */
const THREAD_PART_MAX_CHARS = LIMITS.listText - 500;

/** One part of a summary's thread: which failures, numbered from `first` (1 = the newest). */
export interface SummaryThreadPart {
  part: number;
  first: number;
  failures: FailureFacts[];
}

/**
 * The full list behind a summary that could not show it all (more than SUMMARY_LIST_CAP), split into parts
 * that each fit one message, newest first; empty when the summary itself lists every failure. Deterministic:
 * the same failures always give the same parts.
 */
export function planSummaryThread(failures: readonly FailureFacts[]): SummaryThreadPart[] {
  const newestFirst = newestFirstOf(failures);
  if (newestFirst.length <= SUMMARY_LIST_CAP) return [];
  const parts: SummaryThreadPart[] = [];
  let current: FailureFacts[] = [];
  let chars = 0;
  let first = 1;
  newestFirst.forEach((failure, index) => {
    const length = numberedLine(failure, index + 1).length + 1;
    if (current.length > 0 && (current.length >= THREAD_PART_MAX_LINES || chars + length > THREAD_PART_MAX_CHARS)) {
      parts.push({ part: parts.length + 1, first, failures: current });
      current = [];
      chars = 0;
      first = index + 1;
    }
    current.push(failure);
    chars += length;
  });
  if (current.length > 0) parts.push({ part: parts.length + 1, first, failures: current });
  return parts;
}

function numberedLine(f: FailureFacts, n: number): string {
  return `${n}. ${failureSummaryLine(f).replace(/^• /, '')}`;
}

/** One part of a summary's thread: `total` failures of `kind` in `parts` parts. */
export function buildSummaryThreadPart(
  kind: Kind,
  part: SummaryThreadPart,
  parts: number,
  total: number,
): SlackMessage {
  const last = part.first + part.failures.length - 1;
  const range = `${part.first}–${last} of ${total} ${KIND_WORDS[kind].many}`;
  return {
    text: `${range} (part ${part.part} of ${parts})`,
    blocks: [
      section(`*${range}*, newest first (part ${part.part} of ${parts})`),
      ...linesToSections(part.failures.map((f, i) => numberedLine(f, part.first + i))),
      ...(part.part === parts ? [context(`That is all ${total}. Details of each: ${KIND_WORDS[kind].lookup}.`)] : []),
    ],
  };
}

const SOURCE_LABELS: Record<string, string> = { withdrawals: 'Withdrawals', tasks: 'Payout tasks', gas: 'Gas top-ups' };

export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? escapeText(source);
}

function duration(from: Date, to: Date): string {
  return formatRelative(from, to).replace(/ ago$/, '');
}

/** The poller could not read the payment API for several polls, or the key was refused. */
export function buildApiDownAlert(f: Extract<AlertFacts, { kind: 'api_down' }>, now: Date): SlackMessage {
  const keyRefused = f.problems.some((p) => p.code === 'unauthorized' || p.code === 'forbidden');
  const lines = f.problems.map(
    (p) =>
      `• *${sourceLabel(p.source)}*: ${escapeText(p.message)} (${p.polls} poll${p.polls === 1 ? '' : 's'} in a row)`,
  );
  const since = new Date(f.since);
  return {
    text: keyRefused
      ? "The payment API refuses the bot's API key: failure alerts are paused."
      : 'The alert poller cannot reach the payment API: failure alerts are delayed.',
    blocks: [
      header(keyRefused ? ":warning: The payment API refuses the bot's key" : ':warning: Cannot reach the payment API'),
      section(
        `Since ${formatUtc(since)} (${duration(since, now)}) the alert poller could not read:\n${lines.join('\n')}`,
      ),
      context(
        keyRefused
          ? 'An admin must check `PAYMENTS_API_KEY` and its permissions. Failures are caught up once it works again.'
          : 'Failures that happen meanwhile are not lost: they are alerted when the API answers again. One message says when it does.',
      ),
    ],
  };
}

/** The payment API answers again after an api_down alert. */
export function buildApiRecoveredAlert(f: Extract<AlertFacts, { kind: 'api_recovered' }>): SlackMessage {
  const since = new Date(f.since);
  const at = new Date(f.recoveredAt);
  return {
    text: 'The payment API answers again: failure alerts are back.',
    blocks: [
      header(':white_check_mark: The payment API answers again'),
      section(
        `The alert poller reads every source again since ${formatUtc(at)}, after ${duration(since, at)} without. Failures from that time are alerted now.`,
      ),
    ],
  };
}

/** A failure or health message as it was posted before alerts had owners (tests and the "answers again" note). */
export function buildAlert(
  f: Exclude<AlertFacts, { kind: 'stuck' | 'balance_low' | 'runway_low' }>,
  now: Date,
): SlackMessage {
  switch (f.kind) {
    case 'api_down':
      return buildApiDownAlert(f, now);
    case 'api_recovered':
      return buildApiRecoveredAlert(f);
    default:
      return buildFailureAlert(f);
  }
}

function channelRef(channel: string): string {
  return /^[CGD][A-Z0-9]{2,}$/.test(channel) ? `<#${channel}>` : code(channel);
}

/** What Slack said, in plain words with its code: "the channel is archived (`is_archived`)". */
function refusalWords(error: string): { said: string; fix: string | undefined } {
  const { what, fix } = describePostRefusal(error);
  return { said: `${escapeText(what)} (${code(error)})`, fix: fix === undefined ? undefined : escapeText(fix) };
}

/** How to mend a route Slack refuses: the fix for what Slack said, or send the kinds elsewhere. */
function routeFix(kinds: readonly string[], fix: string | undefined): string {
  const moved = `route ${kinds.map(code).join(', ')} to another channel in ALERT_ROUTES`;
  return fix === undefined ? `To fix: ${moved}.` : `To fix: ${fix}, or ${moved}.`;
}

/**
 * The line on top of an alert posted in ALERT_CHANNEL because its own route refused it for good: which route, what
 * Slack said, and how to fix it.
 */
export function redirectedLine(kind: AlertKind, from: RedirectedFrom): string {
  const { said, fix } = refusalWords(from.error);
  return `:warning: Posted here instead of ${channelRef(from.channel)} (ALERT_ROUTES ${code(kind)}): Slack refuses to post there, ${said}. ${routeFix([kind], fix)}`;
}

/** One channel that refuses alerts, for `/treasury alerts`: where, what Slack said, since when, what happens meanwhile, the fix. */
function refusingLine(entry: NonNullable<AlertStatusView['refusing']>[number], waiting: number, now: Date): string {
  const { said, fix } = refusalWords(entry.error);
  const since = `since ${when(entry.since, now)}`;
  if (entry.alertChannel)
    return `• :no_entry: *ALERT_CHANNEL* ${channelRef(entry.channel)}: Slack refuses to post there, ${said}, ${since}. Its alerts wait in the outbox (${count(waiting)} waiting, none lost) until a post there is accepted. ${fix === undefined ? 'To fix: check the channel and the app, or set ALERT_CHANNEL to another channel.' : `To fix: ${fix}.`}`;
  return `• :no_entry: *ALERT_ROUTES* ${entry.kinds.map(code).join(', ')} → ${channelRef(entry.channel)}: Slack refuses to post there, ${said}, ${since}. These alerts go to ALERT_CHANNEL instead until a post there is accepted. ${routeFix(entry.kinds, fix)}`;
}

function when(date: Date | null, now: Date): string {
  return date ? `${formatUtc(date)} (${formatRelative(date, now)})` : 'never';
}

const count = formatCount;

/** A backlog read over several polls: "catching up: 3,200 of about 40,000 rows read". */
function catchingUpText(c: AlertStatusView['sources'][number]['catchingUp']): string {
  if (!c) return '';
  const of = c.estimate !== null && c.estimate >= c.read ? ` of about ${count(c.estimate)}` : '';
  return ` · :hourglass_flowing_sand: catching up: ${count(c.read)}${of} rows read (alerts from this backlog follow as it is read)`;
}

/** `/treasury alerts`: the poller's state, or that it is off. */
export function buildAlertStatus(view: AlertStatusView | null, now: Date): SlackMessage {
  if (view === null) {
    const text = 'The alert poller is off: `ALERT_CHANNEL` is not set. Set it to a channel id to get failure alerts.';
    return { text, blocks: [header('Failure alerts'), section(text)] };
  }
  const sourceLines = view.sources.map((s) => {
    const failing =
      s.consecutiveFailures > 0
        ? ` · :warning: failed ${s.consecutiveFailures} poll${s.consecutiveFailures === 1 ? '' : 's'} in a row`
        : '';
    return `• *${sourceLabel(s.source)}*: last successful poll ${when(s.lastSuccessAt, now)}${failing}${catchingUpText(s.catchingUp)}`;
  });
  const lastError = view.lastError
    ? `${escapeText(view.lastError.where)}, ${formatUtc(view.lastError.at)}: ${escapeText(view.lastError.message)}`
    : 'none';
  const text = `Failure alerts go to ${view.channel}: ${view.sentLast24h} sent in the last 24 h.`;
  return {
    text: escapeText(text),
    blocks: [
      header('Failure alerts'),
      fields([
        ['Channel', channelRef(view.channel)],
        ['Schedule', `${code(view.schedule)}${view.polling ? ' · polling now' : ''}`],
        ['Next run', view.nextRun ? when(view.nextRun, now) : 'not scheduled'],
        ['Last successful poll', lastSuccessfulPollText(view.lastSuccessfulPollAt ?? null, now)],
        ['Alerts sent (24 h)', String(view.sentLast24h)],
        ['Waiting for Slack', String(view.waiting)],
        [
          'Open alerts',
          view.openAlerts
            ? `${count(view.openAlerts.open)}${view.openAlerts.nobody > 0 ? ` (${count(view.openAlerts.nobody)} with nobody on ${view.openAlerts.nobody === 1 ? 'it' : 'them'})` : ''} · \`/treasury alerts open\``
            : '0',
        ],
        [
          'Payment API',
          view.apiDownSince ? `:warning: unreachable since ${formatUtc(view.apiDownSince)}` : 'reachable',
        ],
      ]),
      section(sourceLines.join('\n')),
      ...(view.refusing && view.refusing.length > 0
        ? [
            section(
              `*Channels refusing alerts*\n${view.refusing.map((entry) => refusingLine(entry, view.waiting, now)).join('\n')}`,
            ),
          ]
        : []),
      section(`*Last error*\n${lastError}`),
      ...(view.replicas ? [context(replicaLine(view.replicas))] : []),
    ],
  };
}

/** The last poll that read every source, by any replica: "40 seconds ago", or that none is recorded yet. */
function lastSuccessfulPollText(at: Date | null, now: Date): string {
  return at ? `${formatRelative(at, now)} (${formatUtc(at)})` : ':warning: no successful poll yet';
}

/** Replicated deployments: which replica polls (one at a time) and which one answered. */
function replicaLine(replicas: NonNullable<AlertStatusView['replicas']>): string {
  const self = `*${escapeText(clipText(replicas.self, 60))}*`;
  if (replicas.poller === undefined)
    return `Polling replica: none right now (one takes over at the next tick). Answered by ${self}.`;
  if (replicas.poller === replicas.self) return `Polling replica: ${self} (this one; the others stand by).`;
  return `Polling replica: *${escapeText(clipText(replicas.poller, 60))}*. Answered by ${self}, which stands by.`;
}
