/** The read-only swap views: `/treasury swap <swap-id>` (from the API) and `/treasury swaps` (from the record). */
import type { SlackMessage } from '../../blocks/common.js';
import { UserFacingError } from '../../kernel/errors.js';
import { type Asset, type PaymentsClient, PaymentsNotFoundError, type Swap } from '../../payments/index.js';
import type { SwapQuoteRepository } from '../repositories.js';
import { buildSwapDetail, buildSwapHistory } from './blocks.js';
import type { AssetSnapshot } from './quote.js';

/** What a quote keeps of an asset, so it can be shown without asking the API again. */
export function assetSnapshotOf(asset: Asset): AssetSnapshot {
  return {
    assetId: asset.id,
    symbol: asset.crypto.symbol,
    networkSymbol: asset.network.symbol,
    networkTitle: asset.network.title,
    decimals: asset.crypto.decimals,
  };
}

/** `/treasury swap <swap-id>`: one swap as the API has it. */
export async function showSwap(payments: PaymentsClient, swapId: string): Promise<SlackMessage> {
  let swap: Swap;
  try {
    swap = await payments.getSwap(swapId);
  } catch (error) {
    if (error instanceof PaymentsNotFoundError) throw new UserFacingError('No such swap for this merchant.');
    throw error;
  }
  const assets = await payments.listAssets();
  const byId = (id: string) => assets.find((asset) => asset.id === id);
  const from = byId(swap.assetIdFrom);
  const to = byId(swap.assetIdTo);
  return buildSwapDetail(swap, { from: from && assetSnapshotOf(from), to: to && assetSnapshotOf(to) });
}

/** `/treasury swaps`: the audit trail, newest first. */
export async function showSwapHistory(quotes: SwapQuoteRepository, limit = 15): Promise<SlackMessage> {
  return buildSwapHistory(await quotes.listRecentQuotes(limit));
}
