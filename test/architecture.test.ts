import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// What may import what: the product (src/) stands alone (no demo tool, no test code, no devDependency), and the demo
// tools (dev/) never reach into the tests.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const DEV = join(ROOT, 'dev');
const TEST = join(ROOT, 'test');
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
};
const DEPENDENCIES = new Set(Object.keys(packageJson.dependencies ?? {}));

/** One import of a file: the text as written (undefined for a dynamic import of a computed value) and its line. */
interface FoundImport {
  specifier: string | undefined;
  line: number;
}

/** Every .ts file under `dir`, recursively. */
function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => path.endsWith('.ts') && statSync(path).isFile());
}

/**
 * The imports of a source file, read from its syntax tree (comments and strings that look like imports are not
 * imports): `import`/`export … from`, `import x = require()`, `import()`, `require()` and `import('…')` types.
 */
function importsOf(path: string, text = readFileSync(path, 'utf8')): FoundImport[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: FoundImport[] = [];
  const add = (node: ts.Node, specifier: ts.Node | undefined): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier: specifier && ts.isStringLiteralLike(specifier) ? specifier.text : undefined, line });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      add(node, node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      add(node, node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The npm package a bare specifier names (`@scope/name` or `name`, without a subpath). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const isInside = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}${sep}`);
const where = (path: string, line: number): string => `${relative(ROOT, path)}:${line}`;

describe('architecture', () => {
  it('src/ imports only src/, node: builtins and the dependencies of package.json', () => {
    const files = typescriptFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    const offending: string[] = [];
    for (const file of files) {
      for (const { specifier, line } of importsOf(file)) {
        if (specifier === undefined) {
          offending.push(`${where(file, line)} imports a computed path (cannot be checked)`);
        } else if (specifier.startsWith('.') || specifier.startsWith('/')) {
          const target = resolve(dirname(file), specifier);
          if (!isInside(target, SRC)) offending.push(`${where(file, line)} imports '${specifier}' (outside src/)`);
        } else if (specifier.startsWith('node:')) {
          if (!builtinModules.includes(specifier.slice('node:'.length).split('/')[0] ?? ''))
            offending.push(`${where(file, line)} imports '${specifier}' (no such builtin)`);
        } else if (!DEPENDENCIES.has(packageOf(specifier))) {
          offending.push(
            `${where(file, line)} imports '${specifier}' (not a dependency in package.json; builtins as node:…)`,
          );
        }
      }
    }
    expect(offending, offending.join('\n')).toEqual([]);
  });

  it('dev/ never imports test/', () => {
    const files = typescriptFiles(DEV);
    expect(files.length).toBeGreaterThan(20);
    const offending: string[] = [];
    for (const file of files) {
      for (const { specifier, line } of importsOf(file)) {
        if (specifier === undefined) {
          offending.push(`${where(file, line)} imports a computed path (cannot be checked)`);
        } else if (specifier.startsWith('.') || specifier.startsWith('/')) {
          const target = resolve(dirname(file), specifier);
          if (isInside(target, TEST)) offending.push(`${where(file, line)} imports '${specifier}' (inside test/)`);
        }
      }
    }
    expect(offending, offending.join('\n')).toEqual([]);
  });

  it('the scanner sees every kind of import, and no import in a comment or a string', () => {
    // Guards the scanner itself: if it stopped seeing a kind of import, the rules above would pass vacuously.
    const text = [
      "import { startLocalWorkspace } from '../dev/workspace/index.js';",
      "export * from './reexported.js';",
      "import type { Mock } from 'vitest';",
      "const later = await import('./dynamic.js');",
      'const computed = await import(name);',
      "import legacy = require('./required.cjs');",
      "type Lazy = typeof import('./type-only.js');",
      "// import('./in-a-comment.js')",
      'const s = "import x from \'./in-a-string.js\'";',
    ].join('\n');
    const specifiers = importsOf(join(SRC, 'fixture.ts'), text).map((found) => found.specifier ?? '(computed)');
    expect(specifiers).toEqual([
      '../dev/workspace/index.js',
      './reexported.js',
      'vitest',
      './dynamic.js',
      '(computed)',
      './required.cjs',
      './type-only.js',
    ]);
  });
});
