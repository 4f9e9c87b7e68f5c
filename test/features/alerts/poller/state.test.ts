import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyAlertsState } from '../../../../src/features/alerts/records.js';
import { openBotStore } from '../../../../src/store/lowdb/index.js';
import { swapQuoteRecord } from '../../../support/fixtures.js';

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'alert-state-')), 'state.json');
}

describe('the alert state in the state file', () => {
  it('a state file written before the poller existed still loads, swaps intact, with empty alert state', async () => {
    const file = tempFile();
    const quote = swapQuoteRecord('q1');
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: { q1: quote } }));
    const store = await openBotStore(file);
    expect(store.recoveredCorruptFile).toBeUndefined();
    expect(store.read().swapQuotes.q1?.requestedBy).toBe('U1');
    expect(store.read().alerts).toEqual(emptyAlertsState());
    await store.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);
  });

  it('a partial alert state (a source missing, no outbox) is completed, not treated as corrupt', async () => {
    const file = tempFile();
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        swapQuotes: {},
        alerts: {
          sources: { tasks: { lastSuccessAt: '2026-11-22T00:00:00.000Z' } },
          alerted: { 'task:t1': { createdAt: '2026-11-21T00:00:00.000Z', at: '2026-11-22T00:00:00.000Z' } },
        },
      }),
    );
    const store = await openBotStore(file);
    expect(store.recoveredCorruptFile).toBeUndefined();
    const alerts = store.read().alerts;
    expect(alerts.sources.tasks).toMatchObject({
      lastSuccessAt: '2026-11-22T00:00:00.000Z',
      consecutiveFailures: 0,
      tracking: {},
    });
    expect(alerts.sources.gas).toEqual({ consecutiveFailures: 0, tracking: {} });
    expect(alerts.outbox).toEqual([]);
    expect(alerts.alerted['task:t1']?.at).toBe('2026-11-22T00:00:00.000Z');
    await store.close();
  });
});
