// create-payout's answer is not shown in docs/payments-api.md: the client reads any 2xx as "created" (an id when the
// answer names one), never throws on one, and still tells the refusals (400, 403) and a lost answer (timeout) apart.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  PaymentsForbiddenError,
  PaymentsNetworkError,
  PaymentsServerError,
  PaymentsValidationError,
} from '../../src/payments/index.js';
import { clientFor, rejectionOf, useSimulator } from './helpers.js';

const shared = useSimulator();
const create = (name = 'November affiliates') =>
  shared.client.createPayout({ assetId: shared.sim.ids.assets.usdtBsc, name });

describe('createPayout reads any 2xx as created', () => {
  it('the full record: its id, and name, status, asset id and creation time to show', async () => {
    const created = await create();
    expect(created.payoutId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(created.fields.map(([label]) => label)).toEqual(['Name', 'Status', 'Asset id', 'Created']);
    expect(created.fields[0]).toEqual(['Name', 'November affiliates']);
  });

  it('the simulator answering an empty 200 body, or a record without its id: created, no id', async () => {
    try {
      shared.sim.answerCreatePayoutWith('empty');
      expect(await create()).toEqual({ fields: [] });
      shared.sim.answerCreatePayoutWith('no_id');
      const withoutId = await create();
      expect(withoutId.payoutId).toBeUndefined();
      expect(withoutId.fields).toContainEqual(['Name', 'November affiliates']);
      expect(shared.sim.requestCount('createPayout')).toBe(2);
    } finally {
      shared.sim.answerCreatePayoutWith('full');
    }
  });

  it.each([
    ['a body that is not JSON', 200, 'Created!', { fields: [] }],
    ['a JSON null', 200, 'null', { fields: [] }],
    ['a JSON list', 200, '[{"id":"x"}]', { fields: [] }],
    ['a JSON string', 201, '"ok"', { fields: [] }],
    ['an empty 204', 204, '', { fields: [] }],
    ['a numeric id (not a string)', 200, '{"id":42,"name":"N"}', { fields: [['Name', 'N']] }],
    ['an id with a line break', 200, '{"id":"a\\nb"}', { fields: [] }],
    [
      'the record inside `data`',
      201,
      '{"success":true,"data":{"id":"p-1","status":"new"}}',
      {
        payoutId: 'p-1',
        fields: [['Status', 'new']],
      },
    ],
    [
      'an id and a nested object (not shown)',
      200,
      '{"id":"p-2","asset":{"id":"a"},"status":7}',
      {
        payoutId: 'p-2',
        fields: [['Status', '7']],
      },
    ],
  ])('%s', async (_what, status, body, expected) => {
    shared.sim.injectFault('createPayout', { status, body });
    expect(await create()).toEqual(expected);
    expect(shared.sim.requestCount('createPayout')).toBe(1);
  });
});

describe('createPayout refusals and a lost answer', () => {
  it('400: the API message and field errors, as a validation error', async () => {
    const error = await rejectionOf(create('x'.repeat(256)), PaymentsValidationError);
    expect(error.fieldErrors).toEqual([
      { field: 'name', messages: ['name must be shorter than or equal to 255 characters'] },
    ]);
  });

  it('403: the key lacks can_payout', async () => {
    shared.sim.injectFault('createPayout', { status: 403 });
    const error = await rejectionOf(create(), PaymentsForbiddenError);
    expect(error.permission).toBe('can_payout');
  });

  it('a 503 is thrown after exactly one request (never retried)', async () => {
    shared.sim.injectFault('createPayout', { status: 503 });
    await rejectionOf(create(), PaymentsServerError);
    expect(shared.sim.requestCount('createPayout')).toBe(1);
  });

  it('no answer at all: a network error after the timeout, one request sent, the key nowhere in the error', async () => {
    const impatient = clientFor(shared.sim, { timeoutMs: 300 });
    shared.sim.answerCreatePayoutWith('hang');
    try {
      const error = await rejectionOf(
        impatient.createPayout({ assetId: shared.sim.ids.assets.usdtBsc, name: 'Held' }),
        PaymentsNetworkError,
      );
      expect(error.networkCode).toBe('ETIMEDOUT');
      expect(inspect(error, { depth: 5 }) + JSON.stringify(error)).not.toContain(shared.sim.apiKey);
    } finally {
      shared.sim.answerCreatePayoutWith('full');
    }
    // The service made the container even though nobody heard back: that is why the outcome is "unknown".
    expect(shared.sim.requestCount('createPayout')).toBe(1);
    expect(shared.sim.payoutContainers().some((payout) => payout.name === 'Held')).toBe(true);
  });
});
