// The freeze repository contract, run against both stores: the lowdb state file and a real throwaway PostgreSQL.
// A freeze survives a restart (a reopened file, another replica on the database); concurrent clicks on Unfreeze
// are counted once each; a state file from before the freeze loads with none.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('freeze');

const T0 = new Date('2026-11-28T09:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

describe.each(backends)('the freeze: $name', (backend) => {
  it.skipIf(backend.skip)('none at first; a freeze is read back, refused twice, and listed in the trail', async () => {
    const store = await backend.open();
    try {
      expect(await store.freeze.currentFreeze(T0)).toBeUndefined();
      const pulled = await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'leaked token <&>', forMs: 7_200_000 });
      expect(pulled).toEqual({
        ok: true,
        freeze: {
          frozenBy: 'U0AVERY',
          frozenAt: T0.toISOString(),
          reason: 'leaked token <&>',
          until: minutes(120).toISOString(),
          unfreezeVotes: [],
        },
      });
      expect(await store.freeze.currentFreeze(minutes(1))).toEqual(pulled.ok && pulled.freeze);
      expect(await store.freeze.freeze({ by: 'U0RILEY', at: minutes(2), reason: 'again' })).toMatchObject({
        ok: false,
        reason: 'already_frozen',
        freeze: { frozenBy: 'U0AVERY' },
      });
      expect(await store.freeze.currentFreeze(minutes(120))).toBeUndefined();
      expect((await store.freeze.listFreezeTrail(T0, minutes(121))).map((e) => e.event)).toEqual(['frozen', 'expired']);
      expect(await store.freeze.listFreezeTrail(minutes(1), minutes(60))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('needs the quorum of distinct admins to lift; each click is recorded once', async () => {
    const store = await backend.open();
    try {
      await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'strange quote' });
      expect(await store.freeze.voteUnfreeze({ by: 'U0AVERY', at: minutes(1) }, 2)).toMatchObject({
        ok: true,
        unfrozen: false,
        votes: 1,
        quorum: 2,
      });
      expect(await store.freeze.voteUnfreeze({ by: 'U0AVERY', at: minutes(2) }, 2)).toMatchObject({
        ok: false,
        reason: 'already_voted',
      });
      expect((await store.freeze.currentFreeze(minutes(2)))?.unfreezeVotes).toEqual([
        { by: 'U0AVERY', at: minutes(1).toISOString() },
      ]);
      expect(await store.freeze.voteUnfreeze({ by: 'U0RILEY', at: minutes(3) }, 2)).toMatchObject({
        ok: true,
        unfrozen: true,
        votes: 2,
      });
      expect(await store.freeze.currentFreeze(minutes(3))).toBeUndefined();
      expect(await store.freeze.voteUnfreeze({ by: 'U0SAM', at: minutes(4) }, 2)).toEqual({
        ok: false,
        reason: 'not_frozen',
      });
      expect((await store.freeze.listFreezeTrail(T0, minutes(5))).map((e) => [e.event, e.by])).toEqual([
        ['frozen', 'U0AVERY'],
        ['unfreeze_vote', 'U0AVERY'],
        ['unfreeze_vote', 'U0RILEY'],
        ['unfrozen', 'U0RILEY'],
      ]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('clicks at once (two replicas on PostgreSQL) each count once; one lifts it', async () => {
    const store = await backend.open();
    const other = store.another ? await store.another() : store;
    try {
      await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'strange quote' });
      const voters = ['U0A', 'U0B', 'U0C', 'U0D'];
      const outcomes = await Promise.all(
        voters.map((by, index) => (index % 2 ? other : store).freeze.voteUnfreeze({ by, at: minutes(1) }, 3)),
      );
      expect(outcomes.filter((o) => o.ok && o.unfrozen)).toHaveLength(1);
      expect(outcomes.filter((o) => !o.ok)).toEqual([{ ok: false, reason: 'not_frozen' }]);
      expect(await other.freeze.currentFreeze(minutes(2))).toBeUndefined();
    } finally {
      if (other !== store) await other.close();
      await store.close();
    }
  });

  it.skipIf(backend.skip)(
    'a freeze pulled on one side is in force on the other (a replica, or after a restart)',
    async () => {
      const store = await backend.open();
      try {
        await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'leaked token' });
        if (store.another) {
          const other = await store.another();
          try {
            expect(await other.freeze.currentFreeze(minutes(1))).toMatchObject({ frozenBy: 'U0AVERY' });
          } finally {
            await other.close();
          }
        }
      } finally {
        await store.close();
      }
    },
  );
});

describe('the freeze in the state file', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'freeze-file-'));

  it('survives a restart (the file reopened)', async () => {
    const file = join(dir(), 'state.json');
    const store = await openBotStore(file);
    await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'leaked token' });
    await store.freeze.voteUnfreeze({ by: 'U0RILEY', at: minutes(1) }, 2);
    await store.close();
    const reopened = await openBotStore(file);
    try {
      expect(await reopened.freeze.currentFreeze(minutes(2))).toMatchObject({
        frozenBy: 'U0AVERY',
        unfreezeVotes: [{ by: 'U0RILEY' }],
      });
    } finally {
      await reopened.close();
    }
  });

  it('a file written before the freeze existed loads with none', async () => {
    const file = join(dir(), 'state.json');
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: {} }));
    const store = await openBotStore(file);
    try {
      expect(await store.freeze.currentFreeze(T0)).toBeUndefined();
      expect(await store.freeze.listFreezeTrail(T0, T0)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a damaged freeze record refuses the file rather than lifting the freeze; a damaged trail line is set aside', async () => {
    const file = join(dir(), 'state.json');
    const store = await openBotStore(file);
    await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'leaked token' });
    await store.close();
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...saved, freeze: { ...saved.freeze, trail: [...saved.freeze.trail, 7] } }));
    const kept = await openBotStore(file);
    try {
      expect(await kept.freeze.currentFreeze(minutes(1))).toMatchObject({ frozenBy: 'U0AVERY' });
    } finally {
      await kept.close();
    }
    writeFileSync(file, JSON.stringify({ ...saved, freeze: { current: { frozenBy: 1 }, trail: [] } }));
    await expect(openBotStore(file)).rejects.toThrow(/freeze is damaged/);
  });
});
