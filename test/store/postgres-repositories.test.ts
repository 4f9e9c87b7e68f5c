// The swap quote and alert repositories of the contract (src/features/repositories.ts), written once and run against
// both implementations: the lowdb state file and PostgreSQL (a real throwaway server, no mocks). PostgreSQL is also
// run as two replicas (two stores, two pools) on one database, with its leader lease and its migrations. The other
// repositories have a contract file each beside this one (and test/second-factor/second-factor-store.test.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { acknowledgeAlert } from '../../src/features/alerts/lifecycle.js';
import { emptyAlertsState, type OutboxItem, type ThreadWork } from '../../src/features/alerts/records.js';
import type { AlertRepository, SwapQuoteRepository } from '../../src/features/repositories.js';
import { decideOnQuote, usageLookbackStart } from '../../src/features/swaps/decision.js';
import { snapshotPolicy } from '../../src/features/swaps/policy.js';
import type { AuditEntry, SwapQuote } from '../../src/features/swaps/quote.js';
import { DamagedRecordError, StoreError } from '../../src/kernel/store-error.js';
import { createLogger } from '../../src/logger.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { createLeaderLease, type LeaderLease, MIGRATIONS, openPostgresStore } from '../../src/store/postgres/index.js';
import { claimDecision } from '../support/claim-decision.js';
import { failedWithdrawalFacts, swapQuoteRecord } from '../support/fixtures.js';
import { postgresSkipReason, testCluster } from '../support/postgres.js';

const postgres = testCluster('contract');
const { available } = postgres;
if (!available) console.warn(postgresSkipReason);
const freshDatabase = () => postgres.createDatabase();

interface StoreUnderTest {
  swapQuotes: SwapQuoteRepository;
  alerts: AlertRepository;
  close(): Promise<void>;
}

interface Backend {
  name: string;
  skip: boolean;
  /** A fresh, empty store, and a way to open another one on the same data when the backend allows it. */
  fresh(): Promise<{ store: StoreUnderTest; another?: () => Promise<StoreUnderTest> }>;
}

const backends: Backend[] = [
  {
    name: 'lowdb state file',
    skip: false,
    fresh: async () => ({ store: await openBotStore(join(mkdtempSync(join(tmpdir(), 'contract-')), 'state.json')) }),
  },
  {
    name: 'PostgreSQL',
    skip: !available,
    fresh: async () => {
      const url = await freshDatabase();
      return { store: await openPostgresStore(url), another: () => openPostgresStore(url) };
    },
  },
];

const AT = new Date('2026-11-22T00:05:00.000Z');
const entry = (event: string, by?: string): AuditEntry => ({ at: AT.toISOString(), event, ...(by ? { by } : {}) });
const quote = (id: string, overrides: Record<string, unknown> = {}): SwapQuote =>
  swapQuoteRecord(id, overrides) as SwapQuote;
const outboxItem = (i: number): OutboxItem => {
  const facts = failedWithdrawalFacts(i, AT);
  return { key: `withdrawal:${facts.id}`, queuedAt: AT.toISOString(), facts };
};
// Text the payment API may send (NUL, an emoji cut in half): jsonb would refuse it, the store must keep it.
const HOSTILE_TEXT = 'a\u0000b \ud83d| \ude00 <!channel>';

function threadWork(threadTs: string, parts: number): ThreadWork {
  return {
    threadTs,
    kind: 'withdrawal',
    total: parts,
    parts,
    queuedAt: AT.toISOString(),
    remaining: Array.from({ length: parts }, (_, i) => ({
      part: i + 1,
      first: i + 1,
      failures: [failedWithdrawalFacts(i, AT)],
    })),
  };
}

/** Opens `count` stores at once (one, or one per replica), runs `test`, closes them. */
async function withStores(
  backend: Backend,
  test: (stores: StoreUnderTest[]) => Promise<void>,
  replicas = false,
): Promise<void> {
  const { store, another } = await backend.fresh();
  const stores = [store];
  if (replicas) stores.push(await another!());
  try {
    await test(stores);
  } finally {
    for (const s of stores) await s.close();
  }
}

describe.each(backends)('the repository contract: $name', (backend) => {
  const run = (test: (store: StoreUnderTest) => Promise<void>) => () => withStores(backend, ([store]) => test(store!));

  describe.skipIf(backend.skip)('swap quotes', () => {
    it(
      'saves and reads a quote; a second save of the id is refused; unknown ids find nothing',
      run(async ({ swapQuotes }) => {
        await swapQuotes.saveQuote(quote('q1'));
        expect(await swapQuotes.getQuote('q1')).toEqual(quote('q1'));
        // The USD value at quote time (exact cents as digits, or why it is unknown) is kept as it was.
        for (const [id, valueUsd] of [
          ['q-cents', { cents: '123456789012345678901234567890' }],
          ['q-unknown', { unknown: 'no_balance', reason: 'zero balance' }],
        ] as const) {
          await swapQuotes.saveQuote(quote(id, { valueUsd }));
          expect((await swapQuotes.getQuote(id))?.valueUsd).toEqual(valueUsd);
        }
        await expect(swapQuotes.saveQuote(quote('q1', { requestedBy: 'U9' }))).rejects.toThrow(StoreError);
        expect((await swapQuotes.getQuote('q1'))?.requestedBy).toBe('U1');
        for (const id of ['nope', 'constructor', '__proto__', 'a\u0000b', '\ud800'])
          expect(await swapQuotes.getQuote(id)).toBeUndefined();
        await expect(claimDecision(swapQuotes, 'toString', 'rejected', 'U2', AT, entry('rejected'))).rejects.toThrow(
          StoreError,
        );
        await expect(swapQuotes.recordMessageTs('nope', '1.2')).rejects.toThrow(StoreError);
      }),
    );

    it(
      'a decision sees the other quotes of the same source asset or of the same requester (their 24-hour window), and writes a raised policy',
      run(async ({ swapQuotes }) => {
        const estimatedAt = AT.toISOString();
        const expiresAt = new Date(AT.getTime() + 30 * 60_000).toISOString();
        const asset = (assetId: string) => ({ ...quote('x').from, assetId });
        const tiers = {
          tiers: [
            { minCents: 0n, approvals: 1 },
            { minCents: 1_000_000n, approvals: 2 },
          ],
          approvers: ['U0A'],
          allowSelfApproval: false,
        };
        const own = (id: string, fields: Record<string, unknown>) =>
          quote(id, {
            estimatedAt,
            expiresAt,
            valueUsd: { cents: '600000' },
            policy: snapshotPolicy(tiers, { cents: 600_000n }, AT),
            approvals: [],
            ...fields,
          });
        await swapQuotes.saveQuote(own('q1', {}));
        await swapQuotes.saveQuote(own('same-asset', { requestedBy: 'U2' }));
        await swapQuotes.saveQuote(
          own('same-requester', { from: asset('other'), status: 'created', decidedAt: estimatedAt }),
        );
        await swapQuotes.saveQuote(own('unrelated', { from: asset('other'), requestedBy: 'U2' }));
        await swapQuotes.saveQuote(own('too-old', { estimatedAt: '2026-11-20T00:00:00.000Z' }));
        let seen: string[] = [];
        const { decision, quote: after } = await swapQuotes.decideQuote(
          'q1',
          usageLookbackStart(AT),
          (stored, related) => {
            seen = related.map((other) => other.id).sort();
            return decideOnQuote(
              stored,
              stored.policy!,
              { userId: 'U0A', decision: 'approve', at: AT, isApprover: true },
              related,
            );
          },
        );
        expect(seen).toEqual(['same-asset', 'same-requester']);
        // The requester's $6,000 created swap makes this $12,000: two approvals now, so the approval stays pending.
        expect(decision).toMatchObject({ ok: true, change: { status: 'pending' } });
        expect(after).toMatchObject({
          status: 'pending',
          approvals: [{ userId: 'U0A' }],
          policy: { needed: 2, window: { count: 1, totalCents: '1200000' } },
        });
        expect(await swapQuotes.getQuote('q1')).toEqual(after);
      }),
    );

    it(
      'hands out copies: changing a returned quote changes nothing stored',
      run(async ({ swapQuotes }) => {
        const original = quote('q1');
        await swapQuotes.saveQuote(original);
        original.status = 'rejected';
        const copy = await swapQuotes.getQuote('q1');
        copy!.status = 'created';
        copy!.history.push(entry('x'));
        expect(await swapQuotes.getQuote('q1')).toMatchObject({ status: 'pending', history: [] });
      }),
    );

    it(
      'lists the newest quotes first (up to the limit), by status, and those to follow',
      run(async ({ swapQuotes }) => {
        const times = [
          '2026-11-22T01:00:00.000Z',
          '2026-11-22T03:00:00.000Z',
          '2026-11-22T02:00:00.000Z',
          '2026-11-21T23:59:59.999Z',
        ];
        for (const [i, estimatedAt] of times.entries()) await swapQuotes.saveQuote(quote(`q${i}`, { estimatedAt }));
        await swapQuotes.saveQuote(
          quote('c1', { estimatedAt: '2026-11-20T00:00:00.000Z', status: 'created', swapId: 's1' }),
        );
        await swapQuotes.saveQuote(
          quote('c2', {
            estimatedAt: '2026-11-20T00:00:01.000Z',
            status: 'created',
            swapId: 's2',
            followEndedAt: AT.toISOString(),
          }),
        );
        await swapQuotes.saveQuote(quote('c3', { estimatedAt: '2026-11-20T00:00:02.000Z', status: 'created' })); // no swap id: nothing to follow
        expect((await swapQuotes.listRecentQuotes(3)).map((q) => q.id)).toEqual(['q1', 'q2', 'q0']);
        expect((await swapQuotes.listRecentQuotes(50)).map((q) => q.id)).toEqual([
          'q1',
          'q2',
          'q0',
          'q3',
          'c3',
          'c2',
          'c1',
        ]);
        expect((await swapQuotes.listRecentQuotes(0)).length).toBe(0);
        expect((await swapQuotes.listQuotesByStatus('pending')).map((q) => q.id).sort()).toEqual([
          'q0',
          'q1',
          'q2',
          'q3',
        ]);
        expect((await swapQuotes.listQuotesByStatus('created')).map((q) => q.id).sort()).toEqual(['c1', 'c2', 'c3']);
        expect(await swapQuotes.listQuotesByStatus('rejected')).toEqual([]);
        expect((await swapQuotes.listQuotesToFollow()).map((q) => q.id)).toEqual(['c1']);
      }),
    );

    it(
      'claims a decision exactly once among 20 at once; the others see the winner',
      run(async ({ swapQuotes }) => {
        await swapQuotes.saveQuote(quote('q1'));
        const claims = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            claimDecision(swapQuotes, 'q1', i % 2 ? 'rejected' : 'approving', `U${i}`, AT, entry('decided', `U${i}`)),
          ),
        );
        const winners = claims.filter((claim) => claim.claimed);
        expect(winners).toHaveLength(1);
        const winner = winners[0]!.quote;
        for (const claim of claims)
          expect(claim.quote).toMatchObject({
            status: winner.status,
            decidedBy: winner.decidedBy,
            decidedAt: AT.toISOString(),
          });
        expect((await swapQuotes.getQuote('q1'))?.history).toEqual([entry('decided', winner.decidedBy)]);
      }),
    );

    it(
      'records the create result, and refuses moves the lifecycle does not allow (changing nothing)',
      run(async ({ swapQuotes }) => {
        await swapQuotes.saveQuote(quote('q1'));
        await expect(
          swapQuotes.recordCreateResult('q1', { ok: true, swapId: 's1', swapStatus: 'new' }, AT, entry('created')),
        ).rejects.toThrow(StoreError);
        expect(await swapQuotes.getQuote('q1')).toMatchObject({ status: 'pending', history: [] });
        await claimDecision(swapQuotes, 'q1', 'approving', 'U2', AT, entry('approved', 'U2'));
        const created = await swapQuotes.recordCreateResult(
          'q1',
          { ok: true, swapId: 's1', swapStatus: 'new' },
          AT,
          entry('created'),
        );
        expect(created).toMatchObject({ status: 'created', swapId: 's1', swapStatus: 'new' });
        expect(await swapQuotes.getQuote('q1')).toEqual(created);
        expect((await swapQuotes.listQuotesToFollow()).map((q) => q.id)).toEqual(['q1']);

        await swapQuotes.saveQuote(quote('q2'));
        await claimDecision(swapQuotes, 'q2', 'approving', 'U2', AT, entry('approved', 'U2'));
        const lost = await swapQuotes.recordCreateResult(
          'q2',
          { ok: false, status: 'outcome_unknown', failure: 'timeout', unknownCause: 'answer_lost' },
          AT,
          entry('unknown'),
        );
        expect(lost).toMatchObject({ status: 'outcome_unknown', failure: 'timeout', unknownCause: 'answer_lost' });
      }),
    );

    it(
      'follows a swap: progress says whether it changed; a final status or endFollow stops following',
      run(async ({ swapQuotes }) => {
        await swapQuotes.saveQuote(quote('q1', { status: 'created', swapId: 's1', swapStatus: 'new' }));
        expect(await swapQuotes.recordSwapProgress('q1', { swapStatus: 'new' }, AT, { final: false })).toEqual({
          changed: false,
        });
        expect(
          await swapQuotes.recordSwapProgress('q1', { swapStatus: 'exchanging', hashFrom: '0xabc' }, AT, {
            final: false,
          }),
        ).toEqual({ changed: true });
        expect(
          await swapQuotes.recordSwapProgress('q1', { swapStatus: 'finished', amountTo: '5' }, AT, { final: true }),
        ).toEqual({ changed: true });
        expect(await swapQuotes.getQuote('q1')).toMatchObject({
          swapStatus: 'finished',
          hashFrom: '0xabc',
          amountTo: '5',
          followEndedAt: AT.toISOString(),
        });
        expect((await swapQuotes.getQuote('q1'))?.history.map((e) => e.event)).toEqual([
          'swap_exchanging',
          'swap_finished',
        ]);
        expect(await swapQuotes.listQuotesToFollow()).toEqual([]);
        await swapQuotes.saveQuote(quote('q2', { status: 'created', swapId: 's2' }));
        await swapQuotes.endFollow('q2', AT, entry('follow_ended'));
        expect(await swapQuotes.listQuotesToFollow()).toEqual([]);
        // Two replicas following one swap both give up: one entry in the audit trail.
        await swapQuotes.endFollow('q2', new Date(AT.getTime() + 1_000), entry('follow_ended'));
        expect((await swapQuotes.getQuote('q2'))?.history.filter((e) => e.event === 'follow_ended')).toHaveLength(1);
        expect((await swapQuotes.getQuote('q2'))?.followEndedAt).toBe(AT.toISOString());
      }),
    );

    it(
      'marks an approving quote outcome unknown once among 10 at once, never another status',
      run(async ({ swapQuotes }) => {
        await swapQuotes.saveQuote(quote('q1'));
        expect(await swapQuotes.markOutcomeUnknown('q1', 'restarted', AT, entry('unknown'))).toBe(false);
        await claimDecision(swapQuotes, 'q1', 'approving', 'U2', AT, entry('approved', 'U2'));
        const marks = await Promise.all(
          Array.from({ length: 10 }, () => swapQuotes.markOutcomeUnknown('q1', 'restarted', AT, entry('unknown'))),
        );
        expect(marks.filter(Boolean)).toHaveLength(1);
        expect(await swapQuotes.getQuote('q1')).toMatchObject({
          status: 'outcome_unknown',
          unknownCause: 'interrupted',
          failure: 'restarted',
        });
        expect((await swapQuotes.getQuote('q1'))?.history).toHaveLength(2);
      }),
    );

    it(
      'claims a requote once among 10 at once; a release lets it be claimed again; the successor is recorded',
      run(async ({ swapQuotes }) => {
        await swapQuotes.saveQuote(quote('q1'));
        expect(await swapQuotes.claimRequote('q1', 'n0', entry('requote'))).toBe(false); // pending: nothing to replace
        await swapQuotes.markPostFailed('q1', 'could not post', 'channel_not_found', AT);
        const claims = await Promise.all(
          Array.from({ length: 10 }, (_, i) => swapQuotes.claimRequote('q1', `n${i}`, entry('requote'))),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
        const successor = (await swapQuotes.getQuote('q1'))?.replacedBy;
        expect(successor).toBe(`n${claims.indexOf(true)}`);
        await swapQuotes.releaseRequote('q1', entry('requote_released'));
        expect((await swapQuotes.getQuote('q1'))?.replacedBy).toBeUndefined();
        expect(await swapQuotes.claimRequote('q1', 'n-again', entry('requote'))).toBe(true);
        await swapQuotes.recordRequote('q1', 'n-final', entry('requoted'));
        expect(await swapQuotes.getQuote('q1')).toMatchObject({
          status: 'expired',
          failure: 'could not post',
          replacedBy: 'n-final',
          history: [{ event: 'post_failed', detail: 'channel_not_found' }, ...Array(4).fill(expect.anything())],
        });
      }),
    );

    it(
      'keeps text the payment API or Slack may send exactly (NUL, half an emoji)',
      run(async ({ swapQuotes }) => {
        await swapQuotes.saveQuote(quote('q1', { from: { ...quote('q1').from, networkTitle: HOSTILE_TEXT } }));
        await swapQuotes.recordMessageTs('q1', '1700000000.000100');
        await swapQuotes.markPostFailed('q1', HOSTILE_TEXT, HOSTILE_TEXT, AT);
        expect(await swapQuotes.getQuote('q1')).toMatchObject({
          messageTs: '1700000000.000100',
          failure: HOSTILE_TEXT,
          from: { networkTitle: HOSTILE_TEXT },
        });
      }),
    );
  });

  describe.skipIf(backend.skip)('alert bookkeeping', () => {
    it(
      'starts empty and hands out copies, with prototype-free keyed records',
      run(async ({ alerts }) => {
        const first = await alerts.readAlerts();
        expect(first).toEqual(emptyAlertsState());
        first.outbox.push(outboxItem(1));
        first.sources.gas.consecutiveFailures = 9;
        expect(await alerts.readAlerts()).toEqual(emptyAlertsState());
        // A key that arrives as data (an id), not prototype access: it must come back as a plain own key.
        const hostileKey = '__proto__';
        await alerts.commitPoll((state) => {
          state.alerted['withdrawal:1'] = { createdAt: AT.toISOString() };
          state.sources.withdrawals.tracking[hostileKey] = AT.toISOString();
        });
        const read = await alerts.readAlerts();
        expect(Object.getPrototypeOf(read.alerted)).toBeNull();
        expect('constructor' in read.alerted).toBe(false);
        expect(Object.keys(read.sources.withdrawals.tracking)).toEqual(['__proto__']);
      }),
    );

    it(
      'commits a poll atomically: its answer comes back, and a throwing apply changes nothing',
      run(async ({ alerts }) => {
        expect(
          await alerts.commitPoll((state) => {
            state.outbox.push(outboxItem(1));
            state.sources.withdrawals.consecutiveFailures = 1;
            return 'done';
          }),
        ).toBe('done');
        const failure = new Error('apply failed');
        await expect(
          alerts.commitPoll((state) => {
            state.outbox.splice(0);
            state.outbox.push(outboxItem(2));
            state.sources.withdrawals.consecutiveFailures = 2;
            throw failure;
          }),
        ).rejects.toBe(failure);
        const read = await alerts.readAlerts();
        expect(read.outbox).toEqual([outboxItem(1)]);
        expect(read.sources.withdrawals.consecutiveFailures).toBe(1);
      }),
    );

    it(
      'serializes 10 polls at once: every outbox item and every count lands',
      run(async ({ alerts }) => {
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            alerts.commitPoll((state) => {
              state.outbox.push(outboxItem(i));
              state.sources.withdrawals.consecutiveFailures += 1;
            }),
          ),
        );
        const read = await alerts.readAlerts();
        expect(read.sources.withdrawals.consecutiveFailures).toBe(10);
        expect(read.outbox.map((item) => item.key).sort()).toEqual(
          Array.from({ length: 10 }, (_, i) => outboxItem(i).key).sort(),
        );
      }),
    );

    it(
      'keeps the outbox in the order a poll leaves it (removed, changed, reordered, appended items)',
      run(async ({ alerts }) => {
        const items = Array.from({ length: 6 }, (_, i) => outboxItem(i));
        await alerts.commitPoll((state) => void state.outbox.push(...items));
        const changed = { ...items[3]!, queuedAt: '2026-11-22T09:00:00.000Z' };
        await alerts.commitPoll((state) => {
          state.outbox = [items[1]!, changed, items[5]!, outboxItem(7)];
        });
        expect((await alerts.readAlerts()).outbox).toEqual([items[1], changed, items[5], outboxItem(7)]);
        await alerts.commitPoll((state) => void state.outbox.reverse());
        expect((await alerts.readAlerts()).outbox).toEqual([outboxItem(7), items[5], changed, items[1]]);
        const hostile = { ...outboxItem(8), key: `withdrawal:${HOSTILE_TEXT}` };
        hostile.facts = { ...outboxItem(8).facts, address: HOSTILE_TEXT } as OutboxItem['facts'];
        await alerts.commitPoll((state) => void state.outbox.unshift(hostile));
        expect((await alerts.readAlerts()).outbox).toEqual([hostile, outboxItem(7), items[5], changed, items[1]]);
      }),
    );

    it(
      'records a delivery: the items leave the outbox, failures count as alerted (health messages do not)',
      run(async ({ alerts }) => {
        const down: OutboxItem = {
          key: 'api_down:x',
          queuedAt: AT.toISOString(),
          facts: { kind: 'api_down', since: AT.toISOString(), problems: [] },
        };
        await alerts.commitPoll((state) => void state.outbox.push(outboxItem(1), down, outboxItem(2), outboxItem(3)));
        expect(await alerts.recordDelivered([outboxItem(1), down, outboxItem(3)], AT)).toBe(2);
        const read = await alerts.readAlerts();
        expect(read.outbox).toEqual([outboxItem(2)]);
        expect(Object.keys(read.alerted).sort()).toEqual([outboxItem(1).key, outboxItem(3).key].sort());
        expect(read.alerted[outboxItem(1).key]).toEqual({
          createdAt: outboxItem(1).facts.kind === 'withdrawal' ? failedWithdrawalFacts(1, AT).createdAt : '',
          at: AT.toISOString(),
        });
        expect(read.lastDelivery).toEqual({ at: AT.toISOString(), ok: true });
        expect(read.sentPerHour).toEqual({ '2026-11-22T00:00:00.000Z': 2 });
        await alerts.recordDeliveryFailure(AT, 'ratelimited');
        expect((await alerts.readAlerts()).lastDelivery).toEqual({
          at: AT.toISOString(),
          ok: false,
          error: 'ratelimited',
        });
      }),
    );

    it(
      'records a channel refusing alerts until a post there is accepted, and forgets channels no longer used',
      run(async ({ alerts }) => {
        const later = new Date(AT.getTime() + 60_000);
        await alerts.recordDeliveryFailure(AT, 'is_archived', { channel: 'C0OPS', error: 'is_archived' });
        await alerts.recordDeliveryFailure(later, 'channel_not_found', {
          channel: 'C0OPS',
          error: 'channel_not_found',
        });
        await alerts.recordDeliveryFailure(AT, 'not_in_channel', { channel: 'C0PAY', error: 'not_in_channel' });
        // A passing failure records no refusal.
        await alerts.recordDeliveryFailure(later, 'HTTP 503');
        let read = await alerts.readAlerts();
        expect(read.refusingChannels).toEqual({
          C0OPS: { error: 'channel_not_found', since: AT.toISOString(), at: later.toISOString() },
          C0PAY: { error: 'not_in_channel', since: AT.toISOString(), at: AT.toISOString() },
        });
        expect(read.lastDelivery).toEqual({ at: later.toISOString(), ok: false, error: 'HTTP 503' });
        // A post accepted in C0OPS ends its refusal; C0PAY's stays.
        await alerts.commitPoll((state) => void state.outbox.push(outboxItem(1)));
        await alerts.recordDelivered([outboxItem(1)], later, { key: outboxItem(1).key, channel: 'C0OPS', ts: '1.1' });
        read = await alerts.readAlerts();
        expect(Object.keys(read.refusingChannels ?? {})).toEqual(['C0PAY']);
        // The configuration no longer sends alerts to C0PAY: forgotten, and nothing is left.
        await alerts.forgetRefusingChannels(['C0ALERTS', 'C0OPS']);
        expect((await alerts.readAlerts()).refusingChannels).toBeUndefined();
      }),
    );

    it(
      'keeps where an alert was redirected from on the alert people own',
      run(async ({ alerts }) => {
        await alerts.commitPoll((state) => void state.outbox.push(outboxItem(1)));
        const redirectedFrom = { channel: 'C0OPS', error: 'is_archived' };
        await alerts.recordDelivered([outboxItem(1)], AT, {
          key: outboxItem(1).key,
          channel: 'C0ALERTS',
          ts: '1.1',
          redirectedFrom,
        });
        const owned = (await alerts.readAlerts()).owned?.[outboxItem(1).key];
        expect(owned).toMatchObject({ channel: 'C0ALERTS', ts: '1.1', redirectedFrom });
      }),
    );

    it(
      'queues thread work once per thread, and drops each part (then the entry) once posted',
      run(async ({ alerts }) => {
        await alerts.queueThreadWork(threadWork('1.1', 2));
        await alerts.queueThreadWork({ ...threadWork('1.1', 3), queuedAt: 'later' });
        await alerts.queueThreadWork(threadWork('2.2', 1));
        expect((await alerts.readAlerts()).threadWork).toEqual([threadWork('1.1', 2), threadWork('2.2', 1)]);
        await alerts.recordThreadPartPosted('1.1', 1, AT);
        expect(
          (await alerts.readAlerts()).threadWork?.map((w) => [w.threadTs, w.remaining.map((r) => r.part)]),
        ).toEqual([
          ['1.1', [2]],
          ['2.2', [1]],
        ]);
        await alerts.recordThreadPartPosted('1.1', 2, AT);
        await alerts.recordThreadPartPosted('2.2', 1, AT);
        const read = await alerts.readAlerts();
        expect(read.threadWork).toBeUndefined();
        expect(read.lastDelivery).toEqual({ at: AT.toISOString(), ok: true });
      }),
    );

    it(
      'marks items and thread parts as being sent, keeps the mark across reads, and clears it',
      run(async ({ alerts }) => {
        const attempt = { key: 'summary:withdrawal:1', since: AT.toISOString() };
        await alerts.commitPoll((state) => void state.outbox.push(outboxItem(1), outboxItem(2), outboxItem(3)));
        await alerts.queueThreadWork(threadWork('1.1', 2));
        await alerts.recordSending({ itemKeys: [outboxItem(1).key, outboxItem(3).key] }, attempt);
        await alerts.recordSending({ threadTs: '1.1', part: 2 }, { key: 'thread:1.1:2', since: AT.toISOString() });
        let read = await alerts.readAlerts();
        expect(read.outbox).toEqual([
          { ...outboxItem(1), sending: attempt },
          outboxItem(2),
          { ...outboxItem(3), sending: attempt },
        ]);
        expect(read.threadWork?.[0]?.remaining.map((part) => part.sending?.key)).toEqual([undefined, 'thread:1.1:2']);
        // A refusal clears the mark: the items are as they were queued.
        await alerts.recordSending({ itemKeys: [outboxItem(1).key, outboxItem(3).key] }, undefined);
        await alerts.recordSending({ threadTs: '1.1', part: 2 }, undefined);
        read = await alerts.readAlerts();
        expect(read.outbox).toEqual([outboxItem(1), outboxItem(2), outboxItem(3)]);
        expect(read.threadWork).toEqual([threadWork('1.1', 2)]);
      }),
    );
  });

  describe.skipIf(backend.skip)('alerts people own', () => {
    const posted = { key: outboxItem(1).key, channel: 'C0ALERTS', ts: '1700000000.000100' };
    const deliver = async (alerts: AlertRepository) => {
      await alerts.commitPoll((state) => void state.outbox.push(outboxItem(1)));
      await alerts.recordDelivered([outboxItem(1)], AT, posted);
    };
    const act = (userId: string, seenVersion: number) => ({ userId, at: AT, seenVersion });

    it(
      'a delivered alert becomes an owned record; acts change it once, with a thread line each, and refusals change nothing',
      run(async ({ alerts }) => {
        await deliver(alerts);
        const owned = (await alerts.readAlerts()).owned?.[posted.key];
        expect(owned).toMatchObject({
          channel: 'C0ALERTS',
          ts: posted.ts,
          life: { state: 'open', version: 0 },
          shown: 0,
        });
        expect(owned?.objects).toEqual([`withdrawal:${failedWithdrawalFacts(1, AT).id}`]);
        const first = await alerts.actOnAlert(posted.key, (alert) => acknowledgeAlert(alert.life, act('U1', 0)));
        expect(first).toMatchObject({ found: true, ok: true, alert: { life: { state: 'acknowledged', version: 1 } } });
        const second = await alerts.actOnAlert(posted.key, (alert) => acknowledgeAlert(alert.life, act('U2', 0)));
        expect(second).toMatchObject({ found: true, ok: false, refusal: { reason: 'already_acknowledged' } });
        expect(
          await alerts.actOnAlert('withdrawal:nope', (alert) => acknowledgeAlert(alert.life, act('U1', 0))),
        ).toEqual({
          found: false,
        });
        const read = (await alerts.readAlerts()).owned?.[posted.key];
        expect(read?.thread.map((line) => line.event.type)).toEqual(['acknowledged']);
        expect(read?.life.acknowledgedBy).toBe('U1');
      }),
    );

    it(
      'thread lines are claimed once (a second claim gets none), posted or released; the shown version only rises',
      run(async ({ alerts }) => {
        await deliver(alerts);
        await alerts.actOnAlert(posted.key, (alert) => acknowledgeAlert(alert.life, act('U1', 0)));
        const claim = await alerts.claimAlertSync(posted.key, AT);
        expect(claim?.lines.map((line) => line.seq)).toEqual([1]);
        expect((await alerts.claimAlertSync(posted.key, AT))?.lines).toEqual([]);
        await alerts.recordThreadLine(posted.key, 1, 'refused');
        expect((await alerts.claimAlertSync(posted.key, AT))?.lines.map((line) => line.seq)).toEqual([1]);
        await alerts.recordThreadLine(posted.key, 1, 'posted');
        expect((await alerts.readAlerts()).owned?.[posted.key]?.thread).toEqual([]);
        expect((await alerts.recordShown(posted.key, 1))?.shown).toBe(1);
        expect((await alerts.recordShown(posted.key, 0))?.shown).toBe(1);
      }),
    );

    it(
      'reminders are decided once: queued with their line, never again for the same step',
      run(async ({ alerts }) => {
        await deliver(alerts);
        const plan = {
          policy: () => ({ remindAfterMs: 30 * 60_000, staleAfterMs: 24 * 3_600_000 }),
          mentions: () => ['<!subteam^S0ONCALL>'],
        };
        const later = (minutes: number) => new Date(AT.getTime() + minutes * 60_000);
        expect(await alerts.queueDueReminders(later(29), plan)).toEqual([]);
        expect(await alerts.queueDueReminders(later(31), plan)).toEqual([posted.key]);
        expect(await alerts.queueDueReminders(later(45), plan)).toEqual([]);
        expect(await alerts.queueDueReminders(later(61), plan)).toEqual([posted.key]);
        expect(await alerts.queueDueReminders(later(600), plan)).toEqual([]);
        const thread = (await alerts.readAlerts()).owned?.[posted.key]?.thread ?? [];
        expect(thread.map((line) => line.event)).toMatchObject([
          { type: 'reminder_unacknowledged', number: 1, mentions: ['<!subteam^S0ONCALL>'] },
          { type: 'reminder_unacknowledged', number: 2 },
        ]);
      }),
    );

    it(
      'a message posted again is relinked; its owed lines go to the new thread, which says why',
      run(async ({ alerts }) => {
        await deliver(alerts);
        await alerts.actOnAlert(posted.key, (alert) => acknowledgeAlert(alert.life, act('U1', 0)));
        await alerts.claimAlertSync(posted.key, AT);
        await alerts.recordReposting(posted.key, { key: `repost:2:${posted.key}`, since: AT.toISOString() });
        expect((await alerts.readAlerts()).owned?.[posted.key]?.reposting?.key).toBe(`repost:2:${posted.key}`);
        await alerts.recordReposted(posted.key, { channel: 'C0OTHER', ts: '1700000001.000100', version: 1 }, AT);
        const alert = (await alerts.readAlerts()).owned?.[posted.key];
        expect(alert).toMatchObject({ channel: 'C0OTHER', ts: '1700000001.000100', shown: 1 });
        expect(alert?.reposting).toBeUndefined();
        expect(alert?.thread.map((line) => [line.event.type, line.sending])).toEqual([
          ['acknowledged', undefined],
          ['reposted', undefined],
        ]);
      }),
    );
  });
});

describe.skipIf(!available)('PostgreSQL: two replicas on one database', () => {
  const postgres = backends[1]!;
  const replicas = (test: (a: StoreUnderTest, b: StoreUnderTest) => Promise<void>) => () =>
    withStores(postgres, ([a, b]) => test(a!, b!), true);

  it(
    'acknowledges an alert exactly once among 20 concurrent acts split over two replicas; one thread line',
    replicas(async (a, b) => {
      const item = outboxItem(1);
      await a.alerts.commitPoll((state) => void state.outbox.push(item));
      await a.alerts.recordDelivered([item], AT, { key: item.key, channel: 'C0ALERTS', ts: '1.1' });
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).alerts.actOnAlert(item.key, (alert) =>
            acknowledgeAlert(alert.life, { userId: `U${i}`, at: AT, seenVersion: 0 }),
          ),
        ),
      );
      const winners = outcomes.filter((outcome) => outcome.found && outcome.ok);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!.found && winners[0]!.ok ? winners[0]!.alert.life.acknowledgedBy : undefined;
      for (const outcome of outcomes)
        if (outcome.found && !outcome.ok) expect(outcome.alert.life.acknowledgedBy).toBe(winner);
      expect((await b.alerts.readAlerts()).owned?.[item.key]?.thread).toHaveLength(1);
    }),
  );

  it(
    'claims a decision exactly once among 20 claims split over two stores; both see the winner',
    replicas(async (a, b) => {
      await a.swapQuotes.saveQuote(quote('q1'));
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          claimDecision((i % 2 ? a : b).swapQuotes, 'q1', 'approving', `U${i}`, AT, entry('approved', `U${i}`)),
        ),
      );
      expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
      const winner = claims.find((claim) => claim.claimed)!.quote;
      expect(await a.swapQuotes.getQuote('q1')).toEqual(winner);
      expect(await b.swapQuotes.getQuote('q1')).toEqual(winner);
    }),
  );

  it(
    'decisions on quotes of one asset see each other: 20 quorum-reaching approvals of $1 under a $10 daily limit, split over two replicas at once, create exactly 10',
    replicas(async (a, b) => {
      const policy = {
        tiers: [{ minCents: 0n, approvals: 1 }],
        approvers: ['U0A'],
        allowSelfApproval: false,
        dailyLimitUsdCents: 1_000n,
      };
      const ids = Array.from({ length: 20 }, (_, i) => `q${i}`);
      for (const id of ids)
        await a.swapQuotes.saveQuote(
          quote(id, {
            estimatedAt: AT.toISOString(),
            expiresAt: new Date(AT.getTime() + 30 * 60_000).toISOString(),
            valueUsd: { cents: '100' },
            policy: snapshotPolicy(policy, { cents: 100n }, AT),
            approvals: [],
          }),
        );
      const results = await Promise.all(
        ids.map((id, i) =>
          (i % 2 ? a : b).swapQuotes.decideQuote(id, usageLookbackStart(AT), (stored, sameAsset) =>
            decideOnQuote(
              stored,
              stored.policy!,
              { userId: 'U0A', decision: 'approve', at: AT, isApprover: true },
              sameAsset,
            ),
          ),
        ),
      );
      expect(results.filter((result) => result.decision.ok)).toHaveLength(10);
      expect(results.filter((result) => !result.decision.ok && result.decision.reason === 'daily_limit')).toHaveLength(
        10,
      );
      expect((await b.swapQuotes.listQuotesByStatus('approving')).length).toBe(10);
    }),
  );

  it(
    "decisions on one requester's quotes see each other across assets: 10 quorum-reaching approvals of $6,000 under 0:1,10000:2, split over two replicas at once, create exactly 1",
    replicas(async (a, b) => {
      const policy = {
        tiers: [
          { minCents: 0n, approvals: 1 },
          { minCents: 1_000_000n, approvals: 2 },
        ],
        approvers: ['U0A'],
        allowSelfApproval: false,
      };
      const ids = Array.from({ length: 10 }, (_, i) => `q${i}`);
      for (const [i, id] of ids.entries())
        await a.swapQuotes.saveQuote(
          quote(id, {
            // Each out of its own asset: no daily-limit lock in common, only the requester's.
            from: { ...quote('x').from, assetId: `asset-${i}` },
            estimatedAt: AT.toISOString(),
            expiresAt: new Date(AT.getTime() + 30 * 60_000).toISOString(),
            valueUsd: { cents: '600000' },
            policy: snapshotPolicy(policy, { cents: 600_000n }, AT),
            approvals: [],
          }),
        );
      const results = await Promise.all(
        ids.map((id, i) =>
          (i % 2 ? a : b).swapQuotes.decideQuote(id, usageLookbackStart(AT), (stored, related) =>
            decideOnQuote(
              stored,
              stored.policy!,
              { userId: 'U0A', decision: 'approve', at: AT, isApprover: true },
              related,
            ),
          ),
        ),
      );
      expect(results.filter((result) => result.decision.ok && result.quote.status === 'approving')).toHaveLength(1);
      expect(
        results.filter((result) => result.quote.status === 'pending' && result.quote.policy?.needed === 2),
      ).toHaveLength(9);
      expect((await b.swapQuotes.listQuotesByStatus('approving')).length).toBe(1);
    }),
  );

  it(
    'claims a requote and marks outcome unknown once across the two stores',
    replicas(async (a, b) => {
      await a.swapQuotes.saveQuote(quote('q1', { status: 'expired' }));
      await a.swapQuotes.saveQuote(quote('q2', { status: 'approving' }));
      const requotes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).swapQuotes.claimRequote('q1', `n${i}`, entry('requote'))),
      );
      expect(requotes.filter(Boolean)).toHaveLength(1);
      const marks = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).swapQuotes.markOutcomeUnknown('q2', 'restarted', AT, entry('unknown')),
        ),
      );
      expect(marks.filter(Boolean)).toHaveLength(1);
    }),
  );

  it(
    'serializes polls of both stores: each one appends its item and none is lost',
    replicas(async (a, b) => {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).alerts.commitPoll((state) => {
            state.outbox.push(outboxItem(i));
            state.sources.withdrawals.consecutiveFailures += 1;
          }),
        ),
      );
      const [fromA, fromB] = [await a.alerts.readAlerts(), await b.alerts.readAlerts()];
      expect(fromA).toEqual(fromB);
      expect(fromA.sources.withdrawals.consecutiveFailures).toBe(10);
      expect(fromA.outbox).toHaveLength(10);
      await b.alerts.recordDelivered(fromA.outbox.slice(0, 4), AT);
      expect((await a.alerts.readAlerts()).outbox).toEqual(fromA.outbox.slice(4));
    }),
  );
});

describe.skipIf(!available)('PostgreSQL specifics', () => {
  it('opens two stores at once on a fresh database: the migrations run once, and again finds nothing to do', async () => {
    const url = await freshDatabase();
    const stores = await Promise.all([openPostgresStore(url), openPostgresStore(url), openPostgresStore(url)]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number; times: string }>(
        'SELECT version, count(*) AS times FROM schema_migrations GROUP BY version ORDER BY version',
      );
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, times: '1' })));
      await stores[0]!.swapQuotes.saveQuote(quote('q1'));
      expect(await stores[2]!.swapQuotes.getQuote('q1')).toEqual(quote('q1'));
      await (await openPostgresStore(url)).close();
      expect((await client.query('SELECT * FROM schema_migrations')).rowCount).toBe(MIGRATIONS.length);
    } finally {
      await client.end();
      for (const store of stores) await store.close();
    }
  });

  it('never shows the connection string or its password, in errors or logs', async () => {
    const lines: string[] = [];
    const logger = createLogger('debug', (line) => lines.push(line));
    const secret = 'S3cret-Pa55word';
    const unreachable = `postgresql://app:${secret}@127.0.0.1:1/nowhere`;
    const error: unknown = await openPostgresStore(unreachable, { logger, connectionTimeoutMillis: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/the database failed while applying the schema migrations/);
    const lease = createLeaderLease(unreachable, { key: 7, logger, connectionTimeoutMillis: 1000 });
    expect(await lease.tryAcquire()).toBe(false);
    await expect(lease.holderInfo()).rejects.toThrow(StoreError);
    await lease.close();

    // A store whose database goes away: its pool's dropped connections do not crash the process, health says so.
    const url = (await freshDatabase()).replace('postgresql://app@', `postgresql://app:${secret}@`);
    const store = await openPostgresStore(url, { logger });
    expect(await store.health()).toMatchObject({ ok: true });
    const admin = new pg.Client({ connectionString: postgres.connectionString('postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE ${pg.escapeIdentifier(new URL(url).pathname.slice(1))} WITH (FORCE)`);
    await admin.end();
    const health = await store.health();
    expect(health.ok).toBe(false);
    await expect(store.swapQuotes.getQuote('q1')).rejects.toThrow(StoreError);
    await store.close();

    const everything = [String(error), (error as Error).message, health.detail, ...lines].join('\n');
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(unreachable);
  });

  it('survives its connections being killed (a database restart): the process does not crash, the next changes work', async () => {
    const url = await freshDatabase();
    const lines: string[] = [];
    const store = await openPostgresStore(url, {
      replicaName: 'replica-killed',
      logger: createLogger('debug', (line) => lines.push(line)),
    });
    await Promise.all([
      store.swapQuotes.saveQuote(quote('q1')),
      store.alerts.readAlerts(),
      store.swapQuotes.listRecentQuotes(5),
    ]);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const killed = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'replica-killed'`,
    );
    await admin.end();
    expect(killed.rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await claimDecision(store.swapQuotes, 'q1', 'rejected', 'U2', AT, entry('rejected'))).claimed).toBe(true);
    await store.alerts.recordDeliveryFailure(AT, 'x');
    expect(await store.health()).toMatchObject({ ok: true });
    expect(lines.join('\n')).toMatch(/WARN {2}an idle database connection failed/);
    await store.close();
  });

  it('leaves out a damaged quote from listings (logged, loudly when approving), refuses to count it toward a limit, to hand it out or change it', async () => {
    const url = await freshDatabase();
    const lines: string[] = [];
    const store = await openPostgresStore(url, { logger: createLogger('debug', (line) => lines.push(line)) });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await store.swapQuotes.saveQuote(quote('good'));
      await client.query(
        `INSERT INTO swap_quotes (id, status, estimated_at, record) VALUES ('bad', 'pending', now(), '{"id":"bad"}')`,
      );
      expect((await store.swapQuotes.listRecentQuotes(10)).map((q) => q.id)).toEqual(['good']);
      expect(lines.join('\n')).toMatch(/ERROR a damaged swap quote in the database was left out.*"id":"bad"/);
      // What the daily limit and the 24-hour totals count never leaves it out: it refuses, naming it.
      await expect(store.swapQuotes.listUsageSince(new Date(0))).rejects.toThrow(DamagedRecordError);
      await expect(store.swapQuotes.listUsageSince(new Date(0))).rejects.toThrow(
        /swap quote "bad" in the database is damaged/,
      );
      // The recovery of approving quotes cannot mark a damaged one outcome_unknown: it says so loudly.
      await client.query(
        `INSERT INTO swap_quotes (id, status, estimated_at, record) VALUES ('stuck', 'approving', now(), '{"id":"stuck"}')`,
      );
      expect(await store.swapQuotes.listQuotesByStatus('approving')).toEqual([]);
      expect(lines.join('\n')).toMatch(
        /ERROR a damaged swap quote in the database is approving: it cannot be recovered \(never marked outcome_unknown\); check the payment dashboard for its swap.*"id":"stuck"/,
      );
      await expect(store.swapQuotes.getQuote('bad')).rejects.toThrow(/damaged/);
      await expect(claimDecision(store.swapQuotes, 'bad', 'rejected', 'U2', AT, entry('rejected'))).rejects.toThrow(
        StoreError,
      );
      // A poll that would leave invalid bookkeeping is refused whole.
      await expect(
        store.alerts.commitPoll((state) => {
          state.sources.withdrawals.consecutiveFailures = 1.5;
        }),
      ).rejects.toThrow(StoreError);
      expect((await store.alerts.readAlerts()).sources.withdrawals.consecutiveFailures).toBe(0);
    } finally {
      await client.end();
      await store.close();
    }
  });
});

describe.skipIf(!available)('PostgreSQL leader lease', () => {
  const leases: LeaderLease[] = [];
  const lease = (url: string, name: string, key = 4242) => {
    const created = createLeaderLease(url, { key, replicaName: name });
    leases.push(created);
    return created;
  };
  afterAll(async () => {
    for (const created of leases) await created.close();
  });

  /** Asks `lease` until it holds (a terminated backend frees its lock a moment after it is told to end). */
  async function acquireSoon(candidate: LeaderLease): Promise<boolean> {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      if (await candidate.tryAcquire()) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  it('two replicas on one key: exactly one holds, holderInfo names it, and release or close hands it over', async () => {
    const url = await freshDatabase();
    const a = lease(url, 'replica-a');
    const b = lease(url, 'replica-b');
    expect(await a.holderInfo()).toBeUndefined();
    const results = await Promise.all([a.tryAcquire(), b.tryAcquire()]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const [holder, other] = results[0] ? [a, b] : [b, a];
    const holderName = results[0] ? 'replica-a' : 'replica-b';
    expect([holder.isHeld(), other.isHeld()]).toEqual([true, false]);
    expect(await other.holderInfo()).toMatchObject({ name: holderName, pid: expect.any(Number) });
    expect(await holder.tryAcquire()).toBe(true); // asking again keeps one hold, not two
    expect(await other.tryAcquire()).toBe(false);

    await holder.release();
    expect(holder.isHeld()).toBe(false);
    expect(await other.tryAcquire()).toBe(true);
    expect(await holder.tryAcquire()).toBe(false);

    await other.close();
    expect(await holder.tryAcquire()).toBe(true);
    expect((await holder.holderInfo())?.name).toBe(holderName);
    // A different key is a different lease.
    expect(await lease(url, 'replica-c', 4343).tryAcquire()).toBe(true);
  });

  it('overlapping tryAcquire calls stack no second hold: one release frees the lease', async () => {
    const url = await freshDatabase();
    const a = lease(url, 'replica-a');
    const b = lease(url, 'replica-b');
    expect(await Promise.all([a.tryAcquire(), a.tryAcquire(), a.tryAcquire()])).toEqual([true, true, true]);
    await a.release();
    expect(await b.tryAcquire()).toBe(true);
  });

  it('a holder whose connection is killed loses the lease; the other takes it, and the first reconnects as a follower', async () => {
    const url = await freshDatabase();
    const a = lease(url, 'replica-a');
    const b = lease(url, 'replica-b');
    expect(await a.tryAcquire()).toBe(true);
    const pid = (await b.holderInfo())!.pid;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();
    expect(await acquireSoon(b)).toBe(true);
    expect(await a.tryAcquire()).toBe(false);
    expect(a.isHeld()).toBe(false);
    expect((await a.holderInfo())?.name).toBe('replica-b');
    await b.close();
    expect(await acquireSoon(a)).toBe(true);
  });
});
