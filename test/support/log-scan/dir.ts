import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a test run's log lines are kept until the scan at its end (test-results is not committed). */
export const TEST_LOG_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'test-results',
  'test-logs',
);
