// The workspace server serves the page's files by exact name: every ES module as JavaScript (a browser runs a
// module only then), and nothing else from disk, whatever the path says.
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspaceServer, type WorkspaceServer } from '../../dev/workspace/server.js';
import { createTimeline } from '../../dev/workspace/timeline.js';
import { silentLogger } from '../../src/logger.js';

const PAGE_DIR = new URL('../../dev/workspace/page/', import.meta.url);

let server: WorkspaceServer;

/** A raw GET (fetch() would normalise `..` away before it is sent). */
function get(path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, headers: { host: `localhost:${server.port}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the page files the workspace server serves', () => {
  beforeAll(async () => {
    server = await startWorkspaceServer({
      port: 0,
      logger: silentLogger,
      timeline: createTimeline(),
      workspace: { users: [] },
      command: async () => {},
      action: async () => {},
      controls: [],
    });
  });
  afterAll(() => server?.close());

  it('serves every module in dev/workspace/page as JavaScript', async () => {
    const modules = readdirSync(PAGE_DIR).filter((name) => name.endsWith('.js'));
    expect(modules).toContain('mrkdwn.js');
    for (const name of modules) {
      const response = await get(`/${name}`);
      expect({ name, status: response.status, type: response.type }).toEqual({
        name,
        status: 200,
        type: 'text/javascript; charset=utf-8',
      });
    }
  });

  it('loads app.js as a module from the page', async () => {
    const page = await get('/');
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<script type="module" src="app.js"></script>');
  });

  it.each([
    '/tsconfig.json',
    '/index.html',
    '/../server.js',
    '/../server.ts',
    '/%2e%2e/server.ts',
    '/..%2fserver.ts',
    '/page/app.js',
    '//etc/passwd',
    '/constructor',
    '/__proto__',
    '/app.js/',
    '/APP.JS',
  ])('answers 404 to %s', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.type).toBe('application/json; charset=utf-8');
  });
});
