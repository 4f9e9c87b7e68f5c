import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../src/kernel/store-error.js';
import { createLogger } from '../src/logger.js';
import { emptyState } from '../src/store/lowdb/bot-state.js';
import { openBotStore } from '../src/store/lowdb/index.js';
import { StateFileRefusedError } from '../src/store/lowdb/state-file.js';
import { claimDecision } from './support/claim-decision.js';
import { swapQuoteRecord } from './support/fixtures.js';

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'store-')), 'state.json');
}

const sampleQuote = (id: string) => swapQuoteRecord(id);

describe('the state store', () => {
  it('creates the file (and its folder) on first start and survives a reopen', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'store-')), 'nested', 'state.json');
    const store = await openBotStore(file);
    await store.update((state) => {
      state.swapQuotes.q1 = sampleQuote('q1');
    });
    await store.close();
    const reopened = await openBotStore(file);
    expect(reopened.read().swapQuotes.q1?.requestedBy).toBe('U1');
    await reopened.close();
  });

  it('serializes overlapping read-modify-write cycles so none is lost', async () => {
    const file = tempFile();
    const store = await openBotStore(file);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.update((state) => {
          state.swapQuotes[`q${i}`] = sampleQuote(`q${i}`);
        }),
      ),
    );
    expect(Object.keys(store.read().swapQuotes)).toHaveLength(50);
    await store.close();
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).swapQuotes)).toHaveLength(50);
  });

  it('refuses to open a truncated file: one line naming the file and what to do, and the file is left as it was', async () => {
    const file = tempFile();
    writeFileSync(file, '{"version":1,"swapQuotes":{"q1":'); // truncated write
    const before = statSync(file);
    const lines: string[] = [];
    const refused = await openBotStore(
      file,
      createLogger('debug', (line) => lines.push(line)),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StateFileRefusedError);
    const message = (refused as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(`the state file ${file} (DATA_FILE) cannot be read as a whole: not valid JSON`);
    expect(message).toContain('Restore it from a backup, or start once with --accept-empty-state');
    expect(readFileSync(file, 'utf8')).toBe('{"version":1,"swapQuotes":{"q1":');
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(readdirSync(join(file, '..'))).toEqual(['state.json']); // nothing set aside, and the lock released
    expect(lines.join('\n')).toMatch(/ERROR the state file cannot be read as a whole: refusing to start/);
    // Refused again the next time: never empty by accident.
    await expect(openBotStore(file)).rejects.toThrow(StateFileRefusedError);
  });

  it('with acceptEmptyState, keeps the corrupt file aside, says so loudly, and starts empty', async () => {
    const file = tempFile();
    writeFileSync(file, '{"version":1,"swapQuotes":{"q1":');
    const lines: string[] = [];
    const store = await openBotStore(
      file,
      createLogger('debug', (line) => lines.push(line)),
      undefined,
      { acceptEmptyState: true },
    );
    expect(store.read()).toEqual(emptyState());
    expect(store.recoveredCorruptFile).toMatch(/state\.json\.corrupt-/);
    expect(readFileSync(store.recoveredCorruptFile!, 'utf8')).toBe('{"version":1,"swapQuotes":{"q1":');
    expect(lines.join('\n')).toMatch(/ERROR the state file was corrupt: it was kept aside/);
    await store.close();
    // The empty state is on disk now: the next start is a normal one.
    await (await openBotStore(file)).close();
  });

  it('refuses JSON that is not version-1 state too (records of the wrong shape: test/store-damage.test.ts)', async () => {
    const file = tempFile();
    writeFileSync(file, JSON.stringify({ version: 7, swapQuotes: {} }));
    await expect(openBotStore(file)).rejects.toThrow(/cannot be read as a whole: unknown state version 7/);
    expect(readdirSync(join(file, '..')).some((name) => name.includes('.corrupt-'))).toBe(false);
  });

  it('refuses a second instance on the same file', async () => {
    const file = tempFile();
    const store = await openBotStore(file);
    await expect(openBotStore(file)).rejects.toThrow(StoreError);
    await store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes over a lock whose process is gone (live holders and recycled pids: test/store-damage.test.ts)', async () => {
    const file = tempFile();
    writeFileSync(`${file}.lock`, '999999999');
    const store = await openBotStore(file);
    await store.close();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 999999999, startTicks: '5', host: hostname(), token: 't' }));
    await (await openBotStore(file)).close();
  });

  it('refuses a lock written on another host: its process cannot be checked from here', async () => {
    const file = tempFile();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 1, startTicks: '5', host: 'another-host', token: 't' }));
    await expect(openBotStore(file)).rejects.toThrow('in use by another running bot (pid 1 on host another-host)');
  });

  it('rolls back a change whose mutation throws', async () => {
    const store = await openBotStore(tempFile());
    await expect(
      store.update((state) => {
        state.swapQuotes.q1 = sampleQuote('q1');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(store.read().swapQuotes).toEqual({});
    await store.update((state) => {
      state.swapQuotes.q2 = sampleQuote('q2');
    });
    expect(Object.keys(store.read().swapQuotes)).toEqual(['q2']);
    await store.close();
  });
});

describe('the swap quote repository', () => {
  const at = new Date('2026-11-22T00:05:00.000Z');
  const entry = (event: string, by?: string) => ({ at: at.toISOString(), event, ...(by ? { by } : {}) });

  it('two decisions at once: exactly one claim wins, on disk, and the other sees the winner', async () => {
    const file = tempFile();
    const store = await openBotStore(file);
    await store.swapQuotes.saveQuote(sampleQuote('q1'));
    const [first, second] = await Promise.all([
      claimDecision(store.swapQuotes, 'q1', 'approving', 'U2', at, entry('approved', 'U2')),
      claimDecision(store.swapQuotes, 'q1', 'rejected', 'U3', at, entry('rejected', 'U3')),
    ]);
    expect(first).toMatchObject({ claimed: true, quote: { status: 'approving', decidedBy: 'U2' } });
    expect(second).toMatchObject({ claimed: false, quote: { status: 'approving', decidedBy: 'U2' } });
    // The claim counts only once it is on disk.
    expect(JSON.parse(readFileSync(file, 'utf8')).swapQuotes.q1).toMatchObject({
      status: 'approving',
      decidedBy: 'U2',
      history: [entry('approved', 'U2')],
    });
    await store.close();
  });

  it('refuses moves the quote lifecycle does not allow, and changes nothing', async () => {
    const store = await openBotStore(tempFile());
    await store.swapQuotes.saveQuote(sampleQuote('q1'));
    await expect(
      store.swapQuotes.recordCreateResult(
        'q1',
        { ok: true, swapId: 's1', swapStatus: 'new' },
        at,
        entry('swap_created'),
      ),
    ).rejects.toThrow(StoreError);
    expect(await store.swapQuotes.getQuote('q1')).toMatchObject({ status: 'pending', history: [] });
    await store.close();
  });

  it('marks a quote outcome unknown only while it is still approving', async () => {
    const store = await openBotStore(tempFile());
    await store.swapQuotes.saveQuote(sampleQuote('q1'));
    expect(await store.swapQuotes.markOutcomeUnknown('q1', 'stopped', at, entry('outcome_unknown'))).toBe(false);
    await claimDecision(store.swapQuotes, 'q1', 'approving', 'U2', at, entry('approved', 'U2'));
    expect(await store.swapQuotes.markOutcomeUnknown('q1', 'stopped', at, entry('outcome_unknown'))).toBe(true);
    expect(await store.swapQuotes.getQuote('q1')).toMatchObject({
      status: 'outcome_unknown',
      unknownCause: 'interrupted',
      failure: 'stopped',
    });
    await store.close();
  });

  it('hands out copies: changing a returned quote changes nothing stored', async () => {
    const store = await openBotStore(tempFile());
    await store.swapQuotes.saveQuote(sampleQuote('q1'));
    const copy = await store.swapQuotes.getQuote('q1');
    copy!.status = 'created';
    expect((await store.swapQuotes.getQuote('q1'))?.status).toBe('pending');
    await store.close();
  });

  it('ids such as constructor or __proto__ find nothing; an unknown id is an error, not a crash', async () => {
    const store = await openBotStore(tempFile());
    expect(await store.swapQuotes.getQuote('constructor')).toBeUndefined();
    expect(await store.swapQuotes.getQuote('__proto__')).toBeUndefined();
    await expect(claimDecision(store.swapQuotes, 'toString', 'rejected', 'U2', at, entry('rejected'))).rejects.toThrow(
      StoreError,
    );
    await store.close();
  });

  it('reads quotes from a file written before the repository existed, newest first', async () => {
    const file = tempFile();
    const older = sampleQuote('q1');
    const newer = {
      ...sampleQuote('q2'),
      estimatedAt: '2026-11-22T01:00:00.000Z',
      status: 'created' as const,
      swapId: 's2',
    };
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: { q1: older, q2: newer } }));
    const store = await openBotStore(file);
    expect((await store.swapQuotes.listRecentQuotes(15)).map((q) => q.id)).toEqual(['q2', 'q1']);
    expect((await store.swapQuotes.listQuotesToFollow()).map((q) => q.id)).toEqual(['q2']);
    expect((await store.swapQuotes.listQuotesByStatus('pending')).map((q) => q.id)).toEqual(['q1']);
    await store.close();
  });
});
