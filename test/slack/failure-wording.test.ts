// Payment API failures are told in plain words: what happened and what to do. Field paths, class names and
// status codes go to the log, never into the message a person reads.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/logger.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { ask } from '../support/slack.js';

const logged: Array<{ message: string; fields?: Record<string, unknown> }> = [];
const record = (message: string, fields?: Record<string, unknown>) =>
  void logged.push({ message, ...(fields ? { fields } : {}) });
const logger: Logger = { debug: () => {}, info: record, warn: record, error: record };

// What a reader must never see as the message: a field path, a class name, an HTTP status or an error code.
const TECHNICAL =
  /\(body\)|`\w+(\.\w+)+`|Payments\w*Error|ZodError|\bHTTP\b|\b[45]\d\d\b|unexpected_response|usdAmountInCents/;

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({ paymentsTimeoutMs: 300, logger });
});
afterAll(() => stack.close());
beforeEach(() => {
  stack.simulator.clearFaults();
  logged.length = 0;
});

describe('an answer the bot cannot read', () => {
  it.each([
    ['a truncated body', { malformedJson: true }],
    ['a body missing a field', { status: 200, body: { id: 'not enough' } }],
  ])('%s: says the answer was unreadable, usually temporary, try again; the log has the detail', async (_, fault) => {
    stack.simulator.injectFault('getDeposit', fault);
    const answer = await ask(stack, `deposit ${stack.simulator.ids.deposits.frozen}`);
    expect(answer.text).toContain('The payment service sent an answer the bot could not read');
    expect(answer.text).toContain('This is usually temporary: please try again in a minute.');
    expect(answer.text).not.toMatch(TECHNICAL);
    const line = logged.find((l) => l.message === 'command failed');
    expect(line?.fields?.error).toMatchObject({
      code: 'unexpected_response',
      operation: 'getDeposit',
      status: 200,
      field: expect.any(String),
    });
  });
});

describe('every failure of the payment API reads as plain words', () => {
  it.each([
    [
      '500',
      { status: 500 },
      'The payment service had a problem on its side. This is usually temporary: please try again in a minute.',
    ],
    ['503', { status: 503 }, 'The payment service had a problem on its side.'],
    [
      '429',
      { status: 429, headers: { 'Retry-After': '0' } },
      'rate-limiting us right now. Please try again in a minute.',
    ],
    ['a timeout', { delayMs: 1_000 }, 'did not answer in time. Please try again in a minute.'],
    ['401', { status: 401 }, "rejected the bot's API key"],
    ['403', { status: 403 }, 'lacks a permission needed for this'],
  ])('%s', async (_, fault, expected) => {
    stack.simulator.injectFault('listAssets', fault, 10);
    const answer = await ask(stack, 'balances');
    expect(answer.text).toContain(expected);
    expect(answer.text).not.toMatch(TECHNICAL);
  });

  it('a refused create names the refused value in plain words; the raw field name goes to the log', async () => {
    stack.simulator.injectFault('createInvoice', {
      status: 400,
      body: {
        success: false,
        message: 'Validation failed',
        statusCode: 400,
        errors: [{ field: 'usdAmountInCents', messages: ['must not be greater than 100000000'] }],
      },
    });
    const answer = await ask(stack, 'invoice $5');
    expect(answer.text).toContain('The payment service refused this: *Validation failed*');
    expect(answer.text).toContain('• Amount: must not be greater than 100000000');
    expect(answer.text).not.toMatch(TECHNICAL);
    const line = logged.find((l) => l.message === 'command failed');
    expect(line?.fields?.error).toMatchObject({
      fieldErrors: [{ field: 'usdAmountInCents', messages: ['must not be greater than 100000000'] }],
    });
  });

  it('a field the bot has no plain name for is left out rather than shown raw', async () => {
    stack.simulator.injectFault('createInvoice', {
      status: 400,
      body: {
        success: false,
        message: 'Validation failed',
        errors: [{ field: 'meta.internal_ref', messages: ['is invalid'] }],
      },
    });
    const answer = await ask(stack, 'invoice $5');
    expect(answer.text).toContain('• is invalid');
    expect(answer.text).not.toContain('meta.internal_ref');
  });
});
