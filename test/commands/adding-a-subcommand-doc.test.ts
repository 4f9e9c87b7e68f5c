/** docs/adding-a-subcommand.md shows a real module and its table line: they must stay what the code says. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const doc = read('docs/adding-a-subcommand.md');
const codeBlocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);

describe('docs/adding-a-subcommand.md', () => {
  it('shows src/commands/digest.ts exactly as it is', () => {
    expect(codeBlocks[0]).toBe(read('src/commands/digest.ts'));
  });

  it('shows lines of the table as they are in src/commands/index.ts', () => {
    expect(read('src/commands/index.ts')).toContain(codeBlocks[1]!);
  });

  it('stays short', () => {
    expect(doc.split('\n').length).toBeLessThan(80);
  });
});
