import { describe, expect, it } from 'vitest';
import { mayUseBot } from '../../src/domain/access.js';

describe('mayUseBot (TREASURY_USERS)', () => {
  const cases: { treasuryUsers: string[]; userId: string; allowed: boolean; why: string }[] = [
    { treasuryUsers: [], userId: 'U0ANYONE', allowed: true, why: 'an empty list lets everyone in' },
    { treasuryUsers: ['U0OPS1'], userId: 'U0OPS1', allowed: true, why: 'a listed user' },
    {
      treasuryUsers: ['U0OPS1', 'U0OPS2'],
      userId: 'U0OPS2',
      allowed: true,
      why: 'any listed user, not only the first',
    },
    { treasuryUsers: ['U0OPS1'], userId: 'U0OUTSIDER', allowed: false, why: 'an unlisted user' },
    { treasuryUsers: ['U0OPS1'], userId: 'u0ops1', allowed: false, why: 'ids match exactly (case counts)' },
    { treasuryUsers: ['U0OPS1'], userId: 'U0OPS', allowed: false, why: 'no prefix match' },
    { treasuryUsers: ['U0OPS1'], userId: '', allowed: false, why: 'an empty user id' },
  ];
  it.each(cases)('$why: $userId in [$treasuryUsers] → $allowed', ({ treasuryUsers, userId, allowed }) => {
    expect(mayUseBot(treasuryUsers, userId)).toBe(allowed);
  });
});
