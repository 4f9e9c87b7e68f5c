import { describe, expect, it } from 'vitest';
import { parseTreasuryCommand } from '../../src/commands/parse.js';
import { UsageError } from '../../src/kernel/usage-error.js';

/** The plain words of a refusal (UsageError keeps what the person reads as its detail). */
function refusal(text: string): string {
  try {
    parseTreasuryCommand(text);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`"${text}" was accepted`);
}

describe('a word the command has no place for is refused, never dropped or taken as a default', () => {
  it.each([
    ['balances USDT@BSC', '`balances` takes nothing after it; for one asset, `balance USDT@BSC`.'],
    ['swaps mine', '`swaps` takes nothing after it; for one swap, `swap <swap-id>`.'],
    ['balance USDT BSC', 'Give one asset'],
    ['gas failing', 'is not a gas status'],
    ['payouts failed USDT extra', 'Unexpected "extra"'],
    ['alerts all', '`alerts` takes nothing after it, or `open`.'],
    ['digest now', '`digest` takes nothing after it.'],
    ['runway USDT@ETH', '`runway` takes nothing after it.'],
    ['thresholds USDT', '`thresholds` takes nothing after it.'],
    ['threshold USDT@BSC under 5', 'Say `below`'],
    ['audit 30d csv', 'Give one period'],
    ['swap 1000 USDT@ETH into USDC@ETH', 'Give an amount and two assets'],
    ['invoice $10 --colour red', 'Unknown option --colour'],
    ['invoice $10 Pro —expires 2h', '"—expires" looks like an option: write it with two hyphens (--expires).'],
    ['invoice $10 Pro -data x', '"-data" looks like an option: write it with two hyphens (--data).'],
    ['invoice $10 --expires 1h --expires 2h', '--expires is given twice: give it once.'],
    ['payouts failed pending', 'Give at most one status.'],
  ])('%s', (text, words) => {
    expect(refusal(text)).toContain(words);
  });

  it('the forms with nothing extra still parse', () => {
    expect(parseTreasuryCommand('balances')).toEqual({ kind: 'balances' });
    expect(parseTreasuryCommand('swaps')).toEqual({ kind: 'swaps' });
    expect(parseTreasuryCommand('balance usdt@bsc')).toEqual({ kind: 'balance', asset: 'usdt@bsc' });
    expect(parseTreasuryCommand('invoice $10 Pro plan — yearly --expires 2h')).toMatchObject({
      kind: 'invoice-create',
      words: ['Pro', 'plan', '—', 'yearly'],
      options: { expiresInSeconds: 7200 },
    });
  });
});

describe('freeze', () => {
  it.each([
    ['freeze leaked token --for', 'Put `--for` and a duration last'],
    ['freeze leaked --for 2h token', 'Put `--for` and a duration last'],
    ['freeze leaked token --for soon', '`--for` takes a duration such as `30m`'],
    ['freeze leaked token --for 31d', 'at most 30d'],
    ['freeze --for 2h', 'Say why'],
  ])('%s is refused', (text, words) => {
    expect(refusal(text)).toContain(words);
  });

  it('alone shows the state; a reason with or without --for pulls it', () => {
    expect(parseTreasuryCommand('freeze')).toEqual({ kind: 'freeze-show' });
    expect(parseTreasuryCommand('FREEZE leaked token')).toEqual({ kind: 'freeze', reason: 'leaked token' });
    expect(parseTreasuryCommand('freeze "strange quote" --FOR 2h')).toEqual({
      kind: 'freeze',
      reason: 'strange quote',
      forMs: 7_200_000,
    });
  });
});
