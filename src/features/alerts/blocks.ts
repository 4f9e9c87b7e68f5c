/**
 * Alert messages, pure: facts and records in, Block Kit out, every API value escaped, every message inside Slack's
 * limits. The alert message as a view of its record (a colour bar and a first word that tell open from handled, the
 * buttons while it is not resolved), the line each change leaves in its thread, the private answers to clicks that
 * changed nothing, the Resolve modal, `/treasury alerts open`; a flood's summary and its thread list; and the
 * `/treasury alerts` status. What each kind shows is its module's (kinds/<kind>.ts); this file reads the table.
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
import { formatCount, formatRelative, formatSlackTime, formatUtc } from '../../blocks/format.js';
import { ACTION_IDS, VIEW_IDS } from '../../blocks/ids.js';
import { code, escapeText } from '../../blocks/mrkdwn.js';
import { compareText } from '../../kernel/compare.js';
import { describePostRefusal } from '../../slack/errors.js';
import { type ApiDownFacts, apiDown, sourceLabel } from './kinds/api-down.js';
import { type ApiRecoveredFacts, apiRecovered } from './kinds/api-recovered.js';
import { type AlertFacts, type FailureFacts, kindOf } from './kinds/index.js';
import { formatSpan, type Title } from './kinds/kind.js';
import type { AlertEvent, AlertLife, AlertRefusal } from './lifecycle.js';
import { type AlertView, alertRef, OWNED_ALERT_POLICY } from './owned.js';
import type { AlertSubject, RedirectedFrom, SourceName } from './records.js';
import type { RouteKind } from './routing.js';
import { describeSnoozeChoice, SNOOZE_CHOICES } from './snooze.js';

export { formatSpan } from './kinds/kind.js';

/** The colour bar of each look: red while nobody has it, amber while someone does, grey while snoozed, green once resolved. */
export const ALERT_COLORS = {
  open: '#E01E5A',
  acknowledged: '#ECB22E',
  snoozed: '#9E9E9E',
  resolved: '#2EB67D',
  retired: '#616061',
} as const;

type Look = keyof typeof ALERT_COLORS;

/** How the alert looks at `now`: resolved, snoozed (until its snooze ends), acknowledged or open. */
export function lookOf(life: AlertLife, now: Date): Look {
  if (life.resolution?.by === 'retired') return 'retired';
  if (life.state === 'resolved') return 'resolved';
  if (life.snoozedUntil !== undefined && now.toISOString() < life.snoozedUntil) return 'snoozed';
  return life.state;
}

/** The first word of the message: what a reader scanning the channel needs first. */
const FIRST_WORD: Record<Look, string> = {
  open: ':red_circle: *OPEN*',
  acknowledged: ':large_yellow_circle: *ACKNOWLEDGED*',
  snoozed: ':zzz: *SNOOZED*',
  resolved: ':white_check_mark: *RESOLVED*',
  retired: ':file_cabinet: *NO LONGER FOLLOWED*',
};
const FIRST_WORD_PLAIN: Record<Look, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  snoozed: 'Snoozed',
  resolved: 'Resolved',
  retired: 'No longer followed',
};

/** The time a failure's lines are drawn at: they do not depend on it (a stuck row's age does). */
const ANY_TIME = new Date(0);

/** The subject's title as mrkdwn (escaped), and its notification text. */
function titleOf(subject: AlertSubject, now: Date): Title {
  if (subject.type !== 'summary') return kindOf(subject.facts).owned!.title(subject, now);
  const title = `${formatCount(subject.total)} ${kindOf(subject.kind).summary!.many}`;
  return { title, fallback: title };
}

/** The facts of the subject (the body beside the colour bar). */
function subjectBlocks(subject: AlertSubject, now: Date): Block[] {
  if (subject.type !== 'summary') return kindOf(subject.facts).owned!.body(subject, now);
  const kind = kindOf(subject.kind);
  const lines = subject.listed.map((f) => kindOf(f).summary!.line(f, now));
  const more = subject.total - subject.listed.length;
  if (more > 0)
    lines.push(
      kind.failure
        ? `…and ${more} more. The full list of ${subject.total} is in this message's thread.`
        : `…and ${formatCount(more)} more.`,
    );
  return [
    section(
      `Too many at once to post one by one, so here is one summary${more > 0 ? ` (the newest ${subject.listed.length})` : ''}, newest first.`,
    ),
    ...linesToSections(lines),
    context(`Details of each: ${kind.summary!.lookup}.`),
  ];
}

/** Who has the alert, in one line each (mrkdwn). */
export function statusLines(life: AlertLife, now: Date): string[] {
  const lines: string[] = [];
  if (life.acknowledgedBy && life.acknowledgedAt)
    lines.push(`Acknowledged by <@${life.acknowledgedBy}> ${formatSlackTime(new Date(life.acknowledgedAt))}`);
  if (life.state !== 'resolved' && life.snoozedUntil && now.toISOString() < life.snoozedUntil)
    lines.push(
      `Snoozed${life.snoozedBy ? ` by <@${life.snoozedBy}>` : ''} until ${formatSlackTime(new Date(life.snoozedUntil))}: no reminders until then`,
    );
  if (life.state === 'resolved' && life.resolution && life.resolvedAt) {
    const at = formatSlackTime(new Date(life.resolvedAt));
    const r = life.resolution;
    lines.push(
      r.by === 'person'
        ? `Resolved by <@${r.userId}> ${at}${r.note ? `: “${noteText(r.note)}”` : ' (no note)'}`
        : r.by === 'facts'
          ? `Resolved automatically ${at}: ${escapeText(r.reason)}`
          : `No longer followed since ${at}: more than ${r.openLimit} alerts were open at once. Nobody marked it handled.`,
    );
  }
  if (life.state === 'open' && lines.length === 0) lines.push('Nobody has acknowledged this yet.');
  return lines;
}

/** A person's note, as text in a message: escaped, and short enough for any block. */
function noteText(note: string): string {
  return escapeText(clipText(note, 1_000));
}

/** The actions block's id: the version the message shows, then the alert's reference. */
export function alertBlockId(version: number, key: string): string {
  return `alert:${version}:${alertRef(key)}`;
}

/** Reads an alert actions block id back; undefined when it is not one. */
export function parseAlertBlockId(blockId: string): { version: number; ref: string } | undefined {
  const match = /^alert:(\d{1,9}):(.+)$/s.exec(blockId);
  if (!match) return undefined;
  return { version: Number(match[1]), ref: match[2]! };
}

/** At most three controls: Acknowledge (while nobody has it), Resolve, and the Snooze menu. */
function controls(view: AlertView, timeZone: string): Block[] {
  if (view.life.state === 'resolved') return [];
  const elements: unknown[] = [];
  if (view.life.state === 'open')
    elements.push({
      type: 'button',
      action_id: ACTION_IDS.alertAcknowledge,
      text: { type: 'plain_text', text: 'Acknowledge', emoji: true },
      style: 'primary',
      value: 'acknowledge',
    });
  elements.push({
    type: 'button',
    action_id: ACTION_IDS.alertResolve,
    text: { type: 'plain_text', text: 'Resolve', emoji: true },
    value: 'resolve',
  });
  elements.push({
    type: 'static_select',
    action_id: ACTION_IDS.alertSnooze,
    placeholder: { type: 'plain_text', text: 'Snooze…', emoji: true },
    options: SNOOZE_CHOICES.map((choice) => ({
      text: { type: 'plain_text', text: clipText(describeSnoozeChoice(choice, timeZone), 75), emoji: true },
      value: choice,
    })),
  });
  return [{ type: 'actions', block_id: alertBlockId(view.life.version, view.key), elements } as Block];
}

/** Options of the alert message. */
export interface AlertMessageOptions {
  /** Whom the alert is for (a route's mention, e.g. `<!subteam^S0ONCALL>`), shown while it is not resolved. */
  mention?: string;
  /** ALERT_TIME_ZONE: where "tomorrow 09:00" of the snooze menu is; UTC by default. */
  timeZone?: string;
  /** Posted in ALERT_CHANNEL because its route refused it for good: one line under the title says so. */
  redirectedFrom?: RedirectedFrom;
}

/**
 * The alert message from its record: the first word and title on top, then beside the colour bar the facts,
 * who has it, and the controls (gone once resolved). Its notification text starts with the same word.
 */
export function buildAlertMessage(view: AlertView, now: Date, options: AlertMessageOptions = {}): SlackMessage {
  const look = lookOf(view.life, now);
  const { title, fallback } = titleOf(view.subject, now);
  const status = statusLines(view.life, now);
  const mention = options.mention && view.life.state !== 'resolved' ? ` ${options.mention}` : '';
  return {
    text: clipText(`${FIRST_WORD_PLAIN[look]}: ${fallback}`, 500),
    blocks: [
      section(`${FIRST_WORD[look]} · *${title}*${mention}`),
      ...(options.redirectedFrom ? [context(redirectedLine(view.kind, options.redirectedFrom))] : []),
    ],
    attachments: [
      {
        color: ALERT_COLORS[look],
        fallback: clipText(`${FIRST_WORD_PLAIN[look]}: ${fallback}`, 500),
        blocks: [
          ...subjectBlocks(view.subject, now),
          context(clipText(status.join('\n'), 1_900)),
          ...controls(view, options.timeZone ?? 'UTC'),
        ],
      },
    ],
  };
}

/** The thread reply that tells one change (mrkdwn; every value a person typed escaped). */
export function buildAlertThreadLine(event: AlertEvent, now: Date): SlackMessage {
  const text = threadText(event, now);
  return { text, blocks: linesToSections([text]) };
}

function threadText(event: AlertEvent, now: Date): string {
  switch (event.type) {
    case 'acknowledged':
      return `:eyes: <@${event.by}> acknowledged this ${formatSlackTime(new Date(event.at))}.`;
    case 'snoozed':
      return `:zzz: <@${event.by}> snoozed this until ${formatSlackTime(new Date(event.until))}: no reminders until then.`;
    case 'resolved_by_person':
      return `:white_check_mark: <@${event.by}> resolved this${event.note ? `: “${noteText(event.note)}”` : ' (no note).'}`;
    case 'resolved_by_facts':
      return `:white_check_mark: Resolved automatically: ${escapeText(event.reason)}.`;
    case 'reminder_unacknowledged': {
      const who = event.mentions.length > 0 ? `${event.mentions.join(' ')} ` : '';
      const since = formatRelative(new Date(event.openedAt), now);
      return `:bell: ${who}Nobody has acknowledged this alert yet (opened ${since}). Acknowledge it if you are on it, or snooze it (reminder ${event.number} of 2).`;
    }
    case 'reminder_stale':
      return `:bell: <@${event.acknowledgedBy}>, you acknowledged this ${formatRelative(new Date(event.acknowledgedAt), now)} and it is still not resolved. Resolve it with a note once it is handled, or snooze it.`;
    case 'update':
      return event.text;
    case 'reposted':
      return ":recycle: This alert's message had been deleted, so it was posted again here.";
  }
}

/** The private answer to an act that changed nothing, with the alert as it is now. */
export function buildAlertRefusal(refusal: AlertRefusal | { reason: 'not_found' }): { text: string } {
  if (refusal.reason === 'not_found')
    return {
      text: 'Nothing changed: this alert is no longer tracked (resolved alerts are kept for 7 days). See `/treasury alerts open`.',
    };
  const life = refusal.current;
  switch (refusal.reason) {
    case 'already_resolved': {
      const resolution = life.resolution;
      const at = life.resolvedAt ? ` ${formatSlackTime(new Date(life.resolvedAt))}` : '';
      const who =
        resolution?.by === 'person'
          ? `<@${resolution.userId}> resolved this alert${at}`
          : resolution?.by === 'retired'
            ? `this alert is no longer followed (more than ${resolution.openLimit} were open at once)`
            : `this alert was resolved automatically${at}${resolution ? ` (${escapeText(resolution.reason)})` : ''}`;
      return { text: `Nothing changed: ${who}.` };
    }
    case 'already_acknowledged':
      return {
        text: `Nothing changed: <@${life.acknowledgedBy ?? 'someone'}> acknowledged this alert${life.acknowledgedAt ? ` ${formatSlackTime(new Date(life.acknowledgedAt))}` : ''}.`,
      };
    case 'outdated': {
      const now = statusLines(life, new Date()).join('; ');
      return {
        text: `Nothing changed: the alert changed after your copy of the message was drawn. Now: ${now}. The message shows the current state; act on it again if needed.`,
      };
    }
    case 'note_required':
      return { text: 'Please write a note: what was done, or why nothing needs doing.' };
  }
}

/** The Resolve modal's input block and action ids. */
export const RESOLVE_NOTE = { blockId: 'resolve_note', actionId: 'note' } as const;
/** Notes are kept to this length (Slack's input allows 3,000; the message shows the note whole). */
export const RESOLVE_NOTE_MAX = 1_000;

/** What the Resolve modal carries to its submission. */
export interface ResolveModalState {
  ref: string;
  version: number;
  /** Where the click came from, to answer privately there when the submission changes nothing. */
  channel: string;
}

/** The Resolve modal: the alert's title and a note (required unless ALERT_RESOLVE_NOTE=optional). */
export function buildResolveModal(view: AlertView, state: ResolveModalState, noteRequired: boolean, now: Date) {
  const { title } = titleOf(view.subject, now);
  return {
    type: 'modal' as const,
    callback_id: VIEW_IDS.alertResolve,
    private_metadata: JSON.stringify(state),
    title: { type: 'plain_text' as const, text: 'Resolve alert' },
    submit: { type: 'plain_text' as const, text: 'Resolve' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: [
      section(`*${clipText(title, LIMITS.sectionText - 10)}*`),
      {
        type: 'input',
        block_id: RESOLVE_NOTE.blockId,
        optional: !noteRequired,
        label: { type: 'plain_text', text: noteRequired ? 'What was done?' : 'What was done? (optional)' },
        hint: {
          type: 'plain_text',
          text: 'Shown on the alert and in its thread, so the next person knows how it ended.',
        },
        element: {
          type: 'plain_text_input',
          action_id: RESOLVE_NOTE.actionId,
          multiline: true,
          max_length: RESOLVE_NOTE_MAX,
          placeholder: { type: 'plain_text', text: 'e.g. refilled the donor wallet; retried the withdrawal' },
        },
      },
    ],
  };
}

/** The modal's answer when the submission changed nothing: says why, with one Close. */
export function buildResolveRefusedModal(text: string) {
  return {
    type: 'modal' as const,
    callback_id: VIEW_IDS.alertResolveRefused,
    title: { type: 'plain_text' as const, text: 'Nothing changed' },
    close: { type: 'plain_text' as const, text: 'Close' },
    blocks: [section(text)],
  };
}

/** One line of `/treasury alerts open`. */
export interface OpenAlertLine {
  view: AlertView;
  postedAt: string;
  permalink?: string;
}

/** `/treasury alerts open`: the open alerts, oldest first: kind, what, age, owner, snooze, a link to each. */
export function buildOpenAlerts(lines: readonly OpenAlertLine[], total: number, now: Date): SlackMessage {
  if (total === 0)
    return {
      text: 'No open alerts.',
      blocks: [section(':white_check_mark: *No open alerts.* Nothing is waiting for an owner.')],
    };
  const nobody = lines.filter((line) => line.view.life.state === 'open').length;
  const rows = lines.map(({ view, postedAt, permalink }) => {
    const { title } = titleOf(view.subject, now);
    const age = formatSpan(now.getTime() - Date.parse(postedAt));
    const owner = view.life.acknowledgedBy ? `<@${view.life.acknowledgedBy}>` : '_nobody yet_';
    const snoozed =
      view.life.snoozedUntil && now.toISOString() < view.life.snoozedUntil
        ? ` · snoozed until ${formatSlackTime(new Date(view.life.snoozedUntil))}`
        : '';
    const link = permalink ? ` · <${permalink}|open>` : '';
    return `• *${clipText(title, 120)}* · ${view.kind.replace(/_/g, ' ')} · ${age} old · ${owner}${snoozed}${link}`;
  });
  if (total > lines.length) rows.push(`…and ${formatCount(total - lines.length)} newer ones not listed here.`);
  const heading = `${formatCount(total)} open alert${total === 1 ? '' : 's'}`;
  const shown =
    total > lines.length
      ? ` (the oldest ${lines.length}: ${formatCount(nobody)} with nobody on them)`
      : `, ${formatCount(nobody)} with nobody on ${nobody === 1 ? 'it' : 'them'}`;
  return {
    text: heading,
    blocks: [section(`*${heading}*${shown}, oldest first`), ...linesToSections(rows)],
  };
}

// ---------------------------------------------------------------------------------------------------------
// The text of 'update' thread events the poller queues (kept in the record as words, built here).

/**
 * A failure told in the thread of an open alert about the same thing instead of a new message: the row the
 * alert is about (`sameRow`: a stuck row that then failed), or another row about the same object (the same gas
 * address short of donor balance again).
 */
export function failureUpdateText(facts: FailureFacts, sameRow: boolean): string {
  const kind = kindOf(facts);
  const line = kind.summary!.line(facts, ANY_TIME).replace(/^• /, '');
  return sameRow ? `:x: ${kind.update!.sameRow}: ${line}` : `${kind.update!.sameThing(facts)}: ${line}`;
}

/** An alert's title as one line of mrkdwn (escaped): how the daily digest names each open alert. */
export function alertTitle(subject: AlertSubject, now: Date): string {
  return titleOf(subject, now).title;
}

// ---------------------------------------------------------------------------------------------------------
// A flood of one kind: one summary, its full list in the summary's thread; and messages without owners.

/** A summary lists at most this many failures, then "…and N more". */
export const SUMMARY_LIST_CAP = OWNED_ALERT_POLICY.summaryListCap;

/** One failure's line in a summary. */
function failureLine(f: FailureFacts): string {
  return kindOf(f).summary!.line(f, ANY_TIME);
}

/** One failure, in full, as before alerts had owners. */
export function buildFailureAlert(f: FailureFacts): SlackMessage {
  return kindOf(f).plain!(f, ANY_TIME);
}

/**
 * Many new failures of one kind: one message listing the newest SUMMARY_LIST_CAP, then "…and N more",
 * instead of a flood that trains people to ignore the channel.
 */
export function buildFailureSummary(kind: FailureFacts['kind'], failures: readonly FailureFacts[]): SlackMessage {
  const words = kindOf(kind).summary!;
  const newestFirst = newestFirstOf(failures);
  const listed = newestFirst.slice(0, SUMMARY_LIST_CAP);
  const more = newestFirst.length - listed.length;
  const title = `${newestFirst.length} ${words.many}`;
  const lines = listed.map(failureLine);
  if (more > 0) lines.push(`…and ${more} more. The full list of ${newestFirst.length} is in this message's thread.`);
  return {
    text: `${title}. Newest: ${listed[0] ? buildFailureAlert(listed[0]).text : 'none'}`,
    blocks: [
      header(`:rotating_light: ${title}`),
      section(
        `Too many at once to post one by one, so here is one summary${more > 0 ? ` (the newest ${listed.length})` : ''}, newest first.`,
      ),
      ...linesToSections(lines),
      context(`Details of each: ${words.lookup}. Each is alerted once; none will be posted again.`),
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
  return `${n}. ${failureLine(f).replace(/^• /, '')}`;
}

/** One part of a summary's thread: `total` failures of `kind` in `parts` parts. */
export function buildSummaryThreadPart(
  kind: FailureFacts['kind'],
  part: SummaryThreadPart,
  parts: number,
  total: number,
): SlackMessage {
  const last = part.first + part.failures.length - 1;
  const { many, lookup } = kindOf(kind).summary!;
  const range = `${part.first}–${last} of ${total} ${many}`;
  return {
    text: `${range} (part ${part.part} of ${parts})`,
    blocks: [
      section(`*${range}*, newest first (part ${part.part} of ${parts})`),
      ...linesToSections(part.failures.map((f, i) => numberedLine(f, part.first + i))),
      ...(part.part === parts ? [context(`That is all ${total}. Details of each: ${lookup}.`)] : []),
    ],
  };
}

/** The poller could not read the payment API for several polls, or the key was refused (before alerts had owners). */
export function buildApiDownAlert(f: ApiDownFacts, now: Date): SlackMessage {
  return apiDown.plain!(f, now);
}

/** The payment API answers again after an api_down alert. */
export function buildApiRecoveredAlert(f: ApiRecoveredFacts): SlackMessage {
  return apiRecovered.plain!(f, ANY_TIME);
}

/** A message of a kind that has one without owners: the "answers again" note, and earlier messages (tests). */
export function buildAlert(
  f: Exclude<AlertFacts, { kind: 'stuck' | 'balance_low' | 'runway_low' }>,
  now: Date,
): SlackMessage {
  return kindOf(f).plain!(f, now);
}

// ---------------------------------------------------------------------------------------------------------
// `/treasury alerts`: what the poller reads from its state, and how it is drawn. The view lives with its builder,
// so that the poller (poller/status.ts) and the command both depend on it, and not on each other.

/** How one watched source stands, for `/treasury alerts`. */
export interface SourceStatus {
  source: SourceName;
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  lastError: { at: Date; message: string } | null;
  /**
   * A backlog being read over several polls (first run with a long lookback, after an outage, a burst), or
   * null: rows read so far, and about how many in all when the list lets us estimate it.
   */
  catchingUp?: { read: number; estimate: number | null; since: Date } | null;
}

/** Everything `/treasury alerts` shows. */
export interface AlertStatusView {
  channel: string;
  schedule: string;
  nextRun: Date | null;
  /** A poll is running right now. */
  polling: boolean;
  sources: SourceStatus[];
  /** The most recent error of any source, or of posting to Slack. */
  lastError: { where: string; at: Date; message: string } | null;
  /** Failures alerted (accepted by Slack) in the last 24 hours. */
  sentLast24h: number;
  /** Alerts waiting in the outbox for Slack to accept them. */
  waiting: number;
  /** Alerts people own that are not resolved, and how many of them nobody has acknowledged. */
  openAlerts?: { open: number; nobody: number };
  apiDownSince: Date | null;
  /** Replicated deployments: this replica's name, and which replica polls (undefined: none holds the lease now). */
  replicas?: { self: string; poller: string | undefined };
  /**
   * Channels that refuse alerts for good now (archived, not found, the bot not in it…), among those the
   * configuration sends alerts to: ALERT_CHANNEL, or the kinds ALERT_ROUTES sends there.
   */
  refusing?: Array<{ channel: string; alertChannel: boolean; kinds: string[]; error: string; since: Date; at: Date }>;
  /** When the last successful poll (every source read) began, by any replica; null: none recorded yet. */
  lastSuccessfulPollAt?: Date | null;
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
export function redirectedLine(kind: RouteKind, from: RedirectedFrom): string {
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
