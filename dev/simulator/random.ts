// Deterministic randomness: the seed dataset (ids, hashes, amounts, times) is the same on every run, so tests
// and the demo can refer to fixed ids. Ids of records created at runtime come from crypto.randomUUID.
import { createHash } from 'node:crypto';

/** A stable UUID (v4 layout) derived from a label, e.g. seedId('withdrawal:7'). */
export function seedId(label: string): string {
  const hex = createHash('sha256').update(`payments-simulator:${label}`).digest('hex');
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Small seeded PRNG (mulberry32) with helpers for realistic-looking values. */
export class Random {
  private state: number;

  constructor(seed = 0x5eed) {
    this.state = seed >>> 0;
  }

  /** Float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty array');
    return item;
  }

  /** `length` lowercase hex digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.int(0, 0xffff).toString(16).padStart(4, '0');
    return out.slice(0, length);
  }

  /** An EVM address (0x + 40 hex). */
  address(): string {
    return `0x${this.hex(40)}`;
  }

  /** An EVM transaction hash (0x + 64 hex). */
  txHash(): string {
    return `0x${this.hex(64)}`;
  }
}
