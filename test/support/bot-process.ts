import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureChildOutput } from './log-scan/capture.js';
import { NODE_FLAGS } from './node-flags.js';

// `npm test` builds first: this is the real entry point, run as a deployment would run it.
const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

/** A bot running as its own process (HTTP or Socket Mode), so a crash is a real exit and not a test failure. */
export interface BotProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>/slack/events` (HTTP mode; in Socket Mode only /healthz listens there). */
  eventsUrl: string;
  baseUrl: string;
  stderr(): string;
  /** True while the process has not exited. */
  alive(): boolean;
  /** Resolves with the exit code (or signal) once the process ends. */
  exited: Promise<number | NodeJS.Signals | null>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `node dist/src/main.js` with exactly `env` (plus PATH, and PORT=0 / HOST=127.0.0.1 unless given); resolves once
 * it says where it listens (HTTP mode) or where /healthz is (Socket Mode, connected or still reconnecting).
 */
export function startBotProcess(env: Record<string, string>): Promise<BotProcess> {
  const child = spawn(process.execPath, [...NODE_FLAGS, MAIN], {
    cwd: mkdtempSync(join(tmpdir(), 'bot-')),
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let exitedAt: number | NodeJS.Signals | null | undefined;
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on('exit', (code, signal) => {
      exitedAt = code ?? signal;
      resolve(exitedAt);
    }),
  );
  child.stdout!.resume();
  return new Promise((resolve, reject) => {
    const giveUp = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the bot did not start within 15 s:\n${stderr}`));
    }, 15_000);
    void exited.then((code) => {
      clearTimeout(giveUp);
      reject(new Error(`the bot exited (${String(code)}) before it listened:\n${stderr}`));
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      captureChildOutput(chunk);
      // Up to the character after the number: a chunk may end in the middle of it.
      const port = /(?:listening for Slack on port|Socket Mode.*; \/healthz on port) (\d+)[ \n]/.exec(stderr)?.[1];
      if (port === undefined) return;
      clearTimeout(giveUp);
      const baseUrl = `http://127.0.0.1:${port}`;
      resolve({
        child,
        eventsUrl: `${baseUrl}/slack/events`,
        baseUrl,
        stderr: () => stderr,
        alive: () => exitedAt === undefined,
        exited,
        async stop(signal = 'SIGTERM') {
          if (exitedAt !== undefined) return;
          child.kill(signal);
          await exited;
        },
      });
    });
  });
}
