/**
 * Balance thresholds in words: how a threshold reads ("below 5,000 USDT", "below $5,000"), the level a
 * low balance must reach to count as recovered, and `/treasury thresholds`. Pure.
 */

import { type Block, context, header, linesToSections, type SlackMessage, section } from '../../blocks/common.js';
import { formatRelative, formatTokenAmount, formatUsd, usdLabel } from '../../blocks/format.js';
import { code, escapeText } from '../../blocks/mrkdwn.js';
import { type BalanceThreshold, measuredValue, RECOVERY_MARGIN_PERCENT, recoveryLevel } from './rules.js';

/** The threshold's side of the comparison: a whole token amount or a USD amount. */
type Level = Pick<BalanceThreshold, 'measure' | 'symbol' | 'decimals'>;

/** A level in the threshold's measure: "5,000 USDT" or "$5,000". Symbols are escaped (mrkdwn). */
export function levelLabel(threshold: Level, value: bigint | string): string {
  const amount = BigInt(value);
  return threshold.measure === 'usd'
    ? usdLabel(amount)
    : escapeText(formatTokenAmount(amount, threshold.decimals, threshold.symbol));
}

/** "below 5,000 USDT" / "below $5,000". */
export function thresholdLabel(threshold: Level & { below: string }): string {
  return `below ${levelLabel(threshold, threshold.below)}`;
}

/** "5,500 USDT (the threshold plus 10 %)": where a low balance counts as recovered. */
export function recoveryLabel(threshold: Level & { below: string }): string {
  return `${levelLabel(threshold, recoveryLevel(BigInt(threshold.below)))} (the threshold plus ${RECOVERY_MARGIN_PERCENT} %)`;
}

/** `USDT@BSC`, escaped for mrkdwn. */
export function assetLabel(asset: { symbol: string; network: string }): string {
  return escapeText(`${asset.symbol}@${asset.network}`);
}

/**
 * A balance as people read it: token units and, when known, its USD value. Against a USD threshold the USD value
 * is shown in whole cents rounded down, as it is compared (a balance worth $4,999.996 reads $4,999.99, not
 * $5,000.00 next to "below $5,000").
 */
export function balanceLabel(reading: {
  balance: string;
  balanceInUsd: string | null | undefined;
  decimals: number;
  symbol: string;
  measure?: 'units' | 'usd';
}): string {
  const units = escapeText(formatTokenAmount(reading.balance, reading.decimals, reading.symbol));
  if (!reading.balanceInUsd) return units;
  const comparedCents = reading.measure === 'usd' ? measuredValue(reading, 'usd') : undefined;
  return `${units} (${formatUsd(comparedCents ?? reading.balanceInUsd)})`;
}

/** One line of `/treasury thresholds`: the threshold, who set it and when, and the balance now. */
export interface ThresholdLine {
  threshold: BalanceThreshold & { setBy: string; setAt: string };
  /** The asset's balance now; undefined when the asset is gone from the list (or it could not be read). */
  now?: { balance: string; balanceInUsd: string | null };
  /** Whether the poller counts it as low now (its alert is open). */
  low: boolean;
}

/**
 * Said wherever a threshold is shown or set while the alert poller is off (ALERT_CHANNEL unset): nothing watches
 * the balances then, so no alert will come, whatever the balance does.
 */
export const NO_POLLER_NO_ALERT =
  ':warning: *No alert will come:* the alert poller is off (`ALERT_CHANNEL` is not set), so nothing watches the balances. Thresholds are kept and watched once an admin sets `ALERT_CHANNEL`.';

/** `/treasury thresholds`: each threshold with the balance now and where it stands. */
export function buildThresholdList(
  lines: readonly ThresholdLine[],
  options: { now: Date; balancesRead: boolean; mayChange: boolean; pollerOn: boolean },
): SlackMessage {
  if (lines.length === 0)
    return {
      text: 'No balance thresholds are set.',
      blocks: [
        section('No balance thresholds are set, so the bot does not watch any balance.'),
        context(
          options.mayChange
            ? 'Set one with `/treasury threshold USDT@BSC below 5,000` (token units) or `below $5,000` (USD value).'
            : 'Treasury admins set them with `/treasury threshold`.',
        ),
        ...(options.pollerOn ? [] : [section(NO_POLLER_NO_ALERT)]),
      ],
    };
  const rows = lines.map(({ threshold, now, low }) => {
    const where = now
      ? `now ${balanceLabel({ ...now, decimals: threshold.decimals, symbol: threshold.symbol, measure: threshold.measure })}`
      : options.balancesRead
        ? 'no longer in the asset list'
        : 'balance unknown (the payment API did not answer)';
    const value = now ? measuredValue(now, threshold.measure) : undefined;
    const state = low
      ? ':warning: *low*: alert open'
      : value !== undefined && value < BigInt(threshold.below)
        ? options.pollerOn
          ? ':warning: below (the next poll alerts)'
          : ':warning: below (no alert: the poller is off)'
        : now && value === undefined
          ? 'no USD value to compare'
          : ':white_check_mark: above';
    return `• *${assetLabel(threshold)}* ${thresholdLabel(threshold)} · ${where} · ${state}\n   set by <@${threshold.setBy}> ${formatRelative(new Date(threshold.setAt), options.now)}`;
  });
  const blocks: Block[] = [
    header('Balance thresholds'),
    ...(options.pollerOn ? [] : [section(NO_POLLER_NO_ALERT)]),
    ...linesToSections(rows),
    context(
      `A low-balance alert opens when a balance goes below its threshold and resolves itself once it is back at the threshold plus ${RECOVERY_MARGIN_PERCENT} %.${options.mayChange ? ' Change one with `/treasury threshold <asset> below <amount>` or `off`.' : ''}`,
    ),
  ];
  return { text: `${lines.length} balance threshold(s)`, blocks };
}

/**
 * The answer to setting a threshold. With the poller off (`pollerOn` false) it says plainly, first, that no alert
 * will come until ALERT_CHANNEL is set: the threshold is saved, not watched.
 */
export function thresholdSetText(
  threshold: BalanceThreshold,
  previous: BalanceThreshold | undefined,
  now: { balance: string; balanceInUsd: string | null } | undefined,
  options: { pollerOn: boolean } = { pollerOn: true },
): string {
  const replaced = previous ? ` (was ${thresholdLabel(previous)})` : '';
  const reading = now
    ? ` It is ${balanceLabel({ ...now, decimals: threshold.decimals, symbol: threshold.symbol, measure: threshold.measure })} now.`
    : '';
  if (!options.pollerOn)
    return `:information_source: *${assetLabel(threshold)}*: threshold saved, ${thresholdLabel(threshold)}${replaced}.${reading}\n${NO_POLLER_NO_ALERT} From then on, an alert opens when its balance goes ${thresholdLabel(threshold)} and resolves itself once it is back at ${recoveryLabel(threshold)}.`;
  return `:white_check_mark: *${assetLabel(threshold)}*: an alert opens when its balance goes ${thresholdLabel(threshold)}${replaced}.${reading} It resolves itself once the balance is back at ${recoveryLabel(threshold)}.`;
}

/** The answer to removing a threshold. */
export function thresholdRemovedText(removed: BalanceThreshold | undefined, reference: string): string {
  return removed
    ? `:white_check_mark: *${assetLabel(removed)}* has no threshold any more (it was ${thresholdLabel(removed)}). An open low-balance alert about it resolves itself at the next poll.`
    : `${code(reference)} had no threshold: nothing changed.`;
}
