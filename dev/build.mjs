// `npm run build`: compiles src/ and dev/ into dist/ (dev/tsconfig.json), type-checks the workspace page's modules,
// copies them, and writes the two entry points kept where they always were (dist/main.js, dist/audit-cli.js).
// It builds once per change: the inputs' contents are hashed, and when dist/ holds a build of exactly these inputs
// (dist/.build-inputs) nothing is done, so a second `npm start` reaches the page at once. `--force` always builds.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-inputs');
/** What a build is made from: a change to any of these (a file added, removed or edited) builds again. */
const INPUTS = ['src', 'dev', 'tsconfig.json', 'package.json', 'package-lock.json'];

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => filesUnder(join(ROOT, input)))) {
    hash.update(`${relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const wanted = inputsHash();
const force = process.argv.includes('--force');
if (!force && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) process.exit(0);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = (...args) => execFileSync(process.execPath, [tsc, ...args], { cwd: ROOT, stdio: 'inherit' });
try {
  rmSync(DIST, { recursive: true, force: true });
  run('-p', 'dev/tsconfig.json');
  run('-p', 'dev/workspace/page/tsconfig.json');
} catch {
  // tsc printed what is wrong; no stamp is written, so the next build tries again.
  process.exit(1);
}
cpSync(join(ROOT, 'dev/workspace/page'), join(DIST, 'dev/workspace/page'), {
  recursive: true,
  filter: (file) => !file.endsWith('tsconfig.json'),
});
const entry = (file, to, what) => writeFileSync(join(DIST, file), `// ${what}\nimport './${to}';\n`);
entry(
  'main.js',
  'dev/start.js',
  'Kept where it always was: npm start (the local workspace when nothing is configured, else dist/src/main.js, the product alone).',
);
entry('audit-cli.js', 'src/audit-cli.js', 'Kept where it always was: the audit export, dist/src/audit-cli.js.');
writeFileSync(STAMP, wanted);
