// The second factor kept by both stores (the lowdb state file and a real throwaway PostgreSQL), through the service
// an approval calls (readiness, verify): a code is accepted once even by two replicas at the same instant, five
// wrong codes lock (announced once), enrolments survive a restart, and a damaged record fails closed and stays.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import type { BotRepositories } from '../../src/features/repositories.js';
import type { EnrolmentRecord } from '../../src/features/second-factor/rules.js';
import { createSecondFactorService } from '../../src/features/second-factor/service.js';
import { createSecretBox } from '../../src/kernel/secret-box.js';
import type { Logger } from '../../src/logger.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('second_factor');

const KEY = Buffer.alloc(32, 9);
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const T0 = new Date('2026-11-28T12:00:10.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const codeAt = (when: Date) => generateSync({ secret: SECRET, epoch: Math.floor(when.getTime() / 1000) });

/** The service over `store` with a clock the test moves, Slack posts recorded, and every log line kept. */
function serviceOver(
  store: Pick<BotRepositories, 'secondFactor'>,
  options: { key?: Buffer | undefined; failPost?: boolean; hangPost?: boolean } = {},
) {
  let now = T0;
  const posts: { channel: string; text: string }[] = [];
  const logs: string[] = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const service = createSecondFactorService({
    store,
    key: 'key' in options ? options.key : KEY,
    slack: {
      post: async (channel, message) => {
        if (options.failPost) throw new Error('channel_not_found');
        if (options.hangPost) await new Promise(() => {});
        posts.push({ channel, text: message.text });
        return '1.1';
      },
      openDirectMessage: async (userId) => `D${userId}`,
      uploadFile: async () => ({ fileId: 'F1' }),
      // The reset picker is tested end to end (two-factor-reset-picker.test.ts).
      openView: async () => {
        throw new Error('no modals in these tests');
      },
    },
    logger,
    now: () => now,
    alertChannel: 'C0ALERTS',
    stepUpLabel: '$50,000',
    isAdmin: async (userId) => userId === 'U0ADMIN',
  });
  return { service, posts, logs, setNow: (when: Date) => (now = when) };
}

/** Stores Avery as enrolled with SECRET (as a confirmed enrolment would), through the repository. */
async function enrolAvery(store: Pick<BotRepositories, 'secondFactor'>, state: 'enrolled' | 'pending' = 'enrolled') {
  const sealedSecret = createSecretBox(KEY).seal(SECRET, 'U0AVERY');
  await store.secondFactor.changeEnrolment('U0AVERY', () => ({
    result: undefined,
    next: {
      userId: 'U0AVERY',
      sealedSecret,
      state,
      startedAt: T0.toISOString(),
      ...(state === 'enrolled' ? { enrolledAt: T0.toISOString() } : {}),
      wrongCodes: 0,
    },
    events: [{ at: T0.toISOString(), event: 'enrolled', userId: 'U0AVERY' }],
  }));
}

describe.each(backends)('the second factor: $name', (backend) => {
  it.skipIf(backend.skip)('nobody is enrolled at first; pending is not enrolled; enrolled is', async () => {
    const store = await backend.open();
    try {
      const { service } = serviceOver(store);
      expect(await store.secondFactor.readEnrolment('U0AVERY')).toEqual({ kind: 'none' });
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'not_enrolled' });
      expect(await service.verify('U0AVERY', codeAt(T0))).toEqual({
        ok: false,
        reason: 'not_enrolled',
        message: expect.stringContaining('/treasury 2fa enroll'),
      });
      await enrolAvery(store, 'pending');
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'not_enrolled' });
      expect(await service.verify('U0AVERY', codeAt(T0))).toMatchObject({ ok: false, reason: 'not_enrolled' });
      await enrolAvery(store);
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'enrolled' });
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('a code is accepted once; replayed, wrong and malformed codes are told apart', async () => {
    const store = await backend.open();
    try {
      await enrolAvery(store);
      const { service, logs } = serviceOver(store);
      const code = codeAt(T0);
      expect(await service.verify('U0AVERY', `${code.slice(0, 3)} ${code.slice(3)}`)).toEqual({ ok: true });
      expect(await service.verify('U0AVERY', code)).toEqual({
        ok: false,
        reason: 'replayed',
        message: expect.stringContaining('used already'),
      });
      expect(await service.verify('U0AVERY', code === '000000' ? '111111' : '000000')).toEqual({
        ok: false,
        reason: 'wrong',
        message: 'That code is not right: 3 more wrong codes lock your approvals for 15 minutes.',
      });
      expect(await service.verify('U0AVERY', '12 34')).toMatchObject({ ok: false, reason: 'malformed' });
      expect(logs.join('\n')).not.toContain(code);
      expect(logs.join('\n')).not.toContain(SECRET);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('five wrong codes lock for 15 minutes, announced once in ALERT_CHANNEL', async () => {
    const store = await backend.open();
    try {
      await enrolAvery(store);
      const { service, posts, setNow } = serviceOver(store);
      const answers = [];
      for (let n = 1; n <= 6; n++) {
        setNow(at(n));
        answers.push(await service.verify('U0AVERY', '000000'));
      }
      expect(answers.map((a) => (a.ok ? 'ok' : a.reason))).toEqual([
        'wrong',
        'wrong',
        'wrong',
        'wrong',
        'locked',
        'locked',
      ]);
      expect(answers[4]).toMatchObject({ message: 'Your approvals are locked until 12:15 UTC after 5 wrong codes.' });
      expect(posts).toEqual([
        { channel: 'C0ALERTS', text: "<@U0AVERY>'s approvals are locked for 15 minutes after 5 wrong codes." },
      ]);
      setNow(at(60));
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'locked', until: '2026-11-28T12:15:15.000Z' });
      expect(await service.verify('U0AVERY', codeAt(at(60)))).toMatchObject({ ok: false, reason: 'locked' });
      setNow(at(15 * 60 + 5));
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'enrolled' });
      expect(await service.verify('U0AVERY', codeAt(at(15 * 60 + 5)))).toEqual({ ok: true });
      const trail = await store.secondFactor.listSecondFactorTrail(T0);
      expect(trail.map((e) => e.event)).toEqual([
        'enrolled',
        'wrong_code',
        'wrong_code',
        'wrong_code',
        'wrong_code',
        'wrong_code',
        'locked',
      ]);
      expect(JSON.stringify(trail)).not.toMatch(/000000|JBSW|v1:/);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('a failed alert post is logged and never undoes the lock', async () => {
    const store = await backend.open();
    try {
      await enrolAvery(store);
      const { service, logs, setNow } = serviceOver(store, { failPost: true });
      for (let n = 1; n <= 5; n++) {
        setNow(at(n));
        await service.verify('U0AVERY', '000000');
      }
      expect(await service.readiness('U0AVERY')).toMatchObject({ state: 'locked' });
      expect(logs.some((line) => line.includes('could not post the second factor lock'))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)(
    'two verifies of the same code at once (two replicas on PostgreSQL): exactly one is accepted',
    async () => {
      const store = await backend.open();
      const other = store.another ? await store.another() : store;
      try {
        await enrolAvery(store);
        for (let round = 0; round < 5; round++) {
          const when = at(round * 30);
          const code = codeAt(when);
          const a = serviceOver(store);
          const b = serviceOver(other);
          a.setNow(when);
          b.setNow(when);
          const answers = await Promise.all([a.service.verify('U0AVERY', code), b.service.verify('U0AVERY', code)]);
          expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
          expect(answers.filter((answer) => !answer.ok)).toEqual([
            expect.objectContaining({ ok: false, reason: 'replayed' }),
          ]);
        }
      } finally {
        if (other !== store) await other.close();
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)('without a key: nobody is enrolled, and codes are not checked', async () => {
    const store = await backend.open();
    try {
      await enrolAvery(store);
      const { service } = serviceOver(store, { key: undefined });
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'not_enrolled' });
      expect(await service.verify('U0AVERY', codeAt(T0))).toEqual({
        ok: false,
        reason: 'not_enrolled',
        message: 'Second factors are not set up on this bot: an engineer sets TOTP_ENCRYPTION_KEY.',
      });
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)(
    'another key: the secret does not open; fails closed, counts nothing, record kept',
    async () => {
      const store = await backend.open();
      try {
        await enrolAvery(store);
        const { service } = serviceOver(store, { key: Buffer.alloc(32, 1) });
        expect(await service.verify('U0AVERY', codeAt(T0))).toMatchObject({
          ok: false,
          reason: 'not_enrolled',
          message: expect.stringContaining('ask a treasury admin to reset it'),
        });
        expect(await store.secondFactor.readEnrolment('U0AVERY')).toMatchObject({
          kind: 'enrolment',
          record: { wrongCodes: 0 },
        });
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)('a damaged record fails closed, is kept, and only an admin reset removes it', async () => {
    const store = await backend.open();
    try {
      await enrolAvery(store);
      // Written the way a bad hand edit (or a bug) would leave it: a record that no longer reads.
      await store.secondFactor.changeEnrolment('U0AVERY', (stored) => ({
        result: undefined,
        next: {
          ...(stored.kind === 'enrolment' ? stored.record : {}),
          wrongCodes: 'many',
        } as unknown as EnrolmentRecord,
        events: [],
      }));
      const { service } = serviceOver(store);
      expect(await store.secondFactor.readEnrolment('U0AVERY')).toMatchObject({ kind: 'damaged' });
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'not_enrolled' });
      expect(await service.verify('U0AVERY', codeAt(T0))).toMatchObject({
        ok: false,
        reason: 'not_enrolled',
        message: expect.stringContaining('ask a treasury admin to reset it'),
      });
      await expect(service.enroll('U0AVERY')).rejects.toThrow(/ask a treasury admin to reset it/);
      expect(await store.secondFactor.readEnrolment('U0AVERY')).toMatchObject({ kind: 'damaged' });
      await expect(service.reset('U0AVERY', 'U0AVERY')).rejects.toThrow(/Only treasury admins/);
      await service.reset('U0ADMIN', 'U0AVERY');
      expect(await store.secondFactor.readEnrolment('U0AVERY')).toEqual({ kind: 'none' });
      expect((await store.secondFactor.listSecondFactorTrail(T0)).at(-1)).toMatchObject({
        event: 'reset',
        userId: 'U0AVERY',
        by: 'U0ADMIN',
      });
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)('state survives a restart (another replica, or the file reopened)', async () => {
    const store = await backend.open();
    try {
      await enrolAvery(store);
      expect(await serviceOver(store).service.verify('U0AVERY', codeAt(T0))).toEqual({ ok: true });
      if (store.another) {
        const other = await store.another();
        try {
          const { service } = serviceOver(other);
          expect(await service.readiness('U0AVERY')).toEqual({ state: 'enrolled' });
          expect(await service.verify('U0AVERY', codeAt(T0))).toMatchObject({ reason: 'replayed' });
        } finally {
          await other.close();
        }
      }
    } finally {
      await store.close();
    }
  });
});

describe('the second factor in the state file', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'second-factor-file-'));

  it('survives a restart: enrolled, with its used step', async () => {
    const file = join(dir(), 'state.json');
    const store = await openBotStore(file);
    await enrolAvery(store);
    expect(await serviceOver(store).service.verify('U0AVERY', codeAt(T0))).toEqual({ ok: true });
    await store.close();
    const reopened = await openBotStore(file);
    try {
      const { service } = serviceOver(reopened);
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'enrolled' });
      expect(await service.verify('U0AVERY', codeAt(T0))).toMatchObject({ reason: 'replayed' });
      expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
    } finally {
      await reopened.close();
    }
  });

  it('a file written before the second factor existed loads with none', async () => {
    const file = join(dir(), 'state.json');
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: {} }));
    const store = await openBotStore(file);
    try {
      expect(await store.secondFactor.readEnrolment('U0AVERY')).toEqual({ kind: 'none' });
      expect(await store.secondFactor.listSecondFactorTrail(T0)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a damaged enrolment stays in the file and fails closed until an admin resets it', async () => {
    const file = join(dir(), 'state.json');
    const store = await openBotStore(file);
    await enrolAvery(store);
    await store.close();
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    saved.secondFactor.people.U0AVERY.wrongCodes = 'many';
    saved.secondFactor.trail.push(7);
    writeFileSync(file, JSON.stringify(saved));
    const reopened = await openBotStore(file);
    try {
      const { service } = serviceOver(reopened);
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'not_enrolled' });
      expect(await service.verify('U0AVERY', codeAt(T0))).toMatchObject({ ok: false, reason: 'not_enrolled' });
      await expect(service.enroll('U0AVERY')).rejects.toThrow(/ask a treasury admin to reset it/);
      expect(JSON.parse(readFileSync(file, 'utf8')).secondFactor.people.U0AVERY.wrongCodes).toBe('many');
      await service.reset('U0ADMIN', 'U0AVERY');
      expect(await reopened.secondFactor.readEnrolment('U0AVERY')).toEqual({ kind: 'none' });
    } finally {
      await reopened.close();
    }
  });

  it('a second factor part that is not a record refuses the file rather than un-enrolling everyone', async () => {
    const file = join(dir(), 'state.json');
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: {}, secondFactor: { people: [], trail: [] } }));
    await expect(openBotStore(file)).rejects.toThrow(/second factor/);
  });
});
