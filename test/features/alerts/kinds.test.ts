// The table of alert kinds (src/features/alerts/kinds/index.ts) held against what the store and the poller know:
// every kind the stored records accept has one entry and every entry is accepted; every kind the poller raises is
// in the table and every kind of the table is raised; every route kind is a valid ALERT_ROUTES key, in the trail's
// schema and named by the digest.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALERT_KINDS, AlertFacts, digestLabel, FailureFacts } from '../../../src/features/alerts/kinds/index.js';
import { AlertSubject, OutboxItem, OwnedAlert, ThreadWork } from '../../../src/features/alerts/records.js';
import { parseAlertRoutes, ROUTE_KINDS } from '../../../src/features/alerts/routing.js';
import { AlertTrailEntry } from '../../../src/features/alerts/trail.js';

const ALERTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src/features/alerts');
const names = ALERT_KINDS.map((kind) => kind.facts.shape.kind.value);
const routes = [...new Set(ALERT_KINDS.map((kind) => kind.route))];

/** The names of a zod discriminated union's options, by their discriminator (`kind` or `type`). */
function optionNames(schema: unknown, key: 'kind' | 'type'): string[] {
  const options = (schema as { options: Array<{ shape: Record<string, { value: string }> }> }).options;
  return options.map((option) => option.shape[key]!.value);
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('ALERT_KINDS, the one table of alert kinds', () => {
  it('names each kind once', () => {
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([
      'withdrawal',
      'task',
      'gas',
      'stuck',
      'api_down',
      'api_recovered',
      'balance_low',
      'runway_low',
    ]);
  });

  it('is what the store accepts: the outbox facts, the failures, the summaries and the owned alerts', () => {
    expect(optionNames(AlertFacts, 'kind')).toEqual(names);
    expect(optionNames(OutboxItem.shape.facts, 'kind')).toEqual(names);
    const failures = ALERT_KINDS.filter((kind) => kind.failure).map((kind) => kind.facts.shape.kind.value);
    expect(optionNames(FailureFacts, 'kind')).toEqual(failures);
    expect(ThreadWork.shape.kind.options).toEqual(failures);
    expect(OwnedAlert.shape.kind.options).toEqual(routes);
    expect(AlertTrailEntry.shape.kind.options).toEqual(routes);
    // Each kind people own has a subject the record accepts; a summary covers exactly the summarised kinds.
    const subjects = optionNames(AlertSubject, 'type');
    for (const kind of ALERT_KINDS) {
      if (kind.owned?.schema) expect(subjects).toContain((kind.owned.schema.shape.type as { value: string }).value);
    }
    const summary = (AlertSubject as unknown as { options: Array<{ shape: Record<string, unknown> }> }).options.find(
      (option) => (option.shape.type as { value: string }).value === 'summary',
    )!;
    expect((summary.shape.kind as { options: string[] }).options).toEqual(
      ALERT_KINDS.filter((kind) => kind.summary).map((kind) => kind.facts.shape.kind.value),
    );
  });

  it('is what the poller raises: every kind of facts it builds is in the table, and each kind is raised', () => {
    const raised = new Set<string>();
    for (const file of [...sourceFiles(join(ALERTS, 'poller')), ...sourceFiles(join(ALERTS, 'kinds'))]) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bkind: '([a-z_]+)'/g)) raised.add(match[1]!);
    }
    expect([...raised].filter((kind) => !names.includes(kind as never))).toEqual([]);
    expect(names.filter((kind) => !raised.has(kind))).toEqual([]);
  });

  it('gives each route kind an ALERT_ROUTES key, a digest line and a metrics label', () => {
    expect(ROUTE_KINDS).toEqual(routes);
    for (const route of routes) {
      expect(parseAlertRoutes(`${route}=C0OPS`).problems).toEqual([]);
      expect(digestLabel(route)).not.toBe(route);
    }
  });

  it('draws every kind: an owned alert, or a plain message for a kind nobody owns; a summarised kind has its words', () => {
    for (const kind of ALERT_KINDS) {
      expect(kind.owned !== undefined || kind.plain !== undefined).toBe(true);
      if (kind.failure) expect(kind.summary && kind.update && kind.plain).toBeTruthy();
    }
  });
});
