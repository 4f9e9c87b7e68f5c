import { describe, expect, it } from 'vitest';
import { parseTreasuryCommand, UsageError } from '../../src/commands/parse.js';

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
    ['thresholds USDT', '`thresholds` takes nothing after it.'],
    ['threshold USDT@BSC under 5', 'Say `below`'],
    ['audit 30d csv', 'Give one period'],
    ['swap 1000 USDT@ETH into USDC@ETH', 'Give an amount and two assets'],
    ['invoice $10 --colour red', 'Unknown option --colour'],
  ])('%s', (text, words) => {
    expect(refusal(text)).toContain(words);
  });

  it('the forms with nothing extra still parse', () => {
    expect(parseTreasuryCommand('balances')).toEqual({ kind: 'balances' });
    expect(parseTreasuryCommand('swaps')).toEqual({ kind: 'swaps' });
    expect(parseTreasuryCommand('balance usdt@bsc')).toEqual({ kind: 'balance', asset: 'usdt@bsc' });
  });
});
