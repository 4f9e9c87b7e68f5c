/**
 * The one table of alert kinds, in the order they are listed (ALERT_ROUTES' kinds, the digest's counts). The facts
 * the store accepts, the route kinds, the trail's and the metrics' kinds, and how each alert is grouped, drawn and
 * kept are read from it: a new kind is one module in this folder and one line here.
 */
import { z } from 'zod';
import { apiDown } from './api-down.js';
import { apiRecovered } from './api-recovered.js';
import { balanceLow } from './balance-low.js';
import { gas } from './gas.js';
import type { AlertKindModule, FactsSchema } from './kind.js';
import { runwayLow } from './runway-low.js';
import { stuck } from './stuck.js';
import { task } from './task.js';
import { withdrawal } from './withdrawal.js';

/** Every kind of alert. */
export const ALERT_KINDS = [withdrawal, task, gas, stuck, apiDown, apiRecovered, balanceLow, runwayLow] as const;

type Kinds = (typeof ALERT_KINDS)[number];
type NonEmpty<T> = readonly [T, ...T[]];

/** Everything an alert message is built from, kept with the alert so that it can be (re)posted without the API. */
export const AlertFacts = z.discriminatedUnion(
  'kind',
  ALERT_KINDS.map((kind) => kind.facts) as unknown as NonEmpty<Kinds['facts']>,
);
export type AlertFacts = z.infer<typeof AlertFacts>;

type FailureKinds = Extract<Kinds, { failure: true }>;
/** The failures the poller watches (withdrawals, payout tasks, gas top-ups short of donor balance). */
export const FailureFacts = z.discriminatedUnion(
  'kind',
  ALERT_KINDS.filter((kind) => kind.failure).map((kind) => kind.facts) as unknown as NonEmpty<FailureKinds['facts']>,
);
export type FailureFacts = z.infer<typeof FailureFacts>;

/** What the message of an alert about one thing shows (a summary of a flood aside): its kind's subject. */
export type OwnedSubject = ReturnType<NonNullable<Kinds['owned']>['subject']>;

/** The name of a kind (its facts' `kind`). */
export type AlertKindName = AlertFacts['kind'];

/** Any kind of the table, read by name: its facts and subject are the caller's (the table is keyed by them). */
// biome-ignore lint/suspicious/noExplicitAny: one kind's subject, looked up by its facts' kind.
export type AnyAlertKind = AlertKindModule<FactsSchema, string, any, boolean>;

const BY_NAME = new Map<string, AnyAlertKind>(ALERT_KINDS.map((kind) => [kind.facts.shape.kind.value, kind]));

/** The kind of these facts (or of a subject's facts, or a summary's kind). */
export function kindOf(facts: { kind: AlertKindName } | AlertKindName): AnyAlertKind {
  return BY_NAME.get(typeof facts === 'string' ? facts : facts.kind)!;
}

/** The names of the kinds whose module says `which`. */
export function kindNames(which: (kind: AnyAlertKind) => boolean): AlertKindName[] {
  return ALERT_KINDS.filter(which).map((kind) => kind.facts.shape.kind.value);
}

/** How the daily digest names the alerts of a route kind (its kind that says it). */
export function digestLabel(route: string): string {
  return ALERT_KINDS.find((kind) => kind.route === route && kind.digest !== undefined)?.digest ?? route;
}

/** The outbox / alerted key of a failure: one per record, so it is alerted once. */
export function failureKey(kind: FailureFacts['kind'], id: string): string {
  return `${kind}:${id}`;
}
