/** The poller could not read the payment API for several polls (or the key was refused). */
import { z } from 'zod';
import { type Block, context, header, type SlackMessage, section } from '../../../blocks/common.js';
import { formatRelative, formatUtc } from '../../../blocks/format.js';
import { escapeText } from '../../../blocks/mrkdwn.js';
import { defineAlertKind } from './kind.js';

export const ApiDownFacts = z.object({
  kind: z.literal('api_down'),
  since: z.string(),
  problems: z.array(z.object({ source: z.string(), code: z.string(), message: z.string(), polls: z.number().int() })),
});
export type ApiDownFacts = z.infer<typeof ApiDownFacts>;

/** The poller cannot read the payment API; `recoveredAt` once it can again. */
export const WatcherSubject = z.object({
  type: z.literal('watcher'),
  facts: ApiDownFacts,
  recoveredAt: z.string().optional(),
});
export type WatcherSubject = z.infer<typeof WatcherSubject>;

/** The objects of the watcher's alerts: the payment API as the poller reads it. */
export const WATCHER_OBJECT = 'watcher';

const SOURCE_LABELS: Record<string, string> = { withdrawals: 'Withdrawals', tasks: 'Payout tasks', gas: 'Gas top-ups' };

/** A watched source's name as people read it. */
export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? escapeText(source);
}

function keyRefused(f: ApiDownFacts): boolean {
  return f.problems.some((p) => p.code === 'unauthorized' || p.code === 'forbidden');
}

function problemLines(f: ApiDownFacts): string {
  return f.problems
    .map(
      (p) =>
        `• *${sourceLabel(p.source)}*: ${escapeText(p.message)} (${p.polls} poll${p.polls === 1 ? '' : 's'} in a row)`,
    )
    .join('\n');
}

/** How long from `from` to `to`, in words. */
export function duration(from: Date, to: Date): string {
  return formatRelative(from, to).replace(/ ago$/, '');
}

/** The message as it was posted before alerts had owners. */
function plain(f: ApiDownFacts, now: Date): SlackMessage {
  const refused = keyRefused(f);
  const since = new Date(f.since);
  return {
    text: refused
      ? "The payment API refuses the bot's API key: failure alerts are paused."
      : 'The alert poller cannot reach the payment API: failure alerts are delayed.',
    blocks: [
      header(refused ? ":warning: The payment API refuses the bot's key" : ':warning: Cannot reach the payment API'),
      section(
        `Since ${formatUtc(since)} (${duration(since, now)}) the alert poller could not read:\n${problemLines(f)}`,
      ),
      context(
        refused
          ? 'An admin must check `PAYMENTS_API_KEY` and its permissions. Failures are caught up once it works again.'
          : 'Failures that happen meanwhile are not lost: they are alerted when the API answers again. One message says when it does.',
      ),
    ],
  };
}

function body(subject: WatcherSubject): Block[] {
  const blocks: Block[] = [
    section(
      `Since ${formatUtc(new Date(subject.facts.since))} the alert poller could not read:\n${problemLines(subject.facts)}`,
    ),
  ];
  if (subject.recoveredAt)
    blocks.push(section(`It reads every source again since ${formatUtc(new Date(subject.recoveredAt))}.`));
  else
    blocks.push(
      context(
        keyRefused(subject.facts)
          ? 'An admin must check `PAYMENTS_API_KEY` and its permissions. Failures are caught up once it works again, and this alert resolves itself then.'
          : 'Failures that happen meanwhile are not lost: they are alerted when the API answers again, and this alert resolves itself then.',
      ),
    );
  return blocks;
}

export const apiDown = defineAlertKind({
  facts: ApiDownFacts,
  route: 'watcher',
  digest: 'Payment API unreachable',
  objects: () => [WATCHER_OBJECT],
  failure: false,
  owned: {
    schema: WatcherSubject,
    subject: (facts): WatcherSubject => ({ type: 'watcher', facts }),
    title: (subject) => {
      const title = keyRefused(subject.facts)
        ? "The payment API refuses the bot's key"
        : 'Cannot reach the payment API';
      return { title, fallback: title };
    },
    body,
    about: ({ facts }) => ({
      about: `the payment API could not be read since ${facts.since}: ${facts.problems
        .map((problem) => `${problem.source} ${problem.code}`)
        .join(', ')}`,
    }),
  },
  plain,
});
