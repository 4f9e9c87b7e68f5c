/**
 * The audit trail as one stream of rows sorted by time across its sources: swap quotes and the alert trail
 * read page by page, the threshold trail and payout requests (bounded by their 400 days). Nothing holds the whole
 * export: each source yields its rows in time order, holding only the rows of records still in flight, and the
 * streams are merged.
 */

import type { AlertTrailEntry } from '../alerts/trail.js';
import type { PayoutRequest } from '../payouts/rules.js';
import type {
  AuditRepository,
  BalanceRepository,
  FreezeRepository,
  Page,
  SecondFactorRepository,
} from '../repositories.js';
import type { SwapQuote } from '../swaps/quote.js';
import type { AuditRow } from './csv-rules.js';
import { alertRow, freezeRow, payoutRows, quoteRows, secondFactorRow, thresholdRow } from './record-rows.js';

/** What the export reads. */
export interface AuditSources {
  audit: AuditRepository;
  balances: Pick<BalanceRepository, 'listThresholdChanges'>;
  payouts: { listRequestsSince(since: Date): Promise<PayoutRequest[]> };
  /** The freeze's trail (absent in a reader that has none: no freeze rows). */
  freeze?: Pick<FreezeRepository, 'listFreezeTrail'>;
  /** The second factor's trail (absent in a reader that has none: no second_factor rows). */
  secondFactor?: Pick<SecondFactorRepository, 'listSecondFactorTrail'>;
}

/** The period exported: events at or after `since`, up to `until`. */
export interface AuditPeriod {
  since: Date;
  until: Date;
}

/**
 * How long after its request a quote or payout request can still have events: a quote's estimate lives 30 minutes
 * and its swap is followed 30 minutes more. Records made up to this long before the
 * period are read, so an approval inside the period of a quote asked for just before it is not lost.
 */
const RECORD_EVENT_SPAN_MS = 24 * 3_600_000;
/**
 * Events of one record may carry times a little before the record's own (replicas' clocks differ): a row is held
 * until the records read reach this far past it, so the output stays in time order.
 */
const CLOCK_SLACK_MS = 10 * 60_000;
/** Records per page read from the store. */
const AUDIT_PAGE_SIZE = 500;

/** A min-heap of rows by time, ties in the order they came (so the output is stable). */
class RowHeap {
  private readonly items: { row: AuditRow; n: number }[] = [];
  private count = 0;
  get size(): number {
    return this.items.length;
  }
  peek(): AuditRow | undefined {
    return this.items[0]?.row;
  }
  push(row: AuditRow): void {
    const items = this.items;
    items.push({ row, n: this.count++ });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }
  pop(): AuditRow | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined) return undefined;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && this.before(items[left]!, items[smallest]!)) smallest = left;
        if (right < items.length && this.before(items[right]!, items[smallest]!)) smallest = right;
        if (smallest === i) break;
        [items[i], items[smallest]] = [items[smallest]!, items[i]!];
        i = smallest;
      }
    }
    return top.row;
  }
  private before(a: { row: AuditRow; n: number }, b: { row: AuditRow; n: number }): boolean {
    return a.row.at < b.row.at || (a.row.at === b.row.at && a.n < b.n);
  }
}

/**
 * Rows of records that come in order of their start (a quote's estimate, a request's time), each record's events at
 * or after its start: rows wait in a heap until the records read have passed them, then leave in time order.
 */
async function* inTimeOrder<T>(
  records: AsyncIterable<T>,
  startOf: (record: T) => number,
  rowsOf: (record: T) => AuditRow[],
  period: AuditPeriod,
): AsyncGenerator<AuditRow> {
  const held = new RowHeap();
  for await (const record of records) {
    const start = startOf(record);
    while (held.size > 0 && held.peek()!.at < start - CLOCK_SLACK_MS) yield held.pop()!;
    for (const row of rowsOf(record)) if (within(row, period)) held.push(row);
  }
  while (held.size > 0) yield held.pop()!;
}

function within(row: AuditRow, period: AuditPeriod): boolean {
  return row.at >= period.since.getTime() && row.at <= period.until.getTime();
}

/** Every item of a paged listing, a page at a time. */
async function* pages<T>(read: (after: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  let after: string | undefined;
  do {
    const page = await read(after);
    yield* page.items;
    after = page.next;
  } while (after !== undefined);
}

async function* quoteRowsOf(sources: AuditSources, period: AuditPeriod, pageSize: number): AsyncGenerator<AuditRow> {
  const from = new Date(period.since.getTime() - RECORD_EVENT_SPAN_MS);
  yield* inTimeOrder<SwapQuote>(
    pages((after) => sources.audit.listQuotes(from, { after, limit: pageSize })),
    (quote) => Date.parse(quote.estimatedAt),
    quoteRows,
    period,
  );
}

async function* alertRowsOf(sources: AuditSources, period: AuditPeriod, pageSize: number): AsyncGenerator<AuditRow> {
  // The trail is read in time order already.
  for await (const entry of pages<AlertTrailEntry>((after) =>
    sources.audit.listAlertTrail(period.since, { after, limit: pageSize }),
  )) {
    const row = alertRow(entry);
    if (within(row, period)) yield row;
  }
}

async function* thresholdRowsOf(sources: AuditSources, period: AuditPeriod): AsyncGenerator<AuditRow> {
  // At most 400 days of changes made by hand: small.
  const rows = (await sources.balances.listThresholdChanges(period.since)).map(thresholdRow);
  yield* rows.filter((row) => within(row, period)).sort((a, b) => a.at - b.at);
}

async function* payoutRowsOf(sources: AuditSources, period: AuditPeriod): AsyncGenerator<AuditRow> {
  // Every request kept (400 days, made by hand: few), sorted whole: an unconfirmed proposal is marked expired, or a
  // stuck send unknown, only when someone clicks it again, which may be days after it was made.
  const requests = await sources.payouts.listRequestsSince(new Date(0));
  yield* requests
    .flatMap((request) => payoutRows(request, period.until))
    .filter((row) => within(row, period))
    .sort((a, b) => a.at - b.at);
}

async function* freezeRowsOf(sources: AuditSources, period: AuditPeriod): AsyncGenerator<AuditRow> {
  // Pulled and lifted by hand, 400 days kept: small, and in time order already.
  const trail = (await sources.freeze?.listFreezeTrail(period.since, period.until)) ?? [];
  yield* trail
    .map(freezeRow)
    .filter((row) => within(row, period))
    .sort((a, b) => a.at - b.at);
}

async function* secondFactorRowsOf(sources: AuditSources, period: AuditPeriod): AsyncGenerator<AuditRow> {
  // Enrolments, resets, wrong codes and locks: few, kept 400 days, read at once.
  const trail = (await sources.secondFactor?.listSecondFactorTrail(period.since)) ?? [];
  yield* trail
    .map(secondFactorRow)
    .filter((row) => within(row, period))
    .sort((a, b) => a.at - b.at);
}

/** Merges streams that are each in time order into one (ties: the earlier stream first). */
async function* merged(streams: AsyncGenerator<AuditRow>[]): AsyncGenerator<AuditRow> {
  try {
    const heads = await Promise.all(streams.map((stream) => stream.next()));
    for (;;) {
      let pick = -1;
      for (const [i, head] of heads.entries()) {
        if (head.done) continue;
        if (pick === -1 || head.value.at < (heads[pick]!.value as AuditRow).at) pick = i;
      }
      if (pick === -1) return;
      yield heads[pick]!.value as AuditRow;
      heads[pick] = await streams[pick]!.next();
    }
  } finally {
    // A failed read or a reader that stopped (the file could not be written): the other sources stop reading too.
    await Promise.allSettled(streams.map((stream) => stream.return(undefined)));
  }
}

/**
 * Every event of the period, one row each, sorted by time across swap quotes, alerts, threshold changes and payout
 * requests. Rows with a time that cannot be read (a damaged record) are left out of the period, as they cannot be
 * placed in it.
 */
export function auditRows(
  sources: AuditSources,
  period: AuditPeriod,
  pageSize = AUDIT_PAGE_SIZE,
): AsyncGenerator<AuditRow> {
  return merged([
    quoteRowsOf(sources, period, pageSize),
    alertRowsOf(sources, period, pageSize),
    thresholdRowsOf(sources, period),
    payoutRowsOf(sources, period),
    freezeRowsOf(sources, period),
    secondFactorRowsOf(sources, period),
  ]);
}
