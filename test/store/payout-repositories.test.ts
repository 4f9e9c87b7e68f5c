// The payout request repository contract, run against both stores: the lowdb state file and a real throwaway
// PostgreSQL. The claim before create-payout is what makes a container get created once: two PostgreSQL stores on
// one database stand for two replicas handling one double click.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  newPayoutRequest,
  PAYOUT_PROPOSAL_VALIDITY_MS,
  PAYOUT_REQUEST_RETENTION_MS,
  type PayoutRequest,
} from '../../src/features/payouts/rules.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('payouts');

const T0 = new Date('2026-11-24T09:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
let ids = 0;
const request = (at = T0, name = 'November affiliates'): PayoutRequest =>
  newPayoutRequest({
    id: `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    requestedBy: 'U0RILEY',
    requestedAt: at,
    channelId: 'C0TREASURY',
    asset: { assetId: 'a-bsc', symbol: 'USDT', networkSymbol: 'BSC', networkTitle: 'BNB Smart Chain', decimals: 18 },
    name,
  });
const events = (r: PayoutRequest | undefined) => r?.history.map((entry) => entry.event);

describe.each(backends)('payout requests: $name', (backend) => {
  it.skipIf(backend.skip)('saves, reads and lists requests oldest first from `since` on', async () => {
    const store = await backend.open();
    try {
      const { payouts } = store;
      const later = request(minutes(10), 'December, "salaries" & <bonuses>');
      const first = request(T0);
      await payouts.saveRequest(later);
      await payouts.saveRequest(first);
      expect(await payouts.getRequest(first.id)).toEqual(first);
      expect(await payouts.getRequest('constructor')).toBeUndefined();
      expect(await payouts.getRequest('00000000-0000-4000-8000-ffffffffffff')).toBeUndefined();
      await expect(payouts.saveRequest(first)).rejects.toThrow(/already exists/);
      expect((await payouts.listRequestsSince(T0)).map((r) => r.id)).toEqual([first.id, later.id]);
      expect((await payouts.listRequestsSince(minutes(10))).map((r) => r.name)).toEqual([
        'December, "salaries" & <bonuses>',
      ]);
      expect(await payouts.listRequestsSince(minutes(11))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)(
    'claims the send once: proposed → sending; a second claim sees sending; the outcome is recorded once',
    async () => {
      const store = await backend.open();
      try {
        const { payouts } = store;
        const proposed = request();
        await payouts.saveRequest(proposed);
        const claim = await payouts.claimSend(proposed.id, 'U0RILEY', minutes(2), PAYOUT_PROPOSAL_VALIDITY_MS);
        expect(claim.claimed).toBe(true);
        expect(claim.request).toMatchObject({
          status: 'sending',
          confirmedBy: 'U0RILEY',
          confirmedAt: minutes(2).toISOString(),
        });
        const again = await payouts.claimSend(proposed.id, 'U0RILEY', minutes(3), PAYOUT_PROPOSAL_VALIDITY_MS);
        expect(again).toEqual({ claimed: false, request: claim.request });
        const created = await payouts.recordOutcome(
          proposed.id,
          { status: 'created', payoutId: 'p-1', shown: [['Status', 'new']] },
          minutes(2),
        );
        expect(created.recorded).toBe(true);
        expect(created.request).toMatchObject({ status: 'created', payoutId: 'p-1', shown: [['Status', 'new']] });
        expect(created.request?.history.at(-1)).toEqual({
          at: minutes(2).toISOString(),
          event: 'created',
          detail: 'p-1',
        });
        // A late answer (or a stuck-send mark) never overwrites a recorded outcome.
        const late = await payouts.recordOutcome(
          proposed.id,
          { status: 'outcome_unknown', failure: 'late' },
          minutes(9),
        );
        expect(late).toEqual({ recorded: false, request: created.request });
        expect(events(await payouts.getRequest(proposed.id))).toEqual(['requested', 'confirmed', 'created']);
        expect(await payouts.cancel(proposed.id, 'U0RILEY', minutes(9))).toEqual({
          cancelled: false,
          request: created.request,
        });
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)(
    'a created answer without an id says so in the trail; refusals keep their words',
    async () => {
      const store = await backend.open();
      try {
        const { payouts } = store;
        const [noId, refused, unknown] = [request(), request(), request()];
        for (const r of [noId, refused, unknown]) {
          await payouts.saveRequest(r);
          expect((await payouts.claimSend(r.id, 'U0RILEY', T0, PAYOUT_PROPOSAL_VALIDITY_MS)).claimed).toBe(true);
        }
        const a = await payouts.recordOutcome(noId.id, { status: 'created', shown: [] }, T0);
        expect(a.request?.payoutId).toBeUndefined();
        expect(a.request?.shown).toBeUndefined();
        expect(a.request?.history.at(-1)?.detail).toBe('no id in the answer');
        const b = await payouts.recordOutcome(refused.id, { status: 'refused', failure: 'Asset not found' }, T0);
        expect(b.request).toMatchObject({ status: 'refused', failure: 'Asset not found' });
        const c = await payouts.recordOutcome(unknown.id, { status: 'outcome_unknown', failure: 'no answer' }, T0);
        expect(c.request).toMatchObject({ status: 'outcome_unknown', failure: 'no answer' });
        expect(events(c.request)).toEqual(['requested', 'confirmed', 'outcome_unknown']);
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)(
    'a proposal older than its validity expires at the click, and nothing is claimed',
    async () => {
      const store = await backend.open();
      try {
        const { payouts } = store;
        const old = request();
        await payouts.saveRequest(old);
        const claim = await payouts.claimSend(old.id, 'U0RILEY', minutes(16), PAYOUT_PROPOSAL_VALIDITY_MS);
        expect(claim.claimed).toBe(false);
        expect(claim.request?.status).toBe('expired');
        expect(claim.request?.history.at(-1)).toMatchObject({ event: 'expired', by: 'U0RILEY' });
        expect(claim.request?.confirmedBy).toBeUndefined();
        expect((await payouts.claimSend(old.id, 'U0RILEY', minutes(16), PAYOUT_PROPOSAL_VALIDITY_MS)).claimed).toBe(
          false,
        );
        expect(events(await payouts.getRequest(old.id))).toEqual(['requested', 'expired']);
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)('cancel ends a proposal only; unknown ids change nothing', async () => {
    const store = await backend.open();
    try {
      const { payouts } = store;
      const proposed = request();
      await payouts.saveRequest(proposed);
      const cancelled = await payouts.cancel(proposed.id, 'U0RILEY', minutes(1));
      expect(cancelled.cancelled).toBe(true);
      expect(cancelled.request?.status).toBe('cancelled');
      expect((await payouts.claimSend(proposed.id, 'U0RILEY', minutes(2), PAYOUT_PROPOSAL_VALIDITY_MS)).claimed).toBe(
        false,
      );
      expect(events(await payouts.getRequest(proposed.id))).toEqual(['requested', 'cancelled']);
      const nobody = '00000000-0000-4000-8000-fffffffffffe';
      expect(await payouts.claimSend(nobody, 'U0RILEY', T0, PAYOUT_PROPOSAL_VALIDITY_MS)).toEqual({ claimed: false });
      expect(await payouts.recordOutcome(nobody, { status: 'refused', failure: 'x' }, T0)).toEqual({ recorded: false });
      expect(await payouts.cancel(nobody, 'U0RILEY', T0)).toEqual({ cancelled: false });
      expect(await payouts.claimSend('\u0000', 'U0RILEY', T0, PAYOUT_PROPOSAL_VALIDITY_MS)).toEqual({ claimed: false });
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('requests older than the retention leave when a new one is saved', async () => {
    const store = await backend.open();
    try {
      const { payouts } = store;
      const ancient = request(new Date(T0.getTime() - PAYOUT_REQUEST_RETENTION_MS - 60_000));
      const kept = request(new Date(T0.getTime() - PAYOUT_REQUEST_RETENTION_MS + 60_000));
      await payouts.saveRequest(ancient);
      await payouts.saveRequest(kept);
      expect(await payouts.getRequest(ancient.id)).toBeDefined();
      await payouts.saveRequest(request(T0));
      expect(await payouts.getRequest(ancient.id)).toBeUndefined();
      expect(await payouts.getRequest(kept.id)).toBeDefined();
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip || !backend.name.startsWith('PostgreSQL'))(
    'two replicas claiming one request at once: exactly one claims it, the other sees it sending',
    async () => {
      const store = await backend.open();
      const replica = await store.another!();
      try {
        for (let round = 0; round < 8; round++) {
          const proposed = request(minutes(round));
          await store.payouts.saveRequest(proposed);
          const at = minutes(round + 1);
          const claims = await Promise.all([
            store.payouts.claimSend(proposed.id, 'U0RILEY', at, PAYOUT_PROPOSAL_VALIDITY_MS),
            replica.payouts.claimSend(proposed.id, 'U0RILEY', at, PAYOUT_PROPOSAL_VALIDITY_MS),
          ]);
          expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
          expect(claims.find((claim) => !claim.claimed)?.request?.status).toBe('sending');
          expect(events(await replica.payouts.getRequest(proposed.id))).toEqual(['requested', 'confirmed']);
        }
      } finally {
        await replica.close();
        await store.close();
      }
    },
  );
});

describe('payout requests in the state file', () => {
  it('a file written before payout requests existed loads with none; a damaged request refuses the start, and is set aside (the rest kept) only with the flag', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'payouts-old-')), 'state.json');
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: {} }));
    const old = await openBotStore(file);
    expect(await old.payouts.listRequestsSince(new Date(0))).toEqual([]);
    const kept = request();
    await old.payouts.saveRequest(kept);
    await old.close();
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.payouts.damaged = { id: 'damaged', status: 'teleported' };
    writeFileSync(file, JSON.stringify(raw));
    // A payout request holds what was sent (or may have been): losing it silently is not a choice the bot makes.
    await expect(openBotStore(file)).rejects.toThrow(
      /has a damaged money record, payouts\.damaged .*--set-aside-damaged-records/,
    );
    const reopened = await openBotStore(file, undefined, undefined, { setAsideDamagedRecords: true });
    try {
      expect((await reopened.payouts.listRequestsSince(new Date(0))).map((r) => r.id)).toEqual([kept.id]);
      expect(reopened.rejectedRecords.map((r) => r.where)).toEqual(['payouts.damaged']);
    } finally {
      await reopened.close();
    }
  });
});
