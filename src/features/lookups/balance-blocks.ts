import { context, fields, header, linesToSections, type SlackMessage, section } from '../../blocks/common.js';
import { formatCryptoAmount, formatNetwork, formatUsd, formatUtc } from '../../blocks/format.js';
import { code, escapeText } from '../../blocks/mrkdwn.js';
import { assetReference } from '../../kernel/asset-names.js';
import { compareText } from '../../kernel/compare.js';
import { compareDecimals, sumDecimals } from '../../kernel/money.js';
import type { Asset } from '../../payments/index.js';

/** At most this many assets are listed in one message; the rest is summarised (Slack's size limits). */
export const MAX_LISTED_ASSETS = 60;

function byUsdDescending(a: Asset, b: Asset): number {
  return compareDecimals(b.balanceInUsd, a.balanceInUsd) || compareText(a.crypto.symbol, b.crypto.symbol);
}

/** `/treasury balances`: every asset with balance and USD value, largest first, and the total. */
export function buildBalances(assets: readonly Asset[], now: Date): SlackMessage {
  if (assets.length === 0) {
    return {
      text: 'No assets',
      blocks: [section('This merchant has no assets enabled yet. Enable tokens in the payment dashboard first.')],
    };
  }
  const total = formatUsd(sumDecimals(assets.map((asset) => asset.balanceInUsd)));
  const sorted = [...assets].sort(byUsdDescending);
  const listed = sorted.slice(0, MAX_LISTED_ASSETS);
  const lines = listed.map(
    (asset) =>
      `*${escapeText(asset.crypto.symbol)}* · ${formatNetwork(asset.network)} — ${formatCryptoAmount(asset.balance, asset.crypto)} · ${formatUsd(asset.balanceInUsd)}`,
  );
  if (sorted.length > listed.length) {
    lines.push(
      `_…and ${sorted.length - listed.length} more; the total includes them. Use \`/treasury balance &lt;asset&gt;\` for one._`,
    );
  }
  return {
    text: `Balances: ${total} in ${assets.length} assets`,
    blocks: [
      header(`Balances · ${total}`),
      ...linesToSections(lines),
      context(`${assets.length} assets · total ${total} · as of ${formatUtc(now)}`),
    ],
  };
}

/** `/treasury balance <asset>`: one asset in detail. */
export function buildAssetDetail(asset: Asset, now: Date): SlackMessage {
  const symbol = asset.crypto.symbol;
  const balance = formatCryptoAmount(asset.balance, asset.crypto);
  const withdrawable =
    asset.balanceForWithdrawal === null ? 'n/a' : formatCryptoAmount(asset.balanceForWithdrawal, asset.crypto);
  return {
    text: `${escapeText(`${symbol} on ${asset.network.title}`)}: ${balance}`,
    blocks: [
      header(`${symbol} on ${asset.network.title}`),
      fields([
        ['Balance', balance],
        ['Available for withdrawal', withdrawable],
        ['USD value', formatUsd(asset.balanceInUsd)],
        ['Network', formatNetwork(asset.network)],
        ['Fee', `${escapeText(asset.feePercent)}% + ${formatUsd(asset.feeUsd)}`],
        ['Token', asset.crypto.contractAddress ? code(asset.crypto.contractAddress) : 'native coin'],
      ]),
      section(`*Wallet*\n${code(asset.wallet)}`),
      context(`Asset ${code(assetReference(asset))} · id ${code(asset.id)} · as of ${formatUtc(now)}`),
    ],
  };
}
