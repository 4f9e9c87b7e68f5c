/**
 * `npm test`: every test file. A worker keeps the modules it loaded between files (`isolate: false`): loading
 * Bolt, got, zod, pino and the bot afresh for each file took a third of the run (import 182 s of 534 s on a fresh
 * clone), and no test relies on module state across files (each builds its own bot, stores, stand-ins and metrics
 * registry; no fake timers, no changes to the environment). docs/testing-and-bench.md has the figures.
 * Every line the run logs (every level, the silent logger's included, and spawned bots' output) is kept in
 * test-results/test-logs and grepped for secrets at the end: one found fails the run (test/support/log-scan).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TEST_LOG_DIR } from './support/log-scan/dir.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export default defineConfig({
  test: {
    root: ROOT,
    dir: 'test',
    isolate: false,
    setupFiles: ['test/support/log-scan/capture.ts'],
    globalSetup: ['test/support/log-scan/scan.ts'],
    onConsoleLog(log) {
      mkdirSync(TEST_LOG_DIR, { recursive: true });
      appendFileSync(join(TEST_LOG_DIR, 'console.log'), log);
    },
  },
});
