/**
 * `/treasury policy`: who may ask for a swap, who approves it at which amounts, the limits and what is used of
 * the daily limit today, and what an amount would need, in plain words. Pure: the policy in, Block Kit out.
 */

import { context, header, type SlackMessage, section } from '../../blocks/common.js';
import { escapeText, mention } from '../../blocks/mrkdwn.js';
import { EVERYONE_MEANS } from '../access/rules.js';
import { mentionText } from '../alerts/mentions.js';
import { approvalsNeeded, MAX_PRICE_EXTRAPOLATION, type PolicyTier, splitApprovers, usdLabel } from './policy.js';
import { ESTIMATE_VALIDITY_MS } from './quote.js';

/** What one asset's daily limit has used in the last 24 hours. */
export interface LimitUseView {
  /** The asset, as people read it ("USDT on BSC"). */
  asset: string;
  createdCents: bigint;
  waitingCents: bigint;
}

/** The policy as configured now. */
export interface PolicyView {
  tiers: readonly PolicyTier[];
  /** User ids and user group ids (S…). */
  approvers: readonly string[];
  allowSelfApproval: boolean;
  treasuryUsers: readonly string[];
  maxUsdCents?: bigint | undefined;
  dailyLimitUsdCents?: bigint | undefined;
  /** Each asset with swaps or waiting quotes in the last 24 hours (only read when a daily limit is set). */
  limitUse?: readonly LimitUseView[];
}

/** People listed by name at most; a longer list says how many more (a section holds 3,000 characters). */
const PEOPLE_SHOWN = 20;

/** Assets listed with their daily use at most. */
const ASSETS_SHOWN = 15;

function people(ids: readonly string[]): string {
  const shown = ids.slice(0, PEOPLE_SHOWN).map(mention).join(', ');
  return ids.length > PEOPLE_SHOWN ? `${shown} and ${ids.length - PEOPLE_SHOWN} more` : shown;
}

/** The approvers: people by mention, groups as "members of @group". */
function approversText(ids: readonly string[]): string {
  const { userIds, groupIds } = splitApprovers(ids);
  const parts = [
    ...(userIds.length > 0 ? [people(userIds)] : []),
    ...groupIds.slice(0, PEOPLE_SHOWN).map((id) => `members of ${mentionText({ type: 'group', id })}`),
  ];
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function approvalsText(count: number): string {
  return count === 1 ? 'one approval' : `${count} distinct approvals`;
}

/** "up to $9,999.99: one approval · from $10,000: 2 distinct approvals · …" */
function tiersText(tiers: readonly PolicyTier[]): string {
  if (tiers.length === 1) return `${approvalsText(tiers[0]!.approvals)}, whatever the amount`;
  return tiers
    .map((tier, index) => {
      const next = tiers[index + 1];
      const range =
        index === 0 && next
          ? `below ${usdLabel(next.minCents)}`
          : next
            ? `from ${usdLabel(tier.minCents)} to below ${usdLabel(next.minCents)}`
            : `from ${usdLabel(tier.minCents)}`;
      return `${range}: ${approvalsText(tier.approvals)}`;
    })
    .join(' · ');
}

/** What one amount (in cents) would need under the policy now. */
function amountLine(policy: PolicyView, cents: bigint): string {
  const amount = usdLabel(cents);
  if (policy.maxUsdCents !== undefined && cents > policy.maxUsdCents)
    return `A swap worth ${amount} would be *refused*: it is above the ${usdLabel(policy.maxUsdCents)} allowed for one swap.`;
  if (policy.approvers.length === 0) return `A swap worth ${amount} could not be approved: nobody is an approver.`;
  const { needed } = approvalsNeeded(policy.tiers, { cents });
  const limit =
    policy.dailyLimitUsdCents !== undefined && cents > policy.dailyLimitUsdCents
      ? ` It is also above the daily limit of ${usdLabel(policy.dailyLimitUsdCents)} per asset, so it would be refused.`
      : '';
  return `A swap worth ${amount} needs *${approvalsText(needed)}* from ${needed === 1 ? 'an approver' : 'approvers'}${policy.allowSelfApproval ? '' : ' other than the requester'}.${limit}`;
}

function dailyLimitLines(policy: PolicyView): string[] {
  if (policy.dailyLimitUsdCents === undefined) return ['*Daily limit:* none.'];
  const limit = policy.dailyLimitUsdCents;
  const lines = [
    `*Daily limit:* ${usdLabel(limit)} per source asset in any 24 hours, counting the swaps created (or on their way). It is judged when a swap is approved: the approval that would pass it is refused. A new quote is refused when it would pass it with the requester's own quotes waiting for approval; other people's waiting quotes do not refuse it, but the quote says so when, approved first, they could leave it no room.`,
  ];
  const use = policy.limitUse ?? [];
  if (use.length === 0) {
    lines.push('Used in the last 24 hours: nothing yet.');
    return lines;
  }
  lines.push('Used in the last 24 hours:');
  for (const asset of use.slice(0, ASSETS_SHOWN)) {
    const used = asset.createdCents;
    const left = used >= limit ? 0n : limit - used;
    const waiting =
      asset.waitingCents > 0n ? `; ${usdLabel(asset.waitingCents)} more in quotes waiting for approval` : '';
    lines.push(
      `• ${escapeText(asset.asset)}: ${usdLabel(used)} of ${usdLabel(limit)} swapped, ${usdLabel(left)} left${waiting}`,
    );
  }
  if (use.length > ASSETS_SHOWN) lines.push(`• and ${use.length - ASSETS_SHOWN} more assets`);
  return lines;
}

/**
 * TREASURY_USERS in words: `*` is everyone in the installing organisation (people of other organisations in a
 * shared channel never are); an empty list lets nobody in; otherwise people and members of groups.
 */
function treasuryUsersText(ids: readonly string[]): string {
  if (ids.includes('*')) return `${EVERYONE_MEANS} (\`TREASURY_USERS=*\`; never people of other organisations)`;
  if (ids.length === 0) return 'nobody (`TREASURY_USERS` lists no one)';
  return approversText(ids);
}

export function buildPolicy(policy: PolicyView, amountCents?: bigint): SlackMessage {
  const lines = [
    `*Who may ask for a swap:* ${treasuryUsersText(policy.treasuryUsers)}.`,
    policy.approvers.length === 0
      ? '*Who approves:* nobody: no approvers are configured (`SWAP_APPROVERS`), so no swap can be approved.'
      : `*Who approves:* ${approversText(policy.approvers)}. Any of them (or the requester) may reject, which ends the quote for everyone.`,
    `*Approvals needed* (by the swap's USD value when quoted: the larger of what is swapped and what is estimated to arrive, each at its asset's own price): ${tiersText(policy.tiers)}. Each person counts once; a quote whose value is unknown (an asset with no price or a price of $0, or an amount over ${MAX_PRICE_EXTRAPOLATION} times the balance its price comes from) needs as many as the largest swaps.`,
    ...(policy.tiers.length > 1
      ? [
          "*Splitting does not lower the tier:* a swap's tier is judged on it plus the requester's own swaps of the last 24 hours (created, of unknown outcome, or waiting for approval; not rejected or expired ones), so two $6,000 swaps count as $12,000. If one of those has an unknown value, so has the total.",
        ]
      : []),
    policy.allowSelfApproval
      ? '*Self-approval:* allowed: a requester who is an approver counts as one of the approvals.'
      : '*Self-approval:* not allowed: the requester never counts as an approval.',
    policy.maxUsdCents === undefined
      ? '*Maximum per swap:* none.'
      : `*Maximum per swap:* ${usdLabel(policy.maxUsdCents)}; a larger quote, or one whose value is unknown, is refused.`,
    `*Quotes:* valid for ${ESTIMATE_VALIDITY_MS / 60_000} minutes (the payment service holds an estimate that long); the approvers who have not acted are reminded 10 minutes before. An expired one can be quoted again.`,
  ];
  const text = amountCents === undefined ? 'The swap approval policy' : amountLine(policy, amountCents);
  return {
    text,
    blocks: [
      header('Swap approval policy'),
      ...(amountCents === undefined ? [] : [section(amountLine(policy, amountCents))]),
      // With a daily limit, its use per asset gets a section of its own: beside the rest it might not fit (3,000
      // characters).
      ...(policy.dailyLimitUsdCents === undefined
        ? [section([...lines, ...dailyLimitLines(policy)].join('\n'))]
        : [section(lines.join('\n')), section(dailyLimitLines(policy).join('\n'))]),
      context(
        'The policy is the deployment’s configuration (`SWAP_POLICY`, `SWAP_APPROVERS`, `ALLOW_SELF_APPROVAL`, `SWAP_MAX_USD`, `SWAP_DAILY_LIMIT_USD`, `TREASURY_USERS`): changing it is a reviewed change of that configuration, never something done from Slack. Each quote keeps the policy it was made under.',
      ),
    ],
  };
}
