// The alert repository's counting read (the treasury_alerts_open gauge at every scrape), on both stores: equal to
// counting the whole bookkeeping read back (openAlertCounts over readAlerts) on a mixed history of owned alerts,
// snoozes that run or ran out at `now` included. And an outbox item keeps the API's time of its change (changedAt)
// while one without it (written before) loads as it was.
import { describe, expect, it } from 'vitest';
import { type AlertLife, openAlertLife } from '../../src/features/alerts/lifecycle.js';
import { openAlertCounts } from '../../src/features/alerts/owned.js';
import type { OwnedAlert } from '../../src/features/alerts/records.js';
import { failedWithdrawalFacts } from '../support/fixtures.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('open_counts');

const T0 = new Date('2026-11-28T09:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000).toISOString();

function owned(n: number, life: Partial<AlertLife>): OwnedAlert {
  const key = `withdrawal:${n}`;
  return {
    key,
    kind: 'withdrawal_failed',
    objects: [key],
    channel: 'C0ALERTS',
    ts: `1700000000.${String(n).padStart(6, '0')}`,
    postedAt: T0.toISOString(),
    subject: { type: 'failure', facts: failedWithdrawalFacts(n, T0) },
    life: { ...openAlertLife(T0), ...life },
    shown: 0,
    thread: [],
    nextSeq: 1,
  };
}

/** A history of every life an owned alert can have at `now` = T0 + 60 min, `copies` of each. */
function mixedHistory(copies: number): Record<string, OwnedAlert> {
  const lives: Partial<AlertLife>[] = [
    {},
    { snoozedUntil: minutes(30) }, // ran out: open again
    { snoozedUntil: minutes(60) }, // runs out exactly now: open
    { snoozedUntil: minutes(61) },
    { state: 'acknowledged', acknowledgedBy: 'U0AVERY', acknowledgedAt: minutes(5) },
    { state: 'acknowledged', acknowledgedBy: 'U0AVERY', acknowledgedAt: minutes(5), snoozedUntil: minutes(120) },
    { state: 'resolved', resolvedAt: minutes(10), resolution: { by: 'facts', reason: 'the withdrawal succeeded' } },
    {
      state: 'resolved',
      resolvedAt: minutes(10),
      resolution: { by: 'person', userId: 'U0AVERY', note: 'refunded' },
      snoozedUntil: minutes(120),
    },
  ];
  const alerts: Record<string, OwnedAlert> = {};
  let n = 0;
  for (let copy = 0; copy < copies; copy += 1)
    for (const life of lives) {
      const alert = owned(++n, life);
      alerts[alert.key] = alert;
    }
  return alerts;
}

describe.each(backends)('counting the open alerts: $name', (backend) => {
  it.skipIf(backend.skip)('equals counting the whole bookkeeping read back, at any time', async () => {
    const store = await backend.open();
    try {
      expect(await store.alerts.countOpenAlerts(T0)).toEqual({});
      await store.alerts.commitPoll((alerts) => {
        alerts.owned = mixedHistory(25);
      });
      const now = new Date(minutes(60));
      expect(await store.alerts.countOpenAlerts(now)).toEqual({ open: 75, snoozed: 50, acknowledged: 25 });
      for (const at of [T0, now, new Date(minutes(61)), new Date(minutes(121))]) {
        const read = openAlertCounts((await store.alerts.readAlerts()).owned, at);
        expect(await store.alerts.countOpenAlerts(at)).toEqual(read);
      }
      // Every alert resolved: nothing open.
      await store.alerts.commitPoll((alerts) => {
        for (const alert of Object.values(alerts.owned ?? {})) alert.life.state = 'resolved';
      });
      expect(await store.alerts.countOpenAlerts(now)).toEqual({});
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)(
    "keeps an outbox item's API time of its change; an item without one loads as it was",
    async () => {
      const store = await backend.open();
      try {
        const facts = failedWithdrawalFacts(1, T0);
        const items = [
          { key: 'withdrawal:1', queuedAt: minutes(1), changedAt: minutes(0), facts },
          { key: 'withdrawal:2', queuedAt: minutes(1), facts: failedWithdrawalFacts(2, T0) },
        ];
        await store.alerts.commitPoll((alerts) => {
          alerts.outbox.push(...items);
        });
        expect((await store.alerts.readAlerts()).outbox).toEqual(items);
      } finally {
        await store.close();
      }
    },
  );
});
