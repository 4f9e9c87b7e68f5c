// The secret box: AES-256-GCM sealing that opens only with its key and context, and fails closed on anything else.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretUnreadableError } from '../../src/kernel/secret-box.js';

const key = Buffer.alloc(32, 7);
const box = createSecretBox(key);

/** Changes one character of the base64 part `index` of a sealed line (1 IV, 2 tag, 3 data). */
function alter(sealed: string, index: number): string {
  const parts = sealed.split(':');
  const part = parts[index] ?? '';
  parts[index] = (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
  return parts.join(':');
}

describe('createSecretBox', () => {
  it.each([['JBSWY3DPEHPK3PXP'], [''], ['café ☕ with a long tail '.repeat(20)]])('seals and opens %j', (plain) => {
    const sealed = box.seal(plain, 'U1');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]*$/);
    expect(sealed).not.toContain(plain || 'never');
    expect(box.open(sealed, 'U1')).toBe(plain);
  });

  it('uses a fresh IV each time: the same secret seals to different lines', () => {
    const lines = new Set(Array.from({ length: 20 }, () => box.seal('JBSWY3DPEHPK3PXP')));
    expect(lines.size).toBe(20);
    const [, iv, tag] = box.seal('x').split(':');
    expect(Buffer.from(iv ?? '', 'base64')).toHaveLength(12);
    expect(Buffer.from(tag ?? '', 'base64')).toHaveLength(16);
  });

  const sealed = box.seal('JBSWY3DPEHPK3PXP', 'U1');
  it.each([
    ['another key', () => createSecretBox(randomBytes(32)).open(sealed, 'U1')],
    ['another context (a line copied to another person)', () => box.open(sealed, 'U2')],
    ['an altered IV', () => box.open(alter(sealed, 1), 'U1')],
    ['an altered tag', () => box.open(alter(sealed, 2), 'U1')],
    ['altered data', () => box.open(alter(sealed, 3), 'U1')],
    ['a truncated tag', () => box.open(sealed.replace(/:([^:]+):([^:]+)$/, ':AAAA:$2'), 'U1')],
    ['an unknown version', () => box.open(sealed.replace(/^v1/, 'v2'), 'U1')],
    ['not base64', () => box.open(sealed.replace(/:[^:]+$/, ':!!!'), 'U1')],
    ['too few parts', () => box.open('v1:abc', 'U1')],
    ['an empty line', () => box.open('', 'U1')],
  ])('fails closed with a coded error on %s', (_what, attempt) => {
    let thrown: unknown;
    try {
      attempt();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SecretUnreadableError);
    expect((thrown as SecretUnreadableError).code).toBe('secret_unreadable');
    expect((thrown as Error).message).not.toContain('JBSWY3DPEHPK3PXP');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow(RangeError);
  });
});
