/**
 * Secrets kept encrypted at rest (the TOTP secrets): AES-256-GCM from node:crypto, a fresh random 12-byte IV for
 * every sealing and the 16-byte tag checked on opening, written as one versioned line
 * `v1:<iv base64>:<tag base64>:<data base64>`. Opening fails closed (SecretUnreadableError) on another key, an
 * altered line or a context that is not the one it was sealed with: never a guess, never a partial plaintext.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { CodedError } from './errors.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A sealed secret could not be opened. Its message names no part of the secret or the key. */
export class SecretUnreadableError extends CodedError {
  constructor(why: string) {
    super('secret_unreadable', `a sealed secret could not be opened (${why})`);
    this.name = 'SecretUnreadableError';
  }
}

/** Seals and opens secrets with one key. */
export interface SecretBox {
  /**
   * Encrypts `plaintext`; `context` (e.g. the owner's id) is authenticated with it, so a sealed line copied to
   * another owner does not open there.
   */
  seal(plaintext: string, context?: string): string;
  /** Decrypts a line `seal` wrote with the same key and context; throws SecretUnreadableError otherwise. */
  open(sealed: string, context?: string): string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodePart(part: string | undefined, what: string): Buffer {
  if (part === undefined || !BASE64.test(part)) throw new SecretUnreadableError(`its ${what} is not base64`);
  return Buffer.from(part, 'base64');
}

/** A box over a 32-byte key (TOTP_ENCRYPTION_KEY). */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new RangeError(`the key must be ${KEY_BYTES} bytes, not ${key.length}`);
  // A private copy: a caller that later wipes or reuses its buffer does not change the box.
  const own = Buffer.from(key);
  return {
    seal(plaintext, context = '') {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', own, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64'), tag.toString('base64'), data.toString('base64')].join(':');
    },
    open(sealed, context = '') {
      const parts = sealed.split(':');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretUnreadableError('not a v1 sealed line');
      const iv = decodePart(parts[1], 'IV');
      const tag = decodePart(parts[2], 'tag');
      const data = decodePart(parts[3], 'data');
      if (iv.length !== IV_BYTES) throw new SecretUnreadableError(`its IV is ${iv.length} bytes, not ${IV_BYTES}`);
      if (tag.length !== TAG_BYTES) throw new SecretUnreadableError(`its tag is ${tag.length} bytes, not ${TAG_BYTES}`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', own, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
      } catch {
        // GCM says only "unable to authenticate": another key, or an altered IV, tag, data or context.
        throw new SecretUnreadableError('another key, or the line was altered');
      }
    },
  };
}
