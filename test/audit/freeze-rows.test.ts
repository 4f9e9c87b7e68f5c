// The freeze's trail in the audit export: every step a row, in time order with the other sources, from the state
// file (the bot's store and the read-only reader of `npm run audit`).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditRows } from '../../src/features/audit/rows.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { readBotStateFile } from '../../src/store/lowdb/read-only.js';

const T0 = new Date('2026-11-28T09:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

describe('the freeze in the audit export', () => {
  it('has a row for the freeze, each unfreeze vote, the lift and an expiry, by who did it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'freeze-audit-')), 'state.json');
    const store = await openBotStore(file);
    await store.freeze.freeze({ by: 'U0AVERY', at: T0, reason: 'leaked token' });
    await store.freeze.voteUnfreeze({ by: 'U0RILEY', at: minutes(5) }, 2);
    await store.freeze.voteUnfreeze({ by: 'U0AVERY', at: minutes(6) }, 2);
    await store.freeze.freeze({ by: 'U0SAM', at: minutes(10), reason: 'strange quote', forMs: 30 * 60_000 });
    const expected = [
      { event: 'frozen', actor: 'U0AVERY', detail: 'leaked token' },
      { event: 'unfreeze_vote', actor: 'U0RILEY', detail: 'unfreeze vote 1 of 2' },
      { event: 'unfreeze_vote', actor: 'U0AVERY', detail: 'unfreeze vote 2 of 2' },
      { event: 'unfrozen', actor: 'U0AVERY', detail: 'unfreeze vote 2 of 2' },
      { event: 'frozen', actor: 'U0SAM', detail: `strange quote (until ${minutes(40).toISOString()})` },
      { event: 'expired', actor: undefined, detail: 'its --for ran out' },
    ];
    const period = { since: minutes(-1), until: minutes(60) };
    const rows = (await collect(auditRows(store, period))).filter((row) => row.category === 'freeze');
    expect(rows.map(({ event, actor, detail }) => ({ event, actor, detail }))).toEqual(expected);
    expect(rows.every((row) => row.subjectId === 'freeze')).toBe(true);
    await store.close();
    const readOnly = await readBotStateFile(file);
    const again = (await collect(auditRows(readOnly, period))).filter((row) => row.category === 'freeze');
    expect(again.map((row) => row.event)).toEqual(expected.map((row) => row.event));
  });
});
