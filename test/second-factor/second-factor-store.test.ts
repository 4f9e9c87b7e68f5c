// The second factor kept by both stores (the lowdb state file and a real throwaway PostgreSQL), through the service
// an approval calls (readiness, verify): a code is accepted once even by two replicas at the same instant, five
// wrong codes lock (announced once), enrolments survive a restart, and a damaged record fails closed and stays.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSync } from 'otplib';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { BotRepositories } from '../../src/features/repositories.js';
import type { EnrolmentRecord } from '../../src/features/second-factor/rules.js';
import { createSecondFactorService } from '../../src/features/second-factor/service.js';
import { createSecretBox } from '../../src/kernel/secret-box.js';
import type { Logger } from '../../src/logger.js';
import { silentLogger } from '../../src/logger.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { databaseOver } from '../../src/store/postgres/database.js';
import { MIGRATIONS, openPostgresStore } from '../../src/store/postgres/index.js';
import { migrate } from '../../src/store/postgres/migrations.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('second_factor');

const KEY = Buffer.alloc(32, 9);
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const T0 = new Date('2026-11-28T12:00:10.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const codeAt = (when: Date) => generateSync({ secret: SECRET, epoch: Math.floor(when.getTime() / 1000) });

/** An error as Bolt's WebClient throws it when Slack answers `ok: false`. */
const slackRefusal = (code: string) =>
  Object.assign(new Error(`An API error occurred: ${code}`), {
    code: 'slack_webapi_platform_error',
    data: { error: code },
  });

/** The service over `store` with a clock the test moves, Slack posts recorded, and every log line kept. */
function serviceOver(
  store: Pick<BotRepositories, 'secondFactor'>,
  options: { key?: Buffer | undefined; failPost?: boolean; hangPost?: boolean; failDelete?: boolean } = {},
) {
  let now = T0;
  const posts: { channel: string; text: string }[] = [];
  const deleted: string[] = [];
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
      update: async () => undefined,
      openDirectMessage: async (userId) => `D${userId}`,
      uploadFile: async () => ({ fileId: 'F1' }),
      deleteMessage: async (channel, ts) => {
        if (options.failDelete) throw slackRefusal('ratelimited');
        deleted.push(`message:${channel}:${ts}`);
        return 'deleted';
      },
      deleteFile: async (fileId) => {
        if (options.failDelete) throw slackRefusal('ratelimited');
        deleted.push(`file:${fileId}`);
        return 'deleted';
      },
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
  return { service, posts, logs, deleted, setNow: (when: Date) => (now = when) };
}

/**
 * Stores Avery as enrolled with SECRET (as an enrolment another admin confirmed would; `unconfirmed`: one no other
 * admin confirmed yet), through the repository.
 */
async function enrolAvery(
  store: Pick<BotRepositories, 'secondFactor'>,
  state: 'enrolled' | 'pending' | 'unconfirmed' = 'enrolled',
) {
  const sealedSecret = createSecretBox(KEY).seal(SECRET, 'U0AVERY');
  await store.secondFactor.changeEnrolment('U0AVERY', () => ({
    result: undefined,
    next: {
      userId: 'U0AVERY',
      sealedSecret,
      state: state === 'pending' ? 'pending' : 'enrolled',
      startedAt: T0.toISOString(),
      ...(state === 'pending' ? {} : { enrolledAt: T0.toISOString() }),
      ...(state === 'enrolled' ? { adminConfirmation: { at: T0.toISOString(), by: 'U0ADMIN' } } : {}),
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

  it.skipIf(backend.skip)(
    'a new enrolment counts for approvals only once another admin confirmed it; a reset clears that',
    async () => {
      const store = await backend.open();
      try {
        await enrolAvery(store, 'unconfirmed');
        const { service, posts } = serviceOver(store);
        const waiting = 'Your second factor waits for another admin to confirm it in the alert channel';
        expect(await service.readiness('U0AVERY')).toMatchObject({ state: 'awaiting_admin' });
        const refused = await service.verify('U0AVERY', codeAt(T0));
        expect(refused).toMatchObject({ ok: false, reason: 'awaiting_admin' });
        expect(!refused.ok && refused.message).toContain(waiting);
        const value = `U0AVERY|${T0.toISOString()}`;
        // Only the click's user id judges: the enrolled person cannot vouch for themself, a non-admin cannot either.
        expect(await service.confirmByAdmin('U0AVERY', value, undefined)).toMatch(/cannot confirm your own/);
        expect(await service.confirmByAdmin('U0RILEY', value, undefined)).toMatch(/Only treasury admins/);
        expect(await service.confirmByAdmin('U0ADMIN', 'U0AVERY|junk', undefined)).toMatch(/cannot use/);
        expect(await service.verify('U0AVERY', codeAt(T0))).toMatchObject({ reason: 'awaiting_admin' });
        expect(await service.confirmByAdmin('U0ADMIN', value, undefined)).toMatch(/You confirmed <@U0AVERY>/);
        expect(posts.find((p) => p.channel === 'DU0AVERY')?.text).toContain(
          '<@U0ADMIN> confirmed your new second factor',
        );
        // Every replica sees it: the decision reads the store.
        const other = store.another ? await store.another() : undefined;
        try {
          const judge = other ? serviceOver(other).service : service;
          expect(await judge.verify('U0AVERY', codeAt(T0))).toEqual({ ok: true });
        } finally {
          await other?.close();
        }
        expect((await store.secondFactor.listSecondFactorTrail(T0)).map((e) => [e.event, e.by])).toContainEqual([
          'admin_confirmed',
          'U0ADMIN',
        ]);
        // A reset (by another admin) clears the enrolment and its confirmation; the old button confirms nothing new.
        await service.reset('U0ADMIN', 'U0AVERY');
        await store.secondFactor.changeEnrolment('U0AVERY', () => ({
          result: undefined,
          next: {
            userId: 'U0AVERY',
            sealedSecret: createSecretBox(KEY).seal(SECRET, 'U0AVERY'),
            state: 'enrolled',
            startedAt: at(60).toISOString(),
            enrolledAt: at(60).toISOString(),
            wrongCodes: 0,
          },
          events: [],
        }));
        expect(await service.confirmByAdmin('U0ADMIN', value, undefined)).toMatch(/no longer there/);
        expect(await service.readiness('U0AVERY')).toMatchObject({ state: 'awaiting_admin' });
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)('nobody resets their own second factor, typed or picked: the rule refuses', async () => {
    const store = await backend.open();
    try {
      await enrolAvery(store);
      const { service } = serviceOver(store, {});
      // U0ADMIN is an admin with a second factor of their own.
      await store.secondFactor.changeEnrolment('U0ADMIN', () => ({
        result: undefined,
        next: {
          userId: 'U0ADMIN',
          sealedSecret: createSecretBox(KEY).seal(SECRET, 'U0ADMIN'),
          state: 'enrolled',
          startedAt: T0.toISOString(),
          enrolledAt: T0.toISOString(),
          adminConfirmation: { at: T0.toISOString(), by: 'U0OTHER' },
          wrongCodes: 0,
        },
        events: [],
      }));
      await expect(service.reset('U0ADMIN', 'U0ADMIN')).rejects.toThrow(/You cannot reset your own second factor/);
      expect(await service.submitResetPicker('U0ADMIN', 'U0ADMIN')).toEqual({
        errors: { reset_person: expect.stringContaining('You cannot reset your own second factor') },
      });
      expect(await store.secondFactor.readEnrolment('U0ADMIN')).toMatchObject({ kind: 'enrolment' });
      // Another person's: reset as before.
      expect((await service.reset('U0ADMIN', 'U0AVERY')).text).toContain('is reset');
    } finally {
      await store.close();
    }
  });

  it.skipIf(backend.skip)(
    'the enrolment DM is deleted once confirmed, and when an unconfirmed enrolment lapses after 10 minutes',
    async () => {
      const store = await backend.open();
      try {
        const { service, deleted, posts, setNow } = serviceOver(store);
        await service.enroll('U0AVERY');
        const dmText = posts.find((p) => p.channel === 'DU0AVERY')!.text;
        const secret = new URL(/otpauth:\/\/totp\/[^\s`>]+/.exec(dmText)![0].replace(/&amp;/g, '&')).searchParams.get(
          'secret',
        )!;
        const reply = await service.confirm(
          'U0AVERY',
          generateSync({ secret, epoch: Math.floor(T0.getTime() / 1000) }),
        );
        expect(reply.text).toContain(
          'The message with your secret and QR code has been deleted; your authenticator app keeps the key.',
        );
        expect(deleted).toEqual(['file:F1', 'message:DU0AVERY:1.1']);
        expect(await store.secondFactor.listSlackDeletions()).toEqual([]);
        // Announced for another admin, and said so.
        expect(posts.find((p) => p.channel === 'C0ALERTS')?.text).toContain('<@U0AVERY> enrolled a new second factor');
        expect(reply.text).toContain('waits for another admin to confirm it');

        // Riley starts and never types a code: 10 minutes on, the upkeep clears it and deletes the DM.
        deleted.length = 0;
        await service.enroll('U0RILEY');
        setNow(at(9 * 60 + 59));
        await service.upkeep();
        expect(await store.secondFactor.readEnrolment('U0RILEY')).toMatchObject({ kind: 'enrolment' });
        expect(deleted).toEqual([]);
        setNow(at(10 * 60));
        await service.upkeep();
        expect(await store.secondFactor.readEnrolment('U0RILEY')).toEqual({ kind: 'none' });
        expect(deleted).toEqual(['file:F1', 'message:DU0RILEY:1.1']);
        expect(posts.filter((p) => p.channel === 'DU0RILEY').at(-1)?.text).toContain(
          'The message with your secret and QR code has been deleted',
        );
        expect((await store.secondFactor.listSecondFactorTrail(T0)).map((e) => e.event)).toContain('enrolment_lapsed');
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip)(
    'a failed delete stays queued in the store, is logged, and is retried (by another replica too)',
    async () => {
      const store = await backend.open();
      try {
        const failing = serviceOver(store, { failDelete: true });
        await failing.service.enroll('U0AVERY');
        const dmText = failing.posts.find((p) => p.channel === 'DU0AVERY')!.text;
        const secret = new URL(/otpauth:\/\/totp\/[^\s`>]+/.exec(dmText)![0].replace(/&amp;/g, '&')).searchParams.get(
          'secret',
        )!;
        const reply = await failing.service.confirm(
          'U0AVERY',
          generateSync({ secret, epoch: Math.floor(T0.getTime() / 1000) }),
        );
        expect(reply.text).toContain('could not delete the message with your secret and QR code yet');
        const queued = await store.secondFactor.listSlackDeletions();
        expect(queued.map((d) => [d.id, d.attempts, d.lastError])).toEqual([
          ['file:F1', 1, 'ratelimited'],
          ['message:DU0AVERY:1.1', 1, 'ratelimited'],
        ]);
        expect(failing.logs.filter((line) => line.includes('could not delete a part of an enrolment DM'))).toHaveLength(
          2,
        );
        // Not due yet: nothing tried. Then another process (a restart, another replica) deletes them.
        const other = store.another ? await store.another() : undefined;
        try {
          const next = serviceOver(other ?? store);
          next.setNow(at(10));
          await next.service.upkeep();
          expect(next.deleted).toEqual([]);
          next.setNow(at(31));
          await next.service.upkeep();
          expect(next.deleted).toEqual(['file:F1', 'message:DU0AVERY:1.1']);
          expect(await store.secondFactor.listSlackDeletions()).toEqual([]);
        } finally {
          await other?.close();
        }
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(backend.skip || backend.emptyDatabase === undefined)(
    'PostgreSQL: an enrolment confirmed before the upgrade (a database at version 9) stays valid',
    async () => {
      const url = await backend.emptyDatabase!();
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        await migrate(
          databaseOver(pool),
          silentLogger,
          MIGRATIONS.filter((m) => m.version <= 9),
        );
        const old = {
          userId: 'U0AVERY',
          sealedSecret: createSecretBox(KEY).seal(SECRET, 'U0AVERY'),
          state: 'enrolled',
          startedAt: T0.toISOString(),
          enrolledAt: T0.toISOString(),
          wrongCodes: 0,
        };
        const pending = { ...old, userId: 'U0RILEY', state: 'pending', enrolledAt: undefined };
        await pool.query(
          `INSERT INTO second_factor_enrolments (user_id, record) VALUES ('U0AVERY', $1::json), ('U0RILEY', $2::json)`,
          [JSON.stringify(old), JSON.stringify(pending)],
        );
      } finally {
        await pool.end();
      }
      const store = await openPostgresStore(url);
      try {
        const { service } = serviceOver(store);
        expect(await service.readiness('U0AVERY')).toEqual({ state: 'enrolled' });
        expect(await service.verify('U0AVERY', codeAt(T0))).toEqual({ ok: true });
        expect(await store.secondFactor.readEnrolment('U0AVERY')).toMatchObject({
          record: { adminConfirmation: { at: T0.toISOString() } },
        });
        // Not an enrolment yet: nothing carried over.
        const riley = await store.secondFactor.readEnrolment('U0RILEY');
        expect(riley).toMatchObject({ record: { state: 'pending' } });
        expect(riley.kind === 'enrolment' ? riley.record.adminConfirmation : 'none').toBeUndefined();
      } finally {
        await store.close();
      }
    },
  );

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

  it('an enrolment confirmed before the upgrade stays valid; one written since waits for an admin after a restart', async () => {
    const file = join(dir(), 'state.json');
    const store = await openBotStore(file);
    await enrolAvery(store, 'unconfirmed');
    await store.close();
    // As a file written before enrolments needed an admin: no schema in its second factor part.
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.secondFactor.schema).toBe(2);
    const reopened = await openBotStore(file);
    try {
      expect(await serviceOver(reopened).service.readiness('U0AVERY')).toMatchObject({ state: 'awaiting_admin' });
    } finally {
      await reopened.close();
    }
    delete saved.secondFactor.schema;
    writeFileSync(file, JSON.stringify(saved));
    const upgraded = await openBotStore(file);
    try {
      const { service } = serviceOver(upgraded);
      expect(await service.readiness('U0AVERY')).toEqual({ state: 'enrolled' });
      expect(await service.verify('U0AVERY', codeAt(T0))).toEqual({ ok: true });
    } finally {
      await upgraded.close();
    }
    expect(JSON.parse(readFileSync(file, 'utf8')).secondFactor).toMatchObject({
      schema: 2,
      people: { U0AVERY: { adminConfirmation: { at: T0.toISOString() } } },
    });
  });

  it('a second factor part that is not a record refuses the file rather than un-enrolling everyone', async () => {
    const file = join(dir(), 'state.json');
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: {}, secondFactor: { people: [], trail: [] } }));
    await expect(openBotStore(file)).rejects.toThrow(/second factor/);
  });
});
