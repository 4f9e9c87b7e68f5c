// The forms' submission claims, run against both stores: the lowdb state file and a real throwaway PostgreSQL.
// A view is claimed once, whichever replica asks and however many ask at once; other views are not held back;
// claims survive a restart; other views' claims are forgotten after a day; a state file from before them loads empty.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('formclaims');

const T0 = new Date('2026-11-28T09:00:00.000Z');
const hours = (n: number) => new Date(T0.getTime() + n * 3_600_000);

describe.each(backends)('form submission claims: $name', (backend) => {
  it.skipIf(backend.skip)('the first claim of a view wins, a second loses; another view is its own', async () => {
    const store = await backend.open();
    try {
      expect(await store.formSubmissions.claim('V0FIRST', T0)).toBe(true);
      expect(await store.formSubmissions.claim('V0FIRST', hours(0.01))).toBe(false);
      expect(await store.formSubmissions.claim('V0SECOND', hours(0.02))).toBe(true);
      expect(await store.formSubmissions.claim('V0SECOND', hours(0.03))).toBe(false);
      expect(await store.formSubmissions.claim('V0FIRST', hours(1))).toBe(false);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('ten claims of one view at once: exactly one wins', async () => {
    const store = await backend.open();
    try {
      const wins = await Promise.all(Array.from({ length: 10 }, () => store.formSubmissions.claim('V0RACE', T0)));
      expect(wins.filter(Boolean)).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)(
    "another view's claim older than a day is forgotten; the view being claimed never is",
    async () => {
      const store = await backend.open();
      try {
        expect(await store.formSubmissions.claim('V0OLD', T0)).toBe(true);
        expect(await store.formSubmissions.claim('V0KEPT', hours(2))).toBe(true);
        // A day and a bit later: V0OLD is still refused when it is the one asked about…
        expect(await store.formSubmissions.claim('V0OLD', hours(25))).toBe(false);
        // …and is pruned by the next claim of another view, after which it could be claimed again.
        expect(await store.formSubmissions.claim('V0NEW', hours(25.5))).toBe(true);
        expect(await store.formSubmissions.claim('V0OLD', hours(25.6))).toBe(true);
        // V0KEPT is 23.6 hours old: kept.
        expect(await store.formSubmissions.claim('V0KEPT', hours(25.7))).toBe(false);
      } finally {
        await store.close();
      }
    },
  );
});

describe.each(backends.filter((b) => b.name === 'PostgreSQL'))('form submission claims across replicas', (backend) => {
  it.skipIf(backend.skip)(
    'two replicas given the same view at once: one claims it; the loser sees it claimed',
    async () => {
      const a = await backend.open();
      const b = await a.another!();
      try {
        for (let round = 0; round < 20; round++) {
          const viewId = `V0ROUND${round}`;
          const [first, second] = await Promise.all([
            a.formSubmissions.claim(viewId, T0),
            b.formSubmissions.claim(viewId, T0),
          ]);
          expect([first, second].filter(Boolean)).toHaveLength(1);
          expect(await b.formSubmissions.claim(viewId, hours(0.1))).toBe(false);
          expect(await a.formSubmissions.claim(viewId, hours(0.1))).toBe(false);
        }
      } finally {
        await b.close();
        await a.close();
      }
    },
  );
});

describe('form submission claims in the state file', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'formclaims-file-'));

  it('survive a restart (the file reopened)', async () => {
    const file = join(dir(), 'state.json');
    const store = await openBotStore(file);
    expect(await store.formSubmissions.claim('V0BEFORE', T0)).toBe(true);
    await store.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).formSubmissions).toEqual({ V0BEFORE: T0.toISOString() });
    const reopened = await openBotStore(file);
    try {
      expect(await reopened.formSubmissions.claim('V0BEFORE', hours(1))).toBe(false);
    } finally {
      await reopened.close();
    }
  });

  it('a file written before the claims existed loads with none; a claim with a damaged time is reported and still holds', async () => {
    const file = join(dir(), 'state.json');
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: {} }));
    const old = await openBotStore(file);
    try {
      expect(await old.formSubmissions.claim('V0FRESH', T0)).toBe(true);
    } finally {
      await old.close();
    }
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...saved, formSubmissions: { ...saved.formSubmissions, V0BROKEN: 42 } }));
    const reopened = await openBotStore(file);
    try {
      expect(reopened.rejectedRecords.map((r) => r.where)).toEqual(['formSubmissions.V0BROKEN']);
      expect(await reopened.formSubmissions.claim('V0FRESH', hours(1))).toBe(false);
      expect(await reopened.formSubmissions.claim('V0BROKEN', hours(1))).toBe(false);
    } finally {
      await reopened.close();
    }
  });
});
