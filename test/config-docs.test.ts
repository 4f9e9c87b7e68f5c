// The variables are declared once (VARIABLES in src/config.ts); the files people read list exactly those, no more
// and no fewer, with the declared default and, in the README, the declared one-line doc.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEPLOYMENT_VARIABLES } from '../dev/unconfigured.js';
import { VARIABLES, type VariableName } from '../src/config.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const declared = Object.keys(VARIABLES).sort();
const spec = (name: string): { default?: string; doc: string } => VARIABLES[name as VariableName];

/** The rows of the first markdown table whose header starts with `| Variable |`: the cells of each, trimmed. */
function tableRows(markdown: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| Variable |'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const nameOf = (cell: string) => /^`([A-Z0-9_]+)`$/.exec(cell)?.[1] ?? cell;

describe('the declared variables, and only they, in the files people read', () => {
  it('.env.example: each once (commented out or not); one with a default is empty or at it', () => {
    const entries = [...read('.env.example').matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(
      ([, name, value]) => [name!, value!] as const,
    );
    expect(entries.map(([name]) => name).sort()).toEqual(declared);
    for (const [name, value] of entries)
      if (value !== '' && spec(name).default !== undefined) expect([name, value]).toEqual([name, spec(name).default]);
  });

  it('docs/configuration.md: one row each, with its declared default', () => {
    const rows = tableRows(read('docs/configuration.md'));
    expect(rows.map(([name]) => nameOf(name!)).sort()).toEqual(declared);
    for (const [name, , fallback] of rows) {
      const declaredDefault = spec(nameOf(name!)).default;
      if (declaredDefault !== undefined) expect([name, fallback]).toEqual([name, `\`${declaredDefault}\``]);
    }
  });

  it("README: one row each, with its declared default and its declared doc as 'What it sets'", () => {
    const rows = tableRows(read('README.md'));
    expect(rows.map(([name]) => nameOf(name!)).sort()).toEqual(declared);
    for (const [name, fallback, doc] of rows) {
      const variable = spec(nameOf(name!));
      expect([name, doc]).toEqual([name, variable.doc]);
      if (variable.default !== undefined) expect([name, fallback]).toEqual([name, `\`${variable.default}\``]);
    }
  });

  it('a deployment is told by every variable but those the local workspace may see too', () => {
    const local = ['PORT', 'HOST', 'LOG_LEVEL', 'LOG_FORMAT', 'METRICS_PORT', 'METRICS_TOKEN'];
    expect([...DEPLOYMENT_VARIABLES].sort()).toEqual(declared.filter((name) => !local.includes(name)));
  });
});
