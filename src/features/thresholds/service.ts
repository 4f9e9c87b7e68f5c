/**
 * `/treasury threshold …` and `/treasury thresholds`: balance thresholds set by TREASURY_ADMINS (people
 * and members of user groups), each change written to the store's trail with who and when; the list shows each
 * balance now. The poller does the watching (poller/balances.ts).
 */

import type { SlackMessage } from '../../blocks/common.js';
import { parseTokenAmount, parseUsdAmount } from '../../kernel/amounts.js';
import { resolveAsset } from '../../kernel/asset-names.js';
import { describeAssetProblem } from '../../kernel/asset-problems.js';
import { UserFacingError } from '../../kernel/errors.js';
import type { Logger } from '../../logger.js';
import type { Asset, PaymentsClient } from '../../payments/index.js';
import type { BotRepositories } from '../repositories.js';
import { buildThresholdList, thresholdRemovedText, thresholdSetText } from './blocks.js';
import type { BalanceThreshold } from './rules.js';

/** What the threshold commands need. */
export interface ThresholdDeps {
  payments: Pick<PaymentsClient, 'listAssets'>;
  store: Pick<BotRepositories, 'balances' | 'alerts'>;
  now: () => Date;
  logger: Logger;
  /** Whether the person is a treasury admin (TREASURY_ADMINS; features/access). */
  isAdmin(userId: string): Promise<boolean>;
  /** Whether the alert poller runs (ALERT_CHANNEL set): without it a threshold is kept but no alert will come. */
  pollerOn: boolean;
}

export interface ThresholdService {
  list(userId: string): Promise<SlackMessage>;
  set(userId: string, reference: string, amountText: string, usd: boolean): Promise<SlackMessage>;
  remove(userId: string, reference: string): Promise<SlackMessage>;
}

const NOT_AN_ADMIN =
  'Only treasury admins can set or remove balance thresholds (`TREASURY_ADMINS`; by default the swap approvers). `/treasury thresholds` shows them to everyone.';

export function createThresholdService(deps: ThresholdDeps): ThresholdService {
  const isAdmin = (userId: string): Promise<boolean> => deps.isAdmin(userId);

  async function requireAdmin(userId: string): Promise<void> {
    if (await isAdmin(userId)) return;
    deps.logger.info('threshold change refused: not an admin', { userId });
    throw new UserFacingError(NOT_AN_ADMIN, 'not_admin');
  }

  async function findAsset(reference: string): Promise<Asset> {
    const resolution = resolveAsset(await deps.payments.listAssets(), reference);
    if (!resolution.ok) throw new UserFacingError(describeAssetProblem(resolution));
    return resolution.asset;
  }

  return {
    async list(userId) {
      const [thresholds, alerts, mayChange] = await Promise.all([
        deps.store.balances.listThresholds(),
        deps.store.alerts.readAlerts(),
        isAdmin(userId),
      ]);
      let assets: readonly Asset[] | undefined;
      if (thresholds.length > 0) {
        try {
          assets = await deps.payments.listAssets();
        } catch (error) {
          deps.logger.warn('thresholds: could not read the balances', { error: String(error) });
        }
      }
      const byId = new Map((assets ?? []).map((asset) => [asset.id, asset]));
      const low = alerts.balancesLow ?? {};
      return buildThresholdList(
        thresholds.map((threshold) => {
          const asset = byId.get(threshold.assetId);
          return {
            threshold,
            ...(asset ? { now: { balance: asset.balance, balanceInUsd: asset.balanceInUsd ?? null } } : {}),
            low: Object.hasOwn(low, threshold.assetId),
          };
        }),
        { now: deps.now(), balancesRead: assets !== undefined, mayChange, pollerOn: deps.pollerOn },
      );
    },
    async set(userId, reference, amountText, usd) {
      await requireAdmin(userId);
      const asset = await findAsset(reference);
      // Read with the asset's own decimals (token units) or as cents; both parsers refuse zero and negatives.
      const below = usd
        ? parseUsdAmount(amountText)
        : parseTokenAmount(amountText, asset.crypto.decimals, { symbol: asset.crypto.symbol });
      const threshold: BalanceThreshold = {
        assetId: asset.id,
        measure: usd ? 'usd' : 'units',
        below: below.toString(),
        symbol: asset.crypto.symbol,
        network: asset.network.symbol,
        decimals: asset.crypto.decimals,
      };
      const { previous } = await deps.store.balances.setThreshold(threshold, userId, deps.now());
      deps.logger.info('balance threshold set', { userId, assetId: asset.id, measure: threshold.measure });
      const text = thresholdSetText(
        threshold,
        previous,
        { balance: asset.balance, balanceInUsd: asset.balanceInUsd ?? null },
        { pollerOn: deps.pollerOn },
      );
      return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
    },
    async remove(userId, reference) {
      await requireAdmin(userId);
      const thresholds = await deps.store.balances.listThresholds();
      // The asset may be gone from the list: its threshold can still be removed by its id or its USDT@BSC name.
      const named = thresholds.filter(
        (t) =>
          t.assetId.toLowerCase() === reference.toLowerCase() ||
          `${t.symbol}@${t.network}`.toLowerCase() === reference.toLowerCase(),
      );
      const assetId = named.length === 1 ? named[0]!.assetId : (await findAsset(reference)).id;
      const { removed } = await deps.store.balances.removeThreshold(assetId, userId, deps.now());
      if (removed) deps.logger.info('balance threshold removed', { userId, assetId });
      const text = thresholdRemovedText(removed, reference);
      return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
    },
  };
}
