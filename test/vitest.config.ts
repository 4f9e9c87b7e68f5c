/**
 * `npm test`: every test file, each isolated. Every line the run logs (every level, the silent logger's included,
 * and spawned bots' output) is kept in test-results/test-logs and grepped for secrets at the end: one found fails
 * the run (test/support/log-scan).
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
    setupFiles: ['test/support/log-scan/capture.ts'],
    globalSetup: ['test/support/log-scan/scan.ts'],
    onConsoleLog(log) {
      mkdirSync(TEST_LOG_DIR, { recursive: true });
      appendFileSync(join(TEST_LOG_DIR, 'console.log'), log);
    },
  },
});
