// Asset balances arrive in base units (docs/payments-api.md#units) and are shown in token units, exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { ask } from '../support/slack.js';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(() => stack.close());

describe('asset balances are base units', () => {
  it('shows 12345678901234567890 wei of ETH as 12.34567890123456789 ETH, in the list and alone', async () => {
    const { eth } = stack.simulator.ids.assets;
    stack.simulator.setAssetBalance(eth, '12345678901234567890');
    const list = await ask(stack, 'balances');
    expect(list.text).toContain('*ETH* · Ethereum (ETH) — 12.34567890123456789 ETH');
    expect(list.text).not.toContain('12,345,678,901,234,567,890');
    const single = await ask(stack, 'balance ETH');
    expect(single.text).toContain('*Balance*\n12.34567890123456789 ETH');
  });

  it('shows a 6-decimal token with its fraction: 5234567890 base units of USDC are 5,234.56789 USDC', async () => {
    const { usdcEth } = stack.simulator.ids.assets;
    stack.simulator.setAssetBalance(usdcEth, '5234567890');
    const single = await ask(stack, 'balance USDC@ETH');
    expect(single.text).toContain('*Balance*\n5,234.56789 USDC');
    expect(single.text).toContain('*USD value*\n$5,234.57');
  });
});
