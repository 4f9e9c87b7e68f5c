/**
 * The three failures the poller watches (a withdrawal, a payout task, a gas top-up short of donor balance) are
 * drawn alike: a title, the notification text, the fields, an advice, one line in a summary. Each kind's module
 * says its own words; `defineFailureKind` makes the kind of them.
 */
import type { z } from 'zod';
import { type Block, clipText, context, fields, header, section } from '../../../blocks/common.js';
import {
  formatCryptoAmount,
  formatDecimalAmount,
  formatNetwork,
  formatStatus,
  formatUsd,
  formatUtc,
} from '../../../blocks/format.js';
import { code, escapeText } from '../../../blocks/mrkdwn.js';
import { type AlertKindModule, type Described, defineAlertKind, type FactsSchema } from './kind.js';

/** What every failure's facts have. */
interface FailureShape {
  kind: string;
  id: string;
  status: string;
  createdAt: string;
  network: { title: string; symbol: string };
}

/** The subject of an alert about one failure. */
export interface FailureSubject<F> {
  type: 'failure';
  facts: F;
}

/** What a failure kind's module says; the rest of the kind follows from it. */
interface FailureSpec<Schema extends FactsSchema, Route extends string> {
  facts: Schema;
  route: Route;
  digest: string;
  objects(facts: z.infer<Schema>): string[];
  /** Singular title, plural (after a count), and where to look in Slack (mrkdwn). */
  words: { failed: string; many: string; lookup: string };
  /** Plain-text title (header blocks are plain_text: no escaping, no mrkdwn). */
  title(facts: z.infer<Schema>): string;
  /** The notification text (mrkdwn, escaped), before it is clipped. */
  fallback(facts: z.infer<Schema>): string;
  fields(facts: z.infer<Schema>): Array<readonly [string, string]>;
  advice(facts: z.infer<Schema>): string;
  /** One line of a summary: enough to recognise the failure and look it up (see summaryLineParts). */
  line(facts: z.infer<Schema>): string;
  update: NonNullable<AlertKindModule<Schema>['update']>;
  about(facts: z.infer<Schema>): Described;
}

/** Notification texts are cut here: a phone shows a line or two, and a hostile address must not bloat it. */
const FALLBACK_MAX = 500;

/** A failure kind: the spec's words, drawn as every failure is. */
export function defineFailureKind<Schema extends FactsSchema & z.ZodType<FailureShape>, const Route extends string>(
  spec: FailureSpec<Schema, Route>,
) {
  type F = z.infer<Schema>;
  const body = (facts: F): Block[] => [
    ...fieldsOf(spec.fields(facts)),
    section(`*Id* ${code(facts.id)}\n${spec.advice(facts)}`),
  ];
  return defineAlertKind<Schema, Route, FailureSubject<F>, true>({
    facts: spec.facts,
    route: spec.route,
    digest: spec.digest,
    objects: spec.objects,
    failure: true,
    update: spec.update,
    summary: { many: spec.words.many, lookup: spec.words.lookup, line: (facts) => spec.line(facts) },
    owned: {
      subject: (facts) => ({ type: 'failure', facts }),
      title: ({ facts }) => ({
        title: escapeText(spec.title(facts)),
        fallback: clipText(spec.fallback(facts), FALLBACK_MAX),
      }),
      body: ({ facts }) => body(facts),
      about: ({ facts }) => spec.about(facts),
    },
    plain: (facts) => ({
      text: clipText(spec.fallback(facts), FALLBACK_MAX),
      blocks: [
        header(`:x: ${spec.title(facts)}`),
        ...body(facts),
        context(`Alerted once by the treasury bot. Latest state: ${spec.words.lookup}.`),
      ],
    }),
  });
}

/** Fields blocks of at most ten pairs each. */
function fieldsOf(pairs: Array<readonly [string, string]>): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < pairs.length; i += 10) blocks.push(fields(pairs.slice(i, i + 10)));
  return blocks;
}

export type Leg = { amountFormatted: string; currency: string; amountInUsd: string | null };

export function legText(leg: Leg | null): string {
  if (!leg) return 'n/a';
  return `${formatDecimalAmount(leg.amountFormatted, leg.currency)} (${formatUsd(leg.amountInUsd)})`;
}

export function txText(hash: string | null): string {
  return hash ? code(hash) : '_none: nothing was sent on-chain_';
}

export function amountText(f: {
  amount: string;
  decimals: number;
  symbol: string;
  amountInUsd: string | null;
}): string {
  return `${formatCryptoAmount(f.amount, f)} (${formatUsd(f.amountInUsd)})`;
}

/**
 * What every summary line shows, with raw API text clipped before it is escaped, so the line stays one short line
 * whatever the API sends.
 */
export function summaryLineParts(f: FailureShape, subStatus: string | null) {
  return {
    created: formatUtc(new Date(f.createdAt)),
    network: formatNetwork({ title: clipText(f.network.title, 40), symbol: clipText(f.network.symbol, 20) }),
    status: formatStatus(clipText(f.status, 30), subStatus === null ? null : clipText(subStatus, 40)),
    id: code(clipText(f.id, 64)),
  };
}
