// The alert trail and the audit export's reads, the same contract on both stores (the lowdb state file and
// a real throwaway PostgreSQL): every change of an alert people own leaves its entry in the same atomic change, the
// entries outlive the alert (pruned from the hot state 7 days after it was resolved) and its thread lines, 400 days
// are kept, and the export reads the trail and the quotes page by page. Read-only opening for `npm run audit`.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acknowledgeAlert,
  resolveAlertByFacts,
  resolveAlertByPerson,
  retireAlert,
  snoozeAlert,
} from '../../src/features/alerts/lifecycle.js';
import { appendEvent } from '../../src/features/alerts/owned.js';
import type { OutboxItem } from '../../src/features/alerts/records.js';
import type { AlertTrailEntry } from '../../src/features/alerts/trail.js';
import type { AlertRepository, AuditRepository } from '../../src/features/repositories.js';
import type { SwapQuote } from '../../src/features/swaps/quote.js';
import { pruneOwned } from '../../src/store/alert-changes.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { readBotStateFile } from '../../src/store/lowdb/read-only.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { failedWithdrawalFacts, swapQuoteRecord } from '../support/fixtures.js';
import { testCluster } from '../support/postgres.js';

const postgres = testCluster('audit');

interface Opened {
  alerts: AlertRepository;
  swapQuotes: { saveQuote(quote: SwapQuote): Promise<void> };
  audit: AuditRepository;
  /** The store as a later process sees it (the file reopened; a second connection pool). */
  reopen(): Promise<Omit<Opened, 'reopen'>>;
  close(): Promise<void>;
}

const backends: { name: string; skip: boolean; open(): Promise<Opened> }[] = [
  {
    name: 'lowdb state file',
    skip: false,
    open: async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'audit-trail-')), 'state.json');
      let store = await openBotStore(file);
      return {
        alerts: store.alerts,
        swapQuotes: store.swapQuotes,
        audit: store.audit,
        async reopen() {
          await store.close();
          store = await openBotStore(file);
          return store;
        },
        close: () => store.close(),
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgres.available,
    open: async () => {
      const url = await postgres.createDatabase();
      const store = await openPostgresStore(url);
      const later: { close(): Promise<void> }[] = [];
      return {
        alerts: store.alerts,
        swapQuotes: store.swapQuotes,
        audit: store.audit,
        async reopen() {
          const again = await openPostgresStore(url);
          later.push(again);
          return again;
        },
        async close() {
          for (const other of later) await other.close();
          await store.close();
        },
      };
    },
  },
];

const T0 = new Date('2026-11-24T09:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const DAY = 86_400_000;
const act = (userId: string, at: Date, seenVersion: number) => ({ userId, at, seenVersion });

function item(i: number): OutboxItem {
  const facts = failedWithdrawalFacts(i, T0);
  return { key: `withdrawal:${facts.id}`, queuedAt: T0.toISOString(), facts };
}

/** Posts alert `i` (Slack accepted it) and answers its key. */
async function post(alerts: AlertRepository, i: number, at = T0): Promise<string> {
  const outbox = item(i);
  await alerts.commitPoll((state) => {
    state.outbox.push(outbox);
  });
  await alerts.recordDelivered([outbox], at, { key: outbox.key, channel: 'C0ALERTS', ts: `1700000000.00010${i}` });
  return outbox.key;
}

async function everyEntry(audit: AuditRepository, since = new Date(0)): Promise<AlertTrailEntry[]> {
  const all: AlertTrailEntry[] = [];
  let after: string | undefined;
  do {
    const page = await audit.listAlertTrail(since, { after, limit: 2 });
    all.push(...page.items);
    after = page.next;
  } while (after !== undefined);
  return all;
}

describe.each(backends)('the alert trail: $name', (backend) => {
  it.skipIf(backend.skip)(
    "keeps an alert's whole life after the alert and its thread lines have left the hot state",
    async () => {
      const store = await backend.open();
      try {
        const { alerts } = store;
        const key = await post(alerts, 1);
        const version = () => alerts.readAlerts().then((state) => state.owned![key]!.life.version);
        await alerts.actOnAlert(key, (alert) => acknowledgeAlert(alert.life, act('U0AVERY', minutes(5), 0)));
        await alerts.actOnAlert(key, (alert) =>
          snoozeAlert(alert.life, act('U0BLAKE', minutes(6), alert.life.version), minutes(66)),
        );
        // A refused act changes nothing, so it leaves nothing in the trail.
        const refused = await alerts.actOnAlert(key, (alert) =>
          resolveAlertByPerson(alert.life, act('U0BLAKE', minutes(7), alert.life.version + 5), 'stale', true),
        );
        expect(refused).toMatchObject({ ok: false, refusal: { reason: 'outdated' } });
        await alerts.actOnAlert(key, (alert) =>
          resolveAlertByPerson(
            alert.life,
            act('U0AVERY', minutes(8), alert.life.version),
            'Refunded, "ok", =1+1',
            true,
          ),
        );
        expect(await version()).toBe(3);

        // Slack shows everything: each thread line leaves the record, then the resolved alert leaves the hot state.
        for (const seq of [1, 2, 3]) await alerts.recordThreadLine(key, seq, 'posted');
        await alerts.recordShown(key, 3);
        await alerts.commitPoll((state) => pruneOwned(state, new Date(minutes(8).getTime() + 7 * DAY + 1)));
        expect((await alerts.readAlerts()).owned?.[key]).toBeUndefined();

        const later = await store.reopen();
        const trail = await everyEntry(later.audit);
        expect(trail.map((entry) => [entry.event, entry.at, entry.by])).toEqual([
          ['posted', T0.toISOString(), undefined],
          ['acknowledged', minutes(5).toISOString(), 'U0AVERY'],
          ['snoozed', minutes(6).toISOString(), 'U0BLAKE'],
          ['resolved_by_person', minutes(8).toISOString(), 'U0AVERY'],
        ]);
        expect(trail[0]).toMatchObject({
          alertKey: key,
          kind: 'withdrawal_failed',
          asset: 'USDT@ETH',
          amount: '1.5',
          amountUnits: '1500000',
          usd: '1.50',
          channel: 'C0ALERTS',
        });
        expect(trail[0]!.about).toMatch(/^withdrawal 00000000-0000-4000-8000-000000000001 failed \(to 0x/);
        expect(trail[2]!.until).toBe(minutes(66).toISOString());
        expect(trail[3]!.note).toBe('Refunded, "ok", =1+1');
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)(
    'records what the poll decides: resolved by the facts, retired; only from `since`',
    async () => {
      const store = await backend.open();
      try {
        const { alerts, audit } = store;
        const first = await post(alerts, 1);
        const second = await post(alerts, 2, minutes(1));
        await alerts.commitPoll((state) => {
          const resolved = resolveAlertByFacts(state.owned![first]!.life, minutes(10), 'the withdrawal succeeded');
          state.owned![first]!.life = resolved!.life;
          appendEvent(state.owned![first]!, resolved!.event);
          const retired = retireAlert(state.owned![second]!.life, minutes(11), 200);
          state.owned![second]!.life = retired!.life;
          appendEvent(state.owned![second]!, retired!.event);
        });
        const trail = await everyEntry(audit, minutes(5));
        expect(trail.map((entry) => [entry.alertKey, entry.event, entry.reason])).toEqual([
          [first, 'resolved_by_facts', 'the withdrawal succeeded'],
          [second, 'retired', 'more than 200 alerts were open at once; nobody marked it handled'],
        ]);
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)('keeps 400 days: older entries leave when a newer one is written', async () => {
    const store = await backend.open();
    try {
      const { alerts, audit } = store;
      const key = await post(alerts, 1);
      await alerts.actOnAlert(key, (alert) =>
        acknowledgeAlert(alert.life, act('U0AVERY', new Date(T0.getTime() + 401 * DAY), 0)),
      );
      expect((await everyEntry(audit)).map((entry) => entry.event)).toEqual(['acknowledged']);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('hands out swap quotes estimated after `since` page by page, oldest first', async () => {
    const store = await backend.open();
    try {
      for (const [id, minute] of [
        ['q-c', 3],
        ['q-a', 1],
        ['q-b', 1],
        ['q-old', -10],
      ] as const)
        await store.swapQuotes.saveQuote(swapQuoteRecord(id, { estimatedAt: minutes(minute).toISOString() }));
      const ids: string[][] = [];
      let after: string | undefined;
      do {
        const page = await store.audit.listQuotes(T0, { after, limit: 2 });
        ids.push(page.items.map((quote) => quote.id));
        after = page.next;
      } while (after !== undefined);
      expect(ids.flat()).toEqual(['q-a', 'q-b', 'q-c']);
      expect(ids[0]).toEqual(['q-a', 'q-b']);
    } finally {
      await store.close();
    }
  });
});

describe('reading for `npm run audit`', () => {
  it('reads the state file as it is while the bot holds it (no lock taken), and sets damaged entries aside', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-read-')), 'state.json');
    const bot = await openBotStore(file);
    try {
      const key = await post(bot.alerts, 1);
      const state = await readBotStateFile(file);
      expect((await everyEntry(state.audit)).map((entry) => [entry.alertKey, entry.event])).toEqual([[key, 'posted']]);
      expect(state.damagedRecords).toBe(0);
    } finally {
      await bot.close();
    }
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.alertTrail.push({ seq: 2, at: 'x' });
    writeFileSync(file, JSON.stringify(raw));
    const damaged = await readBotStateFile(file);
    expect(damaged.damagedRecords).toBe(1);
    expect(await everyEntry(damaged.audit)).toHaveLength(1);
    await expect(readBotStateFile(join(tmpdir(), 'no-such-dir', 'state.json'))).rejects.toThrow(
      /there is no state file at .*state\.json \(DATA_FILE\)/,
    );
  });

  it.skipIf(!postgres.available)(
    'opens PostgreSQL read-only: no migration, no write, and a database behind is refused',
    async () => {
      const fresh = await postgres.createDatabase();
      await expect(openPostgresStore(fresh, { readOnly: true })).rejects.toThrow(
        /lacks schema step\(s\) 1, 2, .*start the bot of this version once/,
      );
      const migrated = await openPostgresStore(fresh);
      const key = await post(migrated.alerts, 1);
      await migrated.close();
      const reader = await openPostgresStore(fresh, { readOnly: true });
      try {
        expect((await everyEntry(reader.audit)).map((entry) => entry.alertKey)).toEqual([key]);
        await expect(post(reader.alerts, 2)).rejects.toThrow(/read-only transaction/);
      } finally {
        await reader.close();
      }
    },
  );
});
