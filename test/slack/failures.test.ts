import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { ask } from '../support/slack.js';
import { expectStaysAt } from '../support/waiting.js';

describe('API failures get a clear answer, and the bot stays healthy', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({ paymentsTimeoutMs: 300 });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.simulator.clearFaults();
    stack.simulator.resetRequests();
  });

  async function expectHealthyAfterwards() {
    const answer = await ask(stack, 'balance ETH');
    expect(answer.text).toContain('ETH on Ethereum');
  }

  it("400: shows the API's own message", async () => {
    const answer = await ask(stack, 'invoice 3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f');
    expect(answer.text).toContain('The payment service refused this: *Invoice not found*');
  });

  it('400: lists the field errors of the envelope', async () => {
    stack.simulator.injectFault('createInvoice', {
      status: 400,
      body: {
        success: false,
        message: 'Validation failed',
        statusCode: 400,
        errors: [{ field: 'productTitle', messages: ['must be shorter than 255 characters'] }],
      },
    });
    const answer = await ask(stack, 'invoice $5 Long title');
    expect(answer.text).toContain('*Validation failed*');
    expect(answer.text).toContain('• Title: must be shorter than 255 characters');
  });

  it.each([
    [429, 'rate-limiting us right now. Please try again in a minute.'],
    [500, 'a problem on its side. This is usually temporary: please try again in a minute.'],
    [503, 'a problem on its side. This is usually temporary: please try again in a minute.'],
  ])('%d on every retry: says try again', async (status, message) => {
    stack.simulator.injectFault('listAssets', { status, headers: { 'Retry-After': '0' } }, 10);
    const answer = await ask(stack, 'balances');
    expect(answer.text).toContain(message);
    expect(answer.text).not.toMatch(/at .*\.ts:\d+/);
    stack.simulator.clearFaults();
    await expectHealthyAfterwards();
  });

  it('a timeout on every retry: says the service did not answer in time', async () => {
    stack.simulator.injectFault('getWithdrawal', { delayMs: 1_000 }, 10);
    const answer = await ask(stack, `withdrawal ${stack.simulator.ids.withdrawals.all[0]}`);
    expect(answer.text).toContain('did not answer in time. Please try again in a minute.');
    stack.simulator.clearFaults();
    await expectHealthyAfterwards();
  });

  it('a transient 503 is retried and the user just gets the answer', async () => {
    stack.simulator.injectFault('listAssets', { status: 503 }, 2);
    const answer = await ask(stack, 'balances');
    expect(answer.text).toContain('Balances ·');
    expect(stack.simulator.requestCount('listAssets')).toBe(3);
  });

  it('403 where the API documentation names no permission: says a permission is missing, without inventing its name', async () => {
    stack.simulator.injectFault('createInvoice', { status: 403 });
    const answer = await ask(stack, 'invoice $5');
    expect(answer.text).toContain('The payment API key lacks a permission needed for this.');
  });

  it('a create that fails is not retried, and the user is told', async () => {
    stack.simulator.injectFault('createInvoice', { status: 502 });
    const answer = await ask(stack, 'invoice $5');
    expect(answer.text).toContain('a problem on its side');
    expect(stack.simulator.requestCount('createInvoice')).toBe(1);
  });

  it('a response in an unexpected shape is not shown half-read', async () => {
    stack.simulator.injectFault('getDeposit', { malformedJson: true });
    const answer = await ask(stack, `deposit ${stack.simulator.ids.deposits.frozen}`);
    expect(answer.text).toContain('sent an answer the bot could not read');
  });
});

describe('a slow payment API', () => {
  it('the slash command is acknowledged at once while the API takes seconds; the answer follows', async () => {
    const stack = await startLocalStack();
    try {
      stack.simulator.injectFault('listAssets', { delayMs: 4_000 });
      const sentAt = Date.now();
      const result = await stack.driver.command('balances');
      expect(result.status).toBe(200);
      expect(result.elapsedMs).toBeLessThan(1_000);
      expect(result.responses()).toHaveLength(0);
      const [reply] = await result.waitForResponses(1, 10_000);
      expect(JSON.stringify(reply?.blocks)).toContain('Balances');
      expect(reply!.at - sentAt).toBeGreaterThanOrEqual(3_900);
      expect(stack.simulator.requestCount('listAssets')).toBe(1);
    } finally {
      await stack.close();
    }
  }, 15_000);
});

describe('keys the API refuses', () => {
  it('401: says the API key was rejected', async () => {
    const stack = await startLocalStack({ env: { PAYMENTS_API_KEY: 'not-a-valid-key' } });
    try {
      const answer = await ask(stack, 'balances');
      expect(answer.text).toContain("The payment service rejected the bot's API key");
      expect(answer.text).not.toContain('not-a-valid-key');
    } finally {
      await stack.close();
    }
  });

  it('403: names the permission the key lacks', async () => {
    const limited = await startLocalStack({ env: (simulator) => ({ PAYMENTS_API_KEY: simulator.keys.noPermissions }) });
    try {
      const withdrawal = await ask(limited, `withdrawal ${limited.simulator.ids.withdrawals.all[0]}`);
      expect(withdrawal.text).toContain('lacks the permission `withdrawal`');
      const tasks = await ask(limited, 'payouts');
      expect(tasks.text).toContain('lacks the permission `can_payout`');
      const gas = await ask(limited, 'gas');
      expect(gas.text).toContain('lacks the permission `can_invoice`');
    } finally {
      await limited.close();
    }
  });
});

describe('who may talk to the bot', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({ env: { TREASURY_USERS: 'U0TREASURY' } });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.simulator.resetRequests());

  it('someone outside TREASURY_USERS gets a polite refusal and nothing is called', async () => {
    const result = await stack.driver.command('balances', { userId: 'U0OUTSIDER' });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('limited to the treasury team'),
    });
    // The refusal is the ack itself: nothing may follow it.
    await expectStaysAt({ posts: 0, apiRequests: 0 }, () => ({
      posts: result.responses().length,
      apiRequests: stack.simulator.requestCount(),
    }));
  });

  it('a member gets the answer', async () => {
    const answer = await ask(stack, 'balances', { userId: 'U0TREASURY' });
    expect(answer.text).toContain('Balances');
  });

  it("an outsider clicking a member's button is refused and nothing is called", async () => {
    const answer = await ask(stack, 'withdrawals', { userId: 'U0TREASURY' });
    stack.simulator.resetRequests();
    const result = await stack.driver.clickButtonIn(
      { ts: '1.1', blocks: answer.reply.blocks ?? [] },
      'withdrawals_page_next',
      { userId: 'U0OUTSIDER' },
    );
    const [reply] = await result.waitForResponses(1);
    expect(reply?.text).toContain('limited to the treasury team');
    expect(reply?.replaceOriginal).toBe(false);
    // The click was acked before the refusal; nothing may follow the refusal either.
    await expectStaysAt({ posts: 1, apiRequests: 0 }, () => ({
      posts: result.responses().length,
      apiRequests: stack.simulator.requestCount(),
    }));
  });
});

describe('requests not signed by Slack', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.simulator.resetRequests());

  it('a forged signature is refused with 401 and no API call', async () => {
    const result = await stack.driver.command('balances', { signature: `v0=${'ab'.repeat(32)}` });
    expect(result.status).toBe(401);
    await expectStaysAt({ posts: 0, apiRequests: 0 }, () => ({
      posts: result.responses().length,
      apiRequests: stack.simulator.requestCount(),
    }));
  });

  it('a stale timestamp (replay) is refused with 401 and no API call', async () => {
    const result = await stack.driver.command('balances', { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(result.status).toBe(401);
    await expectStaysAt({ posts: 0, apiRequests: 0 }, () => ({
      posts: result.responses().length,
      apiRequests: stack.simulator.requestCount(),
    }));
  });

  it('a forged button click is refused with 401', async () => {
    const result = await stack.driver.clickButton({ actionId: 'withdrawals_page', value: '2', signature: 'v0=00' });
    expect(result.status).toBe(401);
    await expectStaysAt({ posts: 0, apiRequests: 0 }, () => ({
      posts: result.responses().length,
      apiRequests: stack.simulator.requestCount(),
    }));
  });

  it('GET /healthz (liveness) and GET /readyz (readiness) answer for Kubernetes and load balancers', async () => {
    const response = await fetch(`${stack.botUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const ready = await fetch(`${stack.botUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { store: 'ok', slack: 'ok', config: 'ok' } });
  });
});
