/**
 * Payloads shaped exactly like the tables of docs/payments-api.md, odd ones included, through the schemas that
 * normalize them.
 */
import { describe, expect, it } from 'vitest';
import {
  Asset,
  AssetList,
  AssetWithWithdrawable,
  Deposit,
  Fee,
  GasDistribution,
  GasDistributionPage,
  Invoice,
  PayoutTask,
  PayoutTaskPage,
  parseRfc3339Timestamp,
  parseSqlUtcTimestamp,
  Swap,
  SwapEstimate,
  Withdrawal,
  WithdrawalPage,
} from '../../src/payments/schemas.js';

const USDT = {
  id: '7f3c2a10-0000-4000-8000-000000000001',
  title: 'Tether USD',
  symbol: 'USDT',
  contractAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7',
  decimals: 6,
  logoURI: 'https://cdn.example.com/usdt.png',
};
const ETH = {
  ...USDT,
  id: '7f3c2a10-0000-4000-8000-000000000002',
  title: 'Ether',
  symbol: 'ETH',
  contractAddress: null,
  decimals: 18,
};
const NETWORK = {
  id: '5b1e0000-0000-4000-8000-000000000001',
  title: 'Ethereum',
  symbol: 'ETH',
  chainId: '1',
  networkType: 'evm',
};
const leg = (amount: string, amountInUsd: string | null, charged = true) => ({
  amount,
  amountFormatted: '1.5',
  currency: 'USDT',
  cryptoId: USDT.id,
  networkId: NETWORK.id,
  amountInUsd,
  isChargedToMerchant: charged,
});

describe('timestamps', () => {
  it('reads `YYYY-MM-DD HH:MM:SS` as UTC', () => {
    expect(parseSqlUtcTimestamp('2026-11-20 10:15:30')?.toISOString()).toBe('2026-11-20T10:15:30.000Z');
  });
  it.each([
    ['2026-11-20T10:15:30+00:00', '2026-11-20T10:15:30.000Z'],
    ['2026-11-20T10:15:30Z', '2026-11-20T10:15:30.000Z'],
    ['2026-11-20T10:15:30.123456+00:00', '2026-11-20T10:15:30.123Z'],
    ['2026-11-20T12:15:30+02:00', '2026-11-20T10:15:30.000Z'],
    ['2026-11-20T05:15:30.5-05:00', '2026-11-20T10:15:30.500Z'],
  ])('reads RFC 3339 %s as the instant %s', (text, iso) => {
    expect(parseRfc3339Timestamp(text)?.toISOString()).toBe(iso);
  });
  it.each(['2026-11-20', '2026-11-20T10:15:30', '2026-13-20 10:15:30', 'yesterday', '2026-11-20 10:15'])(
    'rejects %j',
    (text) => {
      expect(parseSqlUtcTimestamp(text) ?? parseRfc3339Timestamp(text)).toBeUndefined();
    },
  );
});

describe('fee.network', () => {
  const base = { service: leg('100', '0.10'), exchange: null, totalInUsd: '0.10' };
  it('null becomes an empty list', () => {
    expect(Fee.parse({ ...base, network: null }).network).toEqual([]);
  });
  it('a single leg becomes a list of one', () => {
    expect(Fee.parse({ ...base, network: leg('5', null, false) }).network).toEqual([leg('5', null, false)]);
  });
  it('an array stays an array', () => {
    expect(Fee.parse({ ...base, network: [leg('5', '0.01'), leg('6', '0.02')] }).network).toHaveLength(2);
  });
  it('null USD amounts (old deposits) are kept as null', () => {
    const fee = Fee.parse({ network: null, service: leg('100', null), exchange: null, totalInUsd: null });
    expect(fee.totalInUsd).toBeNull();
    expect(fee.service?.amountInUsd).toBeNull();
  });
});

const invoicePayload = {
  id: 'a0000000-0000-4000-8000-000000000001',
  usdAmount: '49.99',
  status: 'pending',
  paymentPageLink: 'https://pay.example.com/i/a0000000',
  productTitle: 'Pro plan',
  extraData: null,
  cryptoAmount: '49990000',
  crypto: USDT,
  network: { id: NETWORK.id, name: 'Ethereum', symbol: 'ETH', chainId: '1', networkType: 'evm' },
  fee: { network: null, service: null, exchange: null, totalInUsd: null },
  address: '0x1111111111111111111111111111111111111111',
  expiredAt: '2026-11-20 11:15:30',
};

describe('invoice', () => {
  it('reads the network `name` as the title', () => {
    const invoice = Invoice.parse(invoicePayload);
    expect(invoice.network).toEqual({
      id: NETWORK.id,
      title: 'Ethereum',
      symbol: 'ETH',
      chainId: '1',
      networkType: 'evm',
    });
    expect(invoice.expiredAt.toISOString()).toBe('2026-11-20T11:15:30.000Z');
  });
  it('accepts a USD invoice with no currency chosen yet', () => {
    const invoice = Invoice.parse({
      ...invoicePayload,
      cryptoAmount: null,
      crypto: null,
      network: null,
      address: null,
    });
    expect(invoice.crypto).toBeNull();
    expect(invoice.network).toBeNull();
  });
  it('tolerates unknown extra fields and an unlisted status', () => {
    const invoice = Invoice.parse({ ...invoicePayload, status: 'partially_paid', somethingNew: { a: 1 } });
    expect(invoice.status).toBe('partially_paid');
    expect(invoice).not.toHaveProperty('somethingNew');
  });
  it('rejects a network that uses `title` where invoices use `name`', () => {
    expect(Invoice.safeParse({ ...invoicePayload, network: NETWORK }).success).toBe(false);
  });
});

const assetPayload = {
  id: 'b0000000-0000-4000-8000-000000000001',
  wallet: '0x2222222222222222222222222222222222222222',
  feePercent: '0.5',
  feeUsd: '0.10',
  balance: '1520250000',
  balanceInUsd: '1520.25',
  crypto: USDT,
  network: { id: NETWORK.id, title: 'Ethereum', symbol: 'ETH', chainId: '1', chainType: 'evm' },
  createdAt: '2025-01-02 03:04:05',
};

describe('merchant asset', () => {
  it('reads `chainType` as the network type', () => {
    expect(Asset.parse(assetPayload).network.networkType).toBe('evm');
  });
  it('the list carries no balanceForWithdrawal', () => {
    const [asset] = AssetList.parse({ assets: [assetPayload] }).assets;
    expect(asset?.balanceForWithdrawal).toBeNull();
  });
  it('the single asset must carry balanceForWithdrawal', () => {
    expect(
      AssetWithWithdrawable.parse({ ...assetPayload, balanceForWithdrawal: '1500000000' }).balanceForWithdrawal,
    ).toBe('1500000000');
    expect(AssetWithWithdrawable.safeParse(assetPayload).success).toBe(false);
  });
  it('reads balances as base units, as the conventions table says', () => {
    const asset = AssetWithWithdrawable.parse({ ...assetPayload, balanceForWithdrawal: '1500000000' });
    expect(asset).toMatchObject({
      balance: '1520250000',
      balanceForWithdrawal: '1500000000',
      balanceInUsd: '1520.25',
      balanceUnits: 'base_units',
    });
    const eth = Asset.parse({ ...assetPayload, crypto: ETH, balance: '12345678901234567890' });
    expect(eth).toMatchObject({ balance: '12345678901234567890', balanceUnits: 'base_units' });
  });
  it('reads a balance with a decimal point as token units (tolerant reader) and says so', () => {
    const asset = AssetWithWithdrawable.parse({ ...assetPayload, balance: '1520.25', balanceForWithdrawal: '1500' });
    // One response speaks one unit: the integer next to a decimal is token units too.
    expect(asset).toMatchObject({
      balance: '1520250000',
      balanceForWithdrawal: '1500000000',
      balanceUnits: 'token_units',
    });
    // More digits than the token has are cut, never rounded up: the bot never shows more than there is.
    expect(Asset.parse({ ...assetPayload, balance: '0.1234569' }).balance).toBe('123456');
    expect(Asset.parse({ ...assetPayload, crypto: ETH, balance: '12.5' }).balance).toBe('12500000000000000000');
  });
  it('refuses a balance that is neither base units nor a decimal', () => {
    for (const balance of ['-1', '1e6', '1,000', '', '1.']) {
      expect(Asset.safeParse({ ...assetPayload, balance }).success, balance).toBe(false);
    }
  });
});

const withdrawalPayload = {
  id: 'c0000000-0000-4000-8000-000000000001',
  status: 'failed',
  address: '0x3333333333333333333333333333333333333333',
  amount: '250000000',
  amountInUsd: '250.00',
  payer: 'sender',
  isPrivate: false,
  asset: { id: assetPayload.id, balance: '1520250000', balanceInUsd: '1520.25', wallet: null },
  crypto: USDT,
  network: NETWORK,
  fee: { network: null, service: leg('1000000', '1.00'), exchange: null, totalInUsd: '1.00' },
  txHash: null,
  createdAt: '2026-11-19 08:00:00',
};

describe('withdrawal', () => {
  it('parses a failed withdrawal with no txHash', () => {
    const withdrawal = Withdrawal.parse(withdrawalPayload);
    expect(withdrawal.txHash).toBeNull();
    expect(withdrawal.createdAt.toISOString()).toBe('2026-11-19T08:00:00.000Z');
  });
  it('parses a page', () => {
    const page = WithdrawalPage.parse({ totalCount: 45, page: 2, perPage: 20, data: [withdrawalPayload] });
    expect(page.data).toHaveLength(1);
  });
  it('refuses an amount that is not base units', () => {
    const result = Withdrawal.safeParse({ ...withdrawalPayload, amount: '250.5' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['amount']);
  });
});

const swapPayload = {
  id: 'd0000000-0000-4000-8000-000000000001',
  amountFrom: '1000000000',
  amountFromInUsd: '1000.00',
  amountTo: null,
  amountToInUsd: null,
  assetIdFrom: assetPayload.id,
  assetIdTo: 'b0000000-0000-4000-8000-000000000002',
  cryptoIdFrom: USDT.id,
  cryptoIdTo: ETH.id,
  hashFrom: null,
  hashTo: null,
  status: 'new',
  createdAt: '2026-11-20T10:15:30.123456+00:00',
};

describe('swap', () => {
  it('parses the create response, which has no fee', () => {
    const swap = Swap.parse(swapPayload);
    expect(swap.fee).toBeNull();
    expect(swap.createdAt.toISOString()).toBe('2026-11-20T10:15:30.123Z');
  });
  it('parses the get response with an array of network fee legs', () => {
    const swap = Swap.parse({
      ...swapPayload,
      status: 'finished',
      amountTo: '330000000000000000',
      fee: { network: [leg('100', '0.3')], service: leg('200', '0.2'), exchange: null, totalInUsd: '0.5' },
    });
    expect(swap.fee?.network).toHaveLength(1);
  });
  it('parses an estimate', () => {
    expect(
      SwapEstimate.parse({
        id: 'e0000000-0000-4000-8000-000000000001',
        serviceId: 'svc-1',
        routeType: 'dex',
        estimatedAmount: '330000000000000000',
      }),
    ).toMatchObject({ routeType: 'dex' });
  });
});

const taskPayload = {
  id: 'f0000000-0000-4000-8000-000000000001',
  type: 'multi_tx',
  status: 'failed',
  subStatus: 'payout_sent',
  payoutId: 'f1000000-0000-4000-8000-000000000001',
  amount: '5000000',
  amountInUsd: '5.00',
  assetId: assetPayload.id,
  crypto: USDT,
  network: NETWORK,
  transferTxHash: '0xabc',
  payoutTxHash: '0xdef',
  targetsCount: 12,
  fee: { network: leg('21000', null, false), service: null, exchange: null, totalInUsd: '0.00' },
  createdAt: '2026-11-01T00:00:00+00:00',
};

describe('payout task', () => {
  it('takes the single gas leg as a list', () => {
    const task = PayoutTask.parse(taskPayload);
    expect(task.fee.network).toEqual([leg('21000', null, false)]);
    expect(task.subStatus).toBe('payout_sent');
  });
  it('passes an unlisted subStatus through', () => {
    expect(PayoutTask.parse({ ...taskPayload, subStatus: 'something_new' }).subStatus).toBe('something_new');
  });
  it('parses a page with a null cursor as the end', () => {
    const page = PayoutTaskPage.parse({ data: [taskPayload], cursorPrevious: null, cursorNext: null });
    expect(page.cursorNext).toBeNull();
  });
});

describe('deposit', () => {
  it('parses an old deposit with null USD fees', () => {
    const deposit = Deposit.parse({
      id: '10000000-0000-4000-8000-000000000001',
      status: 'success',
      amount: '1000000',
      assetId: assetPayload.id,
      crypto: USDT,
      network: NETWORK,
      txHash: '0x01',
      txFrom: '0x4444444444444444444444444444444444444444',
      fee: { network: null, service: { ...leg('5000', null) }, exchange: null, totalInUsd: null },
      createdAt: '2024-03-01T12:00:00Z',
    });
    expect(deposit.fee.totalInUsd).toBeNull();
    expect(deposit.fee.service?.amount).toBe('5000');
  });
});

const gasPayload = {
  id: '20000000-0000-4000-8000-000000000001',
  status: 'failed',
  subStatus: 'not_enough_donor_balance',
  network: { id: NETWORK.id, title: 'Ethereum', symbol: 'ETH' },
  targetAddress: '0x5555555555555555555555555555555555555555',
  txHash: '0x',
  topUp: leg('1000000000000000', '3.00', false),
  charged: leg('3100000', '3.10', true),
  fee: { network: null, service: leg('100000', '0.10'), exchange: null, totalInUsd: '0.10' },
  pipeline: {
    id: '21000000-0000-4000-8000-000000000001',
    status: 'finished',
    totalAmountInUsd: '9.30',
    createdAt: '2026-11-20T09:00:00+00:00',
  },
  createdAt: '2026-11-20T09:00:01+00:00',
  updatedAt: '2026-11-20T09:05:00+00:00',
};

describe('gas manager distribution', () => {
  it('accepts the network with only id, title and symbol', () => {
    const row = GasDistribution.parse(gasPayload);
    expect(row.network).toEqual({ id: NETWORK.id, title: 'Ethereum', symbol: 'ETH', chainId: null, networkType: null });
  });
  it('accepts a cancelled row with null topUp, charged and service fee', () => {
    const row = GasDistribution.parse({
      ...gasPayload,
      status: 'cancelled',
      subStatus: 'enough_balance',
      topUp: null,
      charged: null,
      fee: { network: null, service: null, exchange: null, totalInUsd: null },
    });
    expect(row.charged).toBeNull();
  });
  it('accepts a null subStatus and parses a page', () => {
    const page = GasDistributionPage.parse({
      data: [{ ...gasPayload, subStatus: null }],
      cursorPrevious: 'p',
      cursorNext: 'n',
    });
    expect(page.data[0]?.subStatus).toBeNull();
    expect(page.cursorNext).toBe('n');
  });
});
