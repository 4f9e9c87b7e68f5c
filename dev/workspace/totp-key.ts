/**
 * The workspace's TOTP_ENCRYPTION_KEY: made at random the first time and kept in the workspace's data dir, readable
 * by its owner only (mode 0600), so a workspace started again on the same data dir opens the enrolments it sealed.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The key file's name in the data dir. */
export const TOTP_KEY_FILE = 'totp-encryption.key';

/** The key kept in `dataDir` (64 hex digits), made and written there first if there is none. */
export function workspaceTotpKey(dataDir: string): string {
  const file = join(dataDir, TOTP_KEY_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32).toString('hex');
  // `wx`: never over a key that appeared meanwhile (it sealed secrets already).
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
