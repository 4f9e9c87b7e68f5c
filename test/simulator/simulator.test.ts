// The payment API simulator over real HTTP (plain fetch): envelopes, scoping, wire quirks, swaps, pagination,
// rate limiting and fault injection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: wire JSON of many shapes; each test drills into it and asserts its shape.
  json: any;
}

type CallOptions = { key?: string | null; body?: unknown; rawBody?: string };

/** Calls the simulator; `key: null` sends no apiKey header. */
async function call(
  sim: PaymentsSimulator,
  method: 'GET' | 'POST',
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? sim.apiKey : options.key;
  if (key !== null) headers.apiKey = key;
  let body: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = options.rawBody ?? JSON.stringify(options.body);
  }
  const response = await fetch(`${sim.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const get = (sim: PaymentsSimulator, path: string, key?: string | null): Promise<Reply> =>
  call(sim, 'GET', path, { key });
const post = (sim: PaymentsSimulator, path: string, body: unknown, key?: string | null): Promise<Reply> =>
  call(sim, 'POST', path, { body, key });

const SQL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?(Z|\+00:00)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let sim: PaymentsSimulator;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('authentication, permissions and error envelopes', () => {
  it('answers 401 without a key or with an unknown key', async () => {
    for (const key of [null, 'not-a-key']) {
      const reply = await get(sim, '/1.0/merchant/assets', key);
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual({ success: false, message: 'Unauthorized', statusCode: 401 });
    }
  });

  it('answers 403 on withdrawal reads, tasks, deposits and gas for a key without permissions', async () => {
    const paths = [
      `/1.0/merchant/asset-withdrawal-info?id=${sim.ids.withdrawals.all[0]}`,
      '/1.0/merchant/asset-withdrawals',
      '/2.0/mass-payout/tasks',
      `/2.0/mass-payout/task?id=${sim.ids.tasks.all[0]}`,
      `/2.0/deposit/get?id=${sim.ids.deposits.frozen}`,
      '/2.0/gas-manager/list',
    ];
    for (const path of paths) {
      const reply = await get(sim, path, sim.keys.noPermissions);
      expect(reply.status, path).toBe(403);
      expect(reply.json).toEqual({ success: false, message: 'Forbidden', statusCode: 403 });
    }
    expect((await get(sim, '/1.0/merchant/assets', sim.keys.noPermissions)).status).toBe(200);
  });

  it('checks 401, then 403, then 400, then 404', async () => {
    expect((await get(sim, '/2.0/deposit/get?id=nope', null)).status).toBe(401);
    expect((await get(sim, '/2.0/deposit/get?id=nope', sim.keys.noPermissions)).status).toBe(403);
    expect((await get(sim, '/2.0/deposit/get?id=nope')).status).toBe(400);
    expect((await get(sim, `/2.0/deposit/get?id=${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('answers the validation envelope for missing and non-UUID ids', async () => {
    for (const path of [
      '/1.0/merchant/asset-withdrawal-info',
      '/2.0/swap/get?id=123',
      '/2.0/mass-payout/task?id=abc',
    ]) {
      const reply = await get(sim, path);
      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        success: false,
        message: 'Validation failed',
        statusCode: 400,
        errors: [{ field: 'id', messages: ['id must be a UUID'] }],
      });
    }
  });

  it('answers 404 with an empty body for unknown and foreign withdrawals, swaps, tasks and deposits', async () => {
    const { foreign } = sim.ids;
    const cases = [
      ['/1.0/merchant/asset-withdrawal-info', foreign.withdrawal],
      ['/2.0/swap/get', foreign.swap],
      ['/2.0/mass-payout/task', foreign.task],
      ['/2.0/deposit/get', foreign.deposit],
    ] as const;
    for (const [path, foreignId] of cases) {
      for (const id of [UNKNOWN_ID, foreignId]) {
        const reply = await get(sim, `${path}?id=${id}`);
        expect(reply.status, `${path} ${id}`).toBe(404);
        expect(reply.text).toBe('');
      }
    }
  });

  it('answers 400 `Invoice not found` / `Asset not found` for unknown and foreign invoices and assets', async () => {
    for (const id of [UNKNOWN_ID, sim.ids.foreign.invoice]) {
      const reply = await get(sim, `/1.0/merchant/invoice-info?id=${id}`);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ success: false, message: 'Invoice not found', statusCode: 400 });
    }
    for (const id of [UNKNOWN_ID, sim.ids.foreign.assetUsdt]) {
      const reply = await get(sim, `/1.0/merchant/asset?id=${id}`);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ success: false, message: 'Asset not found' });
    }
  });

  it('answers unknown routes with 404 JSON', async () => {
    const reply = await get(sim, '/2.0/nothing-here');
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ success: false, message: 'Not found' });
  });

  it('scopes every read to the merchant of the key', async () => {
    const other = sim.keys.otherMerchant;
    expect((await get(sim, `/1.0/merchant/asset-withdrawal-info?id=${sim.ids.foreign.withdrawal}`, other)).status).toBe(
      200,
    );
    expect((await get(sim, `/1.0/merchant/asset-withdrawal-info?id=${sim.ids.withdrawals.all[0]}`, other)).status).toBe(
      404,
    );
    const assets = await get(sim, '/1.0/merchant/assets', other);
    expect(assets.json.assets.map((asset: { id: string }) => asset.id).sort()).toEqual(
      [sim.ids.foreign.assetUsdt, sim.ids.foreign.assetEth].sort(),
    );
    const list = await get(sim, '/1.0/merchant/asset-withdrawals', other);
    expect(list.json.totalCount).toBe(1);
    const gas = await get(sim, '/2.0/gas-manager/list?status=failed', other);
    expect(gas.json.data.map((row: { id: string }) => row.id)).toEqual([sim.ids.foreign.gas]);
    const tasks = await get(sim, `/2.0/mass-payout/tasks?merchantId=${sim.ids.merchants.main}`, other);
    expect(tasks.json.data.map((task: { id: string }) => task.id)).toEqual([sim.ids.foreign.task]);
  });
});

describe('wire quirks', () => {
  it('names the invoice network title `name` and uses YYYY-MM-DD HH:MM:SS', async () => {
    const reply = await get(sim, `/1.0/merchant/invoice-info?id=${sim.ids.invoices.withAsset}`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.json.network)).toEqual(['id', 'name', 'symbol', 'chainId', 'networkType']);
    expect(reply.json.network).toMatchObject({ name: 'Ethereum', networkType: 'evm' });
    expect(reply.json.expiredAt).toMatch(SQL_TIME);
    expect(reply.json.fee.network).toBeNull();
    const usdOnly = await get(sim, `/1.0/merchant/invoice-info?id=${sim.ids.invoices.usdOnly}`);
    expect(usdOnly.json).toMatchObject({
      usdAmount: '49.99',
      crypto: null,
      network: null,
      address: null,
      cryptoAmount: null,
    });
  });

  it('uses chainType in asset networks and balanceForWithdrawal only in the single-asset response', async () => {
    const single = await get(sim, `/1.0/merchant/asset?id=${sim.ids.assets.usdtEth}`);
    expect(single.json.network).toEqual({
      id: sim.ids.networks.ethereum,
      title: 'Ethereum',
      symbol: 'ETH',
      chainId: '1',
      chainType: 'evm',
    });
    // Asset balances follow the conventions table: base-unit integer strings (USDT on Ethereum has 6 decimals).
    expect(single.json).toMatchObject({
      balance: '152340250000',
      balanceForWithdrawal: '151090250000',
      balanceInUsd: '152340.25',
    });
    expect(single.json.createdAt).toMatch(SQL_TIME);
    const list = await get(sim, '/1.0/merchant/assets');
    expect(list.json.assets).toHaveLength(7);
    for (const asset of list.json.assets) {
      expect(asset).not.toHaveProperty('balanceForWithdrawal');
      expect(asset.network).toHaveProperty('chainType', 'evm');
      expect(asset.network).not.toHaveProperty('networkType');
    }
    const usdtBsc = list.json.assets.find((asset: { id: string }) => asset.id === sim.ids.assets.usdtBsc);
    expect(usdtBsc.crypto).toMatchObject({ symbol: 'USDT', decimals: 18 });
  });

  it('renders withdrawals with title/networkType, base-unit asset balance and a null fee.network', async () => {
    const reply = await get(sim, `/1.0/merchant/asset-withdrawal-info?id=${sim.ids.withdrawals.failed[0]}`);
    expect(reply.json).toMatchObject({
      status: 'failed',
      txHash: null,
      payer: 'sender',
      fee: { network: null, exchange: null },
    });
    expect(reply.json.network).toHaveProperty('networkType', 'evm');
    expect(reply.json.asset.balance).toMatch(/^\d+$/);
    expect(reply.json.createdAt).toMatch(SQL_TIME);
    const success = await get(sim, `/1.0/merchant/asset-withdrawal-info?id=${sim.ids.withdrawals.success[0]}`);
    expect(success.json.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('renders task fee.network as ONE leg object with null amountInUsd, and RFC 3339 times', async () => {
    const reply = await get(sim, `/2.0/mass-payout/task?id=${sim.ids.tasks.success[0]}`);
    expect(Array.isArray(reply.json.fee.network)).toBe(false);
    expect(reply.json.fee.network).toMatchObject({ currency: 'ETH', amountInUsd: null, isChargedToMerchant: false });
    expect(reply.json.fee.totalInUsd).toBe(reply.json.fee.service.amountInUsd);
    expect(reply.json.createdAt).toMatch(RFC3339);
  });

  it('renders swap fee.network as an array on get', async () => {
    const reply = await get(sim, `/2.0/swap/get?id=${sim.ids.swaps.finished[0]}`);
    expect(Array.isArray(reply.json.fee.network)).toBe(true);
    expect(reply.json.fee.network[0]).toHaveProperty('isChargedToMerchant', true);
    expect(reply.json.createdAt).toMatch(RFC3339);
    const rejected = await get(sim, `/2.0/swap/get?id=${sim.ids.swaps.rejected}`);
    expect(rejected.json).toMatchObject({ status: 'rejected', amountTo: null, hashFrom: null, hashTo: null });
  });

  it('keeps USD fields null on the legacy deposit', async () => {
    const reply = await get(sim, `/2.0/deposit/get?id=${sim.ids.deposits.legacyNoUsd}`);
    expect(reply.json.fee).toMatchObject({ network: null, totalInUsd: null, service: { amountInUsd: null } });
    expect(reply.json.fee.service.amount).toMatch(/^\d+$/);
    const frozen = await get(sim, `/2.0/deposit/get?id=${sim.ids.deposits.frozen}`);
    expect(frozen.json.status).toBe('frozen');
    expect(frozen.json.fee.totalInUsd).toMatch(/^\d+\.\d{2}$/);
  });

  it('mixes the three RFC 3339 spellings across tasks', async () => {
    const reply = await get(sim, '/2.0/mass-payout/tasks');
    const stamps: string[] = reply.json.data.map((task: { createdAt: string }) => task.createdAt);
    for (const stamp of stamps) expect(stamp).toMatch(RFC3339);
    expect(stamps.some((stamp) => stamp.endsWith('Z'))).toBe(true);
    expect(stamps.some((stamp) => /:\d{2}\+00:00$/.test(stamp))).toBe(true);
    expect(stamps.some((stamp) => /\.\d{6}\+00:00$/.test(stamp))).toBe(true);
  });

  it('shapes gas rows: 3-field network, cancelled rows with nulls, charged = top-up + service', async () => {
    const reply = await get(sim, '/2.0/gas-manager/list');
    for (const row of reply.json.data) {
      expect(Object.keys(row.network)).toEqual(['id', 'title', 'symbol']);
      expect(row.status).not.toBe('cancelled');
      expect(row.fee.network).toBeNull();
      expect(row.fee.totalInUsd).toBe(row.fee.service.amountInUsd);
      const cents = (usd: string): number => Math.round(Number(usd) * 100);
      expect(cents(row.charged.amountInUsd)).toBe(cents(row.topUp.amountInUsd) + cents(row.fee.service.amountInUsd));
      expect(Object.keys(row.pipeline)).toEqual(['id', 'status', 'totalAmountInUsd', 'createdAt']);
      expect(row.createdAt).toMatch(RFC3339);
      expect(row.updatedAt).toMatch(RFC3339);
    }
    const cancelled = await get(sim, '/2.0/gas-manager/list?status=cancelled');
    expect(cancelled.json.data.length).toBe(sim.ids.gas.cancelled.length);
    for (const row of cancelled.json.data) {
      expect(row).toMatchObject({
        status: 'cancelled',
        topUp: null,
        charged: null,
        fee: { service: null, totalInUsd: null },
      });
      expect(['enough_balance', 'undefined_balance']).toContain(row.subStatus);
    }
  });
});

describe('invoices', () => {
  it('creates a USD invoice, with and without an asset', async () => {
    const plain = await post(sim, '/2.0/merchant/create-invoice', { usdAmountInCents: 4999, productTitle: 'Plan' });
    expect(plain.status).toBe(200);
    expect(plain.json).toMatchObject({
      usdAmount: '49.99',
      status: 'pending',
      crypto: null,
      network: null,
      address: null,
    });
    expect(plain.json.id).toMatch(UUID);
    expect(plain.json.paymentPageLink).toBe(`https://pay.example.test/invoice/${plain.json.id}`);
    const withAsset = await post(sim, '/2.0/merchant/create-invoice', {
      usdAmountInCents: 30_000,
      assetId: sim.ids.assets.eth,
    });
    expect(withAsset.json.crypto.symbol).toBe('ETH');
    expect(withAsset.json.network.name).toBe('Ethereum');
    expect(withAsset.json.address).toMatch(/^0x[0-9a-f]{40}$/);
    // 300.00 USD at 3012.45 USD/ETH = 0.0995867151322013646... ETH, rounded up to the wei.
    expect(withAsset.json.cryptoAmount).toBe('99586715132201365');
    expect((await get(sim, `/1.0/merchant/invoice-info?id=${withAsset.json.id}`)).json).toEqual(withAsset.json);
  });

  it('creates a crypto invoice and computes the USD amount', async () => {
    const reply = await post(sim, '/2.0/merchant/create-invoice-by-crypto', {
      cryptoAmount: '2500000000000000000000',
      assetId: sim.ids.assets.usdtBsc,
      paymentDelayTime: 600,
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ usdAmount: '2500.00', cryptoAmount: '2500000000000000000000' });
    expect(reply.json.crypto).toMatchObject({ symbol: 'USDT', decimals: 18 });
  });

  it('rejects bad bodies and foreign assets', async () => {
    const bad = [
      ['/2.0/merchant/create-invoice', { usdAmountInCents: 0 }, 'usdAmountInCents'],
      ['/2.0/merchant/create-invoice', { usdAmountInCents: 10.5 }, 'usdAmountInCents'],
      ['/2.0/merchant/create-invoice', { usdAmountInCents: '100' }, 'usdAmountInCents'],
      ['/2.0/merchant/create-invoice', { usdAmountInCents: 100, paymentDelayTime: 86_401 }, 'paymentDelayTime'],
      ['/2.0/merchant/create-invoice', { usdAmountInCents: 100, paymentDelayTime: -1 }, 'paymentDelayTime'],
      ['/2.0/merchant/create-invoice-by-crypto', { cryptoAmount: '1.5', assetId: sim.ids.assets.eth }, 'cryptoAmount'],
      ['/2.0/merchant/create-invoice-by-crypto', { cryptoAmount: '100' }, 'assetId'],
    ] as const;
    for (const [path, body, field] of bad) {
      const reply = await post(sim, path, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json.message).toBe('Validation failed');
      expect(reply.json.errors.map((error: { field: string }) => error.field)).toContain(field);
    }
    const foreign = await post(sim, '/2.0/merchant/create-invoice-by-crypto', {
      cryptoAmount: '100',
      assetId: sim.ids.foreign.assetUsdt,
    });
    expect(foreign.json).toMatchObject({ success: false, message: 'Asset not found', statusCode: 400 });
    const malformed = await call(sim, 'POST', '/2.0/merchant/create-invoice', { rawBody: '{"usdAmountInCents":' });
    expect(malformed.status).toBe(400);
  });

  it('sets expiredAt from paymentDelayTime on the simulator clock', async () => {
    const fixed = await startSimulator({ now: () => Date.UTC(2026, 10, 20, 10, 15, 30) });
    try {
      const reply = await post(fixed, '/2.0/merchant/create-invoice', {
        usdAmountInCents: 100,
        paymentDelayTime: 86_400,
      });
      expect(reply.json.expiredAt).toBe('2026-11-21 10:15:30');
      const byDefault = await post(fixed, '/2.0/merchant/create-invoice', { usdAmountInCents: 100 });
      expect(byDefault.json.expiredAt).toBe('2026-11-20 11:15:30');
    } finally {
      await fixed.close();
    }
  });
});

describe('swap estimates', () => {
  const estimate = (from: string, to: string, amount: string, key?: string): Promise<Reply> =>
    post(sim, '/2.0/swap/estimate', { assetIdFrom: from, assetIdTo: to, amount }, key);

  it('answers each business error with its exact message', async () => {
    const a = sim.ids.assets;
    const cases: Array<[string, string, string, string]> = [
      [sim.ids.foreign.assetUsdt, a.usdcEth, '100000000', 'Asset from not found'],
      [a.usdtEth, UNKNOWN_ID, '100000000', 'Asset to not found'],
      [a.daiEth, a.usdtEth, '100000000000000000000', 'Unsupported source currency'],
      [a.usdtEth, a.daiEth, '100000000', 'Unsupported target currency'],
      [a.usdtEth, a.eth, '100000000', 'Native currency not supported as target'],
      [a.usdcPolygon, a.usdtEth, '100000000', 'Unsupported source network'],
      [a.usdtEth, a.usdcPolygon, '100000000', 'Unsupported target network'],
      [a.usdtEth, a.usdcEth, '9999999', 'Min swap amount is 10 USDT'],
      [a.eth, a.usdtEth, '3999999999999999', 'Min swap amount is 0.004 ETH'],
      [a.usdtBsc, a.usdcEth, '9999999999999999999', 'Min swap amount is 10 USDT'],
      [a.bnb, a.usdcEth, '1000000000000000000', 'No route found'],
      [a.usdtEth, a.usdcEth, '300000000000', 'No route found'],
      [a.usdtEth, a.usdtEth, '100000000', 'No route found'],
    ];
    for (const [from, to, amount, message] of cases) {
      const reply = await estimate(from, to, amount);
      expect(reply.status, message).toBe(400);
      expect(reply.json).toMatchObject({ success: false, message });
    }
  });

  it('validates the body with the envelope', async () => {
    const reply = await estimate('x', sim.ids.assets.usdcEth, '1.5');
    expect(reply.status).toBe(400);
    expect(reply.json.errors.map((error: { field: string }) => error.field)).toEqual(['assetIdFrom', 'amount']);
  });

  it('quotes from USD prices minus the spread, dex on one network and cex across networks', async () => {
    const dex = await estimate(sim.ids.assets.usdtEth, sim.ids.assets.usdcEth, '100000000');
    expect(dex.json).toMatchObject({ routeType: 'dex', serviceId: 'dex_uniswap_v3', estimatedAmount: '99700000' });
    expect(Object.keys(dex.json)).toEqual(['id', 'serviceId', 'routeType', 'estimatedAmount']);
    const cex = await estimate(sim.ids.assets.eth, sim.ids.assets.usdtBsc, '1000000000000000000');
    // 3012.45 USD minus 0.5 %, in 18-decimal USDT.
    expect(cex.json).toMatchObject({ routeType: 'cex', estimatedAmount: '2997387750000000000000' });
  });

  it('expires estimates after 30 minutes, uses them once, and hides other merchants estimates', async () => {
    const a = sim.ids.assets;
    const first = await estimate(a.usdtEth, a.usdcEth, '20000000');
    sim.advanceTime(30 * 60 * 1000 + 1);
    try {
      expect((await post(sim, '/2.0/swap/create', { estimateId: first.json.id })).json.message).toBe(
        'Estimate not found',
      );
    } finally {
      sim.advanceTime(-(30 * 60 * 1000 + 1));
    }
    const second = await estimate(a.usdtEth, a.usdcEth, '20000000');
    expect((await post(sim, '/2.0/swap/create', { estimateId: second.json.id })).status).toBe(200);
    expect((await post(sim, '/2.0/swap/create', { estimateId: second.json.id })).json.message).toBe(
      'Estimate not found',
    );
    const foreign = await estimate(
      sim.ids.foreign.assetEth,
      sim.ids.foreign.assetUsdt,
      '100000000000000000',
      sim.keys.otherMerchant,
    );
    expect(foreign.status).toBe(200);
    expect((await post(sim, '/2.0/swap/create', { estimateId: foreign.json.id })).json.message).toBe(
      'Estimate not found',
    );
  });
});

describe('swaps over time', () => {
  let clockSim: PaymentsSimulator;
  beforeAll(async () => {
    clockSim = await startSimulator({ now: () => Date.UTC(2026, 10, 20, 12, 0, 0) });
  });
  afterAll(async () => {
    await clockSim.close();
  });

  const balance = async (assetId: string): Promise<string> =>
    (await get(clockSim, `/1.0/merchant/asset?id=${assetId}`)).json.balance as string;

  it('debits on create, advances new → in_progress → finished and credits the target', async () => {
    const { usdtEth, usdcEth } = clockSim.ids.assets;
    const quote = await post(clockSim, '/2.0/swap/estimate', {
      assetIdFrom: usdtEth,
      assetIdTo: usdcEth,
      amount: '1000000000',
    });
    const created = await post(clockSim, '/2.0/swap/create', { estimateId: quote.json.id });
    expect(created.status).toBe(200);
    expect(created.json).not.toHaveProperty('fee');
    expect(created.json).toMatchObject({
      status: 'new',
      amountTo: null,
      hashFrom: null,
      hashTo: null,
      amountFrom: '1000000000',
    });
    expect(await balance(usdtEth)).toBe('151340250000');
    clockSim.advanceTime(2000);
    expect((await get(clockSim, `/2.0/swap/get?id=${created.json.id}`)).json.status).toBe('in_progress');
    clockSim.advanceTime(6000);
    const finished = await get(clockSim, `/2.0/swap/get?id=${created.json.id}`);
    expect(finished.json).toMatchObject({
      status: 'finished',
      amountTo: quote.json.estimatedAmount,
      amountToInUsd: '997.00',
    });
    expect(finished.json.hashFrom).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Array.isArray(finished.json.fee.network)).toBe(true);
    expect(await balance(usdcEth)).toBe('99762430000');
  });

  it('refunds a rejected swap and refuses a swap above the balance', async () => {
    const { usdtBsc, usdtEth } = clockSim.ids.assets;
    const amount = '1000000000000000000000'; // 1000 USDT on BSC (18 decimals)
    const quote = await post(clockSim, '/2.0/swap/estimate', { assetIdFrom: usdtBsc, assetIdTo: usdtEth, amount });
    clockSim.setAssetBalance(usdtBsc, '999000000000000000000');
    expect((await post(clockSim, '/2.0/swap/create', { estimateId: quote.json.id })).json).toEqual({
      success: false,
      message: 'Balance not enough',
      errors: [],
    });
    clockSim.setAssetBalance(usdtBsc, '5000000000000000000000');
    const created = await post(clockSim, '/2.0/swap/create', { estimateId: quote.json.id });
    expect(await balance(usdtBsc)).toBe('4000000000000000000000');
    clockSim.advanceSwap(created.json.id, 'rejected');
    clockSim.advanceTime(60_000);
    expect((await get(clockSim, `/2.0/swap/get?id=${created.json.id}`)).json).toMatchObject({
      status: 'rejected',
      amountTo: null,
    });
    expect(await balance(usdtBsc)).toBe('5000000000000000000000');
  });
});

describe('pagination', () => {
  it('pages withdrawals by number, newest first, with bounds', async () => {
    const third = await get(sim, '/1.0/merchant/asset-withdrawals?page=3');
    expect(third.json).toMatchObject({ totalCount: 45, page: 3, perPage: 20 });
    expect(third.json.data).toHaveLength(5);
    const all = await get(sim, '/1.0/merchant/asset-withdrawals?perPage=100');
    expect(all.json.data.map((w: { id: string }) => w.id)).toEqual(sim.ids.withdrawals.all);
    for (const query of ['page=0', 'perPage=101', 'page=abc', 'perPage=0']) {
      const reply = await get(sim, `/1.0/merchant/asset-withdrawals?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.json.message).toBe('Validation failed');
    }
  });

  it('walks task pages by cursor, and a saved cursor stays stable when tasks are added at the top', async () => {
    const first = await get(sim, '/2.0/mass-payout/tasks');
    expect(first.json.data).toHaveLength(50);
    expect(first.json.cursorPrevious).toBeNull();
    const second = await get(sim, `/2.0/mass-payout/tasks?cursor=${first.json.cursorNext}`);
    const third = await get(sim, `/2.0/mass-payout/tasks?cursor=${second.json.cursorNext}`);
    expect(third.json.cursorNext).toBeNull();
    const ids = [...first.json.data, ...second.json.data, ...third.json.data].map((task: { id: string }) => task.id);
    expect(ids).toEqual(sim.ids.tasks.all);
    const back = await get(sim, `/2.0/mass-payout/tasks?cursor=${second.json.cursorPrevious}`);
    expect(back.json.data).toEqual(first.json.data);

    const added = sim.addPayoutTask({ status: 'failed' });
    const again = await get(sim, `/2.0/mass-payout/tasks?cursor=${first.json.cursorNext}`);
    expect(again.json.data).toEqual(second.json.data);
    const top = await get(sim, '/2.0/mass-payout/tasks');
    expect(top.json.data[0].id).toBe(added.id);
  });

  it('filters tasks and rejects malformed filters', async () => {
    const failed = await get(sim, '/2.0/mass-payout/tasks?status=failed');
    expect(failed.json.data.length).toBeGreaterThan(0);
    expect(failed.json.data.every((task: { status: string }) => task.status === 'failed')).toBe(true);
    const payout = await get(sim, `/2.0/mass-payout/tasks?payoutId=${sim.ids.payouts.refunds}`);
    expect(payout.json.data).toHaveLength(15);
    const from = new Date(sim.now() - 2 * 24 * 3600 * 1000).toISOString().replace('Z', '+00:00');
    const recent = await get(sim, `/2.0/mass-payout/tasks?createdAtFrom=${encodeURIComponent(from)}`);
    expect(recent.json.data.length).toBeGreaterThanOrEqual(10);
    for (const query of [
      'status=done',
      'createdAtFrom=2026-11-20',
      'createdAtTo=yesterday',
      'assetId=x',
      'cursor=garbage!',
    ]) {
      const reply = await get(sim, `/2.0/mass-payout/tasks?${query}`);
      expect(reply.status, query).toBe(400);
    }
  });

  it('lists gas rows in a non-chronological order, excluding cancelled ones, with a donor failure on page 2', async () => {
    const first = await get(sim, '/2.0/gas-manager/list');
    expect(first.json.data).toHaveLength(50);
    const second = await get(sim, `/2.0/gas-manager/list?cursor=${first.json.cursorNext}`);
    expect(second.json.cursorNext).toBeNull();
    const rows = [...first.json.data, ...second.json.data];
    expect(rows.length).toBe(sim.ids.gas.all.length - sim.ids.gas.cancelled.length);
    const times = rows.map((row: { createdAt: string }) => Date.parse(row.createdAt));
    const sortedDesc = [...times].sort((x, y) => y - x);
    const sortedAsc = [...times].sort((x, y) => x - y);
    expect(times).not.toEqual(sortedDesc);
    expect(times).not.toEqual(sortedAsc);
    expect(second.json.data.map((row: { id: string }) => row.id)).toContain(sim.ids.gas.notEnoughDonorOnSecondPage);
    const pendingDonor = rows.find((row: { id: string }) => row.id === sim.ids.gas.notEnoughDonorPending);
    expect(pendingDonor).toMatchObject({ status: 'pending', subStatus: 'not_enough_donor_balance' });
    const bsc = await get(sim, `/2.0/gas-manager/list?networkId=${sim.ids.networks.bsc}`);
    expect(bsc.json.data.every((row: { network: { symbol: string } }) => row.network.symbol === 'BSC')).toBe(true);
    expect((await get(sim, '/2.0/gas-manager/list?status=sent')).status).toBe(400);
    expect((await get(sim, '/2.0/gas-manager/list?createdAtTo=2026-13-45T00:00:00Z')).status).toBe(400);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After above 50 requests per second', async () => {
    const limited = await startSimulator();
    try {
      const replies = await Promise.all(
        Array.from({ length: 60 }, () => get(limited, `/2.0/deposit/get?id=${limited.ids.deposits.frozen}`)),
      );
      const tooMany = replies.filter((reply) => reply.status === 429);
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(50);
      expect(tooMany).toHaveLength(10);
      expect(tooMany[0]?.headers.get('retry-after')).toBe('1');
      expect(tooMany[0]?.json).toEqual({ success: false, message: 'Too many requests', statusCode: 429 });
      // Other operations and other keys have their own budget.
      expect(
        (await get(limited, `/2.0/deposit/get?id=${limited.ids.foreign.deposit}`, limited.keys.otherMerchant)).status,
      ).toBe(200);
      expect((await get(limited, '/1.0/merchant/assets')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('fault injection and request log', () => {
  it('answers injected faults for the next N calls, then normally', async () => {
    sim.injectFault(
      'listAssets',
      { status: 503, body: { success: false, message: 'Maintenance' }, headers: { 'Retry-After': '2' } },
      2,
    );
    const one = await get(sim, '/1.0/merchant/assets');
    const two = await get(sim, '/1.0/merchant/assets');
    const three = await get(sim, '/1.0/merchant/assets');
    expect([one.status, two.status, three.status]).toEqual([503, 503, 200]);
    expect(one.headers.get('retry-after')).toBe('2');
    expect(one.json).toEqual({ success: false, message: 'Maintenance' });
    sim.injectFault('getAsset', { status: 500 });
    expect((await get(sim, `/1.0/merchant/asset?id=${sim.ids.assets.eth}`)).json).toEqual({
      success: false,
      message: 'Internal server error',
      statusCode: 500,
    });
  });

  it('serves malformed JSON, delays, and dropped sockets', async () => {
    sim.injectFault('getDeposit', { malformedJson: true });
    const malformed = await fetch(`${sim.url}/2.0/deposit/get?id=${sim.ids.deposits.frozen}`, {
      headers: { apiKey: sim.apiKey },
    });
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow();

    sim.injectFault('listAssets', { delayMs: 150 });
    const started = performance.now();
    const delayed = await get(sim, '/1.0/merchant/assets');
    expect(delayed.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    sim.injectFault('getInvoice', { destroySocket: true });
    await expect(
      fetch(`${sim.url}/1.0/merchant/invoice-info?id=${sim.ids.invoices.usdOnly}`, { headers: { apiKey: sim.apiKey } }),
    ).rejects.toThrow();
    sim.injectFault('getInvoice', { status: 502 });
    sim.clearFaults();
    expect((await get(sim, `/1.0/merchant/invoice-info?id=${sim.ids.invoices.usdOnly}`)).status).toBe(200);
  });

  it('logs requests with operation, query, body and status, never the key', async () => {
    sim.resetRequests();
    await post(sim, '/2.0/mass-payout/create-payout', { assetId: sim.ids.assets.usdtEth, name: 'December salaries' });
    await get(sim, `/2.0/swap/get?id=${UNKNOWN_ID}`);
    await get(sim, '/nope');
    expect(sim.requestCount()).toBe(3);
    expect(sim.requestCount('getSwap')).toBe(1);
    const [payout, swap, unknown] = sim.requests;
    expect(payout).toMatchObject({
      operation: 'createPayout',
      method: 'POST',
      status: 200,
      body: { name: 'December salaries' },
    });
    expect(swap).toMatchObject({ operation: 'getSwap', path: '/2.0/swap/get', query: { id: UNKNOWN_ID }, status: 404 });
    expect(unknown).toMatchObject({ operation: null, status: 404 });
    expect(JSON.stringify(sim.requests)).not.toContain(sim.apiKey);
  });
});

describe('mass payouts and test controls', () => {
  it('creates a payout container', async () => {
    const reply = await post(sim, '/2.0/mass-payout/create-payout', {
      assetId: sim.ids.assets.usdtBsc,
      name: 'Bonuses',
    });
    expect(reply.json).toMatchObject({ assetId: sim.ids.assets.usdtBsc, name: 'Bonuses', status: 'new' });
    expect(reply.json.createdAt).toMatch(RFC3339);
    expect((await post(sim, '/2.0/mass-payout/create-payout', { assetId: sim.ids.assets.usdtBsc })).status).toBe(400);
  });

  it('a new payout has no tasks yet; a task added to it is listed by its payoutId', async () => {
    const created = await post(sim, '/2.0/mass-payout/create-payout', {
      assetId: sim.ids.assets.usdtBsc,
      name: 'Fresh',
    });
    const payoutId = created.json.id as string;
    expect((await get(sim, `/2.0/mass-payout/tasks?payoutId=${payoutId}`)).json).toEqual({
      data: [],
      cursorPrevious: null,
      cursorNext: null,
    });
    const task = sim.addPayoutTask({ payoutId });
    const listed = (await get(sim, `/2.0/mass-payout/tasks?payoutId=${payoutId}`)).json;
    expect(listed.data.map((t: { id: string; payoutId: string }) => [t.id, t.payoutId])).toEqual([[task.id, payoutId]]);
  });

  it('answers create-payout as told (its response is not in the spec): full, empty, without an id, or not at all', async () => {
    const body = { assetId: sim.ids.assets.usdtBsc, name: 'Unknowns' };
    try {
      sim.answerCreatePayoutWith('empty');
      const empty = await post(sim, '/2.0/mass-payout/create-payout', body);
      expect([empty.status, empty.text, empty.headers.get('content-type')]).toEqual([200, '', null]);
      sim.answerCreatePayoutWith('no_id');
      const noId = await post(sim, '/2.0/mass-payout/create-payout', body);
      expect(noId.status).toBe(200);
      expect(noId.json).not.toHaveProperty('id');
      expect(noId.json).toMatchObject({ name: 'Unknowns', status: 'new' });
      sim.answerCreatePayoutWith('hang');
      sim.resetRequests();
      const held = fetch(`${sim.url}/2.0/mass-payout/create-payout`, {
        method: 'POST',
        headers: { apiKey: sim.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(300),
      });
      await expect(held).rejects.toThrow();
      // Logged on arrival with no status (nobody was answered), and the container made regardless.
      expect(sim.requests.map((r) => [r.operation, r.status])).toEqual([['createPayout', 0]]);
      expect(sim.payoutContainers().filter((p) => p.name === 'Unknowns')).toHaveLength(3);
    } finally {
      sim.answerCreatePayoutWith('full');
    }
    expect((await post(sim, '/2.0/mass-payout/create-payout', body)).json).toHaveProperty('id');
  });

  it('adds and updates records with defaults', async () => {
    const withdrawal = sim.addWithdrawal({ status: 'failed' });
    expect((await get(sim, `/1.0/merchant/asset-withdrawal-info?id=${withdrawal.id}`)).json).toMatchObject({
      status: 'failed',
      txHash: null,
    });
    sim.updateWithdrawal(withdrawal.id, { status: 'success' });
    expect(sim.getRaw('withdrawal', withdrawal.id)?.txHash).toMatch(/^0x/);
    const deposit = sim.addDeposit({ status: 'refunded' });
    expect((await get(sim, `/2.0/deposit/get?id=${deposit.id}`)).json.status).toBe('refunded');
    const gas = sim.addGasDistribution({ status: 'cancelled' });
    expect(sim.getRaw('gas', gas.id)).toMatchObject({ topUp: null, charged: null, subStatus: 'enough_balance' });
    sim.updateGasDistribution(gas.id, { subStatus: 'undefined_balance' });
    expect(sim.getRaw('gas', gas.id)?.subStatus).toBe('undefined_balance');
  });
});
