/** A row pending longer than its STUCK_*_AFTER (the poller makes no request for it). */
import { z } from 'zod';
import { type Block, clipText, fields, section } from '../../../blocks/common.js';
import { formatSlackTime, formatStatus, formatUtc } from '../../../blocks/format.js';
import { code, escapeText } from '../../../blocks/mrkdwn.js';
import { defineAlertKind, formatSpan, type Title } from './kind.js';

/** Only what the poller keeps of a followed row: its id and createdAt. */
export const StuckFacts = z.object({
  kind: z.literal('stuck'),
  source: z.enum(['withdrawal', 'task', 'gas']),
  id: z.string(),
  createdAt: z.string(),
  /** The threshold it passed (ms), to say "pending for over 2 h". */
  afterMs: z.number().int().positive(),
  /** When the poller saw it stuck. */
  seenAt: z.string(),
});
export type StuckFacts = z.infer<typeof StuckFacts>;

/** One row pending too long; `outcome` once it left pending (a failure keeps the alert open). */
export const StuckSubject = z.object({
  type: z.literal('stuck'),
  facts: StuckFacts,
  outcome: z.object({ status: z.string(), at: z.string() }).optional(),
});
export type StuckSubject = z.infer<typeof StuckSubject>;

const STUCK_WORDS: Record<StuckFacts['source'], { one: string; lookup: (id: string) => string }> = {
  withdrawal: { one: 'Withdrawal', lookup: (id) => `\`/treasury withdrawal ${escapeText(clipText(id, 64))}\`` },
  task: { one: 'Payout task', lookup: (id) => `\`/treasury task ${escapeText(clipText(id, 64))}\`` },
  gas: { one: 'Gas top-up', lookup: () => '`/treasury gas pending`' },
};

function title(subject: StuckSubject, now: Date): Title {
  const f = subject.facts;
  const age = formatSpan(now.getTime() - Date.parse(f.createdAt));
  const outcome = subject.outcome ? `, then ${escapeText(clipText(subject.outcome.status, 30))}` : '';
  const title = `${STUCK_WORDS[f.source].one} stuck in pending${subject.outcome ? '' : ` for ${age}`}${outcome}`;
  return { title, fallback: `${title} (id ${escapeText(clipText(f.id, 64))})` };
}

function body(subject: StuckSubject, now: Date): Block[] {
  const f = subject.facts;
  const created = new Date(f.createdAt);
  return [
    fields([
      ['Id', code(clipText(f.id, 64))],
      ['Created', formatUtc(created)],
      ['Pending for', subject.outcome ? 'no longer pending' : formatSpan(now.getTime() - created.getTime())],
      ['Stuck after', formatSpan(f.afterMs)],
    ]),
    section(
      subject.outcome
        ? `It left pending: *${escapeText(clipText(subject.outcome.status, 30))}* (seen ${formatSlackTime(new Date(subject.outcome.at))}).`
        : `Still pending longer than expected. Latest state: ${STUCK_WORDS[f.source].lookup(f.id)}.`,
    ),
  ];
}

export const stuck = defineAlertKind({
  facts: StuckFacts,
  route: 'stuck',
  digest: 'Rows stuck in pending',
  objects: (f) => [`${f.source}:${f.id}`],
  failure: false,
  summary: {
    many: 'rows stuck in pending',
    lookup: '`/treasury withdrawal &lt;id&gt;`, `/treasury task &lt;id&gt;`, `/treasury gas pending`',
    line: (f, now) =>
      `• ${STUCK_WORDS[f.source].one} ${code(clipText(f.id, 64))} · created ${formatUtc(new Date(f.createdAt))} · pending ${formatSpan(now.getTime() - Date.parse(f.createdAt))}`,
  },
  owned: {
    schema: StuckSubject,
    subject: (facts): StuckSubject => ({ type: 'stuck', facts }),
    title,
    body,
    about: ({ facts }) => ({
      about: `${facts.source} ${facts.id} pending for over ${Math.round(facts.afterMs / 60_000)} minutes (created ${facts.createdAt})`,
    }),
  },
});

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
