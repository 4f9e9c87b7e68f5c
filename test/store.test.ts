import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { emptyState, openBotStore } from '../src/store/state.js';
import { StoreError } from '../src/store/store.js';

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'store-')), 'state.json');
}

const sampleQuote = (id: string) => ({
  id,
  estimateId: 'e',
  estimatedAt: '2026-11-22T00:00:00.000Z',
  expiresAt: '2026-11-22T00:30:00.000Z',
  requestedBy: 'U1',
  channelId: 'C1',
  from: { assetId: 'a', symbol: 'USDT', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
  to: { assetId: 'b', symbol: 'USDC', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
  amountFrom: '1',
  estimatedAmount: '1',
  routeType: 'dex',
  serviceId: 's',
  status: 'pending' as const,
  history: [],
});

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

  it('keeps a corrupt file aside, says so loudly, and starts empty (never silently wiped)', async () => {
    const file = tempFile();
    writeFileSync(file, '{"version":1,"swapQuotes":{"q1":'); // truncated write
    const lines: string[] = [];
    const store = await openBotStore(file, createLogger('debug', (line) => lines.push(line)));
    expect(store.read()).toEqual(emptyState());
    expect(store.recoveredCorruptFile).toMatch(/state\.json\.corrupt-/);
    expect(readFileSync(store.recoveredCorruptFile!, 'utf8')).toBe('{"version":1,"swapQuotes":{"q1":');
    expect(lines.join('\n')).toMatch(/ERROR the state file was corrupt/);
    await store.close();
  });

  it('treats JSON that is not version-1 state as corrupt too (records of the wrong shape: test/store-damage.test.ts)', async () => {
    const file = tempFile();
    writeFileSync(file, JSON.stringify({ version: 7, swapQuotes: {} }));
    const store = await openBotStore(file);
    expect(store.recoveredCorruptFile).toBeDefined();
    expect(readdirSync(join(file, '..')).some((name) => name.includes('.corrupt-'))).toBe(true);
    await store.close();
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
