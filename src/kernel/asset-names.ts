/**
 * How people name an asset: its id, a symbol unique among the merchant's assets (`USDT`), or `SYMBOL@NETWORK`
 * with the network's symbol (`USDT@BSC`), case-insensitive. Pure: works on any record shaped like an asset.
 */

/** The parts of an asset that name it. */
export interface NamedAsset {
  id: string;
  crypto: { symbol: string };
  network: { symbol: string; title: string };
}

/** How an asset reference typed by a user resolved against the merchant's assets. */
export type AssetResolution<A extends NamedAsset = NamedAsset> =
  | { ok: true; asset: A }
  | { ok: false; problem: 'ambiguous' | 'unknown'; reference: string; candidates: A[] };

/** `USDT@BSC`: how people tell two assets with the same symbol apart. */
export function assetReference(asset: NamedAsset): string {
  return `${asset.crypto.symbol}@${asset.network.symbol}`;
}

/**
 * Resolves an asset id, a symbol unique among the merchant's assets (`USDT`), or `SYMBOL@NETWORK` with the
 * network's symbol or title (`USDT@BSC`), case-insensitive.
 */
export function resolveAsset<A extends NamedAsset>(assets: readonly A[], reference: string): AssetResolution<A> {
  const wanted = reference.trim().toLowerCase();
  const byId = assets.find((asset) => asset.id.toLowerCase() === wanted);
  if (byId) return { ok: true, asset: byId };

  const [symbol, network] = wanted.split('@', 2) as [string, string | undefined];
  const sameSymbol = assets.filter((asset) => asset.crypto.symbol.toLowerCase() === symbol);
  const matches =
    network === undefined
      ? sameSymbol
      : sameSymbol.filter(
          (asset) => asset.network.symbol.toLowerCase() === network || asset.network.title.toLowerCase() === network,
        );
  if (matches.length === 1) return { ok: true, asset: matches[0]! };
  if (matches.length > 1) return { ok: false, problem: 'ambiguous', reference, candidates: matches };
  return { ok: false, problem: 'unknown', reference, candidates: sameSymbol.length > 0 ? sameSymbol : [...assets] };
}

/** True when a word could only be meant as an asset (so `invoice 10 Pro plan` keeps "Pro" as the title). */
export function looksLikeAssetReference(assets: readonly NamedAsset[], word: string): boolean {
  const lower = word.toLowerCase();
  if (lower.includes('@')) return true;
  return assets.some((asset) => asset.id.toLowerCase() === lower || asset.crypto.symbol.toLowerCase() === lower);
}

/**
 * Coins and currencies people name by word rather than by ticker, and tickers typed in lower case: a word in this
 * list after an amount is read as a unit, never as the first word of a title. Not exhaustive on purpose: an
 * all-capitals word is caught by its shape (see `readsLikeCurrency`), so this only needs the spellings people
 * type without capitals.
 */
const CURRENCY_WORDS = new Set([
  // crypto tickers people type in lower case (not those that are also common English words: `link`, `dot`)
  ...['btc', 'xbt', 'eth', 'usdt', 'usdc', 'dai', 'bnb', 'trx', 'sol', 'ltc', 'doge', 'xrp', 'ada', 'matic', 'pol'],
  ...['avax', 'shib', 'bch', 'xmr', 'xlm', 'busd', 'tusd', 'fdusd', 'pyusd', 'wbtc', 'weth'],
  ...['usde', 'sats', 'gwei', 'wei'],
  // their names
  ...['bitcoin', 'bitcoins', 'ether', 'ethereum', 'tether', 'usdcoin', 'binance', 'tron', 'solana', 'litecoin'],
  ...['dogecoin', 'ripple', 'cardano', 'polygon', 'toncoin', 'avalanche', 'polkadot', 'monero', 'stellar'],
  ...['satoshi', 'satoshis', 'stablecoin', 'stablecoins', 'token', 'tokens', 'coin', 'coins', 'crypto'],
  // other money than US dollars: an invoice is in USD or in one of the merchant's assets, never these
  ...['eur', 'euro', 'euros', 'gbp', 'pound', 'pounds', 'sterling', 'jpy', 'yen', 'chf', 'franc', 'francs'],
  ...['cad', 'aud', 'nzd', 'cny', 'rmb', 'yuan', 'inr', 'rupee', 'rupees', 'rub', 'ruble', 'rubles', 'krw'],
  ...['brl', 'reais', 'mxn', 'peso', 'pesos', 'lira', 'sek', 'nok', 'dkk', 'krona', 'krone'],
  ...['pln', 'zloty', 'uah', 'hryvnia', 'aed', 'dirham', 'sgd', 'hkd', 'zar', 'ngn', 'naira'],
]);

/** Currency signs other than the dollar's (`€`, `£`, `₿`, …), alone or stuck to a word. */
const CURRENCY_SIGN = /[€£¥₿Ξ₮₽₹₩₺₴₦¢]/u;

/**
 * True when a word after an amount reads like a currency or an asset, whether or not the merchant has it: a
 * reference with a network (`BTC@BITCOIN`), a ticker's shape (two or more capitals, digits allowed: `BTC`,
 * `USDT`, `1INCH`), a known coin or currency written in any case (`bitcoin`, `eth`, `eur`), or a currency sign.
 * Such a word is never taken as the first word of a title: `invoice 0.05 BTC Consulting` must not become a
 * $0.05 invoice titled "BTC Consulting" on a merchant without BTC. A false alarm (a title starting with `VIP`)
 * costs a refusal that shows the `$` form; a miss would cost money.
 */
export function readsLikeCurrency(word: string): boolean {
  if (word.includes('@') || CURRENCY_SIGN.test(word)) return true;
  if (/^[A-Z0-9]{2,12}$/.test(word) && (word.match(/[A-Z]/g)?.length ?? 0) >= 2) return true;
  return CURRENCY_WORDS.has(word.toLowerCase().replace(/[.,:;!?]+$/, ''));
}
