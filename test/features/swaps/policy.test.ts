import { describe, expect, it } from 'vitest';
import type { GroupMembers } from '../../../src/features/access/rules.js';
import {
  type Approval,
  approvalsNeeded,
  approverCheck,
  checkDailyLimit,
  checkMaxUsd,
  countApproval,
  DAILY_WINDOW_MS,
  DEFAULT_TIERS,
  dailyUsage,
  PolicySnapshot,
  type PolicyTier,
  parseSwapPolicy,
  parseUsdLimit,
  type QuorumClick,
  type QuorumState,
  quoteValueUsd,
  type RequesterWindow,
  rejectQuote,
  type SwapPolicy,
  snapshotPolicy,
  snapshotValue,
  swapValueUsd,
  type UsageEntry,
  type UsdValue,
  usdLabel,
  type WindowTotal,
  windowText,
} from '../../../src/features/swaps/policy.js';
import { MAX_UINT256 } from '../../../src/kernel/money.js';

const E18 = 10n ** 18n;

describe('quoteValueUsd: the source amount at the asset’s own price, exact, rounded to cents half-up', () => {
  // [what, amount, decimals, balance, balanceInUsd, expected cents]
  const known: [string, string, number, string, string, bigint][] = [
    ['1,000 USDT on BSC at $1', (1000n * E18).toString(), 18, (5000n * E18).toString(), '5000.00', 100_000n],
    ['the whole balance', '1234', 6, '1234', '1234.56', 123_456n],
    ['nothing', '0', 6, '1000000', '1.00', 0n],
    ['1 base unit of an 18-decimals token at $3,000', '1', 18, E18.toString(), '3000.00', 0n],
    ['exactly half a cent rounds up', '1', 0, '2', '0.01', 1n],
    ['0.499 cent rounds down', '499', 0, '100000', '1', 0n],
    ['0.5 cent rounds up', '500', 0, '100000', '1', 1n],
    ['0.501 cent rounds up', '501', 0, '100000', '1', 1n],
    ['a price with many decimals', '3', 0, '7', '1520.254301', 65_154n], // 3/7 × 1520.254301 = 651.537557…
    ['a 78-digit amount, all of it', MAX_UINT256.toString(), 18, MAX_UINT256.toString(), '1234.56', 123_456n],
    // Within MAX_PRICE_EXTRAPOLATION (10×) of the balance: exact with 78-digit operands.
    [
      'a 78-digit amount, 8 times a balance at $1',
      MAX_UINT256.toString(),
      18,
      (MAX_UINT256 / 8n).toString(),
      '1',
      800n, // 8.000…0005 × $1: the remainder rounds down
    ],
    ['a 78-digit amount, 3 times a balance at $1', MAX_UINT256.toString(), 0, (MAX_UINT256 / 3n).toString(), '1', 300n],
    [
      'a 78-digit amount, just under 10 times a balance at $1,234.56',
      MAX_UINT256.toString(),
      0,
      (MAX_UINT256 / 10n + 1n).toString(),
      '1234.56',
      1_234_560n,
    ],
  ];
  it.each(known)('%s', (_what, amount, decimals, balance, balanceInUsd, cents) => {
    expect(quoteValueUsd({ amount, decimals, balance, balanceInUsd })).toEqual({ cents });
  });

  // Rounding at the boundary, one more check: 1/3 cent down, 2/3 cent up.
  it('rounds thirds of a cent to the nearest cent', () => {
    expect(quoteValueUsd({ amount: '1', decimals: 0, balance: '3', balanceInUsd: '0.01' })).toEqual({ cents: 0n });
    expect(quoteValueUsd({ amount: '2', decimals: 0, balance: '3', balanceInUsd: '0.01' })).toEqual({ cents: 1n });
  });

  const unknown: [string, string, string | null | undefined, string][] = [
    ['zero balance', '0', '0.00', 'no_balance'],
    ['USD missing (null)', '100', null, 'no_usd'],
    ['USD missing (undefined)', '100', undefined, 'no_usd'],
    ['USD empty', '100', '', 'no_usd'],
    ['USD unreadable', '100', '12,5', 'bad_usd'],
    ['USD negative', '100', '-3.00', 'bad_usd'],
  ];
  it.each(unknown)('%s → unknown, with a reason a person can read', (_what, balance, balanceInUsd, code) => {
    const value = quoteValueUsd({ amount: '10', decimals: 6, balance, balanceInUsd });
    expect(value).toMatchObject({ unknown: code });
    expect((value as { reason: string }).reason).toMatch(/^the .+ (unknown|asset list)$/);
  });

  // A value that cannot be trusted is unknown (fail closed), never $0 or an extrapolation.
  const untrusted: [string, string, string, string, string][] = [
    ['a dust balance the list values at $0.00', '20000000000', '1', '0.00', 'zero_usd'],
    ['a token the API prices at 0 ("0")', '20000000000', '50000000000', '0', 'zero_usd'],
    ['a token the API prices at 0 ("0.000")', '1', '50000000000', '0.000', 'zero_usd'],
    ['11 times the balance the price comes from', '11000', '1000', '1000.00', 'beyond_balance'],
    ['one base unit over 10 times the balance', '10001', '1000', '1000.00', 'beyond_balance'],
    [
      'a 78-digit amount at $1 for one token (the price of a small holding stretched)',
      MAX_UINT256.toString(),
      E18.toString(),
      '1',
      'beyond_balance',
    ],
    ['a 78-digit amount at $1 for 8 base units', MAX_UINT256.toString(), '8', '1', 'beyond_balance'],
  ];
  it.each(untrusted)('%s → unknown (%s…)', (_what, amount, balance, balanceInUsd, code) => {
    const value = quoteValueUsd({ amount, decimals: 6, balance, balanceInUsd });
    expect(value).toMatchObject({ unknown: code });
    expect((value as { reason: string }).reason).toMatch(/^the (asset list values|amount is more than 10 times)/);
  });
  it('exactly 10 times the balance is still valued (the bound is inclusive)', () => {
    expect(quoteValueUsd({ amount: '10000', decimals: 6, balance: '1000', balanceInUsd: '1000.00' })).toEqual({
      cents: 1_000_000n,
    });
  });

  it('refuses malformed base units and decimals (programming errors)', () => {
    expect(() => quoteValueUsd({ amount: '1.5', decimals: 6, balance: '1', balanceInUsd: '1' })).toThrow(TypeError);
    expect(() => quoteValueUsd({ amount: '1', decimals: 37, balance: '1', balanceInUsd: '1' })).toThrow(RangeError);
  });
});

describe('usdLabel', () => {
  it.each([
    [0n, '$0'],
    [100n, '$1'],
    [1_000_000n, '$10,000'],
    [25_000_050n, '$250,000.50'],
    [5n, '$0.05'],
  ])('%s cents → %s', (cents, text) => {
    expect(usdLabel(cents)).toBe(text);
  });
});

describe('parseSwapPolicy', () => {
  it('reads tiers from USD thresholds to distinct approver counts', () => {
    expect(parseSwapPolicy('0:1,10000:2,250000:3')).toEqual({
      tiers: [
        { minCents: 0n, approvals: 1 },
        { minCents: 1_000_000n, approvals: 2 },
        { minCents: 25_000_000n, approvals: 3 },
      ],
      problems: [],
    });
    expect(parseSwapPolicy(' $0 : 1 , 9999.5:1, 10000.05:2 ,')).toEqual({
      tiers: [
        { minCents: 0n, approvals: 1 },
        { minCents: 999_950n, approvals: 1 },
        { minCents: 1_000_005n, approvals: 2 },
      ],
      problems: [],
    });
  });

  it.each([undefined, '', '  ', ','])('%j → the default, one approver for any amount', (text) => {
    expect(parseSwapPolicy(text)).toEqual({ tiers: [...DEFAULT_TIERS], problems: [] });
  });

  it.each([
    ['0:1,10000', 'SWAP_POLICY: "10000" should look like AMOUNT:APPROVERS, e.g. 10000:2'],
    ['0:1,1:2:3', 'SWAP_POLICY: "1:2:3" should look like AMOUNT:APPROVERS, e.g. 10000:2'],
    ['0:1,ten:2', 'SWAP_POLICY: "ten" in "ten:2" is not a USD amount (whole dollars or with cents, no commas)'],
    [
      '0:1,10.001:2',
      'SWAP_POLICY: "10.001" in "10.001:2" is not a USD amount (whole dollars or with cents, no commas)',
    ],
    ['0:1,-5:2', 'SWAP_POLICY: "-5" in "-5:2" is not a USD amount (whole dollars or with cents, no commas)'],
    ['0:1,10000:two', 'SWAP_POLICY: "two" in "10000:two" is not a number of approvers from 1 to 100'],
    ['0:1,10000:1.5', 'SWAP_POLICY: "1.5" in "10000:1.5" is not a number of approvers from 1 to 100'],
    ['0:1,10000:101', 'SWAP_POLICY: "101" in "10000:101" is not a number of approvers from 1 to 100'],
    ['0:0', 'SWAP_POLICY: "0:0" asks for 0 approvers; every swap needs at least 1'],
    ['0:1,10000:2,10000:3', 'SWAP_POLICY: $10,000 is given twice'],
    ['0:1,10000:2,10000.00:2', 'SWAP_POLICY: $10,000 is given twice'],
    ['0:1,10000:2,5000:2', 'SWAP_POLICY: $5,000 comes after $10,000; list the tiers from the smallest amount up'],
    ['0:1,10000:3,250000:2', 'SWAP_POLICY: $250,000 needs 2 approvers, fewer than the 3 of $10,000 below it'],
    [
      '10000:2,250000:3',
      'SWAP_POLICY: the first tier starts at $10,000; start it at 0 (e.g. 0:1,10000:2,250000:3) so every amount has a rule',
    ],
    ['0:1,1000000000001:2', 'SWAP_POLICY: "1000000000001:2" starts above the most accepted, $1,000,000,000,000'],
  ])('%j → one plain problem', (text, problem) => {
    expect(parseSwapPolicy(text).problems).toEqual([problem]);
  });

  it('reports every problem at once, and a 0 given out of order only once', () => {
    expect(parseSwapPolicy('10000:2,0:1,x,10000:0').problems).toEqual([
      'SWAP_POLICY: $0 comes after $10,000; list the tiers from the smallest amount up',
      'SWAP_POLICY: "x" should look like AMOUNT:APPROVERS, e.g. 10000:2',
      'SWAP_POLICY: "10000:0" asks for 0 approvers; every swap needs at least 1',
    ]);
  });
});

describe('parseUsdLimit', () => {
  it.each([
    ['$250,000', 25_000_000n],
    ['250000', 25_000_000n],
    ['250000.50', 25_000_050n],
    [' $ 1,234,567.5 ', 123_456_750n],
    ['0.01', 1n],
  ])('%j → %s cents', (text, cents) => {
    expect(parseUsdLimit(text, 'SWAP_MAX_USD')).toEqual({ limitCents: cents, problems: [] });
  });

  it.each([undefined, '', '   '])('%j → no limit', (text) => {
    expect(parseUsdLimit(text, 'SWAP_MAX_USD')).toEqual({ limitCents: undefined, problems: [] });
  });

  it.each([
    ['25,00,000', 'SWAP_DAILY_LIMIT_USD: "25,00,000" is not a USD amount (e.g. 250000, $250,000 or 250000.50)'],
    ['1.005', 'SWAP_DAILY_LIMIT_USD: "1.005" is not a USD amount (e.g. 250000, $250,000 or 250000.50)'],
    ['-5', 'SWAP_DAILY_LIMIT_USD: "-5" is not a USD amount (e.g. 250000, $250,000 or 250000.50)'],
    ['250k', 'SWAP_DAILY_LIMIT_USD: "250k" is not a USD amount (e.g. 250000, $250,000 or 250000.50)'],
    ['$0.00', 'SWAP_DAILY_LIMIT_USD: must be more than $0 (leave it unset for no limit)'],
    ['1000000000000.01', 'SWAP_DAILY_LIMIT_USD: "1000000000000.01" is above the most accepted, $1,000,000,000,000'],
  ])('%j → one plain problem', (text, problem) => {
    expect(parseUsdLimit(text, 'SWAP_DAILY_LIMIT_USD')).toEqual({ limitCents: undefined, problems: [problem] });
  });
});

const TIERS: PolicyTier[] = parseSwapPolicy('0:1,10000:2,250000:3').tiers;
const NO_USD: UsdValue = quoteValueUsd({ amount: '1', decimals: 6, balance: '10', balanceInUsd: null });

describe('approvalsNeeded', () => {
  // [value, needed, tier threshold in cents]
  const table: [UsdValue, number, bigint][] = [
    [{ cents: 0n }, 1, 0n],
    [{ cents: 5_000n }, 1, 0n],
    [{ cents: 999_999n }, 1, 0n], // $9,999.99
    [{ cents: 1_000_000n }, 2, 1_000_000n], // exactly $10,000 takes that tier
    [{ cents: 1_000_001n }, 2, 1_000_000n],
    [{ cents: 24_999_999n }, 2, 1_000_000n],
    [{ cents: 25_000_000n }, 3, 25_000_000n], // exactly $250,000
    [{ cents: MAX_UINT256 }, 3, 25_000_000n],
  ];
  it.each(table)('%o → %i approvals', (value, needed, minCents) => {
    expect(approvalsNeeded(TIERS, value)).toEqual({ needed, tier: { minCents, approvals: needed } });
  });

  it('an unknown value takes the highest tier and fails closed, saying why', () => {
    expect(approvalsNeeded(TIERS, NO_USD)).toEqual({
      needed: 3,
      tier: { minCents: 25_000_000n, approvals: 3 },
      failClosed:
        'the asset list gives no USD value for this asset, so its price is unknown; without a price the swap needs as many approvals as the largest swaps',
    });
    expect(approvalsNeeded(DEFAULT_TIERS, NO_USD)).toMatchObject({ needed: 1 });
  });

  it('refuses an empty policy (programming error)', () => {
    expect(() => approvalsNeeded([], { cents: 1n })).toThrow(RangeError);
  });
});

describe("approvalsNeeded with the requester's own swaps of the last 24 hours (no dodging a tier by splitting)", () => {
  // [what, this swap's cents, window, needed, the window as recorded]
  const table: [string, bigint, RequesterWindow | undefined, number, WindowTotal | undefined][] = [
    ['no window', 600_000n, undefined, 1, undefined],
    ['an empty window', 600_000n, { count: 0, cents: 0n }, 1, undefined],
    [
      '$6,000 + an earlier $6,000 = $12,000: the $10,000 tier',
      600_000n,
      { count: 1, cents: 600_000n },
      2,
      { count: 1, priorCents: 600_000n, totalCents: 1_200_000n },
    ],
    [
      '$4,000 + $5,999.99 = $9,999.99: still below',
      400_000n,
      { count: 2, cents: 599_999n },
      1,
      { count: 2, priorCents: 599_999n, totalCents: 999_999n },
    ],
    [
      '$4,000 + $6,000 = exactly $10,000: that tier',
      400_000n,
      { count: 1, cents: 600_000n },
      2,
      { count: 1, priorCents: 600_000n, totalCents: 1_000_000n },
    ],
    [
      '$0.01 + $249,999.99 = $250,000: the top tier',
      1n,
      { count: 3, cents: 24_999_999n },
      3,
      { count: 3, priorCents: 24_999_999n, totalCents: 25_000_000n },
    ],
  ];
  it.each(table)('%s', (_what, cents, window, needed, recorded) => {
    const judged = approvalsNeeded(TIERS, { cents }, window);
    expect(judged.needed).toBe(needed);
    expect(judged.window).toEqual(recorded);
    expect(judged.failClosed).toBeUndefined();
  });

  it('an unknown value in the window makes the total unknown: the highest tier, saying why (fail closed)', () => {
    const judged = approvalsNeeded(
      TIERS,
      { cents: 100n },
      { count: 2, unknown: 'the USD value of your swap is unknown' },
    );
    expect(judged).toMatchObject({ needed: 3, window: { count: 2, unknown: 'the USD value of your swap is unknown' } });
    expect(judged.failClosed).toMatch(
      /^the USD value of your swap is unknown, so your swaps of the last 24 hours cannot be added up/,
    );
  });

  it('with a single tier the window changes nothing and is not recorded, even when unknown', () => {
    expect(approvalsNeeded(DEFAULT_TIERS, { cents: 100n }, { count: 2, unknown: 'x' })).toEqual({
      needed: 1,
      tier: { minCents: 0n, approvals: 1 },
    });
    expect(approvalsNeeded(DEFAULT_TIERS, { cents: 100n }, { count: 2, cents: 5n })).toEqual({
      needed: 1,
      tier: { minCents: 0n, approvals: 1 },
    });
  });

  it('the quote says what the window made of it', () => {
    expect(windowText({ count: 1, priorCents: '600000', totalCents: '1200000' }, 2)).toBe(
      'with your $6,000 swap today this makes $12,000: 2 approvals',
    );
    expect(windowText({ count: 3, priorCents: '900000', totalCents: '1500000' }, 2)).toBe(
      'with your $9,000 in 3 swaps today this makes $15,000: 2 approvals',
    );
    const snapshot = snapshotPolicy(
      { tiers: TIERS, approvers: ['U0A'], allowSelfApproval: false },
      { cents: 600_000n },
      new Date('2026-11-24T10:00:00Z'),
      { count: 1, cents: 600_000n },
    );
    expect(PolicySnapshot.parse(snapshot)).toMatchObject({
      needed: 2,
      tier: { minCents: '1000000', approvals: 2 },
      value: { cents: '600000' },
      window: { count: 1, priorCents: '600000', totalCents: '1200000' },
    });
  });
});

describe('swapValueUsd: both legs at their own asset’s price, the larger; unknown when either cannot be trusted', () => {
  const usdt = (amount: string, balance = '152340250000', balanceInUsd = '152340.25') => ({
    label: 'USDT on Ethereum',
    amount,
    decimals: 6,
    balance,
    balanceInUsd,
  });
  const eth = (amount: string, balance = ((125n * E18) / 10n).toString(), balanceInUsd = '37500.00') => ({
    label: 'ETH on Ethereum',
    amount,
    decimals: 18,
    balance,
    balanceInUsd,
  });
  it.each([
    ['the source alone (no estimate yet)', usdt('6000000000'), undefined, { cents: 600_000n }],
    ['both legs about equal: the larger', usdt('6000000000'), eth((2n * E18).toString()), { cents: 600_000n }],
    ['the target worth more: the target', usdt('1000000000'), eth((2n * E18).toString()), { cents: 600_000n }],
  ] as const)('%s', (_what, from, to, expected) => {
    expect(swapValueUsd(from, to)).toEqual(expected);
  });

  it.each([
    [
      'a dust source valued at $0.00 (the target would say $60,000)',
      usdt('20000000000', '1', '0.00'),
      eth((20n * E18).toString()),
      'zero_usd',
      'USDT on Ethereum (the asset swapped from)',
    ],
    [
      'a target priced at 0',
      usdt('6000000000'),
      eth(E18.toString(), E18.toString(), '0'),
      'zero_usd',
      'ETH on Ethereum (the asset swapped into)',
    ],
    [
      'a target never held (no balance)',
      usdt('6000000000'),
      eth(E18.toString(), '0', '0.00'),
      'no_balance',
      'ETH on Ethereum (the asset swapped into)',
    ],
    [
      'a target estimate 11 times its balance',
      usdt('6000000000'),
      eth((11n * E18).toString(), E18.toString(), '3000.00'),
      'beyond_balance',
      'ETH on Ethereum (the asset swapped into)',
    ],
  ] as const)('%s → unknown, naming the leg', (_what, from, to, code, leg) => {
    const value = swapValueUsd(from, to);
    expect(value).toMatchObject({ unknown: code });
    expect((value as { reason: string }).reason.startsWith(`for ${leg}, the `)).toBe(true);
  });
});

describe('checkMaxUsd', () => {
  it.each([
    [undefined, { cents: MAX_UINT256 }, true],
    [undefined, NO_USD, true],
    [25_000_000n, { cents: 25_000_000n }, true], // exactly at the maximum
    [25_000_000n, { cents: 25_000_001n }, false],
    [25_000_000n, NO_USD, false], // fail closed
  ] as [bigint | undefined, UsdValue, boolean][])('max %s, value %o → ok %s', (max, value, ok) => {
    expect(checkMaxUsd(max, value).ok).toBe(ok);
  });

  it('says why in plain words', () => {
    expect(checkMaxUsd(25_000_000n, { cents: 30_000_012n })).toEqual({
      ok: false,
      reason: 'this swap is worth about $300,000.12, above the $250,000 allowed for one swap',
    });
    expect(checkMaxUsd(25_000_000n, NO_USD)).toEqual({
      ok: false,
      reason:
        'swaps are limited to $250,000 each and the asset list gives no USD value for this asset, so its price is unknown',
    });
  });
});

const REQUESTER = 'U0REQUESTER';
const AVERY = 'U0AVERY';
const BLAKE = 'U0BLAKE';
const CASEY = 'U0CASEY';
const OUTSIDER = 'U0OUTSIDER';
const GROUP = 'S0TREASURY';
const QUOTED_AT = new Date('2026-11-24T10:00:00.000Z');
const T1 = new Date('2026-11-24T10:05:00.000Z');
const T2 = new Date('2026-11-24T10:06:00.000Z');

const POLICY: SwapPolicy = {
  tiers: TIERS,
  approvers: [REQUESTER, AVERY, BLAKE, GROUP],
  allowSelfApproval: false,
  maxUsdCents: 100_000_000n,
  dailyLimitUsdCents: 50_000_000n,
};

describe('snapshotPolicy: the policy fixed on a quote', () => {
  it('records tiers, the tier applied, approvers (people and groups), limits, the value and when', () => {
    const snapshot = snapshotPolicy(POLICY, { cents: 1_500_000n }, QUOTED_AT);
    expect(snapshot).toEqual({
      tiers: [
        { minCents: '0', approvals: 1 },
        { minCents: '1000000', approvals: 2 },
        { minCents: '25000000', approvals: 3 },
      ],
      tier: { minCents: '1000000', approvals: 2 },
      needed: 2,
      approvers: { userIds: [REQUESTER, AVERY, BLAKE], groupIds: [GROUP] },
      allowSelfApproval: false,
      maxUsdCents: '100000000',
      dailyLimitUsdCents: '50000000',
      value: { cents: '1500000' },
      fixedAt: '2026-11-24T10:00:00.000Z',
    });
    // It survives JSON (both stores keep it as JSON) and the schema.
    const stored = PolicySnapshot.parse(JSON.parse(JSON.stringify(snapshot)));
    expect(stored).toEqual(snapshot);
    expect(snapshotValue(stored)).toEqual({ cents: 1_500_000n });
  });

  it('an unknown value is recorded with why it failed closed; no limits means none recorded', () => {
    const snapshot = snapshotPolicy({ tiers: DEFAULT_TIERS, approvers: [AVERY], allowSelfApproval: true }, NO_USD, T1);
    expect(snapshot).toMatchObject({ needed: 1, value: { unknown: 'no_usd' }, failClosed: expect.any(String) });
    expect(snapshot).not.toHaveProperty('maxUsdCents');
    expect(snapshot).not.toHaveProperty('dailyLimitUsdCents');
    expect(PolicySnapshot.parse(snapshot)).toEqual(snapshot);
    expect(snapshotValue(snapshot)).toEqual(NO_USD);
  });

  it('the schema refuses a snapshot that could not have been made', () => {
    const good = snapshotPolicy(POLICY, { cents: 1n }, QUOTED_AT);
    expect(PolicySnapshot.safeParse({ ...good, needed: 0 }).success).toBe(false);
    expect(PolicySnapshot.safeParse({ ...good, tiers: [] }).success).toBe(false);
    expect(PolicySnapshot.safeParse({ ...good, value: { cents: '1.5' } }).success).toBe(false);
    expect(PolicySnapshot.safeParse({ ...good, fixedAt: 'yesterday' }).success).toBe(false);
  });
});

describe('approverCheck: named people, members of named groups, and groups Slack could not list', () => {
  const snapshot = snapshotPolicy({ ...POLICY, approvers: [AVERY, GROUP, 'S0OTHER'] }, { cents: 1n }, QUOTED_AT);
  const listed: GroupMembers = new Map([
    [GROUP, [BLAKE]],
    ['S0OTHER', [CASEY]],
  ]);
  const oneFailed: GroupMembers = new Map<string, readonly string[] | { error: string }>([
    [GROUP, [BLAKE]],
    ['S0OTHER', { error: 'Slack did not answer' }],
  ]);
  it.each([
    [AVERY, listed, true],
    [BLAKE, listed, true],
    [CASEY, listed, true],
    [OUTSIDER, listed, false],
    [AVERY, oneFailed, true], // named: no group needed
    [BLAKE, oneFailed, true], // in a group Slack did list
    [
      CASEY,
      oneFailed,
      {
        unknown:
          'Slack could not say who is in <!subteam^S0OTHER> (Slack did not answer), so nobody from it can approve right now; try again in a few minutes',
      },
    ],
    [
      OUTSIDER,
      oneFailed,
      {
        unknown:
          'Slack could not say who is in <!subteam^S0OTHER> (Slack did not answer), so nobody from it can approve right now; try again in a few minutes',
      },
    ],
    [
      BLAKE,
      new Map(),
      {
        unknown:
          'Slack could not say who is in <!subteam^S0TREASURY>, <!subteam^S0OTHER>, so nobody from them can approve right now; try again in a few minutes',
      },
    ],
  ] as [string, GroupMembers, unknown][])('%s → %o', (userId, groups, expected) => {
    expect(approverCheck(snapshot, userId, groups)).toEqual(expected);
  });
});

describe('countApproval and rejectQuote: distinct approvers, each once; one Reject ends it', () => {
  const twoNeeded = snapshotPolicy(POLICY, { cents: 1_500_000n }, QUOTED_AT);
  const pending = (...approvals: Approval[]): QuorumState => ({ status: 'pending', approvals });
  const byAvery: Approval = { userId: AVERY, at: T1.toISOString() };
  const click = (userId: string, fields: Partial<QuorumClick> = {}): QuorumClick => ({
    userId,
    at: T2,
    requesterId: REQUESTER,
    snapshot: twoNeeded,
    isApprover: [REQUESTER, AVERY, BLAKE, CASEY].includes(userId),
    ...fields,
  });

  it('the first approval is counted and waits for one more; a second person reaches the quorum', () => {
    expect(countApproval(pending(), click(AVERY, { at: T1 }))).toEqual({
      ok: true,
      approvals: [byAvery],
      reached: false,
    });
    expect(countApproval(pending(byAvery), click(BLAKE))).toEqual({
      ok: true,
      approvals: [byAvery, { userId: BLAKE, at: T2.toISOString() }],
      reached: true,
    });
  });

  // [who, state, click fields, reason, notice]
  const refusals: [string, QuorumState, Partial<QuorumClick>, string, string][] = [
    [
      OUTSIDER,
      pending(),
      {},
      'not_an_approver',
      'Only the swap approvers (<@U0REQUESTER>, <@U0AVERY>, <@U0BLAKE>, <!subteam^S0TREASURY>) can approve this quote. Nothing was done.',
    ],
    [
      REQUESTER,
      pending(byAvery),
      {},
      'self_approval',
      'You requested this swap, so someone else must approve it (separation of duties). Nothing was done.',
    ],
    [
      AVERY,
      pending(byAvery),
      {},
      'already_approved',
      'You already approved this quote at 2026-11-24 10:05 UTC; it is waiting for one more approver. Nothing was done.',
    ],
    [
      CASEY,
      pending(),
      {
        isApprover: {
          unknown:
            'Slack could not say who is in <!subteam^S0TREASURY>, so nobody from it can approve right now; try again in a few minutes',
        },
      },
      'approvers_unknown',
      'Slack could not say who is in <!subteam^S0TREASURY>, so nobody from it can approve right now; try again in a few minutes. Nothing was done.',
    ],
    [
      BLAKE,
      { status: 'rejected', approvals: [byAvery] },
      {},
      'already_decided',
      'This quote was already rejected. Nothing was done.',
    ],
    [
      BLAKE,
      { status: 'expired', approvals: [] },
      {},
      'already_decided',
      'This quote has expired; no swap was made. Nothing was done.',
    ],
    [
      CASEY,
      { status: 'approving', approvals: [byAvery, { userId: BLAKE, at: T2.toISOString() }] },
      {},
      'already_decided',
      'This quote already has all its approvals. Nothing was done; the swap is created at most once.',
    ],
    [
      // A record that somehow holds the quorum while still pending never counts a third.
      CASEY,
      pending(byAvery, { userId: BLAKE, at: T2.toISOString() }),
      {},
      'already_decided',
      'This quote already has all its approvals. Nothing was done; the swap is created at most once.',
    ],
  ];
  it.each(refusals)('%s on %o → %s', (userId, state, fields, reason, notice) => {
    expect(countApproval(state, click(userId, fields))).toMatchObject({ ok: false, reason, notice });
  });

  it('already_approved names when, and nobody counts twice however often they click', () => {
    let state = pending();
    for (const at of [T1, T2, new Date('2026-11-24T10:07:00.000Z')]) {
      const result = countApproval(state, click(AVERY, { at }));
      if (result.ok) state = pending(...result.approvals);
    }
    expect(state.approvals).toEqual([byAvery]);
    expect(countApproval(state, click(AVERY))).toMatchObject({ reason: 'already_approved', approvedAt: byAvery.at });
  });

  it('the requester counts as one distinct approver only with self-approval on', () => {
    const selfAllowed = snapshotPolicy({ ...POLICY, allowSelfApproval: true }, { cents: 1_500_000n }, QUOTED_AT);
    const first = countApproval(pending(), click(REQUESTER, { snapshot: selfAllowed }));
    expect(first).toMatchObject({ ok: true, reached: false });
    expect(
      countApproval(pending({ userId: REQUESTER, at: T1.toISOString() }), click(AVERY, { snapshot: selfAllowed })),
    ).toMatchObject({ ok: true, reached: true });
    expect(
      countApproval(pending({ userId: REQUESTER, at: T1.toISOString() }), click(REQUESTER, { snapshot: selfAllowed })),
    ).toMatchObject({ ok: false, reason: 'already_approved' });
  });

  it('a policy changed mid-flight: the snapshot decides, not the new configuration', () => {
    // Quoted under 0:1,10000:2 ($15,000 needs two); the deployment then goes back to one approver for all.
    const fixed = snapshotPolicy(POLICY, { cents: 1_500_000n }, QUOTED_AT);
    const now = parseSwapPolicy('0:1').tiers;
    expect(approvalsNeeded(now, { cents: 1_500_000n }).needed).toBe(1);
    expect(countApproval(pending(), click(AVERY, { snapshot: fixed }))).toMatchObject({ ok: true, reached: false });
    // And the other way: a stricter policy later does not hold up a quote made under the looser one.
    const loose = snapshotPolicy({ ...POLICY, tiers: DEFAULT_TIERS }, { cents: 1_500_000n }, QUOTED_AT);
    expect(approvalsNeeded(parseSwapPolicy('0:3').tiers, { cents: 1_500_000n }).needed).toBe(3);
    expect(countApproval(pending(), click(AVERY, { snapshot: loose }))).toMatchObject({ ok: true, reached: true });
  });

  it('an unknown value needs the top tier: three distinct approvers', () => {
    const fixed = snapshotPolicy(POLICY, NO_USD, QUOTED_AT);
    let state = pending();
    const results = [AVERY, BLAKE, CASEY].map((userId) => {
      const result = countApproval(state, click(userId, { snapshot: fixed }));
      if (result.ok) state = pending(...result.approvals);
      return result.ok && result.reached;
    });
    expect(results).toEqual([false, false, true]);
  });

  it('a Reject by any approver, or the requester, ends the quote whatever approvals it had', () => {
    expect(rejectQuote(pending(byAvery), click(BLAKE))).toEqual({ ok: true, rejectedBy: BLAKE, at: T2.toISOString() });
    expect(rejectQuote(pending(byAvery), click(AVERY))).toMatchObject({ ok: true, rejectedBy: AVERY });
    expect(rejectQuote(pending(), click(REQUESTER, { isApprover: false }))).toMatchObject({ ok: true });
    // After the Reject, nobody's approval counts.
    expect(countApproval({ status: 'rejected', approvals: [byAvery] }, click(BLAKE))).toMatchObject({
      reason: 'already_decided',
    });
  });

  it.each([
    [OUTSIDER, pending(), {}, 'not_requester_or_approver'],
    [CASEY, pending(), { isApprover: { unknown: 'Slack could not say' } }, 'approvers_unknown'],
    [BLAKE, { status: 'rejected', approvals: [] } as QuorumState, {}, 'already_decided'],
    [BLAKE, { status: 'approving', approvals: [byAvery] } as QuorumState, {}, 'already_decided'],
  ] as [string, QuorumState, Partial<QuorumClick>, string][])(
    'Reject by %s on %o → %s',
    (userId, state, fields, reason) => {
      expect(rejectQuote(state, click(userId, fields))).toMatchObject({ ok: false, reason });
    },
  );
});

describe('the rolling daily limit', () => {
  const NOW = new Date('2026-11-24T12:00:00.000Z');
  const ago = (ms: number) => new Date(NOW.getTime() - ms);
  const entry = (cents: bigint, at: Date, fields: Partial<UsageEntry> = {}): UsageEntry => ({
    assetKey: 'USDT-BSC',
    cents,
    at,
    state: 'created',
    ...fields,
  });

  // [what, entry, counted]
  const edges: [string, UsageEntry, boolean][] = [
    ['made now', entry(1n, NOW), true],
    ['1 ms inside the window', entry(1n, ago(DAILY_WINDOW_MS - 1)), true],
    ['exactly 24 h ago (out)', entry(1n, ago(DAILY_WINDOW_MS)), false],
    ['1 ms before the window', entry(1n, ago(DAILY_WINDOW_MS + 1)), false],
    ['a quote waiting for approval', entry(1n, ago(60_000), { state: 'waiting' }), true],
    ['dated ahead of now (another replica’s clock)', entry(1n, new Date(NOW.getTime() + 5_000)), true],
    ['another asset', entry(1n, NOW, { assetKey: 'USDT-ETH' }), false],
    ['an ISO string date', entry(1n, ago(1_000), { at: ago(1_000).toISOString() }), true],
  ];
  it.each(edges)('%s → counted %s', (_what, usage, counted) => {
    expect(dailyUsage([usage], 'USDT-BSC', NOW)).toBe(counted ? 1n : 0n);
  });

  it('adds up exactly, with huge amounts', () => {
    const entries = [
      entry(MAX_UINT256, ago(1)),
      entry(1n, ago(2), { state: 'waiting' }),
      entry(99n, ago(DAILY_WINDOW_MS)),
    ];
    expect(dailyUsage(entries, 'USDT-BSC', NOW)).toBe(MAX_UINT256 + 1n);
  });

  // [limit, used, adding, ok, left]
  const checks: [bigint, bigint, bigint, boolean, bigint][] = [
    [50_000_000n, 0n, 50_000_000n, true, 50_000_000n], // exactly the limit is allowed
    [50_000_000n, 0n, 50_000_001n, false, 50_000_000n],
    [50_000_000n, 49_000_000n, 1_000_000n, true, 1_000_000n],
    [50_000_000n, 49_000_000n, 1_000_001n, false, 1_000_000n],
    [50_000_000n, 50_000_000n, 0n, true, 0n],
    [50_000_000n, 60_000_000n, 1n, false, 0n], // already over (a lowered limit): nothing is left, never negative
  ];
  it.each(checks)('limit %s, used %s, adding %s → ok %s, left %s', (limit, used, adding, ok, left) => {
    expect(checkDailyLimit(limit, used, adding)).toEqual({ ok, leftCents: left });
  });
});
