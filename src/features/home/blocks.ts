/**
 * The Home tab: per person, what is theirs to look at and to do — the balances with each asset's
 * threshold marked, the alerts nobody has resolved (Acknowledge from here), the swap quotes waiting for *their*
 * approval (each with a link to its message), their own recent requests, and a Refresh button. A person who is
 * not a treasury user sees a short explanation and no data. Pure: the facts in, a `home` view out, within Slack's
 * limits for Home tabs (at most 100 blocks: every list is capped and says how many more there are).
 */

import {
  actions,
  type Block,
  button,
  clipText,
  context,
  header,
  LIMITS,
  linesToSections,
  section,
} from '../../blocks/common.js';
import {
  formatCount,
  formatNetwork,
  formatRelative,
  formatSlackTime,
  formatTokenAmount,
  formatUsd,
  usdLabel,
} from '../../blocks/format.js';
import { ACTION_IDS, VIEW_IDS } from '../../blocks/ids.js';
import { escapeText, link, mention } from '../../blocks/mrkdwn.js';
import { sumDecimals } from '../../kernel/money.js';
import type { Asset } from '../../payments/index.js';
import { alertBlockId, alertTitle, formatSpan } from '../alerts/blocks.js';
import type { AlertView } from '../alerts/owned.js';
import type { FreezeRecord } from '../freeze/rules.js';
import { describeFreeze } from '../freeze/words.js';
import { type RunwayReport, runwaySection } from '../runway/index.js';
import { OUTCOME_LABELS } from '../swaps/blocks.js';
import { approvalsOf } from '../swaps/decision.js';
import type { PolicySnapshot } from '../swaps/policy.js';
import type { SwapQuote } from '../swaps/quote.js';
import { levelLabel, NO_POLLER_NO_ALERT } from '../thresholds/blocks.js';
import type { StoredThreshold } from '../thresholds/rules.js';
import { measuredValue } from '../thresholds/rules.js';

/** How many of each list the Home tab shows; the rest is counted ("…and 12 more"). 100 blocks is the hard cap. */
export const HOME_LISTED = {
  assets: 30,
  alerts: 15,
  waiting: 15,
  requests: 5,
} as const;

/** Runways the Home tab lists (the shortest); `/treasury runway` lists them all. */
const HOME_RUNWAYS_LISTED = 10;

/** Slack's limit of blocks in a Home tab. */
const HOME_MAX_BLOCKS = 100;

/** An open alert as the Home tab lists it, with a link to its message when Slack gave one. */
export interface HomeAlert {
  view: AlertView;
  postedAt: string;
  permalink?: string;
}

/** A quote waiting for the person's approval: the policy it is decided by, and a link to its message. */
export interface HomeWaitingQuote {
  quote: SwapQuote;
  snapshot: PolicySnapshot;
  permalink?: string;
}

/** One of the person's own requests, with a link to its message when there is one. */
export interface HomeRequest {
  quote: SwapQuote;
  permalink?: string;
}

/** What the Home tab of one treasury user shows. Lists come in the order shown; totals count the whole list. */
export interface HomeFacts {
  userId: string;
  now: Date;
  /** A one-time line on top: why the person's last click from here changed nothing. */
  notice?: string;
  /** The merchant's assets now, or undefined when the payment API could not be read. */
  assets: readonly Asset[] | undefined;
  thresholds: readonly StoredThreshold[];
  alerts: { shown: readonly HomeAlert[]; total: number };
  waiting: { shown: readonly HomeWaitingQuote[]; total: number };
  requests: readonly HomeRequest[];
  /** The alert poller is off (ALERT_CHANNEL unset): thresholds are shown with the word that no alert will come. */
  alertsOff?: boolean;
  /** The freeze in force (`/treasury freeze`): shown on top, to every treasury user. */
  freeze?: FreezeRecord;
  /** Each asset's runway (absent when the balances could not be read). */
  runway?: RunwayReport;
}

/** A Home tab view (`views.publish`). */
export interface HomeView {
  type: 'home';
  callback_id: string;
  blocks: Block[];
}

const homeView = (blocks: Block[]): HomeView => ({ type: 'home', callback_id: VIEW_IDS.home, blocks });

/** The buttons that open a form (each opens its modal with the click's trigger). */
function formButtons(): Block[] {
  return actions(
    [
      button('New swap', ACTION_IDS.homeNewSwap, 'new_swap'),
      button('New invoice', ACTION_IDS.homeNewInvoice, 'new_invoice', { style: 'primary' }),
      button('Set a threshold', ACTION_IDS.homeSetThreshold, 'set_threshold'),
    ],
    'home_forms',
  );
}

function refreshRow(now: Date): Block[] {
  return [
    ...actions([button('Refresh', ACTION_IDS.homeRefresh, 'refresh')], 'home_refresh'),
    context(`Updated ${formatSlackTime(now)}. It also refreshes whenever you open this tab or act on something.`),
  ];
}

/**
 * The Home tab of someone outside TREASURY_USERS: what the bot is, and why it shows them nothing. `unknown`: Slack
 * could not list a user group of the list, so whether they are on it is not known (nothing is shown either).
 */
export function buildOutsiderHome(notice?: string, options: { unknown?: boolean } = {}): HomeView {
  return homeView([
    header('Treasury'),
    ...(notice ? [section(`:information_source: ${clipText(notice, LIMITS.sectionText - 30)}`)] : []),
    section(
      options.unknown
        ? "This bot is for the treasury team: balances, swap approvals and failure alerts. Slack did not say whether you are on the team's list (`TREASURY_USERS`), so nothing is shown here for now."
        : "This bot is for the treasury team: balances, swap approvals and failure alerts. You are not on the team's list (`TREASURY_USERS`), so nothing is shown here.",
    ),
    context('Ask an admin to add you to TREASURY_USERS if you need it.'),
  ]);
}

/** The Home tab of a treasury user. Always within 100 blocks, whatever the lists hold. */
export function buildHome(facts: HomeFacts): HomeView {
  const blocks: Block[] = [header('Treasury')];
  if (facts.freeze)
    blocks.push(
      section(
        `:ice_cube: *Money is ${describeFreeze(facts.freeze)}.* No swap can be requested or approved and no payout container created until admins lift it (Unfreeze on its announcement, or under \`/treasury freeze\`).`,
      ),
    );
  if (facts.notice) blocks.push(section(`:warning: ${clipText(facts.notice, LIMITS.sectionText - 20)}`));
  blocks.push(...formButtons());
  blocks.push(...refreshRow(facts.now));
  blocks.push({ type: 'divider' });
  blocks.push(...balanceBlocks(facts));
  if (facts.runway) blocks.push(...runwaySection(facts.runway, HOME_RUNWAYS_LISTED));
  blocks.push({ type: 'divider' });
  blocks.push(...alertBlocks(facts));
  blocks.push({ type: 'divider' });
  blocks.push(...waitingBlocks(facts));
  blocks.push({ type: 'divider' });
  blocks.push(...requestBlocks(facts));
  // The lists are capped well below the limit; this keeps the promise whatever changes around them.
  return homeView(blocks.slice(0, HOME_MAX_BLOCKS));
}

// ---------------------------------------------------------------------------------------------------------
// Balances

/** An asset's threshold marked: "⚠ below threshold $5,000" when below it now, else the threshold itself. */
function thresholdMark(asset: Asset, threshold: StoredThreshold | undefined): string {
  if (!threshold) return '';
  const level = levelLabel(threshold, threshold.below);
  const value = measuredValue(asset, threshold.measure);
  if (value === undefined) return ` · threshold ${level} (no USD value to compare)`;
  return value < BigInt(threshold.below) ? ` · :warning: *below threshold ${level}*` : ` · threshold ${level}`;
}

function balanceBlocks(facts: HomeFacts): Block[] {
  const blocks = balanceListBlocks(facts);
  // Thresholds set but nothing watching them: say so right under the heading, not only in the docs.
  if (facts.alertsOff && facts.thresholds.length > 0) blocks.splice(1, 0, section(NO_POLLER_NO_ALERT));
  return blocks;
}

function balanceListBlocks(facts: HomeFacts): Block[] {
  const thresholdOf = new Map(facts.thresholds.map((threshold) => [threshold.assetId, threshold]));
  if (facts.assets === undefined) {
    const set = facts.thresholds.map(
      (t) => `• *${escapeText(`${t.symbol}@${t.network}`)}*: threshold ${levelLabel(t, t.below)}`,
    );
    return [
      header('Balances'),
      section(
        ':warning: The balances could not be read from the payment service just now. The rest of this page is current; press Refresh to try again.',
      ),
      ...(set.length > 0 ? [section(clipText(`Thresholds set:\n${set.join('\n')}`, LIMITS.sectionText))] : []),
    ];
  }
  if (facts.assets.length === 0) return [header('Balances'), section('This merchant has no assets enabled yet.')];
  const total = formatUsd(sumDecimals(facts.assets.map((asset) => asset.balanceInUsd)));
  // Below-threshold assets first (what needs doing), then by USD value.
  const below = (asset: Asset) => {
    const threshold = thresholdOf.get(asset.id);
    const value = threshold ? measuredValue(asset, threshold.measure) : undefined;
    return threshold !== undefined && value !== undefined && value < BigInt(threshold.below);
  };
  const sorted = [...facts.assets].sort(
    (a, b) => Number(below(b)) - Number(below(a)) || compareUsd(b.balanceInUsd, a.balanceInUsd),
  );
  const listed = sorted.slice(0, HOME_LISTED.assets);
  const lines = listed.map(
    (asset) =>
      `• *${escapeText(asset.crypto.symbol)}* · ${formatNetwork(asset.network)} — ${escapeText(
        formatTokenAmount(asset.balance, asset.crypto.decimals, asset.crypto.symbol),
      )} · ${formatUsd(asset.balanceInUsd)}${thresholdMark(asset, thresholdOf.get(asset.id))}`,
  );
  if (sorted.length > listed.length)
    lines.push(`_…and ${sorted.length - listed.length} more; the total includes them (\`/treasury balances\`)._`);
  const listedIds = new Set(facts.assets.map((asset) => asset.id));
  const orphans = facts.thresholds.filter((threshold) => !listedIds.has(threshold.assetId));
  for (const t of orphans.slice(0, 5))
    lines.push(
      `• *${escapeText(`${t.symbol}@${t.network}`)}*: threshold ${levelLabel(t, t.below)}, no longer in the asset list`,
    );
  const lowCount = facts.assets.filter(below).length;
  return [
    header(`Balances · ${total}`),
    ...linesToSections(lines).slice(0, 4),
    context(
      `${facts.assets.length} asset${facts.assets.length === 1 ? '' : 's'} · total ${total}${
        lowCount > 0 ? ` · :warning: ${lowCount} below ${lowCount === 1 ? 'its threshold' : 'their thresholds'}` : ''
      }`,
    ),
  ];
}

/** Orders two API decimals (USD values), missing ones last. */
function compareUsd(a: string, b: string): number {
  const cents = (value: string) => {
    const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
    if (!match) return -1n;
    const value100 = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0').slice(0, 2));
    return match[1] === '-' ? -value100 : value100;
  };
  const diff = cents(a) - cents(b);
  return diff > 0n ? 1 : diff < 0n ? -1 : 0;
}

// ---------------------------------------------------------------------------------------------------------
// Alerts

function alertBlocks(facts: HomeFacts): Block[] {
  const { shown, total } = facts.alerts;
  if (total === 0)
    return [header('Open alerts'), section(':white_check_mark: No open alerts. Nothing is waiting for an owner.')];
  const nobody = shown.filter((alert) => alert.view.life.state === 'open').length;
  const blocks: Block[] = [header(`Open alerts · ${formatCount(total)}`)];
  for (const alert of shown.slice(0, HOME_LISTED.alerts)) blocks.push(alertLine(alert, facts.now));
  const more = total - Math.min(shown.length, HOME_LISTED.alerts);
  blocks.push(
    context(
      `${more > 0 ? `…and ${formatCount(more)} more. ` : ''}Oldest first; ${formatCount(nobody)} shown with nobody on ${
        nobody === 1 ? 'it' : 'them'
      }. \`/treasury alerts open\` lists them all.`,
    ),
  );
  return blocks;
}

/** One alert: what, how old, who has it, a link; Acknowledge while nobody has it (the same control as its message). */
function alertLine({ view, postedAt, permalink }: HomeAlert, now: Date): Block {
  const title = clipText(alertTitle(view.subject, now), 200);
  const age = formatSpan(now.getTime() - Date.parse(postedAt));
  const life = view.life;
  const owner = life.acknowledgedBy ? `acknowledged by ${mention(life.acknowledgedBy)}` : '_nobody has it yet_';
  const snoozed =
    life.snoozedUntil && now.toISOString() < life.snoozedUntil
      ? ` · snoozed until ${formatSlackTime(new Date(life.snoozedUntil))}`
      : '';
  const open = permalink ? ` · ${link(permalink, 'open the alert')}` : '';
  const text = `*${title}*\n${escapeText(view.kind.replace(/_/g, ' '))} · ${age} old · ${owner}${snoozed}${open}`;
  // The block_id names the alert and the version shown, as on the alert message: a click on an outdated Home is
  // refused the same way as one on an outdated message.
  return {
    type: 'section',
    block_id: alertBlockId(life.version, view.key),
    text: { type: 'mrkdwn', text: clipText(text, LIMITS.sectionText) },
    ...(life.state === 'open'
      ? { accessory: button('Acknowledge', ACTION_IDS.alertAcknowledge, 'acknowledge', { style: 'primary' }) }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Quotes

/** `1,000 USDT → USDC` (escaped). */
function quoteAmounts(quote: SwapQuote): string {
  return `${escapeText(formatTokenAmount(quote.amountFrom, quote.from.decimals, quote.from.symbol))} → ${escapeText(quote.to.symbol)}`;
}

/** `≈ $1,000.00`, or nothing when the quote's USD value is unknown. */
function quoteValue(quote: SwapQuote): string {
  const value = quote.policy?.value ?? quote.valueUsd;
  return value && 'cents' in value ? ` · ≈ ${usdLabel(BigInt(value.cents))}` : '';
}

function waitingBlocks(facts: HomeFacts): Block[] {
  const { shown, total } = facts.waiting;
  if (total === 0) return [header('Waiting for your approval'), section('No swap quote is waiting for your approval.')];
  const lines = shown.slice(0, HOME_LISTED.waiting).map(({ quote, snapshot, permalink }) => {
    const approvals = approvalsOf(quote).length;
    const progress = snapshot.needed > 1 ? ` · ${approvals} of ${snapshot.needed} approvals` : '';
    const expires = formatRelative(new Date(quote.expiresAt), facts.now);
    const where = permalink ? link(permalink, 'Open the quote to approve or reject') : 'its message has no link now';
    return section(
      clipText(
        `*${quoteAmounts(quote)}*${quoteValue(quote)}\nrequested by ${mention(quote.requestedBy)}${progress} · expires ${expires}\n${where}`,
        LIMITS.sectionText,
      ),
    );
  });
  const more = total - lines.length;
  return [
    header(`Waiting for your approval · ${formatCount(total)}`),
    ...lines,
    context(
      `${more > 0 ? `…and ${formatCount(more)} more. ` : ''}Approve or reject on the quote's message, where the channel sees the decision.`,
    ),
  ];
}

function requestBlocks(facts: HomeFacts): Block[] {
  if (facts.requests.length === 0)
    return [
      header('Your recent requests'),
      section('You have not asked for a swap lately. Ask with `/treasury swap 1,000 USDT@ETH to USDC@ETH`.'),
    ];
  const lines = facts.requests.slice(0, HOME_LISTED.requests).map(({ quote, permalink }) => {
    const needed = quote.policy?.needed;
    const count =
      quote.status === 'pending' && needed !== undefined && needed > 1
        ? ` (${approvalsOf(quote).length} of ${needed} approvals)`
        : '';
    const swap = quote.swapStatus ? ` · swap ${escapeText(quote.swapStatus)}` : '';
    const open = permalink ? ` · ${link(permalink, 'open')}` : '';
    return `• *${quoteAmounts(quote)}*${quoteValue(quote)} · ${formatRelative(new Date(quote.estimatedAt), facts.now)} · *${OUTCOME_LABELS[quote.status]}*${count}${swap}${open}`;
  });
  return [header('Your recent requests'), ...linesToSections(lines).slice(0, 2)];
}
