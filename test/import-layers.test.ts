// Imports go one way: no circle between the folders of src/ (nor between its files). The folder rule is what keeps
// "a feature is a folder" from turning back into a web: the store implements the features' repository contract and
// imports their pure records, and the features never import the store; commands and listeners reach the features,
// never the reverse.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const RELATIVE_IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Edges between nodes of src/: `node(file)` names a file's node (its top-level folder, or the file itself). */
function importGraph(node: (file: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), (match[1] ?? match[2])!).replace(/\.js$/, '.ts');
      if (!target.startsWith(SRC + sep)) continue;
      const from = node(file);
      const to = node(target);
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  return edges;
}

/** The strongly connected parts with more than one node (Tarjan), each sorted. */
function circles(edges: Map<string, Set<string>>): string[][] {
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((targets) => [...targets])]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return found;
}

const topLevel = (file: string) => relative(SRC, file).split(sep)[0]!.replace(/\.ts$/, '');

describe('imports of src/ go one way', () => {
  it('no circle between the folders of src/ (each top-level folder or file is one node)', () => {
    const edges = importGraph(topLevel);
    expect(edges.size).toBeGreaterThan(8);
    expect(circles(edges)).toEqual([]);
  });

  it('no circle between the files of src/', () => {
    const edges = importGraph((file) => relative(SRC, file));
    expect(edges.size).toBeGreaterThan(100);
    expect(circles(edges)).toEqual([]);
  });

  it('no circle between the feature folders (each folder under src/features is one node), so no two import each other', () => {
    // The files beside the folders (the store's contract, repositories.ts, and places.ts) are contracts, not features.
    const FEATURES = join(SRC, 'features');
    const featureFolder = (file: string) => {
      const inside = relative(FEATURES, file);
      return inside.startsWith('..') || !inside.includes(sep)
        ? relative(SRC, file)
        : `features/${inside.split(sep)[0]}`;
    };
    const edges = new Map(
      [...importGraph(featureFolder)]
        .filter(([from]) => from.startsWith('features/') && !from.endsWith('.ts'))
        .map(([from, to]) => [from, new Set([...to].filter((t) => t.startsWith('features/') && !t.endsWith('.ts')))]),
    );
    expect(edges.size).toBeGreaterThan(10);
    const mutual = [...edges].flatMap(([from, to]) =>
      [...to].filter((t) => from < t && edges.get(t)?.has(from)).map((t) => `${from} <-> ${t}`),
    );
    expect(mutual).toEqual([]);
    expect(circles(edges)).toEqual([]);
  });

  it('the features never import the store, commands, listeners, jobs or app.ts', () => {
    const edges = importGraph(topLevel);
    const reached = [...(edges.get('features') ?? [])];
    expect(reached).toContain('kernel');
    expect(
      reached.filter((to) => ['store', 'commands', 'listeners', 'jobs', 'app', 'main', 'services'].includes(to)),
    ).toEqual([]);
  });

  it('finds a circle when there is one (the check itself)', () => {
    const edges = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(circles(edges)).toEqual([['a', 'b', 'c']]);
  });
});
