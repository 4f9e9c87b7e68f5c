import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureChildOutput } from './log-scan/capture.js';
import { NODE_FLAGS } from './node-flags.js';

// `npm test` builds first; these helpers run the real entry point as a user would.
const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

/** How the bot process ended and what it printed. */
export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/src/main.js` with exactly `env` (plus PATH) in an empty directory, so no .env file is read.
 * With `untilStderr` and `thenSignal`, sends that signal once stderr matches; it is killed after 15 s regardless.
 * `args` go after the entry point, as `npm start -- <args>` passes them.
 */
export function runBot(
  env: Record<string, string>,
  options: { untilStderr?: RegExp; thenSignal?: NodeJS.Signals; args?: readonly string[] } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, MAIN, ...(options.args ?? [])], {
      cwd: mkdtempSync(join(tmpdir(), 'bot-')),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      captureChildOutput(chunk);
      if (!signalled && options.thenSignal && options.untilStderr?.test(stderr)) {
        signalled = true;
        child.kill(options.thenSignal);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}
