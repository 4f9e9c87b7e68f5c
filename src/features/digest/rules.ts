/**
 * What the daily digest counts, as plain rules over the records the bot keeps: the alerts of the last
 * 24 hours by kind, the alerts still open, and what happened to swap quotes. Pure: the clock is an argument. When
 * the digest is due (DIGEST_AT, time zones) is in features/digest/schedule.ts.
 */

import type { OwnedAlert } from '../alerts/records.js';
import { ROUTE_KINDS, type RouteKind } from '../alerts/routing.js';
import type { SwapQuote } from '../swaps/quote.js';

/** DIGEST_AT: a wall-clock time in an IANA time zone (`09:00 Europe/Berlin`). */
export interface DigestTime {
  hour: number;
  minute: number;
  /** Canonical IANA name (`Europe/Berlin`). */
  timeZone: string;
}

/** DIGEST_AT as it is written: `09:00 Europe/Berlin`. */
export function formatDigestTime(time: DigestTime): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')} ${time.timeZone}`;
}

/** What the digest looks back on: the 24 hours before it is composed. */
const DIGEST_WINDOW_MS = 24 * 60 * 60_000;

/** The metadata event type of the digest message (its payload's `key` is digestKey(day)). */
export const DIGEST_EVENT_TYPE = 'treasury_digest';

/** Whether `at` (ISO) lies in the digest's window, (now − 24 h, now]. */
function inWindow(at: string | undefined, now: Date): boolean {
  if (at === undefined) return false;
  const t = Date.parse(at);
  return t > now.getTime() - DIGEST_WINDOW_MS && t <= now.getTime();
}

/** How many alerts of one kind the last 24 hours brought. */
export interface KindCount {
  kind: RouteKind;
  count: number;
}

/**
 * The alerts posted in the last 24 hours, by kind (in the order of ROUTE_KINDS, kinds with none left out): each
 * alert people own counts one, a flood summary counts every failure it covers. What was told in the thread of an
 * alert already open (the same gas address short again, a stuck row that then failed) is not counted again, and
 * "the payment API answers again" notes are not alerts.
 */
export function alertsByKind(owned: readonly OwnedAlert[], now: Date): KindCount[] {
  const counts = new Map<RouteKind, number>();
  for (const alert of owned) {
    if (!inWindow(alert.postedAt, now)) continue;
    const covers = alert.subject.type === 'summary' ? alert.subject.total : 1;
    counts.set(alert.kind, (counts.get(alert.kind) ?? 0) + covers);
  }
  return ROUTE_KINDS.filter((kind) => counts.has(kind)).map((kind) => ({ kind, count: counts.get(kind)! }));
}

/** The alerts nobody has resolved yet, oldest first (by when they were posted, then key). */
export function openAlerts(owned: readonly OwnedAlert[]): OwnedAlert[] {
  return owned
    .filter((alert) => alert.life.state !== 'resolved')
    .sort((a, b) => (a.postedAt === b.postedAt ? (a.key < b.key ? -1 : 1) : a.postedAt < b.postedAt ? -1 : 1));
}

/** What happened to swap quotes: waiting now, and decided, expired or finished in the last 24 hours. */
export interface QuoteCounts {
  /** Pending and not yet expired at `now`. */
  waiting: number;
  /** Approved (the quorum reached, so a swap/create was sent) in the last 24 hours. */
  approved: number;
  /** Rejected by a person in the last 24 hours. */
  rejected: number;
  /** Ran out of time (or could not be posted) in the last 24 hours. */
  expired: number;
  /** Swaps the payment service reported `finished` in the last 24 hours. */
  swapsFinished: number;
}

const APPROVED = new Set<SwapQuote['status']>(['approving', 'created', 'create_failed', 'outcome_unknown']);

/**
 * Counts the quotes. `quotes` must hold every quote estimated since DIGEST_QUOTES_LOOKBACK_MS before `now`: a swap
 * is followed for at most an hour after its estimate (30 minutes to approve, 30 minutes of following).
 */
export function countQuotes(quotes: readonly SwapQuote[], now: Date): QuoteCounts {
  const counts: QuoteCounts = { waiting: 0, approved: 0, rejected: 0, expired: 0, swapsFinished: 0 };
  for (const quote of quotes) {
    if (quote.status === 'pending' && Date.parse(quote.expiresAt) > now.getTime()) counts.waiting += 1;
    if (APPROVED.has(quote.status) && inWindow(quote.decidedAt, now)) counts.approved += 1;
    if (quote.status === 'rejected' && inWindow(quote.decidedAt, now)) counts.rejected += 1;
    // A pending quote past its time is expired too, before the sweep marks it. One that could not be posted
    // expired at once: its expiresAt may still be ahead, so it counts from its estimate.
    const lapsed = Date.parse(quote.expiresAt) <= now.getTime();
    if (quote.status === 'expired' || (quote.status === 'pending' && lapsed))
      if (inWindow(lapsed ? quote.expiresAt : quote.estimatedAt, now)) counts.expired += 1;
    if (quote.swapStatus === 'finished' && inWindow(quote.followEndedAt ?? quote.decidedAt, now))
      counts.swapsFinished += 1;
  }
  return counts;
}

/** How far back the quotes countQuotes needs were estimated: the window plus the hour a swap may take. */
export const DIGEST_QUOTES_LOOKBACK_MS = DIGEST_WINDOW_MS + 60 * 60_000;
