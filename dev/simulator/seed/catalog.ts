// The seed's catalog: merchants, networks, cryptos, API keys and swap rules (data every start has, records or not).
import { seedId } from '../random.js';
import type { ApiKeyRecord, CryptoRecord, NetworkRecord } from '../types.js';
import type { SimState } from '../world.js';
import type { CryptoName } from './ids.js';

/** The API keys the simulator accepts. */
export const API_KEYS = {
  /** Merchant A with can_payout, can_invoice and withdrawal. */
  full: 'sim-full-7f3c9a1e5b2d4c6f8a0b',
  /** Merchant A without any permission. */
  noPermissions: 'sim-noperm-2b8e4d1a9c3f5e7d',
  /** Merchant B with every permission. */
  otherMerchant: 'sim-other-6d1f3b9e2a4c8e5f',
} as const;

/** The merchants, networks and cryptos the catalog created. */
export interface Catalog {
  merchants: { main: string; other: string };
  networks: Record<'ethereum' | 'bsc' | 'polygon', NetworkRecord>;
  cryptos: Record<CryptoName, CryptoRecord>;
}

/** Creates the merchants, networks, cryptos, API keys and swap rules. */
export function seedCatalog(state: SimState): Catalog {
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
