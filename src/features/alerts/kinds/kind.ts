/**
 * What one kind of alert is, declared once in its module (`kinds/<kind>.ts`): its facts (the record kept with the
 * alert, so it can be posted again without the API), its route kind (the name ALERT_ROUTES, the trail, the metrics
 * and the digest use), what it is about, whether a flood of it is summarised, how its alert is drawn, and its trail
 * and digest lines. ALERT_KINDS (kinds/index.ts) is the table of them; the rest of the code reads the table.
 */
import { z } from 'zod';
import type { Block, SlackMessage } from '../../../blocks/common.js';
import { fromBaseUnits } from '../../../kernel/money.js';

/** The facts of a kind: a zod object whose `kind` is the kind's literal name. */
export type FactsSchema = z.ZodObject & { shape: { kind: z.ZodLiteral<string> } };

/** What the trail keeps of what an alert is about: plain words, and its one amount when it has one. */
export interface Described {
  about?: string | undefined;
  asset?: string | undefined;
  amount?: string | undefined;
  amountUnits?: string | undefined;
  usd?: string | undefined;
}

/** An alert's title as mrkdwn (escaped), and its notification text. */
export interface Title {
  title: string;
  fallback: string;
}

/** One kind of alert. `F` is its facts, `S` the subject its owned alert shows. */
export interface AlertKindModule<
  Schema extends FactsSchema = FactsSchema,
  Route extends string = string,
  S extends { type: string } = { type: string },
  Failure extends boolean = boolean,
> {
  /** Its facts (the outbox item's, and the owned alert's subject's). */
  facts: Schema;
  /** Its name in ALERT_ROUTES, the trail and the metrics; kinds may share one (`api_down`, `api_recovered`: `watcher`). */
  route: Route;
  /** How the daily digest names the alerts of its route kind (one kind of each route says it). */
  digest?: string;
  /**
   * What an alert of it is about, so that later events about the same thing go into its thread (`withdrawal:<id>`,
   * `gas-address:<network>:<address>`, `watcher`…).
   */
  objects(facts: z.infer<Schema>): string[];
  /**
   * A failure of a watched row: once posted it counts among the failures alerted, a flood's full list goes to its
   * summary's thread, and a later failure about the same thing is told in the thread of its alert.
   */
  failure: Failure;
  /** A failure's words when a later failure is told in the thread of an alert about the same row or thing. */
  update?: {
    /** About the same row (a stuck row that then failed): `Then failed`. */
    sameRow: string;
    /** About the same thing (the same gas address again): `:repeat: …` (mrkdwn, escaped). */
    sameThing(facts: z.infer<Schema>): string;
  };
  /**
   * Present when a flood of this kind (more than POLL_RULES.floodThreshold waiting) goes out as one summary: the
   * summary's words and one line per alert. Such kinds are about one row, remembered in `alerted` once posted.
   * Absent: every alert of it goes out alone (each is its own incident, resolved on its own).
   */
  summary?: {
    /** `withdrawals failed` (after a count). */
    many: string;
    /** Where to look in Slack (mrkdwn). */
    lookup: string;
    line(facts: z.infer<Schema>, now: Date): string;
  };
  /** The alert people own. Absent: its message is `plain`, owned by nobody (a note that an incident is over). */
  owned?: {
    /** Its subject's own schema; failures share the `failure` subject (records.ts). */
    schema?: z.ZodObject;
    /** What the message shows, from the facts it was raised with. */
    subject(facts: z.infer<Schema>): S;
    title(subject: S, now: Date): Title;
    /** The body beside the colour bar. */
    body(subject: S, now: Date): Block[];
    /** What the trail says the alert is about. */
    about(subject: S): Described;
  };
  /** Its message without owners: how a kind nobody owns is posted; for the others, as before alerts had owners. */
  plain?(facts: z.infer<Schema>, now: Date): SlackMessage;
}

/** Declares one kind of alert (typed: its facts type the rest). */
export function defineAlertKind<
  Schema extends FactsSchema,
  const Route extends string,
  S extends { type: string } = never,
  const Failure extends boolean = boolean,
>(module: AlertKindModule<Schema, Route, S, Failure>): AlertKindModule<Schema, Route, S, Failure> {
  return module;
}

// ---------------------------------------------------------------------------------------------------------
// Pieces several kinds share.

export const Network = z.object({ title: z.string(), symbol: z.string() });

/** A fee leg as an alert shows it (the gas `charged` and `topUp` legs). */
export const AlertLeg = z.object({
  amountFormatted: z.string(),
  currency: z.string(),
  amountInUsd: z.string().nullable(),
});

/** Fields every failure alert carries. */
export const recordFields = { id: z.string(), status: z.string(), createdAt: z.string() };

/** An amount as a withdrawal or task alert shows it: base units of the crypto, with its USD value. */
export const amountFields = {
  symbol: z.string(),
  decimals: z.number().int(),
  network: Network,
  /** Base units. */
  amount: z.string(),
  amountInUsd: z.string().nullable(),
};

/** What a failed withdrawal or payout task keeps of the record and its amount (recordFields and amountFields). */
export function recordAndAmountOf(row: {
  id: string;
  status: string;
  createdAt: Date;
  crypto: { symbol: string; decimals: number };
  network: { title: string; symbol: string };
  amount: string;
  amountInUsd: string | null;
}) {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    symbol: row.crypto.symbol,
    decimals: row.crypto.decimals,
    network: { title: row.network.title, symbol: row.network.symbol },
    amount: row.amount,
    amountInUsd: row.amountInUsd,
  };
}

/** An amount as the trail keeps it: token units and base units when both can be read, and the USD value if any. */
export function amountOf(units: string, decimals: number, usd: string | null | undefined): Described {
  const amount = safe(() => fromBaseUnits(units, decimals));
  return {
    ...(amount !== undefined ? { amount, amountUnits: units } : {}),
    ...(usd !== null && usd !== undefined && usd !== '' ? { usd } : {}),
  };
}

/** The text `format` makes, or undefined when the record holds something it cannot read. */
export function safe(format: () => string): string | undefined {
  try {
    return format();
  } catch {
    return undefined;
  }
}

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
