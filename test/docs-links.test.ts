// The README and docs/ link to each other by relative paths; a page moved or renamed must not leave a link behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every markdown file under `dir`, as absolute paths. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The targets of inline links and images, `[text](target)` and `![alt](target "title")`, outside code blocks. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
}

/** A link to another site, an e-mail address or an anchor in the same page: not a file of this repository. */
function isRelativeFileLink(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('//');
}

/** The file a relative link points at, without its `#anchor` or `?query`. */
function linkedPath(from: string, target: string): string {
  const path = decodeURIComponent(target.replace(/[#?].*$/, ''));
  return path.startsWith('/') ? join(ROOT, path) : join(dirname(from), path);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file's headings (code blocks left out). */
function anchorsOf(path: string): Set<string> {
  const text = readFileSync(path, 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((match) => headingAnchor(match[1]!)));
}

const pages = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

describe('links in README.md and docs/', () => {
  it('reads links and headings the way markdown and GitHub write them', () => {
    expect(
      linkTargets(
        [
          'See [the guide](docs/guide.md#setup), ![a picture](docs/a.png "title") and <https://example.com>.',
          'In code, `[not](a-link.md)` is not one, nor is this:',
          '```',
          '[x](inside-a-block.md)',
          '```',
          '[Mail](mailto:team@example.com), [here](#anchor) and [spaced]( ../up.md ).',
        ].join('\n'),
      ),
    ).toEqual(['docs/guide.md#setup', 'docs/a.png', 'mailto:team@example.com', '#anchor', '../up.md']);
    expect(headingAnchor('Start-up and `/healthz`')).toBe('start-up-and-healthz');
    expect(headingAnchor('Which store, and running two replicas (PostgreSQL)')).toBe(
      'which-store-and-running-two-replicas-postgresql',
    );
  });

  it.each(pages.map((page) => [relative(ROOT, page), page]))(
    'every relative link in %s points at a file',
    (_name, page) => {
      const broken = linkTargets(readFileSync(page, 'utf8'))
        .filter(isRelativeFileLink)
        .filter((target) => !existsSync(linkedPath(page, target)));
      expect(broken).toEqual([]);
    },
  );

  it.each(pages.map((page) => [relative(ROOT, page), page]))('every anchor in %s names a heading', (_name, page) => {
    const missing = linkTargets(readFileSync(page, 'utf8'))
      .filter((target) => target.includes('#') && (target.startsWith('#') || isRelativeFileLink(target)))
      .filter((target) => {
        const [path, anchor] = target.split('#') as [string, string];
        const file = path === '' ? page : linkedPath(page, path);
        return file.endsWith('.md') && existsSync(file) && !anchorsOf(file).has(decodeURIComponent(anchor));
      });
    expect(missing).toEqual([]);
  });
});

describe('README.md', () => {
  it('stays a front page: at most 300 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(300);
  });

  it('links to every page of docs/', () => {
    const readme = join(ROOT, 'README.md');
    const linked = new Set(
      linkTargets(readFileSync(readme, 'utf8'))
        .filter(isRelativeFileLink)
        .map((target) => linkedPath(readme, target)),
    );
    const unlinked = markdownFiles(join(ROOT, 'docs')).filter((page) => !linked.has(page));
    expect(unlinked.map((page) => relative(ROOT, page))).toEqual([]);
  });
});
