// The freeze's expiry in both stores (the lowdb state file and a real PostgreSQL): a freeze whose `--for` ran out is
// claimed once, even by two replicas at the same moment (the row lock the freeze uses), its `expired` line written
// once; where it was announced is kept across a restart; a file with an ended freeze waiting to be announced loads.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('freeze_expiry');

const T0 = new Date('2026-11-28T09:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const WHERE = { channel: 'C0ALERTS', ts: '1700000000.000100' };

describe.each(backends)('the freeze expiry: $name', (backend) => {
  it.skipIf(backend.skip)('nothing to claim before the until; once after, with its announcement', async () => {
    const store = await backend.open();
    try {
      await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'leaked token', forMs: 30 * 60_000 });
      expect(await store.freeze.recordFreezeAnnouncement(T0.toISOString(), WHERE)).toBe(true);
      expect(await store.freeze.recordFreezeAnnouncement(minutes(1).toISOString(), WHERE)).toBe(false);
      expect(await store.freeze.claimExpiredFreezes(minutes(29))).toEqual([]);
      expect(await store.freeze.currentFreeze(minutes(29))).toMatchObject({ announcement: WHERE });
      const claimed = await store.freeze.claimExpiredFreezes(minutes(31));
      expect(claimed).toEqual([
        expect.objectContaining({ frozenBy: 'U0AVERY', until: minutes(30).toISOString(), announcement: WHERE }),
      ]);
      expect(await store.freeze.claimExpiredFreezes(minutes(32))).toEqual([]);
      const trail = await store.freeze.listFreezeTrail(T0, minutes(40));
      expect(trail.map((entry) => [entry.event, entry.at])).toEqual([
        ['frozen', T0.toISOString()],
        ['expired', minutes(30).toISOString()],
      ]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('a freeze pulled after the until: the old end is still claimed once, one line', async () => {
    const store = await backend.open();
    try {
      await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'leaked token', forMs: 30 * 60_000 });
      expect(await store.freeze.freeze({ by: 'U0JORDAN', at: minutes(45), reason: 'again' })).toMatchObject({
        ok: true,
      });
      expect((await store.freeze.claimExpiredFreezes(minutes(46))).map((f) => f.frozenBy)).toEqual(['U0AVERY']);
      expect(await store.freeze.claimExpiredFreezes(minutes(47))).toEqual([]);
      expect(await store.freeze.currentFreeze(minutes(47))).toMatchObject({ frozenBy: 'U0JORDAN' });
      const events = (await store.freeze.listFreezeTrail(T0, minutes(50))).map((entry) => entry.event);
      expect(events).toEqual(['frozen', 'expired', 'frozen']);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('claimers at once (two replicas on PostgreSQL): exactly one gets it', async () => {
    const store = await backend.open();
    const other = store.another ? await store.another() : store;
    try {
      for (let round = 0; round < 5; round++) {
        const at = minutes(round * 100);
        await store.freeze.freeze({ by: 'U0AVERY', at, reason: `round ${round}`, forMs: 10 * 60_000 });
        const later = minutes(round * 100 + 11);
        const answers = await Promise.all(
          [store, other, store, other].map((side) => side.freeze.claimExpiredFreezes(later)),
        );
        expect(answers.map((claimed) => claimed.length).sort()).toEqual([0, 0, 0, 1]);
      }
      const events = (await other.freeze.listFreezeTrail(T0, minutes(1000))).map((entry) => entry.event);
      expect(events.filter((event) => event === 'expired')).toHaveLength(5);
    } finally {
      if (other !== store) await other.close();
      await store.close();
    }
  });
});

describe('the freeze expiry in the state file', () => {
  it('an ended freeze waiting to be announced survives a restart and is claimed after it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'freeze-expiry-file-')), 'state.json');
    const store = await openBotStore(file);
    await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'leaked token', forMs: 30 * 60_000 });
    await store.freeze.recordFreezeAnnouncement(T0.toISOString(), WHERE);
    // A freeze pulled after the until writes the end; the bot stops before the job announced it.
    await store.freeze.freeze({ by: 'U0JORDAN', at: minutes(45), reason: 'again' });
    await store.close();
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.freeze.expiredUnannounced).toHaveLength(1);
    const reopened = await openBotStore(file);
    try {
      expect(await reopened.freeze.claimExpiredFreezes(minutes(46))).toEqual([
        expect.objectContaining({ frozenBy: 'U0AVERY', announcement: WHERE }),
      ]);
      expect(await reopened.freeze.currentFreeze(minutes(46))).toMatchObject({ frozenBy: 'U0JORDAN' });
    } finally {
      await reopened.close();
    }
  });

  it('a damaged ended freeze waiting to be announced is set aside; the freeze in force is kept', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'freeze-expiry-file-')), 'state.json');
    const store = await openBotStore(file);
    await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'leaked token' });
    await store.close();
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(
      file,
      JSON.stringify({ ...saved, freeze: { ...saved.freeze, expiredUnannounced: [{ frozenBy: 7 }] } }),
    );
    const reopened = await openBotStore(file);
    try {
      expect(await reopened.freeze.currentFreeze(minutes(1))).toMatchObject({ frozenBy: 'U0AVERY' });
      expect(await reopened.freeze.claimExpiredFreezes(minutes(1))).toEqual([]);
    } finally {
      await reopened.close();
    }
  });
});
