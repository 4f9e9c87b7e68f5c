import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { type Answer, ask, share } from '../support/slack.js';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(() => stack.close());
beforeEach(() => stack.simulator.resetRequests());

function createCalls(operation: 'createInvoice' | 'createInvoiceByCrypto') {
  return stack.simulator.requests.filter((r) => r.operation === operation);
}

describe('USD invoices', () => {
  it.each([
    ['$49.99', 4999],
    ['49.99', 4999],
    ['49.99 usd', 4999],
    ['$1,000.50', 100050],
  ])(
    '`invoice %s` creates a USD invoice of %d cents and answers with the payment link and expiry',
    async (amount, cents) => {
      const answer = await ask(stack, `invoice ${amount}`);
      const [call] = createCalls('createInvoice');
      expect(call?.body).toMatchObject({ usdAmountInCents: cents });
      expect(answer.text).toMatch(/Invoice created: \$[\d,.]+/);
      expect(answer.text).toMatch(/\*Payment page:\* <https:\/\/pay\.example\.test\/invoice\/[0-9a-f-]+\|/);
      expect(answer.text).toMatch(/\*Expires\*\n\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(in 60 minutes\)/);
      expect(answer.buttons.map((b) => b.text)).toEqual(['Share in channel']);
    },
  );

  it('takes the rest as the title, and --expires, --asset and --data as options', async () => {
    const answer = await ask(stack, 'invoice $25 Pro plan, yearly --expires 2h --asset USDT@BSC --data "order 42"');
    const [call] = createCalls('createInvoice');
    expect(call?.body).toEqual({
      usdAmountInCents: 2500,
      productTitle: 'Pro plan, yearly',
      assetId: stack.simulator.ids.assets.usdtBsc,
      extraData: 'order 42',
      paymentDelayTime: 7200,
    });
    expect(answer.text).toContain('(in 2 hours)');
    expect(answer.text).toContain('*Extra data*\norder 42');
  });

  it('keeps a title word that is not an asset as part of the title', async () => {
    await ask(stack, 'invoice 100 Pro plan');
    expect(createCalls('createInvoice')[0]?.body).toMatchObject({ usdAmountInCents: 10000, productTitle: 'Pro plan' });
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(0);
  });
});

describe('crypto invoices', () => {
  it('`invoice 0.05 ETH Consulting` invoices exact base units of the asset, with address and network', async () => {
    const answer = await ask(stack, 'invoice 0.05 ETH Consulting');
    const [call] = createCalls('createInvoiceByCrypto');
    expect(call?.body).toMatchObject({
      cryptoAmount: '50000000000000000',
      assetId: stack.simulator.ids.assets.eth,
      productTitle: 'Consulting',
    });
    expect(answer.text).toContain('Invoice created: 0.05 ETH — Consulting');
    expect(answer.text).toContain('*Pay to address*');
    expect(answer.text).toContain('*Network*\nEthereum (ETH)');
  });

  it("uses the asset's own decimals (USDT has 6 on Ethereum, 18 on BSC)", async () => {
    await ask(stack, 'invoice 1,000.5 USDT@ETH');
    await ask(stack, 'invoice 1,000.5 usdt@bsc');
    const [eth, bsc] = createCalls('createInvoiceByCrypto');
    expect(eth?.body).toMatchObject({ cryptoAmount: '1000500000' });
    expect(bsc?.body).toMatchObject({ cryptoAmount: '1000500000000000000000' });
  });

  it('refuses more decimals than the asset allows, and creates nothing', async () => {
    const answer = await ask(stack, 'invoice 1.0000001 USDT@ETH');
    expect(answer.text).toContain('USDT allows at most 6 decimal places; you gave 7.');
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(0);
  });

  it('asks which asset when the symbol is ambiguous, and creates nothing', async () => {
    const answer = await ask(stack, 'invoice 10 USDT');
    expect(answer.text).toContain('Say which: `USDT@ETH`, `USDT@BSC`');
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(0);
    expect(createCalls('createInvoice')).toHaveLength(0);
  });
});

describe('a word after the amount that reads like a currency the merchant does not hold', () => {
  // The simulator's merchant holds ETH, BNB, POL, USDT (two), USDC (two) and DAI: no BTC, no EUR.
  it.each([
    ['invoice 0.05 BTC Consulting', 'BTC', '`invoice $0.05 Consulting`'],
    ['invoice 0.05 bitcoin Consulting', 'bitcoin', '`invoice $0.05 Consulting`'],
    ['invoice 100 EUR', 'EUR', '`invoice $100`'],
    ['invoice 0.05 btc', 'btc', '`invoice $0.05`'],
  ])('`%s` makes no invoice, names the assets there are and shows the $ form', async (text, word, usdForm) => {
    const answer = await ask(stack, text);
    expect(answer.text).toMatch(/^:warning:/);
    expect(answer.text).toContain(`"${word}" is not one of this merchant's assets, so no invoice was made.`);
    expect(answer.text).toContain('USDT@ETH');
    expect(answer.text).toContain('ETH@ETH');
    expect(answer.text).toContain(`For a USD invoice, put a $ before the amount: ${usdForm}.`);
    // The assets were read to say which exist; nothing was created.
    expect(createCalls('createInvoice')).toHaveLength(0);
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(0);
    expect(stack.simulator.requests.map((r) => r.operation)).toEqual(['listAssets']);
  });

  it('an unknown SYMBOL@NETWORK is refused with the assets of that symbol', async () => {
    const answer = await ask(stack, 'invoice 10 USDT@TRON Consulting');
    expect(answer.text).toContain('No asset "USDT@TRON" for this merchant. Available: `USDT@ETH`, `USDT@BSC`');
    expect(createCalls('createInvoice')).toHaveLength(0);
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(0);
  });

  it('with a $ the amount is US dollars and the word is the title, as written', async () => {
    await ask(stack, 'invoice $0.05 BTC Consulting');
    expect(createCalls('createInvoice')[0]?.body).toMatchObject({
      usdAmountInCents: 5,
      productTitle: 'BTC Consulting',
    });
    expect(createCalls('createInvoiceByCrypto')).toHaveLength(0);
  });
});

describe('bad invoice input is refused with the reason and no API call', () => {
  it.each([
    ['invoice -5', 'Amount cannot be negative.'],
    ['invoice 0', 'greater than zero'],
    ['invoice 1e6', 'Exponent notation'],
    ['invoice abc', 'is not a number'],
    ['invoice $49.999', 'at most 2 decimal places'],
    ['invoice $10 --expires 25h', '--expires can be at most 24h'],
    ['invoice $10 --expires soon', '--expires takes a duration'],
    ['invoice $10 --colour red', 'Unknown option --colour'],
    // `invoice` alone opens the invoice form (test/slack/forms-invoice.test.ts).
  ])('%s', async (text, reason) => {
    const answer = await ask(stack, text);
    expect(answer.text).toContain(reason);
    expect(answer.text).toMatch(/^:warning:/);
    expect(stack.simulator.requestCount()).toBe(0);
  });
});

describe('invoice lookup', () => {
  it('`invoice <id>` shows status, amount, network and expiry', async () => {
    const answer = await ask(stack, `invoice ${stack.simulator.ids.invoices.byCrypto}`);
    expect(answer.text).toContain(':hourglass_flowing_sand: pending');
    expect(answer.text).toContain('*Pay to address*');
    expect(createCalls('createInvoice')).toHaveLength(0);
  });

  it('an expired invoice says Expired', async () => {
    const answer = await ask(stack, `invoice ${stack.simulator.ids.invoices.expired}`);
    expect(answer.text).toMatch(/\*Expired\*\n.* ago\)/);
  });

  it('shares the payment link in the channel on request', async () => {
    const mine = await ask(stack, `invoice ${stack.simulator.ids.invoices.usdOnly}`, { userId: 'U0OPS' });
    const shared = await share(stack, mine, { userId: 'U0OPS' });
    expect(shared.text).toContain('*Payment page:*');
    expect(shared.text).toContain('shared by <@U0OPS>');
  });
});

/** The reply's mrkdwn: the notification text and every mrkdwn text object (Slack parses markup only there). */
function mrkdwnOf(answer: Answer): string {
  const texts: string[] = [answer.reply.text ?? ''];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const v = value as Record<string, unknown>;
    if (v.type === 'mrkdwn' && typeof v.text === 'string') texts.push(v.text);
    Object.values(v).forEach(walk);
  };
  walk(answer.reply.blocks);
  return texts.join('\n');
}

describe('escaping what we did not write', () => {
  it('a product title with a channel mention and a fake link is shown as text', async () => {
    const answer = await ask(stack, 'invoice $5 <!channel> <http://evil.example|click here> --data "<@U0BOSS> &"');
    const [call] = createCalls('createInvoice');
    expect(call?.body).toMatchObject({
      productTitle: '<!channel> <http://evil.example|click here>',
      extraData: '<@U0BOSS> &',
    });
    // plain_text (the header) shows it literally, as typed: Slack never parses markup there.
    expect(answer.text).toContain('Invoice created: $5.00 — <!channel> <http://evil.example|click here>');
    const everything = mrkdwnOf(answer);
    expect(everything).not.toContain('<!channel>');
    expect(everything).not.toContain('<http://evil.example');
    expect(everything).not.toContain('<@U0BOSS>');
    expect(answer.text).toContain('&lt;!channel&gt; &lt;http://evil.example|click here&gt;');
    expect(answer.text).toContain('&lt;@U0BOSS&gt; &amp;');
  });

  it('an invoice stored with a hostile title (made elsewhere) is escaped on lookup too', async () => {
    const invoice = stack.simulator.addInvoice({
      productTitle: '<!here> pay <https://phish.example|now>',
      extraData: '<!everyone>',
    });
    const answer = await ask(stack, `invoice ${invoice.id}`);
    const everything = mrkdwnOf(answer);
    for (const live of ['<!here>', '<https://phish.example', '<!everyone>']) expect(everything).not.toContain(live);
  });
});
