import { escapeText } from '../blocks/mrkdwn.js';
import type { Asset } from '../payments/index.js';

/** How an asset reference typed by a user resolved against the merchant's assets. */
export type AssetResolution =
  | { ok: true; asset: Asset }
  | { ok: false; problem: 'ambiguous' | 'unknown'; reference: string; candidates: Asset[] };

/** `USDT@BSC`: how people tell two assets with the same symbol apart. */
export function assetReference(asset: Asset): string {
  return `${asset.crypto.symbol}@${asset.network.symbol}`;
}

/**
 * Resolves an asset id, a symbol unique among the merchant's assets (`USDT`), or `SYMBOL@NETWORK` with the
 * network's symbol (`USDT@BSC`), case-insensitive.
 */
export function resolveAsset(assets: readonly Asset[], reference: string): AssetResolution {
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
export function looksLikeAssetReference(assets: readonly Asset[], word: string): boolean {
  const lower = word.toLowerCase();
  if (lower.includes('@')) return true;
  return assets.some((asset) => asset.id.toLowerCase() === lower || asset.crypto.symbol.toLowerCase() === lower);
}

/** A user-facing sentence for an asset that did not resolve, listing the candidates. */
export function describeAssetProblem(resolution: Extract<AssetResolution, { ok: false }>): string {
  const list = resolution.candidates.map((asset) => `\`${escapeText(assetReference(asset))}\``).join(', ');
  const reference = escapeText(resolution.reference);
  if (resolution.problem === 'ambiguous') {
    return `"${reference}" matches more than one asset. Say which: ${list}.`;
  }
  return resolution.candidates.length > 0
    ? `No asset "${reference}" for this merchant. Available: ${list}.`
    : `No asset "${reference}": this merchant has no assets enabled.`;
}
