// The real payments client against the real simulator over HTTP: every one of the 15 operations returns the
// one normalized shape (network title/type, fee.network always an array, Dates for timestamps, nulls where the
// API sends none), open-ended statuses pass through and unknown fields are dropped.

import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../dev/simulator/index.js';
import { silentLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { rawString, sqlUtcToMs, useSimulator } from './helpers.js';

const shared = useSimulator();

const SECOND = 1000;
const floorToSecond = (ms: number): number => Math.floor(ms / SECOND) * SECOND;
const recordCreatedAt = (kind: 'task' | 'deposit' | 'swap' | 'withdrawal' | 'asset', id: string): number =>
  (shared.sim.getRecord(kind, id) as { createdAt: number }).createdAt;
const lastRequestOf = (operation: string) =>
  [...shared.sim.requests].reverse().find((entry) => entry.operation === operation);

describe('invoices', () => {
  it('getInvoice: the network title comes from the wire field `name`, and there is no `name` left', async () => {
    const id = shared.sim.ids.invoices.withAsset;
    const raw = shared.sim.getRaw('invoice', id);
    expect(raw).toBeDefined();
    const invoice = await shared.client.getInvoice(id);
    expect(invoice.id).toBe(id);
    expect(invoice.network).toEqual({
      id: shared.sim.ids.networks.ethereum,
      title: 'Ethereum',
      symbol: 'ETH',
      chainId: '1',
      networkType: 'evm',
    });
    expect(invoice.network).not.toHaveProperty('name');
    expect((raw!.network as { name?: string }).name).toBe('Ethereum');
    expect(invoice.crypto?.symbol).toBe('USDT');
    expect(invoice.status).toBe('pending');
    expect(invoice.fee.network).toEqual([]);
    expect(invoice.extraData).toBe('{"orderId":"A-1042"}');
  });

  it('getInvoice: `expiredAt` (SQL format) is a Date at the exact instant the simulator sent', async () => {
    const id = shared.sim.ids.invoices.usdOnly;
    const raw = shared.sim.getRaw('invoice', id);
    const invoice = await shared.client.getInvoice(id);
    expect(invoice.expiredAt).toBeInstanceOf(Date);
    expect(invoice.expiredAt.getTime()).toBe(sqlUtcToMs(rawString(raw, 'expiredAt')));
    expect(invoice.crypto).toBeNull();
    expect(invoice.network).toBeNull();
    expect(invoice.cryptoAmount).toBeNull();
    expect(invoice.address).toBeNull();
    expect(invoice.fee).toEqual({ network: [], service: null, exchange: null, totalInUsd: null });
  });

  it('createInvoice: sends the cents as a JSON integer and returns a pending invoice without a currency', async () => {
    const before = shared.sim.now();
    const invoice = await shared.client.createInvoice({
      usdAmountInCents: 2_500n,
      productTitle: 'Test plan',
      paymentDelayTime: 600,
    });
    expect(invoice.usdAmount).toBe('25.00');
    expect(invoice.status).toBe('pending');
    expect(invoice.productTitle).toBe('Test plan');
    expect(invoice.crypto).toBeNull();
    expect(invoice.network).toBeNull();
    expect(invoice.fee.network).toEqual([]);
    expect(invoice.expiredAt.getTime()).toBeGreaterThanOrEqual(floorToSecond(before + 600 * SECOND));
    expect(invoice.expiredAt.getTime()).toBeLessThanOrEqual(shared.sim.now() + 600 * SECOND);
    expect(lastRequestOf('createInvoice')?.body).toEqual({
      usdAmountInCents: 2500,
      productTitle: 'Test plan',
      paymentDelayTime: 600,
    });
    // It is readable afterwards, in the same shape.
    await expect(shared.client.getInvoice(invoice.id)).resolves.toEqual(invoice);
  });

  it('createInvoiceByCrypto: sends the amount as a base-unit string and returns the chosen currency, network and address', async () => {
    const invoice = await shared.client.createInvoiceByCrypto({
      cryptoAmount: 5n * 10n ** 16n,
      assetId: shared.sim.ids.assets.eth,
      productTitle: 'Half a tenth',
    });
    expect(invoice.cryptoAmount).toBe('50000000000000000');
    expect(invoice.crypto?.symbol).toBe('ETH');
    expect(invoice.crypto?.contractAddress).toBeNull();
    expect(invoice.network?.title).toBe('Ethereum');
    expect(invoice.network?.networkType).toBe('evm');
    expect(invoice.address).toMatch(/^0x[0-9a-f]+$/i);
    expect(invoice.fee.network).toEqual([]);
    expect(invoice.fee.service?.currency).toBe('ETH');
    expect(lastRequestOf('createInvoiceByCrypto')?.body).toEqual({
      cryptoAmount: '50000000000000000',
      assetId: shared.sim.ids.assets.eth,
      productTitle: 'Half a tenth',
    });
  });
});

describe('merchant assets', () => {
  it('getAsset: `networkType` comes from the wire field `chainType`, and `balanceForWithdrawal` is set', async () => {
    const id = shared.sim.ids.assets.usdtEth;
    const raw = shared.sim.getRaw('asset', id);
    expect(raw).toBeDefined();
    const asset = await shared.client.getAsset(id);
    expect(asset.network).toEqual({
      id: shared.sim.ids.networks.ethereum,
      title: 'Ethereum',
      symbol: 'ETH',
      chainId: '1',
      networkType: 'evm',
    });
    expect(asset.network).not.toHaveProperty('chainType');
    expect((raw!.network as { chainType?: string }).chainType).toBe('evm');
    expect(asset.balanceForWithdrawal).toBe(rawString(raw, 'balanceForWithdrawal'));
    // Merchant A's USDT has 1250 locked: withdrawable is less than the balance.
    expect(BigInt(asset.balanceForWithdrawal!)).toBeLessThan(BigInt(asset.balance));
    expect(asset.createdAt).toBeInstanceOf(Date);
    expect(asset.createdAt.getTime()).toBe(sqlUtcToMs(rawString(raw, 'createdAt')));
    expect(asset.createdAt.getTime()).toBe(floorToSecond(recordCreatedAt('asset', id)));
  });

  it('reads an off-spec decimal balance as token units and warns once in the log', async () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => warnings.push(message) };
    const client = createPaymentsClient({ baseUrl: shared.sim.url, apiKey: shared.sim.apiKey, logger });
    const raw = shared.sim.getRaw('asset', shared.sim.ids.assets.usdtEth)!;
    const offSpec = { ...raw, balance: '5234.56789', balanceForWithdrawal: '5000' };
    shared.sim.injectFault('getAsset', { status: 200, body: offSpec }, 2);
    const asset = await client.getAsset(shared.sim.ids.assets.usdtEth);
    expect(asset).toMatchObject({
      balance: '5234567890',
      balanceForWithdrawal: '5000000000',
      balanceUnits: 'token_units',
    });
    await client.getAsset(shared.sim.ids.assets.usdtEth);
    expect(warnings).toEqual([
      'payment API sent an asset balance with a decimal point; reading it as token units, not base units',
    ]);
  });

  it('listAssets: every asset of the merchant, `balanceForWithdrawal` null, `networkType` from `chainType`', async () => {
    const assets = await shared.client.listAssets();
    expect(assets.map((asset) => asset.id).sort()).toEqual(Object.values(shared.sim.ids.assets).sort());
    for (const asset of assets) {
      expect(asset.balanceForWithdrawal).toBeNull();
      expect(asset.network.networkType).toBe('evm');
      expect(asset.network.chainId).toMatch(/^\d+$/);
      expect(asset.createdAt).toBeInstanceOf(Date);
    }
  });
});

describe('withdrawals', () => {
  it('getWithdrawal: fee.network is an empty array, `createdAt` (SQL format) is the exact instant stored', async () => {
    const id = shared.sim.ids.withdrawals.all[0]!;
    const raw = shared.sim.getRaw('withdrawal', id);
    expect(raw).toBeDefined();
    const withdrawal = await shared.client.getWithdrawal(id);
    expect(withdrawal.id).toBe(id);
    expect((raw!.fee as { network: unknown }).network).toBeNull();
    expect(withdrawal.fee.network).toEqual([]);
    expect(withdrawal.fee.service).not.toBeNull();
    expect(withdrawal.payer).toBe('sender');
    expect(withdrawal.network.title).toBe((raw!.network as { title: string }).title);
    expect(withdrawal.createdAt).toBeInstanceOf(Date);
    expect(withdrawal.createdAt.getTime()).toBe(sqlUtcToMs(rawString(raw, 'createdAt')));
    expect(withdrawal.createdAt.getTime()).toBe(floorToSecond(recordCreatedAt('withdrawal', id)));
  });

  it('getWithdrawal: a pending one has `txHash` null, a successful one a hash', async () => {
    const pending = await shared.client.getWithdrawal(shared.sim.ids.withdrawals.pending[0]!);
    expect(pending.status).toBe('pending');
    expect(pending.txHash).toBeNull();
    const success = await shared.client.getWithdrawal(shared.sim.ids.withdrawals.success[0]!);
    expect(success.status).toBe('success');
    expect(success.txHash).toMatch(/^0x/);
  });

  it('getWithdrawal: the result carries only the normalized fields (nothing the wire adds)', async () => {
    const withdrawal = await shared.client.getWithdrawal(shared.sim.ids.withdrawals.all[1]!);
    expect(Object.keys(withdrawal).sort()).toEqual(
      [
        'address',
        'amount',
        'amountInUsd',
        'asset',
        'createdAt',
        'crypto',
        'fee',
        'id',
        'isPrivate',
        'network',
        'payer',
        'status',
        'txHash',
      ].sort(),
    );
    expect(Object.keys(withdrawal.fee).sort()).toEqual(['exchange', 'network', 'service', 'totalInUsd']);
  });

  it('listWithdrawals: one page, newest first, with totals', async () => {
    const page = await shared.client.listWithdrawals({ page: 2, perPage: 5 });
    expect(page.page).toBe(2);
    expect(page.perPage).toBe(5);
    expect(page.totalCount).toBe(shared.sim.ids.withdrawals.all.length);
    expect(page.items.map((w) => w.id)).toEqual(shared.sim.ids.withdrawals.all.slice(5, 10));
    for (const withdrawal of page.items) expect(withdrawal.fee.network).toEqual([]);
  });
});

describe('swaps', () => {
  it('estimateSwap → createSwap → getSwap: create has `fee: null`, get has a fee with an array of network legs', async () => {
    const estimate = await shared.client.estimateSwap({
      assetIdFrom: shared.sim.ids.assets.usdtEth,
      assetIdTo: shared.sim.ids.assets.usdcEth,
      amount: 100_000_000n,
    });
    expect(estimate.routeType).toBe('dex');
    expect(estimate.serviceId).toBe('dex_uniswap_v3');
    expect(estimate.estimatedAmount).toMatch(/^\d+$/);
    expect(lastRequestOf('estimateSwap')?.body).toEqual({
      assetIdFrom: shared.sim.ids.assets.usdtEth,
      assetIdTo: shared.sim.ids.assets.usdcEth,
      amount: '100000000',
    });

    const before = shared.sim.now();
    const created = await shared.client.createSwap(estimate.id);
    expect(created.status).toBe('new');
    expect(created.fee).toBeNull();
    expect(created.amountFrom).toBe('100000000');
    expect(created.amountTo).toBeNull();
    expect(created.hashFrom).toBeNull();
    expect(created.hashTo).toBeNull();
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.createdAt.getTime()).toBeGreaterThanOrEqual(floorToSecond(before));
    expect(created.createdAt.getTime()).toBeLessThanOrEqual(shared.sim.now());

    const read = await shared.client.getSwap(created.id);
    expect(read.id).toBe(created.id);
    expect(read.fee).not.toBeNull();
    expect(Array.isArray(read.fee?.network)).toBe(true);
    expect(read.fee?.network.length).toBe(1);
    expect(read.fee?.service?.currency).toBe('USDT');
    expect(read.createdAt.getTime()).toBe(created.createdAt.getTime());
  });

  it('getSwap: a cross-network swap keeps both network fee legs; `createdAt` (RFC 3339) is the exact instant', async () => {
    const id = shared.sim.ids.swaps.rejected;
    const raw = shared.sim.getRaw('swap', id);
    expect(raw).toBeDefined();
    const swap = await shared.client.getSwap(id);
    expect(swap.status).toBe('rejected');
    expect(swap.fee?.network).toHaveLength(2);
    expect(swap.fee?.network).toEqual((raw!.fee as { network: unknown[] }).network);
    expect(swap.createdAt.getTime()).toBe(Date.parse(rawString(raw, 'createdAt')));
  });

  it('getSwap: a finished swap has its received amount and both hashes', async () => {
    const swap = await shared.client.getSwap(shared.sim.ids.swaps.finished[0]!);
    expect(swap.status).toBe('finished');
    expect(swap.amountTo).toMatch(/^\d+$/);
    expect(swap.hashFrom).toMatch(/^0x/);
    expect(swap.hashTo).toMatch(/^0x/);
    expect(swap.fee?.totalInUsd).toMatch(/^\d+\.\d{2}$/);
  });
});

describe('mass payouts', () => {
  it('createPayout: returns the new container id and the fields worth showing, as sent', async () => {
    const payout = await shared.client.createPayout({
      assetId: shared.sim.ids.assets.usdtEth,
      name: 'December salaries',
    });
    expect(payout.payoutId).toMatch(/^[0-9a-f-]{36}$/);
    expect(payout.fields).toEqual(
      expect.arrayContaining([
        ['Asset id', shared.sim.ids.assets.usdtEth],
        ['Name', 'December salaries'],
      ]),
    );
    expect(lastRequestOf('createPayout')?.body).toEqual({
      assetId: shared.sim.ids.assets.usdtEth,
      name: 'December salaries',
    });
  });

  it('getPayoutTask: fee.network (one leg object on the wire) becomes a one-element array', async () => {
    const id = shared.sim.ids.tasks.all[0]!;
    const raw = shared.sim.getRaw('task', id);
    expect(raw).toBeDefined();
    const task = await shared.client.getPayoutTask(id);
    const wireLeg = (raw!.fee as { network: unknown }).network;
    expect(Array.isArray(wireLeg)).toBe(false);
    expect(task.fee.network).toEqual([wireLeg]);
    expect(task.fee.network[0]).toMatchObject({ amountInUsd: null, isChargedToMerchant: false });
    expect(task.network.networkType).toBe('evm');
  });

  it('getPayoutTask / getDeposit: `createdAt` in each RFC 3339 spelling (+00:00, Z, fraction) is the exact instant stored', async () => {
    const spellings = new Map<string, string>();
    const candidates = [
      ...shared.sim.ids.tasks.all.slice(0, 12).map((id) => ['task', id] as const),
      ...shared.sim.ids.deposits.success.map((id) => ['deposit', id] as const),
    ];
    for (const [kind, id] of candidates) {
      const raw = rawString(shared.sim.getRaw(kind, id), 'createdAt');
      const stored = recordCreatedAt(kind, id);
      const parsed =
        kind === 'task'
          ? (await shared.client.getPayoutTask(id)).createdAt
          : (await shared.client.getDeposit(id)).createdAt;
      expect(parsed).toBeInstanceOf(Date);
      expect(parsed.getTime()).toBe(Date.parse(raw));
      const spelling = /\.\d+\+00:00$/.test(raw) ? 'fraction' : raw.endsWith('Z') ? 'zulu' : 'offset';
      // Whole-second spellings show the stored instant floored to the second; the fraction spelling keeps the ms.
      expect(parsed.getTime()).toBe(spelling === 'fraction' ? stored : floorToSecond(stored));
      spellings.set(spelling, raw);
    }
    expect([...spellings.keys()].sort()).toEqual(['fraction', 'offset', 'zulu']);
  });

  it('listPayoutTasks: one page of 50, newest first, each task with one network fee leg', async () => {
    const page = await shared.client.listPayoutTasks();
    expect(page.items).toHaveLength(50);
    expect(page.items.map((task) => task.id)).toEqual(shared.sim.ids.tasks.all.slice(0, 50));
    expect(page.cursorPrevious).toBeNull();
    expect(page.cursorNext).toEqual(expect.any(String));
    for (const task of page.items) {
      expect(task.fee.network).toHaveLength(1);
      expect(task.createdAt).toBeInstanceOf(Date);
    }
  });

  it('getPayoutTask: a status and subStatus the spec does not list pass through unchanged', async () => {
    const id = shared.sim.ids.tasks.all[3]!;
    shared.sim.updatePayoutTask(id, { status: 'on_hold' as string as TaskStatus, subStatus: 'brand_new_state' });
    const task = await shared.client.getPayoutTask(id);
    expect(task.status).toBe('on_hold');
    expect(task.subStatus).toBe('brand_new_state');
  });
});

describe('deposits', () => {
  it('getDeposit: fee.network is an empty array and the USD fields are set', async () => {
    const deposit = await shared.client.getDeposit(shared.sim.ids.deposits.success[0]!);
    expect(deposit.status).toBe('success');
    expect(deposit.fee.network).toEqual([]);
    expect(deposit.fee.totalInUsd).toMatch(/^\d+\.\d{2}$/);
    expect(deposit.fee.service?.amountInUsd).toBe(deposit.fee.totalInUsd);
    expect(deposit.network.networkType).toBe('evm');
  });

  it('getDeposit: a deposit older than USD pricing has `totalInUsd` and `service.amountInUsd` null, the amount kept', async () => {
    const deposit = await shared.client.getDeposit(shared.sim.ids.deposits.legacyNoUsd);
    expect(deposit.fee.totalInUsd).toBeNull();
    expect(deposit.fee.service?.amountInUsd).toBeNull();
    expect(deposit.fee.service?.amount).toMatch(/^\d+$/);
    expect(deposit.fee.network).toEqual([]);
  });

  it.each(['frozen', 'refunded'] as const)('getDeposit: a %s deposit shows that status', async (status) => {
    const deposit = await shared.client.getDeposit(shared.sim.ids.deposits[status]);
    expect(deposit.status).toBe(status);
  });
});

describe('gas manager', () => {
  it('listGasDistributions: the network has `chainId` and `networkType` null, fee.network is empty, times are Dates', async () => {
    const page = await shared.client.listGasDistributions();
    expect(page.items).toHaveLength(50);
    for (const row of page.items) {
      expect(row.network.chainId).toBeNull();
      expect(row.network.networkType).toBeNull();
      expect(row.network.title).toEqual(expect.any(String));
      expect(row.fee.network).toEqual([]);
      expect(row.status).not.toBe('cancelled');
      expect(row.createdAt).toBeInstanceOf(Date);
      expect(row.updatedAt).toBeInstanceOf(Date);
      expect(row.pipeline.createdAt).toBeInstanceOf(Date);
    }
    const first = page.items[0]!;
    const raw = shared.sim.getRaw('gas', first.id);
    expect(first.createdAt.getTime()).toBe(Date.parse(rawString(raw, 'createdAt')));
    expect(first.updatedAt.getTime()).toBe(Date.parse(rawString(raw, 'updatedAt')));
  });

  it('listGasDistributions: cancelled rows have null topUp, charged and fee.service', async () => {
    const page = await shared.client.listGasDistributions({ status: 'cancelled' });
    expect(page.items.length).toBeGreaterThan(0);
    for (const row of page.items) {
      expect(row.status).toBe('cancelled');
      expect(row.topUp).toBeNull();
      expect(row.charged).toBeNull();
      expect(row.fee.service).toBeNull();
      expect(row.fee.network).toEqual([]);
    }
  });

  it('listGasDistributions: an unknown subStatus passes through unchanged', async () => {
    const id = shared.sim.ids.gas.success[0]!;
    shared.sim.updateGasDistribution(id, { subStatus: 'brand_new_gas_state' });
    const page = await shared.client.listGasDistributions({ status: 'success' });
    expect(page.items[0]?.id).toBe(id);
    expect(page.items[0]?.subStatus).toBe('brand_new_gas_state');
    expect(lastRequestOf('listGasDistributions')?.query).toEqual({ status: 'success' });
  });
});

describe('tolerance of the wire', () => {
  it('a 200 body with unknown extra fields (top level and nested) gives the same result, extras dropped', async () => {
    const id = shared.sim.ids.withdrawals.all[2]!;
    const normal = await shared.client.getWithdrawal(id);
    const raw = shared.sim.getRaw('withdrawal', id)!;
    shared.sim.injectFault('getWithdrawal', {
      status: 200,
      body: {
        ...raw,
        brandNewField: 'surprise',
        network: { ...(raw.network as object), isTestnet: false },
        fee: { ...(raw.fee as object), rebate: null },
        crypto: { ...(raw.crypto as object), coingeckoId: 'tether' },
      },
    });
    const withExtras = await shared.client.getWithdrawal(id);
    expect(withExtras).toEqual(normal);
    expect(withExtras).not.toHaveProperty('brandNewField');
    expect(withExtras.network).not.toHaveProperty('isTestnet');
    expect(withExtras.crypto).not.toHaveProperty('coingeckoId');
  });

  it('chainId sent as a number is normalized to a string', async () => {
    const id = shared.sim.ids.deposits.success[1]!;
    const raw = shared.sim.getRaw('deposit', id)!;
    shared.sim.injectFault('getDeposit', {
      status: 200,
      body: { ...raw, network: { ...(raw.network as object), chainId: 1 } },
    });
    const deposit = await shared.client.getDeposit(id);
    expect(deposit.network.chainId).toBe('1');
  });
});
