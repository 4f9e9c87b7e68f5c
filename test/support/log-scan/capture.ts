/**
 * Set up in every test worker (vitest `setupFiles`): every line any logger is asked to log, at every level and the
 * silent logger's included (src/logger.ts `tapLogLines`), goes to test-results/test-logs/<pid>.log, and
 * `captureChildOutput` adds what spawned bots write. scan.ts greps all of it for secrets when the run ends.
 */
import { mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tapLogLines } from '../../../src/logger.js';
import { TEST_LOG_DIR } from './dir.js';

const holder = globalThis as { testLogFd?: number };

function logFd(): number {
  if (holder.testLogFd === undefined) {
    mkdirSync(TEST_LOG_DIR, { recursive: true });
    holder.testLogFd = openSync(join(TEST_LOG_DIR, `${process.pid}.log`), 'a');
  }
  return holder.testLogFd;
}

/** Adds output of a process a test spawned (a bot's stderr) to what the run logged. */
export function captureChildOutput(chunk: Buffer | string): void {
  writeSync(logFd(), typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
}

tapLogLines((line) => writeSync(logFd(), `${line}\n`));
