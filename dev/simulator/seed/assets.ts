// Merchant A's and merchant B's assets, and the seed's ids as far as the catalog and assets fix them.
import { parseUnits } from '../money.js';
import { seedId } from '../random.js';
import type { AssetRecord } from '../types.js';
import type { SimState } from '../world.js';
import type { Catalog } from './catalog.js';
import { type AssetName, DAY, type SeedIds } from './ids.js';

/** Merchant A's assets, one per crypto but POL, with their balances. */
export function seedAssets(state: SimState, cryptos: Catalog['cryptos'], now: number): Record<AssetName, AssetRecord> {
  const asset = (
    name: AssetName,
    balance: string,
    fees: [string, string],
    createdDaysAgo: number,
    locked = '0',
  ): AssetRecord => {
    const crypto = cryptos[name];
    return state.addAsset({
      id: seedId(`asset:a:${name}`),
      merchantId: state.defaultMerchantId,
      cryptoId: crypto.id,
      wallet: `0x${seedId(`wallet:a:${name}`).replace(/-/g, '')}${seedId(`wallet2:a:${name}`).slice(0, 8)}`,
      feePercent: fees[0],
      feeUsd: fees[1],
      balance: parseUnits(balance, crypto.decimals).toString(),
      locked: parseUnits(locked, crypto.decimals).toString(),
      createdAt: now - createdDaysAgo * DAY - 3_600_000 * 7,
    });
  };
  return {
    eth: asset('eth', '12.5', ['0.5', '0.10'], 410),
    bnb: asset('bnb', '40.2', ['0.5', '0.10'], 380),
    usdtEth: asset('usdtEth', '152340.25', ['0.4', '0.25'], 410, '1250'),
    usdtBsc: asset('usdtBsc', '48210.5', ['0.4', '0.10'], 300),
    usdcEth: asset('usdcEth', '98765.43', ['0.5', '0.10'], 290),
    usdcPolygon: asset('usdcPolygon', '12000', ['1', '0'], 120),
    daiEth: asset('daiEth', '5000', ['0.5', '0.10'], 60),
  };
}

/** Merchant B's assets (the foreign dataset's). */
export function seedForeignAssets(
  state: SimState,
  cryptos: Catalog['cryptos'],
  now: number,
): { usdt: AssetRecord; eth: AssetRecord } {
  const merchantId = seedId('merchant:b');
  return {
    usdt: state.addAsset({
      id: seedId('asset:b:usdtEth'),
      merchantId,
      cryptoId: cryptos.usdtEth.id,
      balance: parseUnits('2500', 6).toString(),
      createdAt: now - 90 * DAY,
    }),
    eth: state.addAsset({
      id: seedId('asset:b:eth'),
      merchantId,
      cryptoId: cryptos.eth.id,
      balance: parseUnits('1.2', 18).toString(),
      createdAt: now - 90 * DAY,
    }),
  };
}

/** The seed's ids as far as the catalog and assets fix them; the record lists fill in as records are seeded. */
export function emptyIds(
  catalog: Catalog,
  assets: Record<AssetName, AssetRecord>,
  foreign: { usdt: AssetRecord; eth: AssetRecord },
): SeedIds {
  const idsOf = <K extends string>(records: Record<K, { id: string }>): Record<K, string> =>
    Object.fromEntries(
      Object.entries(records).map(([name, record]) => [name, (record as { id: string }).id]),
    ) as Record<K, string>;
  return {
    merchants: catalog.merchants,
    networks: idsOf(catalog.networks),
    cryptos: idsOf(catalog.cryptos),
    assets: idsOf(assets),
    invoices: { usdOnly: '', withAsset: '', byCrypto: '', expired: '' },
    withdrawals: { all: [], pending: [], success: [], failed: [] },
    swaps: { finished: [], rejected: '', inProgress: '' },
    payouts: { octoberSalaries: '', affiliateRewards: '', supplierSettlements: '', refunds: '', novemberSalaries: '' },
    tasks: { all: [], pending: [], failed: [], success: [] },
    deposits: { success: [], frozen: '', refunded: '', legacyNoUsd: '' },
    gas: {
      all: [],
      success: [],
      pending: [],
      failed: [],
      cancelled: [],
      notEnoughDonorBalance: [],
      notEnoughDonorPending: '',
      notEnoughDonorOnSecondPage: '',
      pipelines: [],
    },
    foreign: {
      assetUsdt: foreign.usdt.id,
      assetEth: foreign.eth.id,
      withdrawal: '',
      swap: '',
      payout: '',
      task: '',
      deposit: '',
      invoice: '',
      gas: '',
    },
  };
}
