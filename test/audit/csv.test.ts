// The audit CSV written by the real writer (csv-stringify) and read back by a real CSV parser (csv-parse):
// hostile text in every field survives RFC 4180 quoting (commas, quotes, CR/LF) and is neutralised against formula
// injection (a leading `'`), while numeric columns stay numbers (a negative amount is not mangled) and stay exact.
// Rows from every source come out sorted by time, read page by page.
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { AlertTrailEntry } from '../../src/features/alerts/trail.js';
import { AUDIT_COLUMNS, type AuditRow, neutraliseFormula } from '../../src/features/audit/csv-rules.js';
import { type AuditSources, auditRows, writeAuditCsv } from '../../src/features/audit/index.js';
import {
  alertRow,
  describePolicySnapshot,
  payoutRows,
  quoteRows,
  thresholdRow,
} from '../../src/features/audit/record-rows.js';
import type { PayoutRequest } from '../../src/features/payouts/rules.js';
import type { Page } from '../../src/features/repositories.js';
import type { SwapQuote } from '../../src/features/swaps/quote.js';
import type { ThresholdChange } from '../../src/features/thresholds/rules.js';

/** Text that breaks naive CSV writers or runs as a formula in a spreadsheet. */
const HOSTILE = [
  'comma, inside',
  'a "quoted" word',
  'two\r\nlines',
  'line\nfeed',
  'carriage\rreturn',
  "=cmd|' /C calc'!A0",
  '+1',
  '-2',
  '@SUM(A1:A9)',
  '\tstarts with a tab',
  '\rstarts with CR',
  '＝HYPERLINK("x")',
  'Zürich ✓ 🚀 中文 "mixed", =end',
] as const;

/** What a text cell holding `text` must read as in a spreadsheet-safe file. */
const safe = (text: string) => (/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(text) ? `'${text}` : text);

async function csvOf(rows: AuditRow[] | AsyncIterable<AuditRow>): Promise<{ text: string; count: number }> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const source =
    Symbol.asyncIterator in rows
      ? rows
      : (async function* () {
          yield* rows;
        })();
  const count = await writeAuditCsv(source, out);
  return { text: Buffer.concat(chunks).toString('utf8'), count };
}

/** The file as records keyed by column, read by csv-parse (strict RFC 4180: every record has every column). */
function readBack(text: string): Record<string, string>[] {
  return parse(text, { columns: true, relax_quotes: false, relax_column_count: false, bom: false });
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute)).toISOString();

function quote(text: string, overrides: Partial<SwapQuote> = {}): SwapQuote {
  return {
    id: text,
    estimateId: text,
    estimatedAt: at(0),
    expiresAt: at(30),
    requestedBy: text,
    channelId: 'C0TREASURY',
    from: { assetId: text, symbol: text, networkSymbol: text, networkTitle: text, decimals: 2 },
    to: { assetId: text, symbol: text, networkSymbol: text, networkTitle: text, decimals: 18 },
    // Negative and huge: written exactly, as numbers.
    amountFrom: '-123',
    estimatedAmount: '123456789012345678901234567890123456789',
    valueUsd: { cents: '-5' },
    policy: {
      tiers: [{ minCents: '0', approvals: 1 }],
      tier: { minCents: '0', approvals: 1 },
      needed: 1,
      approvers: { userIds: [text], groupIds: [] },
      allowSelfApproval: false,
      value: { cents: '-5' },
      fixedAt: at(0),
    },
    routeType: text,
    serviceId: text,
    status: 'created',
    swapId: text,
    history: [
      { at: at(0), event: 'quoted', by: text, detail: text },
      { at: at(1), event: text, by: text, detail: text },
    ],
    ...overrides,
  };
}

function alertEntries(text: string): AlertTrailEntry[] {
  return [
    {
      at: at(2),
      alertKey: text,
      kind: 'withdrawal_failed',
      event: 'posted',
      about: text,
      asset: text,
      amount: '-0.000001',
      amountUnits: '-1',
      usd: '-1234.5',
    },
    { at: at(3), alertKey: text, kind: 'withdrawal_failed', event: 'acknowledged', by: text },
    { at: at(4), alertKey: text, kind: 'withdrawal_failed', event: 'resolved_by_person', by: text, note: text },
  ];
}

function thresholdChange(text: string): ThresholdChange {
  const level = {
    assetId: text,
    measure: 'units' as const,
    below: '5000000',
    symbol: text,
    network: text,
    decimals: 6,
  };
  return { at: at(5), by: text, action: 'set', assetId: text, threshold: level, previous: { ...level, below: '1' } };
}

function payout(text: string): PayoutRequest {
  return {
    id: text,
    requestedBy: text,
    requestedAt: at(6),
    channelId: 'C0TREASURY',
    asset: { assetId: text, symbol: text, networkSymbol: text, networkTitle: text, decimals: 6 },
    name: text,
    status: 'created',
    confirmedBy: text,
    confirmedAt: at(7),
    payoutId: text,
    history: [
      { at: at(6), event: 'requested', by: text },
      { at: at(7), event: 'confirmed', by: text },
      { at: at(8), event: 'created', detail: text },
    ],
  };
}

describe('the audit CSV', () => {
  it('has the documented header and RFC 4180 line ends (CRLF), one row per event', async () => {
    const rows = [...quoteRows(quote('Q1')), ...alertEntries('A1').map(alertRow)];
    const { text, count } = await csvOf(rows);
    expect(count).toBe(5);
    expect(text.startsWith(`${AUDIT_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    // Every line end outside quotes is CRLF: 1 header + 5 rows.
    expect(text.split('\r\n')).toHaveLength(7);
    expect(AUDIT_COLUMNS).toEqual([
      'time',
      'category',
      'event',
      'subject_id',
      'actor',
      'asset',
      'amount',
      'amount_units',
      'usd_value',
      'to_asset',
      'to_amount',
      'policy',
      'status',
      'swap_id',
      'payout_id',
      'detail',
      'second_factor',
    ]);
  });

  it.each(HOSTILE)('keeps %j intact in every text field, neutralised, and numbers as numbers', async (text) => {
    const rows = [
      ...quoteRows(quote(text)),
      ...alertEntries(text).map(alertRow),
      thresholdRow(thresholdChange(text)),
      ...payoutRows(payout(text), new Date(at(9))),
    ];
    const { text: csv } = await csvOf(rows);
    const records = readBack(csv);
    expect(records).toHaveLength(rows.length);
    for (const record of records) expect(Object.keys(record)).toEqual([...AUDIT_COLUMNS]);
    const [requested, other, posted, acknowledged, resolved, threshold, payoutRequested, confirmed, created] = records;

    // A swap quote: who asked, the amounts exactly (negative and 39 digits), the USD value, the policy applied.
    expect(requested).toMatchObject({
      time: at(0),
      category: 'swap_quote',
      event: 'requested',
      subject_id: safe(text),
      actor: safe(text),
      asset: safe(`${text}@${text}`),
      amount: '-1.23',
      amount_units: '-123',
      usd_value: '-0.05',
      to_asset: safe(`${text}@${text}`),
      to_amount: '123456789012345678901.234567890123456789',
      status: safe('created'),
      swap_id: safe(text),
      payout_id: '',
      detail: safe(text),
    });
    expect(requested!.policy).toContain(`approvers: ${text}`);
    expect(requested!.policy).toMatch(/^needs 1 approval from distinct approvers/);
    expect(other).toMatchObject({ event: safe(text), actor: safe(text), detail: safe(text) });

    // An alert's life: posted (what it was about, its amount), acknowledged, resolved with a note, by whom.
    expect(posted).toMatchObject({
      time: at(2),
      category: 'alert',
      event: 'posted',
      subject_id: safe(text),
      asset: safe(text),
      amount: '-0.000001',
      amount_units: '-1',
      usd_value: '-1234.5',
      status: 'open',
      detail: `withdrawal_failed: ${text}`,
    });
    expect(acknowledged).toMatchObject({ event: 'acknowledged', actor: safe(text), status: 'acknowledged' });
    expect(resolved).toMatchObject({ event: 'resolved_by_person', actor: safe(text), detail: safe(text) });

    // A threshold change: who, the new level (a number) and the old one.
    expect(threshold).toMatchObject({
      category: 'threshold',
      event: 'set',
      subject_id: safe(text),
      actor: safe(text),
      asset: safe(`${text}@${text}`),
      amount: '5',
      amount_units: '5000000',
      detail: `below 5 ${text} (was below 0.000001 ${text})`,
    });

    // A payout container: requested (its name), confirmed, created with its id.
    expect(payoutRequested).toMatchObject({ event: 'requested', actor: safe(text), detail: `name: ${text}` });
    expect(confirmed).toMatchObject({ event: 'confirmed', actor: safe(text), payout_id: safe(text) });
    expect(created).toMatchObject({ event: 'created', actor: '', payout_id: safe(text), detail: safe(text) });
  });

  it('neutralises exactly the formula starts OWASP lists (and their full-width forms)', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'])
      expect(neutraliseFormula(`${start}x`)).toBe(`'${start}x`);
    for (const plain of ['x=1', ' =1', "'=1", '1-2', '', 'Ω']) expect(neutraliseFormula(plain)).toBe(plain);
  });

  it('never writes a damaged amount as a number: its column stays empty and detail says what was recorded', async () => {
    const rows = quoteRows(quote('Q2', { amountFrom: '=1+1', history: [{ at: at(0), event: 'quoted' }] }));
    const [record] = readBack((await csvOf(rows)).text);
    expect(record).toMatchObject({ amount: '', amount_units: '' });
    expect(record!.detail).toBe('amount as recorded: =1+1; amount_units as recorded: =1+1');
  });
});

/** An in-memory store that hands out its records a page at a time (cursor: the next index). */
function pagedSources(data: {
  quotes?: SwapQuote[];
  trail?: AlertTrailEntry[];
  thresholds?: ThresholdChange[];
  payouts?: PayoutRequest[];
}): AuditSources & { pagesRead: number } {
  const sources = {
    pagesRead: 0,
    audit: {
      listQuotes: async (since: Date, page: { after?: string; limit: number }) =>
        pageOf(
          (data.quotes ?? []).filter((q) => Date.parse(q.estimatedAt) > since.getTime()),
          page,
          () => sources.pagesRead++,
        ),
      listAlertTrail: async (since: Date, page: { after?: string; limit: number }) =>
        pageOf(
          (data.trail ?? []).filter((e) => Date.parse(e.at) >= since.getTime()),
          page,
          () => sources.pagesRead++,
        ),
    },
    balances: { listThresholdChanges: async () => data.thresholds ?? [] },
    payouts: { listRequestsSince: async () => data.payouts ?? [] },
  };
  return sources;
}

function pageOf<T>(items: T[], page: { after?: string; limit: number }, count: () => void): Page<T> {
  count();
  const from = page.after === undefined ? 0 : Number(page.after);
  const slice = items.slice(from, from + page.limit);
  return { items: slice, ...(from + page.limit < items.length ? { next: String(from + page.limit) } : {}) };
}

async function collect(rows: AsyncIterable<AuditRow>): Promise<AuditRow[]> {
  const all: AuditRow[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

describe('the rows of a period', () => {
  const entry = (minute: number, event: string, by?: string) => ({ at: at(minute), event, ...(by ? { by } : {}) });

  it('merges every source into one stream sorted by time, reading quotes and the trail page by page', async () => {
    const sources = pagedSources({
      quotes: [
        // Asked before the others, approved last: its approval waits for its turn.
        quote('early', {
          estimatedAt: at(10),
          history: [entry(10, 'quoted', 'U1'), entry(40, 'approved', 'U2'), entry(41, 'swap_created')],
        }),
        quote('later', { estimatedAt: at(15), history: [entry(15, 'quoted', 'U3'), entry(16, 'rejected', 'U2')] }),
        quote('third', { estimatedAt: at(20), history: [entry(20, 'quoted', 'U3')] }),
      ],
      trail: [
        { at: at(12), alertKey: 'withdrawal:1', kind: 'withdrawal_failed', event: 'posted', about: 'w1' },
        { at: at(30), alertKey: 'withdrawal:1', kind: 'withdrawal_failed', event: 'acknowledged', by: 'U4' },
      ],
      thresholds: [thresholdChange('T')].map((c) => ({ ...c, at: at(11) })),
      payouts: [
        { ...payout('P'), requestedAt: at(13), history: [entry(13, 'requested', 'U5'), entry(42, 'cancelled', 'U5')] },
      ],
    });
    const rows = await collect(
      auditRows(sources, { since: new Date(at(0)), until: new Date(at(59)) }, /* page size */ 1),
    );
    expect(rows.map((row) => [new Date(row.at).toISOString().slice(11, 16), row.category, row.event])).toEqual([
      ['09:10', 'swap_quote', 'requested'],
      ['09:11', 'threshold', 'set'],
      ['09:12', 'alert', 'posted'],
      ['09:13', 'payout', 'requested'],
      ['09:15', 'swap_quote', 'requested'],
      ['09:16', 'swap_quote', 'rejected'],
      ['09:20', 'swap_quote', 'requested'],
      ['09:30', 'alert', 'acknowledged'],
      ['09:40', 'swap_quote', 'approved'],
      ['09:41', 'swap_quote', 'swap_created'],
      ['09:42', 'payout', 'cancelled'],
    ]);
    // One quote and one trail entry a page, plus the last (empty or short) pages: never everything at once.
    expect(sources.pagesRead).toBeGreaterThanOrEqual(5);
  });

  it('keeps the events inside the period: an approval in it of a quote asked for just before it is there', async () => {
    const sources = pagedSources({
      quotes: [
        quote('before', {
          estimatedAt: at(0),
          history: [entry(0, 'quoted', 'U1'), entry(20, 'approved', 'U2')],
        }),
      ],
      trail: [{ at: at(50), alertKey: 'k', kind: 'stuck', event: 'posted', about: 'late' }],
    });
    const rows = await collect(auditRows(sources, { since: new Date(at(10)), until: new Date(at(45)) }));
    expect(rows.map((row) => row.event)).toEqual(['approved']);
  });
});

describe("the policy on a quote's audit row", () => {
  it("records the requester's 24-hour window the tier was judged on", () => {
    const window = { count: 1, priorCents: '600000', totalCents: '1200000' };
    const policy = {
      tiers: [
        { minCents: '0', approvals: 1 },
        { minCents: '1000000', approvals: 2 },
      ],
      tier: { minCents: '1000000', approvals: 2 },
      needed: 2,
      approvers: { userIds: ['U0A'], groupIds: [] },
      allowSelfApproval: false,
      value: { cents: '600000' },
      window,
      fixedAt: '2026-11-24T10:00:00.000Z',
    };
    expect(describePolicySnapshot(policy)).toContain(
      "needs 2 approvals from distinct approvers (tier from $10000.00); with the requester's $6000.00 in 1 other swaps of the last 24 hours: total $12000.00",
    );
    expect(describePolicySnapshot({ ...policy, window: { count: 2, unknown: 'x' } })).toContain(
      "with the requester's 2 other swaps of the last 24 hours: total unknown",
    );
  });
});
