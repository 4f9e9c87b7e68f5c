// Swap quotes leave the working state 30 days after they ended (features/swaps/retention.ts) and move to the archive
// the audit export reads, the same contract on both stores (the lowdb state file and a real throwaway PostgreSQL):
// nothing that can still change leaves, what left is found by no hot read, and the audit export (its pages and the
// CSV) still lists every quote and its events.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { writeAuditCsv } from '../../src/features/audit/csv.js';
import { auditRows } from '../../src/features/audit/rows.js';
import type { AuditRepository, BotRepositories } from '../../src/features/repositories.js';
import type { AuditEntry, SwapQuote } from '../../src/features/swaps/quote.js';
import { QUOTE_RETENTION_MS, quoteEndedAt } from '../../src/features/swaps/retention.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { readBotStateFile } from '../../src/store/lowdb/read-only.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { swapQuoteRecord } from '../support/fixtures.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('quote_archive');

const NOW = new Date('2026-11-24T09:00:00.000Z');
const DAY = 86_400_000;
const daysAgo = (days: number, plusMinutes = 0) =>
  new Date(NOW.getTime() - days * DAY + plusMinutes * 60_000).toISOString();
const entry = (at: string, event: string, by?: string): AuditEntry => ({ at, event, ...(by ? { by } : {}) });

/** A quote estimated `days` ago, with what happened to it. */
function quote(id: string, days: number, overrides: Partial<SwapQuote> = {}): SwapQuote {
  const at = daysAgo(days);
  return swapQuoteRecord(id, {
    estimatedAt: at,
    expiresAt: daysAgo(days, 30),
    messageTs: '1700000000.000100',
    history: [entry(at, 'quoted', 'U1')],
    ...overrides,
  }) as SwapQuote;
}

/** The quotes of every case: which ones leave when a quote is saved now, and why the others stay. */
function scenario(): { leave: SwapQuote[]; stay: SwapQuote[] } {
  const rejected = quote('old-rejected', 40, {
    status: 'rejected',
    decidedBy: 'U2',
    decidedAt: daysAgo(40, 5),
    history: [entry(daysAgo(40), 'quoted', 'U1'), entry(daysAgo(40, 5), 'rejected', 'U2')],
  });
  const createdFollowed = quote('old-created', 45, {
    status: 'created',
    swapId: 'swap-1',
    swapStatus: 'finished',
    decidedBy: 'U2',
    decidedAt: daysAgo(45, 3),
    followEndedAt: daysAgo(45, 20),
    history: [
      entry(daysAgo(45), 'quoted', 'U1'),
      entry(daysAgo(45, 3), 'approved', 'U2'),
      entry(daysAgo(45, 4), 'swap_created'),
    ],
  });
  const expiredLongAgo = quote('old-expired', 300, {
    status: 'expired',
    history: [entry(daysAgo(300), 'quoted', 'U1'), entry(daysAgo(300, 31), 'expired')],
  });
  // Ended 30 days ago less a minute: not yet past the retention.
  const justInside = quote('inside-retention', 31, {
    status: 'rejected',
    decidedAt: daysAgo(30, 1),
    history: [entry(daysAgo(31), 'quoted', 'U1'), entry(daysAgo(30, 1), 'rejected', 'U2')],
  });
  // Estimated long ago, but "New quote" was claimed on it 10 days ago: it ended then.
  const requotedLately = quote('old-requoted', 40, {
    status: 'expired',
    replacedBy: 'some-successor',
    history: [
      entry(daysAgo(40), 'quoted', 'U1'),
      entry(daysAgo(40, 31), 'expired'),
      entry(daysAgo(10), 'requoted', 'U1'),
    ],
  });
  // Things can still happen to these: they never leave, however old.
  const approving = quote('old-approving', 60, { status: 'approving', decidedAt: daysAgo(60, 2) });
  const stillFollowed = quote('old-following', 60, { status: 'created', swapId: 'swap-2', swapStatus: 'processing' });
  const pending = quote('old-pending', 60);
  const recent = quote('recent-rejected', 1, { status: 'rejected', decidedAt: daysAgo(1, 2) });
  return {
    leave: [rejected, createdFollowed, expiredLongAgo],
    stay: [justInside, requotedLately, approving, stillFollowed, pending, recent],
  };
}

/** Every quote the audit export reads since `since`, page by page (`limit` a page). */
async function auditQuotes(audit: AuditRepository, since: Date, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await audit.listQuotes(since, { ...(after ? { after } : {}), limit });
    ids.push(...page.items.map((q) => q.id));
    if (!page.next) return ids;
    after = page.next;
  }
  throw new Error('the pages never ended');
}

/** The audit CSV of the last 400 days, as `npm run audit` and `/treasury audit` write it. */
async function auditCsv(store: BotRepositories): Promise<Record<string, string>[]> {
  let text = '';
  const out = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  await writeAuditCsv(auditRows(store, { since: new Date(NOW.getTime() - 400 * DAY), until: NOW }), out);
  return parse(text, { columns: true }) as Record<string, string>[];
}

const byEstimate = (quotes: SwapQuote[]) =>
  [...quotes].sort((a, b) => a.estimatedAt.localeCompare(b.estimatedAt) || a.id.localeCompare(b.id)).map((q) => q.id);

describe('when a quote ended', () => {
  it.each([
    ['pending', { status: 'pending' }, undefined],
    ['approving', { status: 'approving' }, undefined],
    ['created and followed', { status: 'created', swapId: 's' }, undefined],
    [
      'created, following ended (no history entry for it)',
      { status: 'created', swapId: 's', followEndedAt: daysAgo(2) },
      daysAgo(2),
    ],
    [
      'rejected: its last entry',
      { status: 'rejected', history: [entry(daysAgo(9), 'quoted'), entry(daysAgo(8), 'rejected')] },
      daysAgo(8),
    ],
    [
      'expired with a damaged time: the times that read',
      { status: 'expired', history: [entry('not a time', 'x'), entry(daysAgo(9, 1), 'expired')] },
      daysAgo(9, 1),
    ],
  ] as const)('%s', (_what, overrides, expected) => {
    const ended = quoteEndedAt({ ...quote('q', 9), ...(overrides as Partial<SwapQuote>) });
    expect(ended?.toISOString()).toBe(expected);
  });
});

describe.each(backends)('old swap quotes leave the working state: $name', (backend) => {
  it.skipIf(backend.skip)(
    'saving a quote moves those ended over 30 days before it to the archive: no hot read finds them, the audit export lists them all',
    async () => {
      const store = await backend.open();
      try {
        const { leave, stay } = scenario();
        for (const q of [...leave, ...stay]) await store.swapQuotes.saveQuote(q);
        const fresh = quote('fresh', 0);
        await store.swapQuotes.saveQuote(fresh);

        for (const q of leave) expect(await store.swapQuotes.getQuote(q.id)).toBeUndefined();
        for (const q of [...stay, fresh]) expect(await store.swapQuotes.getQuote(q.id)).toEqual(q);
        const hot = [...stay, fresh].map((q) => q.id).sort();
        expect((await store.swapQuotes.listRecentQuotes(100)).map((q) => q.id).sort()).toEqual(hot);
        expect((await store.swapQuotes.listQuotesByStatus('rejected')).map((q) => q.id).sort()).toEqual([
          'inside-retention',
          'recent-rejected',
        ]);
        expect(
          (await store.swapQuotes.listQuotesSince(new Date(NOW.getTime() - 400 * DAY))).map((q) => q.id).sort(),
        ).toEqual(hot);
        expect(await store.swapQuotes.archiveEndedQuotes(new Date(NOW.getTime() - QUOTE_RETENTION_MS))).toBe(0);

        // The audit export: every quote, in estimate order, whatever the page size (pages cross the archive).
        const all = byEstimate([...leave, ...stay, fresh]);
        const since = new Date(NOW.getTime() - 400 * DAY);
        expect(await auditQuotes(store.audit, since, 500)).toEqual(all);
        expect(await auditQuotes(store.audit, since, 2)).toEqual(all);
        expect(await auditQuotes(store.audit, since, 1)).toEqual(all);
        expect(await auditQuotes(store.audit, new Date(NOW.getTime() - 50 * DAY), 2)).toEqual(
          all.filter(
            (id) => id !== 'old-expired' && id !== 'old-approving' && id !== 'old-following' && id !== 'old-pending',
          ),
        );
        const archived = (await store.audit.listQuotes(since, { limit: 500 })).items.find(
          (q) => q.id === 'old-created',
        );
        expect(archived).toEqual(leave[1]);

        // The CSV still has the events of the quotes that left.
        const rows = await auditCsv(store);
        const events = (id: string) => rows.filter((row) => row.subject_id === id).map((row) => row.event);
        expect(events('old-rejected')).toEqual(['requested', 'rejected']);
        expect(events('old-created')).toEqual(expect.arrayContaining(['requested', 'approved']));
        expect(events('old-expired').length).toBeGreaterThan(0);

        // As another process sees it (the file reopened; another replica's pool).
        await store.close();
      } catch (error) {
        await store.close();
        throw error;
      }
    },
  );

  it.skipIf(backend.skip)('archiveEndedQuotes moves exactly the quotes ended before the cutoff, once', async () => {
    const store = await backend.open();
    try {
      const { leave, stay: all } = scenario();
      const stay = all.filter((q) => q.id !== 'recent-rejected');
      // Saved oldest first, each saving by its own clock: the 300-day-old quote leaves when the 60-day-old ones come,
      // the others stay (the newest estimate is 31 days old).
      for (const q of [...leave, ...stay].sort((a, b) => a.estimatedAt.localeCompare(b.estimatedAt)))
        await store.swapQuotes.saveQuote(q);
      expect(await store.swapQuotes.getQuote('old-expired')).toBeUndefined();
      expect(await store.swapQuotes.archiveEndedQuotes(new Date(NOW.getTime() - QUOTE_RETENTION_MS))).toBe(2);
      expect(await store.swapQuotes.archiveEndedQuotes(new Date(NOW.getTime() - QUOTE_RETENTION_MS))).toBe(0);
      for (const q of leave) expect(await store.swapQuotes.getQuote(q.id)).toBeUndefined();
      // A far later cutoff moves the rest that ended, never what can still change.
      expect(await store.swapQuotes.archiveEndedQuotes(NOW)).toBe(2);
      expect((await store.swapQuotes.listRecentQuotes(100)).map((q) => q.id).sort()).toEqual([
        'old-approving',
        'old-following',
        'old-pending',
      ]);
      expect(await auditQuotes(store.audit, new Date(NOW.getTime() - 400 * DAY), 3)).toEqual(
        byEstimate([...leave, ...stay]),
      );
      if (store.another) {
        const replica = await store.another();
        try {
          expect(await replica.swapQuotes.getQuote('old-rejected')).toBeUndefined();
          expect(await auditQuotes(replica.audit, new Date(NOW.getTime() - 400 * DAY), 500)).toEqual(
            byEstimate([...leave, ...stay]),
          );
        } finally {
          await replica.close();
        }
      }
    } finally {
      await store.close();
    }
  });
});

describe('the lowdb archive beside the state file', () => {
  const tempFile = () => join(mkdtempSync(join(tmpdir(), 'quote-archive-')), 'state.json');

  it('one append-only file per month of estimate; the state file no longer holds the quotes; a reopen and `npm run audit` read them', async () => {
    const file = tempFile();
    const { leave, stay } = scenario();
    const store = await openBotStore(file);
    for (const q of [...leave, ...stay, quote('fresh', 0)]) await store.swapQuotes.saveQuote(q);
    await store.close();
    expect(
      readdirSync(join(file, '..'))
        .filter((name) => name.includes('.quotes-'))
        .sort(),
    ).toEqual(['state.json.quotes-2026-01.jsonl', 'state.json.quotes-2026-10.jsonl']);
    const onDisk = JSON.parse(readFileSync(file, 'utf8')).swapQuotes;
    for (const q of leave) expect(onDisk[q.id]).toBeUndefined();

    const reopened = await openBotStore(file);
    const all = byEstimate([...leave, ...stay, quote('fresh', 0)]);
    expect(await auditQuotes(reopened.audit, new Date(NOW.getTime() - 400 * DAY), 2)).toEqual(all);
    await reopened.close();
    const readOnly = await readBotStateFile(file);
    expect(await auditQuotes(readOnly.audit, new Date(NOW.getTime() - 400 * DAY), 500)).toEqual(all);
  });

  it('a crash between archiving and the write of the file leaves a quote in both: it is listed once; a torn line costs only itself', async () => {
    const file = tempFile();
    const store = await openBotStore(file);
    const { leave } = scenario();
    const rejected = leave[0]!;
    await store.swapQuotes.saveQuote(rejected);
    // As if archived twice and then the process died before the state file lost it, plus a torn last line.
    const archive = `${file}.quotes-2026-10.jsonl`;
    appendFileSync(archive, `${JSON.stringify(rejected)}\n${JSON.stringify(rejected)}\n{"id":"torn","estim`);
    const ids = await auditQuotes(store.audit, new Date(NOW.getTime() - 400 * DAY), 500);
    expect(ids).toEqual(['old-rejected']);
    await store.close();
    const readOnly = await readBotStateFile(file);
    expect(await auditQuotes(readOnly.audit, new Date(NOW.getTime() - 400 * DAY), 500)).toEqual(['old-rejected']);
    expect(readOnly.damagedArchiveLines()).toBe(1);
  });

  it('a state file from before the archive, holding a year of quotes, sheds the old ones when opened', async () => {
    const file = tempFile();
    const store = await openBotStore(file);
    for (let day = 365; day >= 0; day--)
      await store.update((state) => {
        const q = quote(`q-${day}`, day, {
          status: 'rejected',
          history: [entry(daysAgo(day), 'quoted', 'U1'), entry(daysAgo(day, 2), 'rejected', 'U2')],
        });
        state.swapQuotes[q.id] = q;
      });
    await store.close();
    const reopened = await openBotStore(file);
    expect(Object.keys(reopened.read().swapQuotes)).toHaveLength(31); // days 0..30 ended within the retention
    expect(await auditQuotes(reopened.audit, new Date(NOW.getTime() - 400 * DAY), 500)).toHaveLength(366);
    await reopened.close();
  });
});

describe('PostgreSQL rows written before the archive existed', () => {
  const postgres = backends.find((backend) => backend.name === 'PostgreSQL')!;

  it.skipIf(postgres.skip)(
    'a row with no end time (an older version wrote it) gets one from its record and moves like the others',
    async () => {
      const url = await postgres.emptyDatabase!();
      const store = await openPostgresStore(url);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { leave, stay } = scenario();
        // As an older version wrote them: the four columns it knew, no end time.
        for (const q of [...leave, ...stay])
          await client.query(
            'INSERT INTO swap_quotes (id, status, estimated_at, record) VALUES ($1, $2, $3, $4::json)',
            [q.id, q.status, q.estimatedAt, JSON.stringify(q)],
          );
        expect(await store.swapQuotes.archiveEndedQuotes(new Date(NOW.getTime() - QUOTE_RETENTION_MS))).toBe(3);
        for (const q of leave) expect(await store.swapQuotes.getQuote(q.id)).toBeUndefined();
        for (const q of stay) expect(await store.swapQuotes.getQuote(q.id)).toEqual(q);
        const archived = await client.query<{ id: string; ended_at: Date }>(
          'SELECT id, ended_at FROM swap_quotes_archive ORDER BY id',
        );
        expect(archived.rows.map((row) => [row.id, row.ended_at.toISOString()])).toEqual(
          [...leave].sort((a, b) => a.id.localeCompare(b.id)).map((q) => [q.id, quoteEndedAt(q)!.toISOString()]),
        );
        expect(await auditQuotes(store.audit, new Date(NOW.getTime() - 400 * DAY), 2)).toEqual(
          byEstimate([...leave, ...stay]),
        );
      } finally {
        await client.end();
        await store.close();
      }
    },
  );
});
