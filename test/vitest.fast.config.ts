/**
 * `npm run test:fast`: the unit tests, for the edit-test loop (`npm test` still runs everything). Which files are
 * left out is worked out from what they import, so the rule keeps up as tests are added. A test file is left
 * out when it, or a test/ helper it imports (followed through relative imports), imports:
 *   - `node:child_process` (a spawned bot, `initdb`), `playwright-core` (the browser) or `pg` (a database);
 *   - `src/app.ts`: the whole bot, driven over HTTP or Socket Mode (as test/support/rig/local-stack.ts does).
 * A new test that uses those is left out with nothing to do; one that is slow for another reason (long
 * real-time waits, large histories) is named `*.slow.test.ts`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEST_DIR = join(ROOT, 'test');
const SLOW_MODULES = new Set(['node:child_process', 'child_process', 'playwright-core', 'pg']);
const WHOLE_BOT = join(ROOT, 'src', 'app.ts');
const IMPORTED =
  /^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The modules `file` imports, as written (type-only imports included: harmless, and rare for these). */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORTED)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

const slowness = new Map<string, boolean>();

/** Whether `file` reaches a slow module through itself or the test/ helpers it imports (src/ is not followed). */
function needsSlowThings(file: string): boolean {
  const known = slowness.get(file);
  if (known !== undefined) return known;
  slowness.set(file, false); // an import cycle adds nothing
  const slow = importsOf(file).some((specifier) => {
    if (SLOW_MODULES.has(specifier)) return true;
    if (!specifier.startsWith('.')) return false;
    const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
    if (target === WHOLE_BOT) return true;
    return target.startsWith(`${TEST_DIR}/`) && target.endsWith('.ts') && existsSync(target) && needsSlowThings(target);
  });
  slowness.set(file, slow);
  return slow;
}

const testFiles = (readdirSync(TEST_DIR, { recursive: true }) as string[])
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => join(TEST_DIR, name));
// As paths under `dir`: that is what exclude globs are matched against.
const leftOut = testFiles
  .filter((file) => file.endsWith('.slow.test.ts') || needsSlowThings(file))
  .map((file) => relative(TEST_DIR, file));

export default defineConfig({
  test: {
    root: ROOT,
    dir: 'test',
    exclude: ['**/node_modules/**', ...leftOut],
    // Speed over isolation, for this loop only: files share a worker's module cache (Bolt is imported once per
    // worker, not once per file: 19 s instead of 35 s on 2 cores). `npm test` keeps every file isolated.
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
