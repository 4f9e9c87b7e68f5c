// `npm start` on a fresh clone: with no configuration at all it opens the local workspace; with any real
// variable (or a .env file, or NODE_ENV=production) it is the bot's normal start-up, errors included.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { captureChildOutput } from '../support/log-scan/capture.js';
import { NODE_FLAGS } from '../support/node-flags.js';

const MAIN = fileURLToPath(new URL('../../dist/dev/start.js', import.meta.url));

interface Run {
  output(): string;
  exited: Promise<number | null>;
  kill(): void;
}

function run(env: Record<string, string>, cwd = mkdtempSync(join(tmpdir(), 'clone-')), args: string[] = []): Run {
  const child = spawn(process.execPath, [...NODE_FLAGS, MAIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    captureChildOutput(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    captureChildOutput(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output: () => output, exited, kill: () => child.kill('SIGINT') };
}

async function waitForOutput(r: Run, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(r.output());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${r.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('npm start with no configuration', () => {
  it('opens the local workspace with one banner and its URL; the page and the bot answer; Ctrl-C stops it; a second start on that port says it is taken', async () => {
    const first = run({ PORT: '0' });
    try {
      const [, url] = await waitForOutput(first, /Open (http:\/\/localhost:\d+\/) in your browser/);
      expect(first.output()).toContain('LOCAL WORKSPACE');
      const page = await fetch(url!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script');
      // HTTP mode unless asked for Socket Mode.
      expect(await (await fetch(`${url}api/workspace`)).json()).toMatchObject({ mode: 'http' });
      const sent = await fetch(`${url}api/command`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'U0RILEY', channel: 'C0TREASURY', text: '/treasury help' }),
      });
      expect(await sent.json()).toEqual({ ok: true });
      await expect
        .poll(async () => JSON.stringify(await (await fetch(`${url}api/timeline?user=U0RILEY`)).json()), {
          timeout: 10_000,
        })
        .toContain('*Look up* — `balances`');

      const port = new URL(url!).port;
      const second = run({ PORT: port });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`Port ${port} is already in use`);
    } finally {
      first.kill();
    }
    expect(await first.exited).toBe(0);
  }, 40_000);

  it('NODE_ENV=production with nothing set is a configuration error, never a demo', async () => {
    const r = run({ NODE_ENV: 'production', PORT: '0' });
    expect(await r.exited).toBe(1);
    expect(r.output()).toContain('Cannot start: the configuration has');
    expect(r.output()).not.toContain('LOCAL WORKSPACE');
  });

  it('one variable set (or a .env file) is the normal start-up: its missing variables are errors', async () => {
    const oneVariable = run({ SLACK_BOT_TOKEN: 'xoxb-real', PORT: '0' });
    expect(await oneVariable.exited).toBe(1);
    expect(oneVariable.output()).toMatch(/PAYMENTS_API_URL/);
    expect(oneVariable.output()).not.toContain('LOCAL WORKSPACE');

    const clone = mkdtempSync(join(tmpdir(), 'clone-'));
    writeFileSync(join(clone, '.env'), 'LOG_LEVEL=info\n');
    const withDotEnv = run({ PORT: '0' }, clone);
    expect(await withDotEnv.exited).toBe(1);
    expect(withDotEnv.output()).toContain('Cannot start: the configuration has');
  });
});

describe('npm run demo -- --socket-mode', () => {
  it('runs the bot in Socket Mode: a command reaches it through the socket, and still does after Slack drops the connection and fails two reconnects', async () => {
    const r = run({ PORT: '0' }, undefined, ['--local-workspace', '--socket-mode']);
    try {
      const [, url] = await waitForOutput(r, /Open (http:\/\/localhost:\d+\/) in your browser/);
      expect(r.output()).toContain('the real bot wired to both in Socket Mode');
      expect(await (await fetch(`${url}api/workspace`)).json()).toMatchObject({ mode: 'socket' });
      const post = async (path: string, body?: unknown) =>
        (
          await fetch(`${url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            ...(body ? { body: JSON.stringify(body) } : {}),
          })
        ).json();
      const command = (text: string) => post('api/command', { user: 'U0RILEY', channel: 'C0TREASURY', text });
      const timeline = async () => JSON.stringify(await (await fetch(`${url}api/timeline?user=U0RILEY`)).json());
      // What the bot's own /healthz says: only a bot in Socket Mode reports a socket.
      const connection = async () => (await fetch(`${url}api/bot-connection`)).json();

      expect(await connection()).toMatchObject({ ok: true, socket: 'connected', reconnects: 0 });
      expect(await command('/treasury help')).toEqual({ ok: true });
      await expect.poll(timeline, { timeout: 10_000 }).toContain('*Look up* — `balances`');

      expect(await post('api/controls/socket-open-fails')).toMatchObject({ ok: true });
      // Dropped, then apps.connections.open answers 500, then resets: three attempts, the third connects.
      await expect
        .poll(connection, { timeout: 10_000, interval: 100 })
        .toMatchObject({ ok: true, socket: 'connected', reconnects: 3 });
      expect(r.output()).toMatch(
        /Socket Mode: reconnecting \(attempt 2, in [\d.]+ m?s\) because apps\.connections\.open failed: HTTP 500/,
      );
      expect(await command('/treasury balances')).toEqual({ ok: true });
      await expect.poll(timeline, { timeout: 10_000 }).toContain('assets · total');
    } finally {
      r.kill();
    }
    expect(await r.exited).toBe(0);
  }, 40_000);
});

describe('the local workspace answers its own page only', () => {
  it('refuses a request under another host name (DNS rebinding) or from another site (Origin)', async () => {
    const r = run({ PORT: '0' });
    try {
      const [, url] = await waitForOutput(r, /Open (http:\/\/localhost:\d+\/) in your browser/);
      const port = new URL(url!).port;
      const raw = (headers: Record<string, string>, method = 'GET', body?: string) =>
        new Promise<number>((resolve, reject) => {
          const request = httpRequest(
            { host: '127.0.0.1', port, path: method === 'GET' ? '/api/workspace' : '/api/command', method, headers },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          );
          request.on('error', reject);
          request.end(body);
        });
      expect(await raw({ host: `localhost:${port}` })).toBe(200);
      expect(await raw({ host: `attacker.example:${port}` })).toBe(403);
      const command = JSON.stringify({ user: 'U0RILEY', channel: 'C0TREASURY', text: '/treasury help' });
      expect(
        await raw(
          { host: `localhost:${port}`, origin: 'https://attacker.example', 'content-type': 'text/plain' },
          'POST',
          command,
        ),
      ).toBe(403);
      expect(
        await raw(
          { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'content-type': 'application/json' },
          'POST',
          command,
        ),
      ).toBe(200);
    } finally {
      r.kill();
    }
    await r.exited;
  }, 30_000);
});
