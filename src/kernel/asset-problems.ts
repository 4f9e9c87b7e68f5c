import { type AssetResolution, assetReference } from './asset-names.js';
import { escapeText } from './text.js';

/** A user-facing sentence for an asset that did not resolve (kernel/asset-names.ts `resolveAsset`), listing the candidates. */
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
