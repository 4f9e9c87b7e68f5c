/**
 * Alerts people own: the alert message as a view of its record (a colour bar and a first word that
 * tell open from handled, the buttons while it is not resolved), the line each change leaves in its thread, the
 * private answers to clicks that changed nothing, the Resolve modal, and `/treasury alerts open`. Pure.
 */

import {
  type Block,
  clipText,
  context,
  fields,
  LIMITS,
  linesToSections,
  type SlackMessage,
  section,
} from '../../blocks/common.js';
import { formatCount, formatRelative, formatSlackTime, formatStatus, formatUtc } from '../../blocks/format.js';
import { ACTION_IDS, VIEW_IDS } from '../../blocks/ids.js';
import { code, escapeText } from '../../blocks/mrkdwn.js';
import { assetLabel, balanceLabel, recoveryLabel, thresholdLabel } from '../thresholds/blocks.js';
import {
  failureAdvice,
  failureDetailFields,
  failureFallback,
  failureSummaryLine,
  failureTitle,
  fieldsOf,
  KIND_WORDS,
  redirectedLine,
  sourceLabel,
} from './blocks.js';
import type { FailureFacts, StuckFacts } from './facts.js';
import type { AlertEvent, AlertLife, AlertRefusal } from './lifecycle.js';
import { type AlertView, alertRef } from './owned.js';
import type { AlertSubject, RedirectedFrom } from './records.js';
import { describeSnoozeChoice, SNOOZE_CHOICES } from './snooze.js';

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

const MINUTE = 60_000;

/** `2 h`, `45 min`, `1 d 4 h`: a threshold or an age, short. */
export function formatSpan(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / MINUTE));
  const days = Math.floor(minutes / 1_440);
  const hours = Math.floor((minutes % 1_440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

const STUCK_WORDS: Record<StuckFacts['source'], { one: string; lookup: (id: string) => string }> = {
  withdrawal: { one: 'Withdrawal', lookup: (id) => `\`/treasury withdrawal ${escapeText(clipText(id, 64))}\`` },
  task: { one: 'Payout task', lookup: (id) => `\`/treasury task ${escapeText(clipText(id, 64))}\`` },
  gas: { one: 'Gas top-up', lookup: () => '`/treasury gas pending`' },
};

/** The subject's title as mrkdwn (escaped), and its notification text. */
function titleOf(subject: AlertSubject, now: Date): { title: string; fallback: string } {
  switch (subject.type) {
    case 'failure':
      return { title: escapeText(failureTitle(subject.facts)), fallback: failureFallback(subject.facts) };
    case 'summary': {
      const many = subject.kind === 'stuck' ? 'rows stuck in pending' : KIND_WORDS[subject.kind].many;
      const title = `${formatCount(subject.total)} ${many}`;
      return { title, fallback: title };
    }
    case 'stuck': {
      const f = subject.facts;
      const age = formatSpan(now.getTime() - Date.parse(f.createdAt));
      const outcome = subject.outcome ? `, then ${escapeText(clipText(subject.outcome.status, 30))}` : '';
      const title = `${STUCK_WORDS[f.source].one} stuck in pending${subject.outcome ? '' : ` for ${age}`}${outcome}`;
      return { title, fallback: `${title} (id ${escapeText(clipText(f.id, 64))})` };
    }
    case 'watcher': {
      const title = keyRefusedIn(subject) ? "The payment API refuses the bot's key" : 'Cannot reach the payment API';
      return { title, fallback: title };
    }
    case 'balance': {
      const f = subject.facts;
      const title = `${assetLabel(f)} balance is ${thresholdLabel(f)}`;
      return { title, fallback: title };
    }
    case 'runway': {
      const f = subject.facts;
      const title = `${assetLabel(f)} runway is below ${escapeText(f.belowDays)} days`;
      return { title, fallback: `${title}: about ${escapeText(f.days)} days at ${escapeText(f.outflow)}` };
    }
  }
}

function keyRefusedIn(subject: Extract<AlertSubject, { type: 'watcher' }>): boolean {
  return subject.facts.problems.some((p) => p.code === 'unauthorized' || p.code === 'forbidden');
}

function stuckLine(f: StuckFacts, now: Date): string {
  return `• ${STUCK_WORDS[f.source].one} ${code(clipText(f.id, 64))} · created ${formatUtc(new Date(f.createdAt))} · pending ${formatSpan(now.getTime() - Date.parse(f.createdAt))}`;
}

/** The facts of the subject (the body beside the colour bar). */
function subjectBlocks(subject: AlertSubject, now: Date): Block[] {
  switch (subject.type) {
    case 'failure':
      return [
        ...fieldsOf(failureDetailFields(subject.facts)),
        section(`*Id* ${code(subject.facts.id)}\n${failureAdvice(subject.facts)}`),
      ];
    case 'summary': {
      const lines = subject.listed.map((f) => (f.kind === 'stuck' ? stuckLine(f, now) : failureSummaryLine(f)));
      const more = subject.total - subject.listed.length;
      if (more > 0)
        lines.push(
          subject.kind === 'stuck'
            ? `…and ${formatCount(more)} more.`
            : `…and ${more} more. The full list of ${subject.total} is in this message's thread.`,
        );
      const lookup =
        subject.kind === 'stuck'
          ? '`/treasury withdrawal &lt;id&gt;`, `/treasury task &lt;id&gt;`, `/treasury gas pending`'
          : KIND_WORDS[subject.kind].lookup;
      return [
        section(
          `Too many at once to post one by one, so here is one summary${more > 0 ? ` (the newest ${subject.listed.length})` : ''}, newest first.`,
        ),
        ...linesToSections(lines),
        context(`Details of each: ${lookup}.`),
      ];
    }
    case 'stuck': {
      const f = subject.facts;
      const created = new Date(f.createdAt);
      const blocks: Block[] = [
        fields([
          ['Id', code(clipText(f.id, 64))],
          ['Created', formatUtc(created)],
          ['Pending for', subject.outcome ? 'no longer pending' : formatSpan(now.getTime() - created.getTime())],
          ['Stuck after', formatSpan(f.afterMs)],
        ]),
      ];
      blocks.push(
        section(
          subject.outcome
            ? `It left pending: *${escapeText(clipText(subject.outcome.status, 30))}* (seen ${formatSlackTime(new Date(subject.outcome.at))}).`
            : `Still pending longer than expected. Latest state: ${STUCK_WORDS[f.source].lookup(f.id)}.`,
        ),
      );
      return blocks;
    }
    case 'watcher': {
      const since = new Date(subject.facts.since);
      const lines = subject.facts.problems.map(
        (p) =>
          `• *${sourceLabel(p.source)}*: ${escapeText(p.message)} (${p.polls} poll${p.polls === 1 ? '' : 's'} in a row)`,
      );
      const blocks: Block[] = [
        section(`Since ${formatUtc(since)} the alert poller could not read:\n${lines.join('\n')}`),
      ];
      if (subject.recoveredAt)
        blocks.push(section(`It reads every source again since ${formatUtc(new Date(subject.recoveredAt))}.`));
      else
        blocks.push(
          context(
            keyRefusedIn(subject)
              ? 'An admin must check `PAYMENTS_API_KEY` and its permissions. Failures are caught up once it works again, and this alert resolves itself then.'
              : 'Failures that happen meanwhile are not lost: they are alerted when the API answers again, and this alert resolves itself then.',
          ),
        );
      return blocks;
    }
    case 'balance': {
      const f = subject.facts;
      const blocks: Block[] = [
        fields([
          ['Balance when it crossed', balanceLabel(f)],
          ['Threshold', thresholdLabel(f)],
          ['Seen', formatUtc(new Date(f.createdAt))],
          ['Resolves at', recoveryLabel(f)],
        ]),
      ];
      if (subject.recovered)
        blocks.push(
          section(
            `Back to ${subject.recovered.balance !== undefined ? balanceLabel({ ...f, balance: subject.recovered.balance, balanceInUsd: subject.recovered.balanceInUsd ?? null }) : 'the recovery level'} (seen ${formatSlackTime(new Date(subject.recovered.at))}).`,
          ),
        );
      else if (subject.endedBecause) blocks.push(section(escapeText(subject.endedBecause)));
      else
        blocks.push(
          context(
            'Top the asset up (or move funds into it). Gas top-ups that fail for lack of this balance are told in this thread. `/treasury thresholds` shows every balance now.',
          ),
        );
      return blocks;
    }
    case 'runway': {
      const f = subject.facts;
      const blocks: Block[] = [
        fields([
          ['Runway when it crossed', `about ${escapeText(f.days)} days at ${escapeText(f.outflow)}`],
          ['Balance', balanceLabel(f)],
          ['Alert below', `${escapeText(f.belowDays)} days (\`RUNWAY_ALERT_DAYS\`)`],
          ['Resolves at', `${escapeText(f.recoversAtDays)} days`],
          ['Seen', formatUtc(new Date(f.createdAt))],
        ]),
      ];
      if (subject.recovered)
        blocks.push(
          section(
            `Back to ${subject.recovered.days !== undefined ? `about ${escapeText(subject.recovered.days)} days` : 'the recovery level'} (seen ${formatSlackTime(new Date(subject.recovered.at))}).`,
          ),
        );
      else if (subject.endedBecause) blocks.push(section(escapeText(subject.endedBecause)));
      else
        blocks.push(
          context(
            'At the outflow of the last 7 days (deposits not counted), the balance runs out soon: top it up or slow the spending. `/treasury runway` shows every asset now.',
          ),
        );
      return blocks;
    }
  }
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
  const line = failureSummaryLine(facts).replace(/^• /, '');
  if (sameRow) return `:x: ${facts.kind === 'gas' ? 'Then short of donor balance' : 'Then failed'}: ${line}`;
  return facts.kind === 'gas'
    ? `:repeat: The same address is short of donor balance again: ${line}`
    : `:repeat: ${escapeText(failureTitle(facts))}: ${line}`;
}

/** A row an alert is about left pending (how it ended), when no failure alert tells it. */
export function leftPendingText(row: {
  source: StuckFacts['source'];
  id: string;
  status: string;
  subStatus: string | null;
}): string {
  const status = formatStatus(clipText(row.status, 30), row.subStatus === null ? null : clipText(row.subStatus, 40));
  return `${STUCK_WORDS[row.source].one} ${code(clipText(row.id, 64))} is no longer pending: ${status}.`;
}

/** An alert's title as one line of mrkdwn (escaped): how the daily digest names each open alert. */
export function alertTitle(subject: AlertSubject, now: Date): string {
  return titleOf(subject, now).title;
}
