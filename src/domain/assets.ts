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
