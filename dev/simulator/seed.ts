// The seed dataset: a realistic treasury for merchant A (7 assets on 3 EVM networks, ~45 withdrawals, ~120 payout
// tasks, ~80 gas rows, deposits, invoices, swaps) and a small foreign dataset for merchant B. Everything is
// deterministic (fixed ids, amounts, hashes); times are relative to the simulator clock at start.
import { parseUnits } from './money.js';
import { selectGasRows } from './operations/gas.js';
import { compareTasksNewestFirst } from './operations/payouts.js';
import { quoteAmount } from './operations/swaps.js';
import { Random, seedId } from './random.js';
import type {
  ApiKeyRecord,
  AssetRecord,
  CryptoRecord,
  GasStatus,
  NetworkRecord,
  TaskStatus,
  WithdrawalStatus,
} from './types.js';
import type { SimState } from './world.js';

/** The API keys the simulator accepts. */
export const API_KEYS = {
  /** Merchant A with can_payout, can_invoice and withdrawal. */
  full: 'sim-full-7f3c9a1e5b2d4c6f8a0b',
  /** Merchant A without any permission. */
  noPermissions: 'sim-noperm-2b8e4d1a9c3f5e7d',
  /** Merchant B with every permission. */
  otherMerchant: 'sim-other-6d1f3b9e2a4c8e5f',
} as const;

/** Fixed ids of the seed dataset, grouped by kind. Lists are newest first unless noted. */
export interface SeedIds {
  merchants: { main: string; other: string };
  networks: { ethereum: string; bsc: string; polygon: string };
  cryptos: Record<CryptoName, string>;
  assets: Record<AssetName, string>;
  invoices: { usdOnly: string; withAsset: string; byCrypto: string; expired: string };
  withdrawals: { all: string[]; pending: string[]; success: string[]; failed: string[] };
  swaps: { finished: string[]; rejected: string; inProgress: string };
  payouts: {
    octoberSalaries: string;
    affiliateRewards: string;
    supplierSettlements: string;
    refunds: string;
    novemberSalaries: string;
  };
  tasks: { all: string[]; pending: string[]; failed: string[]; success: string[] };
  deposits: { success: string[]; frozen: string; refunded: string; legacyNoUsd: string };
  gas: {
    /** Every row of merchant A in list order (by id), cancelled ones included. */
    all: string[];
    success: string[];
    pending: string[];
    failed: string[];
    cancelled: string[];
    /** subStatus not_enough_donor_balance, any status. */
    notEnoughDonorBalance: string[];
    /** A not_enough_donor_balance row whose status is pending (not failed). */
    notEnoughDonorPending: string;
    /** A not_enough_donor_balance row that the default list shows on its SECOND page. */
    notEnoughDonorOnSecondPage: string;
    pipelines: string[];
  };
  /** Records of merchant B: to merchant A's keys they must look like unknown ids. */
  foreign: {
    assetUsdt: string;
    assetEth: string;
    withdrawal: string;
    swap: string;
    payout: string;
    task: string;
    deposit: string;
    invoice: string;
    gas: string;
  };
}

type CryptoName = 'eth' | 'bnb' | 'pol' | 'usdtEth' | 'usdtBsc' | 'usdcEth' | 'usdcPolygon' | 'daiEth';
type AssetName = Exclude<CryptoName, 'pol'>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Fills catalog, keys and swap rules, then (when `records`) every merchant record. Returns the fixed ids. */
export function seedState(state: SimState, options: { records: boolean }): SeedIds {
  const catalog = seedCatalog(state);
  const now = state.now();
  const rng = new Random(20261120);
  const assets = seedAssets(state, catalog.cryptos, now);
  const foreignAssets = seedForeignAssets(state, catalog.cryptos, now);
  const ids = emptyIds(catalog, assets, foreignAssets);
  if (!options.records) return ids;
  seedInvoices(state, ids, now);
  seedWithdrawals(state, ids, rng, now);
  seedSwaps(state, ids, now);
  seedPayoutsAndTasks(state, ids, rng, now);
  seedDeposits(state, ids, now);
  seedGas(state, ids, rng, now);
  seedForeign(state, ids, now);
  return ids;
}

// ---- catalog ------------------------------------------------------------------------------------------------

interface Catalog {
  merchants: { main: string; other: string };
  networks: Record<'ethereum' | 'bsc' | 'polygon', NetworkRecord>;
  cryptos: Record<CryptoName, CryptoRecord>;
}

function seedCatalog(state: SimState): Catalog {
  const merchants = { main: seedId('merchant:a'), other: seedId('merchant:b') };
  state.defaultMerchantId = merchants.main;
  const keys: ApiKeyRecord[] = [
    { key: API_KEYS.full, merchantId: merchants.main, permissions: ['can_payout', 'can_invoice', 'withdrawal'] },
    { key: API_KEYS.noPermissions, merchantId: merchants.main, permissions: [] },
    {
      key: API_KEYS.otherMerchant,
      merchantId: merchants.other,
      permissions: ['can_payout', 'can_invoice', 'withdrawal'],
    },
  ];
  for (const key of keys) state.apiKeys.set(key.key, key);

  const network = (
    name: string,
    title: string,
    symbol: string,
    chainId: string,
    native: string,
    swapEnabled: boolean,
  ): NetworkRecord => ({
    id: seedId(`network:${name}`),
    title,
    symbol,
    chainId,
    networkType: 'evm',
    nativeCryptoId: seedId(`crypto:${native}`),
    swapEnabled,
  });
  const networks = {
    ethereum: network('ethereum', 'Ethereum', 'ETH', '1', 'eth', true),
    bsc: network('bsc', 'BNB Smart Chain', 'BSC', '56', 'bnb', true),
    // Not enabled for swaps: estimates touching it fail with "Unsupported ... network".
    polygon: network('polygon', 'Polygon', 'POLYGON', '137', 'pol', false),
  };
  for (const record of Object.values(networks)) state.networks.set(record.id, record);

  const crypto = (
    name: CryptoName,
    net: NetworkRecord,
    fields: Pick<CryptoRecord, 'title' | 'symbol' | 'contractAddress' | 'decimals' | 'priceUsd' | 'minSwap'> & {
      swapEnabled?: boolean;
    },
  ): CryptoRecord => ({
    id: seedId(`crypto:${name}`),
    networkId: net.id,
    logoURI: `https://assets.example.test/crypto/${fields.symbol.toLowerCase()}.png`,
    swapEnabled: true,
    ...fields,
  });
  const { ethereum, bsc, polygon } = networks;
  const cryptos: Record<CryptoName, CryptoRecord> = {
    eth: crypto('eth', ethereum, {
      title: 'Ethereum',
      symbol: 'ETH',
      contractAddress: null,
      decimals: 18,
      priceUsd: '3012.45',
      minSwap: '0.004',
    }),
    bnb: crypto('bnb', bsc, {
      title: 'BNB',
      symbol: 'BNB',
      contractAddress: null,
      decimals: 18,
      priceUsd: '598.20',
      minSwap: '0.02',
    }),
    pol: crypto('pol', polygon, {
      title: 'POL',
      symbol: 'POL',
      contractAddress: null,
      decimals: 18,
      priceUsd: '0.52',
      minSwap: '20',
    }),
    usdtEth: crypto('usdtEth', ethereum, {
      title: 'Tether USD',
      symbol: 'USDT',
      contractAddress: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      decimals: 6,
      priceUsd: '1.00',
      minSwap: '10',
    }),
    // Same symbol on another network, and 18 decimals there: clients must not key on the symbol.
    usdtBsc: crypto('usdtBsc', bsc, {
      title: 'Tether USD',
      symbol: 'USDT',
      contractAddress: '0x55d398326f99059fF775485246999027B3197955',
      decimals: 18,
      priceUsd: '1.00',
      minSwap: '10',
    }),
    usdcEth: crypto('usdcEth', ethereum, {
      title: 'USD Coin',
      symbol: 'USDC',
      contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      decimals: 6,
      priceUsd: '1.00',
      minSwap: '10',
    }),
    usdcPolygon: crypto('usdcPolygon', polygon, {
      title: 'USD Coin',
      symbol: 'USDC',
      contractAddress: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
      decimals: 6,
      priceUsd: '1.00',
      minSwap: '10',
    }),
    // Not enabled for swaps: "Unsupported source/target currency".
    daiEth: crypto('daiEth', ethereum, {
      title: 'Dai Stablecoin',
      symbol: 'DAI',
      contractAddress: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
      decimals: 18,
      priceUsd: '1.00',
      minSwap: '10',
      swapEnabled: false,
    }),
  };
  for (const record of Object.values(cryptos)) state.cryptos.set(record.id, record);

  state.donorCryptoByNetwork.set(ethereum.id, cryptos.usdtEth.id);
  state.donorCryptoByNetwork.set(bsc.id, cryptos.usdtBsc.id);
  state.donorCryptoByNetwork.set(polygon.id, cryptos.usdcPolygon.id);
  state.swapConfig.dexServiceIds.set(ethereum.id, 'dex_uniswap_v3');
  state.swapConfig.dexServiceIds.set(bsc.id, 'dex_pancakeswap_v3');
  // A configured pair without any route: BNB (BSC) to USDC (Ethereum).
  state.swapConfig.noRoutePairs.add(`${cryptos.bnb.id}>${cryptos.usdcEth.id}`);
  return { merchants, networks, cryptos };
}

// ---- assets -------------------------------------------------------------------------------------------------

function seedAssets(state: SimState, cryptos: Catalog['cryptos'], now: number): Record<AssetName, AssetRecord> {
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

function seedForeignAssets(
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

function emptyIds(
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

/** Base units of a random token amount between min and max hundredths of a token (two decimals at most). */
function tokens(rng: Random, state: SimState, cryptoId: string, minHundredths: number, maxHundredths: number): string {
  const crypto = state.crypto(cryptoId);
  const hundredths = BigInt(rng.int(minHundredths, maxHundredths));
  return ((hundredths * 10n ** BigInt(crypto.decimals)) / 100n).toString();
}

// ---- records ------------------------------------------------------------------------------------------------

function seedInvoices(state: SimState, ids: SeedIds, now: number): void {
  const a = ids.assets;
  ids.invoices.usdOnly = state.addInvoice({
    id: seedId('invoice:usd-only'),
    usdCents: '4999',
    productTitle: 'Pro plan (monthly)',
    createdAt: now - 10 * MINUTE,
    expiredAt: now + 50 * MINUTE,
  }).id;
  ids.invoices.withAsset = state.addInvoice({
    id: seedId('invoice:with-asset'),
    usdCents: '12000',
    assetId: a.usdtEth,
    productTitle: 'Hardware wallet',
    extraData: '{"orderId":"A-1042"}',
    createdAt: now - 25 * MINUTE,
    expiredAt: now + 35 * MINUTE,
  }).id;
  ids.invoices.byCrypto = state.addInvoice({
    id: seedId('invoice:by-crypto'),
    usdCents: '15062',
    assetId: a.eth,
    cryptoAmount: parseUnits('0.05', 18).toString(),
    productTitle: 'Consulting hour',
    createdAt: now - 5 * MINUTE,
    expiredAt: now + 24 * HOUR - 5 * MINUTE,
  }).id;
  ids.invoices.expired = state.addInvoice({
    id: seedId('invoice:expired'),
    usdCents: '1500',
    assetId: a.usdcPolygon,
    productTitle: 'Sticker pack <limited> & more',
    createdAt: now - 3 * DAY,
    expiredAt: now - 3 * DAY + HOUR,
  }).id;
}

function seedWithdrawals(state: SimState, ids: SeedIds, rng: Random, now: number): void {
  const a = ids.assets;
  const rotation = [a.usdtEth, a.usdtEth, a.usdcEth, a.eth, a.usdtBsc, a.bnb, a.usdcPolygon, a.usdtEth, a.daiEth];
  const pending = new Set([0, 1, 2, 3, 9, 17]);
  const failed = new Set([5, 12, 20, 27, 33, 40, 44]);
  for (let index = 0; index < 45; index += 1) {
    const assetId = rotation[index % rotation.length] ?? a.usdtEth;
    const cryptoId = state.asset(assetId).cryptoId;
    const native = state.crypto(cryptoId).contractAddress === null;
    const status: WithdrawalStatus = pending.has(index) ? 'pending' : failed.has(index) ? 'failed' : 'success';
    const record = state.addWithdrawal({
      id: seedId(`withdrawal:${index}`),
      assetId,
      status,
      amount: native ? tokens(rng, state, cryptoId, 10, 300) : tokens(rng, state, cryptoId, 5_000, 2_000_000),
      isPrivate: index % 7 === 6,
      // Spread over the last 30 days, newest first by index.
      createdAt: now - Math.round(((index + 0.3) * 30 * DAY) / 46) - rng.int(0, 50) * MINUTE,
    });
    ids.withdrawals.all.push(record.id);
    ids.withdrawals[status].push(record.id);
  }
}

function seedSwaps(state: SimState, ids: SeedIds, now: number): void {
  const a = ids.assets;
  const swap = (
    label: string,
    from: string,
    to: string,
    amount: string,
    status: 'finished' | 'rejected' | 'in_progress',
    ago: number,
  ): string => {
    const fromAsset = state.asset(from);
    const amountFrom = parseUnits(amount, state.crypto(fromAsset.cryptoId).decimals);
    const estimatedAmount = quoteAmount(state, fromAsset, state.asset(to), amountFrom).toString();
    const finished = status === 'finished';
    const record = state.addSwap({
      id: seedId(`swap:${label}`),
      assetIdFrom: from,
      assetIdTo: to,
      amountFrom: amountFrom.toString(),
      estimatedAmount,
      status,
      amountTo: finished ? estimatedAmount : null,
      amountFromInUsd: finished ? state.usd(fromAsset.cryptoId, amountFrom) : null,
      amountToInUsd: finished ? state.usd(state.asset(to).cryptoId, estimatedAmount) : null,
      hashFrom: finished ? state.random.txHash() : null,
      hashTo: finished ? state.random.txHash() : null,
      createdAt: now - ago,
    });
    return record.id;
  };
  ids.swaps.finished.push(swap('usdt-to-usdc', a.usdtEth, a.usdcEth, '1000', 'finished', 3 * DAY));
  ids.swaps.finished.push(swap('eth-to-usdt', a.eth, a.usdtEth, '0.5', 'finished', 10 * DAY));
  ids.swaps.rejected = swap('usdt-bsc-to-eth', a.usdtBsc, a.usdtEth, '500', 'rejected', 5 * DAY);
  ids.swaps.inProgress = swap('bnb-to-usdt', a.bnb, a.usdtBsc, '2', 'in_progress', 20 * MINUTE);
}

function seedPayoutsAndTasks(state: SimState, ids: SeedIds, rng: Random, now: number): void {
  const a = ids.assets;
  const plans: Array<{
    key: keyof SeedIds['payouts'];
    name: string;
    assetId: string;
    ago: number;
    count: number;
    failedEvery: number;
    pendingShare: number;
  }> = [
    {
      key: 'octoberSalaries',
      name: 'October salaries',
      assetId: a.usdtEth,
      ago: 29 * DAY,
      count: 40,
      failedEvery: 13,
      pendingShare: 0,
    },
    {
      key: 'affiliateRewards',
      name: 'Affiliate rewards W46',
      assetId: a.usdtBsc,
      ago: 20 * DAY,
      count: 30,
      failedEvery: 9,
      pendingShare: 0,
    },
    {
      key: 'supplierSettlements',
      name: 'Supplier settlements',
      assetId: a.usdcEth,
      ago: 12 * DAY,
      count: 25,
      failedEvery: 11,
      pendingShare: 0.12,
    },
    {
      key: 'refunds',
      name: 'Refunds batch 17',
      assetId: a.usdcPolygon,
      ago: 5 * DAY,
      count: 15,
      failedEvery: 6,
      pendingShare: 0.2,
    },
    {
      key: 'novemberSalaries',
      name: 'November salaries',
      assetId: a.usdtEth,
      ago: 1 * DAY,
      count: 10,
      failedEvery: 4,
      pendingShare: 0.6,
    },
  ];
  const pendingSub = ['transfer_sent', 'waiting_for_gas', 'payout_pending'];
  const failedSub = ['payout_reverted', 'transfer_failed', 'insufficient_gas'];
  let taskIndex = 0;
  for (const plan of plans) {
    const payoutCreated = now - plan.ago;
    const payout = state.addPayout({
      id: seedId(`payout:${plan.key}`),
      assetId: plan.assetId,
      name: plan.name,
      status: 'finished',
      createdAt: payoutCreated - 10 * MINUTE,
    });
    ids.payouts[plan.key] = payout.id;
    const cryptoId = state.asset(plan.assetId).cryptoId;
    let at = payoutCreated;
    for (let k = 0; k < plan.count; k += 1) {
      const status: TaskStatus =
        (k + 1) % plan.failedEvery === 0 ? 'failed' : k >= plan.count * (1 - plan.pendingShare) ? 'pending' : 'success';
      const single = k % 5 === 4;
      const targetsCount = single ? 1 : rng.int(2, 40);
      // Two tasks share a timestamp now and then: the list must order ties by id.
      if (k % 17 !== 16) at += rng.int(20, 240) * 1000 + rng.int(0, 999);
      const task = state.addPayoutTask({
        id: seedId(`task:${taskIndex}`),
        payoutId: payout.id,
        assetId: plan.assetId,
        type: single ? 'single_tx' : 'multi_tx',
        status,
        subStatus: status === 'success' ? 'payout_sent' : rng.pick(status === 'pending' ? pendingSub : failedSub),
        amount: tokens(rng, state, cryptoId, 10_000, 2_500_000),
        targetsCount,
        gasAmount: state.gasWorth(state.crypto(cryptoId).networkId, rng.int(90, 210) * (2 + targetsCount)).toString(),
        createdAt: Math.min(at, now - 1000),
      });
      ids.tasks[status].push(task.id);
      taskIndex += 1;
    }
  }
  const newestFirst = [...state.tasks.values()]
    .filter((task) => task.merchantId === ids.merchants.main)
    .sort(compareTasksNewestFirst);
  ids.tasks.all = newestFirst.map((task) => task.id);
  for (const key of ['pending', 'failed', 'success'] as const) {
    ids.tasks[key].sort((x, y) => ids.tasks.all.indexOf(x) - ids.tasks.all.indexOf(y));
  }
}

function seedDeposits(state: SimState, ids: SeedIds, now: number): void {
  const a = ids.assets;
  const deposit = (
    label: string,
    assetId: string,
    amount: string,
    status: 'success' | 'frozen' | 'refunded',
    ago: number,
    legacyNoUsd = false,
  ): string =>
    state.addDeposit({
      id: seedId(`deposit:${label}`),
      assetId,
      status,
      amount: parseUnits(amount, state.crypto(state.asset(assetId).cryptoId).decimals).toString(),
      legacyNoUsd,
      createdAt: now - ago,
    }).id;
  ids.deposits.success.push(deposit('usdt-1500', a.usdtEth, '1500', 'success', 2 * DAY));
  ids.deposits.success.push(deposit('eth-0.75', a.eth, '0.75', 'success', 6 * DAY));
  ids.deposits.success.push(deposit('usdt-bsc-320', a.usdtBsc, '320.5', 'success', 9 * DAY));
  ids.deposits.frozen = deposit('usdc-frozen', a.usdcEth, '9800', 'frozen', 1 * DAY);
  ids.deposits.refunded = deposit('usdt-refunded', a.usdtEth, '45.9', 'refunded', 14 * DAY);
  // Created before USD pricing existed: USD fields null forever.
  ids.deposits.legacyNoUsd = deposit('legacy', a.usdtEth, '780', 'success', 400 * DAY, true);
}

interface GasPlan {
  status: GasStatus;
  subStatus: string | null;
}

function seedGas(state: SimState, ids: SeedIds, rng: Random, now: number): void {
  const { ethereum, bsc, polygon } = ids.networks;
  const networkCycle = [ethereum, bsc, ethereum, polygon, bsc];
  const success: GasPlan = { status: 'success', subStatus: 'sent' };
  // 72 older rows, shuffled: 9 cancelled, 4 failed for lack of donor balance, 2 failed otherwise, the rest sent.
  const older: GasPlan[] = [
    ...Array.from({ length: 6 }, (): GasPlan => ({ status: 'cancelled', subStatus: 'enough_balance' })),
    ...Array.from({ length: 3 }, (): GasPlan => ({ status: 'cancelled', subStatus: 'undefined_balance' })),
    ...Array.from({ length: 4 }, (): GasPlan => ({ status: 'failed', subStatus: 'not_enough_donor_balance' })),
    { status: 'failed', subStatus: 'tx_reverted' },
    { status: 'failed', subStatus: null },
  ];
  while (older.length < 72) older.push(success);
  for (let index = older.length - 1; index > 0; index -= 1) {
    const other = rng.int(0, index);
    [older[index], older[other]] = [older[other] ?? success, older[index] ?? success];
  }
  // The two newest pipelines hold the rows still in flight.
  const newest: GasPlan[] = [
    { status: 'pending', subStatus: 'sent' },
    { status: 'pending', subStatus: 'not_enough_donor_balance' },
    success,
    success,
    { status: 'pending', subStatus: null },
    { status: 'pending', subStatus: 'awaiting_confirmations' },
    { status: 'pending', subStatus: 'not_enough_donor_balance' },
    { status: 'cancelled', subStatus: 'enough_balance' },
  ];
  const plans = [...older, ...newest];
  for (let p = 0; p < plans.length / 4; p += 1) {
    const rows = plans.slice(p * 4, p * 4 + 4);
    const networkId = networkCycle[p % networkCycle.length] ?? ethereum;
    const createdAt = now - Math.round(((19 - p) * 29 * DAY) / 20) - rng.int(10, 90) * MINUTE;
    const pipelineStatus = rows.some((row) => row.status === 'pending')
      ? 'in_progress'
      : rows.some((row) => row.subStatus === 'not_enough_donor_balance')
        ? 'failed'
        : 'finished';
    const pipeline = state.addGasPipeline({ id: seedId(`gas-pipeline:${p}`), status: pipelineStatus, createdAt });
    ids.gas.pipelines.push(pipeline.id);
    rows.forEach((plan, k) => {
      const rowCreated = createdAt + (k + 1) * 3000 + rng.int(0, 999);
      const cancelled = plan.status === 'cancelled';
      const donor = state.crypto(state.donorCryptoByNetwork.get(networkId) ?? '');
      state.addGasDistribution({
        id: seedId(`gas:${p}:${k}`),
        pipelineId: pipeline.id,
        networkId,
        status: plan.status,
        subStatus: plan.subStatus,
        topUp: cancelled ? null : state.gasWorth(networkId, rng.int(180, 1400)).toString(),
        serviceFee: cancelled
          ? null
          : parseUnits(`0.${rng.int(5, 30).toString().padStart(2, '0')}`, donor.decimals).toString(),
        createdAt: rowCreated,
        updatedAt: Math.min(now, rowCreated + (plan.status === 'pending' ? rng.int(1, 20) : rng.int(20, 180)) * 1000),
      });
    });
  }
  ensureDonorRowOnSecondPage(state, ids);
  const mine = selectGasRows(state.gas.values(), ids.merchants.main, {});
  const cancelled = selectGasRows(state.gas.values(), ids.merchants.main, { status: 'cancelled' });
  ids.gas.all = [...mine, ...cancelled].sort((x, y) => (x.id < y.id ? -1 : 1)).map((row) => row.id);
  for (const row of [...mine, ...cancelled]) {
    ids.gas[row.status].push(row.id);
    if (row.subStatus === 'not_enough_donor_balance') ids.gas.notEnoughDonorBalance.push(row.id);
  }
  const byIdOrder = (x: string, y: string): number => (x < y ? -1 : 1);
  for (const key of ['success', 'pending', 'failed', 'cancelled', 'notEnoughDonorBalance'] as const)
    ids.gas[key].sort(byIdOrder);
  ids.gas.notEnoughDonorPending =
    ids.gas.notEnoughDonorBalance.find((id) => state.gas.get(id)?.status === 'pending') ?? '';
  const page2 = mine.slice(50).find((row) => row.subStatus === 'not_enough_donor_balance');
  ids.gas.notEnoughDonorOnSecondPage = page2?.id ?? '';
}

/** Makes sure the default gas list shows a not_enough_donor_balance failure on page 2 (rows are ordered by id). */
function ensureDonorRowOnSecondPage(state: SimState, ids: SeedIds): void {
  const rows = selectGasRows(state.gas.values(), ids.merchants.main, {});
  if (rows.slice(50).some((row) => row.subStatus === 'not_enough_donor_balance')) return;
  const target = rows.slice(50).find((row) => row.status === 'success');
  const donorOnPage1 = rows
    .slice(0, 50)
    .find((row) => row.status === 'failed' && row.subStatus === 'not_enough_donor_balance');
  if (!target || !donorOnPage1) return;
  state.updateGasDistribution(target.id, { status: 'failed', subStatus: 'not_enough_donor_balance', txHash: '' });
  state.updateGasDistribution(donorOnPage1.id, { status: 'success', subStatus: 'sent', txHash: state.random.txHash() });
}

function seedForeign(state: SimState, ids: SeedIds, now: number): void {
  const { assetUsdt, assetEth } = ids.foreign;
  const merchantId = ids.merchants.other;
  ids.foreign.withdrawal = state.addWithdrawal({
    id: seedId('foreign:withdrawal'),
    assetId: assetUsdt,
    status: 'failed',
    createdAt: now - 2 * DAY,
  }).id;
  const amountFrom = parseUnits('0.1', 18);
  ids.foreign.swap = state.addSwap({
    id: seedId('foreign:swap'),
    assetIdFrom: assetEth,
    assetIdTo: assetUsdt,
    amountFrom: amountFrom.toString(),
    estimatedAmount: quoteAmount(state, state.asset(assetEth), state.asset(assetUsdt), amountFrom).toString(),
    status: 'rejected',
    createdAt: now - 4 * DAY,
  }).id;
  const payout = state.addPayout({
    id: seedId('foreign:payout'),
    merchantId,
    assetId: assetUsdt,
    name: 'B vendors',
    status: 'finished',
    createdAt: now - 3 * DAY,
  });
  ids.foreign.payout = payout.id;
  ids.foreign.task = state.addPayoutTask({
    id: seedId('foreign:task'),
    payoutId: payout.id,
    status: 'failed',
    subStatus: 'payout_reverted',
    createdAt: now - 3 * DAY + MINUTE,
  }).id;
  ids.foreign.deposit = state.addDeposit({
    id: seedId('foreign:deposit'),
    assetId: assetUsdt,
    createdAt: now - DAY,
  }).id;
  ids.foreign.invoice = state.addInvoice({
    id: seedId('foreign:invoice'),
    merchantId,
    usdCents: '2500',
    assetId: assetUsdt,
    createdAt: now - HOUR,
    expiredAt: now + HOUR,
  }).id;
  const pipeline = state.addGasPipeline({ id: seedId('foreign:gas-pipeline'), merchantId, createdAt: now - 2 * DAY });
  ids.foreign.gas = state.addGasDistribution({
    id: seedId('foreign:gas'),
    pipelineId: pipeline.id,
    networkId: ids.networks.ethereum,
    status: 'failed',
    subStatus: 'not_enough_donor_balance',
    createdAt: now - 2 * DAY + 4000,
  }).id;
}
