/**
 * vitest `globalSetup` of `npm test`: starts each run with an empty test-results/test-logs, and at the end greps
 * everything the run logged (capture.ts) for secrets. One found fails the run, naming its kind and line.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_LOG_DIR } from './dir.js';
import { findSecrets } from './secrets.js';

export function setup(): () => void {
  rmSync(TEST_LOG_DIR, { recursive: true, force: true });
  return () => {
    let files: string[] = [];
    try {
      files = readdirSync(TEST_LOG_DIR);
    } catch {
      return;
    }
    let bytes = 0;
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(TEST_LOG_DIR, file), 'utf8');
      bytes += text.length;
      for (const secret of findSecrets(text)) found.push(`${file}: ${secret.kind}: ${secret.line}`);
    }
    process.stdout.write(
      `log scan: ${files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MB logged, ${found.length} secrets\n`,
    );
    if (found.length === 0) return;
    // vitest reports an error thrown here but still exits 0: the exit code is set as well.
    process.exitCode = 1;
    throw new Error(`secrets in what the test run logged (${TEST_LOG_DIR}):\n${found.slice(0, 30).join('\n')}`);
  };
}
