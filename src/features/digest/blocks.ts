/**
 * The daily digest in words: the balances and their change since the previous digest, the alerts of the
 * last 24 hours and those still open, what happened to swap quotes, and how much of the daily swap limit was used.
 * Pure: the facts in, Block Kit out, within Slack's limits (at most 50 blocks, sections under 3,000 characters).
 */
import { UTCDate } from '@date-fns/utc';
import { format } from 'date-fns/format';
import {
  type Block,
  clipText,
  context,
  header,
  linesToSections,
  type SlackMessage,
  section,
} from '../../blocks/common.js';
import {
  formatCount,
  formatSlackTime,
  formatTokenAmount,
  formatTokenChange,
  formatUsd,
  formatUsdChange,
  usdLabel,
} from '../../blocks/format.js';
import { escapeText, mention } from '../../blocks/mrkdwn.js';
import { alertTitle, formatSpan } from '../alerts/blocks.js';
import { digestLabel } from '../alerts/kinds/index.js';
import type { OwnedAlert } from '../alerts/records.js';
import { type RunwayReport, runwaySection } from '../runway/index.js';
import type { LimitUseView } from '../swaps/policy-blocks.js';
import type { KindCount, QuoteCounts } from './rules.js';

/** One asset as the digest shows it: now, and in the previous digest's snapshot (absent: new since then). */
export interface DigestAssetView {
  symbol: string;
  /** The network's symbol, as in `USDT@BSC`. */
  network: string;
  decimals: number;
  /** Base units. */
  balance: bigint;
  /** USD value in cents; null when the API gave none. */
  usdCents: bigint | null;
  previous?: { balance: bigint; usdCents: bigint | null };
}

/** The balances part: read now and compared with the previous digest's snapshot, or why they could not be read. */
export type DigestBalancesView =
  | {
      ok: true;
      totalUsdCents: bigint;
      /** The previous digest's snapshot: its day and total (absent: no earlier snapshot is kept). */
      previous?: { day: string; totalUsdCents: bigint };
      /** Largest USD value first. */
      assets: DigestAssetView[];
      /** Assets in the previous snapshot that the API no longer lists. */
      gone: Array<Pick<DigestAssetView, 'symbol' | 'network' | 'decimals' | 'balance'>>;
    }
  | { ok: false; reason: string };

/** Everything the digest says. */
export interface DigestView {
  /** The calendar day it is for, in the digest's time zone (`YYYY-MM-DD`). */
  day: string;
  /** When it was composed (balances read, counts made). */
  at: Date;
  /** `scheduled`: the daily post; `on_demand`: posted at once on request; `private`: `/treasury digest`. */
  occasion: 'scheduled' | 'on_demand' | 'private';
  balances: DigestBalancesView;
  alertsByKind: KindCount[];
  /** The open alerts, oldest first (the first ones are listed), and how many there are. */
  open: { alerts: readonly OwnedAlert[]; total: number };
  quotes: QuoteCounts;
  /** SWAP_DAILY_LIMIT_USD and each asset's use of it in the last 24 hours; absent when no limit is set. */
  dailyLimit?: { limitCents: bigint; use: readonly LimitUseView[] };
  /** Each asset's runway (absent when the balances could not be read). */
  runway?: RunwayReport;
  /** A line (mrkdwn, escaped) about the chart: where it is, or that it follows in the thread. */
  chartNote?: string;
}

/** Assets listed one by one at most; the rest are counted (the total includes them). */
const DIGEST_ASSETS_LISTED = 30;
/** Runways listed at most (the shortest); `/treasury runway` lists them all. */
const DIGEST_RUNWAYS_LISTED = 10;
/** Open alerts listed at most; `/treasury alerts open` lists them all. */
const DIGEST_OPEN_LISTED = 10;

/** `Tue 24 Nov 2026` for the day `2026-11-24`. */
export function formatDigestDay(day: string): string {
  return format(new UTCDate(`${day}T12:00:00Z`), 'EEE d MMM yyyy');
}

function assetName(asset: Pick<DigestAssetView, 'symbol' | 'network'>): string {
  return `*${escapeText(clipText(asset.symbol, 30))}* · ${escapeText(clipText(asset.network, 30))}`;
}

function assetLine(asset: DigestAssetView, previousDay: string | undefined): string {
  const now = `${escapeText(formatTokenAmount(asset.balance, asset.decimals, clipText(asset.symbol, 30)))} · ${formatUsd(asset.usdCents)}`;
  let change = '';
  if (asset.previous) {
    const units = escapeText(
      formatTokenChange(asset.balance - asset.previous.balance, asset.decimals, clipText(asset.symbol, 30)),
    );
    const usd =
      asset.usdCents !== null && asset.previous.usdCents !== null
        ? ` (${formatUsdChange(asset.usdCents - asset.previous.usdCents)})`
        : '';
    change = ` · ${units}${usd}`;
  } else if (previousDay !== undefined) {
    change = ' · _new since then_';
  }
  return `• ${assetName(asset)} — ${now}${change}`;
}

function balanceBlocks(balances: DigestBalancesView) {
  if (!balances.ok)
    return [section(`:warning: *Balances:* could not be read: ${escapeText(balances.reason)}. The rest is complete.`)];
  const previous = balances.previous;
  const since = previous
    ? ` (${formatUsdChange(balances.totalUsdCents - previous.totalUsdCents)} since the digest of ${formatDigestDay(previous.day)})`
    : ' (no earlier digest to compare with yet)';
  const listed = balances.assets.slice(0, DIGEST_ASSETS_LISTED);
  const lines = listed.map((asset) => assetLine(asset, previous?.day));
  if (balances.assets.length > listed.length)
    lines.push(
      `_…and ${formatCount(balances.assets.length - listed.length)} smaller assets; the total includes them. \`/treasury balances\` lists every one._`,
    );
  for (const asset of balances.gone.slice(0, 10))
    lines.push(
      `• ${assetName(asset)} — no longer listed (was ${escapeText(formatTokenAmount(asset.balance, asset.decimals, clipText(asset.symbol, 30)))})`,
    );
  const changeNote = previous
    ? `Changes are since the digest of ${formatDigestDay(previous.day)}, in token units (and USD).`
    : undefined;
  return [
    section(`*Total balance:* ${formatUsd(balances.totalUsdCents)}${since}`),
    ...(lines.length > 0 ? linesToSections(lines) : [section('_No assets are enabled._')]),
    ...(changeNote ? [context(changeNote)] : []),
  ];
}

function alertLines(view: DigestView): string {
  const counted = view.alertsByKind.map(({ kind, count }) => `• ${digestLabel(kind)}: ${formatCount(count)}`);
  const total = view.alertsByKind.reduce((sum, { count }) => sum + count, 0);
  return counted.length === 0
    ? '*Alerts in the last 24 hours:* none.'
    : [`*Alerts in the last 24 hours:* ${formatCount(total)}`, ...counted].join('\n');
}

function openAlertLines(view: DigestView): string[] {
  const { alerts, total } = view.open;
  if (total === 0) return ['*Open alerts:* none: nothing is waiting for an owner.'];
  const nobody = alerts.filter((alert) => alert.life.state === 'open').length;
  const lines = [
    `*Open alerts:* ${formatCount(total)}${total === alerts.length ? `, ${formatCount(nobody)} with nobody on ${nobody === 1 ? 'it' : 'them'}` : ''}, oldest first`,
  ];
  for (const alert of alerts.slice(0, DIGEST_OPEN_LISTED)) {
    const age = formatSpan(view.at.getTime() - Date.parse(alert.postedAt));
    const owner = alert.life.acknowledgedBy ? mention(alert.life.acknowledgedBy) : '_nobody yet_';
    const snoozed =
      alert.life.snoozedUntil && view.at.toISOString() < alert.life.snoozedUntil
        ? ` · snoozed until ${formatSlackTime(new Date(alert.life.snoozedUntil))}`
        : '';
    lines.push(`• ${clipText(alertTitle(alert.subject, view.at), 120)} · ${age} old · ${owner}${snoozed}`);
  }
  if (total > Math.min(alerts.length, DIGEST_OPEN_LISTED))
    lines.push(
      `…and ${formatCount(total - Math.min(alerts.length, DIGEST_OPEN_LISTED))} more: \`/treasury alerts open\` lists them all.`,
    );
  return lines;
}

function quoteLine(quotes: QuoteCounts): string {
  const counts = [
    `approved ${formatCount(quotes.approved)}`,
    `rejected ${formatCount(quotes.rejected)}`,
    `expired ${formatCount(quotes.expired)}`,
    `swaps finished ${formatCount(quotes.swapsFinished)}`,
  ];
  return `*Swap quotes in the last 24 hours:* ${counts.join(' · ')}\n*Waiting for approval now:* ${formatCount(quotes.waiting)}`;
}

function limitLines(view: DigestView): string[] {
  const limit = view.dailyLimit;
  if (!limit) return ['*Daily swap limit:* none set.'];
  const lines = [`*Daily swap limit:* ${usdLabel(limit.limitCents)} per source asset in any 24 hours.`];
  if (limit.use.length === 0) {
    lines.push('Used in the last 24 hours: nothing.');
    return lines;
  }
  // Swapped and waiting apart, as /treasury policy says them: only created (or in-flight) swaps use the limit;
  // a waiting quote is judged against it when it is approved.
  for (const asset of limit.use.slice(0, 15)) {
    const swapped = asset.createdCents;
    const percent = limit.limitCents > 0n ? (swapped * 100n) / limit.limitCents : 0n;
    const waiting =
      asset.waitingCents > 0n ? `; ${usdLabel(asset.waitingCents)} more in quotes waiting for approval` : '';
    lines.push(
      `• ${escapeText(asset.asset)}: ${usdLabel(swapped)} of ${usdLabel(limit.limitCents)} swapped, ${percent} %${waiting}`,
    );
  }
  if (limit.use.length > 15) lines.push(`• and ${limit.use.length - 15} more assets: \`/treasury policy\` shows them`);
  return lines;
}

const TITLES: Record<DigestView['occasion'], string> = {
  scheduled: 'Daily digest',
  on_demand: 'Digest (posted on request)',
  private: 'Digest right now',
};

/** The digest message: words first (the chart, when there is one, follows in its thread). */
export function buildDigest(view: DigestView): SlackMessage {
  const title = `${TITLES[view.occasion]} · ${formatDigestDay(view.day)}`;
  const total = view.balances.ok ? formatUsd(view.balances.totalUsdCents) : 'balances unavailable';
  const alerts = view.alertsByKind.reduce((sum, { count }) => sum + count, 0);
  const text = `${title}: ${total}, ${formatCount(alerts)} alert${alerts === 1 ? '' : 's'} in 24 h, ${formatCount(view.open.total)} open`;
  const footer = [
    `Composed ${formatSlackTime(view.at)}`,
    ...(view.occasion === 'on_demand' ? ['not the daily digest: that one still comes at its time'] : []),
    ...(view.chartNote ? [view.chartNote] : []),
  ].join(' · ');
  const top = [header(title), ...balanceBlocks(view.balances)];
  const rest = [
    section(alertLines(view)),
    ...linesToSections(openAlertLines(view)),
    section(quoteLine(view.quotes)),
    section(limitLines(view).join('\n')),
    context(footer),
  ];
  // The runway gets the room the rest leaves: a digest full of assets and alerts lists fewer runways, never too long.
  const room = DIGEST_TEXT_BUDGET - textLength([...top, ...rest]) - 600;
  return {
    text,
    blocks: [...top, ...(view.runway ? runwaySection(view.runway, DIGEST_RUNWAYS_LISTED, room) : []), ...rest],
  };
}

/** Characters of block text a digest keeps under (Slack refuses a message somewhere past 11,000). */
const DIGEST_TEXT_BUDGET = 9_500;

/** The text of blocks as Slack counts it for a message's size: headers, sections (with fields) and contexts. */
function textLength(blocks: readonly Block[]): number {
  let length = 0;
  for (const block of blocks as readonly unknown[] as ReadonlyArray<Record<string, unknown>>) {
    const text = block.text as { text?: string } | undefined;
    length += text?.text?.length ?? 0;
    for (const field of (block.fields as Array<{ text?: string }> | undefined) ?? []) length += field.text?.length ?? 0;
    for (const element of (block.elements as Array<{ text?: string }> | undefined) ?? [])
      length += typeof element.text === 'string' ? element.text.length : 0;
  }
  return length;
}
