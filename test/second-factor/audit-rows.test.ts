// The second factor's trail in the audit export: a row per enrolment step, reset, wrong code and lock, in time order
// with the other sources, from both stores and from the read-only reader of `npm run audit`; no secret, no code.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { writeAuditCsv } from '../../src/features/audit/csv.js';
import { auditRows } from '../../src/features/audit/rows.js';
import type { BotRepositories } from '../../src/features/repositories.js';
import {
  applyAdminConfirmation,
  applyCode,
  applyReset,
  applyStartEnrolment,
} from '../../src/features/second-factor/rules.js';
import { createSecretBox } from '../../src/kernel/secret-box.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { readBotStateFile } from '../../src/store/lowdb/read-only.js';
import { storeBackends } from '../support/store-backends.js';

const backends = storeBackends('second_factor_audit');
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const box = createSecretBox(Buffer.alloc(32, 3));
const T0 = new Date('2026-11-28T09:00:10.000Z');
const seconds = (n: number) => new Date(T0.getTime() + n * 1000);

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

/** Avery enrols (one wrong code first), then five wrong codes lock her; an admin resets her. */
async function story(store: Pick<BotRepositories, 'secondFactor'>): Promise<void> {
  const repo = store.secondFactor;
  const code = (now: Date, typed: string, purpose: 'approve' | 'confirm') =>
    repo.changeEnrolment('U0AVERY', (stored) =>
      applyCode(stored, { code: typed, now, purpose, secretOf: (r) => box.open(r.sealedSecret, r.userId) }),
    );
  await repo.changeEnrolment('U0AVERY', (stored) =>
    applyStartEnrolment(stored, { userId: 'U0AVERY', sealedSecret: box.seal(SECRET, 'U0AVERY'), now: T0 }),
  );
  await code(seconds(1), '000000', 'confirm');
  const right = generateSync({ secret: SECRET, epoch: Math.floor(seconds(2).getTime() / 1000) });
  await code(seconds(2), right, 'confirm');
  // A new enrolment counts for approvals once another admin confirmed it.
  await repo.changeEnrolment('U0AVERY', (stored) =>
    applyAdminConfirmation(stored, {
      userId: 'U0AVERY',
      clickerId: 'U0ADMIN',
      clickerIsAdmin: true,
      enrolledAt: seconds(2).toISOString(),
      now: seconds(2.5),
    }),
  );
  await code(seconds(3), right, 'approve');
  for (let n = 4; n <= 7; n++) await code(seconds(n), '000000', 'approve');
  await repo.changeEnrolment('U0AVERY', (stored) =>
    applyReset(stored, { userId: 'U0AVERY', by: 'U0ADMIN', now: seconds(60) }),
  );
}

const EXPECTED = [
  { event: 'enrolment_started', subjectId: 'U0AVERY', actor: 'U0AVERY', detail: undefined },
  { event: 'wrong_code', subjectId: 'U0AVERY', actor: 'U0AVERY', detail: 'wrong code 1 of 5' },
  { event: 'enrolled', subjectId: 'U0AVERY', actor: 'U0AVERY', detail: undefined },
  {
    event: 'admin_confirmed',
    subjectId: 'U0AVERY',
    actor: 'U0ADMIN',
    detail: 'enrolment of U0AVERY confirmed by another admin',
  },
  { event: 'wrong_code', subjectId: 'U0AVERY', actor: 'U0AVERY', detail: 'replayed code 1 of 5' },
  { event: 'wrong_code', subjectId: 'U0AVERY', actor: 'U0AVERY', detail: 'wrong code 2 of 5' },
  { event: 'wrong_code', subjectId: 'U0AVERY', actor: 'U0AVERY', detail: 'wrong code 3 of 5' },
  { event: 'wrong_code', subjectId: 'U0AVERY', actor: 'U0AVERY', detail: 'wrong code 4 of 5' },
  { event: 'wrong_code', subjectId: 'U0AVERY', actor: 'U0AVERY', detail: 'wrong code 5 of 5' },
  {
    event: 'locked',
    subjectId: 'U0AVERY',
    actor: 'U0AVERY',
    detail: `approvals locked until ${new Date(seconds(7).getTime() + 15 * 60_000).toISOString()}`,
  },
  { event: 'reset', subjectId: 'U0AVERY', actor: 'U0ADMIN', detail: 'enrolment of U0AVERY reset' },
];

describe.each(backends)('the second factor in the audit export: $name', (backend) => {
  it.skipIf(backend.skip)('a row per step, by who acted; nothing secret in the CSV', async () => {
    const store = await backend.open();
    try {
      await story(store);
      const period = { since: seconds(-60), until: seconds(3600) };
      const rows = (await collect(auditRows(store, period))).filter((row) => row.category === 'second_factor');
      expect(rows.map(({ event, subjectId, actor, detail }) => ({ event, subjectId, actor, detail }))).toEqual(
        EXPECTED,
      );
      // A period that starts after the first steps leaves them out.
      const later = (await collect(auditRows(store, { since: seconds(30), until: seconds(3600) }))).filter(
        (row) => row.category === 'second_factor',
      );
      expect(later.map((row) => row.event)).toEqual(['reset']);
      const chunks: string[] = [];
      const { Writable } = await import('node:stream');
      const sink = new Writable({
        write(chunk, _encoding, done) {
          chunks.push(String(chunk));
          done();
        },
      });
      await writeAuditCsv(auditRows(store, period), sink);
      const csv = chunks.join('');
      expect(csv).toContain('second_factor,locked');
      expect(csv).not.toMatch(/JBSWY3DP|000000|v1:|otpauth/);
    } finally {
      await store.close();
    }
  });
});

describe('the second factor in `npm run audit` (the read-only reader of the state file)', () => {
  it('reads the same rows while the bot holds the file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'second-factor-audit-')), 'state.json');
    const store = await openBotStore(file);
    try {
      await story(store);
      const readOnly = await readBotStateFile(file);
      const rows = (await collect(auditRows(readOnly, { since: seconds(-60), until: seconds(3600) }))).filter(
        (row) => row.category === 'second_factor',
      );
      expect(rows.map((row) => row.event)).toEqual(EXPECTED.map((row) => row.event));
      expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
    } finally {
      await store.close();
    }
  });
});
